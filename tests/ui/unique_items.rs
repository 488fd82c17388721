use kubegen::KubeSchema;

#[derive(KubeSchema)]
pub struct Spec {
    #[kube_marker(unique_items)]
    pub tags: Vec<String>,
    #[kube_marker(pattern = "^(a|b$")]
    pub name: String,
}

fn main() {}
