use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use k8s_openapi::api::core::v1::{ObjectReference, PodSpec, PodTemplateSpec, ResourceRequirements};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, MicroTime, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::{Value, json};

use super::convert::{QUANTITY_PATTERN, convert, overridden};
use super::*;
use crate::known::KubeSchema;
use crate::schema::Schema;

// ---------------------------------------------------------------------------------------------
// The generated list

/// The committed list.
const TYPES_RS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/known/k8s/types.rs");

/// The k8s-openapi sources this crate builds against: its `src` folder and version, from
/// `cargo metadata`.
fn k8s_openapi_sources() -> (PathBuf, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cannot run `cargo metadata`");
    assert!(
        output.status.success(),
        "`cargo metadata` failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("`cargo metadata` JSON");
    let packages: Vec<&Value> = metadata["packages"]
        .as_array()
        .expect("`packages` in `cargo metadata`")
        .iter()
        .filter(|p| p["name"] == "k8s-openapi")
        .collect();
    let [package] = packages.as_slice() else {
        panic!(
            "expected one k8s-openapi package in `cargo metadata`, found {}",
            packages.len()
        );
    };
    let manifest = Path::new(package["manifest_path"].as_str().expect("manifest_path"));
    let version = package["version"].as_str().expect("version").to_string();
    (
        manifest.parent().expect("package folder").join("src"),
        version,
    )
}

/// Every public non-generic type with a `schemars::JsonSchema` impl, by path from the crate root
/// (`api::core::v1::Pod`), with the Kubernetes minor versions (`v1_33`, ... folders) that have
/// it; and all the versions.
fn scan(src: &Path) -> (BTreeSet<u32>, BTreeMap<String, BTreeSet<u32>>) {
    let mut versions = BTreeSet::new();
    let mut types = BTreeMap::new();
    for entry in std::fs::read_dir(src).expect("k8s-openapi's src folder") {
        let entry = entry.expect("folder entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(minor) = name.strip_prefix("v1_").and_then(|m| m.parse::<u32>().ok()) else {
            continue;
        };
        versions.insert(minor);
        scan_module(&entry.path(), &mut Vec::new(), &mut |path| {
            types
                .entry(path)
                .or_insert_with(BTreeSet::new)
                .insert(minor);
        });
    }
    assert!(!versions.is_empty(), "no v1_* folders in {}", src.display());
    (versions, types)
}

/// Scans one module folder: the types its `mod.rs` re-exports (`pub use self::file::Type;`)
/// from files that implement `JsonSchema` for them, and its `pub mod` subfolders.
fn scan_module(dir: &Path, module: &mut Vec<String>, found: &mut dyn FnMut(String)) {
    let mod_rs = std::fs::read_to_string(dir.join("mod.rs"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join("mod.rs").display()));
    let declares = |line: &str| mod_rs.lines().any(|l| l.trim() == line);
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("module folder")
        .map(|e| e.expect("folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            if declares(&format!("pub mod {stem};")) {
                module.push(stem);
                scan_module(&path, module, found);
                module.pop();
            }
            continue;
        }
        if stem == "mod" || path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source file");
        for line in text.lines() {
            let Some(ty) = line
                .strip_prefix("impl crate::schemars::JsonSchema for ")
                .and_then(|rest| rest.strip_suffix(" {"))
            else {
                continue;
            };
            let is_ident = ty.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if is_ident && declares(&format!("pub use self::{stem}::{ty};")) {
                let mut segments = module.clone();
                segments.push(ty.to_string());
                found(segments.join("::"));
            }
        }
    }
}

/// The version gates for types present in `first..=last` of `all`, as `k8s_openapi` macros:
/// none for all versions, open-ended at the newest and oldest version (a type new in the newest
/// version stays in newer ones, should k8s-openapi add versions in a compatible release).
fn gates(first: u32, last: u32, all: &BTreeSet<u32>) -> Vec<String> {
    let (min, max) = (*all.first().unwrap(), *all.last().unwrap());
    if first == last && min < first && last < max {
        return vec![format!("k8s_if_1_{first}")];
    }
    let mut gates = Vec::new();
    if first > min {
        gates.push(format!("k8s_if_ge_1_{first}"));
    }
    if last < max {
        gates.push(format!("k8s_if_le_1_{last}"));
    }
    gates
}

