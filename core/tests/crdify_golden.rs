//! Parity with crdify's examples: each `examples/*.yaml` of crdify (kept outside this
//! repository, in `crdify/` of the golden folder `fixture_parity::golden` finds) against
//! `examples/base-crd.yaml` gives the verdicts crdify's reference (`validations.md`) describes.

use std::path::PathBuf;

use kubegen_core::diff::{Class, Config, Enforcement, Policy, compare};
use serde_json::Value;

fn examples() -> Option<PathBuf> {
    fixture_parity::golden_path("crdify/examples")
}

fn read(dir: &std::path::Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `(rule, place)` of every breaking change from the base to `example`.
fn breaking(dir: &std::path::Path, example: &str, config: &Config) -> Vec<(String, String)> {
    let changes = compare(&read(dir, "base-crd.yaml"), &read(dir, example), config);
    let mut found: Vec<(String, String)> = changes
        .iter()
        .filter(|c| c.class == Class::Breaking)
        .map(|c| (c.rule.to_string(), c.place()))
        .collect();
    found.sort();
    found
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn every_example_gives_crdifys_verdict() {
    let Some(dir) = examples() else { return };
    let default = Config::default();
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("base-crd.yaml", &[]),
        ("crd-scope-changed.yaml", &[("scope", "")]),
        (
            "crd-existing-field-removed.yaml",
            &[("existingFieldRemoval", "v1alpha1 .spec.containerPort")],
        ),
        ("crd-enum-removed.yaml", &[("enum", "v1alpha1 .spec.mode")]),
        (
            "crd-default-changed.yaml",
            &[("default", "v1alpha1 .spec.mode")],
        ),
        // A new field is compared with nothing: its `nullable` breaks no one.
        ("crd-nullable-added.yaml", &[]),
        // The enum addition policy is `Disallow` by default.
        ("enum-added.yaml", &[("enum", "v1alpha1 .spec.mode")]),
        // A required field under a new optional object is not a new required field.
        ("new-optional-with-required.yaml", &[]),
        (
            "multiple-incompatible.yaml",
            &[
                ("enum", "v1alpha1 .spec.mode"),
                ("minimum", "v1alpha1 .spec.size"),
                ("required", "v1alpha1 .spec"),
                ("scope", ""),
            ],
        ),
        // crdify's reference calls description changes generally safe (kubegen's default).
        ("unhandled-change.yaml", &[]),
    ];
    let mut seen = Vec::new();
    for (example, expected) in cases {
        assert_eq!(
            breaking(&dir, example, &default),
            pairs(expected),
            "{example}"
        );
        seen.push(example.to_string());
    }
    // Every example is covered.
    let mut all: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") && n != "config.yaml")
        .collect();
    all.sort();
    seen.sort();
    assert_eq!(all, seen);
}

#[test]
fn the_changes_carry_crdifys_messages_and_values() {
    let Some(dir) = examples() else { return };
    let changes = compare(
        &read(&dir, "base-crd.yaml"),
        &read(&dir, "multiple-incompatible.yaml"),
        &Config::default(),
    );
    let message = |rule: &str| {
        changes
            .iter()
            .find(|c| c.rule == rule && c.class == Class::Breaking)
            .map(|c| (c.message.clone(), c.old.clone(), c.new.clone()))
            .unwrap()
    };
    assert_eq!(message("scope").0, "scope changed: Namespaced -> Cluster");
    assert_eq!(
        message("minimum"),
        (
            "minimum increased: 1 -> 10".into(),
            Some(1.into()),
            Some(10.into())
        )
    );
    assert_eq!(
        message("enum").0,
        r#"allowed enum values added: ["FooBar"]"#
    );
    assert_eq!(message("required").0, r#"new required fields: ["mode"]"#);
    // The raised maximum is reported, as safe.
    let maximum = changes.iter().find(|c| c.rule == "maximum").unwrap();
    assert_eq!(
        (maximum.class, maximum.message.as_str()),
        (Class::Safe, "maximum increased: 3 -> 100")
    );
}

#[test]
fn crdifys_configuration_example_changes_the_verdicts_it_configures() {
    let Some(dir) = examples() else { return };
    // examples/config.yaml: enum `additionPolicy: Allow`, pattern `removalPolicy: Allow`,
    // nullable both `Allow`.
    let config = Config {
        enum_addition: Policy::Allow,
        pattern_removal: Policy::Allow,
        nullable_addition: Policy::Allow,
        nullable_removal: Policy::Allow,
        ..Config::default()
    };
    let text = std::fs::read_to_string(dir.join("config.yaml")).unwrap();
    for line in ["additionPolicy: Allow", "removalPolicy: Allow"] {
        assert!(text.contains(line), "config.yaml no longer says {line}");
    }
    assert_eq!(breaking(&dir, "enum-added.yaml", &config), vec![]);
    assert_eq!(
        breaking(&dir, "crd-enum-removed.yaml", &config),
        pairs(&[("enum", "v1alpha1 .spec.mode")])
    );
    // crdify's binary enforces every validation, `description` included, by default.
    let strict = Config {
        enforcement: [("description".to_string(), Enforcement::Error)].into(),
        ..Config::default()
    };
    assert_eq!(
        breaking(&dir, "unhandled-change.yaml", &strict),
        pairs(&[("description", "v1alpha1 .spec")])
    );
}
