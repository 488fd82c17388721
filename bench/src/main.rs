//! Whole-command benchmarks, each against its anchor measured in the same run:
//!
//! - `compile`: build an API crate of 50 kinds × 20 fields with kubegen's derives, and the
//!   same API with kube-derive + schemars; ratio of the median build times.
//! - `cli`: `kubegen manifests` on an API crate of 100 kinds × 20 fields over 100 files,
//!   against the kube-rs idiom: a `crdgen` binary printing `crd()`, rebuilt and run after a
//!   one-line edit to one type.
//! - `apply`: rebuild of an API crate of 100 kinds × 20 fields with kubegen's `apply` feature
//!   off and on (what the apply configurations add).
//!
//! - `validate`: objects admitted per second in process (`check::admit`) against the bundled
//!   operator's CRD, or (`--against httproute`) Gateway API's HTTPRoute.
//! - `import`: `kubegen import crd` vs kopium on the largest CRD of the corpus and a folder of
//!   50 CRDs.
//! - `control-plane`: the cold start of `kubegen::testing`'s control plane (etcd and
//!   kube-apiserver from `KUBEBUILDER_ASSETS`, a CRD established), with its breakdown.
//!
//! `cargo run --release -p kubegen-bench -- compile` (or `cli`, `apply`, `validate`,
//! `control-plane`). Generated crates live in
//! `target/kubegen-bench/`; their dependencies are built once, before timing starts.

mod control_plane;
mod generate;
mod import;
mod measure;
mod validate;

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{Parser, Subcommand};

use measure::{Stats, time_once, time_runs};

/// kubegen's benchmarks.
#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    bench: Bench,
    /// Timed runs per command.
    #[arg(long, default_value_t = 5, global = true)]
    runs: usize,
}

#[derive(Subcommand)]
enum Bench {
    /// Compile time of an API crate: kubegen's derives vs kube-derive + schemars.
    Compile {
        /// Kinds in the API crate.
        #[arg(long, default_value_t = 50)]
        kinds: usize,
        /// Fields per kind.
        #[arg(long, default_value_t = 20)]
        fields: usize,
    },
    /// `kubegen manifests` vs rebuilding and running a `crdgen` binary.
    Cli {
        /// Kinds (one file each).
        #[arg(long, default_value_t = 100)]
        kinds: usize,
        /// Fields per kind.
        #[arg(long, default_value_t = 20)]
        fields: usize,
    },
    /// `kubegen crd` vs `controller-gen crd` on the same API, written in Rust and in Go (one
    /// file per kind).
    ControllerGen {
        /// The API sizes, in kinds.
        #[arg(long, value_delimiter = ',', default_value = "10,100,999")]
        kinds: Vec<usize>,
        /// Fields per kind.
        #[arg(long, default_value_t = 20)]
        fields: usize,
        /// The controller-gen binary.
        #[arg(long, default_value = "controller-gen")]
        controller_gen: PathBuf,
        /// A shell command run once in each Go module folder to make it a module that
        /// resolves `k8s.io/apimachinery` (default: write `go.mod` and run `go mod tidy`,
        /// which needs the network or a module cache).
        #[arg(long)]
        go_mod_init: Option<String>,
    },
    /// Objects admitted per second against the operator's CRD (or Gateway API's HTTPRoute),
    /// in process.
    Validate {
        /// Objects per run.
        #[arg(long, default_value_t = 10_000)]
        objects: usize,
        /// The CRD the objects are admitted against.
        #[arg(long, value_enum, default_value_t = validate::Against::Operator)]
        against: validate::Against,
    },
    /// The cold start of a `kubegen::testing` control plane, with its breakdown (needs
    /// `KUBEBUILDER_ASSETS`).
    ControlPlane,
    /// `kubegen import crd` vs kopium: the largest CRD of the corpus, and a folder of 50.
    Import {
        /// The kopium binary (default: `kopium` when it is on `PATH`).
        #[arg(long)]
        kopium: Option<PathBuf>,
    },
    /// Rebuild of an API crate with kubegen's `apply` feature off vs on.
    Apply {
        /// Kinds in the API crate.
        #[arg(long, default_value_t = 100)]
        kinds: usize,
        /// Fields per kind.
        #[arg(long, default_value_t = 20)]
        fields: usize,
    },
}

