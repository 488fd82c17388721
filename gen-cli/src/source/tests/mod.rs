//! Tests that write small crates to temporary directories and load them.

mod errors;
mod items;
mod layout;
mod resolve;

use super::{Cfg, Crate, ModuleId, Origin, SourceError, Visitor};
use std::fs;
use std::path::{Path, PathBuf};

/// A crate written to a fresh temporary directory, removed on drop.
pub(super) struct TempCrate {
    dir: tempfile::TempDir,
}

impl TempCrate {
    /// Writes `files` (path relative to the crate directory, contents).
    pub(super) fn new(files: &[(&str, &str)]) -> TempCrate {
        let dir = tempfile::Builder::new()
            .prefix("kubegen-source-")
            .tempdir()
            .expect("a temporary folder");
        for (path, text) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        TempCrate { dir }
    }

    pub(super) fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Loads the crate rooted at `src/lib.rs`.
    pub(super) fn load(&self) -> Result<Crate, SourceError> {
        Crate::load("demo", &self.path("src/lib.rs"), &Cfg::default())
    }

    /// The `file` in errors for `rel`.
    pub(super) fn file(&self, rel: &str) -> String {
        self.path(rel).display().to_string()
    }
}

/// Loads a crate whose only file is `src/lib.rs`.
pub(super) fn lib(text: &str) -> (TempCrate, Crate) {
    let temp = TempCrate::new(&[("src/lib.rs", text)]);
    let krate = temp.load().unwrap_or_else(|err| panic!("{err}"));
    (temp, krate)
}

/// The module at `path` (`"a::b"`; `""` for the root).
pub(super) fn module(krate: &Crate, path: &str) -> ModuleId {
    krate
        .modules()
        .find(|(_, m)| m.path().join("::") == path)
        .unwrap_or_else(|| panic!("no module `{path}`"))
        .0
}

/// The module paths of the crate, in order, with the file name of each relative to `dir`.
pub(super) fn layout(temp: &TempCrate, krate: &Crate) -> Vec<(String, String)> {
    krate
        .modules()
        .map(|(_, m)| {
            let rel = m.file().strip_prefix(&temp.dir).unwrap_or(Path::new("?"));
            (m.path().join("::"), rel.display().to_string())
        })
        .collect()
}

/// A visitor that gives, for each module, what `F` reads of its items (module order).
pub(super) struct Each<F>(pub(super) F);

impl<T: Send, F: Fn(&Origin, &mut [syn::Item]) -> T + Sync> Visitor for Each<F> {
    type Read = T;
    type Output = T;
    fn read(&self, origin: &Origin, items: &mut [syn::Item]) -> T {
        (self.0)(origin, items)
    }
    fn finish(&self, _: &Crate, _: ModuleId, read: T) -> T {
        read
    }
}

/// Loads a crate whose only file is `src/lib.rs` with `visitor`.
pub(super) fn lib_with<V: Visitor>(text: &str, visitor: &V) -> (TempCrate, Crate, Vec<V::Output>) {
    let temp = TempCrate::new(&[("src/lib.rs", text)]);
    let (krate, outputs) =
        Crate::load_with("demo", &temp.path("src/lib.rs"), &Cfg::default(), visitor)
            .unwrap_or_else(|err| panic!("{err}"));
    (temp, krate, outputs)
}
