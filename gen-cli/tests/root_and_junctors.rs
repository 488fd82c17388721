//! `optional` on the spec struct, `status_subresource`, and `one_of`/`any_of`/`all_of`/`not`
//! (`support/root_api.rs`): the derive, compiled here, and gen-cli, reading the same file, give
//! the same bytes.

use std::path::Path;

use kube::CustomResourceExt;
use serde_json::json;

#[path = "support/root_api.rs"]
mod api;

mod support {
    pub mod verdict;
}

#[test]
fn roots_and_junctors_are_written_as_crd_renders_them() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/root_api.rs");
    let generated = support::verdict::manifests_and_docs(&support::verdict::package(&file))
        .unwrap_or_else(|e| panic!("gen-cli refuses {}: {e:#?}", file.display()));
    for (name, crd) in [
        ("roots.example.com_looses.yaml", api::Loose::crd()),
        ("roots.example.com_gates.yaml", api::Gate::crd()),
    ] {
        let Some((_, written)) = generated.plan.files.iter().find(|(p, _)| p.ends_with(name))
        else {
            panic!("no {name} in {:?}", generated.plan.files.keys());
        };
        assert_eq!(
            written,
            &kubegen::to_yaml(&crd),
            "{name}: gen-cli and crd() differ"
        );
    }
    let loose = serde_json::to_value(api::Loose::crd()).unwrap();
    let version = &loose["spec"]["versions"][0];
    assert!(version.get("subresources").is_none(), "{version}");
    assert!(
        version["schema"]["openAPIV3Schema"]
            .get("required")
            .is_none()
    );
    let gate = serde_json::to_value(api::Gate::crd()).unwrap();
    let version = &gate["spec"]["versions"][0];
    assert_eq!(version["subresources"], json!({"status": {}}));
    let spec = &version["schema"]["openAPIV3Schema"]["properties"]["spec"];
    assert_eq!(spec["not"], json!({"required": ["addresses", "hostname"]}));
    assert_eq!(
        spec["properties"]["hostname"]["anyOf"],
        json!([{"minLength": 1}, {"pattern": "^x"}])
    );
    assert_eq!(
        spec["properties"]["addresses"]["items"]["oneOf"],
        json!([
            {"properties": {"type": {"enum": ["IPAddress"]},
                "value": {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}}},
            {"properties": {"type": {"not": {"enum": ["IPAddress"]}}}}
        ])
    );
}