/// The text of `types.rs` for these sources.
fn render(
    version: &str,
    versions: &BTreeSet<u32>,
    types: &BTreeMap<String, BTreeSet<u32>>,
) -> String {
    let mut groups: BTreeMap<(u32, std::cmp::Reverse<u32>), Vec<&str>> = BTreeMap::new();
    for (path, present) in types {
        let (first, last) = (*present.first().unwrap(), *present.last().unwrap());
        assert!(
            present.len() as u32 == last - first + 1,
            "{path} is in Kubernetes versions {present:?}, not a range: teach the generator \
             (one `k8s_if_1_xx` group per version)"
        );
        groups
            .entry((first, std::cmp::Reverse(last)))
            .or_default()
            .push(path);
    }
    let mut out = format!(
        "// @generated from k8s-openapi {version}'s sources by `type_list_is_fresh` in `tests.rs`;\n\
         // do not edit. Regenerate with\n\
         // `KUBEGEN_BLESS=1 cargo test -p kubegen-core --features k8s type_list_is_fresh`.\n\
         //\n\
         // Every public non-generic type with a `schemars::JsonSchema` impl ({} types), by path\n\
         // from the crate root, grouped by the Kubernetes versions that have it.\n\
         \n\
         k8s_types! {{\n",
        types.len()
    );
    for ((first, std::cmp::Reverse(last)), paths) in &groups {
        let span = if first == last {
            format!("1.{first} only")
        } else {
            format!("1.{first} to 1.{last}")
        };
        out.push_str(&format!(
            "    // Kubernetes {span}: {} types\n",
            paths.len()
        ));
        out.push_str(&format!(
            "    [{}] {{\n",
            gates(*first, *last, versions).join(", ")
        ));
        for path in paths {
            out.push_str(&format!("        {path},\n"));
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    out
}

#[test]
fn type_list_is_fresh() {
    let (src, version) = k8s_openapi_sources();
    let (versions, types) = scan(&src);
    let expected = render(&version, &versions, &types);
    let committed = std::fs::read_to_string(TYPES_RS).unwrap_or_default();
    if committed == expected {
        return;
    }
    if std::env::var("KUBEGEN_BLESS").as_deref() == Ok("1") {
        std::fs::write(TYPES_RS, &expected).expect("cannot write types.rs");
        eprintln!("rewrote {TYPES_RS} ({} types)", types.len());
        return;
    }
    let diff = similar::TextDiff::from_lines(&committed, &expected)
        .unified_diff()
        .context_radius(2)
        .header("types.rs (committed)", "types.rs (from the sources)")
        .to_string();
    panic!(
        "{TYPES_RS} is stale: it does not list the types of k8s-openapi {version} at {}.\n\
         Regenerate it with `KUBEGEN_BLESS=1 cargo test -p kubegen-core --features k8s \
         type_list_is_fresh`.\n\n{diff}",
        src.display()
    );
}

/// The gates work: the table holds exactly the types the enabled version's folder has (the
/// newest: the dev-dependency enables k8s-openapi's `latest`).
#[test]
fn table_is_the_enabled_versions_types() {
    let (src, _) = k8s_openapi_sources();
    let (versions, types) = scan(&src);
    let enabled = *versions.last().unwrap();
    let expected: BTreeSet<String> = types
        .iter()
        .filter(|(_, present)| present.contains(&enabled))
        .map(|(path, _)| format!("k8s_openapi::{path}"))
        .collect();
    let table: BTreeSet<String> = types::table().keys().map(|k| k.to_string()).collect();
    assert_eq!(table, expected);
    assert!(table.len() > 700, "only {} types", table.len());
}

// ---------------------------------------------------------------------------------------------
// Trait dispatch, lookup, canonical paths

fn known_of(shape: Shape) -> Known {
    match shape {
        Shape::Known(known) => known,
        other => panic!("expected a known shape, got {other:?}"),
    }
}

#[test]
fn trait_dispatch_and_lookup_agree() {
    let by_trait = known_of(PodSpec::shape());
    assert_eq!(by_trait.name, "k8s_openapi::api::core::v1::PodSpec");
    let by_path = known_of(lookup("k8s_openapi::api::core::v1::PodSpec").expect("PodSpec"));
    assert_eq!(by_trait.name, by_path.name);
    assert_eq!((by_trait.schema)(), (by_path.schema)());

    // Every entry's key is its name, and the public lookup goes through canonical paths.
    for (path, known) in types::table() {
        assert_eq!(path, known.name);
    }
    let via_kube = crate::known::canonical("::kube::api::ObjectMeta");
    assert_eq!(
        via_kube,
        "k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta"
    );
    let shape = crate::known::lookup(&via_kube, Vec::new())
        .expect("known")
        .expect("ok");
    assert_eq!(shape, ObjectMeta::shape());
    assert!(lookup("k8s_openapi::api::core::v1::NoSuchType").is_none());
    assert!(lookup("std::string::String").is_none());
}

#[test]
fn kube_reexports_canonicalize_to_k8s_openapi() {
    let meta = "k8s_openapi::apimachinery::pkg::apis::meta::v1::";
    for (alias, real) in [
        ("kube::api::ObjectMeta", format!("{meta}ObjectMeta")),
        ("kube::core::ObjectMeta", format!("{meta}ObjectMeta")),
        (
            "kube::core::metadata::ObjectMeta",
            format!("{meta}ObjectMeta"),
        ),
        ("kube_core::ObjectMeta", format!("{meta}ObjectMeta")),
        ("kube_client::api::ListMeta", format!("{meta}ListMeta")),
        ("kube::core::ListMeta", format!("{meta}ListMeta")),
        (
            "kube::core::subresource::Scale",
            "k8s_openapi::api::autoscaling::v1::Scale".into(),
        ),
        (
            "kube::api::ScaleSpec",
            "k8s_openapi::api::autoscaling::v1::ScaleSpec".into(),
        ),
        (
            "kube_client::core::subresource::ScaleStatus",
            "k8s_openapi::api::autoscaling::v1::ScaleStatus".into(),
        ),
    ] {
        assert_eq!(crate::known::canonical(alias), real, "{alias}");
        assert!(lookup(&real).is_some(), "{real}");
    }
    // Not re-exports: kube's own Duration, and `kube::api::Scale` (kube-client's `api`
    // re-exports only ScaleSpec and ScaleStatus).
    for path in ["kube::core::Duration", "kube::api::Scale", "kube::api::Api"] {
        assert_eq!(crate::known::canonical(path), path);
    }
}

// ---------------------------------------------------------------------------------------------
// Conversions

fn json_of(schema: &Schema) -> Value {
    serde_json::to_value(schema).expect("schema serializes")
}

fn quantity() -> Value {
    json!({
        "anyOf": [{"type": "integer"}, {"type": "string"}],
        "pattern": QUANTITY_PATTERN,
        "x-kubernetes-int-or-string": true,
    })
}

fn embedded_object_meta() -> Value {
    json!({
        "type": "object",
        "properties": {
            "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
            "finalizers": {"type": "array", "items": {"type": "string"}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "name": {"type": "string"},
            "namespace": {"type": "string"},
        },
    })
}

#[test]
fn quantity_is_int_or_string_with_controller_gens_pattern() {
    assert_eq!(json_of(&schema_of::<Quantity>()), quantity());
}

#[test]
fn int_or_string_time_and_micro_time() {
    assert_eq!(
        json_of(&schema_of::<IntOrString>()),
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true})
    );
    let date_time = json!({"type": "string", "format": "date-time"});
    assert_eq!(json_of(&schema_of::<Time>()), date_time);
    assert_eq!(json_of(&schema_of::<MicroTime>()), date_time);
}

#[test]
fn object_meta_is_the_embedded_form() {
    assert_eq!(json_of(&schema_of::<ObjectMeta>()), embedded_object_meta());
}

#[test]
fn overrides_carry_no_description() {
    for name in [
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
        "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
        "io.k8s.apimachinery.pkg.api.resource.Quantity",
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
        "io.k8s.apimachinery.pkg.runtime.RawExtension",
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
    ] {
        let schema = overridden(name).unwrap_or_else(|| panic!("{name} is overridden"));
        assert_eq!(schema.description, None, "{name}");
    }
    assert!(overridden("io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1").is_none());
}

#[test]
fn condition_keeps_k8s_openapi_descriptions_and_overrides_time() {
    let schema = schema_of::<Condition>();
    assert_eq!(
        schema.description.as_deref(),
        Some(
            "Condition contains details for one aspect of the current state of this API Resource."
        )
    );
    assert_eq!(
        schema.required,
        ["lastTransitionTime", "message", "reason", "status", "type"]
    );
    let time = &schema.properties["lastTransitionTime"];
    assert_eq!(
        (time.type_str(), time.format.as_deref()),
        ("string", Some("date-time"))
    );
    // The field's own description, not Time's ("Time is a wrapper around time.Time ...").
    assert!(
        time.description
            .as_deref()
            .unwrap()
            .starts_with("lastTransitionTime is the last time")
    );
    assert_eq!(
        schema.properties["observedGeneration"].format.as_deref(),
        Some("int64")
    );
}

#[test]
fn object_reference() {
    let schema = schema_of::<ObjectReference>();
    assert_eq!(schema.type_str(), "object");
    let names: Vec<&str> = schema.properties.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "apiVersion",
            "fieldPath",
            "kind",
            "name",
            "namespace",
            "resourceVersion",
            "uid"
        ]
    );
    assert!(
        schema
            .properties
            .values()
            .all(|p| p.type_str() == "string" && p.description.is_some())
    );
    assert!(schema.required.is_empty());
}

