// `crate = "..."` names kubegen for a crate that uses it through another that re-exports it.
use kubegen::{CustomResource, KubeSchema, webhook};
use serde::{Deserialize, Serialize};

// Not a path: an error at the string.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(crate = "my sdk::kubegen", group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    pub size: i32,
}

// A path with generic arguments names no crate.
#[derive(KubeSchema, Serialize, Deserialize)]
#[kube_marker(crate = "my_sdk::<u8>")]
pub struct Part {
    // The key goes on the deriving item, not on a field, nor inside `items(...)`.
    #[kube_marker(crate = "::kubegen")]
    pub name: String,
    #[kube_marker(items(crate = "::kubegen"))]
    pub tags: Vec<String>,
}

// A handler's `#[webhook]`s name kubegen by one path.
#[webhook(crate = "::kubegen", mutating = false, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "one.deployments.example.com", admission_review_versions = "v1")]
#[webhook(crate = "kubegen", mutating = false, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "update", versions = "v1", name = "two.deployments.example.com", admission_review_versions = "v1")]
fn validate_deployment() {}

// And a bad one is an error at the string.
#[webhook(crate = "1sdk", mutating = false, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "delete", versions = "v1", name = "three.deployments.example.com", admission_review_versions = "v1")]
fn check_deletion() {}

fn main() {
    validate_deployment();
    check_deletion();
}
