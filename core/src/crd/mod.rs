//! CustomResourceDefinition assembly: names, versions, the root schema, descriptions and size.

#[cfg(feature = "k8s")]
mod assemble;
#[cfg(feature = "k8s")]
mod descriptions;
#[cfg(feature = "k8s")]
mod root;
pub mod size;
#[cfg(feature = "k8s")]
mod versions;

#[cfg(feature = "k8s")]
pub use assemble::{Built, Options, VERSION_ANNOTATION, build, to_props};
