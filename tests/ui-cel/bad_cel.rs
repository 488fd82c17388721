use kubegen::KubeSchema;

#[derive(KubeSchema)]
pub struct Spec {
    #[kube_marker(x_validation(rule = "self.size() >", message = "truncated"))]
    pub name: String,
}

fn main() {}
