//! Loading the module tree from files, following rustc's rules for where `mod x;` lives.
//!
//! The state rustc keeps per module is mirrored by [`Dir`]: the directory its children are
//! found in, plus the name of a non-`mod.rs` file (`a.rs` puts its children in `a/`).

use std::collections::HashMap;
use std::fs;
use std::io;
use std::mem;
use std::path::{Path, PathBuf};

use kubegen_core::model::Loc;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Item, ItemMod, Lit, Meta, Visibility};

use super::bind;
use super::cfg::is_test_only;
use super::error::{SourceError, file_start, span_loc};
use super::id::ModuleId;
use super::index::item_attrs;
use super::krate::{Crate, Module};
use super::scope::Scope;

impl Crate {
    /// Reads the crate whose root file (`lib.rs`, `main.rs`) is `root_file`, following every
    /// `mod` as rustc does, and indexes the names each module defines and imports.
    ///
    /// Each file is read and parsed once. Paths in [`SourceError`]s and [`Loc`]s are
    /// `root_file` joined with the relative paths found, so a relative `root_file` gives
    /// relative locations.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or parsed, a `mod` whose file is missing (or is both `x.rs`
    /// and `x/mod.rs`), a malformed `#[path]`, and `#[path]`s that include a file in itself.
    pub fn load(name: &str, root_file: &Path) -> Result<Crate, SourceError> {
        Crate::load_with(name, root_file, &mut |_, _, _| {})
    }

    /// [`Crate::load`], showing `visit` each module's items as soon as they are read (a
    /// module's children before it), before the crate is indexed. The visitor may take what
    /// it needs out of them and shrink what later steps do not read (fields, bodies), so the
    /// syntax trees of a large crate are not all in memory at once; it must leave every item
    /// in its place, with its name, visibility and attributes (resolution reads them).
    ///
    /// # Errors
    ///
    /// As [`Crate::load`]; modules visited before the error are not visited again.
    pub fn load_with(
        name: &str,
        root_file: &Path,
        visit: &mut Visit<'_>,
    ) -> Result<Crate, SourceError> {
        let file_name = root_file.display().to_string();
        let text = read_source(root_file)
            .map_err(|err| SourceError::io(file_start(&file_name), root_file, &err))?;
        let file =
            syn::parse_file(&text).map_err(|err| SourceError::parse(&file_name, &text, &err))?;
        let mut loader = Loader {
            visit,
            modules: Vec::new(),
            files: vec![(
                fs::canonicalize(root_file).unwrap_or_else(|_| root_file.to_owned()),
                file_name.clone(),
            )],
        };
        let dir = Dir {
            path: root_file.parent().unwrap_or(Path::new("")).to_owned(),
            file_stem: None,
        };
        let root = ModuleSource {
            parent: None,
            path: Vec::new(),
            file: root_file.to_owned(),
            file_name,
            items: file.items,
            dir,
        };
        loader.add_module(root)?;
        let mut krate = Crate {
            name: name.to_owned(),
            modules: loader.modules,
        };
        bind::index(&mut krate);
        Ok(krate)
    }
}

/// Where a module's `mod x;` children are: rustc's `dir_path` and `DirOwnership`.
struct Dir {
    /// The directory of the module's file (for an inline module: that plus the inline names).
    path: PathBuf,
    /// `Some("a")` for a module in `a.rs` (not `mod.rs`, not a root, not `#[path]`): its
    /// children are in `a/`.
    file_stem: Option<String>,
}

/// A module about to be added: its place in the tree and its items.
struct ModuleSource {
    parent: Option<ModuleId>,
    path: Vec<String>,
    file: PathBuf,
    file_name: String,
    items: Vec<Item>,
    dir: Dir,
}

/// What [`Crate::load_with`] calls with each module (its id, the module without its items yet,
/// the items).
pub type Visit<'a> = dyn FnMut(ModuleId, &Module, &mut [Item]) + 'a;

struct Loader<'v, 'a> {
    visit: &'v mut Visit<'a>,
    modules: Vec<Module>,
    /// The files being loaded, outermost first (canonical path, name as shown), to reject a
    /// `#[path]` that includes a file that is including it.
    files: Vec<(PathBuf, String)>,
}

impl Loader<'_, '_> {
    fn add_module(&mut self, source: ModuleSource) -> Result<ModuleId, SourceError> {
        let id = ModuleId(self.modules.len());
        self.modules.push(Module {
            path: source.path,
            file: source.file,
            file_name: source.file_name,
            parent: source.parent,
            items: Vec::new(),
            children: HashMap::new(),
            scope: Scope::default(),
        });
        let mut items = Vec::with_capacity(source.items.len());
        for mut item in source.items {
            if is_test_only(item_attrs(&item)) {
                continue;
            }
            if let Item::Mod(decl) = &mut item {
                let Some(child) = self.add_child(id, decl, &source.dir)? else {
                    continue;
                };
                let name = decl.ident.unraw().to_string();
                // Module ids index `self.modules`: `add_module` made them.
                self.modules[id.0].children.entry(name).or_insert(child);
            }
            items.push(item);
        }
        // `id` indexes `self.modules`: pushed at the start of this call.
        (self.visit)(id, &self.modules[id.0], &mut items);
        self.modules[id.0].items = items;
        Ok(id)
    }

