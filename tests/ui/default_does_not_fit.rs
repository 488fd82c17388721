use kubegen::KubeSchema;

#[derive(KubeSchema)]
pub struct Spec {
    #[kube_marker(default = "three")]
    pub size: i32,
    #[kube_marker(maximum = 5, default = 10)]
    pub replicas: i32,
    #[kube_marker(default = ["a", 1])]
    pub names: Vec<String>,
    #[kube_marker(enum_values = ["a", "b"], default = "c")]
    pub mode: String,
}

fn main() {}
