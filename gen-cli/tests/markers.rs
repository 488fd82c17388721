//! `kubegen markers`: its one source, the key tables of docs/markers.md, agrees with the
//! engine (every documented key parses at its place, every key the engine takes is documented),
//! and the command prints it.

use std::collections::BTreeSet;
use std::process::{Command, Output};

use darling::ast::NestedMeta;
use gen_cli::markers::{Row, Unknown, reference, rows};
use kubegen_core::parse::markers::{self, Place, places};
use kubegen_core::parse::{rbac, webhook};

/// Asserts the keys the table under `heading` documents are the engine's `keys`, naming the
/// difference.
fn same_keys(rows: &[Row], heading: &str, keys: &[&str]) {
    let documented: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r.section.heading == heading)
        .flat_map(|r| r.keys.iter().map(String::as_str))
        .collect();
    let engine: BTreeSet<&str> = keys.iter().copied().collect();
    assert!(
        documented == engine,
        "{heading}: documented, not taken: {:?}; taken, not documented: {:?}",
        documented.difference(&engine).collect::<Vec<_>>(),
        engine.difference(&documented).collect::<Vec<_>>()
    );
}

#[test]
fn every_key_the_engine_takes_is_documented_and_no_other() {
    let rows = rows();
    same_keys(&rows, "Resource keys", markers::RESOURCE_KEYS);
    same_keys(&rows, "Schema keys", markers::SCHEMA_KEYS);
    same_keys(&rows, "RBAC keys", rbac::KEYS);
    same_keys(&rows, "Webhook keys", webhook::KEYS);
    same_keys(
        &rows,
        "Webhook configuration keys",
        webhook::CONFIGURATION_KEYS,
    );
    let sections: BTreeSet<&str> = rows.iter().map(|r| r.section.heading).collect();
    assert_eq!(sections.len(), 5, "{sections:?}");
}

/// The attribute an example line is, parsed.
fn attribute(example: &str) -> syn::Attribute {
    let item: syn::ItemStruct = syn::parse_str(&format!("{example} struct S;"))
        .unwrap_or_else(|e| panic!("{example}: {e}"));
    assert_eq!(item.attrs.len(), 1, "{example}");
    item.attrs.into_iter().next().unwrap()
}

/// The top-level keys of an attribute.
fn keys_of(attr: &syn::Attribute) -> Vec<String> {
    let tokens = attr.meta.require_list().unwrap().tokens.clone();
    NestedMeta::parse_meta_list(tokens)
        .unwrap()
        .iter()
        .map(|m| match m {
            NestedMeta::Meta(m) => m.path().get_ident().expect("a key").to_string(),
            other => panic!("not a key: {other:?}"),
        })
        .collect()
}

/// What the engine says of `attr`, standing at `place` for `#[kube_marker]`: `Ok` or the
/// errors. A spec struct's example is read beside a group, version and kind, which a spec
/// struct needs.
fn engine(attr: &syn::Attribute, place: Place) -> Result<(), String> {
    let tokens = attr.meta.require_list().unwrap().tokens.clone();
    let name = attr.path().get_ident().unwrap().to_string();
    let result = match name.as_str() {
        "kube_marker" => {
            let mut attrs = vec![attribute(
                r#"#[kube_marker(group = "example.com", version = "v1", kind = "Widget")]"#,
            )];
            if place != Place::Spec {
                attrs.clear();
            }
            attrs.push(attr.clone());
            markers::parse(&attrs, place, &attr.path()).map(drop)
        }
        "rbac" => rbac::parse(tokens).map(drop),
        "webhook" => webhook::parse(tokens).map(drop),
        "webhook_configuration" => webhook::parse_configuration(tokens).map(drop),
        other => panic!("not an attribute of kubegen: {other}"),
    };
    result.map_err(|e| e.to_string())
}

