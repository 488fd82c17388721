//! The generator of the Go-facts tables (`go_v1_*.rs`, see [`go_facts`](super::go_facts)) from
//! the Go sources of `k8s.io/api` and `k8s.io/apimachinery`, and the test that the committed
//! tables and k8s-openapi's schemas name the same types and fields.
//!
//! The generator is an ignored test, since it needs the two git repositories:
//!
//! ```sh
//! KUBEGEN_K8S_API=/path/to/kubernetes/api/.git \
//! KUBEGEN_K8S_APIMACHINERY=/path/to/kubernetes/apimachinery/.git \
//! KUBEGEN_K8S_TAG=v0.36.3 \
//! cargo test -p kubegen-core --features k8s,parse bless_go_tables -- --ignored
//! ```
//!
//! (`KUBEGEN_K8S_MINOR=37` with a branch such as `KUBEGEN_K8S_TAG=master`.) The table is
//! written to `go_v1_<minor>.rs`, its header naming the commits read. Its types, fields and
//! words are k8s-openapi's of that version, read from k8s-openapi's sources
//! ([`sources`](super::sources)).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value;

use super::go_facts::{self, Fact};
use super::go_source::{GoStruct, Structs, read_repo};

/// Every k8s-openapi definition of Kubernetes 1.`minor`, by Kubernetes name, as k8s-openapi's
/// sources write it.
fn openapi_definitions(minor: u32) -> BTreeMap<String, Value> {
    let (src, _) = super::generate::k8s_openapi_sources();
    super::sources::read(&src.join(format!("v1_{minor}")))
        .unwrap_or_else(|e| panic!("k8s-openapi's sources for 1.{minor}: {e}"))
        .schemas
        .into_iter()
        .collect()
}

