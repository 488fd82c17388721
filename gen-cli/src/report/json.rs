//! Diagnostics as rustc's JSON (`--error-format=json`, what cargo nests in
//! `--message-format json`): the field names editors and CI tools already read.

use kubegen_core::model::{Diagnostic, Loc};
use serde_json::{Value, json};

use super::source::{Sources, byte_range};

/// One diagnostic as a JSON object; `rendered` is its human text.
pub fn render(d: &Diagnostic, sources: &mut Sources, rendered: &str) -> Value {
    let mut spans = Vec::new();
    if let Some(loc) = &d.loc {
        spans.push(span(loc, true, d.label.as_deref(), None, sources));
    }
    for label in &d.labels {
        spans.push(span(&label.loc, false, Some(&label.message), None, sources));
    }
    let mut children: Vec<Value> = d
        .notes
        .iter()
        .map(|note| child("note", note, Vec::new()))
        .collect();
    if let Some(help) = &d.help {
        let spans = match (&d.loc, &help.replacement) {
            (Some(loc), Some(replacement)) => {
                vec![span(loc, true, None, Some(replacement), sources)]
            }
            _ => Vec::new(),
        };
        children.push(child("help", &help.message, spans));
    }
    json!({
        "$message_type": "diagnostic",
        "message": d.headline(),
        "code": null,
        "level": d.level.as_str(),
        "spans": spans,
        "children": children,
        "rendered": rendered,
    })
}

fn child(level: &str, message: &str, spans: Vec<Value>) -> Value {
    json!({
        "message": message,
        "code": null,
        "level": level,
        "spans": spans,
        "children": [],
        "rendered": null,
    })
}

fn span(
    loc: &Loc,
    primary: bool,
    label: Option<&str>,
    replacement: Option<&str>,
    sources: &mut Sources,
) -> Value {
    let text = sources.text(&loc.file);
    let bytes = text.and_then(|t| byte_range(t, loc));
    let lines: Vec<Value> = text
        .map(|t| {
            t.split('\n')
                .skip(loc.line.saturating_sub(1))
                .take(loc.end_line.saturating_sub(loc.line) + 1)
                .enumerate()
                .map(|(i, line)| {
                    let first = i == 0;
                    let last = loc.line + i == loc.end_line;
                    json!({
                        "text": line,
                        "highlight_start": if first { loc.column } else { 1 },
                        "highlight_end": if last { loc.end_column } else { line.chars().count() + 1 },
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "file_name": loc.file,
        "byte_start": bytes.as_ref().map_or(0, |r| r.start),
        "byte_end": bytes.as_ref().map_or(0, |r| r.end),
        "line_start": loc.line,
        "line_end": loc.end_line,
        "column_start": loc.column,
        "column_end": loc.end_column,
        "is_primary": primary,
        "text": lines,
        "label": label,
        "suggested_replacement": replacement,
        "suggestion_applicability": replacement.map(|_| "MaybeIncorrect"),
        "expansion": null,
    })
}
