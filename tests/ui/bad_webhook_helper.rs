use kubegen::CustomResource;

/// `#[webhook]` as the derive's helper attribute is checked like the attribute macro.
#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Foo")]
#[webhook(mutating = false, failure_policy = "fail", side_effects = "Unknown", groups = "example.com", resources = "foos", verbs = "create", versions = "v1", name = "validate.foos.example.com", admission_review_versions = "v1")]
pub struct FooSpec {
    pub size: i32,
}

fn main() {}
