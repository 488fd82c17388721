use kubegen::KubeSchema;

#[derive(KubeSchema, serde::Serialize)]
#[kube_marker(x_validation(rule = "self.size + 'a' > 0", message = "an int plus a string"))]
pub struct Spec {
    pub size: i32,
    #[kube_marker(x_validation(rule = "self.all(l, l.all(s, s.startsWith('a')))", message = "unbounded"))]
    pub groups: Vec<Vec<String>>,
    #[kube_marker(x_validation(rule = "self > 0", message_expression = "'got ' + string(self)"))]
    pub count: i32,
    #[kube_marker(max_items = 10)]
    #[kube_marker(x_validation(rule = "self.all(l, l.all(s, s.startsWith('a')))", message = "bounded"))]
    pub bounded: Vec<Vec<Untyped>>,
}

/// A type the derive cannot see: rules reading it are left to `crd()` and `gen-cli`.
pub type Untyped = String;

fn main() {}
