//! What a module keeps of its items once its file is read: the names it puts in the type
//! namespace, with their visibility as written, and what each type item is. Made on the thread
//! that parsed the file, from syntax trees that cannot leave it; plain data, so the crate built
//! from it can be shared by every thread.

use proc_macro2::Span;
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Attribute, Ident, Item, UseTree, Visibility};

use kubegen_core::model::Loc;

use super::origin::Origin;
use super::scope::ImportPath;

/// One module's items, as binding and resolution read them.
#[derive(Debug, Default)]
pub(super) struct Outline {
    /// The items in the type namespace that are not modules, in source order.
    pub(super) types: Vec<TypeItem>,
    /// Every name the items bind, in source order (where a name is bound twice, the first
    /// binding wins).
    pub(super) names: Vec<(String, Named, VisPath)>,
    /// `use path::*;`, in source order.
    pub(super) globs: Vec<(ImportPath, VisPath)>,
}

/// A struct, enum, union, type alias, trait or trait alias.
#[derive(Debug)]
pub struct TypeItem {
    /// Its name (without `r#`).
    pub name: String,
    /// What it is.
    pub kind: TypeKind,
    /// The last segment of each macro its `#[derive(..)]`s name, in order.
    pub derives: Vec<String>,
}

/// What a [`TypeItem`] is.
#[derive(Debug)]
pub enum TypeKind {
    /// A struct.
    Struct,
    /// An enum.
    Enum,
    /// A type alias.
    Alias(Alias),
    /// A union, trait or trait alias.
    Other,
}

/// A type alias: its type parameters and its aliased type, to be parsed where it is used.
#[derive(Debug)]
pub struct Alias {
    /// The names of its type parameters, in order.
    pub params: Vec<String>,
    /// The aliased type as written.
    pub ty: Snippet,
}

/// A piece of a source file kept as text, parsed again by whoever reads it: syntax trees
/// cannot leave the thread that parsed them. Spans of the parsed text map back to the file.
#[derive(Debug, Clone)]
pub struct Snippet {
    text: String,
    /// Where `text` starts in its file.
    start: Loc,
}

impl Snippet {
    /// The text of `node`, which `origin` parsed on this thread (its tokens, spaced, if the
    /// file's text is not at hand).
    fn of(origin: &Origin, node: &(impl Spanned + ToTokens)) -> Snippet {
        let span = node.span();
        let text = span
            .source_text()
            .unwrap_or_else(|| node.to_token_stream().to_string());
        Snippet {
            text,
            start: origin.loc(span),
        }
    }

    /// The text parsed as a `T`.
    ///
    /// # Errors
    ///
    /// The text is not a `T` (it always is: it was one when it was cut out).
    pub fn parse<T: syn::parse::Parse>(&self) -> syn::Result<T> {
        syn::parse_str(&self.text)
    }

    /// Where `span`, of a tree [`Snippet::parse`] gave on this thread, is in the file.
    pub fn loc(&self, span: Span) -> Loc {
        let (start, end) = (span.start(), span.end());
        let place = |line: usize, column: usize| {
            if line <= 1 {
                (self.start.line, self.start.column + column)
            } else {
                (self.start.line + line - 1, column + 1)
            }
        };
        let (line, column) = place(start.line, start.column);
        let (end_line, end_column) = place(end.line, end.column);
        Loc {
            file: self.start.file.clone(),
            line,
            column,
            end_line,
            end_column,
        }
    }
}

/// A name a module binds, before the module tree is known.
#[derive(Debug)]
pub(super) enum Named {
    /// The type item at this index of [`Outline::types`].
    Type(usize),
    /// The child module of that name (when it was loaded: its `cfg`s hold).
    Module,
    /// `extern crate name;` or `extern crate name as other;`.
    ExternCrate(String),
    /// `extern crate self as other;`.
    SelfCrate,
    /// `use path;`, `use path as other;`, `use path::{self}`.
    Import(ImportPath),
}

/// A visibility as written; a module can be named in it, so it is resolved once the module
/// tree is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum VisPath {
    /// `pub`.
    Public,
    /// No visibility: the module itself.
    Private,
    /// `pub(crate)`, `pub(self)`, `pub(super)`, `pub(in path)`: the names of the path.
    Restricted(Vec<String>),
}

/// The outline of `items`, which `origin` parsed on this thread.
pub(super) fn outline(origin: &Origin, items: &[Item]) -> Outline {
    let mut out = Outline::default();
    for item in items {
        if let Some((ident, vis, kind, attrs)) = type_item(origin, item) {
            out.names
                .push((name(ident), Named::Type(out.types.len()), vis_path(vis)));
            out.types.push(TypeItem {
                name: name(ident),
                kind,
                derives: derives(attrs),
            });
            continue;
        }
        match item {
            Item::Mod(item) => {
                out.names
                    .push((name(&item.ident), Named::Module, vis_path(&item.vis)))
            }
            Item::ExternCrate(item) => {
                let named = if item.ident == "self" {
                    Named::SelfCrate
                } else {
                    Named::ExternCrate(name(&item.ident))
                };
                let bound = match &item.rename {
                    Some((_, rename)) if rename == "_" => continue,
                    Some((_, rename)) => rename,
                    None => &item.ident,
                };
                out.names.push((name(bound), named, vis_path(&item.vis)));
            }
            Item::Use(item) => {
                let vis = vis_path(&item.vis);
                let global = item.leading_colon.is_some();
                let mut imports = Imports {
                    origin,
                    out: &mut out,
                    global,
                    vis,
                };
                imports.tree(&item.tree, &mut Vec::new());
            }
            _ => {}
        }
    }
    out
}

