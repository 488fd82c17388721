//! Checks on built schemas (and on whole CRD objects): values against schemas, structural rules, CEL rules and their
//! field paths, patterns as Go compiles them, and serde's defaults against the schema's.

#[cfg(feature = "admit")]
pub mod admit;
pub mod bounds;
pub mod cel;
pub mod crd;
pub mod defaults;
pub mod field_path;
pub mod lists;
pub mod paths;
pub mod re2;
pub mod structural;
pub mod types;
pub mod value;
