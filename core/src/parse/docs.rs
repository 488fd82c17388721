//! Doc comments → `description`, by controller-gen's rules: controller-tools' `extractDoc`
//! (`pkg/markers/zip.go`) over Go's `ast.CommentGroup.Text`. A `///` line is a Go `//` line
//! (its doc attribute holds what follows the slashes, as Go's comment does); a doc attribute
//! whose text has a line break (a `/** */` block) is a Go `/* */` comment. In order:
//!
//! 1. a line whose text, trimmed, starts with `+` is a marker line and is dropped;
//! 2. a line loses one leading space; a line with none that is a Go directive (`go:generate`,
//!    `nolint:lll`: lowercase letters and digits, `:`, one more; or `line `, `extern `,
//!    `export `) is dropped;
//! 3. spaces, tabs and `\r` at line ends go; blank lines at both ends go, and each run of blank
//!    lines inside becomes one;
//! 4. when a block is among them, every line is trimmed at both ends;
//! 5. outside ```` ``` ```` and `~~~` fences, a line that starts with `TODO` is dropped and a
//!    line that starts with `---` ends the description (it and every line after it go);
//!    neither is trimmed first, so an indented `TODO` or `---` stays;
//! 6. the lines are joined with `\n`, what rule 5 leaves included (the blank line before a
//!    cut, two blank lines around a dropped `TODO`). An empty result is no description.
//!
//! A `//` inside a line is text. The rules read the line, not its Markdown: a Markdown rule
//! `---` ends the description, a list item `+ x` is a marker line.

use syn::{Attribute, Expr, Lit, Meta};

/// One comment of an item's doc comment, as Go's parser holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comment<'a> {
    /// A line comment's text after `//` (a `///` line's doc attribute).
    Line(&'a str),
    /// A block comment's text between `/*` and `*/` (a doc attribute with a line break).
    Block(&'a str),
}

/// The description of an item's doc attributes, if it has one.
pub fn doc(attrs: &[Attribute]) -> Option<String> {
    let texts: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(lit) => match &lit.lit {
                    Lit::Str(s) => Some(s.value()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect();
    let comments: Vec<Comment> = texts
        .iter()
        .map(|text| match text.contains('\n') {
            true => Comment::Block(text),
            false => Comment::Line(text),
        })
        .collect();
    description(&comments)
}

/// The description controller-gen makes of a doc comment (the module's rules).
pub fn description(comments: &[Comment]) -> Option<String> {
    let mut lines: Vec<&str> = Vec::new();
    for comment in comments {
        let text = match *comment {
            Comment::Line(text) if text.trim().starts_with('+') => continue,
            Comment::Line(text) => match text.strip_prefix(' ') {
                Some(rest) => rest,
                None if is_directive(text) => continue,
                None => text,
            },
            Comment::Block(text) => text,
        };
        for line in text.split('\n') {
            let line = line.trim_end_matches([' ', '\t', '\r']);
            if !line.is_empty() || lines.last().is_some_and(|last| !last.is_empty()) {
                lines.push(line);
            }
        }
    }
    while lines.last().is_some_and(|last| last.is_empty()) {
        lines.pop();
    }
    let block = comments.iter().any(|c| matches!(c, Comment::Block(_)));
    let mut kept = Vec::new();
    let mut fenced = false;
    for line in lines {
        let line = if block { line.trim() } else { line };
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with("TODO") {
            continue;
        }
        if !fenced && line.starts_with("---") {
            break;
        }
        kept.push(line);
    }
    let description = kept.join("\n");
    (!description.is_empty()).then_some(description)
}

/// Whether a line comment's text is a Go directive, which `CommentGroup.Text` leaves out.
fn is_directive(text: &str) -> bool {
    if ["line ", "extern ", "export "]
        .iter()
        .any(|p| text.starts_with(p))
    {
        return true;
    }
    let bytes = text.as_bytes();
    match text.find(':') {
        Some(colon) if colon > 0 && colon + 1 < bytes.len() => (0..=colon + 1)
            .filter(|&i| i != colon)
            .all(|i| bytes[i].is_ascii_lowercase() || bytes[i].is_ascii_digit()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{Comment, description, doc};

    /// The description of a Rust item whose doc comment is `comment` (`///` lines or a block).
    fn of(comment: &str) -> Option<String> {
        let item: syn::ItemStruct = syn::parse_str(&format!("{comment}\nstruct S;")).unwrap();
        doc(&item.attrs)
    }

    #[test]
    fn lines_lose_one_space_and_blank_lines_collapse() {
        assert_eq!(
            of("///\n/// Size is the number of pods.\n///   Indented stays indented.  \n///\n///\n/// Second paragraph.\n///").unwrap(),
            "Size is the number of pods.\n  Indented stays indented.\n\nSecond paragraph."
        );
        assert_eq!(of(""), None);
        assert_eq!(of("///\n///   \n///"), None);
    }

    #[test]
    fn marker_lines_go_and_their_blank_lines_merge() {
        assert_eq!(
            of("/// First.\n///\n/// +optional\n///\n///+kubebuilder:validation:Minimum=1\n/// Second.").unwrap(),
            "First.\n\nSecond."
        );
        assert_eq!(of("/// +optional"), None);
    }

    #[test]
    fn todo_lines_go_outside_fences_only() {
        assert_eq!(
            of("/// Size.\n/// TODO: make it a quantity.\n/// TODOs too.\n///  TODO indented stays.").unwrap(),
            "Size.\n TODO indented stays."
        );
        // The blank lines around a dropped line stay, as controller-gen leaves them.
        assert_eq!(
            of("/// A.\n///\n/// TODO x\n///\n/// B.").unwrap(),
            "A.\n\n\nB."
        );
        assert_eq!(
            of("/// A.\n/// ```\n/// TODO kept\n/// --- kept\n/// ```\n/// TODO dropped").unwrap(),
            "A.\n```\nTODO kept\n--- kept\n```"
        );
    }

    #[test]
    fn a_dashed_line_ends_the_description() {
        assert_eq!(
            of("/// Path | Prefix\n/// -----|-------\n/// /foo | /foo").unwrap(),
            "Path | Prefix"
        );
        assert_eq!(of("/// A.\n///\n/// ---\n/// Internal.").unwrap(), "A.\n");
        assert_eq!(
            of("///  --- indented\n/// B.").unwrap(),
            " --- indented\nB."
        );
        assert_eq!(of("/// ---\n/// All gone."), None);
    }

    #[test]
    fn directives_go_and_slashes_inside_a_line_stay() {
        assert_eq!(
            of("/// A // b.\n///nolint:lll\n///go:generate x\n///line 12\n/// // c\n///kept: no")
                .unwrap(),
            "A // b.\n// c\nkept: no"
        );
    }

    #[test]
    fn a_block_trims_every_line() {
        assert_eq!(
            of("/**\n    Size of it.\n      TODO: drop.\n    ---\n    Gone.\n */").unwrap(),
            "Size of it."
        );
        // A `+` line in a block is text, as in a Go `/* */` comment.
        assert_eq!(
            description(&[Comment::Block(" A.\n +b ")]).as_deref(),
            Some("A.\n+b")
        );
    }
}
