use kubegen::CustomResource;

// One mistake, one error: the misspelt key, not also a "missing group/version/kind".
#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Gadget", shortnames = "gd")]
pub struct GadgetSpec {
    pub size: i32,
}

fn main() {}
