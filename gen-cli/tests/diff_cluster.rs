//! What a real API server does to an existing object under the CRD changes `kubegen diff`
//! classifies with ratcheting (KEP-4008) and stored versions in mind, so the classification
//! (and its notes) match the server:
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p gen-cli --test diff_cluster -- --ignored
//! ```
//!
//! One CRD (`ratchets.diff.kubegen.test`), one object stored under its first schema; for each
//! change: the engine's verdict on the two CRDs, then what the server does with the object
//! (an update that leaves the offending value alone, one that changes it, a create, a read):
//! a lower maximum, a removed enum value and a CEL rule are ratcheted; a new required field
//! and a transition rule are not; a new default shows in stored objects as they are read; a
//! moved storage version stays in `status.storedVersions`, and dropping it is refused.
//! The CRD is deleted at the end. The API server is `kubegen::testing`'s; `kubectl` is the one
//! beside its binaries, else the first on `PATH`.

use std::time::{Duration, Instant};

mod support {
    pub mod control_plane;
}

use kubegen_core::diff::{Change, Class, Config, compare};
use serde_json::{Value, json};

const NAME: &str = "ratchets.diff.kubegen.test";

/// `kubectl` as the control plane's administrator, with `stdin`.
fn kubectl(args: &[&str], stdin: Option<&Value>) -> Result<String, String> {
    support::control_plane::kubectl(args, stdin.map(Value::to_string).as_deref())
}

/// A version whose `spec` has `properties`, `required` and `size`'s extra keywords.
fn version(name: &str, storage: bool, spec: &Value) -> Value {
    json!({
        "name": name, "served": true, "storage": storage,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}},
    })
}

fn crd(versions: Vec<Value>) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": NAME},
        "spec": {
            "group": "diff.kubegen.test",
            "scope": "Namespaced",
            "names": {"kind": "Ratchet", "plural": "ratchets", "singular": "ratchet", "listKind": "RatchetList"},
            "versions": versions,
        }
    })
}

/// The first schema of `spec`.
fn base_spec() -> Value {
    json!({
        "type": "object",
        "properties": {
            "size": {"type": "integer", "maximum": 10},
            "mode": {"type": "string", "enum": ["A", "B"]},
            "note": {"type": "string"},
            "label": {"type": "string"},
        },
    })
}

fn object(version: &str, name: &str, spec: Value) -> Value {
    json!({
        "apiVersion": format!("diff.kubegen.test/{version}"),
        "kind": "Ratchet",
        "metadata": {"name": name, "namespace": "default"},
        "spec": spec,
    })
}

/// The stored object `o1`: size 8, mode B, no label.
fn stored(note: &str) -> Value {
    object("v1", "o1", json!({"size": 8, "mode": "B", "note": note}))
}

fn apply_crd(crd: &Value) -> Result<String, String> {
    kubectl(&["apply", "--validate=false", "-f", "-"], Some(crd))
}

