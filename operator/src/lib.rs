//! The memcached operator: a `Memcached` custom resource reconciled into a Deployment.

pub mod api;
