//! The Go facts of one Kubernetes version (see `core/src/known/k8s/go_facts.rs`), read from
//! the Go sources of `k8s.io/api` and `k8s.io/apimachinery` at a tag ([`go_source`]) against
//! that version's k8s-openapi schemas (their types, fields and words, read from k8s-openapi's
//! sources), and the test that the committed table and k8s-openapi name the same types and
//! fields in every version.

use std::collections::BTreeMap;

use kubegen_core::parse::docs::{Comment, description};
use serde_json::Value;

use crate::go_source::{GoStruct, Structs};
use crate::k8s_openapi;
use crate::table::{Field, Type};

/// Every k8s-openapi definition of Kubernetes 1.`minor`, by Kubernetes name, as k8s-openapi's
/// sources write it.
pub fn openapi_definitions(minor: u32) -> BTreeMap<String, Value> {
    let (src, _) = k8s_openapi::sources();
    kubegen_core::known::read_kubernetes_sources(&src.join(format!("v1_{minor}")))
        .unwrap_or_else(|e| panic!("k8s-openapi's sources for 1.{minor}: {e}"))
        .schemas
        .into_iter()
        .collect()
}

/// The Go package and type of a definition the Go repositories declare, `None` for others
/// (apiextensions, kube-aggregator) and for the types controller-gen overrides.
fn go_name(definition: &str) -> Option<(String, String)> {
    if kubegen_core::known::overridden_by_controller_gen(definition) {
        return None;
    }
    let (package, name) = definition.rsplit_once('.')?;
    let package = if let Some(rest) = package.strip_prefix("io.k8s.api.") {
        format!("k8s.io/api/{}", rest.replace('.', "/"))
    } else if let Some(rest) = package.strip_prefix("io.k8s.apimachinery.") {
        format!("k8s.io/apimachinery/{}", rest.replace('.', "/"))
    } else {
        return None;
    };
    Some((package, name.to_string()))
}

/// One field as read, before its description's breaks are known.
struct Row {
    /// JSON name.
    name: String,
    /// In `required`.
    required: bool,
    /// Its facts, rendered as Rust.
    facts: Vec<String>,
    /// Its doc comment as controller-gen writes it.
    doc: String,
}

/// A doc comment (each line's text after `//`) as controller-gen makes it a description:
/// kubegen-core's rules, which the derive and the CLI apply to Rust doc comments.
pub fn controller_gen_doc(lines: &[String]) -> String {
    let comments: Vec<Comment> = lines.iter().map(|l| Comment::Line(l)).collect();
    description(&comments).unwrap_or_default()
}

/// Where controller-gen's description `go` breaks its lines, as the offsets the tables store
/// (see `rewrap` in `go_facts.rs`): `None` when the two texts are not the same
/// words, or when `go` is k8s-openapi's text already.
pub fn breaks(openapi: &str, go: &str) -> Option<String> {
    if openapi == go || go.starts_with(char::is_whitespace) {
        return None;
    }
    let words: Vec<&str> = openapi.split_whitespace().collect();
    if words.is_empty() || words != go.split_whitespace().collect::<Vec<_>>() {
        return None;
    }
    let mut entries = Vec::new();
    let mut rest = go;
    let mut last = 0;
    for (index, word) in words.iter().enumerate() {
        let start = rest.find(word)?;
        let separator = &rest[..start];
        rest = &rest[start + word.len()..];
        if index > 0 && separator != " " {
            let codes: String = separator
                .chars()
                .map(|c| match c {
                    '\n' => 'n',
                    '\t' => 't',
                    _ => 's',
                })
                .collect();
            entries.push(format!("{}{codes}", index - last));
            last = index;
        }
    }
    Some(format!("{}|{}", words.len(), entries.join(",")))
}

/// Whether a marker list has one of `names` (exactly, without a value).
fn has(markers: &[String], names: &[&str]) -> bool {
    markers.iter().any(|m| names.contains(&m.as_str()))
}

/// controller-gen's required-ness of a field (first match wins).
fn required(markers: &[String], omit: bool) -> bool {
    if has(markers, &["kubebuilder:validation:Optional"]) {
        false
    } else if has(markers, &["kubebuilder:validation:Required"]) {
        true
    } else if has(markers, &["optional", "k8s:optional"]) {
        false
    } else if has(markers, &["required", "k8s:required"]) {
        true
    } else {
        !omit
    }
}