/// The Go package and type of a definition the Go repositories declare, `None` for others
/// (apiextensions, kube-aggregator) and for the types controller-gen overrides.
fn go_name(definition: &str) -> Option<(String, String)> {
    if super::convert::overridden(definition).is_some() {
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

/// One field's generated row.
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

/// A doc comment as controller-gen makes it a description (controller-tools'
/// `markers/zip.go: extractDoc` and Go's `CommentGroup.Text`): marker lines dropped, trailing
/// spaces trimmed, blank lines at the ends dropped and runs of them collapsed; outside code
/// fences, `TODO` lines dropped and everything from a `---` line on cut; lines kept as they
/// are.
pub(super) fn controller_gen_doc(lines: &[String]) -> String {
    let mut kept: Vec<&str> = Vec::new();
    let mut fenced = false;
    for line in lines {
        let line = line.trim_end();
        if line.trim_start().starts_with('+') {
            continue;
        }
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
        } else if !fenced {
            if line.starts_with("TODO") {
                continue;
            }
            if line.starts_with("---") {
                break;
            }
        }
        if line.is_empty() && kept.last().is_none_or(|last| last.is_empty()) {
            continue;
        }
        kept.push(line);
    }
    while kept.last().is_some_and(|last| last.is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

/// Where controller-gen's description `go` breaks its lines, as the offsets the tables store
/// (see [`go_facts::Breaks`](super::go_facts)): `None` when the two texts are not the same
/// words, or when `go` is k8s-openapi's text already.
pub(super) fn breaks(openapi: &str, go: &str) -> Option<String> {
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

/// Renders the table of one version.
fn render(tag: &str, structs: &Structs, definitions: &BTreeMap<String, Value>) -> String {
    let mut body = String::new();
    let mut count = 0;
    for definition in definitions.keys() {
        let Some((package, name)) = go_name(definition) else {
            continue;
        };
        let Some(declared) = structs.get(&(package.clone(), name.clone())) else {
            continue;
        };
        let openapi = &definitions[definition];
        let described = |value: &Value, go: &str| {
            value["description"]
                .as_str()
                .and_then(|text| breaks(text, go))
                .map(|b| ("b", format!(", {b:?}")))
                .unwrap_or_default()
        };
        let Some((package, go)) = resolve(structs, &package, declared, &name) else {
            continue;
        };
        let mut atomic = has(&go.markers, &["structType=atomic"]);
        let mut fields = Vec::new();
        rows(structs, &package, go, &mut atomic, &mut fields);
        count += 1;
        let (b, type_breaks) = described(openapi, &controller_gen_doc(&declared.doc));
        let _ = writeln!(
            body,
            "    t{b}({definition:?}, {}{type_breaks}, &[",
            if atomic { "true" } else { "false" }
        );
        for row in fields {
            let (b, field_breaks) = described(&openapi["properties"][&row.name], &row.doc);
            let _ = writeln!(
                body,
                "        f{b}({:?}, {}, &[{}]{field_breaks}),",
                row.name,
                if row.required { "R" } else { "O" },
                row.facts.join(", ")
            );
        }
        body.push_str("    ]),\n");
    }
    format!(
        "// @generated from k8s.io/api and k8s.io/apimachinery {tag} by `bless_go_tables` in\n\
         // `go_generate.rs`; do not edit (see the README for the command).\n\
         //\n\
         // The Go facts of {count} types: `t(definition, atomic, fields)`,\n\
         // `f(json name, R(equired) or O(ptional), facts)`; `tb`, `fb`: the same and\n\
         // where controller-gen's description breaks k8s-openapi's words (`go_facts.rs`).\n\n\
         pub(super) const TYPES: &[GoType] = &[\n{body}];\n"
    )
}

#[test]
#[ignore = "needs the Go sources: see the module docs"]
fn bless_go_tables() {
    let path = |var: &str| {
        PathBuf::from(std::env::var(var).unwrap_or_else(|_| panic!("set {var} to a git directory")))
    };
    let tag = std::env::var("KUBEGEN_K8S_TAG").expect("set KUBEGEN_K8S_TAG to a tag or branch");
    let minor = std::env::var("KUBEGEN_K8S_MINOR").unwrap_or_else(|_| {
        tag.trim_start_matches("v0.")
            .chars()
            .take_while(char::is_ascii_digit)
            .collect()
    });
    assert!(!minor.is_empty(), "set KUBEGEN_K8S_MINOR for {tag}");
    let mut structs = Structs::new();
    read_repo(&path("KUBEGEN_K8S_API"), &tag, "k8s.io/api", &mut structs);
    read_repo(
        &path("KUBEGEN_K8S_APIMACHINERY"),
        &tag,
        "k8s.io/apimachinery",
        &mut structs,
    );
    let file = format!(
        "{}/src/known/k8s/go_v1_{minor}.rs",
        env!("CARGO_MANIFEST_DIR")
    );
    let commits = format!(
        "{tag} (api {}, apimachinery {})",
        super::go_source::commit(&path("KUBEGEN_K8S_API"), &tag),
        super::go_source::commit(&path("KUBEGEN_K8S_APIMACHINERY"), &tag)
    );
    let minor: u32 = minor.parse().expect("KUBEGEN_K8S_MINOR is a number");
    let text = render(&commits, &structs, &openapi_definitions(minor));
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("cannot write {file}: {e}"));
}

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
    for &minor in go_facts::SUPPORTED {
        let expected: &[&str] = if minor == 37 {
            NEWER_THAN_THE_GO_SOURCES
        } else {
            &[]
        };
        assert_eq!(
            disagreements(minor).join("\n"),
            expected.join("\n"),
            "the Go tables and k8s-openapi of 1.{minor} disagree"
        );
    }
}

/// Where the Go table of 1.`minor` and k8s-openapi's schemas of that version name different
/// types or fields.
fn disagreements(minor: u32) -> Vec<String> {
    let definitions = openapi_definitions(minor);
    let table = go_facts::table(minor).expect("a supported version");
    let mut problems = Vec::new();
    for go in table {
        let Some(definition) = definitions.get(go.name) else {
            problems.push(format!("{}: only in the Go tables", go.name));
            continue;
        };
        let ours: BTreeSet<String> = go.fields.iter().map(|f| f.name.to_string()).collect();
        let theirs = properties(definition);
        for only in ours.difference(&theirs) {
            problems.push(format!("{}.{only}: only in the Go tables", go.name));
        }
        for only in theirs.difference(&ours) {
            problems.push(format!("{}.{only}: only in k8s-openapi", go.name));
        }
    }
    for name in definitions.keys() {
        if go_name(name).is_some() && !table.iter().any(|go| go.name == name) {
            problems.push(format!("{name}: only in k8s-openapi"));
        }
    }
    problems
}

#[test]
fn condition_and_local_object_reference_facts() {
    let condition = go_facts::lookup("io.k8s.apimachinery.pkg.apis.meta.v1.Condition").unwrap();
    let field = |name: &str| condition.fields.iter().find(|f| f.name == name).unwrap();
    assert!(field("type").facts.contains(&Fact::MaxLength(316)));
    assert!(
        field("status")
            .facts
            .contains(&Fact::Enum(r#"["True","False","Unknown"]"#))
    );
    assert!(!field("observedGeneration").required);
    let reference = go_facts::lookup("io.k8s.api.core.v1.LocalObjectReference").unwrap();
    assert!(reference.atomic);
    assert_eq!(reference.fields[0].facts, [Fact::Default(r#""""#)]);
    assert!(!reference.fields[0].required);
}

#[test]
fn descriptions_keep_controller_gens_line_breaks() {
    let lines: Vec<String> = [
        "Name of the referent.",
        "This field is effectively",
        "+optional",
        "TODO: drop this line.",
        "",
        "",
        "More info:  see",
        "---",
        "Cut.",
    ]
    .map(String::from)
    .to_vec();
    let go = controller_gen_doc(&lines);
    assert_eq!(
        go,
        "Name of the referent.\nThis field is effectively\n\nMore info:  see"
    );
    let openapi = "Name of the referent. This field is effectively\n\nMore info: see";
    let offsets = breaks(openapi, &go).expect("the same words");
    assert_eq!(offsets, "11|4n,4nn,2ss");
    assert_eq!(
        go_facts::rewrap(openapi, &offsets).as_deref(),
        Some(go.as_str())
    );
    assert_eq!(breaks("Other words", &go), None);
    assert_eq!(breaks(&go, &go), None);
    assert_eq!(go_facts::rewrap("Name of", &offsets), None);
}

#[test]
fn an_unsupported_version_is_an_error_naming_the_supported_ones() {
    let error = go_facts::select(32).unwrap_err();
    assert!(
        error.contains("1.32") && error.contains("supported: v1_33, v1_34, v1_35, v1_36, v1_37"),
        "{error}"
    );
    assert_eq!(go_facts::compiled_minor(), 37);
}

#[test]
fn each_version_has_its_own_fields() {
    let fields = |minor: u32, definition: &str| -> Vec<&str> {
        let table = go_facts::table(minor).expect("a supported version");
        let go = table
            .iter()
            .find(|t| t.name == definition)
            .expect(definition);
        go.fields.iter().map(|f| f.name).collect()
    };
    let pod_spec = "io.k8s.api.core.v1.PodSpec";
    assert!(fields(37, pod_spec).contains(&"evictionResponders"));
    assert!(!fields(36, pod_spec).contains(&"evictionResponders"));
    assert!(fields(33, pod_spec).contains(&"containers"));
}
