use kubegen::CustomResource;

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "Example_Com", version = "1", kind = "foo")]
#[kube_marker(printcolumn(name = "Size", type = "int", json_path = ".spec.sise"))]
#[kube_marker(annotations = "no-equals-sign")]
pub struct FooSpec {
    pub size: i32,
}

fn main() {}
