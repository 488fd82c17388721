//! The model: what the markers and Rust types say, and the schema nodes they become, as plain
//! data (no syn).

pub mod describe;
mod diagnostic;
pub mod info;
mod loc;
mod markers;
mod rename;
mod resource;
mod schema;
mod shape;
mod typedef;

pub use diagnostic::{Diagnostic, Error, Errors, Help, Label, Level, Rendered, Warning};
pub use loc::Loc;
pub use markers::{BoxedMarkers, ExternalDocs, ListType, Rule, SchemaMarkers, Topology};
pub use rename::RenameRule;
pub use resource::{
    Conversion, Deprecation, PathKey, PrintColumn, ResourceDef, ResourceMarkers, Scale, Scope,
    SelectableField,
};
pub use schema::Schema;
pub use shape::{Known, NamedRef, Scalar, Shape};
pub use typedef::{
    ContainerAttrs, Data, Field, FieldAttrs, SerdeDefault, StructForm, Style, Tagging, TypeDef,
    Variant, VariantAttrs,
};
