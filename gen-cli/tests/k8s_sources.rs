//! The k8s-openapi schemas gen-cli reads from k8s-openapi's sources (for a Kubernetes version
//! it is not built with) convert to exactly what the compiled `JsonSchema` impls give: read
//! for the compiled version itself, every type's schema must be equal both ways.

use gen_cli::workspace;
use kubegen_core::known;
use kubegen_core::model::Shape;

fn schema_at(path: &str) -> Option<serde_json::Value> {
    match known::lookup(path, Vec::new())? {
        Ok(Shape::Known(k)) => Some(serde_json::to_value(k.schema()).expect("JSON")),
        _ => None,
    }
}

#[test]
fn sources_read_for_the_compiled_version_equal_the_compiled_schemas() {
    let minor = known::compiled_kubernetes();
    let src = workspace::k8s_openapi_src(None)
        .expect("cargo metadata")
        .expect("the workspace resolves k8s-openapi");
    let definitions =
        known::read_kubernetes_sources(&src.join(format!("v1_{minor}"))).expect("readable");
    let mut paths: Vec<String> = definitions.names.keys().cloned().collect();
    paths.sort();
    assert!(paths.len() > 600, "{} types", paths.len());

    let compiled: Vec<_> = paths.iter().map(|p| schema_at(p)).collect();
    let missing: Vec<&String> = paths
        .iter()
        .zip(&compiled)
        .filter(|(_, s)| s.is_none())
        .map(|(p, _)| p)
        .collect();
    assert!(missing.is_empty(), "not compiled in: {missing:?}");

    known::set_kubernetes_definitions(definitions);
    let mut differ = Vec::new();
    for (path, compiled) in paths.iter().zip(compiled) {
        let read = schema_at(path);
        if read != compiled {
            differ.push(format!(
                "{path}:\n  read:     {}\n  compiled: {}",
                first_difference(read.as_ref(), compiled.as_ref()).0,
                first_difference(read.as_ref(), compiled.as_ref()).1
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ, e.g. {}",
        differ.len(),
        differ[..differ.len().min(3)].join("\n")
    );
    // Set, paths resolve against the read definitions only (plus hand-written types).
    assert!(schema_at("k8s_openapi::ByteString").is_some());
    assert!(schema_at("k8s_openapi::api::core::v1::NoSuchType").is_none());
}

/// The first node where two JSON values differ, as text.
fn first_difference(
    a: Option<&serde_json::Value>,
    b: Option<&serde_json::Value>,
) -> (String, String) {
    use serde_json::Value;
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            for key in x.keys().chain(y.keys()) {
                if x.get(key) != y.get(key) {
                    let (l, r) = first_difference(x.get(key), y.get(key));
                    return (format!("{key}: {l}"), format!("{key}: {r}"));
                }
            }
            (String::new(), String::new())
        }
        _ => (
            a.map_or("-".to_string(), |v| {
                v.to_string().chars().take(300).collect()
            }),
            b.map_or("-".to_string(), |v| {
                v.to_string().chars().take(300).collect()
            }),
        ),
    }
}
