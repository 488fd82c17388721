//! gen-cli's robustness property on one crate, shared by `no_panic.rs` and the fuzz targets
//! (`fuzz/`, which include this file): `kubegen manifests` and `kubegen docs`, through the
//! library, either produce their files or report at least one error with a location.

#![allow(dead_code)] // each user calls its own part

use std::path::Path;

use gen_cli::cli::Options;
use gen_cli::config::Layout;
use gen_cli::generate::{What, generate};
use gen_cli::workspace::Package;

/// Runs the generators on the crate whose root file is `root`; panics when they fail without
/// an error that has a location.
pub fn generates_or_locates(root: &Path) {
    let package = Package {
        name: "input".into(),
        dir: root.parent().unwrap_or(root).to_path_buf(),
        targets: vec![("input".into(), root.to_path_buf())],
        k8s_openapi: false,
        kubernetes: None,
        config: Default::default(),
        diff: None,
    };
    let options = Options {
        packages: Vec::new(),
        manifest_path: None,
        out_dir: "config".into(),
        check: true,
        stdout: false,
        kubernetes: None,
        config: Default::default(),
    };
    let layout = Layout::resolve(&package, &options.config, &options.out_dir)
        .expect("the default layout resolves");
    let what = What {
        docs: true,
        ..What::ALL
    };
    if let Err(errors) = generate(&package, &layout, what) {
        assert!(
            errors.iter().any(|e| e.loc.is_some()),
            "{}: errors without a location: {errors:#?}",
            root.display()
        );
    }
}
