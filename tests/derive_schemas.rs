//! Every row of docs/markers.md's type mapping and the schema keys, through the derive and
//! `crd()`: the schema is what serde writes, structural, with markers where they belong.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::CustomResourceExt;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The `spec` schema of a kind's only version.
fn spec_of<K: CustomResourceExt>() -> Value {
    let crd = serde_json::to_value(K::crd()).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].clone()
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Scalars")]
pub struct ScalarsSpec {
    pub b: bool,
    pub i8_: i8,
    pub u16_: u16,
    pub i32_: i32,
    pub i64_: i64,
    pub u32_: u32,
    pub u64_: u64,
    pub usize_: usize,
    pub f32_: f32,
    pub f64_: f64,
    pub s: String,
    pub c: char,
    pub opt: Option<String>,
    pub list: Vec<String>,
    pub fixed: [i32; 3],
    pub set: BTreeSet<String>,
    pub map: BTreeMap<String, i32>,
    pub hash: HashMap<String, Vec<bool>>,
    pub boxed: Box<String>,
    pub any: serde_json::Value,
    pub when: Time,
    pub qty: Quantity,
    pub port: IntOrString,
    pub chrono_like: Option<Time>,
}

#[test]
fn scalars_and_collections_map_as_markers_md_says() {
    let p = &spec_of::<Scalars>()["properties"];
    assert_eq!(p["b"], json!({"type": "boolean"}));
    assert_eq!(p["i8_"], json!({"type": "integer", "format": "int32"}));
    assert_eq!(
        p["u16_"],
        json!({"type": "integer", "format": "int32", "minimum": 0.0})
    );
    assert_eq!(p["i32_"], json!({"type": "integer", "format": "int32"}));
    assert_eq!(p["i64_"], json!({"type": "integer", "format": "int64"}));
    assert_eq!(
        p["u32_"],
        json!({"type": "integer", "format": "int64", "minimum": 0.0})
    );
    assert_eq!(
        p["u64_"],
        json!({"type": "integer", "format": "int64", "minimum": 0.0})
    );
    assert_eq!(
        p["usize_"],
        json!({"type": "integer", "format": "int64", "minimum": 0.0})
    );
    assert_eq!(p["f32_"], json!({"type": "number", "format": "float"}));
    assert_eq!(p["f64_"], json!({"type": "number", "format": "double"}));
    assert_eq!(p["s"], json!({"type": "string"}));
    assert_eq!(p["c"], json!({"type": "string"}));
    assert_eq!(p["opt"], json!({"type": "string"}));
    assert_eq!(
        p["list"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(
        p["fixed"],
        json!({"type": "array", "items": {"type": "integer", "format": "int32"}, "minItems": 3, "maxItems": 3})
    );
    assert_eq!(
        p["set"],
        json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"})
    );
    assert_eq!(
        p["map"],
        json!({"type": "object", "additionalProperties": {"type": "integer", "format": "int32"}})
    );
    assert_eq!(
        p["hash"]["additionalProperties"]["items"],
        json!({"type": "boolean"})
    );
    assert_eq!(p["boxed"], json!({"type": "string"}));
    assert_eq!(
        p["any"],
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(p["when"], json!({"type": "string", "format": "date-time"}));
    assert_eq!(p["qty"]["x-kubernetes-int-or-string"], true);
    assert_eq!(
        p["qty"]["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
    assert!(p["qty"]["pattern"].is_string());
    assert_eq!(
        p["port"],
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true})
    );
    let required = spec_of::<Scalars>()["required"].clone();
    assert!(!required.as_array().unwrap().contains(&json!("opt")));
    assert!(required.as_array().unwrap().contains(&json!("any")));
}

/// A unit-only enum is a string enum of the serialized names.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    Allow,
    Forbid,
    #[serde(rename = "replace-it")]
    Replace,
    #[serde(skip)]
    Hidden,
}

/// Externally tagged data enum: one object, one property per variant.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// From a URL.
    Url(String),
    /// From git.
    Git { repo: String, rev: Option<String> },
}

/// Internally tagged: the tag plus every variant's fields; requirements by CEL.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "type")]
pub enum Storage {
    Memory,
    Disk { size: i32, path: Option<String> },
    Remote(Remote),
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Remote {
    pub endpoint: String,
}

/// Adjacently tagged.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "kind", content = "value")]
pub enum Setting {
    Off,
    Level(i32),
    Named(String),
}

/// Untagged, integer or string: int-or-string.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(untagged)]
pub enum Port {
    Number(i32),
    Name(String),
}

/// Untagged objects: merged properties, any of the variants' requirements.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(untagged)]
pub enum Auth {
    Token { token: String },
    Basic { user: String, password: String },
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Enums")]
pub struct EnumsSpec {
    pub policy: Policy,
    pub source: Source,
    pub storage: Storage,
    pub setting: Setting,
    pub port: Port,
    pub auth: Auth,
}

#[test]
fn every_serde_tagging_is_structural() {
    let p = &spec_of::<Enums>()["properties"];
    assert_eq!(
        p["policy"],
        json!({"type": "string", "enum": ["allow", "forbid", "replace-it"],
               "description": "A unit-only enum is a string enum of the serialized names."})
    );
    assert_eq!(p["source"]["type"], "object");
    assert_eq!(
        p["source"]["oneOf"],
        json!([{"required": ["url"]}, {"required": ["git"]}])
    );
    assert_eq!(
        p["source"]["properties"]["url"],
        json!({"type": "string", "description": "From a URL."})
    );
    assert_eq!(
        p["source"]["properties"]["git"]["required"],
        json!(["repo"])
    );

    let storage = &p["storage"];
    assert_eq!(storage["required"], json!(["type"]));
    assert_eq!(
        storage["properties"]["type"],
        json!({"type": "string", "enum": ["Memory", "Disk", "Remote"]})
    );
    assert_eq!(storage["properties"]["size"]["format"], "int32");
    assert_eq!(storage["properties"]["endpoint"]["type"], "string");
    assert_eq!(
        storage["x-kubernetes-validations"],
        json!([
            {"rule": "self.type != 'Disk' || (has(self.size))", "message": "size required when type is Disk"},
            {"rule": "self.type != 'Remote' || (has(self.endpoint))", "message": "endpoint required when type is Remote"}
        ])
    );

    let setting = &p["setting"];
    assert_eq!(
        setting["properties"]["kind"]["enum"],
        json!(["Off", "Level", "Named"])
    );
    assert_eq!(
        setting["properties"]["value"],
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true})
    );
    assert_eq!(setting["required"], json!(["kind"]));

    assert_eq!(p["port"]["x-kubernetes-int-or-string"], true);
    assert_eq!(
        p["auth"]["anyOf"],
        json!([{"required": ["token"]}, {"required": ["password", "user"]}])
    );
    assert_eq!(p["auth"]["properties"]["user"]["type"], "string");
    assert!(kubegen::try_crd::<Enums>().is_ok());
}

/// Flattened, an enum's variants are told apart as unflattened: `anyOf` stays `anyOf` (an
/// untagged variant may hold another's required fields); an optional one constrains its keys
/// only when one of them is there, since `None` writes none.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Flattened")]
pub struct FlattenedSpec {
    #[serde(flatten)]
    pub auth: Auth,
    #[serde(flatten)]
    pub source: Option<Source>,
    #[serde(flatten)]
    pub storage: Option<Storage>,
}

#[test]
fn flattened_enums_constrain_only_what_serde_writes() {
    let spec = spec_of::<Flattened>();
    let not_any = |keys: &[&str]| {
        let each: Vec<Value> = keys.iter().map(|k| json!({"required": [k]})).collect();
        json!({"not": {"anyOf": each}})
    };
    assert_eq!(
        spec["allOf"],
        json!([
            {"anyOf": [{"required": ["token"]}, {"required": ["password", "user"]}]},
            {"anyOf": [
                {"oneOf": [{"required": ["url"]}, {"required": ["git"]}]},
                not_any(&["git", "url"]),
            ]},
        ])
    );
    // Untagged variants' fields are required by the `anyOf`; an optional value requires none.
    assert_eq!(spec["required"], Value::Null);
    let rules = &spec["x-kubernetes-validations"];
    let storage_keys =
        "!(has(self.endpoint) || has(self.path) || has(self.size) || has(self.type))";
    assert_eq!(
        rules[0]["rule"],
        format!("{storage_keys} || (self.type != 'Disk' || (has(self.size)))")
    );
    assert!(kubegen::try_crd::<Flattened>().is_ok());
}

/// A string at least four long.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(transparent)]
#[kube_marker(
    min_length = 4,
    x_validation(rule = "self != 'nope'", message = "not nope")
)]
pub struct LongerString(pub String);

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(at_most_one_of = ["a", "b"])]
pub struct OneOf {
    pub a: Option<String>,
    pub b: Option<String>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Inner {
    /// Inner x.
    pub x: i32,
    pub y: Option<i32>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Markers")]
#[serde(rename_all = "camelCase")]
pub struct MarkersSpec {
    /// Field doc wins over the type's doc.
    #[kube_marker(min_length = 10, max_length = 10)]
    pub field_over_type: LongerString,
    pub type_only: LongerString,
    #[kube_marker(x_validation(rule = "self.startsWith('a')", message = "starts with a"))]
    pub both_rules: LongerString,
    #[kube_marker(
        items(max_length = 3, pattern = "^[a-z]+$"),
        min_items = 1,
        list_type = "set"
    )]
    pub tags: Vec<String>,
    #[kube_marker(enum_values = [1, 2, 3], default = 2, exclusive_maximum, maximum = 4)]
    pub level: i32,
    #[kube_marker(nullable, title = "Title", example = "ex", description = "Replaced.")]
    pub note: Option<String>,
    #[kube_marker(immutable)]
    pub fixed: Option<String>,
    #[kube_marker(schemaless, schema_type = "object", preserve_unknown_fields)]
    pub free: serde_json::Value,
    #[kube_marker(int_or_string, max_length = 5)]
    pub mixed: String,
    pub one_of: OneOf,
    #[serde(flatten)]
    pub inner: Inner,
    #[serde(flatten)]
    pub rest: BTreeMap<String, serde_json::Value>,
    #[serde(skip)]
    pub skipped: i32,
    #[serde(default)]
    pub defaulted: i32,
    #[kube_marker(default_json = r#"{"x": 1}"#)]
    pub with_default: Option<Inner>,
    #[kube_marker(external_docs(url = "https://example.com/docs", description = "More"))]
    pub documented: Option<String>,
    /// `kubegen diff` reads `accept_change`; the schema does not show it.
    #[kube_marker(maximum = 3, accept_change = "maximum")]
    pub accepted: Option<i32>,
}

