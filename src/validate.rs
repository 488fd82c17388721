//! [`Validate`]: a derived kind's objects admitted as the API server would admit them, in
//! process, with the engine's admission (`kubegen_core::check::admit`): pruning, defaulting,
//! the OpenAPI validation and the CEL rules of the kind's generated CRD version.

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use kubegen_core::check::admit::Validator;
pub use kubegen_core::check::admit::{FieldError, Reason};

use crate::CustomResource;

/// Why the API server would refuse an object: its field errors, in the server's words.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// `Memcached.cache.example.com "sample"`: the kind, group and name, as the server
    /// names what it refuses.
    pub object: String,
    /// The field errors (the server's `details.causes`).
    pub errors: Vec<FieldError>,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors: Vec<String> = self.errors.iter().map(ToString::to_string).collect();
        match errors.as_slice() {
            [one] => write!(f, "{} is invalid: {one}", self.object),
            all => write!(f, "{} is invalid: [{}]", self.object, all.join(", ")),
        }
    }
}

impl std::error::Error for Invalid {}

/// Admission of a derived kind's objects, for every type `#[derive(CustomResource)]` makes:
/// `Memcached::validate(&sample)`, `Memcached::validate_update(&old, &new)`.
///
/// ```
/// use kubegen::{CustomResource, Validate};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
/// #[kube_marker(group = "example.com", version = "v1", kind = "Pool")]
/// #[kube_marker(x_validation(rule = "self.min <= self.max", message = "min above max"))]
/// pub struct PoolSpec {
///     #[kube_marker(maximum = 10)]
///     pub max: i32,
///     pub min: i32,
/// }
///
/// let pool = Pool::new("p", PoolSpec { max: 3, min: 5 });
/// let refused = Pool::validate(&pool).unwrap_err();
/// assert_eq!(
///     refused.to_string(),
///     "Pool.example.com \"p\" is invalid: spec: Invalid value: min above max"
/// );
/// ```
pub trait Validate: CustomResource + serde::Serialize + Sized + 'static {
    /// `Ok` when the API server would accept `object` as a create.
    fn validate(object: &Self) -> Result<(), Invalid> {
        admit(None, object)
    }

    /// `Ok` when the API server would accept `new` as an update of `old`: transition rules
    /// run, and what was already wrong in an unchanged value is let through (ratcheting).
    fn validate_update(old: &Self, new: &Self) -> Result<(), Invalid> {
        admit(Some(old), new)
    }
}

impl<K: CustomResource + serde::Serialize + 'static> Validate for K {}

/// The validator of `K`'s version, built once.
fn validator<K: CustomResource + 'static>() -> Arc<Validator> {
    static ALL: OnceLock<Mutex<HashMap<TypeId, Arc<Validator>>>> = OnceLock::new();
    let mut all = ALL
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    all.entry(TypeId::of::<K>())
        .or_insert_with(|| {
            let options = kubegen_core::crd::Options::default();
            let name = std::any::type_name::<K>();
            let schema = kubegen_core::crd::version_schema(&K::resource(), &options)
                .unwrap_or_else(|e| panic!("the markers of {name} are inconsistent:\n{e}"));
            let validator = Validator::new(schema)
                .unwrap_or_else(|e| panic!("the rules of {name} do not parse: {e}"));
            Arc::new(validator)
        })
        .clone()
}

fn admit<K: Validate>(old: Option<&K>, new: &K) -> Result<(), Invalid> {
    let json = |o: &K| serde_json::to_value(o).expect("a custom resource serializes to JSON");
    let object = json(new);
    let admitted = validator::<K>().admit(&object, old.map(json).as_ref());
    if admitted.errors.is_empty() {
        return Ok(());
    }
    let text = |p: &str| {
        object
            .pointer(p)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    };
    let (name, kind) = (text("/metadata/name"), text("/kind"));
    let group = text("/apiVersion").rsplit_once('/').map_or("", |(g, _)| g);
    Err(Invalid {
        object: format!("{kind}.{group} {name:?}"),
        errors: admitted.errors,
    })
}
