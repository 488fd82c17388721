//! The marker registry, the parsers, `kubegen markers` and docs/markers.md cannot disagree:
//! the page's key tables are the registry's (and fresh), every key the page documents is one
//! the parsers take at each of its places and `kubegen markers` explains, every example parses
//! where it stands, and the command prints the registry.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

use darling::ast::NestedMeta;
use gen_cli::markers::page::{END, begin, refresh};
use gen_cli::markers::{Unknown, reference};
use kubegen_core::parse::markers::{self, Place};
use kubegen_core::parse::registry::{Entry, Goes, SECTIONS, Section, Value};
use kubegen_core::parse::{rbac, webhook};

/// Every entry of the registry with its section.
fn entries() -> impl Iterator<Item = (&'static Section, &'static Entry)> {
    SECTIONS
        .iter()
        .flat_map(|&s| s.entries.iter().map(move |e| (s, e)))
}

/// docs/markers.md, as committed.
fn page() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/markers.md");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn docs_markers_md_holds_the_registrys_key_tables() {
    let page = page();
    let fresh = refresh(&page).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        fresh == page,
        "docs/markers.md is stale: run `cargo run -p gen-cli -- markers --write-docs docs/markers.md`"
    );
}

/// The keys the page's generated table of `section` documents: the identifiers that start the
/// code spans of its first column.
fn documented(page: &str, section: &Section) -> BTreeSet<String> {
    let start = page.find(&begin(section)).expect("the section's table");
    let table = &page[start..start + page[start..].find(END).unwrap()];
    let mut keys = BTreeSet::new();
    for line in table.lines().filter(|l| l.starts_with("| `")) {
        let first = line.trim_start_matches('|').split(" | ").next().unwrap();
        for span in first.split('`').skip(1).step_by(2) {
            let key: String = span
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if key.starts_with(|c: char| c.is_ascii_lowercase()) {
                keys.insert(key);
            }
        }
    }
    keys
}

