use kubegen::KubeSchema;

#[derive(KubeSchema)]
pub struct Spec {
    #[kube_marker(max_length = "4")]
    pub name: String,
    #[kube_marker(min_items = 1.5)]
    pub tags: Vec<String>,
    #[kube_marker(minimum = true)]
    pub size: i32,
    #[kube_marker(list_type = "sett")]
    pub other: Vec<String>,
}

fn main() {}
