//! Module identities.

/// Names one module of a [`Crate`](super::Crate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleId(pub(super) usize);
