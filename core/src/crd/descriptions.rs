//! `--max-desc-len`: controller-gen's `maxDescLen`, shortening every description in a schema.

use crate::model::Schema;

/// Shortens every description under `schema` to at most `max` bytes as controller-gen does:
/// `0` removes them; a longer one is cut at `max`, then back to its last sentence end, or else
/// to its last space with `...` added.
pub fn truncate(schema: &mut Schema, max: usize) {
    if let Some(d) = schema.description.take()
        && max > 0
    {
        schema.description = Some(shorten(d, max));
    }
    for child in children(schema) {
        truncate(child, max);
    }
}

/// The schemas right below `schema`: its properties, items, additional properties and
/// junctors' branches.
pub(super) fn children(schema: &mut Schema) -> impl Iterator<Item = &mut Schema> {
    schema
        .properties
        .values_mut()
        .chain(schema.items.as_deref_mut())
        .chain(schema.additional_properties.as_deref_mut())
        .chain(schema.all_of.iter_mut())
        .chain(schema.any_of.iter_mut())
        .chain(schema.one_of.iter_mut())
        .chain(schema.not.as_deref_mut())
}

fn shorten(d: String, max: usize) -> String {
    if d.len() <= max {
        return d;
    }
    let mut cut = max;
    while !d.is_char_boundary(cut) {
        cut -= 1;
    }
    // `cut` is a character boundary (above), and `rfind` gives those of `head`.
    let head = &d[..cut];
    if let Some(end) = head.rfind(['.', '!', '?'])
        && end > 0
    {
        return head[..=end].to_string();
    }
    match head.rfind(char::is_whitespace) {
        Some(space) => format!("{}...", &head[..space]),
        None => format!("{head}..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_shorten_like_controller_gen() {
        let long = "APIVersion defines the versioned schema of this representation of an object.";
        assert_eq!(
            shorten(long.into(), 50),
            "APIVersion defines the versioned schema of this..."
        );
        assert_eq!(shorten("One. Two three four".into(), 12), "One.");
        assert_eq!(shorten("short".into(), 50), "short");
        let mut s = Schema {
            description: Some("x".into()),
            ..Schema::default()
        };
        s.properties.insert(
            "a".into(),
            Schema {
                description: Some("y".into()),
                ..Schema::default()
            },
        );
        truncate(&mut s, 0);
        assert_eq!(s.description, None);
        assert_eq!(s.properties["a"].description, None);
    }
}
