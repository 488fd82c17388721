//! serde's `rename_all` rules, applied the way serde_derive applies them.

use serde::{Deserialize, Serialize};

/// A `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    /// Every rule with the name serde gives it.
    pub const ALL: [(&'static str, RenameRule); 8] = [
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    /// The rule serde calls `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }

    /// Renames a field, whose Rust name is snake_case.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_string(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => pascal_from_snake(field),
            RenameRule::Camel => {
                let pascal = pascal_from_snake(field);
                lower_first(&pascal)
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// Renames a variant, whose Rust name is PascalCase.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_string(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => snake_from_pascal(variant),
            RenameRule::ScreamingSnake => snake_from_pascal(variant).to_ascii_uppercase(),
            RenameRule::Kebab => snake_from_pascal(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => snake_from_pascal(variant)
                .to_ascii_uppercase()
                .replace('_', "-"),
        }
    }
}

fn pascal_from_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut capitalize = true;
    for ch in s.chars() {
        if ch == '_' {
            capitalize = true;
        } else if capitalize {
            out.push(ch.to_ascii_uppercase());
            capitalize = false;
        } else {
            out.push(ch);
        }
    }
    out
}

fn snake_from_pascal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, ch) in s.char_indices() {
        if i > 0 && ch.is_uppercase() {
            out.push('_');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn fields_follow_serde() {
        assert_eq!(Camel.apply_to_field("container_port"), "containerPort");
        assert_eq!(Pascal.apply_to_field("container_port"), "ContainerPort");
        assert_eq!(ScreamingSnake.apply_to_field("a_b"), "A_B");
        assert_eq!(Kebab.apply_to_field("a_b"), "a-b");
        assert_eq!(ScreamingKebab.apply_to_field("a_b"), "A-B");
        assert_eq!(Lower.apply_to_field("a_b"), "a_b");
    }

    #[test]
    fn variants_follow_serde() {
        assert_eq!(Camel.apply_to_variant("OnFailure"), "onFailure");
        assert_eq!(Snake.apply_to_variant("OnFailure"), "on_failure");
        assert_eq!(Lower.apply_to_variant("OnFailure"), "onfailure");
        assert_eq!(ScreamingKebab.apply_to_variant("OnFailure"), "ON-FAILURE");
        assert_eq!(Kebab.apply_to_variant("OnFailure"), "on-failure");
    }
}
