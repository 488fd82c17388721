//! Schema building: shapes and markers in, one structural OpenAPI schema out.
//!
//! The stages are files: `build` walks shapes and loads named types, `object` and `enums`
//! give structs and enums their JSON form, `markers` turns schema keys into an overlay (checking
//! that each key fits the type), and `merge` lays a field's overlay on its type's schema the way
//! controller-gen's flattener does (`allOf` for keywords set on both sides).

mod build;
pub mod defaults;
mod each;
mod enums;
mod markers;
mod merge;
mod object;
mod site;

pub use build::{Builder, recursion};
pub use each::each;
pub use markers::{map_key_problem, type_bound_keys, wants_text};
pub use site::Site;
pub(crate) use site::field_site;
