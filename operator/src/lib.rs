//! The memcached operator: a `Memcached` custom resource reconciled into a Deployment.
//!
//! - [`api`]: the `cache.example.com/v1alpha1` types (the CRD in `config/crd/bases/` is
//!   generated from them);
//! - [`controller`]: the reconciler; its `#[rbac]` attributes generate `config/rbac/role.yaml`;
//! - [`leader`], [`metrics`], [`server`]: leader election, Prometheus metrics and the health
//!   endpoint;
//! - [`operator`]: all of it together, as the binary runs it; [`cli`]: its flags.

pub mod api;
pub mod cli;
pub mod controller;
pub mod leader;
pub mod metrics;
pub mod operator;
pub mod server;
