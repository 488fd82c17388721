//! Diagnostics as rustc prints them, with annotate-snippets (the crate rustc uses).

use annotate_snippets::{AnnotationKind, Group, Level as Kind, Patch, Renderer, Snippet};
use kubegen_core::model::{Diagnostic, Level};

use super::source::{Sources, byte_range};

/// The diagnostic's text: headline, `-->` location, source lines with carets and labels,
/// `= note:` and `= help:` lines; colored with ANSI escapes when `color`.
pub fn render(d: &Diagnostic, sources: &mut Sources, color: bool) -> String {
    let kind = match d.level {
        Level::Error => Kind::ERROR,
        Level::Warning => Kind::WARNING,
    };
    let headline = d.headline();
    let file = d
        .loc
        .as_ref()
        .map(|l| crate::paths::display(l.file.as_ref()));
    let text = d
        .loc
        .as_ref()
        .and_then(|l| sources.text(&l.file).map(str::to_owned));
    let primary = d
        .loc
        .as_ref()
        .zip(text.as_deref())
        .and_then(|(loc, text)| byte_range(text, loc));
    let mut group = Group::with_title(kind.primary_title(headline.as_str()));
    let mut patch = None;
    match (&text, &primary, &file) {
        (Some(text), Some(range), Some(file)) => {
            let mut snippet = Snippet::source(text.as_str())
                .path(file.as_str())
                .annotation(
                    AnnotationKind::Primary
                        .span(range.clone())
                        .label(d.label.as_deref()),
                );
            for label in d
                .labels
                .iter()
                .filter(|l| l.loc.file == d.loc.as_ref().map_or("", |p| p.file.as_str()))
            {
                if let Some(r) = byte_range(text, &label.loc) {
                    snippet = snippet.annotation(
                        AnnotationKind::Context
                            .span(r)
                            .label(label.message.as_str()),
                    );
                }
            }
            group = group.element(snippet);
            if let Some(replacement) = d.help.as_ref().and_then(|h| h.replacement.as_deref()) {
                patch = Some((text.as_str(), file.as_str(), range.clone(), replacement));
            }
        }
        // The file is gone or changed: the location alone, as `file:line:col`.
        _ => {
            if let Some(loc) = &d.loc {
                group = group.element(
                    annotate_snippets::Origin::path(file.clone().unwrap_or_default())
                        .line(loc.line)
                        .char_column(loc.column.saturating_sub(1)),
                );
            }
        }
    }
    for note in &d.notes {
        group = group.element(Kind::NOTE.message(note.as_str()));
    }
    let report: Vec<Group> = match (&d.help, patch) {
        (Some(help), Some((text, file, range, replacement))) => vec![
            group,
            Kind::HELP.secondary_title(help.message.as_str()).element(
                Snippet::source(text)
                    .path(file)
                    .patch(Patch::new(range, replacement)),
            ),
        ],
        (Some(help), None) => vec![group.element(Kind::HELP.message(help.message.as_str()))],
        (None, _) => vec![group],
    };
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    renderer.render(&report)
}
