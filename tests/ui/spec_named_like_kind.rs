use kubegen::CustomResource;

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Widget")]
pub struct Widget {
    pub size: i32,
}

fn main() {}