fn main() {
    let args = Args::parse();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ is in the repository")
        .to_path_buf();
    let work = repo.join("target/kubegen-bench");
    match args.bench {
        Bench::Compile { kinds, fields } => {
            compile(&repo, &work.join("compile"), kinds, fields, args.runs)
        }
        Bench::Cli { kinds, fields } => cli(&repo, &work.join("cli"), kinds, fields, args.runs),
        Bench::ControllerGen {
            kinds,
            fields,
            controller_gen,
            go_mod_init,
        } => {
            let go = Go {
                controller_gen,
                mod_init: go_mod_init,
            };
            for kinds in kinds {
                let dir = work.join(format!("controller-gen/{kinds}"));
                controller_gen_bench(&repo, &dir, kinds, fields, &go, args.runs);
            }
        }
        Bench::Validate { objects, against } => validate::run(&repo, against, objects, args.runs),
        Bench::ControlPlane => control_plane::run(&repo, args.runs),
        Bench::Import { kopium } => import::run(&repo, &work.join("import"), kopium, args.runs),
        Bench::Apply { kinds, fields } => {
            apply(&repo, &work.join("apply"), kinds, fields, args.runs)
        }
    }
}

/// The bundled operator's generated CRD, from the repository's root.
const OPERATOR_CRD: &str = "operator/config/crd/bases/cache.example.com_memcacheds.yaml";

/// The CRD at `path`, as JSON.
fn read_crd(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the operator's CRD is generated; the HTTPRoute bench reads ../shared/golden)",
            path.display()
        )
    });
    serde_saphyr::from_str(&text).expect("the CRD is YAML")
}

fn cargo(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"));
    cmd
}

fn run(mut cmd: Command) {
    let status = cmd.status().expect("the command starts");
    assert!(status.success(), "{cmd:?} failed");
}

fn compile(repo: &Path, dir: &Path, kinds: usize, fields: usize, runs: usize) {
    generate::compile_workspace(repo, dir, kinds, fields);
    eprintln!("building dependencies once (not timed)...");
    run(cargo(dir, &["build", "-q", "--workspace"]));
    let flavors = [
        ("kubegen", "api-kubegen"),
        ("kube-derive + schemars", "api-kube"),
    ];
    let mut results: Vec<Stats> = Vec::new();
    for (label, package) in flavors {
        let lib = dir.join(package).join("src/lib.rs");
        let stats = time_runs(runs, || {
            generate::touch(&lib);
            cargo(dir, &["build", "-q", "-p", package])
        });
        println!("{label:<24} {stats}");
        results.push(stats);
    }
    println!(
        "ratio (kube-derive + schemars / kubegen), median build of {kinds} kinds × {fields} fields: {:.2}",
        results[1].median / results[0].median
    );
}

fn cli(repo: &Path, dir: &Path, kinds: usize, fields: usize, runs: usize) {
    generate::cli_workspace(repo, dir, kinds, fields);
    eprintln!("building kubegen and the crdgen binary once (not timed)...");
    let mut build_cli = cargo(repo, &["build", "-q", "--release", "-p", "gen-cli"]);
    build_cli.env_remove("CARGO_TARGET_DIR");
    run(build_cli);
    run(cargo(dir, &["build", "-q", "--bin", "crdgen"]));
    let kubegen: PathBuf = repo.join("target/release/kubegen");
    let manifests = time_runs(runs, || {
        let mut cmd = Command::new(&kubegen);
        cmd.args(["manifests"]).current_dir(dir);
        cmd
    });
    println!("kubegen manifests        {manifests}");
    let edited = dir.join("api-kube/src/kind_0.rs");
    let mut flip = false;
    let crdgen = time_runs(runs, || {
        flip = !flip;
        generate::edit_one_line(&edited, flip);
        let mut cmd = cargo(dir, &["run", "-q", "--bin", "crdgen"]);
        cmd.stdout(std::process::Stdio::null());
        cmd
    });
    println!("crdgen (edit, rebuild, run) {crdgen}");
    println!(
        "ratio (crdgen / kubegen manifests), {kinds} kinds × {fields} fields over {kinds} files: {:.0}",
        crdgen.median / manifests.median
    );
}

