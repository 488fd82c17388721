//! `kubegen import go`: a kubebuilder project's Go API packages (the folders holding
//! `groupversion_info.go` and `*_types.go`) into Rust types with kubegen markers, written as
//! `import crd` writes (its model and writer). `parse` reads Go with tree-sitter's grammar (no
//! Go toolchain), `markers` reads marker lines as controller-tools does, `docs` applies
//! controller-gen's comment rules, `types` maps Go types, `keys` and `resource` map markers to
//! keys, `lower` makes the model; `rbac`
//! writes the controllers' RBAC markers as `#[rbac]` attributes.

pub mod docs;
pub mod keys;
pub mod lower;
pub mod markers;
pub mod parse;
pub mod rbac;
pub mod resource;
pub mod types;

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
    let mut modules: Vec<Module> = Vec::new();
    let mut warnings = Vec::new();
    for (dir, package) in &packages {
        let (module, lost) = lower::module(package);
        warnings.extend(lost);
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
