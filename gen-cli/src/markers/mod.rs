//! `kubegen markers [KEY]`: the key reference at the command line, printed from the engine's
//! marker registry ([`kubegen_core::parse::registry`]), which the key tables of
//! docs/markers.md are generated from too ([`page`], `kubegen markers --write-docs FILE`).

pub mod page;

use std::path::PathBuf;

use kubegen_core::model::Diagnostic;
use kubegen_core::parse::registry::{Entry, Place, SECTIONS, Section};
use kubegen_core::parse::values::nearest;

use crate::report::Reporter;

/// `kubegen markers [KEY]`.
#[derive(Debug, Clone, clap::Args)]
pub struct MarkersArgs {
    /// The key to explain (all keys when absent).
    pub key: Option<String>,
    /// Rewrite the generated key tables of this Markdown file (kubegen's docs/markers.md)
    /// from the registry, and print nothing else.
    #[arg(long, value_name = "FILE", hide = true, conflicts_with = "key")]
    pub write_docs: Option<PathBuf>,
}

/// A key kubegen does not know, and the nearest one it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// The key asked for.
    pub key: String,
    /// The known key closest to it, if one is close.
    pub suggestion: Option<String>,
}

/// Prints the reference, or the unknown key's error; `false` on an unknown key.
pub fn run(args: &MarkersArgs, reporter: &Reporter) -> bool {
    if let Some(file) = &args.write_docs {
        return match page::write(file) {
            Ok(()) => true,
            Err(error) => {
                reporter.emit_all(&[error]);
                false
            }
        };
    }
    match reference(args.key.as_deref()) {
        Ok(text) => {
            print!("{text}");
            true
        }
        Err(unknown) => {
            let mut error = Diagnostic::plain(format!("unknown key `{}`", unknown.key))
                .with_note("`kubegen markers` lists every key");
            if let Some(s) = &unknown.suggestion {
                error = error.with_help(format!("did you mean `{s}`?"), None);
            }
            reporter.emit_all(&[error]);
            false
        }
    }
}

/// Every entry of the registry with its section, in the reference's order.
fn entries() -> impl Iterator<Item = (&'static Section, &'static Entry)> {
    SECTIONS
        .iter()
        .flat_map(|&section| section.entries.iter().map(move |entry| (section, entry)))
}

/// The text `kubegen markers [KEY]` prints.
pub fn reference(key: Option<&str>) -> Result<String, Unknown> {
    let Some(key) = key else {
        return Ok(list());
    };
    let found: Vec<String> = entries()
        .filter(|(_, entry)| entry.names().any(|k| k == key))
        .map(|(section, entry)| explain(section, entry, key))
        .collect();
    if found.is_empty() {
        let keys: Vec<&str> = entries().flat_map(|(_, entry)| entry.names()).collect();
        return Err(Unknown {
            key: key.to_string(),
            suggestion: nearest(key, &keys).map(str::to_string),
        });
    }
    Ok(found.join("\n") + FOOTER)
}

/// Where the rest is.
const FOOTER: &str =
    "\nThe whole reference, with examples: docs/markers.md (`kubegen::markers` on docs.rs).\n";

/// The width of the key column of the list.
const KEY_WIDTH: usize = 24;

/// Every key with its summary and its controller-gen marker, section by section.
fn list() -> String {
    let mut out =
        String::from("The keys of kubegen's attributes; `kubegen markers KEY` explains one.\n");
    for section in SECTIONS {
        out += &format!(
            "\n{}: `#[{}(...)]` on {}\n",
            section.heading, section.attribute, section.goes_on
        );
        for entry in section.entries {
            let marker = match entry.marker.replace('`', "") {
                m if m.is_empty() => "kubegen only".to_string(),
                m => m,
            };
            let names = entry.names().collect::<Vec<_>>().join(", ");
            // Names too long for their column stand on a line of their own.
            let gap = if names.len() > KEY_WIDTH {
                format!("\n  {:KEY_WIDTH$}", "")
            } else {
                " ".repeat(KEY_WIDTH - names.len())
            };
            out += &format!(
                "  {names}{gap}  {}  [{marker}]\n",
                first_clause(entry.emits)
            );
        }
    }
    out + FOOTER
}

/// One entry's whole reference, for `key`.
fn explain(section: &Section, entry: &Entry, key: &str) -> String {
    let attribute = section.attribute;
    let goes_on = match entry.keys.iter().find(|k| k.name == key) {
        Some(k) if attribute == "kube_marker" => place_names(k.goes.places()),
        _ => section.goes_on.to_string(),
    };
    let mut out = format!(
        "`{key}`: a key of `#[{attribute}(...)]` ({})\n\n",
        section.heading
    );
    let mut field = |name: &str, text: &str| {
        if !text.is_empty() {
            out += &format!("  {name:<9}{}\n", wrap(text, 11));
        }
    };
    field("goes on", &goes_on);
    field("form", entry.form);
    field("value", &entry.value());
    field("mirrors", entry.marker);
    field("emits", entry.emits);
    field("notes", entry.notes);
    for (i, example) in entry.examples.iter().enumerate() {
        field(if i == 0 { "example" } else { "" }, example);
    }
    if !section.rules.is_empty() {
        out += &format!("\nWhat holds for every key of `#[{attribute}(...)]` here:\n");
        for rule in section.rules {
            out += &format!("\n  {}\n", wrap(&unlinked(rule), 2));
        }
    }
    out
}

