//! The memcached operator: a `Memcached` custom resource reconciled into a Deployment.
//!
//! - [`api`]: the `cache.example.com` types, `v1alpha1` and `v1beta1` (the CRD in
//!   `config/crd/bases/` is generated from them);
//! - [`controller`]: the reconciler; its `#[rbac]` attributes generate `config/rbac/role.yaml`;
//! - [`metrics`]: the reconciler's Prometheus metrics;
//! - [`webhook`]: the defaulting, validating and conversion webhooks; their `#[webhook]`
//!   attributes generate `config/webhook/manifests.yaml`;
//! - [`operator`]: all of it together on kubegen's runtime (HTTP endpoint, leader election,
//!   webhook server, graceful stop), as the binary runs it; [`cli`]: its flags.

// Layers, lowest first: a module uses only modules of the layers before its own
// (`gen-cli/tests/layers.rs` checks this list).
// 1. api, cli, metrics
// 2. controller, webhook
// 3. operator
pub mod api;
pub mod cli;
pub mod controller;
pub mod metrics;
pub mod operator;
pub mod webhook;
