//! Schema building: shapes and markers in, one structural OpenAPI schema out.
//!
//! The stages are files: `build` walks shapes and loads named types, `object` and `enums`
//! give structs and enums their JSON form, `markers` turns schema keys into an overlay (checking
//! that each key fits the type), and `merge` lays a field's overlay on its type's schema the way
//! controller-gen's flattener does (`allOf` for keywords set on both sides).

mod build;
mod enums;
pub mod lists;
mod markers;
mod merge;
mod object;
#[cfg(feature = "cel")]
pub(crate) use object::cel_name;
mod props;

pub(crate) use build::field_site;
pub use build::{Builder, Site, recursion};
pub(crate) use markers::value_fits_type;
pub use markers::{contradictions, map_key_problem, type_bound_keys, wants_text};
pub use props::Schema;
