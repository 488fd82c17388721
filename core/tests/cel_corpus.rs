//! The CEL ground truth (`tests/cel/`): the corpus of rules on small schemas and the verdicts a
//! real kube-apiserver gave on them (recorded by `cargo run -p cel-record`, see the book's "How parity is kept"). No
//! cluster here: this checks the data is whole and sound (every case has a verdict and the
//! verdict is the one its author expected, the corpus covers every family, every schema is
//! structural and every rule and message expression parses), and that kubegen's CEL check gives
//! every case the server's verdict class, and over-budget costs the server's factor.

use std::collections::{BTreeMap, BTreeSet};

use kubegen_core::check::structural;
use kubegen_core::model::Schema;
use serde::Deserialize;
use serde_json::Value;

const CORPUS: &str = include_str!("cel/corpus.yaml");
const VERDICTS: &str = include_str!("cel/verdicts.json");

/// The families the corpus must cover, each with at least [`MIN_PER_FAMILY`] cases.
const FAMILIES: &[&str] = &[
    "std",
    "macros",
    "has",
    "strings",
    "lists",
    "regex",
    "url",
    "quantity",
    "ip",
    "format",
    "semver",
    "optional",
    "int-or-string",
    "preserve-unknown",
    "embedded",
    "list-type",
    "transition",
    "message",
    "type-error",
    "unknown-field",
    "cost",
];
const MIN_PER_FAMILY: usize = 3;
const MIN_CASES: usize = 150;
const CLASSES: &[&str] = &[
    "accepted",
    "type",
    "cost-rule",
    "cost-message",
    "cost-total",
    "other",
];

#[derive(Deserialize)]
struct Corpus {
    cases: Vec<Case>,
}

/// One case, as documented at the top of `corpus.yaml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Case {
    name: String,
    family: String,
    schema: Value,
    #[serde(default)]
    at: String,
    rule: Option<String>,
    message: Option<String>,
    message_expression: Option<String>,
    optional_old_self: Option<bool>,
    rules: Option<Vec<Value>>,
    expect: String,
    #[allow(dead_code)]
    note: Option<String>,
}

impl Case {
    /// The case's schema with its rules added where they sit, as the recorder sends it.
    fn full_schema(&self) -> Value {
        let mut schema = self.schema.clone();
        let node = schema
            .pointer_mut(&self.at)
            .unwrap_or_else(|| panic!("{}: no node at `{}`", self.name, self.at));
        let rules = match &self.rules {
            Some(rules) => {
                assert!(
                    self.rule.is_none(),
                    "{}: both `rule` and `rules`",
                    self.name
                );
                rules.clone()
            }
            None => {
                let mut rule = serde_json::Map::new();
                let rule_text = self.rule.clone();
                rule.insert(
                    "rule".into(),
                    Value::from(rule_text.unwrap_or_else(|| panic!("{}: no rule", self.name))),
                );
                for (key, value) in [
                    ("message", self.message.clone().map(Value::from)),
                    (
                        "messageExpression",
                        self.message_expression.clone().map(Value::from),
                    ),
                    ("optionalOldSelf", self.optional_old_self.map(Value::from)),
                ] {
                    if let Some(value) = value {
                        rule.insert(key.into(), value);
                    }
                }
                vec![Value::Object(rule)]
            }
        };
        let list = node
            .as_object_mut()
            .unwrap_or_else(|| panic!("{}: `{}` is not a schema", self.name, self.at))
            .entry("x-kubernetes-validations")
            .or_insert_with(|| Value::Array(Vec::new()));
        list.as_array_mut().expect("a list").extend(rules);
        schema
    }
}

fn corpus() -> Vec<Case> {
    serde_saphyr::from_str::<Corpus>(CORPUS)
        .expect("corpus.yaml")
        .cases
}

fn verdicts() -> Value {
    serde_json::from_str(VERDICTS).expect("verdicts.json")
}

/// A verdict's class: `accepted`, or the class of the server's first cause.
fn class(verdict: &Value) -> &str {
    match verdict["verdict"].as_str() {
        Some("accepted") => "accepted",
        _ => verdict["class"].as_str().unwrap_or("(none)"),
    }
}

#[test]
fn corpus_is_large_and_covers_every_family() {
    let cases = corpus();
    assert!(
        cases.len() >= MIN_CASES,
        "{} cases, want {MIN_CASES}",
        cases.len()
    );
    let mut names = BTreeSet::new();
    let mut families: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &cases {
        assert!(
            names.insert(case.name.as_str()),
            "two cases named {}",
            case.name
        );
        assert!(
            FAMILIES.contains(&case.family.as_str()),
            "{}: unknown family {}",
            case.name,
            case.family
        );
        assert!(
            CLASSES.contains(&case.expect.as_str()),
            "{}: unknown expectation {}",
            case.name,
            case.expect
        );
        *families.entry(&case.family).or_default() += 1;
    }
    for family in FAMILIES {
        let n = families.get(family).copied().unwrap_or(0);
        assert!(
            n >= MIN_PER_FAMILY,
            "family {family}: {n} cases, want {MIN_PER_FAMILY}"
        );
    }
}