#[test]
fn schema_keys_land_where_they_belong() {
    let spec = spec_of::<Markers>();
    let p = &spec["properties"];
    assert_eq!(
        p["fieldOverType"],
        json!({"type": "string", "description": "Field doc wins over the type's doc.",
               "maxLength": 10, "allOf": [{"minLength": 4}, {"minLength": 10}],
               "x-kubernetes-validations": [{"rule": "self != 'nope'", "message": "not nope"}]})
    );
    assert_eq!(p["typeOnly"]["description"], "A string at least four long.");
    assert_eq!(p["typeOnly"]["minLength"], 4);
    assert_eq!(
        p["bothRules"]["x-kubernetes-validations"],
        json!([{"rule": "self.startsWith('a')", "message": "starts with a"},
               {"rule": "self != 'nope'", "message": "not nope"}])
    );
    assert_eq!(
        p["tags"],
        json!({"type": "array", "minItems": 1, "x-kubernetes-list-type": "set",
               "items": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"}})
    );
    assert_eq!(
        p["level"],
        json!({"type": "integer", "format": "int32", "enum": [1, 2, 3], "default": 2,
               "maximum": 4.0, "exclusiveMaximum": true})
    );
    assert_eq!(
        p["note"],
        json!({"type": "string", "nullable": true, "title": "Title", "example": "ex", "description": "Replaced."})
    );
    assert_eq!(
        p["fixed"]["x-kubernetes-validations"],
        json!([{"rule": "self == oldSelf", "message": "field is immutable"}])
    );
    assert_eq!(
        spec["x-kubernetes-validations"],
        json!([{"rule": "!has(oldSelf.fixed) || has(self.fixed)", "message": "field fixed is immutable once set"}])
    );
    assert_eq!(
        p["free"],
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(
        p["mixed"],
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true, "maxLength": 5})
    );
    assert_eq!(
        p["oneOf"]["x-kubernetes-validations"],
        json!([{"rule": "(has(self.a)?1:0)+(has(self.b)?1:0) <= 1",
                "message": "at most one of the fields in [a b] may be set"}])
    );
    assert_eq!(
        p["x"],
        json!({"type": "integer", "format": "int32", "description": "Inner x."})
    );
    assert_eq!(p["y"]["type"], "integer");
    assert_eq!(spec["x-kubernetes-preserve-unknown-fields"], true);
    assert!(p.get("skipped").is_none());
    assert_eq!(p["withDefault"]["default"], json!({"x": 1}));
    assert_eq!(
        p["documented"]["externalDocs"],
        json!({"url": "https://example.com/docs", "description": "More"})
    );
    assert_eq!(
        p["accepted"],
        json!({
            "description": "`kubegen diff` reads `accept_change`; the schema does not show it.",
            "format": "int32",
            "maximum": 3.0,
            "type": "integer"
        })
    );
    let required: Vec<String> = serde_json::from_value(spec["required"].clone()).unwrap();
    assert_eq!(
        required,
        [
            "bothRules",
            "fieldOverType",
            "free",
            "level",
            "mixed",
            "oneOf",
            "tags",
            "typeOnly",
            "x"
        ]
    );
}

/// A recursive type behind another type is found when `crd()` runs (the derive saw only
/// `Vec<Child>`), with the fix in the message; `schema_type` + `preserve_unknown_fields` stop it.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Parent {
    pub children: Vec<Child>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Child {
    pub parent: Option<Box<Parent>>,
    #[kube_marker(schema_type = "object", preserve_unknown_fields)]
    pub stopped: Option<Box<Parent>>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Tree")]
pub struct TreeSpec {
    pub root: Parent,
}

#[test]
fn indirect_recursion_is_an_error_with_the_fix() {
    let errors = kubegen::try_crd::<Tree>().unwrap_err().to_string();
    assert!(
        errors.contains("Child.parent: recursive type `Parent`"),
        "{errors}"
    );
    assert!(
        errors.contains("schema_type = \"object\", preserve_unknown_fields"),
        "{errors}"
    );
    assert!(!errors.contains("Child.stopped"), "{errors}");
}

/// Facts the compiler cannot see (inside k8s-openapi types) are checked when `crd()` runs
/// (local types are checked at compile time: see `tests/ui/behind_other_types.rs`).
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Late")]
pub struct LateSpec {
    #[kube_marker(list_type = "map", list_map_keys = "kind")]
    pub conditions: Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>,
    #[kube_marker(max_items = 3)]
    pub when: Time,
}

#[test]
fn facts_behind_other_types_are_checked_at_run_time() {
    let errors = kubegen::try_crd::<Late>().unwrap_err().to_string();
    assert!(
        errors.contains(
            "LateSpec.conditions: `list_map_keys` names `kind`, which is not a field of the items"
        ),
        "{errors}"
    );
    assert!(
        errors.contains("LateSpec.when: `max_items` applies to arrays, but this is string"),
        "{errors}"
    );
}

/// A type serialized through another type (`#[serde(into)]`) has that type's schema.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(into = "String", try_from = "String")]
pub struct Version {
    pub major: u32,
    pub minor: u32,
}

impl From<Version> for String {
    fn from(v: Version) -> String {
        format!("{}.{}", v.major, v.minor)
    }
}

impl TryFrom<String> for Version {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let (a, b) = s.split_once('.').ok_or("no dot")?;
        Ok(Version {
            major: a.parse().map_err(|_| "major")?,
            minor: b.parse().map_err(|_| "minor")?,
        })
    }
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Release")]
pub struct ReleaseSpec {
    #[kube_marker(pattern = r"^\d+\.\d+$")]
    pub version: Version,
}

#[test]
fn serde_into_gives_the_target_types_schema() {
    assert_eq!(
        spec_of::<Release>()["properties"]["version"],
        json!({"type": "string", "pattern": r"^\d+\.\d+$",
               "description": "A type serialized through another type (`#[serde(into)]`) has that type's schema."})
    );
}

/// Timestamps from chrono and jiff are RFC 3339 strings (features `chrono`, `jiff`).
#[cfg(all(feature = "chrono", feature = "jiff"))]
mod timestamps {
    use super::*;

    #[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
    #[kube_marker(group = "t.example.com", version = "v1", kind = "Stamp")]
    pub struct StampSpec {
        pub chrono: chrono::DateTime<chrono::Utc>,
        pub jiff: Option<jiff::Timestamp>,
    }

    #[test]
    fn timestamps_are_date_time_strings() {
        let p = &spec_of::<Stamp>()["properties"];
        assert_eq!(
            p["chrono"],
            json!({"type": "string", "format": "date-time"})
        );
        assert_eq!(p["jiff"], json!({"type": "string", "format": "date-time"}));
    }
}
