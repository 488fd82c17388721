//! Rust syntax → model (feature `parse`): the attributes and types that both the derive and
//! the CLI read, parsed by one piece of code.

pub mod diagnostics;
pub mod docs;
pub mod foreign;
pub mod markers;
pub mod rbac;
pub mod registry;
mod serde_attrs;
pub mod shape;
pub mod span;
pub mod typedef;
pub mod values;
pub mod webhook;