/// A marker string value: raw (backquoted), quoted (Go/JSON escapes) or bare.
fn marker_string(value: &str) -> String {
    let value = value.trim();
    if let Some(raw) = value.strip_prefix('`').and_then(|v| v.strip_suffix('`')) {
        return raw.to_string();
    }
    if value.starts_with('"') {
        return serde_json::from_str(value).unwrap_or_else(|_| value.to_string());
    }
    value.to_string()
}

/// A marker value of any type, as controller-gen guesses it (bool, number, quoted or bare
/// string).
fn guess(value: &str) -> Value {
    let value = value.trim();
    match value {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if value.starts_with('"') || value.starts_with('`') {
        return Value::String(marker_string(value));
    }
    if let Ok(n) = value.parse::<i64>() {
        return n.into();
    }
    if let Ok(n) = value.parse::<f64>() {
        return n.into();
    }
    Value::String(value.to_string())
}

/// The facts of a field's markers, rendered as Rust (`Fact` variants).
fn facts(markers: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut default = None;
    let mut kubebuilder_default = None;
    let mut keys = Vec::new();
    for marker in markers {
        let Some((name, value)) = marker.split_once('=') else {
            continue;
        };
        let validation = name.strip_prefix("kubebuilder:validation:");
        match (name, validation) {
            ("default", _) if !value.starts_with("ref(") => {
                default = serde_json::from_str::<Value>(value).ok();
            }
            ("kubebuilder:default", _) => kubebuilder_default = Some(guess(value)),
            ("listType" | "k8s:listType", _) => out.push(format!("ListType({value:?})")),
            ("listMapKey" | "k8s:listMapKey", _) => keys.push(format!("{value:?}")),
            ("mapType" | "structType", _) => out.push(format!("MapType({value:?})")),
            (_, Some(kind @ ("MinLength" | "MaxLength" | "MinItems" | "MaxItems"))) => {
                if let Ok(n) = value.trim().parse::<u64>() {
                    out.push(format!("{kind}({n})"));
                }
            }
            (_, Some(kind @ ("Minimum" | "Maximum"))) => {
                if let Ok(n) = value.trim().parse::<f64>() {
                    out.push(format!("{kind}({n:?})"));
                }
            }
            (_, Some("Pattern")) => out.push(format!("Pattern({:?})", marker_string(value))),
            (_, Some("Enum")) => {
                let values: Vec<Value> = value.split(';').map(guess).collect();
                out.push(format!("Enum({:?})", Value::Array(values).to_string()));
            }
            _ => {}
        }
    }
    if !keys.is_empty() {
        out.push(format!("ListMapKeys(&[{}])", keys.join(", ")));
    }
    if let Some(value) = kubebuilder_default.or(default) {
        out.insert(0, format!("Default({:?})", value.to_string()));
    }
    out
}

/// The struct a Go type expression names (`*metav1.TypeMeta` in a file of `package`), through
/// aliases and defined types (`type X = v1.X`, `type X v1.X`).
fn resolve<'a>(
    structs: &'a Structs,
    package: &str,
    go: &GoStruct,
    ty: &str,
) -> Option<(String, &'a GoStruct)> {
    let ty = ty.trim_start_matches('*');
    let (package, name) = match ty.split_once('.') {
        Some((alias, name)) => (go.imports.get(alias)?.clone(), name),
        None => (package.to_string(), ty),
    };
    let found = structs.get(&(package.clone(), name.to_string()))?;
    match &found.alias_of {
        Some(target) => resolve(structs, &package, found, target),
        None => Some((package, found)),
    }
}

/// The doc of the named scalar type (`type Capability string`) a list's items or a map's
/// values have (`[]Capability`), as controller-gen writes it there.
fn element_doc(structs: &Structs, package: &str, go: &GoStruct, ty: &str) -> Option<String> {
    let element = match ty.strip_prefix("[]") {
        Some(element) => element,
        None => ty.strip_prefix("map[")?.split_once(']')?.1,
    };
    let (package, name) = match element.trim_start_matches('*').split_once('.') {
        Some((alias, name)) => (go.imports.get(alias)?.clone(), name),
        None => (package.to_string(), element.trim_start_matches('*')),
    };
    let named = structs.get(&(package, name.to_string()))?;
    let scalar = matches!(
        named.alias_of.as_deref(),
        Some("string" | "bool" | "int" | "int32" | "int64" | "float64")
    );
    let doc = controller_gen_doc(&named.doc);
    (scalar && !doc.is_empty()).then_some(doc)
}

