//! `generate-embedded-object-meta = false`: controller-gen's default, where an `ObjectMeta`
//! below the root (a pod template's `metadata`) is `{type: object}` with its description, and
//! the apiserver prunes what it holds.

use super::descriptions::children;
use crate::known::embedded_object_meta;
use crate::model::Schema;

/// Replaces every `metadata` property under `schema` whose schema is an `ObjectMeta`'s
/// embedded form by `{type: object}`, its description kept.
pub fn plain(schema: &mut Schema) {
    let embedded = embedded_object_meta();
    walk(schema, &embedded);
}

fn walk(schema: &mut Schema, embedded: &Schema) {
    if let Some(meta) = schema.properties.get_mut("metadata") {
        let description = meta.description.take();
        if *meta == *embedded {
            *meta = Schema::typed("object");
        }
        meta.description = description;
    }
    for child in children(schema) {
        walk(child, embedded);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nested_object_meta_becomes_an_object_and_keeps_its_description() {
        let described = |s: Schema, d: &str| Schema {
            description: Some(d.into()),
            ..s
        };
        let object = |name: &str, s: Schema| Schema {
            properties: [(name.to_string(), s)].into(),
            ..Schema::typed("object")
        };
        let template = object(
            "metadata",
            described(embedded_object_meta(), "The pods' metadata."),
        );
        let mut root = object("template", template);
        // A `metadata` of another shape is left alone.
        let other = object("metadata", object("name", Schema::typed("string")));
        root.properties.insert("other".into(), other.clone());
        plain(&mut root);
        assert_eq!(
            root.properties["template"].properties["metadata"],
            described(Schema::typed("object"), "The pods' metadata.")
        );
        assert_eq!(root.properties["other"], other);
    }
}
