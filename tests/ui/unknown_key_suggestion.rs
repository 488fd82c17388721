use kubegen::KubeSchema;

#[derive(KubeSchema)]
pub struct Spec {
    #[kube_marker(min_lenght = 3)]
    pub name: String,
    #[kube_marker(list_tpye = "set")]
    pub tags: Vec<String>,
}

fn main() {}
