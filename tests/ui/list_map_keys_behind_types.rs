use kubegen::KubeSchema;

#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
pub struct Port {
    pub port: i32,
    #[kube_marker(nullable)]
    pub zone: String,
    pub protocol: Option<String>,
}

// The items' fields are behind another type: checked at compile time through `Port::INFO`.
#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
pub struct ByZone {
    #[kube_marker(list_type = "map", list_map_keys = ["port", "zone"])]
    pub nullable_key: Vec<Port>,
    #[kube_marker(list_type = "map", list_map_keys = ["port", "protocol"])]
    pub optional_key: Vec<Port>,
}

fn main() {}
