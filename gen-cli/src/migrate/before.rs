//! The CRDs a kube-derive package gives before it is migrated, recorded by building it: a
//! scratch binary crate in `<target>/kubegen-migrate/before/` depends on the package by path
//! and prints the `CustomResourceExt::crd()` of each kind its library makes public (a kind's
//! versions merged by kube's `merge_crds`, the stored one as the package's own `merge_crds`
//! call names it). It builds in the package's target folder, reusing what the package built,
//! offline with a copy of the package's `Cargo.lock` (kube-core and serde_json, all it adds,
//! are in it); a build that fails gives the compiler's first error.

use std::fs;
use std::path::{Path, PathBuf};

use kubegen_core::model::Diagnostic;
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Attribute, Item, Meta, Token, Visibility};

use super::cargo::Cargo;
use crate::paths::display;

/// The package migrated, as cargo sees it.
pub struct Package {
    /// Its `Cargo.toml`.
    pub manifest: PathBuf,
    /// Its name.
    pub name: String,
    /// Its library's root file, if it has a library.
    pub lib: Option<PathBuf>,
    /// Its workspace's root folder.
    pub root: PathBuf,
    /// Its workspace's target folder.
    pub target: PathBuf,
}

impl Package {
    /// The package whose manifest is `manifest`, read with `cargo metadata`.
    pub fn read(manifest: &Path) -> Result<Package, Diagnostic> {
        let manifest = fs::canonicalize(manifest)
            .map_err(|e| Diagnostic::plain(format!("{}: {e}", display(manifest))))?;
        // cargo reads its configuration (`.cargo/config.toml`) from the folder it runs in.
        let metadata = cargo_metadata::MetadataCommand::new()
            .manifest_path(&manifest)
            .current_dir(manifest.parent().unwrap_or(Path::new("/")))
            .no_deps()
            .exec()
            .map_err(|e| Diagnostic::plain(format!("cannot read the package: {e}")))?;
        let package = metadata
            .packages
            .iter()
            .find(|p| p.manifest_path.as_std_path() == manifest)
            .ok_or_else(|| Diagnostic::plain(format!("no package in {}", display(&manifest))))?;
        let lib = package
            .targets
            .iter()
            .find(|t| t.is_lib())
            .map(|t| t.src_path.clone().into_std_path_buf());
        Ok(Package {
            name: package.name.to_string(),
            manifest,
            lib,
            root: metadata.workspace_root.into_std_path_buf(),
            target: metadata.target_directory.into_std_path_buf(),
        })
    }

    /// `cargo check` on the package: the compiler's first error when it does not build.
    pub fn check(&self) -> Result<(), Diagnostic> {
        Cargo {
            subcommand: "check",
            manifest: &self.manifest,
            cwd: &self.root,
            root: &self.root,
            args: Vec::new(),
        }
        .run()
        .map(drop)
    }

