//! [`Kubernetes`]: the Kubernetes version a schema is built for, as a value the schema builder
//! carries (see [`Builder::for_kubernetes`](crate::schema::Builder::for_kubernetes)) and asks
//! for the schema of every [`Known`] type.

#[cfg(feature = "k8s")]
use std::sync::Arc;

use crate::model::{Known, Schema};

#[cfg(feature = "k8s")]
use super::k8s::{KubernetesDefinitions, Minor, Selected};

/// The Kubernetes version k8s-openapi types are built for: by default (and in `crd()`) the one
/// k8s-openapi is compiled for; otherwise another supported version, with its k8s-openapi
/// schemas read from k8s-openapi's sources (gen-cli, for a crate that resolves another
/// version). Cheap to clone: the other version's schemas are shared.
#[derive(Clone, Debug, Default)]
pub struct Kubernetes {
    /// The other version's schemas; `None` for the compiled version.
    #[cfg(feature = "k8s")]
    selected: Option<Arc<Selected>>,
}

impl Kubernetes {
    /// The version k8s-openapi is compiled for.
    pub fn compiled() -> Kubernetes {
        Kubernetes::default()
    }

    /// The schema of `known` in this version: the other version's definition when this value
    /// holds one for it, else the compiled schema.
    pub fn schema(&self, known: &Known) -> Schema {
        #[cfg(feature = "k8s")]
        if let Some(selected) = self.selected()
            && selected.has(known.name)
        {
            return selected.schema(known.name);
        }
        known.schema()
    }
}

#[cfg(feature = "k8s")]
impl Kubernetes {
    /// Kubernetes 1.`minor`, whose k8s-openapi schemas are `definitions` (read with
    /// [`read_kubernetes_sources`](crate::known::read_kubernetes_sources)), used instead of
    /// the compiled ones (also when `minor` is the compiled version).
    pub fn with_definitions(minor: Minor, definitions: KubernetesDefinitions) -> Kubernetes {
        Kubernetes {
            selected: Some(Arc::new(Selected::new(minor, definitions))),
        }
    }

    /// The version.
    pub fn minor(&self) -> Minor {
        self.selected
            .as_ref()
            .map_or_else(Minor::compiled, |selected| selected.minor)
    }

    /// The other version's schemas, `None` for the compiled version.
    pub(crate) fn selected(&self) -> Option<&Selected> {
        self.selected.as_deref()
    }
}
