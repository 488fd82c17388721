use kubegen::{CustomResource, KubeSchema};

/// The v1 spec, flattened into the v1beta1 one below.
#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ClassSpec {
    pub controller_name: String,
    pub listeners: Vec<String>,
    pub limit: Option<i32>,
}

// Paths into the flattened fields are checked at compile time through `ClassSpec::INFO`, with
// the messages `crd()` and gen-cli give.
#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1beta1", kind = "Class")]
#[kube_marker(printcolumn(name = "Controller", json_path = ".spec.controllerNam"))]
#[kube_marker(printcolumn(name = "Limit", json_path = ".spec.limit[0]"))]
#[kube_marker(selectable_field(json_path = ".spec.listeners"))]
pub struct BetaClassSpec {
    #[serde(flatten)]
    pub spec: ClassSpec,
    pub note: Option<String>,
}

fn main() {}
