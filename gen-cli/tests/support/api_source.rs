//! Random API crates that are valid Rust syntax, built by a structured generator from
//! `arbitrary`'s bytes: structs, newtypes and enums (in the root module or inline modules) whose
//! fields are scalars, `Option`, `Vec`, maps, sets, k8s-openapi types, other generated types or
//! types kubegen cannot describe; serde attributes; `#[kube_marker]`, `#[rbac]`, `#[webhook]`
//! and `#[webhook_configuration]` drawn from the marker catalog (docs/markers.md) with valid,
//! near-miss (a misspelt key, a value of the wrong form, a missing `=`) and wrong values.
//! A crate is clean (every marker valid, every value of its field's type, every type described
//! and acyclic) or noisy, so that both the generators' output paths and their error paths are
//! reached. Shared by `no_panic.rs` and the fuzz target `api_sources` (`fuzz/`).

#![allow(dead_code)] // each user calls its own part

use std::fmt::Write;

use arbitrary::{Result, Unstructured};

/// The form of a marker's value, with good values (valid wherever the key fits) and bad ones
/// (the right form, a wrong value).
#[derive(Clone, Copy)]
enum Value {
    /// `key`, `key = true`, `key = false` (`key = false` only in noisy crates).
    Flag,
    /// `key` (serde's flags).
    Word,
    /// `key = true` or `key = false`.
    Bool,
    Str(&'static [&'static str], &'static [&'static str]),
    Int(&'static [i64], &'static [i64]),
    Num,
    /// `"a;b"` or `["a", "b"]`.
    List(&'static [&'static str], &'static [&'static str]),
    /// A JSON value fitting the field's type (`default`, `example`).
    Json,
    /// A JSON path into the object (`.spec.size`).
    Path,
    /// A list of the type's field names (`list_map_keys`, `at_most_one_of`).
    Fields,
    /// A generated type's name (`status`).
    TypeName,
    /// A CEL rule.
    Cel,
    Nested(&'static [(&'static str, Value)]),
    /// `key` or `key(...)` (`deprecated`).
    FlagOrNested(&'static [(&'static str, Value)]),
}

use Value::*;

/// Which fields a schema key fits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Str,
    Int,
    Num,
    Bool,
    Array,
    Map,
    Object,
    /// A type kubegen describes without a class of its own (k8s-openapi types, `Value`).
    Other,
}

