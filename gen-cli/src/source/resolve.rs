//! Type paths resolved as rustc resolves them (type namespace, edition 2018 and later).
//!
//! A path's first segment is looked up in the module it is written in: its items and child
//! modules, its `use`s (explicit ones shadow glob ones), then the `extern crate`s of the crate
//! root, then the std prelude and the primitive types; any other first segment of a longer
//! path is taken as the name of another crate. Each later segment is looked up in the module
//! found so far. `use`s are followed lazily, through any number of re-exports and globs;
//! an import that is met again while it is being resolved counts as not defined, so cycles
//! end (in an error, when nothing else defines the name).

use std::collections::HashMap;
use std::fmt::Write as _;

use kubegen_core::model::Loc;
use syn::spanned::Spanned;

use super::error::SourceError;
use super::id::ModuleId;
use super::krate::Crate;
use super::outline::{Alias, TypeItem, TypeKind, name};
use super::prelude::{self, PRELUDE, PRIMITIVES};
use super::scope::{BindingTarget, ImportPath, Vis};

/// What a type path names.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved<'a> {
    /// An item defined in this crate.
    Local {
        /// The module the item is defined in (resolve paths inside the item from here).
        module: ModuleId,
        /// The item's own name (not the name it was imported as).
        name: String,
        /// What the item is.
        kind: ItemKind<'a>,
    },
    /// An item of another crate, by the path written to it once `use`s are followed:
    /// `["k8s_openapi", "api", "core", "v1", "PodSpec"]`, `["std", "option", "Option"]`.
    /// Re-exports inside other crates are not followed (`core::option::Option` stays so).
    External {
        /// The crate's name, then the names in it.
        path: Vec<String>,
    },
    /// A primitive type: `i32`, `bool`, `str`, ...
    Primitive(String),
}

