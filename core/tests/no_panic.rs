//! The engine never panics, whatever the input (property tests; the fuzz targets in `fuzz/`
//! check the same properties for longer): every attribute's arguments mutated token by token
//! from those the fixtures write, arbitrary schema trees through the checks and the YAML
//! writer, whose output must read back to the same value, and Go regular expressions put
//! together from their pieces through the pattern checker.

#![cfg(all(feature = "parse", feature = "k8s"))]

mod support;

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Value};
use support::properties::{every_attribute, schema_checks, yaml_round_trip};
use syn::visit::Visit;

/// The arguments of every kubegen and serde attribute in the repository's API crates.
fn attribute_arguments() -> Vec<String> {
    struct Collect(Vec<String>);
    impl Visit<'_> for Collect {
        fn visit_attribute(&mut self, attr: &syn::Attribute) {
            let named = [
                "kube_marker",
                "rbac",
                "webhook",
                "webhook_configuration",
                "serde",
            ];
            if let syn::Meta::List(list) = &attr.meta
                && named.iter().any(|n| list.path.is_ident(n))
            {
                self.0.push(list.tokens.to_string());
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Collect(Vec::new());
    for dir in [
        "fixtures/cronjob/src",
        "fixtures/webhook/src",
        "fixtures/rbac/src",
        "operator/src/api",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).expect("a fixture folder") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                let file = syn::parse_file(&text).expect("a fixture parses");
                found.visit_file(&file);
            }
        }
    }
    found.0.sort();
    found.0.dedup();
    assert!(found.0.len() > 50, "attributes found: {}", found.0.len());
    found.0
}

/// A token-level edit: delete, duplicate or swap tokens of an attribute's arguments.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Insert(usize, &'static str),
}

/// Tokens worth inserting: punctuation that confuses a `key = value` list, and keys.
const NOISE: &[&str] = &[
    "=", ",", ";", "(", ")", "[", "]", "-", "!", "::", "\"\"", "1", "-1", "1.5e308", "true",
    "group", "items", "groups", "verbs", "mutating", "rename", "default", "flatten", "skip",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::Swap(i, j)),
        (any::<usize>(), proptest::sample::select(NOISE)).prop_map(|(i, t)| Edit::Insert(i, t)),
    ]
}

/// `args` split into tokens (groups kept whole: a mutated group stays balanced, so the
/// mutant reaches the parsers), with `edits` applied.
fn mutate(args: &str, edits: &[Edit]) -> String {
    let Ok(stream) = args.parse::<proc_macro2::TokenStream>() else {
        return args.to_owned();
    };
    let mut tokens: Vec<String> = stream.into_iter().map(|t| t.to_string()).collect();
    for e in edits {
        let n = tokens.len().max(1);
        match *e {
            Edit::Delete(i) if !tokens.is_empty() => {
                tokens.remove(i % n);
            }
            Edit::Duplicate(i) if !tokens.is_empty() => {
                let t = tokens[i % n].clone();
                tokens.insert(i % n, t);
            }
            Edit::Swap(i, j) if !tokens.is_empty() => tokens.swap(i % n, j % n),
            Edit::Insert(i, t) => tokens.insert(i % (tokens.len() + 1), t.to_owned()),
            _ => {}
        }
    }
    tokens.join(" ")
}

proptest! {
    #![proptest_config(Config { cases: 1500, failure_persistence: None, ..Config::default() })]

    #[test]
    fn mutated_attributes_give_results_not_panics(
        pick in any::<proptest::sample::Index>(),
        edits in proptest::collection::vec(edit(), 1..4),
    ) {
        let all = attribute_arguments_cached();
        let args = pick.get(all);
        every_attribute(&mutate(args, &edits));
    }
}

fn attribute_arguments_cached() -> &'static [String] {
    static ALL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    ALL.get_or_init(attribute_arguments)
}

