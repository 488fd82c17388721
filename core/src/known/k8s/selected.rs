//! k8s-openapi's schemas of a Kubernetes version other than the compiled one.
//!
//! k8s-openapi compiles one Kubernetes version; its sources hold every version's types
//! (`src/v1_33` … `src/v1_37`). gen-cli is built with one, while the user's crate may resolve
//! another: gen-cli then reads that version's `JsonSchema` impls from the sources into
//! [`Definitions`] and builds with a [`Kubernetes`](crate::known::Kubernetes) value holding
//! them; every k8s-openapi path resolves against them (a type only that version has included,
//! one it lacks unknown), converted exactly as a compiled type.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

use serde_json::{Map, Value};

use super::Minor;
use super::convert::{REF_PREFIX, convert_definition};
use crate::model::Schema;

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

/// Another version's schemas, and their conversions so far.
#[derive(Debug)]
pub(crate) struct Selected {
    /// The version.
    pub minor: Minor,
    /// Its schemas.
    definitions: Definitions,
    /// The converted schema of each type built so far, by canonical path.
    cache: Mutex<HashMap<String, Schema>>,
}

impl Selected {
    /// The version `minor`, whose schemas are `definitions`.
    pub fn new(minor: Minor, definitions: Definitions) -> Selected {
        Selected {
            minor,
            definitions,
            cache: Mutex::default(),
        }
    }

    /// The canonical path of a type of this version, as a [`Known`](crate::model::Known) name.
    pub fn name(&self, path: &str) -> Option<&'static str> {
        self.definitions
            .names
            .contains_key(path)
            .then(|| intern(path))
    }

    /// Whether this version has the type at a canonical path.
    pub fn has(&self, path: &str) -> bool {
        self.definitions.names.contains_key(path)
    }

    /// The converted schema of the type at a canonical path.
    pub fn schema(&self, path: &str) -> Schema {
        if let Some(schema) = self.lock().get(path) {
            return schema.clone();
        }
        // Converted outside the lock: two threads may both convert a type, to the same result.
        let schema = self
            .definitions
            .names
            .get(path)
            .map(|name| convert_definition(name, &self.definitions.schemas, self.minor))
            .unwrap_or_default();
        self.lock()
            .entry(path.to_string())
            .or_insert(schema)
            .clone()
    }

    /// The cache, even after a panic elsewhere.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Schema>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// [`Known::build`](crate::model::Known::build) of a type read from another version's sources:
/// empty, since the compiled version has no such schema. A builder for that version never calls
/// it: its [`Kubernetes`] value gives the type's schema ([`Kubernetes::schema`]).
pub(super) fn build(_: &'static str) -> Schema {
    Schema::default()
}

/// `path` with a `'static` lifetime, each distinct path leaked once (k8s-openapi's paths, a
/// bounded set, as [`Known`](crate::model::Known) names them).
fn intern(path: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(name) = names.get(path) {
        return name;
    }
    let name: &'static str = Box::leak(path.to_string().into_boxed_str());
    names.insert(name);
    name
}
