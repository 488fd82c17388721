//! The k8s-openapi schemas gen-cli reads from k8s-openapi's sources (for a Kubernetes version
//! it is not built with) convert to exactly what the compiled `JsonSchema` impls give: read
//! for the compiled version itself, every type's schema must be equal both ways.

use gen_cli::workspace;
use k8s_openapi::api::core::v1::PodSpec;
use kubegen_core::known::{self, KubeSchema, Kubernetes, Minor};
use kubegen_core::model::Shape;
use kubegen_core::schema::{Builder, Site};

fn schema_at(path: &str, kubernetes: &Kubernetes) -> Option<serde_json::Value> {
    match known::lookup(path, Vec::new(), kubernetes)? {
        Ok(Shape::Known(k)) => Some(serde_json::to_value(kubernetes.schema(&k)).expect("JSON")),
        _ => None,
    }
}

#[test]
fn sources_read_for_the_compiled_version_equal_the_compiled_schemas() {
    let minor = Minor::compiled();
    let src = workspace::k8s_openapi_src(None)
        .expect("cargo metadata")
        .expect("the workspace resolves k8s-openapi");
    let definitions =
        known::read_kubernetes_sources(&src.join(format!("v1_{}", minor.get()))).expect("readable");
    let mut paths: Vec<String> = definitions.names.keys().cloned().collect();
    paths.sort();
    assert!(paths.len() > 600, "{} types", paths.len());

    let compiled_version = Kubernetes::compiled();
    let compiled: Vec<_> = paths
        .iter()
        .map(|p| schema_at(p, &compiled_version))
        .collect();
    let missing: Vec<&String> = paths
        .iter()
        .zip(&compiled)
        .filter(|(_, s)| s.is_none())
        .map(|(p, _)| p)
        .collect();
    assert!(missing.is_empty(), "not compiled in: {missing:?}");

    let read_version = Kubernetes::with_definitions(minor, definitions);
    let mut differ = Vec::new();
    for (path, compiled) in paths.iter().zip(compiled) {
        let read = schema_at(path, &read_version);
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
    // Paths resolve against the read definitions only (plus hand-written types).
    assert!(schema_at("k8s_openapi::ByteString", &read_version).is_some());
    assert!(schema_at("k8s_openapi::api::core::v1::NoSuchType", &read_version).is_none());
}

/// Kubernetes 1.`minor` as gen-cli builds for it when built with another version: its schemas
/// read from k8s-openapi's sources.
fn read_version(minor: u32) -> Kubernetes {
    let src = workspace::k8s_openapi_src(None)
        .expect("cargo metadata")
        .expect("the workspace resolves k8s-openapi");
    let definitions =
        known::read_kubernetes_sources(&src.join(format!("v1_{minor}"))).expect("readable");
    Kubernetes::with_definitions(Minor::new(minor).expect("supported"), definitions)
}

/// The schema of `shape` built for `kubernetes`, as JSON.
fn built(shape: &Shape, kubernetes: &Kubernetes) -> serde_json::Value {
    let mut builder = Builder::for_kubernetes(kubernetes.clone());
    let schema = builder.shape(shape, &Site::default());
    builder.finish().expect("no problems");
    serde_json::to_value(schema).expect("JSON")
}

/// The Kubernetes version is a value the builder carries, not process state: one process
/// builds the same type (by trait dispatch, as `crd()` does, and by path, as gen-cli does) for
/// 1.37 and 1.36, in turn, and gets each version's schema, fields and Go facts.
#[test]
fn one_process_builds_the_same_type_for_two_versions() {
    let (v36, v37) = (read_version(36), Kubernetes::compiled());
    assert_eq!((v36.minor().get(), v37.minor().get()), (36, 37));
    let by_trait = PodSpec::shape();
    let pod_spec = "k8s_openapi::api::core::v1::PodSpec";
    let by_path = |k: &Kubernetes| match known::lookup(pod_spec, Vec::new(), k) {
        Some(Ok(shape)) => shape,
        other => panic!("{pod_spec}: {}", other.is_some()),
    };
    let first = built(&by_trait, &v37);
    let old = built(&by_trait, &v36);
    assert_eq!(built(&by_trait, &v37), first, "1.37 again, after 1.36");
    assert_eq!(built(&by_path(&v36), &v36), old);
    assert_eq!(built(&by_path(&v37), &v37), first);
    // A field 1.37 added (k8s-openapi's schema and the Go facts alike).
    assert!(first["properties"].get("evictionResponders").is_some());
    assert!(old["properties"].get("evictionResponders").is_none());
    assert_ne!(first, old);
    // A Go fact that changed: a deployment condition's `type` and `status` are required up to
    // 1.36 (the `+required` markers 1.37 dropped).
    let condition = |k: &Kubernetes| {
        let path = "k8s_openapi::api::apps::v1::DeploymentCondition";
        let Some(Ok(shape)) = known::lookup(path, Vec::new(), k) else {
            panic!("{path}");
        };
        built(&shape, k)["required"].clone()
    };
    assert_eq!(condition(&v36), serde_json::json!(["status", "type"]));
    assert_eq!(condition(&v37), serde_json::Value::Null);
    // A type 1.37 removed resolves for 1.36 only.
    let bundle = "k8s_openapi::api::certificates::v1alpha1::ClusterTrustBundle";
    assert!(known::lookup(bundle, Vec::new(), &v37).is_none());
    let Some(Ok(shape)) = known::lookup(bundle, Vec::new(), &v36) else {
        panic!("{bundle} in 1.36");
    };
    assert!(built(&shape, &v36)["properties"].get("spec").is_some());
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
