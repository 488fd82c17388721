//! Fills each module's [`Scope`] from its [`Outline`]'s names, once the module tree is known:
//! child modules by id, visibilities as the modules they reach.

use super::id::ModuleId;
use super::krate::Crate;
use super::outline::{Named, VisPath};
use super::scope::{Binding, BindingTarget, Glob, ImportPath, Scope, Vis};

/// The names each module binds and its glob imports, as its outline has them.
pub(super) type Names = (Vec<(String, Named, VisPath)>, Vec<(ImportPath, VisPath)>);

/// Fills every module's [`Scope`]; `names` has one entry per module, in id order.
pub(super) fn index(krate: &mut Crate, names: Vec<Names>) {
    let scopes: Vec<Scope> = names
        .into_iter()
        .enumerate()
        .map(|(index, names)| module_scope(krate, ModuleId(index), names))
        .collect();
    for (module, scope) in krate.modules.iter_mut().zip(scopes) {
        module.scope = scope;
    }
}

fn module_scope(krate: &Crate, id: ModuleId, (names, globs): Names) -> Scope {
    let module = krate.module(id);
    let mut scope = Scope::default();
    for (name, named, vis) in names {
        let target = match named {
            Named::Type(index) => BindingTarget::Item(index),
            Named::Module => match module.children.get(&name) {
                Some(child) => BindingTarget::Module(*child),
                // Its file is under a `#![cfg]` that does not hold: not in this build.
                None => continue,
            },
            Named::ExternCrate(krate_name) => BindingTarget::ExternCrate(krate_name),
            Named::SelfCrate => BindingTarget::SelfCrate,
            Named::Import(path) => BindingTarget::Import(path),
        };
        let vis = visibility(krate, id, &vis);
        scope.names.entry(name).or_insert(Binding { target, vis });
    }
    scope.globs = globs
        .into_iter()
        .map(|(path, vis)| Glob {
            path,
            vis: visibility(krate, id, &vis),
        })
        .collect();
    scope
}

/// Where an item of `module` with visibility `vis` can be seen from.
fn visibility(krate: &Crate, module: ModuleId, vis: &VisPath) -> Vis {
    let segments = match vis {
        VisPath::Public => return Vis::Public,
        VisPath::Private => return Vis::Within(module),
        VisPath::Restricted(segments) => segments,
    };
    let mut segments = segments.iter();
    let mut scope = match segments.next().map(String::as_str) {
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
