//! k8s-openapi's schemas of a Kubernetes version other than the compiled one.
//!
//! k8s-openapi compiles one Kubernetes version; its sources hold every version's types
//! (`src/v1_33` … `src/v1_37`). gen-cli is built with one, while the user's crate may resolve
//! another: gen-cli then reads that version's `JsonSchema` impls from the sources into
//! [`Definitions`] and [`set`]s them, and every k8s-openapi path resolves against them (a type
//! only that version has included, one it lacks unknown), converted exactly as a compiled type.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde_json::{Map, Value};

use super::convert::{REF_PREFIX, convert_definition};
use crate::model::{Known, Schema};

/// One Kubernetes version's k8s-openapi schemas.
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    /// Each definition as its `JsonSchema` impl writes it, by Kubernetes name
    /// (`io.k8s.api.core.v1.PodSpec`); references are [`Definitions::reference`]s.
    pub schemas: Map<String, Value>,
    /// The Kubernetes name of each type, by canonical path
    /// (`k8s_openapi::api::core::v1::PodSpec`).
    pub names: HashMap<String, String>,
}

impl Definitions {
    /// A reference to the definition `name`, as schemars writes one.
    pub fn reference(name: &str) -> Value {
        Value::String(format!("{REF_PREFIX}{name}"))
    }
}

static SELECTED: OnceLock<Definitions> = OnceLock::new();

/// Gives the schemas of the [`select`](super::select_kubernetes)ed version when it is not the
/// compiled one, once per process and before any schema is built.
pub fn set(definitions: Definitions) {
    let _ = SELECTED.set(definitions);
}

/// Whether [`set`] was called: k8s-openapi paths resolve against the set definitions only.
pub(super) fn active() -> bool {
    SELECTED.get().is_some()
}

/// The type at a canonical path in the set definitions.
pub(super) fn lookup(path: &str) -> Option<Known> {
    let (name, _) = SELECTED.get()?.names.get_key_value(path)?;
    Some(Known {
        name,
        build: schema,
    })
}

/// The converted schema of the type at a canonical path of the set definitions, once per
/// process.
fn schema(path: &'static str) -> Schema {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Schema>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(schema) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(path) {
        return schema.clone();
    }
    let Some(definitions) = SELECTED.get() else {
        return Schema::default();
    };
    let schema = definitions
        .names
        .get(path)
        .map(|name| convert_definition(name, &definitions.schemas))
        .unwrap_or_default();
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(path)
        .or_insert(schema)
        .clone()
}
