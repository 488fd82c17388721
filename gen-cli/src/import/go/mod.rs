//! `kubegen import go`: a kubebuilder project's Go API packages (the folders holding
//! `groupversion_info.go` and `*_types.go`) into Rust types with kubegen markers, written as
//! `import crd` writes (its model and writer). `parse` reads Go with tree-sitter's grammar (no
//! Go toolchain), `markers` reads marker lines as controller-tools does, `docs` applies
//! controller-gen's comment rules, `types` maps Go types, `keys` and `resource` map markers to
//! keys, `lower` makes the model; `controllers` reads the controllers' and webhooks' markers,
//! which `rbac` writes as `#[rbac]` attributes and `webhook` as `#[webhook]` handler stubs.

pub mod controllers;
pub mod docs;
pub mod keys;
pub mod lower;
pub mod markers;
pub mod parse;
pub mod rbac;
pub mod resource;
pub mod types;
pub mod webhook;

use std::fs;
use std::path::{Path, PathBuf};

use super::model::Module;

/// The `.go` files of a package folder that hold API types: not tests, not generated code.
fn go_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.ends_with(".go")
                && !name.ends_with("_test.go")
                && !name.starts_with("zz_generated")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// A file's name as messages give it and its text; `None` (the error pushed) when it cannot be
/// read.
fn read(path: &Path, errors: &mut Vec<String>) -> Option<(String, String)> {
    let name = crate::paths::display(path);
    match fs::read_to_string(path) {
        Ok(text) => Some((name, text)),
        Err(e) => {
            errors.push(format!("{name}: {e}"));
            None
        }
    }
}

/// The modules of the Go packages in `dirs`, one per group and version, and the warnings
/// (what has no Rust form, at its Go location); or every file that does not parse.
pub fn modules(dirs: &[PathBuf]) -> Result<(Vec<Module>, Vec<String>), Vec<String>> {
    let mut errors = Vec::new();
    let mut packages = Vec::new();
    for dir in dirs {
        let files = match go_files(dir) {
            Ok(files) => files,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let mut package = lower::Package::default();
        for file in files {
            let Some((name, text)) = read(&file, &mut errors) else {
                continue;
            };
            match parse::file(&name, &text) {
                Ok(parsed) => package.add(parsed),
                Err(e) => errors.push(format!("{}: {}", e.loc, e.message)),
            }
        }
        packages.push((dir, package));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut imports = lower::Imports::default();
    for (index, (dir, package)) in packages.iter().enumerate() {
        let Some((group, version)) = lower::group_version(package) else {
            continue;
        };
        let module = super::module_name(&group, &version);
        match import_path(dir) {
            Some(path) => imports.add(path, index, module),
            None => imports.add_dir(
                &dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
                index,
                module,
            ),
        }
    }
    let (dirs, packages): (Vec<&PathBuf>, Vec<lower::Package>) = packages.into_iter().unzip();
    let (lowered, mut warnings) = lower::modules(&packages, &imports);
    let mut modules: Vec<Module> = Vec::new();
    for (dir, module) in dirs.into_iter().zip(lowered) {
        match module {
            Some(m) => match modules
                .iter_mut()
                .find(|o| o.group == m.group && o.version == m.version)
            {
                Some(existing) => existing.items.extend(m.items),
                None => modules.push(m),
            },
            None => warnings.push(format!(
                "{}: no `+groupName` (or `+kubebuilder:skip`): no types imported",
                crate::paths::display(dir)
            )),
        }
    }
    modules.sort_by(|a, b| (&a.group, &a.version).cmp(&(&b.group, &b.version)));
    Ok((modules, warnings))
}

/// A package folder's Go import path: the `module` of the nearest `go.mod` above it, joined
/// with the folder's path below that file's folder.
fn import_path(dir: &Path) -> Option<String> {
    let dir = dir.canonicalize().ok()?;
    dir.ancestors().find_map(|root| {
        let text = fs::read_to_string(root.join("go.mod")).ok()?;
        let module = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("module "))?
            .trim()
            .trim_matches('"');
        let below = dir.strip_prefix(root).ok()?;
        let mut path = module.to_string();
        for part in below.components() {
            path.push('/');
            path.push_str(&part.as_os_str().to_string_lossy());
        }
        Some(path)
    })
}

/// Module files, (name, source), and the warnings of making them.
pub type Files = (Vec<(String, String)>, Vec<String>);

/// The modules `--controllers` adds, (name, source): `rbac` (always) and `webhooks` (when a
/// webhook marker is found), and the warnings; or the folders and files that cannot be read.
pub fn controller_modules(dirs: &[PathBuf]) -> Result<Files, Vec<String>> {
    let (found, mut warnings) = controllers::markers(dirs)?;
    let (rbac, lost) = rbac::source(&found);
    warnings.extend(lost);
    let mut files = vec![("rbac".to_string(), rbac)];
    let (webhooks, lost) = webhook::source(&found);
    warnings.extend(lost);
    files.extend(webhooks.map(|w| ("webhooks".to_string(), w)));
    Ok((files, warnings))
}
