//! `kubegen::check_crds`: every kind's CRD checked whole, as `kubegen manifests` checks it,
//! through the derive: what one type does not show is an error at run time.

use kubegen::{CustomResource, KubeSchema, check_crds};
use serde::{Deserialize, Serialize};

mod v1 {
    use super::*;

    /// A kind with two versions: merged as `crd_for` merges them.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(
        group = "t.example.com",
        version = "v1",
        kind = "Pool",
        storage_version
    )]
    #[kube_marker(status = "PoolStatus")]
    #[kube_marker(printcolumn(name = "Ready", json_path = ".status.readyReplicas"))]
    pub struct PoolSpec {
        pub size: i32,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct PoolStatus {
        pub ready_replicas: Option<i32>,
    }
}

mod v2 {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "t.example.com", version = "v2", kind = "Pool")]
    pub struct PoolSpec {
        pub size: i32,
    }
}

/// A printer column that names no field of a k8s-openapi type (whose fields the derive does not
/// know), and an enum default that is no variant: each type is fine alone.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Broken")]
#[kube_marker(status = "BrokenStatus")]
#[kube_marker(printcolumn(name = "Ready", json_path = ".status.conditions[0].stauts"))]
#[kube_marker(x_validation(rule = "self.mode == 1"))]
pub struct BrokenSpec {
    #[kube_marker(default = "Fast")]
    pub mode: Mode,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct BrokenStatus {
    pub conditions: Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    Slow,
    Quick,
}

#[test]
fn the_versions_of_each_kind_are_merged_and_pass() {
    let versions = [v2::Pool::resource(), v1::Pool::resource()];
    assert_eq!(check_crds(&versions), Ok(Vec::new()));
    assert_eq!(check_crds(&[]), Ok(Vec::new()));
}

#[test]
fn what_no_single_type_shows_is_an_error_of_its_kind() {
    let versions = [
        v1::Pool::resource(),
        Broken::resource(),
        v2::Pool::resource(),
    ];
    let errors = check_crds(&versions).unwrap_err();
    let text = errors.to_string();
    assert!(
        text.contains(
            "printcolumn `Ready` json_path: `.status.conditions[0].stauts` names `stauts`, \
             which is not a field there"
        ),
        "{text}"
    );
    assert!(
        text.contains("\"Fast\" is not one of the enum values"),
        "{text}"
    );
    // Each error at its marker, as the CLI places it.
    let place = |needle: &str| {
        let line = text.lines().find(|l| l.contains(needle));
        line.and_then(|l| l.split("tests/check_crds.rs:").nth(1))
            .and_then(|rest| rest.split(':').next())
            .map(|n| n.parse::<u32>().unwrap())
    };
    assert_eq!(place("stauts`"), Some(46), "{text}");
    assert_eq!(place("\"Fast\""), Some(49), "{text}");
    let cel = text.contains("self.mode == 1");
    if cel {
        assert_eq!(place("self.mode == 1"), Some(47), "{text}");
    }
    assert_eq!(cel, cfg!(feature = "cel"), "CEL rules with `cel`: {text}");
    assert_eq!(errors.len(), 2 + usize::from(cel), "{text}");
}
