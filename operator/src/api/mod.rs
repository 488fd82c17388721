//! The `cache.example.com` API: `Memcached` in two versions, both served.
//!
//! - [`v1alpha1`]: the storage version (`size`), the one the controller reconciles;
//! - [`v1beta1`]: `size` renamed `replicas`; the webhooks in [`crate::webhook`] admit it.
//!
//! The API server converts between them through the operator's conversion webhook, which
//! goes through [`v1alpha1::Memcached`] as the hub with the `From` implementations of
//! [`conversion`]. The CRD in `config/crd/bases/` is generated from both versions.

pub mod conversion;
pub mod status;
pub mod v1alpha1;
pub mod v1beta1;

/// The default image: the official image at the tag the operator is tested with.
pub const DEFAULT_IMAGE: &str = "memcached:1.6.26-alpine3.19";

fn default_replicas() -> i32 {
    1
}

fn default_port() -> i32 {
    11211
}

fn default_image() -> String {
    DEFAULT_IMAGE.to_string()
}
