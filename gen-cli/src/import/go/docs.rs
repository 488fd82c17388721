//! A Go doc comment's description, by the engine's implementation of controller-gen's comment
//! rules (`kubegen_core::parse::docs`): the same rules the Rust doc comment it becomes is read
//! with. Gateway API's tags (`<gateway:experimental>` lines, `<gateway:util:excludeFromCRD>`
//! blocks), which its generator removes, are left out: a tag line is an empty line.

use kubegen_core::parse::docs::{Comment, description};

use super::parse;

/// The description of a doc comment group, if it has one.
pub fn of(comments: &[parse::Comment]) -> Option<String> {
    let mut excluded = false;
    let parts: Vec<Comment> = comments
        .iter()
        .filter_map(|c| {
            let tag = tag(c);
            match tag {
                Some("<gateway:util:excludeFromCRD>") => excluded = true,
                Some("</gateway:util:excludeFromCRD>") => {
                    excluded = false;
                    return None;
                }
                _ => {}
            }
            if excluded {
                return None;
            }
            // Gateway API's generator leaves an empty line where a tag was.
            Some(match (tag, c.text.strip_prefix("//")) {
                (Some(_), _) => Comment::Line(""),
                (None, Some(line)) => Comment::Line(line),
                (None, None) => Comment::Block(
                    c.text
                        .strip_prefix("/*")
                        .and_then(|t| t.strip_suffix("*/"))
                        .unwrap_or(&c.text),
                ),
            })
        })
        .collect();
    description(&parts)
}

/// A line comment that is a Gateway API tag (`<gateway:...>`, `</gateway:...>`).
fn tag(c: &parse::Comment) -> Option<&str> {
    let line = c.text.strip_prefix("//")?.trim();
    (line.starts_with("<gateway:") || line.starts_with("</gateway:"))
        .then_some(line)
        .filter(|l| l.ends_with('>'))
}

/// Whether a comment group marks its field `<gateway:experimental>`: of Gateway API's
/// experimental channel only.
pub fn experimental(comments: &[parse::Comment]) -> bool {
    comments
        .iter()
        .any(|c| tag(c) == Some("<gateway:experimental>"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_todo_and_cuts_go_as_controller_gen_drops_them() {
        let f = parse::file(
            "d.go",
            "package v1\n\n// Widget is a thing.\n// +kubebuilder:object:root=true\n// TODO: more.\n// \n// Second.\n// ---\n// Hidden.\ntype Widget struct{}\n",
        )
        .unwrap();
        assert_eq!(
            of(&f.types[0].comments.doc).as_deref(),
            Some("Widget is a thing.\n\nSecond.")
        );
    }
}
