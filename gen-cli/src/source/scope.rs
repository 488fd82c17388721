//! What each module puts in the type namespace: its items, child modules, `use`s and
//! `extern crate`s, with their visibility. Filled once after loading (see `bind`); read by
//! resolution.

use std::collections::HashMap;

use kubegen_core::model::Loc;

use super::id::ModuleId;

/// One module's names in the type namespace.
#[derive(Debug, Default)]
pub(super) struct Scope {
    /// Items, child modules, explicit imports and `extern crate`s by name. Where a name is
    /// defined twice (as under exclusive `cfg`s), the first definition wins.
    pub(super) names: HashMap<String, Binding>,
    /// `use path::*;` in source order.
    pub(super) globs: Vec<Glob>,
}

/// A name and what it stands for.
#[derive(Debug)]
pub(super) struct Binding {
    pub(super) target: BindingTarget,
    pub(super) vis: Vis,
}

/// What a name in a module stands for, before resolving imports.
#[derive(Debug)]
pub(super) enum BindingTarget {
    /// The type item at this index of the module's [`types`](super::krate::Module::types).
    Item(usize),
    /// A child module.
    Module(ModuleId),
    /// `extern crate name;` or `extern crate name as other;`.
    ExternCrate(String),
    /// `extern crate self as other;`.
    SelfCrate,
    /// `use path;`, `use path as other;`, `use path::{self}`.
    Import(ImportPath),
}

/// The path of a `use`, as written.
#[derive(Debug, Clone)]
pub(super) struct ImportPath {
    /// Written with a leading `::`.
    pub(super) global: bool,
    pub(super) segments: Vec<String>,
    /// Where the imported name (or `*`) is, for errors.
    pub(super) loc: Loc,
}

/// `use path::*;`.
#[derive(Debug)]
pub(super) struct Glob {
    pub(super) path: ImportPath,
    pub(super) vis: Vis,
}

/// Where a name can be seen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Vis {
    /// Everywhere in the crate (`pub`, `pub(crate)`).
    Public,
    /// In this module and the modules inside it (private, `pub(super)`, `pub(in path)`).
    Within(ModuleId),
}