/// The names of one `use` item being added to an outline.
struct Imports<'a> {
    origin: &'a Origin,
    out: &'a mut Outline,
    global: bool,
    vis: VisPath,
}

impl Imports<'_> {
    /// Adds the names of `tree`, below the segments in `prefix`.
    fn tree(&mut self, tree: &UseTree, prefix: &mut Vec<String>) {
        match tree {
            UseTree::Path(path) => {
                prefix.push(name(&path.ident));
                self.tree(&path.tree, prefix);
                prefix.pop();
            }
            UseTree::Name(use_name) if use_name.ident == "self" => {
                // `use a::{self}` imports `a` itself.
                if let Some(last) = prefix.last() {
                    self.import(last.clone(), use_name.ident.span(), prefix.clone());
                }
            }
            UseTree::Name(use_name) => {
                let imported = name(&use_name.ident);
                let segments = prefix.iter().cloned().chain([imported.clone()]).collect();
                self.import(imported, use_name.ident.span(), segments);
            }
            UseTree::Rename(rename) => {
                let segments = if rename.ident == "self" {
                    prefix.clone()
                } else {
                    prefix
                        .iter()
                        .cloned()
                        .chain([name(&rename.ident)])
                        .collect()
                };
                self.import(name(&rename.rename), rename.ident.span(), segments);
            }
            // `use ::*;` (edition 2015) imports nothing we could resolve.
            UseTree::Glob(_) if prefix.is_empty() => {}
            UseTree::Glob(glob) => {
                let path = self.path(prefix.clone(), glob.star_token.span());
                self.out.globs.push((path, self.vis.clone()));
            }
            UseTree::Group(group) => {
                for tree in &group.items {
                    self.tree(tree, prefix);
                }
            }
        }
    }

    fn import(&mut self, binding: String, imported: Span, segments: Vec<String>) {
        if binding == "_" || segments.is_empty() {
            return;
        }
        let path = self.path(segments, imported);
        self.out
            .names
            .push((binding, Named::Import(path), self.vis.clone()));
    }

    fn path(&self, segments: Vec<String>, span: Span) -> ImportPath {
        ImportPath {
            global: self.global,
            segments,
            loc: self.origin.loc(span),
        }
    }
}

/// The name, visibility, kind and attributes of an item in the type namespace that is not a
/// module.
fn type_item<'a>(
    origin: &Origin,
    item: &'a Item,
) -> Option<(&'a Ident, &'a Visibility, TypeKind, &'a [Attribute])> {
    Some(match item {
        Item::Struct(item) => (&item.ident, &item.vis, TypeKind::Struct, &item.attrs[..]),
        Item::Enum(item) => (&item.ident, &item.vis, TypeKind::Enum, &item.attrs[..]),
        Item::Type(alias) => {
            let params = alias.generics.type_params().map(|p| name(&p.ident));
            let kind = TypeKind::Alias(Alias {
                params: params.collect(),
                ty: Snippet::of(origin, &alias.ty),
            });
            (&alias.ident, &alias.vis, kind, &alias.attrs[..])
        }
        Item::Union(item) => (&item.ident, &item.vis, TypeKind::Other, &item.attrs[..]),
        Item::Trait(item) => (&item.ident, &item.vis, TypeKind::Other, &item.attrs[..]),
        Item::TraitAlias(item) => (&item.ident, &item.vis, TypeKind::Other, &item.attrs[..]),
        _ => return None,
    })
}

/// The last segment of each macro the `#[derive(..)]`s among `attrs` name.
pub fn derives(attrs: &[Attribute]) -> Vec<String> {
    let mut names = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        // A derive list that does not parse names nothing we could use.
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(last) = meta.path.segments.last() {
                names.push(name(&last.ident));
            }
            Ok(())
        });
    }
    names
}

fn vis_path(vis: &Visibility) -> VisPath {
    match vis {
        Visibility::Public(_) => VisPath::Public,
        Visibility::Inherited => VisPath::Private,
        Visibility::Restricted(restricted) => VisPath::Restricted(
            restricted
                .path
                .segments
                .iter()
                .map(|s| name(&s.ident))
                .collect(),
        ),
    }
}

/// An identifier as a name: `r#type` is `type`.
pub(super) fn name(ident: &Ident) -> String {
    ident.unraw().to_string()
}
