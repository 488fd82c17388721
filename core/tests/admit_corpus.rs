//! kubegen's admission (`check::admit`) against a real kube-apiserver's verdicts on the objects
//! of `core/tests/admit/corpus.yaml` (`core/tests/admit/verdicts.json`, recorded by
//! `tools/cel-record`, never edited): the same verdict on every object, the same causes (field,
//! type and message, compared as sets: the server orders sibling fields at random), the same
//! stored `spec` and the same warnings (unknown fields, ratcheted rule failures).

#![cfg(feature = "admit")]

use std::collections::BTreeSet;

use kubegen_core::check::admit::Validator;
use kubegen_core::model::Schema;
use serde_json::{Value, json};

/// Objects whose comparison is known to differ (`case/object`, or `case/` for all of a
/// case's objects), with the reason.
const ALLOWED: &[(&str, &str)] = &[
    (
        "probe-time/v2-2024-02-29t23-59-59-01-00",
        "the `cel` crate's string.format writes a timestamp in UTC (`%s`); cel-go keeps its \
         offset (`2024-03-01T00:59:59+01:00`)",
    ),
    (
        "cost-short-circuit/thousand",
        "the per-call cost limit is enforced on an estimate from the value's sizes, a worst \
         case: an `exists` that finds its match at once costs the server little, kubegen \
         refuses it as if it ran to the end",
    ),
    (
        "probe-format/",
        "the `cel` crate's string.format writes %e as 1.0e+00 and %f without digit grouping; \
         cel-go writes 1.000000×10⁰⁰ and 1,000,000.000000",
    ),
    (
        "probe-format-strings/",
        "the `cel` crate's string.format writes a list's strings unquoted; cel-go quotes them",
    ),
    (
        "probe-quantity/v10-9223372036854775807",
        "isInteger is true only for quantities resource.Quantity holds as int64 (not 19 digits)",
    ),
    (
        "probe-quantity/v20-1ei",
        "isInteger: 1Ei is held as an inf.Dec by resource.Quantity, so not an integer",
    ),
    (
        "probe-quantity/v24-1-5gi",
        "isInteger: a binary-suffixed fraction is held as an inf.Dec, so not an integer",
    ),
    (
        "probe-quantity/v28-0-5mi",
        "isInteger: a binary-suffixed fraction is held as an inf.Dec, so not an integer",
    ),
    (
        "embedded/free-metadata-unknown",
        "an embedded resource's metadata is not pruned to ObjectMeta's fields",
    ),
];

fn read(path: &str) -> String {
    let full = format!("{}/tests/admit/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn object(name: &str, spec: &Value) -> Value {
    json!({"apiVersion": "admit.kubegen.test/v1", "kind": "C", "metadata": {"name": name}, "spec": spec})
}

/// The server's warning (`299 - "unknown field \"spec.x\""`) as its text.
fn warning_text(w: &str) -> String {
    let quoted = w.split_once(" - ").map_or(w, |(_, q)| q);
    serde_json::from_str::<String>(quoted).unwrap_or_else(|_| quoted.to_string())
}

#[test]
fn kubegen_admits_and_refuses_every_object_as_the_server_did() {
    let corpus: Value = serde_saphyr::from_str(&read("corpus.yaml")).unwrap();
    let recorded: Value = serde_json::from_str(&read("verdicts.json")).unwrap();
    let (mut objects, mut refused) = (0, 0);
    let mut differences = Vec::new();
    for case in corpus["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let spec: Schema = serde_json::from_value(case["schema"].clone()).unwrap();
        let mut root = Schema::typed("object");
        root.properties.insert("spec".into(), spec);
        let validator = Validator::new(root).unwrap();
        for (object_name, entry) in case["admission"].as_object().unwrap() {
            let id = format!("{name}/{object_name}");
            let server = &recorded["verdicts"][name][object_name];
            assert!(
                server.is_object(),
                "{id}: no recorded verdict (record again)"
            );
            objects += 1;
            let named = entry["name"].as_str().unwrap_or(object_name);
            let old = entry.get("old").map(|o| object(named, o));
            let got = validator.admit(&object(named, &entry["spec"]), old.as_ref());
            let ours: BTreeSet<(String, String, String)> = got
                .errors
                .iter()
                .map(|e| (e.field.clone(), e.reason.cause_type().to_string(), e.body()))
                .collect();
            let theirs: BTreeSet<(String, String, String)> = server["causes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| {
                    let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
                    (text("field"), text("reason"), text("message"))
                })
                .collect();
            let mut problems = Vec::new();
            if ours != theirs {
                problems.push(format!("causes: kubegen {ours:#?}, the server {theirs:#?}"));
            }
            if server["verdict"] == "accepted" {
                if got.object["spec"] != server["spec"] {
                    problems.push(format!(
                        "stored spec: kubegen {}, the server {}",
                        got.object["spec"], server["spec"]
                    ));
                }
                let warnings: BTreeSet<String> = server["warnings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(warning_text)
                    .collect();
                let ours: BTreeSet<String> = got
                    .unknown_fields
                    .iter()
                    .map(|f| format!("unknown field {f:?}"))
                    .chain(got.ratcheted_rules.iter().map(ToString::to_string))
                    .collect();
                if warnings != ours {
                    problems.push(format!(
                        "warnings: kubegen {ours:?}, the server {warnings:?}"
                    ));
                }
            } else {
                refused += 1;
            }
            let allowed = ALLOWED
                .iter()
                .any(|(a, _)| *a == id || a.ends_with('/') && id.starts_with(a));
            if !problems.is_empty() && !allowed {
                differences.push(format!("{id}:\n  {}", problems.join("\n  ")));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{} objects differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
    assert!(objects >= 500, "{objects} objects");
    assert!(
        refused * 10 >= objects * 6,
        "{refused} of {objects} refused"
    );
    eprintln!("{objects} objects, {refused} refused by the server and by kubegen");
}