    /// The package built, and the CRDs its public kinds give, written in a folder (one file
    /// each) for `kubegen diff --base`; `None` when its library has none. `notes` gets the
    /// kinds left out, and why.
    pub fn record(&self, notes: &mut Vec<Diagnostic>) -> Result<Option<PathBuf>, Diagnostic> {
        let Some(lib) = &self.lib else {
            notes.push(Diagnostic::warning(
                None,
                "",
                "the package has no library, so its CRDs before migration are not recorded: \
                 pass `--base DIR` with its CRD files to compare them",
            ));
            return self.check().map(|()| None);
        };
        let mut found = Found::default();
        found.file(lib, &[], true);
        notes.append(&mut found.notes);
        let Some(main) = main_rs(&found.roots, &found.stored, notes) else {
            return self.check().map(|()| None);
        };
        let scratch = self.target.join("kubegen-migrate/before");
        let io = |e: std::io::Error| Diagnostic::plain(format!("{}: {e}", display(&scratch)));
        fs::create_dir_all(scratch.join("src")).map_err(io)?;
        let manifest = scratch.join("Cargo.toml");
        fs::write(&manifest, self.scratch_manifest()).map_err(io)?;
        fs::write(scratch.join("src/main.rs"), main).map_err(io)?;
        let lock = self.root.join("Cargo.lock");
        let locked = lock.is_file();
        if locked {
            fs::copy(&lock, scratch.join("Cargo.lock")).map_err(io)?;
        }
        let build = |offline: bool| {
            let mut args = vec!["--target-dir".into(), display(&self.target)];
            if offline {
                args.push("--offline".into());
            }
            Cargo {
                subcommand: "build",
                manifest: &manifest,
                cwd: &self.root,
                root: &scratch,
                args,
            }
            .run()
        };
        // Offline first: with the lock, everything is in cargo's cache when the package built.
        let built = match build(locked) {
            Err(e) if locked && e.loc.is_none() => build(false),
            other => other,
        }
        .map_err(|mut e| {
            // An error in the scratch crate itself is not the package's.
            let shown = display(&scratch);
            if e.loc.as_ref().is_some_and(|l| l.file.starts_with(&shown)) {
                e.message = format!(
                    "kube-derive's `crd()` of the package does not build in {shown}: {}; \
                     compare with `--base DIR` instead (or migrate with `--no-build`)",
                    e.message
                        .strip_prefix(super::cargo::REFUSED)
                        .unwrap_or(&e.message)
                );
                e.help = None;
            }
            e
        })?;
        let exe = built
            .into_iter()
            .find(|e| e.file_stem().is_some_and(|s| s == SCRATCH))
            .ok_or_else(|| Diagnostic::plain("cargo built no `kubegen-migrate-before`"))?;
        let out = std::process::Command::new(&exe)
            .output()
            .map_err(|e| Diagnostic::plain(format!("{}: {e}", display(&exe))))?;
        if !out.status.success() {
            return Err(Diagnostic::plain(format!(
                "kube-derive's `crd()` failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        let crds: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout)
            .map_err(|e| Diagnostic::plain(format!("kube-derive's CRDs do not read: {e}")))?;
        let dir = scratch.join("crds");
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(io)?;
        for crd in &crds {
            let name = crd["metadata"]["name"].as_str().unwrap_or("unnamed");
            let text = serde_json::to_string_pretty(crd).unwrap_or_default();
            fs::write(dir.join(format!("{name}.yaml")), text).map_err(io)?;
        }
        Ok(Some(dir))
    }

    /// The scratch crate's manifest: the package by path, and what `main.rs` calls.
    fn scratch_manifest(&self) -> String {
        let dir = self.manifest.parent().unwrap_or(Path::new("."));
        format!(
            "# Written by `kubegen migrate`: prints the CRDs kube-derive gives `{name}`.\n\
             [package]\nname = \"{SCRATCH}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[dependencies]\nbefore = {{ package = \"{name}\", path = {dir:?} \
             }}\nkube-core = \"*\"\nserde_json = \"*\"\n\n[workspace]\n",
            name = self.name,
            dir = dir.display().to_string(),
        )
    }
}

/// The scratch crate's name.
const SCRATCH: &str = "kubegen-migrate-before";

/// A kind kube-derive makes: its root type's path in the library, and its group, kind and
/// version.
#[derive(Debug)]
struct Root {
    path: String,
    group: String,
    kind: String,
    version: String,
}

/// What the library's modules hold.
#[derive(Default)]
struct Found {
    roots: Vec<Root>,
    /// The versions the package's `merge_crds` calls store.
    stored: Vec<String>,
    notes: Vec<Diagnostic>,
}

impl Found {
    /// The module in `file`, at `module` in the library, `public` when every module above it
    /// is.
    fn file(&mut self, file: &Path, module: &[String], public: bool) {
        let Ok(text) = fs::read_to_string(file) else {
            return;
        };
        let Ok(ast) = syn::parse_file(&text) else {
            return; // `plan` has refused the package already
        };
        self.stored
            .extend(super::rewrite::stored_versions(&text).unwrap_or_default());
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let parent = file.parent().unwrap_or(Path::new("."));
        let children = match name {
            "lib" | "main" | "mod" => parent.to_path_buf(),
            _ => parent.join(name),
        };
        self.items(&ast.items, file, &children, module, public);
    }

    /// The items of a module whose children's files are in `children`.
    fn items(
        &mut self,
        items: &[Item],
        file: &Path,
        children: &Path,
        module: &[String],
        public: bool,
    ) {
        for item in items {
            match item {
                Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let inner: Vec<String> = module.iter().cloned().chain([name.clone()]).collect();
                    let public = public && matches!(m.vis, Visibility::Public(_));
                    match &m.content {
                        Some((_, items)) => {
                            self.items(items, file, &children.join(&name), &inner, public)
                        }
                        None => {
                            let path = path_attr(&m.attrs)
                                .map(|p| file.parent().unwrap_or(Path::new(".")).join(p))
                                .unwrap_or_else(|| {
                                    let flat = children.join(format!("{name}.rs"));
                                    match flat.is_file() {
                                        true => flat,
                                        false => children.join(&name).join("mod.rs"),
                                    }
                                });
                            self.file(&path, &inner, public);
                        }
                    }
                }
                Item::Struct(s) if derives_custom_resource(&s.attrs) => {
                    let public = public && matches!(s.vis, Visibility::Public(_));
                    self.root(&s.attrs, &s.ident, file, module, public);
                }
                _ => {}
            }
        }
    }

    /// The kind of a spec struct named `spec`.
    fn root(
        &mut self,
        attrs: &[Attribute],
        spec: &syn::Ident,
        file: &Path,
        module: &[String],
        public: bool,
    ) {
        let keys = kube_keys(attrs);
        let key = |k: &str| keys.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let (Some(group), Some(kind), Some(version)) = (key("group"), key("kind"), key("version"))
        else {
            return;
        };
        let name = key("root").unwrap_or_else(|| kind.clone());
        if !public {
            let loc = kubegen_core::parse::span::loc(&display(file), spec.span());
            self.notes.push(Diagnostic::warning(
                Some(&loc),
                "",
                format!(
                    "`{name}` is not public from the library's root, so its CRD before \
                     migration is not recorded: pass `--base DIR` with its CRD file to compare it"
                ),
            ));
            return;
        }
        let path = module.iter().chain([&name]).cloned().collect::<Vec<_>>();
        self.roots.push(Root {
            path: path.join("::"),
            group,
            kind,
            version,
        });
    }
}

/// Whether an item derives `CustomResource`.
fn derives_custom_resource(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .filter_map(|a| {
            a.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
        .any(|p| {
            p.segments
                .last()
                .is_some_and(|s| s.ident == "CustomResource")
        })
}

/// The string keys of every `#[kube(...)]`.
fn kube_keys(attrs: &[Attribute]) -> Vec<(String, String)> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("kube"))
        .filter_map(|a| {
            a.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
        .filter_map(|m| match m {
            Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some((nv.path.to_token_stream().to_string(), s.value())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The file a `#[path = "..."]` names.
fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .and_then(|a| {
            let Meta::NameValue(nv) = &a.meta else {
                return None;
            };
            match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            }
        })
}

/// The scratch crate's `main.rs`, printing every kind's CRD as a JSON array; `None` when there
/// is no kind to print.
fn main_rs(roots: &[Root], stored: &[String], notes: &mut Vec<Diagnostic>) -> Option<String> {
    let mut kinds: Vec<(&str, &str, Vec<&Root>)> = Vec::new();
    for root in roots {
        match kinds
            .iter_mut()
            .find(|(g, k, _)| *g == root.group && *k == root.kind)
        {
            Some((_, _, versions)) => versions.push(root),
            None => kinds.push((&root.group, &root.kind, vec![root])),
        }
    }
    let mut crds = Vec::new();
    for (group, kind, versions) in kinds {
        let calls: Vec<String> = versions
            .iter()
            .map(|r| format!("before::{}::crd()", r.path))
            .collect();
        match &calls[..] {
            [one] => crds.push(one.clone()),
            many => {
                let Some(store) = stored
                    .iter()
                    .find(|s| versions.iter().any(|r| &r.version == *s))
                else {
                    notes.push(Diagnostic::warning(
                        None,
                        "",
                        format!(
                            "`{kind}.{group}` has several versions and no `merge_crds` call \
                             names the stored one, so its CRD before migration is not recorded"
                        ),
                    ));
                    continue;
                };
                crds.push(format!(
                    "kube_core::crd::merge_crds(vec![{}], {store:?}).unwrap()",
                    many.join(", ")
                ));
            }
        }
    }
    if crds.is_empty() {
        return None;
    }
    Some(format!(
        "//! Written by `kubegen migrate`: prints the CRDs kube-derive gives the package.\n\
         use kube_core::CustomResourceExt;\n\nfn main() {{\n    let crds = vec![\n{}    ];\n    \
         println!(\"{{}}\", serde_json::to_string(&crds).unwrap());\n}}\n",
        crds.iter()
            .map(|c| format!("        {c},\n"))
            .collect::<String>()
    ))
}
