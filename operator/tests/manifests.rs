//! `config/` is what `gen-cli` writes, and CI's `gen-cli manifests --check` keeps it fresh;
//! these tests pin that the CLI's bytes equal what the derive's `crd()` renders.

use kube::CustomResourceExt;
use memcached_operator::api::Memcached;

fn committed(path: &str) -> String {
    let full = concat!(env!("CARGO_MANIFEST_DIR"), "/config/").to_string() + path;
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn crd_file_is_the_bytes_crd_renders() {
    assert_eq!(
        kubegen::to_yaml(&Memcached::crd()),
        committed("crd/bases/cache.example.com_memcacheds.yaml")
    );
}

/// The defaults the API server fills in (`#[kube_marker(default)]`) are the ones a Rust client
/// reads (`#[serde(default = "...")]`).
#[test]
fn schema_defaults_agree_with_serde_defaults() {
    use memcached_operator::api::MemcachedSpec;
    kubegen::check_defaults::<MemcachedSpec>(serde_json::json!({})).unwrap();
}
