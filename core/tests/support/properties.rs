//! The engine's robustness properties, shared by the property tests (`no_panic.rs`, in CI) and
//! the fuzz targets (`fuzz/`, which include this file): each function panics when its
//! property fails.

#![allow(dead_code)] // each user calls its own part

use kubegen_core::check::cel::{self, Scope};
use kubegen_core::check::value::{self, Admission};
use kubegen_core::check::{field_path, structural};
use kubegen_core::model::Schema;
use kubegen_core::parse::markers::Place;
use kubegen_core::parse::{rbac, typedef, webhook};
use kubegen_core::render::to_yaml;
use serde_json::Value;

/// Every attribute parser of the engine on `args`, the tokens inside an attribute's
/// parentheses: `#[rbac]`, `#[webhook]`, `#[webhook_configuration]`, and `#[kube_marker]` and
/// serde's on a spec struct, a type, their fields and an enum's variants. Each returns a
/// result; every error `#[rbac]` and `#[webhook]` give is at a token.
pub fn every_attribute(args: &str) {
    let Ok(tokens) = args.parse::<proc_macro2::TokenStream>() else {
        return;
    };
    for (attribute, result) in [
        ("rbac", rbac::parse(tokens.clone()).map(drop)),
        ("webhook", webhook::parse(tokens.clone()).map(drop)),
        (
            "webhook_configuration",
            webhook::parse_configuration(tokens.clone()).map(drop),
        ),
    ] {
        if let Err(errors) = result {
            for e in errors.flatten() {
                assert!(e.has_span(), "#[{attribute}({args})]: `{e}` has no span");
            }
        }
    }
    let attrs = format!("#[kube_marker({args})] #[serde({args})]");
    for item in [
        format!("{attrs} struct KSpec {{ {attrs} a: String, {attrs} b: Option<Vec<i32>> }}"),
        format!("{attrs} enum E {{ {attrs} A, {attrs} B(String), {attrs} C {{ {attrs} c: u8 }} }}"),
    ] {
        let Ok(input) = syn::parse_str::<syn::DeriveInput>(&item) else {
            continue;
        };
        for place in [Place::Spec, Place::Type] {
            let _ = typedef::parse(&input, "K".into(), place, &|_| None);
        }
    }
}

/// The checks on an arbitrary schema tree (any JSON that reads as a [`Schema`]): structural,
/// CEL (as a resource's root and as one type), the values it holds against it, its field
/// paths; then the YAML writer's round trip on the schema and on `json` itself.
pub fn schema_checks(json: &Value) {
    yaml_round_trip(json);
    let Ok(schema) = serde_json::from_value::<Schema>(json.clone()) else {
        return;
    };
    let _ = structural::violations(&schema);
    for resource in [true, false] {
        for lenient in [true, false] {
            let _ = cel::check(&schema, Scope { resource, lenient });
        }
    }
    let values = schema
        .default
        .iter()
        .chain(&schema.example)
        .chain(schema.enum_.iter().flatten())
        .chain([json]);
    for v in values {
        let _ = value::validate(&schema, v);
        for (root, strict) in [(true, false), (false, true)] {
            let _ = value::admit(&schema, v, Admission { root, strict });
        }
    }
    for rule in &schema.x_validations {
        if let Some(path) = &rule.field_path {
            let _ = field_path::problem(path, &schema, true);
        }
    }
    let written = serde_json::to_value(&schema).expect("a schema serializes to JSON");
    yaml_round_trip(&written);
}

/// The YAML the writer produces for `value` parses back to `value` (numbers compared by value:
/// the writer spells `1.0` as `1`, as Go's encoder does). Booleans are read as YAML 1.2 spells
/// them: serde-saphyr's YAML 1.1 mode takes any case (`nO` is false), yaml.v2 and the API
/// server take only the spellings the writer quotes (`resolve.rs` tests those).
pub fn yaml_round_trip(value: &Value) {
    let yaml = to_yaml(value);
    let options = serde_saphyr::options! { strict_booleans: true };
    let back: Value = serde_saphyr::from_str_with_options(&yaml, options)
        .unwrap_or_else(|e| panic!("the YAML written does not parse: {e}\n{value}\n{yaml}"));
    assert!(
        same(value, &back),
        "the YAML written reads back differently:\n{value}\n{back}\n{yaml}"
    );
}

/// Equal JSON values, numbers by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            x.as_f64() == y.as_f64()
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}
