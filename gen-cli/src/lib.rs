//! gen-cli: kubegen's second front end to the engine. It reads sources (never compiles them)
//! and writes a crate's `config/` tree.

pub mod source;
