use std::collections::BTreeMap;

use kubegen::KubeSchema;

#[derive(KubeSchema)]
pub struct Spec {
    #[kube_marker(min_length = 1)]
    pub size: i32,
    #[kube_marker(min_items = 1)]
    pub name: String,
    #[kube_marker(list_map_keys = "name")]
    pub names: Vec<String>,
    #[kube_marker(map_type = "atomic")]
    pub flag: bool,
    #[kube_marker(maximum = 2.5)]
    pub whole: u32,
    #[kube_marker(list_type = "map", list_map_keys = "name")]
    pub maps: Vec<BTreeMap<String, String>>,
}

fn main() {}
