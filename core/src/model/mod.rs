//! The model: what the markers and Rust types say, as plain data (no syn).

mod error;
mod loc;
mod markers;
mod rename;
mod resource;
mod shape;
mod typedef;

pub use error::{Error, Errors, Warning};
pub use loc::Loc;
pub use markers::{ExternalDocs, ListType, Rule, SchemaMarkers, Topology, field_path_site};
pub use rename::RenameRule;
pub use resource::{
    Conversion, Deprecation, PathKey, PrintColumn, ResourceDef, ResourceMarkers, Scale, Scope,
    SelectableField,
};
pub use shape::{Known, NamedRef, Scalar, Shape};
pub use typedef::{
    ContainerAttrs, Data, Field, FieldAttrs, SerdeDefault, Style, TypeDef, Variant, VariantAttrs,
};