/// How to run controller-gen.
struct Go {
    controller_gen: PathBuf,
    mod_init: Option<String>,
}

fn controller_gen_bench(
    repo: &Path,
    dir: &Path,
    kinds: usize,
    fields: usize,
    go: &Go,
    runs: usize,
) {
    generate::controller_gen_workspace(repo, dir, kinds, fields);
    let module = dir.join("go");
    if !module.join("go.mod").exists() {
        let init = go.mod_init.clone().unwrap_or_else(|| {
            "printf 'module example.com/bench\\n\\ngo 1.24\\n' > go.mod && go mod tidy".into()
        });
        let mut cmd = Command::new("sh");
        cmd.args(["-c", &init]).current_dir(&module);
        run(cmd);
    }
    let mut build_cli = cargo(repo, &["build", "-q", "--release", "-p", "gen-cli"]);
    build_cli.env_remove("CARGO_TARGET_DIR");
    run(build_cli);
    // `cargo metadata` resolves the API crate's dependencies once (`Cargo.lock`).
    let mut metadata = cargo(dir, &["metadata", "-q", "--format-version", "1"]);
    metadata.stdout(std::process::Stdio::null());
    run(metadata);
    let kubegen = repo.join("target/release/kubegen");
    let ours = time_runs(runs, || {
        let mut cmd = Command::new(&kubegen);
        cmd.args(["crd"])
            .current_dir(dir)
            .stdout(std::process::Stdio::null());
        cmd
    });
    let theirs = time_runs(runs, || {
        let mut cmd = Command::new(&go.controller_gen);
        cmd.args([
            "crd:allowDangerousTypes=true",
            "paths=./...",
            "output:crd:dir=out",
        ])
        .current_dir(&module);
        cmd
    });
    println!("{kinds} kinds × {fields} fields, one file per kind:");
    println!("  kubegen crd              {ours}");
    println!("  controller-gen crd       {theirs}");
    println!(
        "  ratio (controller-gen / kubegen): time {:.1}, memory {:.1}",
        theirs.median / ours.median,
        theirs.rss_mib.unwrap_or(0.0) / ours.rss_mib.unwrap_or(1.0)
    );
}

fn apply(repo: &Path, dir: &Path, kinds: usize, fields: usize, runs: usize) {
    generate::compile_workspace(repo, dir, kinds, fields);
    let package = "api-kubegen";
    let flavors = [("apply off", ""), ("apply on", "kubegen/apply")];
    eprintln!("building dependencies once per flavor (not timed)...");
    for (_, features) in flavors {
        run(cargo(
            dir,
            &["build", "-q", "-p", package, "--features", features],
        ));
    }
    // Off and on alternate, so that both see the same load on the machine.
    let lib = dir.join(package).join("src/lib.rs");
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..runs.max(1) {
        for (i, (_, features)) in flavors.iter().enumerate() {
            generate::touch(&lib);
            times[i].push(time_once(cargo(
                dir,
                &["build", "-q", "-p", package, "--features", features],
            )));
        }
    }
    let results: Vec<Stats> = times.into_iter().map(Stats::of).collect();
    for ((label, _), stats) in flavors.iter().zip(&results) {
        println!("{label:<24} {stats}");
    }
    println!(
        "the apply feature adds {:.0}% ({:.2} s) to the median rebuild of {kinds} kinds × {fields} fields",
        (results[1].median / results[0].median - 1.0) * 100.0,
        results[1].median - results[0].median
    );
}
