//! What each module puts in the type namespace: its items, child modules, `use`s and
//! `extern crate`s, with their visibility. Filled once after loading (see `bind`); read by
//! resolution.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::{Ident, Item, Visibility};

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
    /// The item at this index of the module's items (struct, enum, union, type alias, trait).
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
#[derive(Debug)]
pub(super) struct ImportPath {
    /// Written with a leading `::`.
    pub(super) global: bool,
    pub(super) segments: Vec<String>,
    /// The imported name (or `*`), for errors.
    pub(super) span: Span,
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

/// The name and visibility of an item in the type namespace that is not a module: a struct,
/// enum, union, type alias, trait or trait alias.
pub(super) fn type_item(item: &Item) -> Option<(&Ident, &Visibility)> {
    match item {
        Item::Struct(item) => Some((&item.ident, &item.vis)),
        Item::Enum(item) => Some((&item.ident, &item.vis)),
        Item::Union(item) => Some((&item.ident, &item.vis)),
        Item::Type(item) => Some((&item.ident, &item.vis)),
        Item::Trait(item) => Some((&item.ident, &item.vis)),
        Item::TraitAlias(item) => Some((&item.ident, &item.vis)),
        _ => None,
    }
}

/// An identifier as a name: `r#type` is `type`.
pub(super) fn name(ident: &Ident) -> String {
    ident.unraw().to_string()
}
