//! The book's table of attribute equivalents (`docs/book/src/guides/migrate.md`), generated
//! from the engine's migration table ([`ROWS`]) between a [`BEGIN`] line and the marker pages'
//! end line; `kubegen migrate --write-docs docs/book/src/guides/migrate.md` rewrites it.

use kubegen_core::model::Diagnostic;
use kubegen_core::parse::foreign::{Foreign, ROWS};

use crate::markers::page::{replace_section, row};

/// The line that starts the generated table.
pub const BEGIN: &str = "<!-- \"Coming from kube-derive\": generated from core/src/parse/foreign by kubegen migrate --write-docs -->";

/// The table, as Markdown: one row per key, grouped by attribute.
pub fn markdown() -> String {
    let columns = [
        "attribute",
        "key",
        "kubegen",
        "example",
        "`kubegen migrate` writes",
    ];
    let mut out = row(columns.iter().map(|c| c.to_string()));
    out += &row(columns.iter().map(|_| "---".to_string()));
    for r in ROWS {
        let written = match r.example.1 {
            "" => "nothing (see the kubegen column)".to_string(),
            text => text
                .lines()
                .map(|l| format!("`{l}`"))
                .collect::<Vec<_>>()
                .join("<br>"),
        };
        out += &row([
            format!("`#[{}]` ({})", r.attribute.name(), r.attribute.owner()),
            r.form.to_string(),
            r.kubegen.to_string(),
            format!("`{}`", r.example.0),
            written,
        ]);
    }
    let stay: Vec<String> = Foreign::ALL
        .iter()
        .filter(|f| f.stays())
        .map(|f| format!("`#[{}]`", f.name()))
        .collect();
    let (last, others) = stay.split_last().expect("attributes that stay");
    out += &format!(
        "\nThe attributes {} and {last} stay, and their other keys are kept as they are: they \
         check or shape values at run time and add nothing kubegen reads.\n",
        others.join(", ")
    );
    out
}

/// `page` with its generated table rewritten.
pub fn refresh(page: &str) -> Result<String, Diagnostic> {
    replace_section(page, BEGIN, &markdown()).map_err(|what| {
        Diagnostic::plain(format!("the migration table {what}")).with_note(format!(
            "it is the text between `{BEGIN}` and `{}`",
            crate::markers::page::END
        ))
    })
}
