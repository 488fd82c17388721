use kubegen::KubeSchema;
use std::collections::BTreeMap;

// `field_path` is relative to the node carrying the rule, made of `.field` and `['key']` steps
// that exist there: each of these is refused by the apiserver ("fieldPath must be a valid path").
#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
#[kube_marker(x_validation(rule = "self.replicas >= 0", field_path = ".nosuch"))]
#[kube_marker(x_validation(rule = "self.replicas < 100", field_path = "replicas"))]
#[kube_marker(x_validation(rule = "self.name != ''", field_path = ".name.foo"))]
#[kube_marker(x_validation(rule = "self.ports.size() < 9", field_path = ".ports[0]"))]
pub struct Service {
    pub name: String,
    pub replicas: i32,
    pub ports: Vec<i32>,
    // Into a map: any key is fine; a key of a field in brackets too.
    #[kube_marker(x_validation(rule = "self.size() < 9", field_path = ".anything"))]
    pub labels: BTreeMap<String, String>,
    #[kube_marker(items(x_validation(rule = "self.size() > 0", field_path = ".x")))]
    pub names: Vec<String>,
}

#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
#[kube_marker(x_validation(rule = "self.name != ''", field_path = "['name']"))]
pub struct Fine {
    pub name: String,
}

fn main() {}
