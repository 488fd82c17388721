use kubegen::{CustomResource, KubeSchema};

/// The v1 spec, flattened into the v1beta1 one below.
#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ClassSpec {
    pub controller_name: String,
    pub listeners: Vec<String>,
    pub limit: Option<i32>,
    pub parameters_ref: Option<ParametersRef>,
}

/// Two levels down, through the flattened field.
#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct ParametersRef {
    pub group: String,
    pub name: String,
}

/// A field of the v1beta1 spec's own, of a type the derive of the spec cannot see.
#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct Extra {
    pub refs: Vec<Ref>,
}

#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct Ref {
    pub target: Target,
}

#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct Target {
    pub kind: String,
    pub tags: Vec<String>,
}

#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug, Default)]
pub struct ClassStatus {
    pub ready: bool,
}

// Every step of each path is checked at compile time through the types' `INFO`, with the
// messages (and the "did you mean") `crd()` and gen-cli give.
#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1beta1", kind = "Class", status = "ClassStatus")]
#[kube_marker(printcolumn(name = "Controller", json_path = ".spec.controllerNam"))]
#[kube_marker(printcolumn(name = "Limit", json_path = ".spec.limit[0]"))]
#[kube_marker(selectable_field(json_path = ".spec.listeners"))]
#[kube_marker(printcolumn(name = "Parameters", json_path = ".spec.parametersRef.nmae"))]
#[kube_marker(printcolumn(name = "Kind", json_path = ".spec.extra.refs[0].target.knd"))]
#[kube_marker(selectable_field(json_path = ".spec.extra.refs[0].target.tags"))]
#[kube_marker(printcolumn(name = "Ready", json_path = ".status.redy"))]
#[kube_marker(printcolumn(name = "Group", json_path = ".spec.parametersRef.group.x"))]
pub struct BetaClassSpec {
    #[serde(flatten)]
    pub spec: ClassSpec,
    pub note: Option<String>,
    pub extra: Extra,
}

fn main() {}
