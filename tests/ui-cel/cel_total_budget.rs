use kubegen::KubeSchema;

/// Seven rules on the items of each list: each rule is under the apiserver's limit for one
/// rule, the fourteen together over its limit for a whole schema.
#[derive(KubeSchema, serde::Serialize)]
pub struct Spec {
    #[kube_marker(max_items = 1000, items(
        max_length = 20000,
        x_validation(rule = "self.contains('a')", message = "a"),
        x_validation(rule = "self.contains('b')", message = "b"),
        x_validation(rule = "self.contains('c')", message = "c"),
        x_validation(rule = "self.contains('d')", message = "d"),
        x_validation(rule = "self.contains('e')", message = "e"),
        x_validation(rule = "self.contains('f')", message = "f"),
        x_validation(rule = "self.contains('g')", message = "g"),
    ))]
    pub a: Vec<String>,
    #[kube_marker(max_items = 1000, items(
        max_length = 20000,
        x_validation(rule = "self.contains('a')", message = "a"),
        x_validation(rule = "self.contains('b')", message = "b"),
        x_validation(rule = "self.contains('c')", message = "c"),
        x_validation(rule = "self.contains('d')", message = "d"),
        x_validation(rule = "self.contains('e')", message = "e"),
        x_validation(rule = "self.contains('f')", message = "f"),
        x_validation(rule = "self.contains('g')", message = "g"),
    ))]
    pub b: Vec<String>,
}

fn main() {}
