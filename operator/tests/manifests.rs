//! `config/` is what `gen-cli` writes, and CI's `gen-cli manifests --check` keeps it fresh;
//! these tests pin that the CLI's bytes equal what the derive renders for the two versions
//! merged (`kubegen::crd_for`).

use kubegen::CustomResource;
use memcached_operator::api::{v1alpha1, v1beta1};

fn committed(path: &str) -> String {
    let full = concat!(env!("CARGO_MANIFEST_DIR"), "/config/").to_string() + path;
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn crd_file_is_the_bytes_crd_for_renders() {
    let crd = kubegen::crd_for(&[
        v1alpha1::Memcached::resource(),
        v1beta1::Memcached::resource(),
    ])
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        kubegen::to_yaml(&crd),
        committed("crd/bases/cache.example.com_memcacheds.yaml")
    );
}

/// The defaults the API server fills in (`#[kube_marker(default)]`) are the ones a Rust client
/// reads (`#[serde(default = "...")]`), in both versions.
#[test]
fn schema_defaults_agree_with_serde_defaults() {
    kubegen::check_defaults::<v1alpha1::MemcachedSpec>(serde_json::json!({})).unwrap();
    kubegen::check_defaults::<v1beta1::MemcachedSpec>(serde_json::json!({})).unwrap();
}