#[test]
fn resource_requirements_use_the_quantity_override() {
    let schema = json_of(&schema_of::<ResourceRequirements>());
    for map in ["limits", "requests"] {
        let property = &schema["properties"][map];
        assert_eq!(property["type"], "object", "{map}");
        assert!(
            property["description"].is_string(),
            "{map} keeps its description"
        );
        // The map's values are bare Quantities: no description of their own.
        assert_eq!(property["additionalProperties"], quantity(), "{map}");
    }
    let claims = &schema["properties"]["claims"];
    assert_eq!(claims["type"], "array");
    assert_eq!(claims["items"]["type"], "object");
    assert_eq!(claims["items"]["required"], json!(["name"]));
}

/// Walks every node, calling `check` with its JSON path.
fn walk(schema: &Schema, path: &str, check: &mut dyn FnMut(&str, &Schema)) {
    check(path, schema);
    for (name, property) in &schema.properties {
        walk(property, &format!("{path}.{name}"), check);
    }
    if let Some(items) = &schema.items {
        walk(items, &format!("{path}[]"), check);
    }
    if let Some(value) = &schema.additional_properties {
        walk(value, &format!("{path}{{}}"), check);
    }
    for (i, branch) in schema
        .any_of
        .iter()
        .chain(&schema.one_of)
        .chain(&schema.all_of)
        .enumerate()
    {
        walk(branch, &format!("{path}|{i}"), check);
    }
}

