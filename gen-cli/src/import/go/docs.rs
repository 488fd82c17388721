//! A Go doc comment's description, by the engine's implementation of controller-gen's comment
//! rules (`kubegen_core::parse::docs`): the same rules the Rust doc comment it becomes is read
//! with.

use kubegen_core::parse::docs::{Comment, description};

use super::parse;

/// The description of a doc comment group, if it has one.
pub fn of(comments: &[parse::Comment]) -> Option<String> {
    let parts: Vec<Comment> = comments
        .iter()
        .map(|c| match c.text.strip_prefix("//") {
            Some(line) => Comment::Line(line),
            None => Comment::Block(
                c.text
                    .strip_prefix("/*")
                    .and_then(|t| t.strip_suffix("*/"))
                    .unwrap_or(&c.text),
            ),
        })
        .collect();
    description(&parts)
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