/// Schema keywords, valid and not, so that trees read as [`kubegen_core::model::Schema`]s.
const KEYWORDS: &[&str] = &[
    "type",
    "format",
    "properties",
    "items",
    "additionalProperties",
    "required",
    "enum",
    "default",
    "example",
    "nullable",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "x-kubernetes-int-or-string",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
    "rule",
    "message",
    "messageExpression",
    "fieldPath",
    "reason",
    "optionalOldSelf",
    "a",
    "b",
    "apiVersion",
    "kind",
    "metadata",
];

/// String values a schema holds, and strings YAML could mistake for something else.
const WORDS: &[&str] = &[
    "object",
    "array",
    "string",
    "integer",
    "number",
    "boolean",
    "atomic",
    "set",
    "map",
    "granular",
    "int-or-string",
    "date-time",
    "self.a > 0",
    "self.b.size() < 3",
    "has(self.a) ? self.a : 'x'",
    "oldSelf == self",
    "self.all(x, x.startsWith('a'))",
    ".a",
    "^[a-z]+$",
    "",
    " ",
    "yes",
    "no",
    "on",
    "off",
    "~",
    "null",
    "true",
    "1",
    "0x1F",
    "1e3",
    "-",
    "- a",
    ": ",
    "#",
    "'",
    "\"",
    "a\nb",
    "a\n",
    "\t",
    "é",
    "\u{1F600}",
    "-.inf",
    ".nan",
    "2001-12-14",
    "<<",
    "*a",
    "&a",
    "!tag",
    "%",
    "@",
    "`",
    "{",
    "[",
    "a: b",
    "key # c",
];

fn json(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        (-3i32..1000).prop_map(Value::from),
        proptest::sample::select(WORDS).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        2 => leaf,
        1 => proptest::collection::vec(json(depth - 1), 0..4).prop_map(Value::Array),
        3 => proptest::collection::vec(
            (prop_oneof![proptest::sample::select(KEYWORDS).prop_map(String::from), ".{0,6}"],
             json(depth - 1)),
            0..5,
        )
        .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(Config { cases: 1500, failure_persistence: None, ..Config::default() })]

    #[test]
    fn schema_trees_are_checked_and_written_without_panics(value in json(4)) {
        schema_checks(&value);
    }

    #[test]
    fn the_yaml_written_reads_back_the_same(value in json(3)) {
        yaml_round_trip(&value);
    }
}

/// Pieces of Go regular expressions, whole and cut short, for the pattern checker, which reads
/// a `pattern` by slicing it (`check::re2`).
const REGEX_PIECES: &[&str] = &[
    "a",
    "é",
    "\u{1F600}",
    ".",
    "^",
    "$",
    "|",
    "(",
    ")",
    "(?:",
    "(?P<",
    "(?<",
    "n>",
    ">",
    "(?i)",
    "(?-s:",
    "(?",
    "?",
    "*",
    "+",
    "*?",
    "{",
    "}",
    "{2}",
    "{2,}",
    "{1,3}",
    "{1001}",
    ",",
    "[",
    "]",
    "[^",
    "-",
    "[:alpha:]",
    "[[:digit:]]",
    "[:",
    ":]",
    "\\d",
    "\\p{Greek}",
    "\\pL",
    "\\P{",
    "\\p",
    "\\Q",
    "\\E",
    "\\x{41}",
    "\\x4",
    "\\x",
    "\\0",
    "\\123",
    "\\C",
    "\\z",
    "\\b",
    "\\8",
    "\\",
    "\\\\",
];

proptest! {
    #![proptest_config(Config { cases: 3000, failure_persistence: None, ..Config::default() })]

    /// Any pattern gets a verdict (compiled or an error), never a panic.
    #[test]
    fn regex_patterns_get_a_verdict(pieces in proptest::collection::vec(proptest::sample::select(REGEX_PIECES), 0..12)) {
        let _ = kubegen_core::check::re2::compile(&pieces.concat());
    }
}