/// The structural-schema rules a converted k8s-openapi schema can break: every node has a
/// `type` unless it is int-or-string or keeps unknown fields; junctors only in int-or-string,
/// without types inside besides its two; no titles. Returns the violations.
fn structural_violations(schema: &Schema) -> Vec<String> {
    let mut violations = Vec::new();
    walk(schema, "", &mut |path, node| {
        if node.type_.is_none() && !node.x_int_or_string && !node.x_preserve_unknown_fields {
            violations.push(format!("{path}: no type"));
        }
        if !node.one_of.is_empty() || !node.all_of.is_empty() {
            violations.push(format!("{path}: oneOf/allOf"));
        }
        let int_or_string = node.x_int_or_string
            && node.any_of == [Schema::typed("integer"), Schema::typed("string")];
        if !node.any_of.is_empty() && !int_or_string {
            violations.push(format!("{path}: anyOf that is not int-or-string"));
        }
        if node.title.is_some() {
            violations.push(format!("{path}: title"));
        }
        if node.additional_properties.is_some() && !node.properties.is_empty() {
            violations.push(format!("{path}: properties and additionalProperties"));
        }
    });
    violations
}

#[test]
fn pod_template_spec_is_structural_with_embedded_metadata() {
    let schema = schema_of::<PodTemplateSpec>();
    let json = json_of(&schema);
    let text = json.to_string();
    assert!(
        text.len() > 200_000,
        "PodTemplateSpec is {} bytes of JSON",
        text.len()
    );
    assert!(!text.contains("$ref"), "a $ref is left");
    assert!(
        !text.contains("#/components/schemas"),
        "a reference is left"
    );

    let mut metadata = embedded_object_meta();
    metadata["description"] = json["properties"]["metadata"]["description"].clone();
    assert!(
        metadata["description"]
            .as_str()
            .unwrap()
            .starts_with("Standard object's metadata.")
    );
    assert_eq!(json["properties"]["metadata"], metadata);

    let violations = structural_violations(&schema);
    assert!(violations.is_empty(), "{violations:#?}");

    let mut objects = 0;
    walk(&schema, "", &mut |path, node| {
        if !node.properties.is_empty() || node.additional_properties.is_some() {
            objects += 1;
            assert_eq!(node.type_str(), "object", "{path}");
        }
    });
    assert!(objects > 100, "only {objects} object nodes");

    let container = &json["properties"]["spec"]["properties"]["containers"]["items"];
    let limits = &container["properties"]["resources"]["properties"]["limits"];
    assert_eq!(limits["additionalProperties"], quantity());
    let port =
        &container["properties"]["livenessProbe"]["properties"]["httpGet"]["properties"]["port"];
    assert_eq!(port["x-kubernetes-int-or-string"], true);
    assert_eq!(
        port["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
}

#[test]
fn conversion_is_deterministic_and_cached() {
    let generate = convert::generate::<PodTemplateSpec>;
    let first = serde_json::to_string(&convert(generate).schema).unwrap();
    let second = serde_json::to_string(&convert(generate).schema).unwrap();
    assert_eq!(first, second);
    assert_eq!(
        serde_json::to_string(&schema_of::<PodTemplateSpec>()).unwrap(),
        first
    );
    assert_eq!(
        serde_json::to_string(&schema_of::<PodTemplateSpec>()).unwrap(),
        first
    );
}

#[test]
fn recursion_and_alternatives_become_schemaless() {
    let schema = json_of(&schema_of::<CustomResourceDefinition>());
    let versions = &schema["properties"]["spec"]["properties"]["versions"]["items"];
    let props = &versions["properties"]["schema"]["properties"]["openAPIV3Schema"];
    assert_eq!(props["type"], "object");
    // JSONSchemaProps inside JSONSchemaProps: cut.
    let nested = &props["properties"]["not"];
    assert_eq!(nested["type"], "object");
    assert_eq!(nested["x-kubernetes-preserve-unknown-fields"], true);
    assert!(nested.get("properties").is_none());
    // JSONSchemaPropsOrArray: any JSON value, description kept.
    let items = &props["properties"]["items"];
    assert_eq!(items.get("type"), None);
    assert_eq!(items["x-kubernetes-preserve-unknown-fields"], true);
    assert!(items["description"].is_string());
    // apiextensions JSON: the override.
    assert_eq!(
        props["properties"]["default"]["x-kubernetes-preserve-unknown-fields"],
        true
    );
    assert_eq!(props["properties"]["default"].get("type"), None);
}

/// A schema exercising what k8s-openapi does not emit today, to pin the conversion rules.
struct Synthetic;

impl schemars::JsonSchema for Synthetic {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "kubegen.test.Synthetic".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut when = generator.subschema_for::<Time>();
        when.ensure_object()
            .insert("description".into(), "when".into());
        when.ensure_object().insert("nullable".into(), true.into());
        schemars::json_schema!({
            "title": "Synthetic",
            "type": "object",
            "properties": {
                "when": (when),
                "anything": true,
                "empty": {"description": "any value"},
                "open": {"type": "object", "additionalProperties": true},
                "closed": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "additionalProperties": false,
                },
                "elsewhere": {"$ref": "https://example.com/schema"},
                "odd": {"type": "string", "contentEncoding": "base64"},
                "nullableType": {"type": ["string", "null"]},
                "oneOf": {"description": "either", "oneOf": [{"type": "string"}, {"type": "integer"}]},
                "recursive": (generator.subschema_for::<Synthetic>()),
            },
        })
    }
}

