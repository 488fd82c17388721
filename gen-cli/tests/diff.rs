//! `kubegen diff` on a small workspace whose Rust sources are edited after its manifests were
//! written: each edit's verdict, the exit code, and the Rust location the change is shown at.

mod support {
    pub mod scaffold;
}

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

/// A workspace with one member, `api`, whose kind `Widget` has versions `v1` (stored) and `v2`.
struct Api {
    root: PathBuf,
}

const LIB: &str = "pub mod v1;\npub mod v2;\n";

const V1: &str = r#"use kubegen::{CustomResource, KubeSchema};

#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v1", kind = "Widget", storage_version)]
#[kube_marker(status = "WidgetStatus")]
pub struct WidgetSpec {
    #[kube_marker(maximum = 10)]
    pub size: i32,
    pub color: Color,
    pub old: Option<String>,
    pub count: Option<i32>,
    pub label: Option<String>,
}

#[derive(KubeSchema)]
pub enum Color {
    Red,
    Blue,
}

#[derive(KubeSchema)]
pub struct WidgetStatus {
    pub addresses: Vec<Address>,
    pub phase: Option<String>,
}

#[derive(KubeSchema)]
pub struct Address {
    pub value: String,
}
"#;

const V2: &str = r#"use kubegen::CustomResource;

#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v2", kind = "Widget")]
pub struct WidgetSpec {
    pub size: i32,
}
"#;

