//! Fills each module's [`Scope`]: its items, child modules, `use`s and `extern crate`s, with
//! the visibility of each.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Item, UseTree, Visibility};

use super::id::ModuleId;
use super::krate::Crate;
use super::scope::{Binding, BindingTarget, Glob, ImportPath, Scope, Vis, name, type_item};

/// Fills every module's [`Scope`].
pub(super) fn index(krate: &mut Crate) {
    let scopes: Vec<Scope> = krate
        .modules()
        .map(|(id, _)| module_scope(krate, id))
        .collect();
    for (module, scope) in krate.modules.iter_mut().zip(scopes) {
        module.scope = scope;
    }
}

fn module_scope(krate: &Crate, id: ModuleId) -> Scope {
    let module = krate.module(id);
    let mut scope = Scope::default();
    for (index, item) in module.items().iter().enumerate() {
        if let Some((ident, vis)) = type_item(item) {
            let binding = Binding {
                target: BindingTarget::Item(index),
                vis: visibility(krate, id, vis),
            };
            scope.names.entry(name(ident)).or_insert(binding);
            continue;
        }
        let (ident, vis, target) = match item {
            Item::Mod(item) => {
                // load.rs keeps a `mod` item only after adding its child under this name.
                let child = module.children[&name(&item.ident)];
                (&item.ident, &item.vis, BindingTarget::Module(child))
            }
            Item::ExternCrate(item) => {
                let target = if item.ident == "self" {
                    BindingTarget::SelfCrate
                } else {
                    BindingTarget::ExternCrate(name(&item.ident))
                };
                match &item.rename {
                    Some((_, rename)) if rename == "_" => continue,
                    Some((_, rename)) => (rename, &item.vis, target),
                    None => (&item.ident, &item.vis, target),
                }
            }
            Item::Use(item) => {
                let vis = visibility(krate, id, &item.vis);
                let global = item.leading_colon.is_some();
                add_use(&mut scope, &item.tree, &mut Vec::new(), global, vis);
                continue;
            }
            _ => continue,
        };
        let vis = visibility(krate, id, vis);
        scope
            .names
            .entry(name(ident))
            .or_insert(Binding { target, vis });
    }
    scope
}

/// Adds the names of one `use` tree, below the segments in `prefix`.
fn add_use(scope: &mut Scope, tree: &UseTree, prefix: &mut Vec<String>, global: bool, vis: Vis) {
    let mut import = |binding: String, imported: Span, segments: Vec<String>| {
        if binding == "_" || segments.is_empty() {
            return;
        }
        let path = ImportPath {
            global,
            segments,
            span: imported,
        };
        scope.names.entry(binding).or_insert(Binding {
            target: BindingTarget::Import(path),
            vis,
        });
    };
    match tree {
        UseTree::Path(path) => {
            prefix.push(name(&path.ident));
            add_use(scope, &path.tree, prefix, global, vis);
            prefix.pop();
        }
        UseTree::Name(use_name) if use_name.ident == "self" => {
            // `use a::{self}` imports `a` itself.
            if let Some(last) = prefix.last() {
                import(last.clone(), use_name.ident.span(), prefix.clone());
            }
        }
        UseTree::Name(use_name) => {
            let imported = name(&use_name.ident);
            let segments = prefix.iter().cloned().chain([imported.clone()]).collect();
            import(imported, use_name.ident.span(), segments);
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
            import(name(&rename.rename), rename.ident.span(), segments);
        }
        // `use ::*;` (edition 2015) imports nothing we could resolve.
        UseTree::Glob(_) if prefix.is_empty() => {}
        UseTree::Glob(glob) => scope.globs.push(Glob {
            path: ImportPath {
                global,
                segments: prefix.clone(),
                span: glob.star_token.span(),
            },
            vis,
        }),
        UseTree::Group(group) => {
            for tree in &group.items {
                add_use(scope, tree, prefix, global, vis);
            }
        }
    }
}

/// Where an item of `module` with visibility `vis` can be seen from.
fn visibility(krate: &Crate, module: ModuleId, vis: &Visibility) -> Vis {
    match vis {
        Visibility::Public(_) => Vis::Public,
        Visibility::Inherited => Vis::Within(module),
        Visibility::Restricted(restricted) => {
            let mut segments = restricted.path.segments.iter().map(|s| name(&s.ident));
            let mut scope = match segments.next().as_deref() {
                Some("crate") => krate.root(),
                Some("self") => module,
                Some("super") => krate.parent(module).unwrap_or(module),
                // A path we cannot follow: seen everywhere.
                _ => return Vis::Public,
            };
            for segment in segments {
                let next = match segment.as_str() {
                    "super" => krate.parent(scope),
                    child => krate.module(scope).children.get(child).copied(),
                };
                match next {
                    Some(next) => scope = next,
                    None => return Vis::Public,
                }
            }
            Vis::Within(scope)
        }
    }
}
