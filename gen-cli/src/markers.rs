//! `kubegen markers [KEY]`: the key reference at the command line. Its one source is the key
//! tables of docs/markers.md (the `kubegen::markers` documentation), read at compile time and
//! parsed here; tests check every row's `example` against the engine's parsers.

use kubegen_core::model::Diagnostic;
use kubegen_core::parse::markers::{Place, places};
use kubegen_core::parse::values::nearest;

use crate::report::Reporter;

/// The marker reference, as the `kubegen` crate documents it.
const DOC: &str = include_str!("../../docs/markers.md");

/// `kubegen markers [KEY]`.
#[derive(Debug, Clone, clap::Args)]
pub struct MarkersArgs {
    /// The key to explain (all keys when absent).
    pub key: Option<String>,
}

/// A key kubegen does not know, and the nearest one it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// The key asked for.
    pub key: String,
    /// The known key closest to it, if one is close.
    pub suggestion: Option<String>,
}

/// A section of docs/markers.md with a key table: its heading, the attribute its keys belong
/// to, and where that attribute goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// The heading, without its `#`s.
    pub heading: &'static str,
    /// The attribute's name (`kube_marker`, `rbac`, ...).
    pub attribute: &'static str,
    /// Where the attribute goes.
    pub goes_on: &'static str,
}

/// The sections whose first table lists keys, in the file's order.
pub const SECTIONS: &[Section] = &[
    Section {
        heading: "Resource keys",
        attribute: "kube_marker",
        goes_on: "the spec struct (`#[derive(CustomResource)]`)",
    },
    Section {
        heading: "Schema keys",
        attribute: "kube_marker",
        goes_on: "a field, a type deriving `KubeSchema`, or the spec struct",
    },
    Section {
        heading: "RBAC keys",
        attribute: "rbac",
        goes_on: "any item (fn, struct, enum, impl, mod, ...), as often as needed",
    },
    Section {
        heading: "Webhook keys",
        attribute: "webhook",
        goes_on: "any item (the handler, or a `CustomResource` spec struct), as often as needed",
    },
    Section {
        heading: "Webhook configuration keys",
        attribute: "webhook_configuration",
        goes_on: "any item, once per configuration",
    },
];

/// One row of a key table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The section the table is in.
    pub section: &'static Section,
    /// The keys the row documents: the identifiers that start the first cell's code spans.
    pub keys: Vec<String>,
    /// The first cell, as written: the keys and their form.
    pub form: String,
    /// The `value` column.
    pub value: String,
    /// The `controller-gen marker` column.
    pub marker: String,
    /// The `emits` column.
    pub emits: String,
    /// The `notes` column (empty where the table has none).
    pub notes: String,
    /// The code spans of the `example` column: attribute lines.
    pub examples: Vec<String>,
}

/// Every row of the key tables of docs/markers.md, in the file's order.
pub fn rows() -> Vec<Row> {
    parse_tables(DOC)
}