/// The kind of a local item a type path names.
#[derive(Clone, Copy, Debug)]
pub enum ItemKind<'a> {
    /// A struct.
    Struct(&'a TypeItem),
    /// An enum.
    Enum(&'a TypeItem),
    /// A type alias, not substituted: resolve its type from the alias's module
    /// ([`Resolved::Local`]'s `module`), with its parameters substituted by the caller.
    TypeAlias(&'a Alias),
    /// Any other item in the type namespace: a trait, trait alias or union.
    Other(&'a TypeItem),
}

impl PartialEq for ItemKind<'_> {
    /// The same kind of the same item.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (ItemKind::Struct(a), ItemKind::Struct(b))
            | (ItemKind::Enum(a), ItemKind::Enum(b))
            | (ItemKind::Other(a), ItemKind::Other(b)) => std::ptr::eq(*a, *b),
            (ItemKind::TypeAlias(a), ItemKind::TypeAlias(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl Crate {
    /// Resolves `path`, written in module `from`, to the type it names.
    ///
    /// Generic arguments in the path are ignored, and so are the generic parameters in scope:
    /// the caller handles `T` of `struct S<T>` before asking. `Self` is not resolved.
    /// A path that names a module, or that names nothing, is an error at the path, with a
    /// suggestion when a similar name is defined.
    ///
    /// # Errors
    ///
    /// The path names nothing, names a module, goes through an item or above the crate root,
    /// is ambiguous between glob imports, or goes through a `use` that is itself broken (then
    /// the error is at that `use`).
    pub fn resolve_type(
        &self,
        from: ModuleId,
        path: &syn::Path,
    ) -> Result<Resolved<'_>, SourceError> {
        let segments: Vec<String> = path.segments.iter().map(|s| name(&s.ident)).collect();
        let global = path.leading_colon.is_some();
        let loc = self.module(from).loc(path.span());
        if segments.is_empty() {
            return Err(SourceError::new(loc, "cannot resolve an empty path"));
        }
        let mut resolver = Resolver {
            krate: self,
            active: Vec::new(),
            globs: HashMap::new(),
        };
        let target = resolver
            .resolve_path(from, global, &segments, Mode::Type)
            .map_err(|fail| resolver.error(fail, global, &segments, loc.clone(), "type"))?;
        match target {
            Target::Item(module, index) => Ok(self.local(module, index)),
            Target::External(path) => Ok(Resolved::External { path }),
            Target::Primitive(primitive) => Ok(Resolved::Primitive(primitive.to_owned())),
            Target::Module(module) => Err(SourceError::new(
                loc,
                format!(
                    "expected a type, found module `{}`",
                    self.display_path(module)
                ),
            )),
        }
    }

    fn local(&self, module: ModuleId, index: usize) -> Resolved<'_> {
        // `index` is a binding's (bind.rs), made from this very list of types.
        let item = &self.module(module).types[index];
        let kind = match &item.kind {
            TypeKind::Struct => ItemKind::Struct(item),
            TypeKind::Enum => ItemKind::Enum(item),
            TypeKind::Alias(alias) => ItemKind::TypeAlias(alias),
            TypeKind::Other => ItemKind::Other(item),
        };
        Resolved::Local {
            module,
            name: item.name.clone(),
            kind,
        }
    }
}

/// What a path leads to, inside resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    Module(ModuleId),
    /// The item at this index of the module's items.
    Item(ModuleId, usize),
    External(Vec<String>),
    Primitive(&'static str),
}

/// What a name means in one module.
enum Found {
    /// Defined or imported there, with the visibility of that definition or import.
    Target(Target, Vis),
    /// Neither; these other crates' modules are glob-imported (with the glob's visibility), and
    /// any of them may define it.
    NotFound(Vec<(Vec<String>, Vis)>),
}

/// Whether a path names a type (`field: a::B`) or anything (`use a::b;`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Type,
    Import,
}

/// Why a path did not resolve; made into a [`SourceError`] by [`Resolver::error`].
enum Fail {
    /// `segments[index]` is not defined in `scope` (`lexical`: nor in the preludes).
    NotFound {
        index: usize,
        scope: ModuleId,
        lexical: bool,
    },
    /// `segments[..index]` is an item, which has no names inside it that we can resolve.
    NotAModule { index: usize },
    /// `segments[index]` is a `super` above the crate root.
    SuperAtRoot { index: usize },
    /// `segments[index]` could come from several glob imports of other crates' modules.
    Ambiguous { index: usize, globs: Vec<String> },
    /// `Self`, which depends on the surrounding `impl`.
    SelfType,
    /// An import on the way is broken; the error is at that import.
    Import(SourceError),
}

impl From<SourceError> for Fail {
    fn from(err: SourceError) -> Self {
        Fail::Import(err)
    }
}

/// The state of resolving one path.
struct Resolver<'a> {
    krate: &'a Crate,
    /// The (module, name) lookups under way: met again, the name is not found there.
    active: Vec<(ModuleId, String)>,
    /// The targets of glob imports, by module and index in its globs; `None` while resolving.
    globs: HashMap<(ModuleId, usize), Option<Target>>,
}

impl Resolver<'_> {
    fn resolve_path(
        &mut self,
        from: ModuleId,
        global: bool,
        segments: &[String],
        mode: Mode,
    ) -> Result<Target, Fail> {
        let krate = self.krate;
        // `segments[0]` exists: `resolve_type` refuses an empty path, and an import's path
        // has a segment (bind.rs skips a glob with an empty prefix, `use *;`).
        let (mut target, mut index) = if global {
            // `::name` is always another crate (edition 2018).
            (Target::External(vec![segments[0].clone()]), 1)
        } else {
            match segments[0].as_str() {
                "crate" => (Target::Module(krate.root()), 1),
                "self" => (Target::Module(from), 1),
                "super" => {
                    let mut module = from;
                    let mut index = 0;
                    while segments.get(index).is_some_and(|s| s == "super") {
                        module = krate.parent(module).ok_or(Fail::SuperAtRoot { index })?;
                        index += 1;
                    }
                    (Target::Module(module), index)
                }
                "Self" => return Err(Fail::SelfType),
                first => {
                    let type_name = segments.len() == 1 && mode == Mode::Type;
                    (self.lexical(from, first, type_name)?, 1)
                }
            }
        };
        while let Some(segment) = segments.get(index) {
            target = match target {
                Target::Module(module) => match self.lookup(module, segment)? {
                    Found::Target(target, _) => target,
                    Found::NotFound(external) => match external.as_slice() {
                        [] => {
                            return Err(Fail::NotFound {
                                index,
                                scope: module,
                                lexical: false,
                            });
                        }
                        [(path, _)] => Target::External(joined(path, segment)),
                        many => return Err(ambiguous(index, many)),
                    },
                },
                Target::External(mut path) => {
                    path.push(segment.clone());
                    Target::External(path)
                }
                Target::Item(..) | Target::Primitive(_) => {
                    return Err(Fail::NotAModule { index });
                }
            };
            index += 1;
        }
        Ok(target)
    }

    /// The first segment of a path written in `from`. `type_name`: the path is just this
    /// name, in a type (so it may be a primitive, and cannot be a crate).
    fn lexical(&mut self, from: ModuleId, name: &str, type_name: bool) -> Result<Target, Fail> {
        let external = match self.lookup(from, name)? {
            Found::Target(target, _) => return Ok(target),
            Found::NotFound(external) => external,
        };
        let krate = self.krate;
        let root = krate.root();
        // `extern crate a as b;` at the root puts `b` in scope everywhere.
        match krate.module(root).scope.names.get(name).map(|b| &b.target) {
            Some(BindingTarget::ExternCrate(krate_name)) => {
                return Ok(Target::External(vec![krate_name.clone()]));
            }
            Some(BindingTarget::SelfCrate) => return Ok(Target::Module(root)),
            _ => {}
        }
        if let Some(path) = prelude::std_path(name) {
            return Ok(Target::External(path));
        }
        if !type_name {
            // Another crate (we do not know the crate's dependencies, so any name is one).
            return Ok(Target::External(vec![name.to_owned()]));
        }
        if let Some(primitive) = prelude::primitive(name) {
            return Ok(Target::Primitive(primitive));
        }
        match external.as_slice() {
            [] => Err(Fail::NotFound {
                index: 0,
                scope: from,
                lexical: true,
            }),
            [(path, _)] => Ok(Target::External(joined(path, name))),
            many => Err(ambiguous(0, many)),
        }
    }

    /// What `name` means in `module`, following imports.
    fn lookup(&mut self, module: ModuleId, name: &str) -> Result<Found, SourceError> {
        if self.active.iter().any(|(m, n)| *m == module && n == name) {
            return Ok(Found::NotFound(Vec::new()));
        }
        self.active.push((module, name.to_owned()));
        let found = self.lookup_active(module, name);
        self.active.pop();
        found
    }

    fn lookup_active(&mut self, module: ModuleId, name: &str) -> Result<Found, SourceError> {
        let krate = self.krate;
        let scope = &krate.module(module).scope;
        if let Some(binding) = scope.names.get(name) {
            let target = match &binding.target {
                BindingTarget::Item(index) => Target::Item(module, *index),
                BindingTarget::Module(child) => Target::Module(*child),
                BindingTarget::ExternCrate(krate_name) => {
                    Target::External(vec![krate_name.clone()])
                }
                BindingTarget::SelfCrate => Target::Module(krate.root()),
                BindingTarget::Import(path) => self.resolve_import(module, path)?,
            };
            return Ok(Found::Target(target, binding.vis));
        }
        let mut found: Option<(Target, Vis, &ImportPath)> = None;
        let mut external: Vec<(Vec<String>, Vis)> = Vec::new();
        for (index, glob) in scope.globs.iter().enumerate() {
            let Some(source) = self.glob_target(module, index)? else {
                continue;
            };
            match source {
                Target::Module(source) => match self.lookup(source, name)? {
                    Found::Target(target, vis) if krate.is_visible(vis, module) => match &found {
                        Some((first, _, first_glob)) if *first != target => {
                            return Err(SourceError::new(
                                glob.path.loc.clone(),
                                format!(
                                    "`{name}` is ambiguous: the glob imports `{}::*` and `{}::*` \
                                     both bring one in",
                                    first_glob.segments.join("::"),
                                    glob.path.segments.join("::")
                                ),
                            ));
                        }
                        Some(_) => {}
                        None => found = Some((target, glob.vis, &glob.path)),
                    },
                    Found::Target(..) => {}
                    Found::NotFound(paths) => external.extend(
                        paths
                            .into_iter()
                            .filter(|(_, vis)| krate.is_visible(*vis, module))
                            .map(|(path, _)| (path, glob.vis)),
                    ),
                },
                Target::External(path) => external.push((path, glob.vis)),
                // A glob import of an enum brings in its variants, which are not types.
                Target::Item(..) | Target::Primitive(_) => {}
            }
        }
        if let Some((target, vis, _)) = found {
            return Ok(Found::Target(target, vis));
        }
        let mut seen = Vec::with_capacity(external.len());
        external.retain(|(path, _)| {
            let new = !seen.contains(path);
            if new {
                seen.push(path.clone());
            }
            new
        });
        Ok(Found::NotFound(external))
    }

    /// What the glob import at `index` in `module` imports from; `None` while it is being
    /// resolved (a glob whose own path goes through it).
    fn glob_target(
        &mut self,
        module: ModuleId,
        index: usize,
    ) -> Result<Option<Target>, SourceError> {
        if let Some(target) = self.globs.get(&(module, index)) {
            return Ok(target.clone());
        }
        self.globs.insert((module, index), None);
        // `index` enumerates this module's globs (`lookup_active`).
        let path = &self.krate.module(module).scope.globs[index].path;
        let target = self.resolve_import(module, path)?;
        self.globs.insert((module, index), Some(target.clone()));
        Ok(Some(target))
    }

    fn resolve_import(
        &mut self,
        module: ModuleId,
        path: &ImportPath,
    ) -> Result<Target, SourceError> {
        self.resolve_path(module, path.global, &path.segments, Mode::Import)
            .map_err(|fail| {
                self.error(
                    fail,
                    path.global,
                    &path.segments,
                    path.loc.clone(),
                    "import",
                )
            })
    }

    /// The error for a path (`what`: "type" or "import") that failed with `fail`.
    fn error(
        &self,
        fail: Fail,
        global: bool,
        segments: &[String],
        loc: Loc,
        what: &str,
    ) -> SourceError {
        let text = format!("{}{}", if global { "::" } else { "" }, segments.join("::"));
        // Each `Fail`'s `index` is the segment `resolve_path` was at: below `segments.len()`.
        let message = match fail {
            Fail::Import(err) => return err,
            Fail::NotFound {
                index,
                scope,
                lexical,
            } => {
                let segment = &segments[index];
                let place = self.krate.display_path(scope);
                let mut message = if lexical {
                    format!(
                        "cannot resolve {what} `{text}`: no `{segment}` in module `{place}` \
                         nor in the prelude"
                    )
                } else {
                    format!("cannot resolve {what} `{text}`: no `{segment}` in module `{place}`")
                };
                if let Some(similar) = self.similar_name(segment, scope, lexical) {
                    let _ = write!(message, "; did you mean `{similar}`?");
                }
                message
            }
            Fail::NotAModule { index } => format!(
                "cannot resolve {what} `{text}`: `{}` is not a module",
                segments[..index].join("::")
            ),
            Fail::SuperAtRoot { index } => format!(
                "cannot resolve {what} `{text}`: `super` number {} goes above the crate root",
                index + 1
            ),
            Fail::Ambiguous { index, globs } => format!(
                "cannot resolve {what} `{text}`: `{}` may come from any of the glob imports {}",
                segments[index],
                globs
                    .iter()
                    .map(|glob| format!("`{glob}::*`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Fail::SelfType => {
                format!("cannot resolve {what} `{text}`: `Self` depends on the surrounding `impl`")
            }
        };
        SourceError::new(loc, message)
    }

    /// The name closest to `wanted` among those defined in `scope` and those its globs bring
    /// in from this crate (and, for a first segment, the prelude), if one is close enough.
    fn similar_name(&self, wanted: &str, scope: ModuleId, lexical: bool) -> Option<String> {
        let krate = self.krate;
        let module = krate.module(scope);
        let mut names: Vec<&str> = module.scope.names.keys().map(String::as_str).collect();
        for index in 0..module.scope.globs.len() {
            if let Some(Some(Target::Module(source))) = self.globs.get(&(scope, index)) {
                let source = &krate.module(*source).scope;
                names.extend(
                    source
                        .names
                        .iter()
                        .filter(|(_, binding)| krate.is_visible(binding.vis, scope))
                        .map(|(name, _)| name.as_str()),
                );
            }
        }
        if lexical {
            names.extend(PRELUDE.iter().map(|(name, _)| *name));
            names.extend(PRIMITIVES);
        }
        let wanted_lower = wanted.to_lowercase();
        let limit = (wanted.chars().count() / 3).max(1);
        names
            .into_iter()
            .filter(|name| *name != wanted)
            .map(|name| {
                (
                    strsim::osa_distance(&wanted_lower, &name.to_lowercase()),
                    name,
                )
            })
            .filter(|(distance, _)| *distance <= limit)
            .min()
            .map(|(_, name)| name.to_owned())
    }
}

/// `path::name`.
fn joined(path: &[String], name: &str) -> Vec<String> {
    path.iter().cloned().chain([name.to_owned()]).collect()
}

fn ambiguous(index: usize, candidates: &[(Vec<String>, Vis)]) -> Fail {
    Fail::Ambiguous {
        index,
        globs: candidates.iter().map(|(path, _)| path.join("::")).collect(),
    }
}
