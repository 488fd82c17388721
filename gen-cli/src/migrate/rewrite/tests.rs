use super::*;

/// `src` migrated.
fn migrated(src: &str) -> Migrated {
    migrate("src/lib.rs", src, &stored_versions(src).unwrap()).unwrap()
}

const KUBE: &str = r#"use kube::{Api, CustomResource};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A foo.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(group = "clux.dev", version = "v1", kind = "Foo", namespaced)]
#[kube(status = "FooStatus", shortname = "f")]
pub struct FooSpec {
    // A comment the command keeps.
    #[schemars(length(min = 1, max = 63))]
    name:   String,
    #[garde(range(min = 1))]
    replicas: i32,
    #[schemars(schema_with = "any")]
    extra: String,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default, JsonSchema)]
pub struct FooStatus {
    #[schemars(rename = "isBad")]
    is_bad: bool,
}

fn unrelated() -> Api<Foo> { todo!() }
"#;

#[test]
fn a_kube_derive_file_becomes_kubegens() {
    let m = migrated(KUBE);
    assert_eq!(
        m.text,
        r#"use kube::{Api};
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// A foo.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug)]
#[kube_marker(group = "clux.dev", version = "v1", kind = "Foo", status = "FooStatus", short_names = ["f"])]
pub struct FooSpec {
    // A comment the command keeps.
    #[kube_marker(min_length = 1, max_length = 63)]
    name:   String,
    #[garde(range(min = 1))]
    #[kube_marker(minimum = 1)]
    replicas: i32,
    // kubegen migrate: `schema_with = "any"`: write the function's schema as markers, or `schemaless` with `schema_type` or `preserve_unknown_fields`
    extra: String,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default, KubeSchema)]
pub struct FooStatus {
    #[serde(rename = "isBad")]
    is_bad: bool,
}

fn unrelated() -> Api<Foo> { todo!() }
"#
    );
    let [(loc, what)] = &m.untranslated[..] else {
        panic!("{:?}", m.untranslated)
    };
    assert_eq!((loc.line, loc.column), (15, 16), "{what}");
    assert!(what.starts_with("`schema_with = \"any\"`: write"), "{what}");
}

#[test]
fn a_migrated_file_is_left_as_it_is() {
    let once = migrated(KUBE).text;
    let twice = migrated(&once);
    assert_eq!(twice.text, once);
    assert!(twice.untranslated.is_empty());
}

#[test]
fn a_file_without_kube_derive_is_left_as_it_is() {
    let src =
        "use serde::Serialize;\n#[derive(Serialize)]\n#[schemars(rename = \"x\")]\nstruct A;\n";
    assert_eq!(migrated(src).text, src);
}

#[test]
fn qualified_derives_are_rewritten_in_place() {
    let src = "#[derive(kube::CustomResource, schemars::JsonSchema, Clone)]\n#[kube(group = \"a.io\", version = \"v1\", kind = \"A\")]\nstruct ASpec {}\n\n#[derive(schemars::JsonSchema)]\nstruct B {}\n";
    assert_eq!(
        migrated(src).text,
        "#[derive(kubegen::CustomResource, Clone)]\n#[kube_marker(group = \"a.io\", version = \"v1\", kind = \"A\", scope = \"Cluster\")]\nstruct ASpec {}\n\n#[derive(kubegen::KubeSchema)]\nstruct B {}\n"
    );
}

#[test]
fn a_hand_written_json_schema_impl_is_reported_and_its_import_kept() {
    let src = "use schemars::JsonSchema;\n\n#[derive(JsonSchema)]\nstruct A {}\n\nimpl JsonSchema for B {}\n";
    let m = migrated(src);
    assert_eq!(
        m.text,
        "use kubegen::KubeSchema;\nuse schemars::JsonSchema;\n\n#[derive(KubeSchema)]\nstruct A {}\n\n// kubegen migrate: a hand-written `JsonSchema` impl, which kubegen does not read: write the schema as markers on a `KubeSchema` derive, or `schemaless` with `schema_type` on the fields of this type\nimpl JsonSchema for B {}\n"
    );
    assert_eq!(m.untranslated[0].0.line, 6);
    assert_eq!(migrated(&m.text).text, m.text);
}

