//! The API crates of the repository (the fixtures and the bundled operator) copied to a
//! temporary folder, where one file at a time is replaced by a mutant and the crate run
//! through gen-cli. Shared by `no_panic.rs` and the fuzz targets (`fuzz/`, which include this
//! file next to `mutate.rs` and `verdict.rs`).

#![allow(dead_code)] // each user calls its own part

use std::fs;
use std::path::{Path, PathBuf};

use super::mutate::{Edit, Tokens};
use super::verdict::generates_or_locates;

/// The crates' `src/` folders, relative to the repository's root.
pub const CRATES: &[&str] = &[
    "fixtures/cronjob/src",
    "fixtures/gen/src",
    "fixtures/multiversion/src",
    "fixtures/plural/src",
    "fixtures/rbac/src",
    "fixtures/webhook/src",
    "fixtures/webhook/cases/valid-ordered/src",
    "operator/src",
];

/// One copied crate: its root file and each source file with its original text, cut into
/// tokens.
pub struct Copied {
    pub root: PathBuf,
    pub files: Vec<(PathBuf, Tokens)>,
}

/// Every crate of [`CRATES`], copied under `into`.
pub fn copy_all(repo: &Path, into: &Path) -> Vec<Copied> {
    CRATES
        .iter()
        .map(|src| {
            let to = into.join(src);
            let mut files = Vec::new();
            copy_dir(&repo.join(src), &to, &mut files);
            files.sort_by(|a, b| a.0.cmp(&b.0));
            Copied {
                root: to.join("lib.rs"),
                files,
            }
        })
        .collect()
}

fn copy_dir(from: &Path, to: &Path, files: &mut Vec<(PathBuf, Tokens)>) {
    fs::create_dir_all(to).expect("the copy's folder can be created");
    for entry in fs::read_dir(from).expect("the fixture folder can be read") {
        let path = entry.expect("a folder entry").path();
        let target = to.join(path.file_name().expect("an entry has a name"));
        if path.is_dir() {
            copy_dir(&path, &target, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).expect("a fixture file is UTF-8");
            fs::write(&target, &text).expect("the copy can be written");
            files.push((target, Tokens::new(text).expect("a fixture file lexes")));
        }
    }
}

impl Copied {
    /// Replaces file `file` (modulo the count) by its mutant under `edits`, checks the crate
    /// with [`generates_or_locates`], and puts the original back. Returns the mutant.
    pub fn check_mutant(&self, file: usize, edits: &[Edit]) -> String {
        let (path, tokens) = &self.files[file % self.files.len()];
        let mutant = tokens.mutate(edits);
        fs::write(path, &mutant).expect("the mutant can be written");
        let outcome = std::panic::catch_unwind(|| generates_or_locates(&self.root));
        fs::write(path, tokens.text()).expect("the original can be written back");
        if let Err(panic) = outcome {
            eprintln!("{}:\n{mutant}", path.display());
            std::panic::resume_unwind(panic);
        }
        mutant
    }
}
