use kubegen::CustomResource;

/// `#[rbac]` as the derive's helper attribute is checked like the attribute macro.
#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Foo")]
#[rbac(groups = "example.com", resources = "foos", verbs = "get;wacth")]
pub struct FooSpec {
    pub size: i32,
}

fn main() {}
