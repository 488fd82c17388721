//! CustomResourceDefinition assembly: names, versions, the root schema, descriptions and size.

#[cfg(feature = "k8s")]
mod assemble;
#[cfg(feature = "k8s")]
mod descriptions;
#[cfg(feature = "k8s")]
mod object_meta;
mod root;
pub mod size;
#[cfg(feature = "k8s")]
mod versions;

#[cfg(feature = "k8s")]
pub use assemble::{Built, Options, VERSION_ANNOTATION, build, checked, to_props, version_schema};
pub use root::root_of_spec;

use std::collections::BTreeMap;

use crate::model::ResourceDef;

/// The versions of each kind (one CRD each), keyed by group and kind so that kinds come out in
/// a stable order.
pub fn by_kind(
    versions: impl IntoIterator<Item = ResourceDef>,
) -> BTreeMap<(String, String), Vec<ResourceDef>> {
    let mut kinds: BTreeMap<(String, String), Vec<ResourceDef>> = BTreeMap::new();
    for version in versions {
        let key = (version.markers.group.clone(), version.markers.kind.clone());
        kinds.entry(key).or_default().push(version);
    }
    kinds
}
