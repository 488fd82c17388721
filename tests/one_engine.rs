//! Regressions from "one engine, one answer": inputs the derive once judged differently from
//! `crd()` and `gen-cli`. Each test is named after what used to go wrong.

use kube::CustomResourceExt;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn version_of<K: CustomResourceExt>() -> Value {
    serde_json::to_value(K::crd().spec.versions[0].clone()).unwrap()
}

mod deferred_paths {
    use super::*;

    /// A unit enum: its JSON type is only known once `Phase`'s schema is built.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub enum Phase {
        Pending,
        Running,
    }

    /// A newtype: an integer, behind another type.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(transparent)]
    pub struct Replicas(pub i32);

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "example.com", version = "v1", kind = "Job")]
    #[kube_marker(selectable_field(json_path = ".spec.phase"))]
    #[kube_marker(printcolumn(name = "Phase", json_path = ".spec.phase"))]
    #[kube_marker(printcolumn(name = "Replicas", json_path = ".spec.replicas"))]
    pub struct JobSpec {
        pub phase: Phase,
        pub replicas: Replicas,
    }
}

#[test]
fn selectable_field_and_printcolumn_on_local_types_are_left_to_crd() {
    let v = version_of::<deferred_paths::Job>();
    assert_eq!(v["selectableFields"], json!([{"jsonPath": ".spec.phase"}]));
    let columns = &v["additionalPrinterColumns"];
    assert_eq!(columns[0]["type"], "string", "{columns}");
    assert_eq!(columns[1]["type"], "integer", "{columns}");
}

mod container_named_like_its_field_type {
    use super::*;

    /// Not recursive: the field's type is Kubernetes' `Container`, which only shares the name.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Container {
        pub container: k8s_openapi::api::core::v1::Container,
    }

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "example.com", version = "v1", kind = "Sidecar")]
    pub struct SidecarSpec {
        pub sidecar: Container,
    }
}

#[test]
fn a_path_ending_in_the_types_own_name_is_not_recursion() {
    let v = version_of::<container_named_like_its_field_type::Sidecar>();
    let container = &v["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["sidecar"]
        ["properties"]["container"];
    assert_eq!(container["required"], json!(["name"]), "{container}");
}

mod scale_selector {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "example.com", version = "v1", kind = "Pool")]
    #[kube_marker(status = "PoolStatus")]
    #[kube_marker(scale(
        spec_path = ".spec.replicas",
        status_path = ".status.replicas",
        selector_path = ".spec.selector"
    ))]
    pub struct PoolSpec {
        pub replicas: i32,
        pub selector: String,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
    pub struct PoolStatus {
        pub replicas: i32,
    }
}

#[test]
fn scale_selector_under_spec_is_accepted() {
    let v = version_of::<scale_selector::Pool>();
    assert_eq!(
        v["subresources"]["scale"]["labelSelectorPath"],
        ".spec.selector"
    );
}

mod enum_spec {
    use super::*;

    /// How the backup is stored.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "example.com", version = "v1", kind = "Backup")]
    #[serde(rename_all = "camelCase")]
    pub enum BackupSpec {
        /// Into a bucket.
        Bucket { name: String },
        /// Onto a volume.
        Volume { claim: String },
    }
}

#[test]
fn an_enum_spec_makes_a_structural_root() {
    use enum_spec::{Backup, BackupSpec};
    let crd = Backup::crd();
    assert_eq!(crd.spec.names.kind, "Backup");
    let v = version_of::<Backup>();
    let spec = &v["schema"]["openAPIV3Schema"]["properties"]["spec"];
    assert_eq!(spec["type"], "object", "{spec}");
    assert_eq!(
        spec["oneOf"],
        json!([{"required": ["bucket"]}, {"required": ["volume"]}])
    );
    let object = Backup::new(
        "daily",
        BackupSpec::Bucket {
            name: "b".to_string(),
        },
    );
    assert_eq!(
        serde_json::to_value(&object).unwrap()["spec"],
        json!({"bucket": {"name": "b"}})
    );
}

mod variant_docs {
    use super::*;

    /// An address (the type's doc).
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Address {
        pub host: String,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub enum Source {
        /// Fetched over HTTP (the variant's doc).
        Http(Address),
        /// Read from a config map (the variant's doc).
        ConfigMap(String),
    }

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "example.com", version = "v1", kind = "Fetch")]
    pub struct FetchSpec {
        pub source: Source,
        /// The mirror (the field's doc).
        pub mirror: Address,
        /// The fallback (the field's doc).
        pub fallback: Option<Source>,
    }
}

#[test]
fn variant_and_field_docs_win_over_their_types_docs() {
    let v = version_of::<variant_docs::Fetch>();
    let spec = &v["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    let source = &spec["source"]["properties"];
    assert_eq!(
        source["http"]["description"],
        "Fetched over HTTP (the variant's doc)."
    );
    assert_eq!(
        source["configMap"]["description"],
        "Read from a config map (the variant's doc)."
    );
    assert_eq!(
        spec["mirror"]["description"],
        "The mirror (the field's doc)."
    );
    assert_eq!(
        spec["fallback"]["description"],
        "The fallback (the field's doc)."
    );
}
