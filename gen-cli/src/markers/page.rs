//! The key tables of docs/markers.md, generated from the marker registry: each section of
//! [`SECTIONS`] stands in the page between a [`begin`] line naming it and an [`END`] line,
//! and `kubegen markers --write-docs FILE` rewrites what is between them (the page's other
//! prose is written by hand).

use std::fs;
use std::path::Path;

use kubegen_core::model::Diagnostic;
use kubegen_core::parse::registry::{Entry, SECTIONS, Section};

use super::wrap;

/// The line that ends a generated section.
pub const END: &str = "<!-- end of the generated key table -->";

/// The line that starts the generated section of `section`.
pub fn begin(section: &Section) -> String {
    format!(
        "<!-- \"{}\": generated from core/src/parse/registry by kubegen markers --write-docs -->",
        section.heading
    )
}

/// `page` with every generated section rewritten from the registry; an error when a section
/// has no place in it or a generated section is not closed.
pub fn refresh(page: &str) -> Result<String, Diagnostic> {
    let mut out = page.to_string();
    for section in SECTIONS {
        out = replace_section(&out, &begin(section), &markdown(section))
            .map_err(|what| problem(section, &what))?;
    }
    Ok(out)
}

/// `page` with the text between the line `begin` (which it holds once) and the next [`END`]
/// replaced by `content`; what is wrong with the page otherwise.
pub fn replace_section(page: &str, begin: &str, content: &str) -> Result<String, String> {
    let start = match page
        .match_indices(begin)
        .map(|(i, _)| i)
        .collect::<Vec<_>>()[..]
    {
        [start] => start + begin.len(),
        [] => return Err("has no place in the page".into()),
        _ => return Err("has more than one place in the page".into()),
    };
    let Some(length) = page[start..].find(END) else {
        return Err(format!("is not closed by `{END}`"));
    };
    let mut out = page.to_string();
    out.replace_range(start..start + length, &format!("\n\n{content}\n"));
    Ok(out)
}

/// An error about the generated section of `section`.
fn problem(section: &Section, what: &str) -> Diagnostic {
    Diagnostic::plain(format!("the key table of \"{}\" {what}", section.heading)).with_note(
        format!("it is the text between `{}` and `{END}`", begin(section)),
    )
}

/// Rewrites the generated sections of the Markdown file `path`, leaving it untouched when
/// they are fresh.
pub fn write(path: &Path) -> Result<(), Diagnostic> {
    write_with(path, refresh)
}

/// Rewrites the Markdown file `path` as `refresh` makes it, leaving it untouched when that
/// changes nothing.
pub fn write_with(
    path: &Path,
    refresh: impl Fn(&str) -> Result<String, Diagnostic>,
) -> Result<(), Diagnostic> {
    let io = |e: std::io::Error| Diagnostic::plain(format!("{}: {e}", path.display()));
    let page = fs::read_to_string(path).map_err(io)?;
    let fresh = refresh(&page).map_err(|mut e| {
        e.message = format!("{}: {}", path.display(), e.message);
        e
    })?;
    if fresh != page {
        crate::output::write_atomically(path, &fresh).map_err(io)?;
    }
    Ok(())
}

/// The section's key table, then the rules that hold between its keys, as Markdown.
pub fn markdown(section: &Section) -> String {
    let mut columns = vec!["key", "value", "controller-gen marker", section.emits];
    if section.notes {
        columns.push("notes");
    }
    columns.push("example");
    let mut out = row(columns.iter().map(|c| c.to_string()));
    out += &row(columns.iter().map(|_| "---".to_string()));
    for entry in section.entries {
        out += &row(cells(section, entry));
    }
    for rule in section.rules {
        out += &format!("\n{}\n", wrap(rule, 0));
    }
    out
}

/// The cells of an entry's row.
fn cells(section: &Section, entry: &Entry) -> Vec<String> {
    let examples: Vec<String> = entry.examples.iter().map(|e| format!("`{e}`")).collect();
    let mut cells = vec![
        entry.form.to_string(),
        entry.value(),
        entry.marker.to_string(),
        entry.emits.to_string(),
    ];
    if section.notes {
        cells.push(entry.notes.to_string());
    }
    cells.push(examples.join(", "));
    cells
}

/// A table row of `cells`, each `|` in them escaped.
pub fn row(cells: impl IntoIterator<Item = String>) -> String {
    let mut out = String::from("|");
    for cell in cells {
        match cell.replace('|', "\\|") {
            empty if empty.is_empty() => out += " |",
            cell => out += &format!(" {cell} |"),
        }
    }
    out + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubegen_core::parse::registry::RBAC;

    #[test]
    fn refresh_rewrites_only_the_generated_sections() {
        let mut page = String::from("# Intro\n\nHand-written.\n");
        for section in SECTIONS {
            page += &format!(
                "\n# {}\n\n{}\nstale\n{END}\n\nAfter.\n",
                section.heading,
                begin(section)
            );
        }
        let fresh = refresh(&page).unwrap();
        assert!(!fresh.contains("stale"), "{fresh}");
        assert!(fresh.starts_with("# Intro\n\nHand-written.\n"), "{fresh}");
        assert_eq!(fresh.matches("\nAfter.\n").count(), SECTIONS.len());
        assert!(fresh.contains(&markdown(&RBAC)), "{fresh}");
        assert_eq!(refresh(&fresh).unwrap(), fresh);
    }

    #[test]
    fn a_page_without_a_section_is_an_error() {
        let e = refresh("# Nothing here\n").unwrap_err();
        assert!(e.message.contains("has no place in the page"), "{e:?}");
        let unclosed = SECTIONS.iter().map(|s| begin(s) + "\n").collect::<String>();
        let e = refresh(&unclosed).unwrap_err();
        assert!(e.message.contains("is not closed"), "{e:?}");
    }

    #[test]
    fn rows_escape_pipes_and_keep_empty_cells() {
        assert_eq!(
            row([
                "`a \"x\" | \"y\"`".to_string(),
                String::new(),
                "b".to_string()
            ]),
            "| `a \"x\" \\| \"y\"` | | b |\n"
        );
    }
}
