use kubegen::KubeSchema;

#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
pub struct Tags {
    #[kube_marker(items(min_length = 3, short_names = "x"))]
    pub names: Vec<String>,
    #[kube_marker(items(optional, items(at_most_one_of = ["a", "b"])))]
    pub grid: Vec<Vec<String>>,
}

fn main() {}