/// What the parser of `attribute` says of the attribute `#[attribute(src)]` standing at
/// `place` (for `#[kube_marker]`): `Ok` or the errors.
fn parse(attribute: &str, src: &str, place: Place) -> Result<(), String> {
    let tokens: proc_macro2::TokenStream = src.parse().unwrap();
    let result = match attribute {
        "kube_marker" => {
            let attr: syn::Attribute = syn::parse_quote!(#[kube_marker(#tokens)]);
            markers::parse(&[attr], place, &quote::quote!(S)).map(drop)
        }
        "rbac" => rbac::parse(tokens).map(drop),
        "webhook" => webhook::parse(tokens).map(drop),
        "webhook_configuration" => webhook::parse_configuration(tokens).map(drop),
        other => panic!("not an attribute of kubegen: {other}"),
    };
    result.map_err(|e| e.to_string())
}

#[test]
fn the_page_documents_the_keys_the_parsers_take_and_the_command_explains() {
    let page = page();
    for section in SECTIONS {
        let keys = documented(&page, section);
        let registry: BTreeSet<String> = section.names().into_iter().map(String::from).collect();
        assert_eq!(keys, registry, "{}", section.heading);
        for key in &keys {
            let goes = section.key(key).unwrap().goes;
            let places = if goes == Goes::Item {
                &[Place::Spec][..]
            } else {
                goes.places()
            };
            for &place in places {
                // A bare key may lack its value, but the parser knows it.
                if let Err(e) = parse(section.attribute, key, place) {
                    assert!(!e.contains("Unknown field"), "{key} at {place:?}: {e}");
                }
            }
            let explained = reference(Some(key)).unwrap();
            let header = format!("`{key}`: a key of `#[{}(...)]`", section.attribute);
            assert!(explained.contains(&header), "{explained}");
        }
        let e = parse(section.attribute, "not_a_key = 1", Place::Field).unwrap_err();
        assert!(e.contains("Unknown field"), "{}: {e}", section.heading);
    }
}

/// A value of the form `value`, for `key`.
fn sample(key: &str, value: Value) -> String {
    match value {
        Value::Flag | Value::FlagOrNested => key.to_string(),
        Value::Bool => format!("{key} = true"),
        Value::String | Value::TypePath | Value::Path | Value::Word => format!("{key} = \"x\""),
        Value::JsonObjectText => format!("{key} = \"{{}}\""),
        Value::JsonText => format!("{key} = \"1\""),
        Value::Number | Value::Count | Value::Json => format!("{key} = 1"),
        Value::List | Value::Pairs | Value::TraitPaths | Value::FieldNames | Value::RuleNames => {
            format!("{key} = \"a\"")
        }
        Value::JsonValues => format!("{key} = [1]"),
        Value::Nested | Value::Schema | Value::Branch => format!("{key}()"),
    }
}

/// A value of another form than `value`, for `key`.
fn misfit(key: &str, value: Value) -> String {
    match value {
        Value::Flag | Value::Bool => format!("{key} = \"x\""),
        Value::FlagOrNested | Value::Nested | Value::Schema | Value::Branch => format!("{key} = 1"),
        _ => format!("{key}(a = 1)"),
    }
}

/// Whether the errors say a value is not of its key's form (darling's words for it, and the
/// value forms' own).
fn misfits(errors: &str) -> bool {
    ["Unexpected ", "Unknown value:", "without quotes"]
        .iter()
        .any(|words| errors.contains(words))
}

/// The parsers read each key's value in the form the registry gives it (`kubegen markers`
/// and docs/markers.md print that form), and refuse another form.
#[test]
fn every_key_takes_the_value_form_the_registry_gives() {
    for section in SECTIONS {
        for key in section.keys() {
            let place = key.goes.places().last().copied().unwrap_or(Place::Spec);
            let fits = sample(key.name, key.value);
            if let Err(e) = parse(section.attribute, &fits, place) {
                assert!(
                    !misfits(&e),
                    "{}: `{fits}` ({:?}): {e}",
                    section.attribute,
                    key.value
                );
            }
            let other = misfit(key.name, key.value);
            let e = parse(section.attribute, &other, place).expect_err(&other);
            assert!(
                misfits(&e),
                "{}: `{other}` ({:?}): {e}",
                section.attribute,
                key.value
            );
        }
    }
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
    let all: Vec<_> = entries().collect();
    assert!(all.len() > 60, "{} entries", all.len());
    for (section, entry) in all {
        let names: Vec<&str> = entry.names().collect();
        let mut shown = BTreeSet::new();
        for example in entry.examples {
            let attr = attribute(example);
            assert!(
                attr.path().is_ident(section.attribute),
                "{example}: not `#[{}]`",
                section.attribute
            );
            shown.extend(keys_of(&attr));
            // The places every key of the entry may stand (any item for the other attributes).
            let at: Vec<Place> = if section.attribute == "kube_marker" {
                [Place::Spec, Place::Type, Place::Field]
                    .into_iter()
                    .filter(|p| entry.keys.iter().all(|k| k.goes.places().contains(p)))
                    .collect()
            } else {
                vec![Place::Spec]
            };
            assert!(!at.is_empty(), "{names:?} share no place");
            for place in at {
                match engine(&attr, place) {
                    Ok(()) => {}
                    // A key documented as an error is refused, with its reason.
                    Err(e) if entry.emits.starts_with("an error") => {
                        assert!(!e.contains("Unknown field"), "{example}: {e}")
                    }
                    Err(e) => panic!("{example} at {place:?}: {e}"),
                }
            }
        }
        for key in &names {
            assert!(
                shown.contains(*key),
                "no example of `{key}` in {:?}",
                entry.examples
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
    for (section, entry) in entries() {
        assert!(text.contains(section.heading), "{}", section.heading);
        for key in entry.names() {
            let listed = text.lines().any(|l| {
                l.trim_start()
                    .split(", ")
                    .any(|k| k.split_whitespace().next() == Some(key))
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
    let (_, entry) = entries()
        .find(|(_, e)| e.names().any(|k| k == "min_length"))
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
    assert!(text.contains(entry.examples[0]), "{text}");

    // A key of two attributes gets both references; a field-only key says so.
    let groups = reference(Some("groups")).unwrap();
    assert!(
        groups.contains("`#[rbac(...)]`") && groups.contains("`#[webhook(...)]`"),
        "{groups}"
    );
    let required = reference(Some("required")).unwrap();
    assert!(required.contains("goes on  a field\n"), "{required}");
    let optional = reference(Some("optional")).unwrap();
    assert!(
        optional.contains("goes on  a field, or the spec struct"),
        "{optional}"
    );
}

/// What `kubegen markers KEY` prints is whole: the rules its section states after the key
/// table come with it, and no entry points at text the command does not print.
#[test]
fn a_keys_reference_is_complete() {
    let default = reference(Some("default")).unwrap();
    for wanted in [
        "the field stays required unless it is optional (an\n           `Option`, `#[serde(default)]`",
        "What holds for every key of `#[kube_marker(...)]` here:",
        "a `default` outside the schema and a `list_map_keys` key",
        "(`kubegen::try_crd` returns it)",
    ] {
        assert!(default.contains(wanted), "{wanted}:\n{default}");
    }
    for (_, entry) in entries() {
        let value = entry.value();
        let cells = [entry.form, &value, entry.marker, entry.emits, entry.notes];
        for cell in cells {
            for pointer in ["rules below", "see below", "see above", "rules above"] {
                assert!(!cell.contains(pointer), "`{}`: {cell}", entry.keys[0].name);
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

/// `kubegen markers --write-docs FILE` rewrites a stale key table and nothing else, and
/// refuses (touching nothing) a file without the generated sections.
#[test]
fn write_docs_refreshes_the_page_and_refuses_another_file() {
    let tmp = tempfile::Builder::new()
        .prefix("kubegen-markers-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let page = page();
    let stale = dir.join("markers.md");
    std::fs::write(
        &stale,
        page.replacen("| `nullable` | flag |", "| `nullable` | old |", 1),
    )
    .unwrap();
    let out = kubegen(&["markers", "--write-docs", stale.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(std::fs::read_to_string(&stale).unwrap(), page);

    let other = dir.join("other.md");
    std::fs::write(&other, "# Notes\n").unwrap();
    let out = kubegen(&["markers", "--write-docs", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("has no place in the page"), "{err}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "# Notes\n");
}
