//! `import`: `kubegen import crd` against kopium on the same input, in one run: the largest
//! CRD of the corpus (the repository's fixtures and the golden folder's controller-tools,
//! crdify and Gateway API CRDs), and a folder of 50 of them (kubegen reads the folder once,
//! kopium is run once per file, as it reads one CRD). kopium is looked for on `PATH` (or
//! `--kopium`); without it only kubegen is timed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::measure::{Stats, time_once, time_runs};

/// The corpus's CRD files (`apiextensions.k8s.io/v1`, one document each), sorted.
fn corpus(repo: &Path) -> Vec<PathBuf> {
    let golden = std::env::var_os("KUBEGEN_GOLDEN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/golden"));
    let mut roots: Vec<PathBuf> = fs::read_dir(repo.join("fixtures"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path().join("config/crd/bases"))
                .collect()
        })
        .unwrap_or_default();
    roots.extend(
        [
            "controller-tools/pkg/crd/testdata",
            "crdify/examples",
            "gateway-api/config/crd/standard",
            "gateway-api/config/crd/experimental",
        ]
        .map(|r| golden.join(r)),
    );
    let mut files = Vec::new();
    for root in roots {
        collect(&root, &mut files);
    }
    files.sort();
    files
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml")
            && fs::read_to_string(&path).is_ok_and(|t| {
                t.contains("kind: CustomResourceDefinition")
                    && t.contains("apiVersion: apiextensions.k8s.io/v1\n")
                    && t.matches("\nkind: CustomResourceDefinition").count() <= 1
            })
        {
            out.push(path);
        }
    }
}

/// Whether `cmd` succeeds (its output discarded).
fn succeeds(mut cmd: Command) -> bool {
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    cmd.status().is_ok_and(|s| s.success())
}

/// `kubegen import crd` (the release binary of this checkout) vs `kopium`.
pub fn run(repo: &Path, dir: &Path, kopium: Option<PathBuf>, runs: usize) {
    eprintln!("building kubegen once (not timed)...");
    let mut build = Command::new(env!("CARGO"));
    build
        .args(["build", "-q", "--release", "-p", "gen-cli"])
        .current_dir(repo)
        .env_remove("CARGO_TARGET_DIR");
    assert!(build.status().is_ok_and(|s| s.success()), "cargo build");
    let kubegen = repo.join("target/release/kubegen");
    let kopium = kopium.or_else(|| {
        let found = Command::new("kopium").arg("--version").output();
        found
            .is_ok_and(|o| o.status.success())
            .then(|| "kopium".into())
    });
    let import = |input: &Path| {
        let mut cmd = Command::new(&kubegen);
        cmd.args(["import", "crd", "--kubernetes", "v1_37"])
            .arg(input)
            .current_dir(repo)
            .stdout(Stdio::null());
        cmd
    };
    let kopium_of = |k: &Path, file: &Path| {
        let mut cmd = Command::new(k);
        cmd.arg("-f").arg(file).stdout(Stdio::null());
        cmd
    };
    // The files both tools import (kopium refuses some, kubegen others).
    let files: Vec<PathBuf> = corpus(repo)
        .into_iter()
        .filter(|f| succeeds(import(f)))
        .filter(|f| kopium.as_deref().is_none_or(|k| succeeds(kopium_of(k, f))))
        .collect();
    let largest = files
        .iter()
        .max_by_key(|f| fs::metadata(f).map(|m| m.len()).unwrap_or(0))
        .expect("a corpus (the fixtures at least)")
        .clone();
    let folder = dir.join("crds");
    let _ = fs::remove_dir_all(&folder);
    fs::create_dir_all(&folder).expect("the bench folder");
    let fifty: Vec<&PathBuf> = files.iter().take(50).collect();
    for (i, f) in fifty.iter().enumerate() {
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        fs::copy(f, folder.join(format!("{i:02}-{name}"))).expect("a copy of a CRD");
    }
    let size = fs::metadata(&largest).map(|m| m.len()).unwrap_or(0);
    println!(
        "largest CRD: {} ({} KiB); folder: {} CRDs",
        largest.display(),
        size / 1024,
        fifty.len()
    );
    let one = time_runs(runs, || import(&largest));
    println!("kubegen import crd, largest   {one}");
    let many = time_runs(runs, || import(&folder));
    println!("kubegen import crd, folder    {many}");
    let Some(k) = kopium else {
        println!("kopium is not on PATH (--kopium PATH): kubegen alone was timed");
        return;
    };
    let k_one = time_runs(runs, || kopium_of(&k, &largest));
    println!("kopium, largest               {k_one}");
    // One kopium per file: the sum of the 50 runs, per run of the bench (one warm-up).
    let sum = || -> f64 {
        let mut entries: Vec<PathBuf> = fs::read_dir(&folder)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        entries.iter().map(|f| time_once(kopium_of(&k, f))).sum()
    };
    sum();
    let k_many = Stats::of((0..runs.max(1)).map(|_| sum()).collect());
    println!("kopium, folder (one per file) {k_many}");
    println!(
        "ratio (kopium / kubegen): largest {:.2}, folder {:.2}",
        k_one.median / one.median,
        k_many.median / many.median
    );
}
