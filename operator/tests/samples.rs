//! The samples in `config/samples/` are objects the API server accepts, checked in process
//! with `kubegen::Validate` (the CRD's OpenAPI validation and CEL rules), and edits of them
//! it refuses are refused in its words.

use std::path::Path;

use kubegen::Validate;
use memcached_operator::api::{v1alpha1, v1beta1};

/// The sample of `file` in `config/samples/`, as the typed object.
fn sample<T: serde::de::DeserializeOwned>(file: &str) -> T {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("config/samples")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ANCHOR: validate
#[test]
fn the_samples_are_accepted() {
    let alpha: v1alpha1::Memcached = sample("cache_v1alpha1_memcached.yaml");
    v1alpha1::Memcached::validate(&alpha).unwrap();
    let beta: v1beta1::Memcached = sample("cache_v1beta1_memcached.yaml");
    v1beta1::Memcached::validate(&beta).unwrap();
    v1beta1::Memcached::validate_update(&beta, &beta).unwrap();
}
// ANCHOR_END: validate

#[test]
fn edited_samples_are_refused_in_the_servers_words() {
    let mut beta: v1beta1::Memcached = sample("cache_v1beta1_memcached.yaml");
    beta.spec.replicas = 9;
    let refused = v1beta1::Memcached::validate(&beta).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "Memcached.cache.example.com \"memcached-sample-v1beta1\" is invalid: spec.replicas: \
         Invalid value: 9: spec.replicas in body should be less than or equal to 5"
    );
    assert_eq!(refused.errors[0].reason, kubegen::Reason::Invalid);

    let mut blank: v1alpha1::Memcached = sample("cache_v1alpha1_memcached.yaml");
    blank.spec.image = "   ".into();
    let refused = v1alpha1::Memcached::validate(&blank).unwrap_err();
    assert_eq!(
        refused
            .errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [r#"spec.image: Invalid value: "   ": image must not be blank"#]
    );
}
