//! The model: what the markers and Rust types say, as plain data (no syn).

mod loc;

pub use loc::Loc;