#[test]
fn conversion_rules() {
    let converted = convert(convert::generate::<Synthetic>);
    assert_eq!(
        json_of(&converted.schema),
        json!({
            "type": "object",
            "properties": {
                // A reference with siblings: the override, with the siblings on top.
                "when": {"type": "string", "format": "date-time", "description": "when", "nullable": true},
                "anything": {"x-kubernetes-preserve-unknown-fields": true},
                "empty": {"description": "any value", "x-kubernetes-preserve-unknown-fields": true},
                "open": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "closed": {"type": "object", "properties": {"a": {"type": "string"}}},
                "elsewhere": {"x-kubernetes-preserve-unknown-fields": true},
                "odd": {"type": "string"},
                "nullableType": {"type": "string", "nullable": true},
                "oneOf": {"description": "either", "x-kubernetes-preserve-unknown-fields": true},
                "recursive": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            },
        })
    );
    assert_eq!(converted.dropped, ["$ref", "contentEncoding"]);
}

#[test]
fn gates_nest() {
    let mut kept: Vec<&str> = Vec::new();
    // The tests build with 1.37.
    gated! { [k8s_if_ge_1_33, k8s_if_le_1_37] kept.extend(["1.33 to 1.37"]); }
    gated! { [k8s_if_ge_1_34, k8s_if_le_1_36] kept.extend(["1.34 to 1.36"]); }
    gated! { [k8s_if_1_37] kept.extend(["1.37"]); }
    gated! { [] kept.extend(["all"]); }
    assert_eq!(kept, ["1.33 to 1.37", "1.37", "all"]);
}

