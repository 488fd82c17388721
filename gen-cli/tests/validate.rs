//! `kubegen validate` on the bundled operator's samples (they pass) and on mutated copies in
//! a temporary folder (refused in the API server's words, at the value's `file:line:col`).

mod support {
    pub mod workspace;
}

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::workspace::{reports, stderr, stdout};

/// The workspace root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A temporary folder, removed when the test ends.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let dir =
            std::env::temp_dir().join(format!("kubegen-validate-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Temp(dir)
    }

    fn write(&self, name: &str, text: &str) -> String {
        fs::write(self.0.join(name), text).unwrap();
        name.to_string()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn kubegen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kubegen"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `kubegen validate --crd <the operator's CRDs> args...` in `dir`.
fn validate(dir: &Path, args: &[&str]) -> Output {
    let crds = repo().join("operator/config/crd/bases");
    let mut all = vec!["validate", "--crd", crds.to_str().unwrap()];
    all.extend_from_slice(args);
    kubegen(dir, &all)
}

const V1BETA1: &str = "apiVersion: cache.example.com/v1beta1
kind: Memcached
metadata:
  name: sample
spec:
  replicas: 2
  image: memcached
";

#[test]
fn the_operator_samples_pass_against_the_crds_its_sources_generate() {
    let out = kubegen(
        &repo(),
        &[
            "validate",
            "-p",
            "memcached-operator",
            "operator/config/samples/",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("validated 2 objects"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn mutated_samples_are_refused_in_the_servers_words_at_the_value() {
    let t = Temp::new("mutated");
    let bad = V1BETA1
        .replace("replicas: 2", "replicas: 9")
        .replace("image: memcached", "image: \"  \"\n  containerPort: web");
    let file = t.write("bad.yaml", &format!("{V1BETA1}---\n{bad}"));
    let out = validate(&t.0, &[&file]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        reports(
            &err,
            "bad.yaml:14:13",
            "spec.replicas: Invalid value: 9: spec.replicas in body should be less than or equal to 5"
        ),
        "{err}"
    );
    assert!(
        reports(
            &err,
            "bad.yaml:16:18",
            r#"spec.containerPort: Invalid value: "string": spec.containerPort in body must be of type integer: "string""#
        ),
        "{err}"
    );
    // A type error skips the rules, as the server does.
    assert!(
        err.contains("some validation rules were not checked"),
        "{err}"
    );
    assert!(!err.contains("image must not be blank"), "{err}");

    let blank = t.write(
        "blank.yaml",
        &V1BETA1.replace("image: memcached", "image: \"  \""),
    );
    let err = stderr(&validate(&t.0, &[&blank]));
    assert!(
        reports(
            &err,
            "blank.yaml:7:10",
            r#"spec.image: Invalid value: "  ": image must not be blank"#
        ),
        "{err}"
    );
}

#[test]
fn unknown_kinds_are_reported_and_unknown_fields_warned_or_refused() {
    let t = Temp::new("unknown");
    let other = t.write(
        "other.yaml",
        &V1BETA1.replace("kind: Memcached", "kind: Redis"),
    );
    let out = validate(&t.0, &[&other]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        reports(
            &stderr(&out),
            "other.yaml:1:1",
            "no CRD defines kind `Redis` in `cache.example.com/v1beta1`"
        ),
        "{}",
        stderr(&out)
    );

    let extra = t.write(
        "extra.yaml",
        &V1BETA1.replace("  replicas: 2", "  replicas: 2\n  bogus: 1\n  replicas: 3"),
    );
    let lenient = validate(&t.0, &[&extra]);
    assert!(lenient.status.success(), "{}", stderr(&lenient));
    assert!(reports(
        &stderr(&lenient),
        "extra.yaml:7:10",
        r#"unknown field "spec.bogus""#
    ));
    assert!(reports(
        &stderr(&lenient),
        "extra.yaml:8:13",
        r#"duplicate field "spec.replicas""#
    ));
    let strict = validate(&t.0, &["--strict", &extra]);
    assert_eq!(strict.status.code(), Some(1));
    let err = stderr(&strict);
    assert!(
        err.contains(r#"error: strict decoding error: unknown field "spec.bogus""#),
        "{err}"
    );
    assert!(
        err.contains(r#"error: strict decoding error: duplicate field "spec.replicas""#),
        "{err}"
    );
}

#[test]
fn print_defaulted_writes_the_object_as_the_server_stores_it() {
    let t = Temp::new("defaulted");
    let file = t.write(
        "s.yaml",
        &V1BETA1.replace("  image: memcached\n", "  bogus: true\n"),
    );
    let out = validate(&t.0, &["--print-defaulted", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stored: serde_json::Value = serde_saphyr::from_str(&stdout(&out)).unwrap();
    assert_eq!(stored["spec"]["image"], "memcached:1.6.26-alpine3.19");
    assert_eq!(stored["spec"]["containerPort"], 11211);
    assert!(stored["spec"].get("bogus").is_none());
}

#[test]
fn updates_run_transition_rules_and_ratchet_unchanged_values() {
    let t = Temp::new("update");
    let crd = t.write(
        "crd.yaml",
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.x.io}
spec:
  group: x.io
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              name: {type: string, maxLength: 3}
            x-kubernetes-validations:
            - rule: self.size >= oldSelf.size
              message: size may not shrink
",
    );
    let widget = |size: u32, name: &str| {
        format!(
            "apiVersion: x.io/v1\nkind: Widget\nmetadata: {{name: w}}\nspec:\n  size: {size}\n  name: {name}\n"
        )
    };
    let old = t.write("old.yaml", &widget(3, "long"));
    let smaller = t.write("new.yaml", &widget(2, "long"));
    let run = |file: &str| kubegen(&t.0, &["validate", "--crd", &crd, "--old", &old, file]);
    let out = run(&smaller);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        reports(
            &err,
            "new.yaml:5:3",
            "spec: Invalid value: size may not shrink"
        ),
        "{err}"
    );
    // `name` is too long in both: ratcheted, a warning.
    assert!(
        err.contains("warning: spec.name: Too long: may not be more than 3 bytes (ratcheted"),
        "{err}"
    );
    let same = run(&old);
    assert!(same.status.success(), "{}", stderr(&same));
    // Without the old object, the too-long name is refused.
    let create = kubegen(&t.0, &["validate", "--crd", &crd, &smaller]);
    assert_eq!(create.status.code(), Some(1));
}

#[test]
fn json_diagnostics_carry_the_span() {
    let t = Temp::new("json");
    let file = t.write("j.yaml", &V1BETA1.replace("replicas: 2", "replicas: 0"));
    let out = validate(&t.0, &["--message-format", "json", &file]);
    assert_eq!(out.status.code(), Some(1));
    let first: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    let text = first.to_string();
    assert!(
        text.contains("should be greater than or equal to 1"),
        "{text}"
    );
    assert!(text.contains("\"line_start\":6"), "{text}");
}
