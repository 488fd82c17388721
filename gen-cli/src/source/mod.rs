//! Loading a crate's sources: the module tree, and type paths resolved across modules.
//!
//! [`Crate::load`] reads a crate from its root file without compiling it, the way rustc finds
//! files: `mod x;` is `x.rs` or `x/mod.rs` next to a `mod.rs`/root file and in `a/` for a file
//! `a.rs`; `#[path = ".."]` is relative to the current file's directory (on an inline module
//! it names the directory of its children); `mod y;` inside inline `mod x { .. }` is in `x/`.
//! Each file is parsed once with syn, files on every core: [`Crate::load_with`] shows a
//! [`Visitor`] each module's items on the thread that parsed them (syntax trees cannot leave
//! it), and the crate keeps only what resolution reads (each module's type items and names).
//! [`Crate::resolve_type`] says what a type path names: a [`Resolved::Local`] item, an
//! [`Resolved::External`] one by the canonical path it was imported from, or a
//! [`Resolved::Primitive`].
//!
//! # What a source walk cannot see
//!
//! - **`cfg`** is evaluated as a normal build of the package does ([`Cfg`]): its enabled
//!   features, `test` and `doc` false, the host's target cfgs; `cfg_attr`s are expanded.
//! - **Macros**: items that macros generate (`macro_rules!`, attribute and derive macros) are
//!   invisible, and so is `mod`/`use` produced by a macro. Items inside function bodies are not
//!   visited.
//! - **Other crates**: their contents are unknown, so paths into them are returned as written
//!   (after following this crate's `use`s) and any unknown first segment of a longer path is
//!   taken as a crate name. A single name that only a glob import of another crate's module
//!   can provide (`use k8s_openapi::api::core::v1::*;` then `PodSpec`) is taken from that glob,
//!   after local names, the prelude and the primitive types.
//! - **Edition**: paths follow edition 2018 and later (`use a::b` starts from the current
//!   module's names or a crate name; `::a` is always a crate).

mod bind;
mod cfg;
mod error;
mod id;
mod index;
mod krate;
mod load;
mod origin;
mod outline;
mod prelude;
mod resolve;
mod scope;
#[cfg(test)]
mod tests;

pub use cfg::Cfg;
pub use error::SourceError;
pub use id::ModuleId;
pub use index::{AssocItem, associated_items, item_attrs};
pub use krate::{Crate, Module};
pub use load::Visitor;
pub use origin::Origin;
pub use outline::{Alias, Snippet, TypeItem, TypeKind, derives};
pub use resolve::{ItemKind, Resolved};
