use kubegen::CustomResource;

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Foo")]
#[kube_marker(printcolumn(name = "Size", type = "integer", json_path = ".spec.sise"))]
#[kube_marker(scale(spec_path = ".spec.name", status_path = ".status.replicas"))]
#[kube_marker(selectable_field(json_path = ".spec.nope"))]
pub struct FooSpec {
    pub size: i32,
    pub name: String,
}

fn main() {}
