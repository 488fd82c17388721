use kubegen::KubeSchema;

#[derive(KubeSchema, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[kube_marker(x_validation(rule = "self.minReplicas <= self.maxReplicas", message = "min <= max"))]
#[kube_marker(x_validation(rule = "has(self.replicas)", message = "typo: the field is minReplicas"))]
pub struct Spec {
    pub min_replicas: i32,
    pub max_replicas: i32,
    #[kube_marker(x_validation(rule = "self.all(t, t.size() > 0)", message = "no empty tags"))]
    pub tags: Vec<String>,
}

fn main() {}