#[test]
fn every_case_has_the_verdict_its_author_expected() {
    let cases = corpus();
    let file = verdicts();
    for key in ["server", "recorded", "command"] {
        assert!(!file[key].is_null(), "verdicts.json has no `{key}`");
    }
    let verdicts = file["verdicts"].as_object().expect("`verdicts`");
    let names: BTreeSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    let stale: Vec<&String> = verdicts
        .keys()
        .filter(|k| !names.contains(k.as_str()))
        .collect();
    assert!(
        stale.is_empty(),
        "verdicts for no case (re-record): {stale:?}"
    );
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for case in &cases {
        let verdict = verdicts
            .get(&case.name)
            .unwrap_or_else(|| panic!("{}: no verdict (re-record)", case.name));
        let got = class(verdict);
        seen.insert(got.to_string());
        if got != case.expect {
            wrong.push(format!(
                "{}: expected {}, the server said {got}",
                case.name, case.expect
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for class in CLASSES {
        assert!(seen.contains(*class), "no case the server classed {class}");
    }
}

#[test]
fn the_examples_of_issue_10_are_there_verbatim() {
    let cases = corpus();
    let file = verdicts();
    let examples = [
        (
            "self.all(l, l.all(s, s.startsWith('a')))",
            None,
            "cost-rule",
        ),
        (
            "self.min <= self.max",
            Some("'range too wide: ' + string(self.max - self.min)"),
            "cost-message",
        ),
        ("self.min <= self.max", Some("string(self.max)"), "accepted"),
        (
            "self.min <= self.max",
            Some("'range too wide: ' + (self.max > 1000 ? 'far' : 'near')"),
            "accepted",
        ),
        ("self + 'a' > 0", None, "type"),
        (
            "self.all(s, self.exists(t, t == s + 'x'))",
            None,
            "cost-rule",
        ),
    ];
    for (rule, message, want) in examples {
        let found = cases.iter().any(|c| {
            c.rule.as_deref() == Some(rule)
                && c.message_expression.as_deref() == message
                && class(&file["verdicts"][&c.name]) == want
        });
        assert!(found, "no case `{rule}` / {message:?} recorded as {want}");
    }
}

#[test]
fn every_schema_is_structural() {
    for case in corpus() {
        let full = case.full_schema();
        let schema: Schema = serde_json::from_value(full.clone())
            .unwrap_or_else(|e| panic!("{}: not a schema: {e}", case.name));
        assert_eq!(
            numbers_as_floats(serde_json::to_value(&schema).unwrap()),
            numbers_as_floats(full),
            "{}: keywords lost reading the schema",
            case.name
        );
        let problems = structural::violations(&schema);
        assert!(problems.is_empty(), "{}: {problems:?}", case.name);
    }
}

/// Every rule and message expression of the case parses (the server's compile errors in the
/// corpus are type errors, not syntax errors).
#[cfg(feature = "cel")]
#[test]
fn every_rule_parses() {
    use kubegen_core::check::cel::syntax_error;

    fn walk(name: &str, s: &Schema) {
        for rule in &s.x_validations {
            let expressions = std::iter::once(&rule.rule).chain(&rule.message_expression);
            for expression in expressions {
                if let Some(e) = syntax_error(expression) {
                    panic!("{name}: `{expression}`: {e}");
                }
            }
        }
        let children = s.properties.values();
        for child in children
            .chain(s.items.as_deref())
            .chain(s.additional_properties.as_deref())
        {
            walk(name, child);
        }
    }
    for case in corpus() {
        let schema: Schema = serde_json::from_value(case.full_schema()).unwrap();
        walk(&case.name, &schema);
    }
}

/// The CRD root the recorder sends a case in: the case's schema as `spec`.
#[cfg(feature = "cel")]
fn crd_root(case: &Case) -> Schema {
    let root = serde_json::json!({"type": "object", "properties": {"spec": case.full_schema()}});
    serde_json::from_value(root).expect("a schema")
}

/// kubegen gives every case the class of the server's first cause (or accepts it), and for an
/// over-budget rule, message expression or total the server's factor, to the digit.
#[cfg(feature = "cel")]
#[test]
fn kubegen_agrees_with_the_server_on_every_case() {
    use kubegen_core::check::cel::{Scope, check};

    let file = verdicts();
    let mut disagree = Vec::new();
    let cases = corpus();
    for case in &cases {
        let scope = Scope {
            resource: true,
            lenient: false,
        };
        let report = check(&crd_root(case), scope);
        let verdict = &file["verdicts"][&case.name];
        let ours = report
            .errors
            .first()
            .map_or("accepted", |p| p.class.as_str());
        let server = class(verdict);
        if ours != server {
            let why = report.errors.first().map(ToString::to_string);
            disagree.push(format!(
                "{}: server {server}, kubegen {ours} ({})",
                case.name,
                why.unwrap_or_default()
            ));
            continue;
        }
        // The server words the factor of a rule or message expression on its first cause,
        // and the CRD-wide total's on its last.
        let causes = verdict["causes"].as_array().into_iter().flatten();
        let factor = causes.filter_map(|c| c["factor"].as_str()).next();
        if let (Some(p), Some(factor)) = (report.errors.first(), factor) {
            let ours = p.message.split("by factor of ").nth(1).unwrap_or("");
            if !ours.starts_with(factor) {
                disagree.push(format!(
                    "{}: server factor {factor}, kubegen: {}",
                    case.name, p.message
                ));
            }
        }
    }
    assert!(
        disagree.is_empty(),
        "{} of {} cases disagree:\n{}",
        disagree.len(),
        cases.len(),
        disagree.join("\n")
    );
}

/// `value` with every number as a float (`maximum: 1000` reads back as `1000.0`).
fn numbers_as_floats(value: Value) -> Value {
    match value {
        Value::Number(n) => Value::from(n.as_f64().unwrap()),
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_floats).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, numbers_as_floats(v)))
                .collect(),
        ),
        other => other,
    }
}
