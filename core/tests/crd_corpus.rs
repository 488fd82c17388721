//! The differential corpus for CRD validation (`core/tests/crd/`): variants of one CRD, each
//! aimed at one rule the API server applies to CRDs. kubegen's verdict on each variant
//! (`check::crd::problems`) must be the API server's (the case's `expect`, which the verdicts
//! recorded from a real server by `tools/cel-record` must confirm), except where kubegen is
//! stricter on purpose (`stricter`, with the reason).

use std::path::PathBuf;

use kubegen_core::check::crd::problems;
use serde_json::{Map, Value, json};

const SPEC_SCHEMA: &str = "/spec/versions/0/schema/openAPIV3Schema/properties/spec";

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/crd")
}

fn corpus() -> Value {
    let text = std::fs::read_to_string(dir().join("corpus.yaml")).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

fn pointer(key: &str) -> String {
    match key.strip_prefix('@') {
        Some(rest) => format!("{SPEC_SCHEMA}{rest}"),
        None => key.to_string(),
    }
}

/// The parent of `pointer` in `doc`, and the last step.
fn parent<'a>(doc: &'a mut Value, pointer: &str, case: &str) -> (&'a mut Value, String) {
    let (up, last) = pointer.rsplit_once('/').unwrap();
    let node = doc
        .pointer_mut(up)
        .unwrap_or_else(|| panic!("{case}: no node at `{up}`"));
    (node, last.replace("~1", "/").replace("~0", "~"))
}

/// The case's CRD: the base with the case's removals and settings.
fn variant(base: &Value, case: &Value) -> Value {
    let name = case["name"].as_str().unwrap();
    let mut crd = base.clone();
    for key in case["remove"].as_array().into_iter().flatten() {
        let (node, last) = parent(&mut crd, &pointer(key.as_str().unwrap()), name);
        let removed = match node {
            Value::Object(map) => map.remove(&last).is_some(),
            Value::Array(items) => last.parse().is_ok_and(|i: usize| {
                i < items.len() && {
                    items.remove(i);
                    true
                }
            }),
            _ => false,
        };
        assert!(removed, "{name}: nothing to remove at {key}");
    }
    let set = case["set"].as_object().cloned().unwrap_or_default();
    for (key, value) in &set {
        let (node, last) = parent(&mut crd, &pointer(key), name);
        match node {
            Value::Object(map) => {
                map.insert(last, value.clone());
            }
            Value::Array(items) => {
                let i: usize = last.parse().unwrap();
                if i == items.len() {
                    items.push(value.clone());
                } else {
                    items[i] = value.clone();
                }
            }
            _ => panic!("{name}: cannot set {key}"),
        }
    }
    if !set.contains_key("/metadata/name") {
        let spec = &crd["spec"];
        let full = format!(
            "{}.{}",
            spec["names"]["plural"].as_str().unwrap_or_default(),
            spec["group"].as_str().unwrap_or_default()
        );
        crd["metadata"]["name"] = Value::String(full);
    }
    crd
}

/// Every case with its CRD, as `variants.json` holds them: one case a line.
fn variants() -> String {
    let corpus = corpus();
    let cases: Vec<String> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let line = json!({
                "name": case["name"],
                "rule": case["rule"],
                "crd": variant(&corpus["base"], case),
            });
            line.to_string()
        })
        .collect();
    format!("{{\"cases\": [\n{}\n]}}\n", cases.join(",\n"))
}

#[test]
fn variants_json_is_generated_from_the_corpus() {
    let path = dir().join("variants.json");
    let generated = variants();
    if std::env::var_os("KUBEGEN_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: run `KUBEGEN_BLESS=1 cargo test -p kubegen-core --all-features --test \
         crd_corpus`, then re-record the verdicts (the book's \"The admission corpus\": docs/book/src/internals/admission-corpus.md)",
        path.display()
    );
}

#[test]
fn the_corpus_covers_each_rule_with_both_verdicts() {
    let corpus = corpus();
    let cases = corpus["cases"].as_array().unwrap();
    let mut names: Vec<&str> = cases.iter().map(|c| c["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "case names are unique");
    for case in cases {
        let expect = case["expect"].as_str();
        assert!(
            matches!(expect, Some("accepted" | "rejected")),
            "{}: expect {expect:?}",
            case["name"]
        );
        if case.get("stricter").is_some() {
            assert_eq!(
                expect,
                Some("accepted"),
                "{}: stricter than an acceptance",
                case["name"]
            );
        }
    }
    let rejected = cases.iter().filter(|c| c["expect"] == "rejected").count();
    assert!(
        cases.len() >= 100 && rejected >= 50,
        "{} cases, {rejected} rejected",
        cases.len()
    );
}

#[test]
fn kubegen_gives_each_variant_the_servers_verdict_or_is_stricter_on_purpose() {
    let corpus = corpus();
    let mut wrong = Vec::new();
    for case in corpus["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let found = problems(&variant(&corpus["base"], case));
        let server_accepts = case["expect"] == "accepted";
        let kubegen_accepts = found.is_empty();
        let stricter = case.get("stricter").is_some();
        let agrees = if stricter {
            !kubegen_accepts
        } else {
            kubegen_accepts == server_accepts
        };
        if !agrees {
            wrong.push(format!(
                "{name}: the API server {}, kubegen {}{}: {found:?}",
                if server_accepts { "accepts" } else { "refuses" },
                if kubegen_accepts {
                    "accepts"
                } else {
                    "refuses"
                },
                if stricter {
                    " (it should be stricter)"
                } else {
                    ""
                },
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cases:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// kubegen refuses the protected-group cases the server refuses for the reason the server gives
/// (the missing or invalid `api-approved.kubernetes.io` annotation), with the fix.
#[test]
fn protected_groups_are_refused_for_their_approval_annotation() {
    let corpus = corpus();
    let cases: Vec<&Value> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["rule"] == "protected groups")
        .collect();
    assert!(cases.len() >= 6, "{} protected-group cases", cases.len());
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let found = problems(&variant(&corpus["base"], case));
        if case["expect"] == "rejected" {
            let [problem] = found.as_slice() else {
                panic!("{name}: one problem, not {found:?}");
            };
            assert!(
                problem.contains("api-approved.kubernetes.io") && problem.contains("unapproved"),
                "{name}: {problem}"
            );
        } else {
            assert_eq!(found, Vec::<String>::new(), "{name}");
        }
    }
}

#[test]
fn the_recorded_verdicts_are_the_expected_ones() {
    let path = dir().join("verdicts.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: record it against a real API server (the book's \"The admission \
             corpus\")",
            path.display()
        )
    });
    let recorded: Value = serde_json::from_str(&text).unwrap();
    let verdicts: &Map<String, Value> = recorded["verdicts"].as_object().unwrap();
    let mut wrong = Vec::new();
    for case in corpus()["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        match verdicts.get(name) {
            None => wrong.push(format!("{name}: not recorded")),
            Some(v) if v["verdict"] != case["expect"] => wrong.push(format!(
                "{name}: expects {}, the server said {} {}",
                case["expect"], v["verdict"], v["causes"]
            )),
            Some(_) => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cases:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
