//! No torn files: `kubegen manifests` killed with SIGKILL at random moments while it rewrites a
//! large `config/` tree leaves every file with its old content or its complete new content,
//! and the next run leaves no temporary file behind.

#![cfg(unix)]

mod support {
    pub mod workspace;
}

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::workspace::{Workspace, stderr};

/// How many kinds the API crate declares: each is one CRD file of about 5 kB.
const KINDS: usize = 60;

/// The API crate in version `v`: every kind's description and one field's name change.
fn source(v: char) -> String {
    let mut out = String::from("use kubegen::{rbac, CustomResource};\n\n");
    for k in 0..KINDS {
        out.push_str(&format!(
            r#"/// Kind{k}Spec is kind {k}, version {v}. {long}
#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v1", kind = "Kind{k}")]
pub struct Kind{k}Spec {{
    /// The size, version {v}. {long}
    #[kube_marker(minimum = 1, maximum = 100)]
    pub size: i32,
    /// The name, version {v}.
    #[kube_marker(min_length = 1, max_length = 63, pattern = "^[a-z]+$")]
    pub name_{v}: String,
    /// The labels.
    pub labels: std::collections::BTreeMap<String, String>,
    /// The items.
    pub items: Vec<String>,
}}

#[rbac(groups = "example.com", resources = "kind{k}s", verbs = "{verbs}")]
pub fn reconcile_{k}() {{}}

"#,
            verbs = if v == 'a' {
                "get;list"
            } else {
                "get;list;watch"
            },
            long = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(20)
        ));
    }
    out
}

/// Every file under `dir`, with its content.
fn tree(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(path.clone(), fs::read_to_string(&path).unwrap());
            }
        }
    }
    out
}

fn temporaries(tree: &BTreeMap<PathBuf, String>) -> Vec<&PathBuf> {
    tree.keys()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

/// A small deterministic generator (xorshift), seeded from the clock; the seed is printed.
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

#[test]
fn a_killed_run_leaves_whole_files_and_the_next_run_no_temporary() {
    let ws = Workspace::new("torn");
    let config = ws.root.join("api/config");
    let kubegen = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_kubegen"));
        c.arg("manifests").current_dir(&ws.root);
        c
    };
    // The two complete trees, and how long a whole run takes.
    let mut complete = BTreeMap::new();
    let mut full = Duration::ZERO;
    for v in ['a', 'b'] {
        ws.write("api/src/lib.rs", &source(v));
        let start = Instant::now();
        let out = kubegen().output().unwrap();
        full = full.max(start.elapsed());
        assert!(out.status.success(), "{}", stderr(&out));
        complete.insert(v, tree(&config));
    }
    let (a, b) = (&complete[&'a'], &complete[&'b']);
    assert_eq!(a.len(), KINDS + 1, "{:?}", a.keys());
    assert!(a.keys().eq(b.keys()) && a.iter().all(|(p, c)| b[p] != *c));
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("seed {seed}, a whole run takes {full:?}");
    let mut random = Random(seed);
    // The kill moment is drawn in a window that narrows to the writing phase: a kill that left
    // every file old moves the window's start up, one that left every file new its end down.
    let (mut lo, mut hi) = (0u64, full.as_micros() as u64 * 2);
    let (mut mid_write, mut left_temporaries) = (0, 0);
    let kills = 30;
    for i in 0..kills {
        // The tree holds one version: the killed run rewrites it to the other.
        let (version, old, new) = if i % 2 == 0 { ('a', b, a) } else { ('b', a, b) };
        ws.write("api/src/lib.rs", &source(version));
        let at = lo + random.below(hi.saturating_sub(lo));
        let mut child = kubegen()
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(at));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let now = tree(&config);
        left_temporaries += temporaries(&now).len();
        let (mut olds, mut news) = (0, 0);
        for (path, content) in now
            .iter()
            .filter(|(p, _)| !p.to_string_lossy().ends_with(".tmp"))
        {
            if *content == old[path] {
                olds += 1;
            } else if *content == new[path] {
                news += 1;
            } else {
                panic!("kill {i} at {at} µs: {} is torn", path.display());
            }
        }
        assert_eq!(olds + news, old.len(), "kill {i}: a file is missing");
        match (olds, news) {
            (_, 0) => lo = at,
            (0, _) => hi = at,
            _ => mid_write += 1,
        }
        if hi <= lo + 1000 {
            (lo, hi) = (lo.saturating_sub(20_000), hi + 20_000);
        }
        // The next run completes the rewrite, and leaves no temporary file.
        let out = kubegen().output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let after = tree(&config);
        assert!(
            temporaries(&after).is_empty(),
            "left: {:?}",
            temporaries(&after)
        );
        assert_eq!(&after, new);
    }
    eprintln!(
        "{kills} kills: {mid_write} in the middle of the rewrite, {left_temporaries} temporary \
         files left by them (each removed by the next run)"
    );
    assert!(
        mid_write > 0,
        "no kill landed while files were being written"
    );
}