/// The rows of a struct's fields, inline embedded structs' fields included; sets `atomic` when
/// an embedded struct is `+structType=atomic`.
fn rows(structs: &Structs, package: &str, go: &GoStruct, atomic: &mut bool, out: &mut Vec<Row>) {
    for field in &go.fields {
        if field.json.is_empty() {
            if let Some((inner_package, inner)) = resolve(structs, package, go, &field.ty) {
                *atomic |= has(&inner.markers, &["structType=atomic"]);
                rows(structs, &inner_package, inner, atomic, out);
            }
            continue;
        }
        let mut facts = facts(&field.markers);
        if let Some(doc) = element_doc(structs, package, go, &field.ty) {
            facts.push(format!("ItemsDoc({doc:?})"));
        }
        out.push(Row {
            name: field.json.clone(),
            required: required(&field.markers, field.omit),
            facts,
            doc: controller_gen_doc(&field.doc),
        });
    }
}

/// The types of one version: every definition of k8s-openapi's `definitions` that the Go
/// sources `structs` declare.
pub fn types(structs: &Structs, definitions: &BTreeMap<String, Value>) -> Vec<Type> {
    let mut types = Vec::new();
    for (definition, openapi) in definitions {
        let Some((package, name)) = go_name(definition) else {
            continue;
        };
        let Some(declared) = structs.get(&(package.clone(), name.clone())) else {
            continue;
        };
        let described = |value: &Value, go: &str| {
            value["description"]
                .as_str()
                .and_then(|text| breaks(text, go))
                .unwrap_or_default()
        };
        let Some((package, go)) = resolve(structs, &package, declared, &name) else {
            continue;
        };
        let mut atomic = has(&go.markers, &["structType=atomic"]);
        let mut rows_read = Vec::new();
        rows(structs, &package, go, &mut atomic, &mut rows_read);
        let mut fields: Vec<Field> = rows_read
            .into_iter()
            .map(|row| Field {
                breaks: described(&openapi["properties"][&row.name], &row.doc),
                name: row.name,
                required: row.required,
                facts: row.facts,
            })
            .collect();
        fields.sort_by(|a, b| a.name.cmp(&b.name));
        types.push(Type {
            name: definition.clone(),
            atomic,
            breaks: described(openapi, &controller_gen_doc(&declared.doc)),
            fields,
        });
    }
    types
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The property names of a k8s-openapi definition.
    fn properties(definition: &Value) -> BTreeSet<String> {
        definition["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// What k8s-openapi 0.29's 1.37 has and the newest Go sources read for the 1.37 table
    /// (`k8s.io/api` master of 2026-07-24) do not: added upstream after that commit. Exact: an
    /// entry that no longer differs fails the test too.
    const NEWER_THAN_THE_GO_SOURCES: &[&str] = &[
        "io.k8s.api.core.v1.NodeSystemInfo.runningInUserNamespace: only in k8s-openapi",
        "io.k8s.api.resource.v1.DeviceCounterConsumption.compatibilityGroups: only in k8s-openapi",
        "io.k8s.api.resource.v1.DeviceSubRequest.derivedAttributes: only in k8s-openapi",
        "io.k8s.api.resource.v1.ExactDeviceRequest.derivedAttributes: only in k8s-openapi",
        "io.k8s.api.resource.v1beta1.DeviceCounterConsumption.compatibilityGroups: only in k8s-openapi",
        "io.k8s.api.resource.v1beta1.DeviceRequest.derivedAttributes: only in k8s-openapi",
        "io.k8s.api.resource.v1beta1.DeviceSubRequest.derivedAttributes: only in k8s-openapi",
        "io.k8s.api.resource.v1beta2.DeviceCounterConsumption.compatibilityGroups: only in k8s-openapi",
        "io.k8s.api.resource.v1beta2.DeviceSubRequest.derivedAttributes: only in k8s-openapi",
        "io.k8s.api.resource.v1beta2.ExactDeviceRequest.derivedAttributes: only in k8s-openapi",
        "io.k8s.api.resource.v1.DeviceDerivedAttribute: only in k8s-openapi",
        "io.k8s.api.resource.v1beta1.DeviceDerivedAttribute: only in k8s-openapi",
        "io.k8s.api.resource.v1beta2.DeviceDerivedAttribute: only in k8s-openapi",
    ];

    #[test]
    fn go_tables_and_k8s_openapi_name_the_same_types_and_fields() {
        let table = crate::committed_table();
        assert_eq!(
            table.versions.keys().copied().collect::<Vec<_>>(),
            kubegen_core::known::Minor::supported()
                .map(kubegen_core::known::Minor::get)
                .collect::<Vec<_>>(),
            "the table's versions are the engine's"
        );
        for (minor, types) in &table.versions {
            let expected: &[&str] = if *minor == 37 {
                NEWER_THAN_THE_GO_SOURCES
            } else {
                &[]
            };
            assert_eq!(
                disagreements(*minor, types).join("\n"),
                expected.join("\n"),
                "the Go tables and k8s-openapi of 1.{minor} disagree"
            );
        }
    }

    /// Where the Go table of 1.`minor` and k8s-openapi's schemas of that version name different
    /// types or fields.
    fn disagreements(minor: u32, table: &[Type]) -> Vec<String> {
        let definitions = openapi_definitions(minor);
        let mut problems = Vec::new();
        for go in table {
            let Some(definition) = definitions.get(&go.name) else {
                problems.push(format!("{}: only in the Go tables", go.name));
                continue;
            };
            let ours: BTreeSet<String> = go.fields.iter().map(|f| f.name.clone()).collect();
            let theirs = properties(definition);
            for only in ours.difference(&theirs) {
                problems.push(format!("{}.{only}: only in the Go tables", go.name));
            }
            for only in theirs.difference(&ours) {
                problems.push(format!("{}.{only}: only in k8s-openapi", go.name));
            }
        }
        for name in definitions.keys() {
            if go_name(name).is_some() && !table.iter().any(|go| &go.name == name) {
                problems.push(format!("{name}: only in k8s-openapi"));
            }
        }
        problems
    }

    /// One version's types from a Go file: facts, required-ness, an embedded struct's fields and
    /// atomicity, and description breaks against k8s-openapi's words.
    #[test]
    fn types_of_a_go_file() {
        let text = "package v1\n\n// Base is embedded.\n// +structType=atomic\ntype Base struct {\n\
                    \t// +optional\n\tKind string `json:\"kind,omitempty\"`\n}\n\n\
                    // Thing is\n// a thing.\ntype Thing struct {\n\tBase `json:\",inline\"`\n\n\
                    \t// Name of\n\t// it.\n\t// +kubebuilder:validation:MaxLength=63\n\
                    \t// +default=\"x\"\n\tName string `json:\"name\"`\n}\n";
        let structs: Structs = crate::go_source::parse_file(text)
            .into_iter()
            .map(|(name, go)| (("k8s.io/api/core/v1".to_string(), name), go))
            .collect();
        let definitions = BTreeMap::from([(
            "io.k8s.api.core.v1.Thing".to_string(),
            serde_json::json!({
                "description": "Thing is a thing.",
                "properties": {"name": {"description": "Name of it."}, "kind": {}},
            }),
        )]);
        let [thing] = types(&structs, &definitions).try_into().expect("one type");
        assert_eq!(thing.name, "io.k8s.api.core.v1.Thing");
        assert!(thing.atomic, "the embedded struct's +structType=atomic");
        assert_eq!(thing.breaks, "4|2n");
        let fields: Vec<(&str, bool, Vec<&str>, &str)> = thing
            .fields
            .iter()
            .map(|f| {
                let facts = f.facts.iter().map(String::as_str).collect();
                (f.name.as_str(), f.required, facts, f.breaks.as_str())
            })
            .collect();
        assert_eq!(
            fields,
            [
                ("kind", false, vec![], ""),
                (
                    "name",
                    true,
                    vec![r#"Default("\"x\"")"#, "MaxLength(63)"],
                    "3|2n"
                ),
            ]
        );
    }

    /// The generator's side of the description breaks (the engine's `rewrap` test reads the
    /// same offsets back).
    #[test]
    fn descriptions_keep_controller_gens_line_breaks() {
        let lines: Vec<String> = [
            " Name of the referent.",
            " This field is effectively",
            " +optional",
            " TODO: drop this line.",
            "",
            "",
            " More info:  see",
            " ---",
            " Cut.",
        ]
        .map(String::from)
        .to_vec();
        let go = controller_gen_doc(&lines);
        assert_eq!(
            go,
            "Name of the referent.\nThis field is effectively\n\nMore info:  see"
        );
        let openapi = "Name of the referent. This field is effectively\n\nMore info: see";
        assert_eq!(breaks(openapi, &go).as_deref(), Some("11|4n,4nn,2ss"));
        assert_eq!(breaks("Other words", &go), None);
        assert_eq!(breaks(&go, &go), None);
    }
}