/// CEL calls with too few or too many arguments, macros without their variable, indexes out of
/// range: every rule, on every node of a schema, is judged without a panic.
#[test]
fn cel_rules_at_the_edges_of_their_grammar() {
    let rules = [
        "dyn()",
        "dyn(1, 2)",
        "int()",
        "string()",
        "size()",
        "has()",
        "has(self)",
        "has(self.a.b)",
        "self.all(x)",
        "self.all()",
        "self.exists(x, y)",
        "self.exists_one()",
        "self.map()",
        "self.map(x, x, x, x)",
        "self.filter(1, true)",
        "self.b.all(x, y, z)",
        "self.b.transformList(i, v)",
        "self.b.transformList(i, v, w, x, y)",
        "self.c.transformMap(k)",
        "self.c.transformMapEntry(k, v, {k: v}, 1)",
        "self.b.sortBy()",
        "self.b.sortBy(x)",
        "optional.of()",
        "optional.none(1)",
        "self.?a.optMap()",
        "self.?a.optFlatMap(x)",
        "self.b[3]",
        "self.b[-1]",
        "[1, 2][5]",
        "{1: 2}[3]",
        "self.c['x']",
        "'a'.matches()",
        "'a'.matches('(')",
        "'a'.find('[')",
        "duration()",
        "duration('x')",
        "timestamp('x')",
        "quantity()",
        "quantity('1Ki').add()",
        "url()",
        "ip()",
        "cidr('x')",
        "isURL()",
        "format.named()",
        "format.named('x').validate()",
        "self.b.indexOf()",
        "self.b.join()",
        "'a'.split()",
        "lists.range()",
        "sets.contains()",
        "math.greatest()",
        "math.least(1, 2, 3)",
        "self.a.bitOr()",
        "strings.quote()",
        "base64.encode()",
        "oldSelf",
        "oldSelf.a",
        "self.__x__",
        "self.a < oldSelf",
        "x",
        "self.c.all(k, self.c[k] > 0)",
        "self.b.all(x, x.matches(x))",
        "1 / 0",
        "1 % 0",
        "-9223372036854775808 / -1",
        "9223372036854775807 + 1",
        "18446744073709551615u + 1u",
        "1.0 / 0.0",
        "'\\u0000'",
        "self.b.map(x, self.b.map(y, self.b.map(z, z)))",
        "self.e.f.g.h",
        "self.a.b()",
    ];
    let schema: kubegen_core::model::Schema = serde_json::from_value(serde_json::json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "array", "items": {"type": "string"}},
            "c": {"type": "object", "additionalProperties": {"type": "integer"}},
            "e": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        },
    }))
    .expect("a schema");
    for rule in rules {
        let mut with = schema.clone();
        with.x_validations =
            vec![serde_json::from_value(serde_json::json!({"rule": rule})).expect("a rule")];
        let json = serde_json::to_value(&with).expect("a schema serializes");
        schema_checks(&json);
    }
}

/// Found by the fuzz target `schema`: a `maxLength` near `u64::MAX` overflowed the CEL cost
/// estimate (`maxLength * 4`). Bounds at the top of their range, on every kind of node, with
/// rules whose cost multiplies them.
#[test]
fn cel_costs_with_the_largest_bounds() {
    let max = u64::MAX;
    let schema = serde_json::json!({
        "type": "object",
        "maxProperties": max,
        "properties": {
            "s": {"type": "string", "maxLength": max},
            "i": {"x-kubernetes-int-or-string": true, "maxLength": max},
            "l": {"type": "array", "maxItems": max, "items": {"type": "string", "maxLength": max}},
            "m": {"type": "object", "maxProperties": max,
                  "additionalProperties": {"type": "array", "maxItems": max,
                                           "items": {"type": "string", "maxLength": max}}},
        },
        "x-kubernetes-validations": [
            {"rule": "self.s.matches(self.s) && self.s.size() > 0"},
            {"rule": "self.l.all(x, self.l.all(y, x.contains(y) && x.matches(y)))"},
            {"rule": "self.m.all(k, self.m[k].all(v, v.split(',').size() > 0))"},
            {"rule": "string(self.i).size() > 0 && self.l.join(',').size() > 0"},
        ],
    });
    schema_checks(&schema);
}
