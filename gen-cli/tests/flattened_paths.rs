//! A root whose spec flattens another type, with printer columns and selectable fields that
//! name the flattened fields (`support/flattened_api.rs`): the derive, compiled here, and
//! gen-cli, reading the same file, both accept it and give the same bytes.

use std::path::Path;

use kube::CustomResourceExt;

#[path = "support/flattened_api.rs"]
mod api;

mod support {
    pub mod verdict;
}

#[test]
fn paths_into_a_flattened_spec_are_written_as_crd_renders_them() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/flattened_api.rs");
    let generated = support::verdict::manifests_and_docs(&support::verdict::package(&file))
        .unwrap_or_else(|e| panic!("gen-cli refuses {}: {e:#?}", file.display()));
    let name = "gateway.networking.example.com_gatewayclasses.yaml";
    let Some((_, written)) = generated.plan.files.iter().find(|(p, _)| p.ends_with(name)) else {
        panic!("no {name} in {:?}", generated.plan.files.keys());
    };
    let crd = api::v1beta1::GatewayClass::crd();
    assert_eq!(
        written,
        &kubegen::to_yaml(&crd),
        "gen-cli's file and crd() differ"
    );

    let version = serde_json::to_value(&crd.spec.versions[0]).expect("JSON");
    let columns: Vec<(&str, &str)> = version["additionalPrinterColumns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| (c["jsonPath"].as_str().unwrap(), c["type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        columns,
        [
            (".spec.controllerName", "string"),
            (".spec.limit", "integer"),
            (".spec.parametersRef.name", "string"),
        ]
    );
    assert_eq!(
        version["selectableFields"],
        serde_json::json!([{"jsonPath": ".spec.controllerName"}])
    );
    let spec = &version["schema"]["openAPIV3Schema"]["properties"]["spec"];
    assert_eq!(
        spec["required"],
        serde_json::json!(["controllerName"]),
        "{spec}"
    );
}
