//! The operator's webhooks, served over HTTPS beside the controller:
//!
//! - [`default_memcached()`] (mutating) and [`validate_memcached()`] (validating) admit
//!   `v1beta1` objects; their `#[webhook]` attributes generate `config/webhook/manifests.yaml`
//!   and give the routes, so the two cannot drift. With the configurations' default
//!   `matchPolicy: Equivalent`, the API server converts a `v1alpha1` request to `v1beta1`
//!   for them.
//! - the conversion webhook (`/convert`, from the CRD's `conversion(webhook(...))` key)
//!   converts between the versions through the storage version `v1alpha1`
//!   ([`crate::api::conversion`]).

mod defaulting;
mod image;
mod validation;

use std::io;
use std::path::PathBuf;

use kubegen::webhook::{CertDir, Conversion, Server};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::api::{v1alpha1, v1beta1};

pub use defaulting::default_memcached;
pub use validation::validate_memcached;

// ANCHOR: server
/// All the operator's webhooks, with `/healthz`.
pub fn server() -> Server {
    Server::new()
        .mutate(default_memcached::webhooks(), default_memcached)
        .validate(validate_memcached::webhooks(), validate_memcached)
        .convert(Conversion::<v1alpha1::Memcached>::through().version::<v1beta1::Memcached>())
}

/// Serves [`server`] on `listener` with the certificate in `cert_dir` (`tls.crt`, `tls.key`,
/// reloaded when they change) until `shutdown` is cancelled. Fails at once when the
/// certificate cannot be read.
pub async fn serve(
    listener: TcpListener,
    cert_dir: PathBuf,
    shutdown: CancellationToken,
) -> io::Result<()> {
    server()
        .serve(listener, CertDir::new(cert_dir), shutdown.cancelled_owned())
        .await
}
// ANCHOR_END: server

/// A `v1beta1` Memcached named `cache` running `image`, for the handlers' tests.
#[cfg(test)]
fn memcached(image: &str) -> v1beta1::Memcached {
    let spec = v1beta1::MemcachedSpec {
        replicas: 1,
        container_port: 11211,
        image: image.into(),
        resources: None,
    };
    v1beta1::Memcached::new("cache", spec)
}
