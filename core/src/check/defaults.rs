//! What the API server fills in from a schema's defaults (apiextensions' structural
//! defaulting), as a value: used to check defaults against the schema, and serde's defaults
//! against the server's (see [`crate::schema::defaults`]).

use serde_json::{Map, Value};

use crate::model::Schema;

/// Sets what the API server sets in `value` before storing it: every missing property (or
/// `null` where null is not allowed) that has a `default` in `schema`, recursively, defaults
/// included.
pub fn apply(schema: &Schema, value: &mut Value) {
    match value {
        Value::Object(object) => {
            for (name, prop) in &schema.properties {
                if let Some(default) = &prop.default
                    && server_defaults(object, name, prop)
                {
                    object.insert(name.clone(), default.clone());
                }
            }
            for (name, v) in object.iter_mut() {
                let prop = schema.properties.get(name);
                if let Some(s) = prop.or(schema.additional_properties.as_deref()) {
                    apply(s, v);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = &schema.items {
                items.iter_mut().for_each(|v| apply(item, v));
            }
        }
        _ => {}
    }
}

/// Whether `object` lacks `name` as the API server's defaulting sees it.
pub(crate) fn server_defaults(object: &Map<String, Value>, name: &str, prop: &Schema) -> bool {
    object
        .get(name)
        .is_none_or(|v| v.is_null() && !prop.nullable)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_server_fills_missing_and_disallowed_null_properties_recursively() {
        let mut leaf = Schema::typed("object");
        leaf.properties.insert(
            "n".into(),
            Schema {
                default: Some(json!(1)),
                ..Schema::typed("integer")
            },
        );
        let mut root = Schema::typed("object");
        root.properties.insert(
            "inner".into(),
            Schema {
                default: Some(json!({})),
                ..leaf.clone()
            },
        );
        root.properties.insert(
            "list".into(),
            Schema {
                items: Some(Box::new(leaf.clone())),
                ..Schema::typed("array")
            },
        );
        root.additional_properties = Some(Box::new(leaf));
        let mut v = json!({"list": [{}, {"n": 5}], "extra": {"n": null}});
        apply(&root, &mut v);
        assert_eq!(
            v,
            json!({"inner": {"n": 1}, "list": [{"n": 1}, {"n": 5}], "extra": {"n": 1}})
        );
    }
}
