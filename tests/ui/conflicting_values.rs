use kubegen::KubeSchema;

#[derive(KubeSchema)]
pub struct Spec {
    #[kube_marker(minimum = 1)]
    #[kube_marker(minimum = 2)]
    pub size: i32,
    #[kube_marker(min_length = 3, max_length = 2)]
    pub name: String,
    #[kube_marker(optional, required)]
    pub port: i32,
    /// The same key twice with the same value is fine.
    #[kube_marker(maximum = 9)]
    #[kube_marker(maximum = 9)]
    pub ok: i32,
}

fn main() {}