/// `a field, a type deriving `KubeSchema` or the spec struct`.
fn place_names(places: &[Place]) -> String {
    let names: Vec<&str> = places
        .iter()
        .rev()
        .map(|p| match p {
            Place::Field => "a field",
            Place::Type => "a type deriving `KubeSchema`",
            Place::Spec => "the spec struct (`#[derive(CustomResource)]`)",
        })
        .collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{}, or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `text` wrapped at spaces to lines of at most [`WIDTH`] columns, each line after the first
/// indented by `indent` (the first starts there); a word longer than a line stays whole, and
/// no line starts with a word that would open a Markdown block (the same wrapping serves the
/// terminal and docs/markers.md).
fn wrap(text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut column = indent;
    for word in text.split(' ') {
        if column > indent && column + 1 + word.len() > WIDTH && !opens_block(word) {
            out += &format!("\n{:indent$}", "");
            column = indent;
        } else if column > indent {
            out.push(' ');
            column += 1;
        }
        out += word;
        column += word.len();
    }
    out
}

/// Whether a line starting with `word` would be read as a Markdown block (a heading, quote,
/// table or list item) instead of a paragraph's next line.
fn opens_block(word: &str) -> bool {
    let numbered = word
        .strip_suffix(['.', ')'])
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    word.starts_with(['#', '>', '|']) || ["-", "+", "*"].contains(&word) || numbered
}

/// The width `kubegen markers KEY` wraps its text to.
const WIDTH: usize = 100;

/// `text` up to its first `; ` outside code spans and parentheses.
fn first_clause(text: &str) -> &str {
    let (mut code, mut depth) = (false, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '`' => code = !code,
            '(' if !code => depth += 1,
            ')' if !code => depth = depth.saturating_sub(1),
            // `i` comes from `char_indices`: a character boundary.
            ';' if !code && depth == 0 => return &text[..i],
            _ => {}
        }
    }
    text
}

/// `line` with each Markdown link `[text](target)` as its text.
fn unlinked(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let link = rest[open..].find("](").and_then(|mid| {
            let close = rest[open + mid..].find(')')?;
            Some((open + mid, open + mid + close))
        });
        let Some((mid, close)) = link else { break };
        out += &rest[..open];
        out += &rest[open + 1..mid];
        rest = &rest[close + 1..];
    }
    out + rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_stop_at_the_first_clause() {
        assert_eq!(
            first_clause("`minLength` (`a; b`; c); strings only; more"),
            "`minLength` (`a; b`; c)"
        );
        assert_eq!(first_clause("all of it"), "all of it");
    }

    #[test]
    fn long_text_wraps_with_a_hanging_indent() {
        assert_eq!(wrap("short", 11), "short");
        let text = ["word"; 40].join(" ");
        let wrapped = wrap(&text, 11);
        let lines: Vec<&str> = wrapped.lines().collect();
        assert!(lines.len() > 1, "{wrapped}");
        assert!(lines[0].len() + 11 <= WIDTH, "{wrapped}");
        assert!(lines[1..].iter().all(|l| l.len() <= WIDTH), "{wrapped}");
        assert!(
            lines[1..].iter().all(|l| l.starts_with(&" ".repeat(11))),
            "{wrapped}"
        );
        assert_eq!(wrapped.split_whitespace().count(), 40);
    }

    #[test]
    fn no_wrapped_line_opens_a_markdown_block() {
        let long = "a".repeat(WIDTH - 1);
        for word in ["#", "-", "*", "1.", "12)", "|a", ">"] {
            let wrapped = wrap(&format!("{long} {word} end"), 0);
            assert_eq!(wrapped, format!("{long} {word}\nend"));
        }
        assert_eq!(wrap(&format!("{long} plain"), 0), format!("{long}\nplain"));
        assert!(!opens_block("1.5") && !opens_block("`#[x]`") && !opens_block("="));
    }

    #[test]
    fn places_read_as_a_list() {
        assert_eq!(place_names(&[Place::Field]), "a field");
        assert_eq!(
            place_names(&[Place::Spec, Place::Type, Place::Field]),
            "a field, a type deriving `KubeSchema`, or the spec struct (`#[derive(CustomResource)]`)"
        );
    }
}