const GROUPS: (&[&str], &[&str]) = (
    &["example.com", "cache.example.com", "bar.example.org"],
    &["Example.com", "example", "", "a_b.com"],
);
const VERSIONS: (&[&str], &[&str]) = (&["v1", "v1alpha1", "v2beta3"], &["1", "V1", "v1.0", ""]);
const KINDS: (&[&str], &[&str]) = (&["Memcached", "Foo", "CronJob"], &["foo", "Foo Bar", ""]);
const NAMES: (&[&str], &[&str]) = (&["memcacheds", "foos", "mc"], &["Foos", "a/b", ".."]);
const WORDS: (&[&str], &[&str]) = (&["all", "mc", "cache"], &["", "A B", "x;y"]);
const TEXT: (&[&str], &[&str]) = (
    &[
        "Some text.",
        "",
        "line one\nline two",
        "quote \" and \\ backslash",
    ],
    &["\u{0}", "é\u{7f}"],
);
const PATTERNS: (&[&str], &[&str]) = (&["^a+$", r"^\d{1,3}$", "[a-z]"], &["a)", "(?<n>a)", "\\"]);
const FORMATS: (&[&str], &[&str]) = (&["date-time", "byte", "int32"], &["nope", ""]);
const SERDE_CASES: (&[&str], &[&str]) = (
    &[
        "camelCase",
        "snake_case",
        "PascalCase",
        "kebab-case",
        "lowercase",
    ],
    &["camelcase", "Camel"],
);
const VERBS: (&[&str], &[&str]) = (
    &["get", "list", "watch", "create", "update", "patch", "*"],
    &["lsit", "GET", ""],
);
const HOOK_VERBS: (&[&str], &[&str]) = (&["create", "update", "delete", "*"], &["get", "udpate"]);
const RESOURCES: (&[&str], &[&str]) = (
    &[
        "deployments",
        "pods",
        "memcacheds",
        "deployments/status",
        "*",
    ],
    &["", "a/b/c"],
);
const RBAC_GROUPS: (&[&str], &[&str]) = (
    &["", "apps", "core", "cache.example.com", "*"],
    &["Apps", "a b"],
);
const DNS: (&[&str], &[&str]) = (
    &["mmemcached.kb.io", "vfoo.example.com"],
    &["short", "a.b", "Bad.Name.io"],
);
const CEL: (&[&str], &[&str]) = (
    &[
        "self.size > 0",
        "self == oldSelf",
        "has(self.name)",
        "size(self) <= 10",
        "true",
    ],
    &[
        "self.",
        "self.nosuch == 1",
        "1 +",
        "self.size.startsWith('a')",
        "oldSelf",
    ],
);
const JSON_TEXT: (&[&str], &[&str]) = (&[r#"{"a": 1}"#, "[]", "\"s\"", "1"], &["{", "", "nul"]);
const PATCHES: (&[&str], &[&str]) = (
    &[
        r#"{"namespaceSelector": {"matchLabels": {"a": "b"}}}"#,
        "{}",
    ],
    &["{", "[1]", r#"{"name": 1}"#],
);

/// Keys on a resource's spec struct.
const RESOURCE_KEYS: &[(&str, Value)] = &[
    ("group", Str(GROUPS.0, GROUPS.1)),
    ("version", Str(VERSIONS.0, VERSIONS.1)),
    ("kind", Str(KINDS.0, KINDS.1)),
    ("plural", Str(NAMES.0, NAMES.1)),
    ("singular", Str(&["memcached", "foo"], NAMES.1)),
    (
        "scope",
        Str(&["Namespaced", "Cluster"], &["namespaced", "Global"]),
    ),
    ("namespaced", Flag),
    ("short_names", List(WORDS.0, WORDS.1)),
    ("categories", List(WORDS.0, WORDS.1)),
    ("status", TypeName),
    (
        "scale",
        Nested(&[
            ("spec_path", Path),
            ("status_path", Path),
            ("selector_path", Path),
        ]),
    ),
    ("printcolumn", Nested(PRINTCOLUMN)),
    ("storage_version", Flag),
    ("served", Bool),
    ("skip_version", Flag),
    (
        "deprecated",
        FlagOrNested(&[("warning", Str(TEXT.0, TEXT.1))]),
    ),
    ("selectable_field", Nested(&[("json_path", Path)])),
    (
        "annotations",
        List(&["a=b", "example.com/k=v"], &["a", "=b", "a b=c"]),
    ),
    ("labels", List(&["a=b", "app=x"], &["a", "A=b=c"])),
    ("doc", Str(TEXT.0, TEXT.1)),
    ("derive", List(&["PartialEq", "Eq"], &["", "not a path"])),
    ("conversion", Nested(&[("webhook", Nested(CONVERSION))])),
];

const PRINTCOLUMN: &[(&str, Value)] = &[
    ("name", Str(&["Size", "Age"], &[""])),
    (
        "type",
        Str(
            &["integer", "string", "date", "boolean", "number"],
            &["int", ""],
        ),
    ),
    ("json_path", Path),
    ("description", Str(TEXT.0, TEXT.1)),
    ("format", Str(FORMATS.0, FORMATS.1)),
    ("priority", Int(&[0, 1], &[-1, 1 << 40])),
];

const CONVERSION: &[(&str, Value)] = &[
    ("path", Str(&["/convert"], &["convert", ""])),
    ("service_name", Str(&["webhook-service"], &["Bad_Name"])),
    ("service_namespace", Str(&["system"], &["Bad_NS"])),
    ("service_port", Int(&[443, 9443], &[0, 70000])),
    (
        "url",
        Str(&["https://example.com/convert"], &["http://x", "not a url"]),
    ),
    ("review_versions", List(&["v1", "v1beta1"], &["v2", ""])),
];

/// Schema keys, with the class of field each fits (`None`: any).
const SCHEMA_KEYS: &[(&str, Value, Option<Class>)] = &[
    ("minimum", Num, Some(Class::Int)),
    ("maximum", Num, Some(Class::Int)),
    ("multiple_of", Num, Some(Class::Num)),
    ("exclusive_minimum", Flag, Some(Class::Num)),
    ("exclusive_maximum", Flag, Some(Class::Num)),
    (
        "min_length",
        Int(&[0, 1, 4], &[-1, 1 << 40]),
        Some(Class::Str),
    ),
    ("max_length", Int(&[63, 253], &[-1]), Some(Class::Str)),
    ("pattern", Str(PATTERNS.0, PATTERNS.1), Some(Class::Str)),
    ("format", Str(FORMATS.0, FORMATS.1), Some(Class::Str)),
    ("enum_values", List(&["a", "b", "c"], &[]), Some(Class::Str)),
    ("min_items", Int(&[0, 1], &[-1]), Some(Class::Array)),
    ("max_items", Int(&[10, 100], &[-5]), Some(Class::Array)),
    ("unique_items", Flag, Some(Class::Array)),
    (
        "list_type",
        Str(&["atomic", "set"], &["map", "list"]),
        Some(Class::Array),
    ),
    ("list_map_keys", Fields, Some(Class::Array)),
    ("items", Nested(ITEMS), Some(Class::Array)),
    ("min_properties", Int(&[0, 1], &[-1]), Some(Class::Map)),
    ("max_properties", Int(&[8], &[-1]), Some(Class::Map)),
    (
        "map_type",
        Str(&["atomic", "granular"], &["set"]),
        Some(Class::Map),
    ),
    (
        "struct_type",
        Str(&["atomic", "granular"], &["map"]),
        Some(Class::Object),
    ),
    ("at_most_one_of", Fields, Some(Class::Object)),
    ("exactly_one_of", Fields, Some(Class::Object)),
    ("x_validation", Nested(X_VALIDATION), None),
    (
        "schema_type",
        Str(&["string", "object", "integer"], &["str", "Object"]),
        None,
    ),
    ("immutable", Flag, None),
    ("embedded_resource", Flag, Some(Class::Object)),
    ("int_or_string", Flag, Some(Class::Other)),
    ("preserve_unknown_fields", Flag, None),
    ("schemaless", Flag, None),
    ("optional", Flag, None),
    ("required", Flag, None),
    ("nullable", Flag, None),
    ("default", Json, None),
    ("default_json", Str(JSON_TEXT.0, JSON_TEXT.1), None),
    ("example", Json, None),
    ("example_json", Str(JSON_TEXT.0, JSON_TEXT.1), None),
    ("title", Str(TEXT.0, TEXT.1), None),
    ("description", Str(TEXT.0, TEXT.1), None),
    (
        "external_docs",
        Nested(&[
            ("url", Str(&["https://example.com"], &["x"])),
            ("description", Str(TEXT.0, TEXT.1)),
        ]),
        None,
    ),
];

const ITEMS: &[(&str, Value)] = &[
    ("min_length", Int(&[1], &[-1])),
    ("max_length", Int(&[63], &[-1])),
    ("pattern", Str(PATTERNS.0, PATTERNS.1)),
    ("enum_values", List(&["a", "b"], &[])),
    ("minimum", Num),
    ("format", Str(FORMATS.0, FORMATS.1)),
];

const X_VALIDATION: &[(&str, Value)] = &[
    ("rule", Cel),
    ("message", Str(&["must hold"], &["line\nbreak"])),
    ("message_expression", Cel),
    (
        "reason",
        Str(&["FieldValueInvalid", "FieldValueForbidden"], &["Bogus"]),
    ),
    ("field_path", Path),
    ("optional_old_self", Bool),
];

const RBAC_KEYS: &[(&str, Value)] = &[
    ("groups", List(RBAC_GROUPS.0, RBAC_GROUPS.1)),
    ("resources", List(RESOURCES.0, RESOURCES.1)),
    ("verbs", List(VERBS.0, VERBS.1)),
    ("resource_names", List(&["one", "two"], &[""])),
    ("urls", List(&["/healthz", "/metrics/*"], &["healthz", ""])),
    ("namespace", Str(&["default", "system"], &["Bad_NS", ""])),
    (
        "role_name",
        Str(&["manager-role", "other-role"], &["a/b", ".."]),
    ),
];

const WEBHOOK_KEYS: &[(&str, Value)] = &[
    ("mutating", Bool),
    ("failure_policy", Str(&["fail", "Ignore"], &["retry"])),
    (
        "side_effects",
        Str(&["None", "NoneOnDryRun"], &["Some", "Unknown"]),
    ),
    ("groups", List(RBAC_GROUPS.0, RBAC_GROUPS.1)),
    ("resources", List(RESOURCES.0, RESOURCES.1)),
    ("verbs", List(HOOK_VERBS.0, HOOK_VERBS.1)),
    ("versions", List(VERSIONS.0, VERSIONS.1)),
    ("name", Str(DNS.0, DNS.1)),
    (
        "admission_review_versions",
        List(&["v1", "v1beta1"], &["v2"]),
    ),
    ("match_policy", Str(&["Exact", "Equivalent"], &["exact!"])),
    ("timeout_seconds", Int(&[1, 10, 30], &[0, 31, -1])),
    ("path", Str(&["/mutate-foo", "/validate-v1"], &["no-slash"])),
    ("url", Str(&["https://example.com/hook"], &["ftp://x"])),
    ("service_name", Str(&["webhook-service"], &["Bad_Name"])),
    ("service_namespace", Str(&["system"], &["Bad_NS"])),
    ("service_port", Int(&[443], &[0, 1 << 20])),
    (
        "reinvocation_policy",
        Str(&["Never", "IfNeeded"], &["Always"]),
    ),
    ("patch", Str(PATCHES.0, PATCHES.1)),
];

/// The keys a clean `#[webhook]` always has.
const WEBHOOK_REQUIRED: usize = 9;

const WEBHOOK_CONFIGURATION_KEYS: &[(&str, Value)] = &[
    ("mutating", Bool),
    (
        "name",
        Str(&["memcached-defaulter", "hooks"], &["Bad_Name", ""]),
    ),
];

const SERDE_CONTAINER: &[(&str, Value)] = &[
    ("rename_all", Str(SERDE_CASES.0, SERDE_CASES.1)),
    ("rename_all_fields", Str(SERDE_CASES.0, SERDE_CASES.1)),
    ("default", Word),
    ("deny_unknown_fields", Word),
];

const SERDE_ENUM: &[(&str, Value)] = &[
    ("tag", Str(&["type", "kind"], &[""])),
    ("content", Str(&["value"], &[""])),
    ("untagged", Word),
];

const SERDE_FIELD: &[(&str, Value)] = &[
    ("alias", Str(&["old"], &[""])),
    ("rename", Str(&["renamed", "otherName"], &["", "a b"])),
    ("default", Word),
    ("skip", Word),
    ("skip_serializing", Word),
    ("skip_deserializing", Word),
    (
        "skip_serializing_if",
        Str(&["Option::is_none"], &["not a path"]),
    ),
    ("flatten", Word),
];

/// Field names: few, so that paths and lists of field names often name a field.
const FIELD_NAMES: &[&str] = &[
    "size", "name", "image", "ports", "replicas", "items", "r#type", "x",
];

/// k8s-openapi types and others kubegen describes.
const KNOWN_TYPES: &[&str] = &[
    "k8s_openapi::apimachinery::pkg::api::resource::Quantity",
    "k8s_openapi::apimachinery::pkg::util::intstr::IntOrString",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::Time",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector",
    "k8s_openapi::api::core::v1::PodTemplateSpec",
    "k8s_openapi::api::core::v1::ResourceRequirements",
    "k8s_openapi::api::core::v1::Container",
    "serde_json::Value",
];

/// Types kubegen cannot describe (noisy crates only).
const UNKNOWN_TYPES: &[&str] = &[
    "std::time::Duration",
    "(i32, String)",
    "u128",
    "std::marker::PhantomData<i32>",
    "Self",
    "k8s_openapi::api::core::v1::NoSuchType",
    "Unknown<i32>",
];

/// What a marker is on: the names of its fields (for paths and lists of names) and its class.
#[derive(Clone, Copy)]
struct On<'f> {
    fields: &'f [&'static str],
    class: Class,
}

/// A function: no fields, and any key goes.
const HANDLER: On = On {
    fields: &[],
    class: Class::Other,
};

/// One generated type, decided before any is written (fields name each other).
struct Decl {
    name: String,
    module: Option<usize>,
    resource: bool,
}

/// The generator's state: the bytes, whether the crate is clean, and the declared types.
struct Gen<'a, 'b> {
    u: &'b mut Unstructured<'a>,
    /// 0: clean; otherwise a mistake roughly once per `36 - 6 * noise` values.
    noise: u8,
    decls: Vec<Decl>,
    /// The type being written.
    current: usize,
    /// Whether a clean crate has its one `#[webhook]` and `#[webhook_configuration]`.
    hooked: bool,
}

/// A random API crate's source from `bytes`, written as the root file of a crate in `dir`;
/// panics unless it parses as a Rust file.
pub fn write_api_source(bytes: &[u8], dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let source = api_source(&mut Unstructured::new(bytes)).expect("the generator never fails");
    if let Err(e) = syn::parse_file(&source) {
        panic!("the generated source does not parse ({e}):\n{source}");
    }
    let root = dir.join("lib.rs");
    std::fs::write(&root, &source).expect("the source is written");
    (root, source)
}

/// A random API crate (the text of its root file) from `u`'s bytes.
pub fn api_source(u: &mut Unstructured) -> Result<String> {
    let noise = if u.ratio(1, 3)? {
        0
    } else {
        u.int_in_range(1..=5)?
    };
    let modules = u.int_in_range(0..=2)?;
    let count = u.int_in_range(1..=6)?;
    let mut decls = Vec::new();
    for i in 0..count {
        let resource = i == 0 || u.ratio(1, 4)?;
        let module = if modules > 0 && u.ratio(1, 3)? {
            Some(u.choose_index(modules)?)
        } else {
            None
        };
        let name = if resource {
            format!("T{i}Spec")
        } else {
            format!("T{i}")
        };
        decls.push(Decl {
            name,
            module,
            resource,
        });
    }
    let mut g = Gen {
        u,
        noise,
        decls,
        current: 0,
        hooked: false,
    };
    let mut bodies: Vec<String> = vec![String::new(); modules + 1];
    for i in 0..g.decls.len() {
        let text = g.type_def(i)?;
        let at = g.decls[i].module.map_or(0, |m| m + 1);
        bodies[at].push_str(&text);
    }
    for _ in 0..g.u.int_in_range(0..=3)? {
        let at = g.u.choose_index(bodies.len())?;
        let text = g.function(bodies[at].len())?;
        bodies[at].push_str(&text);
    }
    let mut out = format!("//! A generated API crate (noise {noise}).\n\n");
    out.push_str(
        "use kubegen::{CustomResource, KubeSchema, rbac, webhook, webhook_configuration};\n\
         use serde::{Deserialize, Serialize};\n\
         use std::collections::{BTreeMap, BTreeSet, HashMap};\n\n",
    );
    out.push_str(&bodies[0]);
    for (m, body) in bodies.iter().enumerate().skip(1) {
        let _ = writeln!(
            out,
            "pub mod m{} {{\n    use super::*;\n\n{body}}}\n",
            m - 1
        );
    }
    Ok(out)
}

impl Gen<'_, '_> {
    fn clean(&self) -> bool {
        self.noise == 0
    }

    /// Whether the next marker goes wrong.
    fn wrong(&mut self) -> Result<bool> {
        Ok(!self.clean() && self.u.ratio(1, 36 - 6 * u32::from(self.noise))?)
    }

    fn pick<T: Copy>(&mut self, good: &[T], bad: &[T]) -> Result<T> {
        if !bad.is_empty() && self.wrong()? {
            self.u.choose(bad).copied()
        } else {
            self.u.choose(good).copied()
        }
    }

    /// The type `i`: its doc, derives, markers, serde attributes and body.
    fn type_def(&mut self, i: usize) -> Result<String> {
        let resource = self.decls[i].resource;
        self.current = i;
        let mut out = self.doc()?;
        let derive = if resource {
            "CustomResource, "
        } else if self.clean() || self.u.ratio(7, 8)? {
            "KubeSchema, "
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "#[derive({derive}Serialize, Deserialize, Clone, Debug)]"
        );
        let shape = if resource {
            self.u.choose_index(6)?.min(3)
        } else {
            self.u.choose_index(6)?
        };
        let (body, fields, class) = match shape {
            0..=3 => self.struct_body(i)?,
            4 => {
                let (ty, class) = self.ty(i, 0)?;
                out.push_str("#[serde(transparent)]\n");
                (format!("(pub {ty});\n"), Vec::new(), class)
            }
            _ => self.enum_body(i, &mut out)?,
        };
        if resource {
            out.push_str(&self.resource_markers(i, &fields)?);
        }
        // A clean item has one schema attribute: two could give one key two values.
        for _ in 0..self.u.int_in_range(0..=if self.clean() { 1 } else { 2 })? {
            let keys = self.schema_keys(class, false)?;
            if !keys.is_empty() {
                out.push_str(&self.attribute(
                    "kube_marker",
                    &keys,
                    On {
                        fields: &fields,
                        class,
                    },
                )?);
            }
        }
        if shape <= 3 && self.u.ratio(1, 2)? {
            out.push_str(&self.serde(SERDE_CONTAINER, &fields)?);
        }
        let item = if shape == 5 { "enum" } else { "struct" };
        let _ = writeln!(out, "pub {item} {}{body}", self.decls[i].name);
        Ok(out)
    }

    /// A struct's named fields: the body, the fields' JSON-ish names, its class.
    fn struct_body(&mut self, owner: usize) -> Result<(String, Vec<&'static str>, Class)> {
        let mut body = String::from(" {\n");
        let mut names: Vec<&'static str> = Vec::new();
        for _ in 0..self.u.int_in_range(0..=6)? {
            let name = *self.u.choose(FIELD_NAMES)?;
            if self.clean() && names.contains(&name) {
                continue;
            }
            names.push(name);
            body.push_str(&self.field(owner, name, "pub ")?);
        }
        body.push_str("}\n");
        Ok((body, names, Class::Object))
    }

    /// One field: doc, serde and kube_marker attributes, `{visibility}{name}: Type,`.
    fn field(&mut self, owner: usize, name: &str, visibility: &str) -> Result<String> {
        let (ty, class) = self.ty(owner, 0)?;
        let mut out = self.doc()?;
        if self.u.ratio(1, 4)? {
            out.push_str(&self.serde(SERDE_FIELD, &[])?);
        }
        for _ in 0..self.u.int_in_range(0..=if self.clean() { 1 } else { 2 })? {
            let keys = self.schema_keys(class, true)?;
            if !keys.is_empty() {
                out.push_str(&self.attribute("kube_marker", &keys, On { fields: &[], class })?);
            }
        }
        let _ = writeln!(out, "{visibility}{name}: {ty},");
        Ok(indent(&out))
    }

    /// An enum's variants (unit, tuple or struct), with its serde tagging in `attrs`.
    fn enum_body(
        &mut self,
        owner: usize,
        attrs: &mut String,
    ) -> Result<(String, Vec<&'static str>, Class)> {
        let unit_only = self.u.ratio(1, 2)?;
        if !unit_only && self.u.ratio(1, 2)? {
            attrs.push_str(&self.serde(SERDE_ENUM, &[])?);
        }
        let mut body = String::from(" {\n");
        let count = self.u.int_in_range(1..=4)?;
        for v in 0..count {
            let mut variant = self.doc()?;
            if self.u.ratio(1, 5)? {
                variant.push_str(&self.serde(&SERDE_FIELD[..2], &[])?);
            }
            let _ = write!(variant, "V{v}");
            if !unit_only {
                // A clean enum's variants are all objects: unit ones would be strings.
                let first = if self.clean() { 2 } else { 0 };
                match self.u.int_in_range(first..=2)? {
                    0 => {}
                    1 => {
                        let (ty, _) = self.ty(owner, 1)?;
                        let _ = write!(variant, "({ty})");
                    }
                    _ => {
                        variant.push_str(" {\n");
                        for _ in 0..self.u.int_in_range(0..=2)? {
                            let name = *self.u.choose(FIELD_NAMES)?;
                            variant.push_str(&indent(&self.field(owner, name, "")?));
                        }
                        variant.push('}');
                    }
                }
            }
            variant.push_str(",\n");
            body.push_str(&indent(&variant));
        }
        body.push_str("}\n");
        Ok((
            body,
            Vec::new(),
            if unit_only { Class::Str } else { Class::Object },
        ))
    }

    /// A field type and its class; `owner`'s own and earlier types only in noisy crates
    /// (a clean crate's types form no cycle).
    fn ty(&mut self, owner: usize, depth: usize) -> Result<(String, Class)> {
        let choice = if depth >= 3 {
            self.u.choose_index(8)?
        } else {
            self.u.choose_index(18)?
        };
        Ok(match choice {
            0 => ("String".into(), Class::Str),
            1 => ("bool".into(), Class::Bool),
            2 => (
                self.u
                    .choose(&["i32", "i64", "u8", "u16", "u32", "usize"])?
                    .to_string(),
                Class::Int,
            ),
            3 => (self.u.choose(&["f32", "f64"])?.to_string(), Class::Num),
            4 => ("char".into(), Class::Str),
            5 => ("&'static str".into(), Class::Str),
            6 | 7 => {
                let known = *self.u.choose(KNOWN_TYPES)?;
                if !self.clean() && self.u.ratio(1, 4)? {
                    (self.u.choose(UNKNOWN_TYPES)?.to_string(), Class::Other)
                } else {
                    (known.into(), Class::Other)
                }
            }
            8 | 9 => {
                let (t, c) = self.ty(owner, depth + 1)?;
                (format!("Option<{t}>"), c)
            }
            10 | 11 => (
                format!("Vec<{}>", self.ty(owner, depth + 1)?.0),
                Class::Array,
            ),
            12 => (
                format!("BTreeMap<String, {}>", self.ty(owner, depth + 1)?.0),
                Class::Map,
            ),
            13 => {
                let key = if self.wrong()? { "i32" } else { "String" };
                (
                    format!("HashMap<{key}, {}>", self.ty(owner, depth + 1)?.0),
                    Class::Map,
                )
            }
            // A set of objects or of `Option`s is an error.
            14 if self.clean() => (
                format!("BTreeSet<{}>", self.u.choose(&["String", "i64"])?),
                Class::Array,
            ),
            14 => (
                format!("BTreeSet<{}>", self.ty(owner, depth + 1)?.0),
                Class::Array,
            ),
            15 => {
                let n = self.u.int_in_range(0..=3)?;
                (
                    format!("[{}; {n}]", self.ty(owner, depth + 1)?.0),
                    Class::Array,
                )
            }
            16 => {
                let (t, c) = self.ty(owner, depth + 1)?;
                (format!("Box<{t}>"), c)
            }
            _ => self.reference(owner)?,
        })
    }

    /// A reference to a generated type, by a path that resolves from `owner`'s module.
    fn reference(&mut self, owner: usize) -> Result<(String, Class)> {
        let first = if self.clean() { owner + 1 } else { 0 };
        let candidates: Vec<usize> = (first..self.decls.len())
            .filter(|&j| !self.clean() || !self.decls[j].resource)
            .collect();
        if candidates.is_empty() {
            return Ok(("String".into(), Class::Str));
        }
        let j = *self.u.choose(&candidates)?;
        // Resources and enums are objects or strings: `Other` lets any key through.
        Ok((self.path(j, owner)?, Class::Other))
    }

    /// A path to type `to` from the module of type `from`.
    fn path(&mut self, to: usize, from: usize) -> Result<String> {
        let (to, from) = (&self.decls[to], &self.decls[from]);
        Ok(match to.module {
            m if m == from.module && self.u.ratio(2, 3)? => to.name.clone(),
            Some(m) => format!("crate::m{m}::{}", to.name),
            None => format!("crate::{}", to.name),
        })
    }

    /// `#[kube_marker(...)]` with the keys a resource needs, and a few others.
    fn resource_markers(&mut self, i: usize, fields: &[&'static str]) -> Result<String> {
        let mut keys: Vec<(&'static str, Value)> = RESOURCE_KEYS[..3].to_vec();
        if !self.clean() && self.u.ratio(1, 6)? {
            keys.remove(self.u.choose_index(3)?);
        }
        for _ in 0..self.u.int_in_range(0..=4)? {
            let key = *self.u.choose(&RESOURCE_KEYS[3..])?;
            // Keys that clash between kinds, or need what a clean crate may not have.
            let unclean = [
                "conversion",
                "skip_version",
                "served",
                "deprecated",
                "plural",
                "singular",
                "short_names",
                "scale",
                "selectable_field",
            ];
            let no_status = key.0 == "status" && !self.decls.iter().any(|d| !d.resource);
            if self.clean()
                && (unclean.contains(&key.0) || no_status || keys.iter().any(|k| k.0 == key.0))
            {
                continue;
            }
            keys.push(key);
        }
        let mut out = String::new();
        let kind = if self.clean() {
            Some(format!("Kind{i}"))
        } else {
            None
        };
        let rest = keys.split_off(3.min(keys.len()));
        for (k, v) in &keys {
            let mut text = String::from("#[kube_marker(");
            match (*k, &kind) {
                ("kind", Some(kind)) => {
                    let _ = write!(text, "kind = {kind:?}");
                }
                _ => self.entry(
                    &mut text,
                    k,
                    *v,
                    On {
                        fields,
                        class: Class::Object,
                    },
                )?,
            }
            text.push_str(")]\n");
            out.push_str(&text);
        }
        if !rest.is_empty() {
            out.push_str(&self.attribute(
                "kube_marker",
                &rest,
                On {
                    fields,
                    class: Class::Object,
                },
            )?);
        }
        Ok(out)
    }

    /// Up to three schema keys; in a clean crate only keys that fit `class`.
    fn schema_keys(&mut self, class: Class, on_field: bool) -> Result<Vec<(&'static str, Value)>> {
        let mut keys = Vec::new();
        for _ in 0..self.u.int_in_range(1..=3)? {
            let (k, v, fits) = *self.u.choose(SCHEMA_KEYS)?;
            let fitting = fits.is_none() || fits == Some(class);
            let unclean = [
                "schema_type",
                "schemaless",
                "preserve_unknown_fields",
                "immutable",
                "example",
                "default",
                "x_validation",
                "list_map_keys",
                "list_type",
                "items",
                "unique_items",
                "required",
                "exclusive_minimum",
                "exclusive_maximum",
                "default_json",
                "example_json",
                "at_most_one_of",
                "exactly_one_of",
            ];
            // `optional` and `required` are for fields, the type keys for types.
            let misplaced = match on_field {
                true => ["at_most_one_of", "exactly_one_of"].contains(&k),
                false => ["optional", "required"].contains(&k),
            };
            if self.clean()
                && (!fitting
                    || misplaced
                    || unclean.contains(&k)
                    || keys.iter().any(|(q, _)| *q == k))
            {
                continue;
            }
            keys.push((k, v));
        }
        Ok(keys)
    }

    /// `#[name(key = value, ...)]` on its own line.
    fn attribute(&mut self, name: &str, keys: &[(&'static str, Value)], on: On) -> Result<String> {
        let mut out = format!("#[{name}(");
        for (n, (k, v)) in keys.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            self.entry(&mut out, k, *v, on)?;
        }
        if !self.clean() && self.u.ratio(1, 30)? {
            out.push(',');
        }
        out.push_str(")]\n");
        Ok(out)
    }

    /// A serde attribute with one to two keys of `keys`.
    fn serde(&mut self, keys: &[(&'static str, Value)], fields: &[&'static str]) -> Result<String> {
        let mut chosen = Vec::new();
        for _ in 0..self.u.int_in_range(1..=2)? {
            let key = *self.u.choose(keys)?;
            // Serde's own errors (rustc's, not kubegen's) are left out of clean crates.
            let serde_only = [
                "skip",
                "skip_serializing",
                "skip_deserializing",
                "flatten",
                "skip_serializing_if",
                "untagged",
                "content",
                "rename",
            ];
            if self.clean()
                && (serde_only.contains(&key.0)
                    || chosen.iter().any(|(k, _): &(&str, Value)| *k == key.0))
            {
                continue;
            }
            chosen.push(key);
        }
        if chosen.is_empty() {
            return Ok(String::new());
        }
        self.attribute(
            "serde",
            &chosen,
            On {
                fields,
                class: Class::Object,
            },
        )
    }

    /// `key = value`, or one of its near misses.
    fn entry(&mut self, out: &mut String, key: &str, value: Value, on: On) -> Result<()> {
        if self.wrong()? {
            return self.near_miss(out, key, value, on);
        }
        out.push_str(key);
        self.value(out, value, on)
    }

    /// A misspelt key, a value of the wrong form, or a broken `key = value`.
    fn near_miss(&mut self, out: &mut String, key: &str, value: Value, on: On) -> Result<()> {
        match self.u.choose_index(4)? {
            0 => {
                out.push_str(&self.misspelt(key)?);
                self.value(out, value, on)
            }
            1 => {
                out.push_str(key);
                let wrong = [
                    "",
                    " = \"4\"",
                    " = 4",
                    " = -1.5",
                    " = true",
                    " = [\"a\", 1]",
                    "(x = 1)",
                    " = r\"raw\"",
                    " = some::path",
                    " = 'c'",
                    " = b\"b\"",
                ];
                out.push_str(self.u.choose(&wrong)?);
                Ok(())
            }
            2 => {
                let _ = write!(out, "{key} ");
                let mut rest = String::new();
                self.value(&mut rest, value, on)?;
                out.push_str(rest.trim_start().trim_start_matches('='));
                Ok(())
            }
            _ => {
                out.push_str(key);
                out.push_str(
                    self.u
                        .choose(&[" =", " == 1", " = 1 2", " = ,", "()", "(,)"])?,
                );
                Ok(())
            }
        }
    }

    /// `key` with one character deleted, doubled or changed.
    fn misspelt(&mut self, key: &str) -> Result<String> {
        let mut chars: Vec<char> = key.chars().collect();
        let at = self.u.choose_index(chars.len())?;
        match self.u.choose_index(3)? {
            0 if chars.len() > 1 => {
                chars.remove(at);
            }
            1 => chars.insert(at, chars[at]),
            _ => chars[at] = *self.u.choose(&['a', 'e', 's', '_'])?,
        }
        Ok(chars.into_iter().collect())
    }

    /// ` = value` (or nothing for a flag, `(...)` for a nested key) in `value`'s form.
    fn value(&mut self, out: &mut String, value: Value, on: On) -> Result<()> {
        let On { fields, class } = on;
        match value {
            Flag if self.clean() => out.push_str(self.u.choose(&["", " = true"])?),
            Flag => out.push_str(self.u.choose(&["", " = true", " = false"])?),
            Word => {}
            Bool => out.push_str(self.u.choose(&[" = true", " = false"])?),
            Str(good, bad) => {
                let s = self.pick(good, bad)?;
                string(out, s, self.u.ratio(1, 4)?);
            }
            Int(good, bad) => {
                let n = self.pick(good, bad)?;
                let _ = write!(out, " = {n}");
            }
            Num => {
                let n = self.pick(&["0", "1", "5", "100"], &["-0.5", "1e3", "-1", "1.5"])?;
                let _ = write!(out, " = {n}");
            }
            List(good, bad) => {
                let n = self.u.int_in_range(1..=3)?;
                let mut items = Vec::new();
                for _ in 0..n {
                    items.push(self.pick(good, bad)?);
                }
                // `;` joins no empty item: `"a;"` is an error.
                if self.u.ratio(1, 2)? && !(self.clean() && items.contains(&"")) {
                    let _ = write!(out, " = {:?}", items.join(";"));
                } else {
                    let quoted: Vec<String> = items.iter().map(|s| format!("{s:?}")).collect();
                    let _ = write!(out, " = [{}]", quoted.join(", "));
                }
            }
            Json => {
                let text = match class {
                    Class::Int => self.pick(&["1", "0"], &["\"1\"", "1.5"])?,
                    Class::Num => self.pick(&["1.5", "0"], &["\"x\""])?,
                    Class::Str => self.pick(&["\"a\""], &["1", "[\"a\"]"])?,
                    Class::Bool => self.pick(&["true"], &["\"true\""])?,
                    Class::Array => self.pick(&["[]"], &["{}", "1"])?,
                    _ => self
                        .u
                        .choose(&["1", "\"a\"", "[\"a\", \"b\"]", "true", "-2.5"])?,
                };
                let _ = write!(out, " = {text}");
            }
            Path if self.clean() => {
                let path = match fields.first() {
                    Some(_) => format!(".spec.{}", self.field_name(fields)?),
                    None => ".metadata.name".to_string(),
                };
                string(out, &path, false);
            }
            Path => {
                let root =
                    self.pick(&[".spec", ".status", ".metadata"], &["spec", "", ".spec.."])?;
                let name = self.field_name(fields)?;
                string(out, &format!("{root}.{name}"), false);
            }
            Fields => {
                let n = self.u.int_in_range(1..=2)?;
                let mut names = Vec::new();
                for _ in 0..n {
                    names.push(self.field_name(fields)?);
                }
                let _ = write!(out, " = {:?}", names);
            }
            TypeName => {
                let types: Vec<usize> = (0..self.decls.len())
                    .filter(|&j| !self.decls[j].resource)
                    .collect();
                let name = match types.is_empty() || self.wrong()? {
                    true => "NoSuchStatus".to_string(),
                    false => {
                        let j = *self.u.choose(&types)?;
                        self.path(j, self.current)?
                    }
                };
                string(out, &name, false);
            }
            Cel => {
                let rule = self.pick(CEL.0, CEL.1)?;
                string(out, rule, self.u.ratio(1, 3)?);
            }
            Nested(keys) => self.nested(out, keys, on)?,
            FlagOrNested(keys) => {
                if self.u.ratio(1, 2)? {
                    self.nested(out, keys, on)?;
                }
            }
        }
        Ok(())
    }

    /// `(key = value, ...)` with one or more of `keys`, every key in a clean crate.
    fn nested(&mut self, out: &mut String, keys: &[(&'static str, Value)], on: On) -> Result<()> {
        out.push('(');
        let mut first = true;
        for (k, v) in keys {
            let wanted = self.clean() || self.u.ratio(2, 3)?;
            let bad_in_clean = self.clean()
                && ([
                    "selector_path",
                    "message_expression",
                    "field_path",
                    "format",
                ]
                .contains(k));
            if !wanted || bad_in_clean {
                continue;
            }
            if !first {
                out.push_str(", ");
            }
            first = false;
            self.entry(
                out,
                k,
                *v,
                On {
                    class: Class::Other,
                    ..on
                },
            )?;
        }
        out.push(')');
        Ok(())
    }

    /// A name of `fields`, or of any field in a noisy crate.
    fn field_name(&mut self, fields: &[&'static str]) -> Result<&'static str> {
        let name = if fields.is_empty() || self.wrong()? {
            *self.u.choose(FIELD_NAMES)?
        } else {
            *self.u.choose(fields)?
        };
        Ok(name.trim_start_matches("r#"))
    }

    /// Zero to two lines of doc comment.
    fn doc(&mut self) -> Result<String> {
        let mut out = String::new();
        for _ in 0..self.u.int_in_range(0..=2)? {
            let line = *self.u.choose(&[
                "Some documentation.",
                "",
                " indented",
                "A `code` span and a [link](https://k8s.io).",
            ])?;
            let _ = writeln!(out, "///{}{line}", if line.is_empty() { "" } else { " " });
        }
        Ok(out)
    }

    /// A function with `#[rbac]`, `#[webhook]` and `#[webhook_configuration]` attributes.
    fn function(&mut self, n: usize) -> Result<String> {
        let mut out = self.doc()?;
        for _ in 0..self.u.int_in_range(1..=3)? {
            let mut choice = self.u.choose_index(5)?;
            if self.clean() && choice > 2 {
                // Two webhooks or configurations of one name are an error.
                choice = if self.hooked { 0 } else { choice };
                self.hooked = true;
            }
            let text = match choice {
                0..=2 => {
                    let keys = self.fn_keys(RBAC_KEYS, 3)?;
                    self.attribute("rbac", &keys, HANDLER)?
                }
                3 => {
                    let keys = self.fn_keys(WEBHOOK_KEYS, WEBHOOK_REQUIRED)?;
                    self.attribute("webhook", &keys, HANDLER)?
                }
                _ => {
                    self.attribute("webhook_configuration", WEBHOOK_CONFIGURATION_KEYS, HANDLER)?
                }
            };
            out.push_str(&text);
        }
        let _ = writeln!(out, "pub fn f{n}() {{}}\n");
        Ok(out)
    }

    /// The first `required` keys of `keys` (or fewer in a noisy crate), and a few others.
    fn fn_keys(
        &mut self,
        keys: &[(&'static str, Value)],
        required: usize,
    ) -> Result<Vec<(&'static str, Value)>> {
        let mut chosen: Vec<(&'static str, Value)> = keys[..required].to_vec();
        if !self.clean() && self.u.ratio(1, 5)? {
            chosen.remove(self.u.choose_index(required)?);
        }
        for _ in 0..self.u.int_in_range(0..=2)? {
            let key = *self.u.choose(&keys[required..])?;
            if self.clean()
                && (chosen.iter().any(|k| k.0 == key.0)
                    || [
                        "url",
                        "urls",
                        "namespace",
                        "role_name",
                        "resource_names",
                        "reinvocation_policy",
                        "path",
                        "patch",
                    ]
                    .contains(&key.0))
            {
                continue;
            }
            chosen.push(key);
        }
        Ok(chosen)
    }
}

/// ` = "s"` (or a raw string when `raw` and `s` allows it).
fn string(out: &mut String, s: &str, raw: bool) {
    if raw && !s.contains('"') && !s.contains('\0') {
        let _ = write!(out, " = r\"{s}\"");
    } else {
        let _ = write!(out, " = {s:?}");
    }
}

/// `text` indented by four spaces.
fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("    {l}\n")
            }
        })
        .collect()
}

/// The top-level keys the generator draws, with their attribute's name.
pub fn drawn_keys() -> Vec<(&'static str, &'static str)> {
    let of = |attribute, keys: &'static [(&'static str, Value)]| {
        keys.iter().map(move |(key, _)| (attribute, *key))
    };
    of("kube_marker", RESOURCE_KEYS)
        .chain(SCHEMA_KEYS.iter().map(|(key, ..)| ("kube_marker", *key)))
        .chain(of("rbac", RBAC_KEYS))
        .chain(of("webhook", WEBHOOK_KEYS))
        .chain(of("webhook_configuration", WEBHOOK_CONFIGURATION_KEYS))
        .collect()
}