/// Prints the reference, or the unknown key's error; `false` on an unknown key.
pub fn run(args: &MarkersArgs, reporter: &Reporter) -> bool {
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

/// The text `kubegen markers [KEY]` prints.
pub fn reference(key: Option<&str>) -> Result<String, Unknown> {
    let rows = rows();
    let Some(key) = key else {
        return Ok(list(&rows));
    };
    let found: Vec<String> = rows
        .iter()
        .filter(|r| r.keys.iter().any(|k| k == key))
        .map(|r| explain(r, key))
        .collect();
    if found.is_empty() {
        let keys: Vec<&str> = rows
            .iter()
            .flat_map(|r| r.keys.iter().map(String::as_str))
            .collect();
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
fn list(rows: &[Row]) -> String {
    let mut out =
        String::from("The keys of kubegen's attributes; `kubegen markers KEY` explains one.\n");
    for section in SECTIONS {
        out += &format!(
            "\n{}: `#[{}(...)]` on {}\n",
            section.heading, section.attribute, section.goes_on
        );
        for row in rows.iter().filter(|r| r.section == section) {
            let marker = match row.marker.replace('`', "") {
                m if m.is_empty() => "kubegen only".to_string(),
                m => m,
            };
            let names = row.keys.join(", ");
            // Names too long for their column stand on a line of their own.
            let gap = if names.len() > KEY_WIDTH {
                format!("\n  {:KEY_WIDTH$}", "")
            } else {
                " ".repeat(KEY_WIDTH - names.len())
            };
            out += &format!("  {names}{gap}  {}  [{marker}]\n", first_clause(&row.emits));
        }
    }
    out + FOOTER
}

/// One row's whole reference, for `key`.
fn explain(row: &Row, key: &str) -> String {
    let attribute = row.section.attribute;
    let goes_on = if attribute == "kube_marker" {
        place_names(&places(key))
    } else {
        row.section.goes_on.to_string()
    };
    let mut out = format!(
        "`{key}`: a key of `#[{attribute}(...)]` ({})\n\n",
        row.section.heading
    );
    let mut field = |name: &str, text: &str| {
        if !text.is_empty() {
            out += &format!("  {name:<9}{}\n", wrap(text, 11));
        }
    };
    field("goes on", &goes_on);
    field("form", &row.form);
    field("value", &row.value);
    field("mirrors", &row.marker);
    field("emits", &row.emits);
    field("notes", &row.notes);
    for (i, example) in row.examples.iter().enumerate() {
        field(if i == 0 { "example" } else { "" }, example);
    }
    let rules = rules(DOC, row.section.heading);
    if !rules.is_empty() {
        out += &format!("\nWhat holds for every key of `#[{attribute}(...)]` here:\n");
        for rule in rules {
            out += &format!("\n  {}\n", wrap(&rule, 2));
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
/// indented by `indent` (the first starts there); a word longer than a line stays whole.
fn wrap(text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut column = indent;
    for word in text.split(' ') {
        if column > indent && column + 1 + word.len() > WIDTH {
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

/// The paragraphs of the section `heading` of `doc` after its key table, up to the next
/// heading, without code blocks: the rules that hold between its keys.
fn rules(doc: &str, heading: &str) -> Vec<String> {
    let mut paragraphs = Vec::new();
    let (mut inside, mut after_table) = (false, false);
    let mut paragraph = String::new();
    for line in outside_code(doc) {
        let line = match line {
            Line::Heading(h) => {
                inside = h == heading;
                after_table = false;
                continue;
            }
            Line::Text(line) => line,
        };
        if !inside {
            continue;
        }
        if line.starts_with('|') {
            after_table = true;
        } else if after_table && !line.trim().is_empty() {
            paragraph = format!("{paragraph} {}", unlinked(line.trim()))
                .trim_start()
                .to_string();
            continue;
        }
        if !paragraph.is_empty() {
            paragraphs.push(std::mem::take(&mut paragraph));
        }
    }
    if !paragraph.is_empty() {
        paragraphs.push(paragraph);
    }
    paragraphs
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

/// A line of Markdown outside code blocks: a heading (its text) or any other line.
enum Line<'a> {
    Heading(&'a str),
    Text(&'a str),
}

/// The lines of `doc` outside its fenced code blocks, headings told apart.
fn outside_code(doc: &str) -> impl Iterator<Item = Line<'_>> {
    let mut fenced = false;
    doc.lines().filter_map(move |line| {
        if line.starts_with("```") {
            fenced = !fenced;
            return None;
        }
        if fenced {
            None
        } else if line.starts_with('#') {
            Some(Line::Heading(line.trim_start_matches('#').trim()))
        } else {
            Some(Line::Text(line))
        }
    })
}

/// The rows of the first table of each of [`SECTIONS`] in `doc`.
fn parse_tables(doc: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut section: Option<&'static Section> = None;
    let mut header: Option<Vec<String>> = None;
    for line in outside_code(doc) {
        let line = match line {
            Line::Heading(heading) => {
                section = SECTIONS.iter().find(|s| s.heading == heading);
                header = None;
                continue;
            }
            Line::Text(line) => line,
        };
        let Some(current) = section else { continue };
        if !line.starts_with('|') {
            if header.is_some() {
                section = None; // the first table is over
            }
            continue;
        }
        let cells = cells(line);
        match &header {
            None => header = Some(cells),
            Some(_) if cells.iter().all(|c| c.chars().all(|c| c == '-')) => {}
            Some(names) => rows.push(row(current, names, cells)),
        }
    }
    rows
}

/// A table row from its cells, by the header's column names.
fn row(section: &'static Section, header: &[String], cells: Vec<String>) -> Row {
    let column = |prefix: &str| {
        header
            .iter()
            .position(|h| h.starts_with(prefix))
            .and_then(|i| cells.get(i))
            .cloned()
            .unwrap_or_default()
    };
    let form = column("key");
    let mut keys: Vec<String> = Vec::new();
    for span in code_spans(&form) {
        let end = span
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(span.len());
        // `end` is where `find` stopped (or the length): a character boundary.
        let key = &span[..end];
        if key.starts_with(|c: char| c.is_ascii_lowercase()) && !keys.iter().any(|k| k == key) {
            keys.push(key.to_string());
        }
    }
    Row {
        section,
        keys,
        value: column("value"),
        marker: column("controller-gen"),
        emits: column("emits"),
        notes: column("notes"),
        examples: code_spans(&column("example"))
            .into_iter()
            .map(str::to_string)
            .collect(),
        form,
    }
}

/// The cells of a table line, trimmed, with `\|` unescaped.
fn cells(line: &str) -> Vec<String> {
    let (mut cells, mut cell) = (Vec::new(), String::new());
    let mut chars = line.trim().trim_start_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cell.push('|');
            }
            '|' => cells.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    cells.push(cell);
    if line.trim_end().ends_with('|') {
        cells.pop();
    }
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// The contents of the code spans (`` `...` ``) in `text`.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_unescape_pipes() {
        assert_eq!(
            cells(r#"| `scope = "Namespaced" \| "Cluster"`, or `namespaced` | word | |"#),
            [
                r#"`scope = "Namespaced" | "Cluster"`, or `namespaced`"#,
                "word",
                ""
            ]
        );
    }

    #[test]
    fn keys_start_the_first_cell_code_spans() {
        let doc = "# Resource keys\n\n| key | value | example |\n| --- | --- | --- |\n\
            | `scope = \"Namespaced\" \\| \"Cluster\"`, or `namespaced` | word | `#[kube_marker(namespaced)]` |\n\
            | `map_type`, `struct_type` = `\"atomic\" \\| \"granular\"` | word | `a`, `b` |\n\n\
            | key |\n| --- |\n| `not_read` |\n";
        let rows = parse_tables(doc);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].keys, ["scope", "namespaced"]);
        assert_eq!(rows[0].examples, ["#[kube_marker(namespaced)]"]);
        assert_eq!(rows[1].keys, ["map_type", "struct_type"]);
        assert_eq!(rows[1].examples, ["a", "b"]);
        assert_eq!(rows[1].notes, "");
    }

    #[test]
    fn code_blocks_do_not_end_sections() {
        let doc = "# Schema keys\n```rust\n# fn main() {}\n```\n| key | example |\n| --- | --- |\n| `nullable` | `x` |\n";
        assert_eq!(parse_tables(doc)[0].keys, ["nullable"]);
    }

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
    fn places_read_as_a_list() {
        assert_eq!(place_names(&[Place::Field]), "a field");
        assert_eq!(
            place_names(&[Place::Spec, Place::Type, Place::Field]),
            "a field, a type deriving `KubeSchema`, or the spec struct (`#[derive(CustomResource)]`)"
        );
    }
}
