//! Checks on built schemas: values against schemas, structural rules, CEL rules.

pub mod cel;
pub mod structural;
pub mod types;
pub mod value;
