use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

// A branch holds value validations only; the properties it names exist outside it.
#[derive(KubeSchema, Serialize, Deserialize)]
#[kube_marker(one_of(property(name = "sise", minimum = 1)), any_of(required = ["colour"]))]
pub struct Box1 {
    pub size: i32,
    pub color: Option<String>,
}

#[derive(KubeSchema, Serialize, Deserialize)]
#[kube_marker(one_of(description = "no"), not(requird = ["size"]))]
pub struct Box2 {
    pub size: i32,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Box3 {
    #[kube_marker(any_of(min_length = 1))]
    pub size: i32,
}

fn main() {}
