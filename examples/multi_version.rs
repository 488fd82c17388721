//! Two versions of one kind in one CRD, and the conversion between them: `v1` stores a
//! `size`, `v2` calls it `replicas`. `cargo run --example multi_version` prints the CRD's
//! versions and a `v2` object converted to `v1` and back.

use kubegen::{CustomResource, ResourceDef};
use serde::{Deserialize, Serialize};

// ANCHOR: versions
/// The storage version: what etcd holds.
pub mod v1 {
    use super::*;

    /// PoolSpec defines the desired state of Pool.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube_marker(group = "example.com", version = "v1", kind = "Pool", storage_version)]
    pub struct PoolSpec {
        /// How many workers.
        #[kube_marker(minimum = 0)]
        pub size: i32,
    }
}

/// A newer version: `size` renamed `replicas`.
pub mod v2 {
    use super::*;

    /// PoolSpec defines the desired state of Pool.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube_marker(group = "example.com", version = "v2", kind = "Pool")]
    pub struct PoolSpec {
        /// How many workers.
        #[kube_marker(minimum = 0)]
        pub replicas: i32,
    }
}
// ANCHOR_END: versions

// ANCHOR: conversion
impl From<v2::Pool> for v1::Pool {
    fn from(pool: v2::Pool) -> Self {
        v1::Pool {
            metadata: pool.metadata,
            spec: v1::PoolSpec {
                size: pool.spec.replicas,
            },
        }
    }
}

impl From<v1::Pool> for v2::Pool {
    fn from(pool: v1::Pool) -> Self {
        v2::Pool {
            metadata: pool.metadata,
            spec: v2::PoolSpec {
                replicas: pool.spec.size,
            },
        }
    }
}
// ANCHOR_END: conversion

/// The CRD of both versions.
fn crd()
-> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    // ANCHOR: merge
    let versions: [ResourceDef; 2] = [v1::Pool::resource(), v2::Pool::resource()];
    kubegen::crd_for(&versions).unwrap_or_else(|e| panic!("{}", e.rendered()))
    // ANCHOR_END: merge
}

fn main() {
    for version in crd().spec.versions {
        println!(
            "{}: served {}, storage {}",
            version.name, version.served, version.storage
        );
    }
    let newer = v2::Pool::new("workers", v2::PoolSpec { replicas: 3 });
    let stored = v1::Pool::from(newer.clone());
    println!("v2 {:?} is v1 {:?}", newer.spec, stored.spec);
    println!("and back: v2 {:?}", v2::Pool::from(stored).spec);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_crd_holds_both_versions_and_v1_is_stored() {
        let versions: Vec<(String, bool)> = crd()
            .spec
            .versions
            .into_iter()
            .map(|v| (v.name, v.storage))
            .collect();
        assert_eq!(
            versions,
            [("v1".to_string(), true), ("v2".to_string(), false)]
        );
    }

    #[test]
    fn conversion_round_trips() {
        let newer = v2::Pool::new("workers", v2::PoolSpec { replicas: 3 });
        let stored = v1::Pool::from(newer.clone());
        assert_eq!(stored.spec.size, 3);
        assert_eq!(v2::Pool::from(stored).spec, newer.spec);
    }
}
