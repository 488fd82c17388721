//! Rust syntax → model (feature `parse`): the attributes and types that both the derive and
//! the CLI read, parsed by one piece of code.

pub mod markers;
pub mod values;
