use kubegen::KubeSchema;

#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
pub struct Port {
    pub name: String,
    pub port: i32,
    #[kube_marker(nullable)]
    pub zone: String,
    pub protocol: Option<String>,
}

#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
pub struct Service {
    // The same rules the Kubernetes types are held to: keys named once, required (or
    // defaulted) and not nullable; set items not nullable.
    #[kube_marker(list_type = "map", list_map_keys = ["name", "name"])]
    pub ports: Vec<Port>,
    #[kube_marker(list_type = "set", items(nullable))]
    pub aliases: Vec<String>,
}

fn main() {}
