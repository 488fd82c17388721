//! CEL at run time (`tests/cel/runtime.yaml`): rules the API server accepts, and what it did
//! with objects that have or lack the optional fields they read (recorded into
//! `tests/cel/runtime-verdicts.json` by `cargo run -p cel-record`, see the book's "How parity is kept"). No cluster
//! here: every object has a verdict, the one its author expected, and kubegen warns about a
//! rule exactly for the fields whose absence made the server refuse an object ("no such key").
#![cfg(feature = "cel")]

use std::collections::BTreeSet;

use kubegen_core::check::cel::{Class, Scope, check};
use kubegen_core::model::Schema;
use serde::Deserialize;
use serde_json::{Map, Value};

const CORPUS: &str = include_str!("cel/runtime.yaml");
const VERDICTS: &str = include_str!("cel/runtime-verdicts.json");

#[derive(Deserialize)]
struct Corpus {
    cases: Vec<Case>,
}

/// One case, as documented at the top of `runtime.yaml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    schema: Value,
    #[serde(default)]
    at: String,
    rule: String,
    objects: Map<String, Value>,
    expect: Map<String, Value>,
    #[allow(dead_code)]
    note: Option<String>,
}

impl Case {
    /// The CRD root the recorder sends: the case's schema as `spec`, its rule at `at`.
    fn root(&self) -> Schema {
        let mut spec = self.schema.clone();
        let node = spec
            .pointer_mut(&self.at)
            .unwrap_or_else(|| panic!("{}: no node at `{}`", self.name, self.at));
        node["x-kubernetes-validations"] = serde_json::json!([{"rule": self.rule}]);
        let root = serde_json::json!({"type": "object", "properties": {"spec": spec}});
        serde_json::from_value(root).expect("a schema")
    }
}

fn corpus() -> Vec<Case> {
    serde_saphyr::from_str::<Corpus>(CORPUS).unwrap().cases
}

fn verdicts() -> Value {
    serde_json::from_str(VERDICTS).unwrap()
}

/// The field the server found missing: `no such key: strategy evaluating rule: ...`.
fn missing_key(message: &str) -> Option<String> {
    let rest = message.split("no such key: ").nth(1)?;
    Some(rest.split(' ').next()?.to_string())
}

#[test]
fn every_object_has_the_verdict_its_author_expected() {
    let file = verdicts();
    let mut wrong = Vec::new();
    let cases = corpus();
    for case in &cases {
        assert_eq!(
            case.objects.keys().collect::<Vec<_>>(),
            case.expect.keys().collect::<Vec<_>>(),
            "{}: every object has an `expect`",
            case.name
        );
        for (object, expect) in &case.expect {
            let got = &file["verdicts"][&case.name][object]["verdict"];
            if got != expect {
                wrong.push(format!(
                    "{}/{object}: expected {expect}, the server said {got}",
                    case.name
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "re-record or fix:\n{}", wrong.join("\n"));
    let refusals = |class: &str| {
        let file = &file;
        cases
            .iter()
            .filter(move |c| {
                c.objects
                    .keys()
                    .any(|o| file["verdicts"][&c.name][o]["verdict"] == class)
            })
            .count()
    };
    assert!(cases.len() >= 20, "{} cases", cases.len());
    assert!(refusals("no-such-key") >= 8 && refusals("accepted") >= 15);
}

/// kubegen warns about the reads of a rule's optional fields: for each case, the fields it
/// names are the keys the server found missing in the case's objects, no more, no fewer.
#[test]
fn kubegen_warns_exactly_where_the_server_found_no_such_key() {
    let file = verdicts();
    let mut disagree = Vec::new();
    for case in corpus() {
        let scope = Scope {
            resource: true,
            lenient: false,
        };
        let report = check(&case.root(), scope);
        assert!(
            report.errors.is_empty(),
            "{}: {:?}",
            case.name,
            report.errors
        );
        let warned: BTreeSet<String> = report
            .warnings
            .iter()
            .filter(|w| w.class == Class::NoSuchKey)
            .map(|w| {
                let read = w.message.split("reads `").nth(1).unwrap_or_default();
                let read = read.split('`').next().unwrap_or_default();
                read.rsplit('.').next().unwrap_or_default().to_string()
            })
            .collect();
        let missing: BTreeSet<String> = case
            .objects
            .keys()
            .filter_map(|o| file["verdicts"][&case.name][o]["message"].as_str())
            .filter_map(missing_key)
            .collect();
        if warned != missing {
            disagree.push(format!(
                "{}: the server found no {missing:?}, kubegen warns of {warned:?}",
                case.name
            ));
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}
