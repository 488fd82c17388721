//! `kubegen::check_defaults`: serde's defaults against the schema's, through the derive.

use kubegen::{CustomResource, KubeSchema, check_defaults};
use serde::{Deserialize, Serialize};
use serde_json::json;

fn three() -> i32 {
    3
}

fn four() -> i32 {
    4
}

/// The marker and the function agree.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Agree")]
pub struct AgreeSpec {
    pub name: String,
    #[kube_marker(default = 3)]
    #[serde(default = "three")]
    pub size: i32,
    pub pool: Pool,
}

/// The marker says 3, the function 4.
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct DisagreeSpec {
    #[kube_marker(default = 3)]
    #[serde(default = "four")]
    pub size: i32,
}

/// A nested object, checked when the input gives it.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Pool {
    #[kube_marker(default = 4)]
    #[serde(default = "three")]
    pub nodes: i32,
    #[serde(default)]
    pub labels: Vec<String>,
}

/// A container default from a hand-written `Default`: no schema default at all.
#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(default)]
pub struct Tuning {
    pub retries: i32,
    pub verbose: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            retries: 5,
            verbose: false,
        }
    }
}

#[test]
fn a_marker_and_a_function_that_differ_are_reported() {
    let e = check_defaults::<DisagreeSpec>(json!({})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "DisagreeSpec.size: the schema's default is 3, serde's is 4"
    );
}

#[test]
fn agreeing_defaults_pass_and_nested_objects_are_checked_when_given() {
    let input = json!({"name": "a", "pool": {"nodes": 1}});
    assert_eq!(check_defaults::<AgreeSpec>(input), Ok(()));
    let e = check_defaults::<AgreeSpec>(json!({"name": "a", "pool": {}})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "AgreeSpec.pool.nodes: the schema's default is 4, serde's is 3"
    );
}

#[test]
fn serde_filling_in_a_value_the_schema_does_not_default_is_reported() {
    let e = check_defaults::<Tuning>(json!({})).unwrap_err().to_string();
    assert!(
        e.starts_with("Tuning.retries: serde fills in 5, but the schema has no default"),
        "{e}"
    );
    assert!(
        !e.contains("verbose"),
        "an empty value is what a missing field means: {e}"
    );
}

#[test]
fn an_input_serde_cannot_read_is_an_error() {
    let e = check_defaults::<AgreeSpec>(json!({"pool": {}})).unwrap_err();
    assert!(e.to_string().contains("serde cannot read the input"), "{e}");
}