#[test]
fn the_version_merge_crds_stores_gets_storage_version() {
    let src = "mod v1 {\n    #[derive(CustomResource)]\n    #[kube(group = \"a.io\", version = \"v1\", kind = \"A\", namespaced)]\n    pub struct ASpec {}\n}\nmod v2 {\n    #[derive(CustomResource)]\n    #[kube(group = \"a.io\", version = \"v2\", kind = \"A\", namespaced)]\n    pub struct ASpec {}\n}\nfn crds() { merge_crds(vec![v1::A::crd(), v2::A::crd()], \"v1\").unwrap(); }\n";
    let text = migrated(src).text;
    assert!(
        text.contains(
            "#[kube_marker(group = \"a.io\", version = \"v1\", kind = \"A\", storage_version)]"
        ),
        "{text}"
    );
    assert!(
        text.contains("#[kube_marker(group = \"a.io\", version = \"v2\", kind = \"A\")]"),
        "{text}"
    );
}

/// kube-derive's own trybuild cases (`kube-derive/tests/ui/`), rewritten: what kube-derive
/// refuses, `migrate` leaves to the user with a comment saying why.
#[test]
fn kube_derives_refused_inputs_are_left_with_a_reason() {
    for (attribute, expected) in [
        (
            r#"#[kube(group = "clux.dev", version = "v1", kind = "Foo", shortnames = "foo")]"#,
            "`shortnames = \"foo\"`: `#[kube]` has no key `shortnames`; did you mean `shortname`?",
        ),
        (
            r#"#[kube(group = "example.org", version = "v1", kind = "Foo", schema = "unknown")]"#,
            "`schema = \"unknown\"`: expected `\"derived\"`, `\"disabled\"` or `\"manual\"`",
        ),
        (
            r#"#[kube(group = "clux.dev", version = "v1", kind = "Foo", schema = "manual", cel)]"#,
            "`schema = \"manual\"`: kubegen derives the schema from the spec's fields",
        ),
        (
            r#"#[kube(attr = "serde(rename_all=\"snake_case\")")]"#,
            "`attr = \"serde(rename_all=\\\"snake_case\\\")\"`: kubegen puts no attributes of yours",
        ),
    ] {
        let src = format!(
            "#[derive(CustomResource)]\n{attribute}\nstruct FooSpec {{\n    foo: String,\n}}\n"
        );
        let m = migrated(&src);
        assert!(
            m.untranslated
                .iter()
                .any(|(_, what)| what.starts_with(expected)),
            "{attribute}: {:#?}",
            m.untranslated
        );
        assert!(m.text.contains("// kubegen migrate: "), "{}", m.text);
        assert_eq!(migrated(&m.text).text, m.text);
    }
}

/// `#[kube(root)]` keeps its name as an alias of the kind's type; `#[kube(cel)]` asks for
/// kubegen's `validate` feature, and each `validate_cel` call is listed with kubegen's call.
#[test]
fn root_becomes_an_alias_and_cel_kubegens_validate() {
    let src = r#"use kube::CustomResource;

#[derive(CustomResource, Clone)]
#[kube(group = "a.io", version = "v1", kind = "Doc", root = "DocRoot", cel)]
pub(crate) struct DocSpec {
    n: i32,
}

fn check(d: &DocRoot) -> bool {
    d.validate_cel().is_ok()
}
"#;
    let m = migrated(src);
    assert_eq!(
        m.text,
        r#"use kubegen::CustomResource;

#[derive(CustomResource, Clone)]
#[kube_marker(group = "a.io", version = "v1", kind = "Doc", scope = "Cluster")]
pub(crate) struct DocSpec {
    n: i32,
}
pub(crate) type DocRoot = Doc;

fn check(d: &DocRoot) -> bool {
    d.validate_cel().is_ok()
}
"#
    );
    assert_eq!(m.features, ["validate"]);
    let [(loc, what)] = &m.untranslated[..] else {
        panic!("{:?}", m.untranslated)
    };
    assert_eq!((loc.line, loc.column), (10, 7));
    assert!(what.contains("`Kind::validate(&x)`"), "{what}");
    assert_eq!(migrated(&m.text).text, m.text);
}
