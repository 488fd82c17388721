//! Typed server-side apply: an apply configuration sets only the fields a field manager owns.
//! `cargo run --example apply --features apply` prints the body of a
//! `PATCH ...?fieldManager=scaler` with `Content-Type: application/apply-patch+yaml`.

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// MemcachedSpec defines the desired state of Memcached.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "cache.example.com", version = "v1", kind = "Memcached")]
#[serde(rename_all = "camelCase")]
pub struct MemcachedSpec {
    /// How many pods.
    pub size: i32,
    /// The image, with its tag.
    pub image: String,
    /// The ports, one per name.
    #[kube_marker(list_type = "map", list_map_keys = "name")]
    pub ports: Vec<Port>,
}

/// A named port.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    pub name: String,
    pub container_port: i32,
}

// ANCHOR: configuration
/// What a scaler applies: the size, and nothing else of the spec (the image and the ports
/// stay another manager's).
fn scale(name: &str, size: i32) -> MemcachedApply {
    MemcachedApply::new(name).with_spec(MemcachedSpecApply::default().with_size(size))
}
// ANCHOR_END: configuration

fn main() {
    let body = serde_json::to_string_pretty(&scale("cache", 5)).unwrap();
    println!("{body}");
    // Sent with `Api::<Memcached>::patch("cache", &PatchParams::apply("scaler"), &Patch::Apply(&cfg))`.
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_set_fields_are_applied() {
        assert_eq!(
            serde_json::to_value(scale("cache", 5)).unwrap(),
            json!({
                "apiVersion": "cache.example.com/v1",
                "kind": "Memcached",
                "metadata": {"name": "cache"},
                "spec": {"size": 5},
            })
        );
    }

    #[test]
    fn a_list_map_item_without_its_key_is_refused() {
        let keyless = MemcachedApply::new("cache").with_spec(
            MemcachedSpecApply::default()
                .with_ports(vec![PortApply::default().with_container_port(80)]),
        );
        let error = serde_json::to_value(&keyless).unwrap_err().to_string();
        assert!(error.contains("`name`"), "{error}");
    }
}