impl Api {
    /// The workspace, with its manifests written by `kubegen manifests`.
    fn new(name: &str) -> Api {
        let root = std::env::temp_dir().join(format!("kubegen-diff-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let api = Api { root };
        api.write(
            "Cargo.toml",
            "[workspace]\nmembers = [\"api\"]\nresolver = \"3\"\n",
        );
        api.write(
            "api/Cargo.toml",
            "[package]\nname = \"api\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\nkubegen = \"0.1.0\"\n",
        );
        api.write("api/src/lib.rs", LIB);
        api.write("api/src/v1.rs", V1);
        api.write("api/src/v2.rs", V2);
        let out = api.run(&["manifests"]);
        assert!(out.status.success(), "{}", stderr(&out));
        api
    }

    fn write(&self, path: &str, content: &str) {
        let full = self.root.join(path);
        fs::create_dir_all(full.parent().unwrap()).unwrap();
        fs::write(full, content).unwrap();
    }

    /// `api/src/v1.rs` with `from` replaced by `to` (which must be there).
    fn edit_v1(&self, from: &str, to: &str) {
        assert!(V1.contains(from), "{from}");
        self.write("api/src/v1.rs", &V1.replacen(from, to, 1));
    }

    fn run(&self, args: &[&str]) -> Output {
        support::scaffold::kubegen(&self.root, args)
    }

    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(&self.root)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Api {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The 1-based line of `V1`'s edited text that holds `needle`.
fn line_of(source: &str, needle: &str) -> usize {
    source
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle}"))
        + 1
}

/// Asserts `err` has a diagnostic whose headline starts with `headline` and that points at
/// `location` (`file:line:col`).
fn assert_reports(err: &str, headline: &str, location: &str) {
    let lines: Vec<&str> = err.lines().collect();
    let found = lines.iter().enumerate().any(|(i, l)| {
        l.starts_with(headline)
            && lines
                .get(i + 1)
                .is_some_and(|next| next.trim_start() == format!("--> {location}"))
    });
    assert!(found, "no `{headline}` at {location} in:\n{err}");
}

const CRD: &str = "`widgets.example.com`";

#[test]
fn unchanged_sources_have_no_changes() {
    let api = Api::new("unchanged");
    let out = api.run(&["diff"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("kubegen diff: 0 breaking, 0 warning, 0 safe"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn each_edit_gets_its_verdict_at_its_rust_source() {
    let api = Api::new("edits");
    // (from, to, `level: headline`, the line the diagnostic points at): each breaks (exit 1).
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "    pub old: Option<String>,\n",
            "",
            "error: breaking change to `widgets.example.com` v1 .spec.old: field removed",
            "pub struct WidgetSpec",
        ),
        (
            "    pub label: Option<String>,\n",
            "    pub label: Option<String>,\n    pub extra: String,\n",
            r#"error: breaking change to `widgets.example.com` v1 .spec: new required fields: ["extra"]"#,
            "pub extra: String",
        ),
        (
            "maximum = 10",
            "maximum = 5",
            "error: breaking change to `widgets.example.com` v1 .spec.size: maximum decreased: 10 -> 5",
            "pub size: i32",
        ),
        (
            "    Blue,\n",
            "    Blue,\n    Green,\n",
            r#"error: breaking change to `widgets.example.com` v1 .spec.color: allowed enum values added: ["Green"]"#,
            "pub color: Color",
        ),
        (
            "    Blue,\n",
            "",
            r#"error: breaking change to `widgets.example.com` v1 .spec.color: allowed enum values removed: ["Blue"]"#,
            "pub color: Color",
        ),
        (
            "pub count: Option<i32>",
            "pub count: Option<String>",
            r#"error: breaking change to `widgets.example.com` v1 .spec.count: type changed: "integer" -> "string""#,
            "pub count: Option<String>",
        ),
        (
            "    pub label: Option<String>,\n",
            "    #[kube_marker(default = \"x\")]\n    pub label: Option<String>,\n",
            r#"error: breaking change to `widgets.example.com` v1 .spec.label: default added when there was none previously: "x""#,
            "pub label: Option<String>",
        ),
        (
            r#"kind = "Widget", storage_version)"#,
            r#"kind = "Widget", storage_version, scope = "Cluster")"#,
            "error: breaking change to `widgets.example.com`: scope changed: Namespaced -> Cluster",
            "pub struct WidgetSpec",
        ),
        // Under `.status`: the status type, not the spec struct.
        (
            "    pub phase: Option<String>,\n",
            "",
            "error: breaking change to `widgets.example.com` v1 .status.phase: field removed",
            "pub struct WidgetStatus",
        ),
        (
            "    pub value: String,\n",
            "    pub value: String,\n    pub port: i32,\n",
            r#"error: breaking change to `widgets.example.com` v1 .status.addresses[*]: new required fields: ["port"]"#,
            "pub port: i32",
        ),
        (
            "    pub addresses: Vec<Address>,\n",
            "    pub addresses: Vec<String>,\n",
            r#"error: breaking change to `widgets.example.com` v1 .status.addresses[*]: type changed: "object" -> "string""#,
            "pub addresses: Vec<String>",
        ),
    ];
    for (from, to, headline, pointed) in cases {
        api.edit_v1(from, to);
        let out = api.run(&["diff"]);
        let err = stderr(&out);
        let edited = V1.replacen(from, to, 1);
        let line = line_of(&edited, pointed);
        // The span starts at the field's (or the struct's) name.
        let ident = match pointed.strip_prefix("pub struct ") {
            Some(name) => name,
            None => pointed["pub ".len()..].split(':').next().unwrap(),
        };
        let column = edited.lines().nth(line - 1).unwrap().find(ident).unwrap() + 1;
        assert_reports(&err, headline, &format!("api/src/v1.rs:{line}:{column}"));
        assert_eq!(out.status.code(), Some(1), "{headline}:\n{err}");
    }
}

#[test]
fn moving_the_storage_version_warns_that_a_migration_is_needed() {
    let api = Api::new("storage");
    api.edit_v1(
        r#"kind = "Widget", storage_version)"#,
        r#"kind = "Widget")"#,
    );
    api.write(
        "api/src/v2.rs",
        &V2.replace(
            r#"kind = "Widget")"#,
            r#"kind = "Widget", storage_version)"#,
        ),
    );
    let out = api.run(&["diff"]);
    let err = stderr(&out);
    assert_reports(
        &err,
        "warning: warning change to `widgets.example.com`: storage version moved: v1 -> v2; a storage migration is needed",
        "api/src/v2.rs:5:12",
    );
    assert!(err.contains("storedVersions"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

#[test]
fn a_new_and_a_removed_crd_are_reported() {
    let api = Api::new("crds");
    api.write("api/src/lib.rs", &format!("{LIB}pub mod gadget;\n"));
    api.write(
        "api/src/gadget.rs",
        "#[derive(kubegen::CustomResource)]\n#[kube_marker(group = \"example.com\", version = \"v1\", kind = \"Gadget\")]\npub struct GadgetSpec {\n    pub size: i32,\n}\n",
    );
    let out = api.run(&["diff"]);
    let err = stderr(&out);
    assert!(err.contains("safe: new CRD `gadgets.example.com`"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    // The Widget kind gone: its CRD is removed.
    api.write("api/src/lib.rs", "pub mod gadget;\n");
    let out = api.run(&["diff"]);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("error: breaking change: CRD {CRD} removed")),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1), "{err}");
    // `manifests` removes the file, with a warning; the new CRD is only written.
    let out = api.run(&["manifests"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!("warning: breaking change: CRD {CRD} removed")),
        "{err}"
    );
    assert!(!err.contains("`gadgets.example.com`"), "{err}");
}

#[test]
fn base_ref_reads_the_crds_from_git_and_json_carries_the_location() {
    let api = Api::new("git");
    api.git(&["init", "-q"]);
    api.git(&["add", "-A"]);
    api.git(&["commit", "-qm", "base"]);
    api.edit_v1("maximum = 10", "maximum = 5");
    // The files on disk are rewritten (with a warning): the disk is no longer the base.
    let out = api.run(&["manifests"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(
            "warning: breaking change to `widgets.example.com` v1 .spec.size: maximum decreased"
        ),
        "{err}"
    );
    assert!(api.run(&["diff"]).status.success());
    let out = api.run(&["diff", "--base-ref", "HEAD", "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["level"], "error");
    assert_eq!(
        first["message"],
        "breaking change to `widgets.example.com` v1 .spec.size: maximum decreased: 10 -> 5"
    );
    assert_eq!(first["spans"][0]["file_name"], "api/src/v1.rs");
    assert_eq!(first["spans"][0]["line_start"], line_of(V1, "pub size"));
    let notes: Vec<&str> = first["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["message"].as_str())
        .collect();
    assert!(notes.contains(&"old: 10, new: 5"), "{notes:?}");
    let help = first["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["level"] == "help");
    assert_eq!(
        help.unwrap()["message"],
        "if this is intended, accept it here: `#[kube_marker(accept_change = \"maximum\")]`"
    );
    // A revision that does not exist is an error, not a clean verdict.
    let out = api.run(&["diff", "--base-ref", "no-such-ref"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("`no-such-ref` is not a git revision"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn base_dir_and_configuration_change_the_verdict() {
    let api = Api::new("config");
    let base = api.root.join("api/config/crd/bases");
    let copy = api.root.join("old");
    fs::create_dir_all(&copy).unwrap();
    for entry in fs::read_dir(&base).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    api.edit_v1("    Blue,\n", "    Blue,\n    Green,\n");
    assert!(api.run(&["manifests"]).status.success());
    let out = api.run(&["diff", "--base", "old"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // crdify's enum addition policy, from the package's metadata.
    let manifest = fs::read_to_string(api.root.join("api/Cargo.toml")).unwrap();
    api.write(
        "api/Cargo.toml",
        &format!("{manifest}\n[package.metadata.kubegen.diff]\nenum-addition = \"Allow\"\n"),
    );
    let out = api.run(&["diff", "--base", "old"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            r#"safe: `widgets.example.com` v1 .spec.color: allowed enum values added: ["Green"]"#
        ),
        "{err}"
    );
    // A rule name that does not exist is an error with the near miss.
    api.write(
        "api/Cargo.toml",
        &format!("{manifest}\n[package.metadata.kubegen.diff.enforcement]\nenums = \"None\"\n"),
    );
    let err = stderr(&api.run(&["diff", "--base", "old"]));
    assert!(
        err.contains("no rule is named `enums`") && err.contains("did you mean `enum`?"),
        "{err}"
    );
}

#[test]
fn an_accepted_change_is_a_warning_next_to_its_field() {
    let api = Api::new("accept");
    api.edit_v1(
        "    #[kube_marker(maximum = 10)]\n",
        "    #[kube_marker(maximum = 5, accept_change = \"maximum\")]\n",
    );
    let out = api.run(&["diff"]);
    let err = stderr(&out);
    let line = line_of(V1, "pub size");
    assert_reports(
        &err,
        "warning: accepted breaking change to `widgets.example.com` v1 .spec.size: maximum decreased: 10 -> 5",
        &format!("api/src/v1.rs:{line}:9"),
    );
    assert!(
        err.contains("accepted by `accept_change = \"maximum\"` here"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
    // It accepts that rule only: a new default on the same field still breaks.
    api.edit_v1(
        "    #[kube_marker(maximum = 10)]\n",
        "    #[kube_marker(maximum = 5, default = 1, accept_change = \"maximum\")]\n",
    );
    let out = api.run(&["diff"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // On the spec struct, it accepts a change of the kind (its scope).
    api.edit_v1(
        r#"kind = "Widget", storage_version)"#,
        r#"kind = "Widget", storage_version, scope = "Cluster", accept_change = "scope")"#,
    );
    let out = api.run(&["diff"]);
    let err = stderr(&out);
    assert!(
        err.contains("warning: accepted breaking change to `widgets.example.com`: scope changed"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
}

#[test]
fn a_status_field_removed_is_shown_at_the_status_type_and_accepted_on_the_spec_struct() {
    let api = Api::new("accept-status");
    let removed = V1.replacen("    pub phase: Option<String>,\n", "", 1);
    api.write("api/src/v1.rs", &removed);
    let err = stderr(&api.run(&["diff"]));
    let line = line_of(&removed, "pub struct WidgetStatus");
    let headline = "breaking change to `widgets.example.com` v1 .status.phase: field removed";
    assert_reports(
        &err,
        &format!("error: {headline}"),
        &format!("api/src/v1.rs:{line}:12"),
    );
    assert!(
        err.contains("accept it on the spec struct `WidgetSpec`: `#[kube_marker(accept_change = \"existingFieldRemoval\")]`"),
        "{err}"
    );
    let accepted = removed.replacen(
        "storage_version)]",
        "storage_version, accept_change = \"existingFieldRemoval\")]",
        1,
    );
    api.write("api/src/v1.rs", &accepted);
    let out = api.run(&["diff"]);
    let err = stderr(&out);
    assert_reports(
        &err,
        &format!("warning: accepted {headline}"),
        &format!("api/src/v1.rs:{line}:12"),
    );
    assert!(
        err.contains(
            "accepted by `accept_change = \"existingFieldRemoval\"` on the spec struct `WidgetSpec`"
        ),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
}

#[test]
fn a_base_folder_holds_the_crds_of_every_package() {
    let api = Api::new("two");
    api.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"api\", \"other\"]\nresolver = \"3\"\n",
    );
    api.write(
        "other/Cargo.toml",
        "[package]\nname = \"other\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\nkubegen = \"0.1.0\"\n",
    );
    api.write(
        "other/src/lib.rs",
        "#[derive(kubegen::CustomResource)]\n#[kube_marker(group = \"example.com\", version = \"v1\", kind = \"Gadget\")]\npub struct GadgetSpec {\n    pub size: i32,\n}\n",
    );
    assert!(api.run(&["manifests"]).status.success());
    let old = api.root.join("old");
    fs::create_dir_all(&old).unwrap();
    for package in ["api", "other"] {
        let bases = api.root.join(package).join("config/crd/bases");
        for entry in fs::read_dir(bases).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, old.join(path.file_name().unwrap())).unwrap();
        }
    }
    let out = api.run(&["diff", "--base", "old"]);
    let err = stderr(&out);
    assert!(
        err.contains("kubegen diff: 0 breaking, 0 warning, 0 safe"),
        "{err}"
    );
    // The folder stands for the selected packages: with one, the other's CRD counts as removed.
    let out = api.run(&["diff", "--base", "old", "-p", "other"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("CRD `widgets.example.com` removed"), "{err}");
}

#[test]
fn several_new_required_fields_are_each_shown() {
    let api = Api::new("required");
    api.edit_v1(
        "    pub label: Option<String>,\n",
        "    pub label: Option<String>,\n    pub extra: String,\n    pub more: String,\n",
    );
    let out = api.run(&["diff", "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let required: serde_json::Value = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("new required fields")
        })
        .unwrap();
    let spans: Vec<(u64, Option<&str>)> = required["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["line_start"].as_u64().unwrap(), s["label"].as_str()))
        .collect();
    let edited = V1.replacen(
        "    pub label: Option<String>,\n",
        "    pub label: Option<String>,\n    pub extra: String,\n    pub more: String,\n",
        1,
    );
    let line = |needle| line_of(&edited, needle) as u64;
    assert_eq!(
        spans,
        [
            (line("pub extra"), Some("this field")),
            (line("pub more"), Some("required now too"))
        ]
    );
}
