use kubegen::KubeSchema;

pub struct NotDerived {
    pub x: i32,
}

#[derive(KubeSchema)]
pub struct Spec {
    pub inner: NotDerived,
}

fn main() {}