    /// Adds the module `decl` declares in `parent`, moving an inline module's items out of
    /// `decl`. `None` when the module's own file says `#![cfg(test)]`.
    fn add_child(
        &mut self,
        parent: ModuleId,
        decl: &mut ItemMod,
        dir: &Dir,
    ) -> Result<Option<ModuleId>, SourceError> {
        let name = decl.ident.unraw().to_string();
        let parent_module = &self.modules[parent.0];
        let mut path = parent_module.path.clone();
        path.push(name.clone());
        let path_attr = path_attribute(decl, &parent_module.file_name)?;

        if let Some((_, content)) = &mut decl.content {
            // Inline: `#[path]` names the directory; otherwise the children of `mod x { .. }`
            // in `a.rs` are in `a/x/`.
            let child_dir = match path_attr {
                Some(rel) => dir.path.join(rel),
                None => {
                    let mut child_dir = dir.path.clone();
                    child_dir.extend(&dir.file_stem);
                    child_dir.push(&name);
                    child_dir
                }
            };
            let source = ModuleSource {
                parent: Some(parent),
                path,
                file: parent_module.file.clone(),
                file_name: parent_module.file_name.clone(),
                items: mem::take(content),
                dir: Dir {
                    path: child_dir,
                    file_stem: None,
                },
            };
            return self.add_module(source).map(Some);
        }

        let decl_loc = span_loc(&parent_module.file_name, decl_span(decl));
        let (file, file_stem) = match path_attr {
            // A `#[path]` file counts as a `mod.rs`: its children are its siblings.
            Some(rel) => (dir.path.join(rel), None),
            None => default_file(&name, dir, &decl_loc)?,
        };

        let file_name = file.display().to_string();
        let not_found = |err: io::Error| match err.kind() {
            io::ErrorKind::NotFound => SourceError::new(
                decl_loc.clone(),
                format!("file not found for module `{name}`: tried `{file_name}`"),
            ),
            _ => SourceError::io(decl_loc.clone(), &file, &err),
        };
        let canonical = fs::canonicalize(&file).map_err(not_found)?;
        if let Some(pos) = self.files.iter().position(|(f, _)| *f == canonical) {
            let cycle: Vec<&str> = self.files[pos..]
                .iter()
                .map(|(_, name)| name.as_str())
                .chain([file_name.as_str()])
                .collect();
            return Err(SourceError::new(
                decl_loc,
                format!("circular modules: {}", cycle.join(" -> ")),
            ));
        }
        let text = read_source(&file).map_err(not_found)?;
        let parsed =
            syn::parse_file(&text).map_err(|err| SourceError::parse(&file_name, &text, &err))?;
        if is_test_only(&parsed.attrs) {
            return Ok(None);
        }
        let source = ModuleSource {
            parent: Some(parent),
            path,
            dir: Dir {
                path: file.parent().unwrap_or(Path::new("")).to_owned(),
                file_stem,
            },
            file,
            file_name,
            items: parsed.items,
        };
        self.files.push((canonical, source.file_name.clone()));
        let child = self.add_module(source);
        self.files.pop();
        child.map(Some)
    }
}

/// The text of the source file `path`. Anything but a file (a folder; a named pipe, whose
/// read would wait forever) is refused without being opened.
fn read_source(path: &Path) -> io::Result<String> {
    if !fs::metadata(path)?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a file",
        ));
    }
    fs::read_to_string(path)
}

/// The file of `mod name;` without `#[path]`, and the stem to put its children under.
fn default_file(
    name: &str,
    dir: &Dir,
    decl_loc: &Loc,
) -> Result<(PathBuf, Option<String>), SourceError> {
    let base = match &dir.file_stem {
        Some(stem) => dir.path.join(stem),
        None => dir.path.clone(),
    };
    let flat = base.join(format!("{name}.rs"));
    let nested = base.join(name).join("mod.rs");
    match (flat.is_file(), nested.is_file()) {
        (true, false) => Ok((flat, Some(name.to_owned()))),
        (false, true) => Ok((nested, None)),
        (false, false) => Err(SourceError::new(
            decl_loc.clone(),
            format!(
                "file not found for module `{name}`: tried `{}` and `{}`",
                flat.display(),
                nested.display()
            ),
        )),
        (true, true) => Err(SourceError::new(
            decl_loc.clone(),
            format!(
                "file for module `{name}` found at both `{}` and `{}`; delete or rename one of them",
                flat.display(),
                nested.display()
            ),
        )),
    }
}

/// The value of the first `#[path = ".."]` on `decl`.
fn path_attribute(decl: &ItemMod, file_name: &str) -> Result<Option<String>, SourceError> {
    let Some(attr) = decl.attrs.iter().find(|attr| attr.path().is_ident("path")) else {
        return Ok(None);
    };
    match &attr.meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => Ok(Some(lit.value())),
            other => Err(SourceError::new(
                span_loc(file_name, other.span()),
                "expected a string literal: `#[path = \"file.rs\"]`",
            )),
        },
        _ => Err(SourceError::new(
            span_loc(file_name, attr.span()),
            "expected `#[path = \"file.rs\"]`",
        )),
    }
}

/// Where a `mod` item starts, past its attributes and doc comments.
fn decl_span(decl: &ItemMod) -> proc_macro2::Span {
    match &decl.vis {
        Visibility::Inherited => decl.mod_token.span,
        vis => vis.span(),
    }
}
