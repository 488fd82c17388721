//! A project on a kubegen checkout, buildable without it: `cargo package` of kubegen's
//! published packages in the checkout, unpacked into the project's `vendor/` and used through
//! `[patch.crates-io]`, so that `docker build .` and a CI job find every source in the project
//! folder. The project's dependency is then the one it has once kubegen is on crates.io.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::workspace::KUBEGEN_PACKAGE;

/// The packages a project builds from: the library and what it depends on in its workspace.
pub const PACKAGES: [&str; 3] = [KUBEGEN_PACKAGE, "kubegen-core", "kubegen-derive"];

/// The folder of the project the packages are unpacked into.
pub const FOLDER: &str = "vendor";

/// kubegen's packages as `cargo package` makes them from a checkout.
#[derive(Debug)]
pub struct Vendored {
    /// The version of the packages (the checkout's workspace version).
    pub version: String,
    /// Each file, relative to the project: `vendor/<package>/<path in the .crate>`.
    pub files: Vec<(PathBuf, String)>,
}

/// Packages kubegen's crates in `checkout` (`cargo package --no-verify`, into a temporary
/// target folder: the checkout is only read) and reads their files.
pub fn package(checkout: &Path) -> Result<Vendored, String> {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let work = std::env::temp_dir().join(format!("kubegen-vendor-{}-{run}", std::process::id()));
    let _ = fs::remove_dir_all(&work);
    let result = package_into(checkout, &work);
    let _ = fs::remove_dir_all(&work);
    result
}

fn package_into(checkout: &Path, work: &Path) -> Result<Vendored, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["package", "--no-verify", "--allow-dirty", "--quiet"])
        .arg("--manifest-path")
        .arg(checkout.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(work.join("target"));
    for package in PACKAGES {
        command.args(["-p", package]);
    }
    let failed = |why: String| {
        format!(
            "cannot package kubegen's crates in {} to copy them into {FOLDER}/: {why}",
            checkout.display()
        )
    };
    let out = command.output().map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        return Err(failed(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    let packaged = work.join("target/package");
    let unpacked = work.join("unpacked");
    fs::create_dir_all(&unpacked).map_err(|e| failed(e.to_string()))?;
    let mut version = None;
    let mut files = Vec::new();
    for package in PACKAGES {
        let crate_file = fs::read_dir(&packaged)
            .map_err(|e| failed(e.to_string()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| {
                let name = p.file_name().unwrap_or_default().to_string_lossy();
                name.strip_prefix(package)
                    .and_then(|rest| rest.strip_prefix('-'))
                    .and_then(|rest| rest.strip_suffix(".crate"))
                    .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
            })
            .ok_or_else(|| failed(format!("cargo made no {package}-*.crate")))?;
        let name = crate_file.file_stem().unwrap_or_default().to_string_lossy();
        let this_version = name[package.len() + 1..].to_string();
        if version.get_or_insert_with(|| this_version.clone()) != &this_version {
            return Err(failed(format!(
                "{package} is {this_version}, not {}",
                version.unwrap_or_default()
            )));
        }
        // A .crate is a gzipped tar of one folder, `<package>-<version>/`.
        let status = Command::new("tar")
            .arg("-xzf")
            .arg(&crate_file)
            .arg("-C")
            .arg(&unpacked)
            .status()
            .map_err(|e| failed(format!("tar: {e}")))?;
        if !status.success() {
            return Err(failed(format!(
                "tar could not unpack {}",
                crate_file.display()
            )));
        }
        let root = unpacked.join(name.as_ref());
        let into = Path::new(FOLDER).join(package);
        for file in walk(&root).map_err(|e| failed(e.to_string()))? {
            let text = fs::read_to_string(root.join(&file))
                .map_err(|e| failed(format!("{}: {e}", file.display())))?;
            files.push((into.join(file), text));
        }
    }
    Ok(Vendored {
        version: version.unwrap_or_default(),
        files,
    })
}

/// Every file under `dir`, relative to it.
fn walk(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let relative = PathBuf::from(path.file_name().unwrap_or_default());
        if path.is_dir() {
            files.extend(walk(&path)?.into_iter().map(|f| relative.join(f)));
        } else {
            files.push(relative);
        }
    }
    Ok(files)
}

/// The project's `Cargo.toml` lines after its `[workspace]` header: `vendor/` kept out of the
/// workspace, and the patch that takes the packages from there.
pub fn manifest_tail(checkout: &Path) -> String {
    let checkout = checkout.display();
    let mut tail = format!(
        "# kubegen's packages (below) are not members of this project.\n\
         exclude = [\"{FOLDER}\"]\n\n\
         # kubegen is not on crates.io yet: {FOLDER}/ holds its packages as `cargo package` makes\n\
         # them from the checkout at {checkout}, copied by `kubegen init` so that the project\n\
         # builds without that checkout (`docker build .`, CI). Refresh them with\n\
         # `rm -r {FOLDER} && kubegen init --force --kubegen-path {checkout}`; once kubegen is\n\
         # published, delete this table and {FOLDER}/.\n\
         [patch.crates-io]\n"
    );
    for package in PACKAGES {
        tail.push_str(&format!(
            "{package} = {{ path = \"{FOLDER}/{package}\" }}\n"
        ));
    }
    tail
}
