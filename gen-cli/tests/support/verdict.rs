//! gen-cli's verdict on one crate, through the library: shared by `verdicts.rs`,
//! `no_panic.rs` and the fuzz targets (`fuzz/`, which include this file).

#![allow(dead_code)] // each user calls its own part

use std::path::Path;

use gen_cli::config::Layout;
use gen_cli::generate::{Generated, What, generate};
use gen_cli::options::Options;
use gen_cli::source::Cfg;
use gen_cli::workspace::Package;
use kubegen_core::known::Kubernetes;
use kubegen_core::model::Diagnostic;

/// A package whose one target is the crate with root file `root`.
pub fn package(root: &Path) -> Package {
    Package {
        name: "input".into(),
        dir: root.parent().unwrap_or(root).to_path_buf(),
        targets: vec![("input".into(), root.to_path_buf())],
        k8s_openapi: false,
        kubernetes: None,
        features: Default::default(),
        config: Default::default(),
        diff: None,
    }
}

/// What `kubegen manifests` and `kubegen docs` make of `package`, in memory.
pub fn manifests_and_docs(package: &Package) -> Result<Generated, Vec<Diagnostic>> {
    let options = Options {
        packages: Vec::new(),
        manifest_path: None,
        out_dir: "config".into(),
        check: true,
        stdout: false,
        kubernetes: None,
        features: Default::default(),
        config: Default::default(),
    };
    let what = What {
        docs: true,
        ..What::ALL
    };
    let layout = Layout::resolve(package, &options.config, &options.out_dir)
        .expect("the default layout resolves");
    generate(
        package,
        &Cfg::default(),
        &layout,
        what,
        &Kubernetes::compiled(),
    )
}

/// gen-cli's robustness property: the generators, on the crate whose root file is `root`,
/// either produce their files or report at least one error with a location. Panics otherwise.
///
/// Then forgets the spans of every source this thread parsed: proc-macro2 (with
/// `span-locations`) keeps each parsed text in a thread-local map that only grows, and a
/// property test or fuzzer parsing thousands of sources would slow down with it.
pub fn generates_or_locates(root: &Path) {
    if let Err(errors) = manifests_and_docs(&package(root)) {
        assert!(
            errors.iter().any(|e| e.loc.is_some()),
            "{}: errors without a location: {errors:#?}",
            root.display()
        );
    }
    proc_macro2::extra::invalidate_current_thread_spans();
}
