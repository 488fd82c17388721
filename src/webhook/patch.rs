//! The JSON patch of a defaulting handler: from the object as the API server sent it to the
//! object the handler returns, as controller-runtime computes it.

use json_patch::Patch;
use serde_json::Value;

/// The RFC 6902 patch turning `original` into `mutated`. Fields of `original` that `mutated`
/// lacks (fields the Rust type does not know) are removed, as with controller-runtime; give
/// the type every field the schema has.
pub fn diff(original: &Value, mutated: &Value) -> Patch {
    json_patch::diff(original, mutated)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patch_applied_gives_the_mutated_object() {
        let original = json!({
            "apiVersion": "x.io/v1", "kind": "Foo",
            "metadata": {"name": "a", "labels": {"keep": "1"}},
            "spec": {"size": null, "list": [1, 2]}
        });
        let mutated = json!({
            "apiVersion": "x.io/v1", "kind": "Foo",
            "metadata": {"name": "a", "labels": {"keep": "1", "new": "2"}},
            "spec": {"size": 3, "list": [1, 2, 3], "mode": "fast"}
        });
        let patch = diff(&original, &mutated);
        assert!(!patch.0.is_empty());
        let mut doc = original.clone();
        json_patch::patch(&mut doc, &patch).unwrap();
        assert_eq!(doc, mutated);
    }

    #[test]
    fn no_change_is_an_empty_patch() {
        let v = json!({"spec": {"a": 1}});
        assert!(diff(&v, &v).0.is_empty());
    }

    #[test]
    fn keys_are_escaped_in_paths() {
        let original = json!({"metadata": {"annotations": {}}});
        let mutated = json!({"metadata": {"annotations": {"example.com/a~b": "x"}}});
        let text = serde_json::to_string(&diff(&original, &mutated)).unwrap();
        assert!(
            text.contains("/metadata/annotations/example.com~1a~0b"),
            "{text}"
        );
    }
}
