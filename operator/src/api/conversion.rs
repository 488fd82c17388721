//! Conversion between the versions, through the hub [`v1alpha1::Memcached`] (the storage
//! version): `size` ⇄ `replicas`, everything else as is. Both directions are lossless.

use super::{v1alpha1, v1beta1};

impl From<v1beta1::Memcached> for v1alpha1::Memcached {
    fn from(mc: v1beta1::Memcached) -> Self {
        let spec = mc.spec;
        v1alpha1::Memcached {
            metadata: mc.metadata,
            spec: v1alpha1::MemcachedSpec {
                size: spec.replicas,
                container_port: spec.container_port,
                image: spec.image,
                resources: spec.resources,
            },
            status: mc.status,
        }
    }
}

impl From<v1alpha1::Memcached> for v1beta1::Memcached {
    fn from(mc: v1alpha1::Memcached) -> Self {
        let spec = mc.spec;
        v1beta1::Memcached {
            metadata: mc.metadata,
            spec: v1beta1::MemcachedSpec {
                replicas: spec.size,
                container_port: spec.container_port,
                image: spec.image,
                resources: spec.resources,
            },
            status: mc.status,
        }
    }
}