/// Applies `crd` and waits until the server validates with it: `probe` (dry run) gives
/// `probe_ok`.
fn switch_to(crd: &Value, probe: &Value, probe_ok: bool) {
    apply_crd(crd).unwrap();
    let start = Instant::now();
    loop {
        if create_dry(probe).is_ok() == probe_ok {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the new schema never took effect"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

fn create_dry(obj: &Value) -> Result<String, String> {
    kubectl(
        &["create", "--dry-run=server", "--validate=false", "-f", "-"],
        Some(obj),
    )
}

fn update(obj: &Value) -> Result<String, String> {
    kubectl(&["replace", "--validate=false", "-f", "-"], Some(obj))
}

/// The one change of `rule` from `old` to `new`.
fn the_change(old: &Value, new: &Value, rule: &str) -> Change {
    let changes = compare(old, new, &Config::default());
    let mut of_rule: Vec<Change> = changes.into_iter().filter(|c| c.rule == rule).collect();
    assert_eq!(of_rule.len(), 1, "{rule}: {of_rule:?}");
    of_rule.remove(0)
}

struct Cleanup;

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = kubectl(
            &["delete", "crd", NAME, "--ignore-not-found", "--wait=true"],
            None,
        );
    }
}

#[test]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true; and kubectl"]
fn the_server_ratchets_what_the_notes_say_and_refuses_to_drop_a_stored_version() {
    let _ = kubectl(
        &["delete", "crd", NAME, "--ignore-not-found", "--wait=true"],
        None,
    );
    let _cleanup = Cleanup;
    let base = crd(vec![version("v1", true, &base_spec())]);
    let big = object("v1", "probe", json!({"size": 8, "mode": "B"}));
    switch_to(&base, &big, true);
    kubectl(
        &["create", "--validate=false", "-f", "-"],
        Some(&stored("a")),
    )
    .unwrap();

    // A lower maximum: breaking, ratcheted.
    let mut spec = base_spec();
    spec["properties"]["size"]["maximum"] = json!(5);
    let lower = crd(vec![version("v1", true, &spec)]);
    let change = the_change(&base, &lower, "maximum");
    assert_eq!(change.class, Class::Breaking);
    assert!(change.note.unwrap().contains("ratcheted"));
    switch_to(&lower, &big, false);
    update(&stored("b")).expect("an update that leaves size alone is ratcheted");
    let err = update(&object(
        "v1",
        "o1",
        json!({"size": 9, "mode": "B", "note": "b"}),
    ))
    .unwrap_err();
    assert!(err.contains("spec.size"), "{err}");

    // An enum value removed: breaking, ratcheted.
    switch_to(&base, &big, true);
    let mut spec = base_spec();
    spec["properties"]["mode"]["enum"] = json!(["A"]);
    let fewer = crd(vec![version("v1", true, &spec)]);
    let change = the_change(&base, &fewer, "enum");
    assert_eq!(change.class, Class::Breaking);
    assert!(change.note.unwrap().contains("ratcheted"));
    switch_to(&fewer, &object("v1", "probe", json!({"mode": "B"})), false);
    update(&stored("c")).expect("an update that leaves mode alone is ratcheted");
    assert!(create_dry(&object("v1", "o2", json!({"mode": "B"}))).is_err());

    // A new required field: breaking, and not ratcheted.
    switch_to(&base, &big, true);
    let mut spec = base_spec();
    spec["required"] = json!(["label"]);
    let required = crd(vec![version("v1", true, &spec)]);
    let change = the_change(&base, &required, "required");
    assert_eq!(change.class, Class::Breaking);
    assert!(change.note.unwrap().contains("not covered by ratcheting"));
    switch_to(&required, &object("v1", "probe", json!({"size": 1})), false);
    let err = update(&stored("d")).unwrap_err();
    assert!(err.contains("spec.label"), "{err}");

    // A CEL rule on `size`: a warning, ratcheted.
    switch_to(&base, &big, true);
    let mut spec = base_spec();
    spec["properties"]["size"]["x-kubernetes-validations"] = json!([{"rule": "self <= 5"}]);
    let cel = crd(vec![version("v1", true, &spec)]);
    let change = the_change(&base, &cel, "cel");
    assert_eq!(change.class, Class::Warning);
    assert!(change.note.unwrap().contains("ratcheted"));
    switch_to(&cel, &big, false);
    update(&stored("e")).expect("an update that leaves size alone is ratcheted");

    // A transition rule (it uses oldSelf): a warning, and not ratcheted: an update that leaves
    // `size` alone fails it (creates skip transition rules, so the test waits on the update).
    switch_to(&base, &big, true);
    let mut spec = base_spec();
    spec["properties"]["size"]["x-kubernetes-validations"] =
        json!([{"rule": "self == oldSelf + 1"}]);
    let transition = crd(vec![version("v1", true, &spec)]);
    let change = the_change(&base, &transition, "cel");
    assert_eq!(change.class, Class::Warning);
    assert!(change.note.unwrap().contains("not ratcheted"));
    apply_crd(&transition).unwrap();
    let start = Instant::now();
    let err = loop {
        match update(&stored("f")) {
            Err(e) => break e,
            Ok(_) => assert!(
                start.elapsed() < Duration::from_secs(60),
                "the transition rule was ratcheted"
            ),
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    assert!(err.contains("self == oldSelf + 1"), "{err}");

    // A default added: existing objects read with it.
    switch_to(&base, &big, true);
    let mut spec = base_spec();
    spec["properties"]["label"]["default"] = json!("gold");
    let defaulted = crd(vec![version("v1", true, &spec)]);
    let change = the_change(&base, &defaulted, "default");
    assert_eq!(change.class, Class::Breaking);
    assert!(
        change
            .note
            .unwrap()
            .contains("when it reads objects from etcd")
    );
    apply_crd(&defaulted).unwrap();
    let start = Instant::now();
    loop {
        let got: Value = serde_json::from_str(
            &kubectl(
                &[
                    "get",
                    "ratchets.diff.kubegen.test",
                    "o1",
                    "-n",
                    "default",
                    "-o",
                    "json",
                ],
                None,
            )
            .unwrap(),
        )
        .unwrap();
        if got["spec"]["label"] == "gold" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "never defaulted on read: {got}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }

    // The storage version moves to v2: a warning, and v1 stays a stored version...
    switch_to(&base, &big, true);
    let two = crd(vec![
        version("v1", false, &base_spec()),
        version("v2", true, &base_spec()),
    ]);
    let change = the_change(&base, &two, "storageVersionChange");
    assert_eq!(change.class, Class::Warning);
    apply_crd(&two).unwrap();
    let live: Value =
        serde_json::from_str(&kubectl(&["get", "crd", NAME, "-o", "json"], None).unwrap()).unwrap();
    assert_eq!(
        live["status"]["storedVersions"],
        json!(["v1", "v2"]),
        "{}",
        live["status"]
    );
    // ...so dropping v1 without a migration is refused, as `storedVersionRemoval` says.
    let only_v2 = crd(vec![version("v2", true, &base_spec())]);
    let change = the_change(&live, &only_v2, "storedVersionRemoval");
    assert_eq!(change.class, Class::Breaking);
    let err = apply_crd(&only_v2).unwrap_err();
    assert!(err.contains("storedVersions"), "{err}");
}
