//! The loaded crate: its modules, each with its file, its path from the crate root, the type
//! items it defines and the names it binds.

use std::collections::HashMap;
use std::path::Path;

use kubegen_core::model::Loc;
use proc_macro2::Span;

use super::id::ModuleId;
use super::origin::Origin;
use super::outline::TypeItem;
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
    pub(super) origin: Origin,
    pub(super) parent: Option<ModuleId>,
    /// The structs, enums, unions, type aliases, traits and trait aliases it defines, in
    /// source order, without those under `#[cfg(test)]`.
    pub(super) types: Vec<TypeItem>,
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
            .chain(self.modules[id.0].path().iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("::")
    }
}

impl Module {
    /// The module's names from the crate root (`["api", "v1"]` for `crate::api::v1`).
    pub fn path(&self) -> &[String] {
        self.origin.path()
    }

    /// The file the module's items are in.
    pub fn file(&self) -> &Path {
        self.origin.file()
    }

    /// The structs, enums, unions, type aliases, traits and trait aliases the module defines,
    /// in source order, without those under `#[cfg(test)]`.
    pub fn types(&self) -> &[TypeItem] {
        &self.types
    }

    /// Where `span` is: a span of the module's file as parsed on this thread (see
    /// [`Origin::loc`]).
    pub fn loc(&self, span: Span) -> Loc {
        self.origin.loc(span)
    }
}
