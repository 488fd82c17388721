//! CustomResourceDefinition assembly: names, versions, the root schema, and the checks on the
//! paths resource keys name.

#[cfg(feature = "k8s")]
mod assemble;
#[cfg(feature = "k8s")]
mod descriptions;
pub mod names;
pub mod paths;
mod plural;
#[cfg(feature = "k8s")]
mod root;
pub mod size;
#[cfg(feature = "k8s")]
mod versions;

#[cfg(feature = "k8s")]
pub use assemble::{Built, Options, VERSION_ANNOTATION, build, to_props};
pub use plural::pluralize;
