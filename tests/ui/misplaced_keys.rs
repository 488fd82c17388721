use kubegen::KubeSchema;

#[derive(KubeSchema)]
#[kube_marker(optional)]
pub struct Spec {
    #[kube_marker(group = "example.com")]
    pub size: i32,
    #[kube_marker(at_most_one_of = ["a", "b"])]
    pub other: i32,
}

fn main() {}