/// Every type converts without dropping anything and to a structural schema.
#[test]
fn every_type_converts_to_a_structural_schema() {
    let generators = types::generators();
    assert_eq!(generators.len(), types::table().len());
    let mut failures = Vec::new();
    for (name, generate) in generators {
        let converted = convert(generate);
        if !converted.dropped.is_empty() {
            failures.push(format!("{name}: dropped {:?}", converted.dropped));
        }
        let violations = structural_violations(&converted.schema);
        if !violations.is_empty() {
            failures.push(format!("{name}: {violations:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ---------------------------------------------------------------------------------------------
// Against controller-gen's output

/// controller-tools' CRD goldens, kept outside this repository.
const CRONJOBS_GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/golden/controller-tools/pkg/crd/testdata/testdata.kubebuilder.io_cronjobs.yaml"
);

/// `s` with every run of whitespace made one space: Go doc comments keep their line breaks,
/// the Kubernetes OpenAPI spec (and so k8s-openapi) joins the lines with spaces.
fn words(s: Option<&str>) -> String {
    s.unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `schema` without descriptions.
fn undescribed(schema: &Schema) -> Schema {
    let mut schema = schema.clone();
    schema.description = None;
    for property in schema.properties.values_mut() {
        *property = undescribed(property);
    }
    schema.items = schema.items.as_deref().map(|i| Box::new(undescribed(i)));
    schema.additional_properties = schema
        .additional_properties
        .as_deref()
        .map(|a| Box::new(undescribed(a)));
    schema
}

/// controller-gen's `corev1.ObjectReference`, as `CronJobStatus.active`'s items.
fn golden_object_reference() -> Schema {
    let text = std::fs::read_to_string(CRONJOBS_GOLDEN).unwrap_or_else(|e| {
        panic!("{CRONJOBS_GOLDEN}: {e} (this test needs controller-tools' goldens)")
    });
    let crd: Value = serde_saphyr::from_str(&text).expect("the golden parses");
    let versions = crd["spec"]["versions"].as_array().expect("versions");
    let items = versions
        .iter()
        .map(|v| &v["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"]["active"]["items"])
        .find(|items| items.is_object())
        .expect("a version with status.active");
    serde_json::from_value(items.clone()).expect("a schema")
}

/// Ours against controller-gen's `corev1.ObjectReference` (`status.active[]` in the cronjob
/// golden). The same: type, the seven properties, their types, no `required`, and every
/// description word for word. The differences, which come from k8s-openapi's schemas:
/// - `x-kubernetes-map-type: atomic` (from the Go type's `+structType=atomic`) is missing:
///   k8s-openapi's schemas carry no `x-kubernetes-*` list/map/struct topology (its `DeepMerge`
///   impls know list and map strategies, but not struct ones such as this);
/// - descriptions are the same words, but joined into one line where controller-gen keeps the
///   Go comment's line breaks (fieldPath, kind, name, namespace, resourceVersion, uid).
#[test]
fn object_reference_against_controller_gen() {
    let golden = golden_object_reference();
    let ours = schema_of::<ObjectReference>();

    // Known difference 1: the struct's topology.
    assert_eq!(golden.x_map_type.as_deref(), Some("atomic"));
    assert_eq!(ours.x_map_type, None);
    let mut golden_untopological = undescribed(&golden);
    golden_untopological.x_map_type = None;
    assert_eq!(undescribed(&ours), golden_untopological, "same structure");

    // Known difference 2: line breaks in descriptions.
    assert_eq!(
        words(ours.description.as_deref()),
        words(golden.description.as_deref())
    );
    let mut reflowed = Vec::new();
    for (name, property) in &golden.properties {
        let ours = ours.properties[name].description.as_deref();
        let theirs = property.description.as_deref();
        assert_eq!(words(ours), words(theirs), "{name}'s description");
        if ours != theirs {
            reflowed.push(name.as_str());
        }
    }
    assert_eq!(
        reflowed,
        [
            "fieldPath",
            "kind",
            "name",
            "namespace",
            "resourceVersion",
            "uid"
        ],
        "descriptions that differ only in line breaks"
    );
}

/// Ours against controller-gen's `metav1.Condition`. controller-tools' goldens do not use
/// `metav1.Condition`, so controller-gen's output is written out here from the Go type's
/// markers (k8s.io/apimachinery `meta/v1/types.go`, which controller-gen reads): the same
/// properties, types and `required`, plus validations. The same in ours: type, property names
/// and types, `lastTransitionTime`'s `date-time` (controller-gen: the field's
/// `Type=string`/`Format=date-time` markers; ours: the Time override), `observedGeneration`'s
/// `int64`, and `required`. The differences (k8s-openapi's schemas carry no validations):
/// - `type`: controller-gen adds `maxLength: 316` and the qualified-name `pattern`;
/// - `status`: controller-gen adds `enum: [True, False, Unknown]`;
/// - `reason`: controller-gen adds `maxLength: 1024`, `minLength: 1` and a `pattern`;
/// - `message`: controller-gen adds `maxLength: 32768`;
/// - `observedGeneration`: controller-gen adds `minimum: 0`;
/// - descriptions: the same words up to the Go comment's line breaks (for `type`, both stop at
///   the `---` line).
#[test]
fn condition_against_controller_gen() {
    let controller_gen: Schema = serde_json::from_value(json!({
        "type": "object",
        "required": ["lastTransitionTime", "message", "reason", "status", "type"],
        "properties": {
            "lastTransitionTime": {"type": "string", "format": "date-time"},
            "message": {"type": "string", "maxLength": 32768},
            "observedGeneration": {"type": "integer", "format": "int64", "minimum": 0},
            "reason": {
                "type": "string", "maxLength": 1024, "minLength": 1,
                "pattern": "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
            },
            "status": {"type": "string", "enum": ["True", "False", "Unknown"]},
            "type": {
                "type": "string", "maxLength": 316,
                "pattern": "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
            },
        },
    }))
    .expect("a schema");
    let ours = undescribed(&schema_of::<Condition>());

    // Without the validations, the same schema.
    let mut validated_away = controller_gen.clone();
    for property in validated_away.properties.values_mut() {
        property.max_length = None;
        property.min_length = None;
        property.pattern = None;
        property.enum_ = None;
        property.minimum = None;
    }
    assert_eq!(ours, validated_away);

    // And ours has none of them (if k8s-openapi starts emitting them, update the list above).
    for (name, property) in &ours.properties {
        let unvalidated = Schema {
            type_: property.type_.clone(),
            format: property.format.clone(),
            ..Schema::default()
        };
        assert_eq!(property, &unvalidated, "{name}");
    }
    assert_ne!(ours, controller_gen);
}

/// Every Quantity in the cronjob golden (resource limits, requests, `divisor`s, `sizeLimit`s,
/// ...) is our Quantity override plus the field's description.
#[test]
fn quantities_against_controller_gen() {
    let text = std::fs::read_to_string(CRONJOBS_GOLDEN).unwrap_or_else(|e| {
        panic!("{CRONJOBS_GOLDEN}: {e} (this test needs controller-tools' goldens)")
    });
    let crd: Value = serde_saphyr::from_str(&text).expect("the golden parses");
    fn quantities<'a>(value: &'a Value, found: &mut Vec<&'a Value>) {
        match value {
            Value::Object(map) => {
                if map
                    .get("pattern")
                    .and_then(Value::as_str)
                    .is_some_and(|p| p.contains("[KMGTPE]i"))
                {
                    found.push(value);
                }
                map.values().for_each(|v| quantities(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| quantities(v, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    quantities(&crd, &mut found);
    assert!(
        found.len() > 10,
        "only {} quantities in the golden",
        found.len()
    );
    for golden in found {
        let mut golden = golden.clone();
        golden.as_object_mut().unwrap().remove("description");
        assert_eq!(golden, quantity());
    }
}
