//! Loading a crate's sources: the module tree, and type paths resolved across modules.
