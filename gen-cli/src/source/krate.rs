//! The loaded crate: its modules, each with its file, its path from the crate root and its items.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kubegen_core::model::Loc;
use proc_macro2::Span;

use super::error::span_loc;
use super::id::ModuleId;
use super::scope::{Scope, Vis};

/// A crate's module tree with every item, read from its sources (see [`Crate::load`]).
#[derive(Debug)]
pub struct Crate {
    pub(super) name: String,
    /// Indexed by [`ModuleId`]; the root is first, then the modules in the order rustc meets them.
    pub(super) modules: Vec<Module>,
}

/// One module: the crate root, a `mod x;` with its own file, or an inline `mod x { .. }`.
#[derive(Debug)]
pub struct Module {
    /// Names from the crate root: empty for the root, `["api", "v1"]` for `crate::api::v1`.
    pub(super) path: Vec<String>,
    /// The file holding the module's items (an inline module's is its parent's file).
    pub(super) file: PathBuf,
    /// `file` as written in [`Loc`]s.
    pub(super) file_name: String,
    pub(super) parent: Option<ModuleId>,
    /// The items, without those under `#[cfg(test)]`. An inline module's items are moved into
    /// its own `Module`: its `Item::Mod` left here has an empty body.
    pub(super) items: Vec<syn::Item>,
    /// The child modules by name.
    pub(super) children: HashMap<String, ModuleId>,
    /// The names the module defines and imports, for resolution.
    pub(super) scope: Scope,
}

// A `ModuleId` indexes `modules`: only the loader makes one, as it pushes the module (load.rs),
// and a crate always has its root.
impl Crate {
    /// Whether a name with visibility `vis` can be seen from `module`.
    pub(super) fn is_visible(&self, vis: Vis, module: ModuleId) -> bool {
        match vis {
            Vis::Public => true,
            Vis::Within(scope) => self.is_within(module, scope),
        }
    }

    /// The crate's name, as given to [`Crate::load`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The crate root (the module of `lib.rs` or `main.rs`).
    pub fn root(&self) -> ModuleId {
        ModuleId(0)
    }

    /// The module `id` names.
    pub fn module(&self, id: ModuleId) -> &Module {
        &self.modules[id.0]
    }

    /// All modules, the root first, then depth first in source order.
    pub fn modules(&self) -> impl Iterator<Item = (ModuleId, &Module)> + '_ {
        self.modules
            .iter()
            .enumerate()
            .map(|(index, module)| (ModuleId(index), module))
    }

    pub(super) fn parent(&self, id: ModuleId) -> Option<ModuleId> {
        self.modules[id.0].parent
    }

    /// Whether `module` is `ancestor` or inside it.
    pub(super) fn is_within(&self, mut module: ModuleId, ancestor: ModuleId) -> bool {
        loop {
            if module == ancestor {
                return true;
            }
            match self.parent(module) {
                Some(parent) => module = parent,
                None => return false,
            }
        }
    }

    /// `crate::a::b` for a module, as messages show it.
    pub(super) fn display_path(&self, id: ModuleId) -> String {
        std::iter::once("crate")
            .chain(self.modules[id.0].path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("::")
    }
}

impl Module {
    /// The module's names from the crate root (`["api", "v1"]` for `crate::api::v1`).
    pub fn path(&self) -> &[String] {
        &self.path
    }

    /// The file the module's items are in.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The module's items in source order, without those under `#[cfg(test)]`. An inline
    /// `mod x { .. }` appears with an empty body: its items are in its own [`Module`].
    pub fn items(&self) -> &[syn::Item] {
        &self.items
    }

    /// Where `span` (of something in this module) is.
    pub fn loc(&self, span: Span) -> Loc {
        span_loc(&self.file_name, span)
    }

    /// The first token of `span`: where the derive, which cannot join spans on stable Rust,
    /// places an error about several tokens (darling's, about a whole `key = value`).
    pub fn first_token_loc(&self, span: Span) -> Loc {
        super::error::first_token(&self.file, &self.file_name, span)
    }
}