#[test]
fn every_example_parses_at_its_place_and_shows_its_keys() {
    let rows = rows();
    assert!(rows.len() > 60, "{} rows", rows.len());
    for row in &rows {
        assert!(!row.keys.is_empty(), "{row:?}");
        assert!(!row.examples.is_empty(), "{:?}: no example", row.keys);
        let mut shown = BTreeSet::new();
        for example in &row.examples {
            let attr = attribute(example);
            assert!(
                attr.path().is_ident(row.section.attribute),
                "{example}: not `#[{}]`",
                row.section.attribute
            );
            shown.extend(keys_of(&attr));
            // The places every key of the row may stand (any item for the other attributes).
            let at: Vec<Place> = if row.section.attribute == "kube_marker" {
                [Place::Spec, Place::Type, Place::Field]
                    .into_iter()
                    .filter(|p| row.keys.iter().all(|k| places(k).contains(p)))
                    .collect()
            } else {
                vec![Place::Spec]
            };
            assert!(!at.is_empty(), "{:?} share no place", row.keys);
            for place in at {
                match engine(&attr, place) {
                    Ok(()) => {}
                    // A key documented as an error is refused, with its reason.
                    Err(e) if row.emits.starts_with("an error") => {
                        assert!(!e.contains("Unknown field"), "{example}: {e}")
                    }
                    Err(e) => panic!("{example} at {place:?}: {e}"),
                }
            }
        }
        for key in &row.keys {
            assert!(
                shown.contains(key),
                "no example of `{key}` in {:?}",
                row.examples
            );
        }
    }
}

fn kubegen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kubegen"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn markers_lists_every_key() {
    let out = kubegen(&["markers"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, reference(None).unwrap());
    for row in rows() {
        assert!(
            text.contains(row.section.heading),
            "{}",
            row.section.heading
        );
        for key in &row.keys {
            let listed = text.lines().any(|l| {
                l.trim_start()
                    .split(", ")
                    .any(|k| k.split_whitespace().next() == Some(key.as_str()))
            });
            assert!(listed, "`{key}` is not listed:\n{text}");
        }
    }
    assert!(
        text.contains("[+kubebuilder:validation:MinLength, MaxLength, Pattern]"),
        "{text}"
    );
}

#[test]
fn markers_key_prints_its_reference() {
    let out = kubegen(&["markers", "min_length"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let row = rows()
        .into_iter()
        .find(|r| r.keys.iter().any(|k| k == "min_length"))
        .unwrap();
    for wanted in [
        "`min_length`: a key of `#[kube_marker(...)]` (Schema keys)",
        "a field, a type deriving `KubeSchema`, or the spec struct",
        "`+kubebuilder:validation:MinLength`",
        "strings only",
        "whole number",
        "example  #[kube_marker(min_length = 1",
    ] {
        assert!(text.contains(wanted), "{wanted}:\n{text}");
    }
    assert!(text.contains(&row.examples[0]), "{text}");

    // A key of two attributes gets both references; a field-only key says so.
    let groups = reference(Some("groups")).unwrap();
    assert!(
        groups.contains("`#[rbac(...)]`") && groups.contains("`#[webhook(...)]`"),
        "{groups}"
    );
    let optional = reference(Some("optional")).unwrap();
    assert!(optional.contains("goes on  a field\n"), "{optional}");
}

/// What `kubegen markers KEY` prints is whole: the rules its section states after the key
/// table come with it, and no row points at text the command does not print.
#[test]
fn a_keys_reference_is_complete() {
    let default = reference(Some("default")).unwrap();
    for wanted in [
        "the field stays required unless it is optional (an\n           `Option`, `#[serde(default)]`",
        "What holds for every key of `#[kube_marker(...)]` here:",
        "a `default` outside the schema and a `list_map_keys` key",
        "(`try_crd` returns it)",
    ] {
        assert!(default.contains(wanted), "{wanted}:\n{default}");
    }
    for row in rows() {
        let cells = [&row.form, &row.value, &row.marker, &row.emits, &row.notes];
        for cell in cells {
            for pointer in ["rules below", "see below", "see above", "rules above"] {
                assert!(!cell.contains(pointer), "`{}`: {cell}", row.keys[0]);
            }
        }
    }
}

#[test]
fn an_unknown_key_gets_a_suggestion() {
    let out = kubegen(&["markers", "min_lenght"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error: unknown key `min_lenght`"), "{err}");
    assert!(err.contains("did you mean `min_length`"), "{err}");
    assert_eq!(
        reference(Some("zzz")),
        Err(Unknown {
            key: "zzz".into(),
            suggestion: None
        })
    );
}
