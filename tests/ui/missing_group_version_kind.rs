use kubegen::CustomResource;

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com")]
pub struct FooSpec {
    pub size: i32,
}

fn main() {}
