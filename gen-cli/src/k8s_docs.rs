//! The descriptions of k8s-openapi's types in one Kubernetes version, read from k8s-openapi's
//! own sources (`src/v1_xx`, in the cargo registry): gen-cli is built with one version's
//! k8s-openapi (1.37), and the user's crate may use another, whose doc comments are worded
//! differently here and there.
//!
//! k8s-openapi's generated `JsonSchema` impls are uniformly formatted: `schema_name()` returns
//! the definition name, and `json_schema!` holds the type's `"description"` (12 spaces in),
//! each property (16 spaces in) and the property's own description (20 spaces in, as a JSON
//! member or, next to a reference, inserted into `schema_obj`).

use std::collections::HashMap;
use std::path::Path;

use kubegen_core::known::KubernetesDescriptions;

/// Every definition's descriptions under a k8s-openapi version folder (`src/v1_36`).
pub fn read(dir: &Path) -> HashMap<String, KubernetesDescriptions> {
    let mut found = HashMap::new();
    walk(dir, &mut found);
    found
}

/// Reads the `.rs` files under `dir`.
fn walk(dir: &Path, found: &mut HashMap<String, KubernetesDescriptions>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs")
            && let Ok(text) = std::fs::read_to_string(&path)
            && let Some((name, docs)) = parse(&text)
        {
            found.insert(name, docs);
        }
    }
}

/// A Rust string literal's value (the escapes k8s-openapi uses are JSON's).
fn literal(text: &str) -> Option<String> {
    let start = text.find('"')?;
    let end = text.rfind('"')?;
    serde_json::from_str(text.get(start..=end)?).ok()
}

/// The definition name and descriptions of one generated type's file.
pub fn parse(text: &str) -> Option<(String, KubernetesDescriptions)> {
    let mut lines = text.lines();
    lines.find(|l| l.contains("fn schema_name()"))?;
    let name = literal(lines.next()?)?;
    lines.find(|l| l.contains("json_schema!({"))?;
    let mut docs = KubernetesDescriptions::default();
    let mut property: Option<String> = None;
    for line in lines {
        if line.starts_with("        })") {
            break;
        }
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        match indent {
            12 if trimmed.starts_with("\"description\": ") => {
                docs.type_doc = literal(&trimmed["\"description\": ".len()..]);
            }
            16 if trimmed.starts_with('"') => {
                property = trimmed
                    .split_once("\": ")
                    .map(|(key, _)| key.trim_start_matches('"').to_string());
            }
            20 => {
                let text = if let Some(rest) = trimmed.strip_prefix("\"description\": ") {
                    literal(rest)
                } else if let Some(rest) = trimmed
                    .strip_prefix("schema_obj.ensure_object().insert(\"description\".into(), ")
                {
                    literal(rest.trim_end_matches(".into());"))
                } else {
                    None
                };
                if let (Some(text), Some(property)) = (text, &property) {
                    docs.properties.insert(property.clone(), text);
                }
            }
            _ => {}
        }
    }
    Some((name, docs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_type_and_property_descriptions() {
        let text = r#"
impl crate::schemars::JsonSchema for PodSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "io.k8s.api.core.v1.PodSpec".into()
    }

    fn json_schema(__gen: &mut crate::schemars::SchemaGenerator) -> crate::schemars::Schema {
        crate::schemars::json_schema!({
            "description": "PodSpec is a \"description\".",
            "type": "object",
            "properties": {
                "affinity": ({
                    let mut schema_obj = __gen.subschema_for::<crate::api::core::v1::Affinity>();
                    schema_obj.ensure_object().insert("description".into(), "If specified, the pod's scheduling constraints".into());
                    schema_obj
                }),
                "hostname": {
                    "description": "Specifies the hostname.",
                    "type": "string",
                },
                "plain": {
                    "type": "string",
                },
            },
        })
    }
}
"#;
        let (name, docs) = parse(text).expect("a schema");
        assert_eq!(name, "io.k8s.api.core.v1.PodSpec");
        assert_eq!(
            docs.type_doc.as_deref(),
            Some("PodSpec is a \"description\".")
        );
        assert_eq!(
            docs.properties["affinity"],
            "If specified, the pod's scheduling constraints"
        );
        assert_eq!(docs.properties["hostname"], "Specifies the hostname.");
        assert!(!docs.properties.contains_key("plain"));
    }
}
