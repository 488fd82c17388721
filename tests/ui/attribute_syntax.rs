use kubegen::{CustomResource, rbac, webhook};

// A missing `=` once reached the derive's panic net ("internal error"): each is now an error
// at the token where `=` is expected.
#[rbac(groups walk "apps", resources = "deployments", verbs = "get")]
pub fn f() {}

#[webhook(mutating true, failure_policy = "fail", side_effects = "None", groups = "apps", resources = "deployments", verbs = "create", versions = "v1", name = "default.deployments.example.com", admission_review_versions = "v1")]
fn g() {}

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version "v1", kind = "Foo")]
pub struct FooSpec {
    #[kube_marker(minimum 1)]
    pub size: i32,
}

fn main() {}
