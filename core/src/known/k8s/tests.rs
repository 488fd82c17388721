use k8s_openapi::api::core::v1::{ObjectReference, PodSpec, PodTemplateSpec, ResourceRequirements};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, MicroTime, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::{Value, json};

use super::convert::{QUANTITY_PATTERN, convert, overridden, schema_of};
use super::*;
use crate::known::{KubeSchema, Kubernetes};
use crate::model::{ListType, Schema, Topology};

// ---------------------------------------------------------------------------------------------
// The generated list

/// The table holds the enabled version's types (the newest: the dev-dependency enables
/// k8s-openapi's `latest`); `tools/k8s-facts` checks it against every version's sources.
#[test]
fn table_is_the_enabled_versions_types() {
    let table = types::table();
    assert!(table.len() > 700, "only {} types", table.len());
    assert!(table.contains_key("k8s_openapi::api::core::v1::PodSpec"));
    assert!(table.contains_key("k8s_openapi::ByteString"));
    // Gone in 1.37.
    assert!(!table.contains_key("k8s_openapi::api::certificates::v1alpha1::ClusterTrustBundle"));
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
    let compiled = Kubernetes::compiled();
    let by_path =
        known_of(lookup("k8s_openapi::api::core::v1::PodSpec", &compiled).expect("PodSpec"));
    assert_eq!(by_trait.name, by_path.name);
    assert_eq!(compiled.schema(&by_trait), compiled.schema(&by_path));

    // Every entry's key is its name, and the public lookup goes through canonical paths.
    for (path, known) in types::table() {
        assert_eq!(path, known.name);
    }
    let via_kube = crate::known::canonical("::kube::api::ObjectMeta");
    assert_eq!(
        via_kube,
        "k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta"
    );
    let shape = crate::known::lookup(&via_kube, Vec::new(), &compiled)
        .expect("known")
        .expect("ok");
    assert_eq!(shape, ObjectMeta::shape());
    assert!(lookup("k8s_openapi::api::core::v1::NoSuchType", &compiled).is_none());
    assert!(lookup("std::string::String", &compiled).is_none());
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
        assert!(lookup(&real, &Kubernetes::compiled()).is_some(), "{real}");
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
    let first = serde_json::to_string(&convert(generate, Minor::compiled()).schema).unwrap();
    let second = serde_json::to_string(&convert(generate, Minor::compiled()).schema).unwrap();
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
    let converted = convert(convert::generate::<Synthetic>, Minor::compiled());
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
    // All but the hand-written ByteString.
    assert_eq!(generators.len() + 1, types::table().len());
    let mut failures = Vec::new();
    for (name, generate) in generators {
        let converted = convert(generate, Minor::compiled());
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

/// controller-gen's cronjob CRD (kept outside this repository) as data, or `None` when the
/// goldens are absent (see `fixture_parity::golden`).
fn cronjobs_golden() -> Option<Value> {
    let path = fixture_parity::golden_path(
        "controller-tools/pkg/crd/testdata/testdata.kubebuilder.io_cronjobs.yaml",
    )?;
    Some(fixture_parity::read(
        &path,
        "controller-gen's cronjob golden",
    ))
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
fn golden_object_reference() -> Option<Schema> {
    let crd = cronjobs_golden()?;
    let versions = crd["spec"]["versions"].as_array().expect("versions");
    let items = versions
        .iter()
        .map(|v| &v["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"]["active"]["items"])
        .find(|items| items.is_object())
        .expect("a version with status.active");
    Some(serde_json::from_value(items.clone()).expect("a schema"))
}

/// Ours against controller-gen's `corev1.ObjectReference` (`status.active[]` in the cronjob
/// golden): equal, descriptions included. k8s-openapi's descriptions join the Go comment's
/// lines; the Go facts' line breaks (`go_facts::rewrap`) restore controller-gen's (fieldPath,
/// kind, name, namespace, resourceVersion and uid are several lines).
#[test]
fn object_reference_against_controller_gen() {
    let Some(golden) = golden_object_reference() else {
        return;
    };
    let ours = schema_of::<ObjectReference>();

    assert_eq!(golden.x_map_type.map(Topology::as_str), Some("atomic"));
    assert_eq!(undescribed(&ours), undescribed(&golden), "same structure");

    assert_eq!(ours, golden);
}

/// Ours against controller-gen's `metav1.Condition`. controller-tools' goldens do not use
/// `metav1.Condition`, so controller-gen's output is written out here from the Go type's
/// markers (k8s.io/apimachinery `meta/v1/types.go`, which controller-gen reads). k8s-openapi's
/// schema has none of the validations; the Go facts tables (`go_facts.rs`) add them, so
/// without descriptions the two are equal (`lastTransitionTime`'s `date-time` comes from the
/// field's `Type=string`/`Format=date-time` markers in controller-gen, from the Time override
/// in ours).
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
    assert_eq!(ours, controller_gen);
}

/// Every Quantity in the cronjob golden (resource limits, requests, `divisor`s, `sizeLimit`s,
/// ...) is our Quantity override plus the field's description.
#[test]
fn quantities_against_controller_gen() {
    let Some(crd) = cronjobs_golden() else { return };
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

// ---------------------------------------------------------------------------------------------
// Topology

/// A property's node, by a path of property names (`[]` steps into items).
fn at<'a>(schema: &'a Schema, path: &[&str]) -> &'a Schema {
    let mut node = schema;
    for step in path {
        node = if *step == "[]" {
            node.items
                .as_deref()
                .unwrap_or_else(|| panic!("no items at {step} in {path:?}"))
        } else {
            node.properties
                .get(*step)
                .unwrap_or_else(|| panic!("no property {step} in {path:?}"))
        };
    }
    node
}

/// `(x-kubernetes-list-type, x-kubernetes-list-map-keys)` of a node.
fn list_topology(node: &Schema) -> (Option<&str>, Vec<&str>) {
    (
        node.x_list_type.map(ListType::as_str),
        node.x_list_map_keys
            .iter()
            .flatten()
            .map(String::as_str)
            .collect(),
    )
}

/// Every converted definition of the enabled version, by Kubernetes name (each type's root
/// definition; nested definitions are inside them).
fn converted_definitions() -> &'static std::collections::HashMap<String, Schema> {
    static CONVERTED: std::sync::OnceLock<std::collections::HashMap<String, Schema>> =
        std::sync::OnceLock::new();
    CONVERTED.get_or_init(|| {
        types::generators()
            .into_iter()
            .map(|(path, generate)| {
                let mut generator = schemars::generate::SchemaSettings::openapi3().into_generator();
                let root = generate(&mut generator);
                let name = root
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    .unwrap_or_else(|| panic!("{path}: not a reference"))
                    .to_string();
                (name, convert(generate, Minor::compiled()).schema)
            })
            .collect()
    })
}

#[test]
fn pod_spec_lists_are_maps_keyed_by_name() {
    let spec = schema_of::<PodSpec>();
    for list in [
        "containers",
        "initContainers",
        "ephemeralContainers",
        "volumes",
        "imagePullSecrets",
        "resourceClaims",
        "schedulingGates",
    ] {
        let node = at(&spec, &[list]);
        assert_eq!(list_topology(node), (Some("map"), vec!["name"]), "{list}");
        // The key is required or defaulted in the items, as the apiserver demands of a CRD
        // (`imagePullSecrets`' `LocalObjectReference.name` is optional with `default: ""`).
        let items = at(node, &["[]"]);
        assert!(
            items.required.contains(&"name".to_string()) || at(items, &["name"]).default.is_some(),
            "{list}"
        );
        assert!(list_problems(node).is_empty(), "{list}");
    }
    assert_eq!(
        list_topology(at(&spec, &["hostAliases"])),
        (Some("map"), vec!["ip"])
    );
    assert_eq!(
        list_topology(at(&spec, &["containers", "[]", "env"])),
        (Some("map"), vec!["name"])
    );
    assert_eq!(
        list_topology(at(&spec, &["containers", "[]", "volumeMounts"])),
        (Some("map"), vec!["mountPath"])
    );
    // Two keys the DeepMerge impl does not have (a correction).
    assert_eq!(
        list_topology(at(&spec, &["topologySpreadConstraints"])),
        (Some("map"), vec!["topologyKey", "whenUnsatisfiable"])
    );
}

/// `Container.ports` is keyed by port and protocol (k8s-openapi's DeepMerge impl keys it by
/// `containerPort` alone, the patch merge key), and `protocol` gets Kubernetes' default `TCP`,
/// without which the apiserver would reject it as a key (it is optional).
#[test]
fn container_ports_are_keyed_by_port_and_protocol() {
    let container = schema_of::<k8s_openapi::api::core::v1::Container>();
    let ports = at(&container, &["ports"]);
    assert_eq!(
        list_topology(ports),
        (Some("map"), vec!["containerPort", "protocol"])
    );
    let port = at(ports, &["[]"]);
    assert_eq!(port.required, ["containerPort"]);
    assert_eq!(port.properties["protocol"].default, Some(json!("TCP")));
    assert!(list_problems(ports).is_empty());

    let service = schema_of::<k8s_openapi::api::core::v1::ServiceSpec>();
    let ports = at(&service, &["ports"]);
    assert_eq!(
        list_topology(ports),
        (Some("map"), vec!["port", "protocol"])
    );
    assert_eq!(at(ports, &["[]", "protocol"]).default, Some(json!("TCP")));
    assert!(list_problems(ports).is_empty());

    // Without the default, the same list would be rejected.
    let mut undefaulted = container.properties["ports"].clone();
    undefaulted
        .items
        .as_mut()
        .unwrap()
        .properties
        .get_mut("protocol")
        .unwrap()
        .default = None;
    assert_eq!(
        list_problems(&undefaulted),
        ["list map key `protocol` must be required or have a default in the items"]
    );
}

#[test]
fn atomic_lists_sets_and_atomic_maps() {
    let spec = schema_of::<PodSpec>();
    for list in [
        &["tolerations"][..],
        &["readinessGates"],
        &["containers", "[]", "command"],
    ] {
        assert_eq!(
            list_topology(at(&spec, list)),
            (Some("atomic"), vec![]),
            "{list:?}"
        );
    }
    // `+listType=set` on a list of integers.
    let requirement =
        schema_of::<k8s_openapi::api::batch::v1::PodFailurePolicyOnExitCodesRequirement>();
    let values = at(&requirement, &["values"]);
    assert_eq!(list_topology(values), (Some("set"), vec![]));
    assert_eq!(at(values, &["[]"]).type_str(), "integer");
    // `+mapType=atomic` on a map of strings.
    let selector = at(&spec, &["nodeSelector"]);
    assert_eq!(selector.x_map_type.map(Topology::as_str), Some("atomic"));
    assert!(selector.additional_properties.is_some());
    // A granular map gets nothing (the default).
    assert_eq!(at(&spec, &["overhead"]).x_map_type, None);
}

#[test]
fn atomic_structs() {
    for (name, schema) in [
        ("ObjectReference", schema_of::<ObjectReference>()),
        (
            "LocalObjectReference",
            schema_of::<k8s_openapi::api::core::v1::LocalObjectReference>(),
        ),
        (
            "LabelSelector",
            schema_of::<k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector>(),
        ),
    ] {
        assert_eq!(
            schema.x_map_type.map(Topology::as_str),
            Some("atomic"),
            "{name}"
        );
    }
    // Nested, under the field's description.
    let spec = schema_of::<PodSpec>();
    let secret_ref = at(
        &spec,
        &["containers", "[]", "env", "[]", "valueFrom", "secretKeyRef"],
    );
    assert_eq!(secret_ref.x_map_type.map(Topology::as_str), Some("atomic"));
    assert!(secret_ref.description.is_some());
    // Not every struct: PodSpec itself is granular.
    assert_eq!(spec.x_map_type, None);
    // `PersistentVolumeSpec.claimRef` is an ObjectReference made granular again.
    let pv = schema_of::<k8s_openapi::api::core::v1::PersistentVolumeSpec>();
    assert_eq!(
        at(&pv, &["claimRef"]).x_map_type.map(Topology::as_str),
        Some("granular")
    );
}

/// Published list-maps a CRD cannot hold (an optional key without a default) become atomic.
#[test]
fn invalid_list_maps_fall_back_to_atomic() {
    let account = schema_of::<k8s_openapi::api::core::v1::ServiceAccount>();
    let secrets = at(&account, &["secrets"]);
    assert_eq!(list_topology(secrets), (Some("atomic"), vec![]));
    assert!(!at(secrets, &["[]"]).required.contains(&"name".to_string()));

    // All of them in the enabled version, each with the reason: pinned, so that a change in
    // k8s-openapi's required lists (or a new such list) is seen.
    let mut fallen = Vec::new();
    for (definition, topologies) in topology::properties() {
        let Some(schema) = converted_definitions().get(*definition) else {
            continue;
        };
        for (property, topology) in topologies {
            let Some(node) = schema.properties.get(*property) else {
                continue;
            };
            if let topology::Topology::Map(keys) = topology
                && node.x_list_type.map(ListType::as_str) == Some("atomic")
            {
                let mut published = node.clone();
                published.x_list_type = Some(ListType::Map);
                published.x_list_map_keys = Some(keys.iter().map(|k| k.to_string()).collect());
                let problems = list_problems(&published);
                fallen.push(format!("{definition}.{property}: {}", problems.join(", ")));
            }
        }
    }
    fallen.sort();
    assert_eq!(
        fallen,
        [
            "io.k8s.api.apps.v1.DaemonSetStatus.conditions: list map key `type` must be required or have a default in the items",
            "io.k8s.api.apps.v1.DeploymentStatus.conditions: list map key `type` must be required or have a default in the items",
            "io.k8s.api.apps.v1.ReplicaSetStatus.conditions: list map key `type` must be required or have a default in the items",
            "io.k8s.api.apps.v1.StatefulSetStatus.conditions: list map key `type` must be required or have a default in the items",
            "io.k8s.api.core.v1.ServiceAccount.secrets: list map key `name` must be required or have a default in the items",
            "io.k8s.api.resource.v1.ResourceClaimStatus.devices: list map key `shareID` must be required or have a default in the items",
            "io.k8s.api.resource.v1beta1.ResourceClaimStatus.devices: list map key `shareID` must be required or have a default in the items",
            "io.k8s.api.resource.v1beta2.ResourceClaimStatus.devices: list map key `shareID` must be required or have a default in the items",
            // A recursive type: the nested items are cut to an object that keeps unknown fields
            // (see `convert`), with no properties to key by.
            "io.k8s.api.scheduling.v1alpha3.CompositePodGroupTemplate.compositePodGroupTemplates: `list_type = \"map\"` needs items that are structs with fields (the keys name some of them)",
            "io.k8s.api.scheduling.v1beta1.CompositePodGroupTemplate.compositePodGroupTemplates: `list_type = \"map\"` needs items that are structs with fields (the keys name some of them)",
        ]
    );
}

/// Every topology written in every type of the enabled version is one the apiserver accepts in
/// a CRD, and sits on the right kind of node.
#[test]
fn every_topology_is_valid_for_a_crd() {
    let mut failures = Vec::new();
    let mut lists = 0;
    for (name, schema) in converted_definitions() {
        walk(schema, name, &mut |path, node| {
            if node.x_list_type.is_some() {
                lists += 1;
            }
            for problem in list_problems(node) {
                failures.push(format!("{path}: {problem}"));
            }
            if node.x_map_type.is_some() && node.type_str() != "object" {
                failures.push(format!("{path}: map-type on a {}", node.type_str()));
            }
        });
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(lists > 1000, "only {lists} lists with a list type");
}

/// The hand-written tables still apply: each correction's property has, in every version of
/// the generated `deep_merge.rs` (which `tools/k8s-facts` checks against the sources) that has
/// it, exactly the strategy the correction replaces (so a k8s-openapi that fixes its generator
/// makes this fail: remove the entry), and the corrected topology is what the enabled version
/// writes.
#[test]
fn corrections_match_the_sources() {
    use super::topology::{ATOMIC_STRUCTS, CORRECTIONS, GRANULAR_STRUCT_PROPERTIES, KEY_DEFAULTS};
    let all = super::deep_merge::every_version();
    for correction in CORRECTIONS {
        let found: Vec<topology::Topology> = all
            .iter()
            .filter(|(d, p, _)| *d == correction.definition && *p == correction.property)
            .map(|(_, _, t)| *t)
            .collect();
        let expected = correction.deep_merge;
        assert!(
            !found.is_empty() && found.iter().all(|t| *t == expected),
            "{}.{}: the sources say {found:?}, the correction expects {expected:?}",
            correction.definition,
            correction.property
        );
        // In the enabled version (when it has the property), the correction is what we write.
        if let Some(schema) = converted_definitions().get(correction.definition)
            && let Some(node) = schema.properties.get(correction.property)
        {
            let (list_type, keys) = match correction.published {
                topology::Topology::Map(keys) => (Some("map"), keys.to_vec()),
                topology::Topology::Atomic => (Some("atomic"), vec![]),
                topology::Topology::Set => (Some("set"), vec![]),
                topology::Topology::MapAtomic => (None, vec![]),
            };
            assert_eq!(
                list_topology(node),
                (list_type, keys),
                "{}.{}",
                correction.definition,
                correction.property
            );
        }
    }

    // Every named definition exists in some version (of the Go facts, which have every
    // `k8s.io/api` and `k8s.io/apimachinery` struct of each), and is a struct.
    let named = ATOMIC_STRUCTS
        .iter()
        .copied()
        .chain(GRANULAR_STRUCT_PROPERTIES.iter().map(|(d, _)| *d))
        .chain(KEY_DEFAULTS.iter().map(|(d, _, _)| *d));
    for definition in named {
        assert!(
            Minor::supported().any(|m| go_facts::lookup(m, definition).is_some()),
            "{definition} is in no version"
        );
    }
    for definition in ATOMIC_STRUCTS {
        if let Some(schema) = converted_definitions().get(*definition) {
            assert_eq!(
                schema.x_map_type.map(Topology::as_str),
                Some("atomic"),
                "{definition}"
            );
            assert!(!schema.properties.is_empty(), "{definition} is a struct");
        }
    }
    for (definition, property) in GRANULAR_STRUCT_PROPERTIES {
        let schema = &converted_definitions()[*definition];
        assert_eq!(
            schema.properties[*property]
                .x_map_type
                .map(Topology::as_str),
            Some("granular")
        );
    }
    for (definition, property, default) in KEY_DEFAULTS {
        let schema = &converted_definitions()[*definition];
        assert_eq!(schema.properties[*property].default, Some(json!(default)));
        assert!(
            !schema.required.contains(&property.to_string()),
            "{definition}.{property}"
        );
    }
}

/// How much topology the enabled version has (k8s-openapi 0.29, Kubernetes 1.37), as the
/// `DeepMerge` impls give it and after the corrections: pinned to see changes. The corrected
/// counts are those of the Kubernetes 1.37 OpenAPI (v2), whose 323 atomic lists are not quite
/// ours: it leaves `APIResource.verbs` unannotated and marks `APIServiceSpec.caBundle` (a
/// `[]byte`, a string in JSON) atomic. See `topology.rs`.
#[test]
fn topology_counts() {
    let kind = |topology: &topology::Topology| match topology {
        topology::Topology::Atomic => "atomic",
        topology::Topology::Set => "set",
        topology::Topology::Map(_) => "map",
        topology::Topology::MapAtomic => "map_atomic",
    };
    let mut generated = std::collections::BTreeMap::new();
    for (_, _, topology) in topology::generated() {
        *generated.entry(kind(&topology)).or_insert(0) += 1;
    }
    assert_eq!(
        generated,
        std::collections::BTreeMap::from([
            ("atomic", 320),
            ("map", 111),
            ("map_atomic", 4),
            ("set", 26)
        ])
    );
    let mut corrected = std::collections::BTreeMap::new();
    for topology in topology::properties().values().flatten().map(|(_, t)| t) {
        *corrected.entry(kind(topology)).or_insert(0) += 1;
    }
    assert_eq!(
        corrected,
        std::collections::BTreeMap::from([
            ("atomic", 323),
            ("map", 108),
            ("map_atomic", 4),
            ("set", 26)
        ])
    );
}

#[test]
fn byte_string_is_a_base64_string() {
    let shape = <k8s_openapi::ByteString as KubeSchema>::shape();
    let known = known_of(shape.clone());
    assert_eq!(known.name, "k8s_openapi::ByteString");
    assert_eq!(
        json_of(&known.schema()),
        json!({"type": "string", "format": "byte"})
    );
    assert_eq!(
        lookup("k8s_openapi::ByteString", &Kubernetes::compiled()),
        Some(shape)
    );
    // The same as the fields k8s-openapi writes for `ByteString` values.
    let secret = json_of(&schema_of::<k8s_openapi::api::core::v1::Secret>());
    assert_eq!(
        secret["properties"]["data"]["additionalProperties"],
        json!({"type": "string", "format": "byte"})
    );
}

/// Topology differences between controller-gen's golden and ours, walking both by property
/// name: (JSON path, keyword, golden's value, ours), and the paths only one side has
/// (keyword `only in the golden` / `only in ours`).
fn differences(golden: &Value, ours: &Value, path: &str, out: &mut Vec<[String; 4]>) {
    const KEYWORDS: [&str; 4] = [
        "x-kubernetes-list-type",
        "x-kubernetes-list-map-keys",
        "x-kubernetes-map-type",
        "default",
    ];
    let show = |v: Option<&Value>| v.map(Value::to_string).unwrap_or_default();
    for keyword in KEYWORDS {
        let (g, o) = (golden.get(keyword), ours.get(keyword));
        if g != o {
            out.push([path.into(), keyword.into(), show(g), show(o)]);
        }
    }
    for child in ["items", "additionalProperties"] {
        if let (Some(g), Some(o)) = (golden.get(child), ours.get(child)) {
            differences(g, o, &format!("{path}.{child}"), out);
        }
    }
    let empty = serde_json::Map::new();
    let properties = |v: &Value| {
        v.get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty)
            .clone()
    };
    let (theirs, ours) = (properties(golden), properties(ours));
    for (name, g) in &theirs {
        let here = format!("{path}.{name}");
        match ours.get(name) {
            Some(o) => differences(g, o, &here, out),
            None => out.push([
                here,
                "only in the golden".into(),
                String::new(),
                String::new(),
            ]),
        }
    }
    for name in ours.keys().filter(|n| !theirs.contains_key(*n)) {
        let here = format!("{path}.{name}");
        out.push([here, "only in ours".into(), String::new(), String::new()]);
    }
}

/// controller-gen's `batchv1.JobTemplateSpec`: the cronjob golden's `spec.jobTemplate`.
fn golden_job_template() -> Option<Value> {
    let crd = cronjobs_golden()?;
    let versions = crd["spec"]["versions"].as_array().expect("versions");
    let v1 = versions
        .iter()
        .find(|v| v["name"] == "v1")
        .expect("version v1");
    Some(v1["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["jobTemplate"].clone())
}

/// How many nodes of `value` carry `keyword`.
fn count_keyword(value: &Value, keyword: &str) -> usize {
    match value {
        Value::Object(map) => {
            usize::from(map.contains_key(keyword))
                + map
                    .values()
                    .map(|v| count_keyword(v, keyword))
                    .sum::<usize>()
        }
        Value::Array(items) => items.iter().map(|v| count_keyword(v, keyword)).sum(),
        _ => 0,
    }
}

/// Ours against controller-gen's `batchv1.JobTemplateSpec` (the cronjob golden, from
/// k8s.io/api v0.36.1; ours is Kubernetes 1.37), node by node. Before the topology was
/// recovered, ours lacked all of the golden's 155 `x-kubernetes-list-type`, 25
/// `x-kubernetes-list-map-keys` and 54 `x-kubernetes-map-type`; before the Go facts
/// (`go_facts.rs`), 9 of the map types (structs embedding `LocalObjectReference` inline) and
/// 44 of its 47 `default`s. Now every list type, set of keys, map type and default is the same;
/// what is left are paths only in ours (no keyword compared below them): the fields Kubernetes
/// 1.37 added after the golden's k8s.io/api (`evictionResponders`, `scheduling`,
/// `bindMountOptions`, `grpc.mode`, `httpGet.protocol`, `defaultUser`, ...) and the embedded
/// ObjectMeta's properties (the golden was generated without `generateEmbeddedObjectMeta`). No
/// path is only in the golden.
#[test]
fn job_template_topology_against_controller_gen() {
    use k8s_openapi::api::batch::v1::JobTemplateSpec;
    let Some(golden) = golden_job_template() else {
        return;
    };
    let ours = json_of(&schema_of::<JobTemplateSpec>());

    // What the golden has, and what we have of it.
    let keywords = [
        ("x-kubernetes-list-type", 155),
        ("x-kubernetes-list-map-keys", 25),
        ("x-kubernetes-map-type", 54),
    ];
    for (keyword, count) in keywords {
        assert_eq!(
            count_keyword(&golden, keyword),
            count,
            "{keyword} in the golden"
        );
    }

    let mut found = Vec::new();
    differences(&golden, &ours, "", &mut found);
    let of =
        |keyword: &str| -> Vec<&[String; 4]> { found.iter().filter(|d| d[1] == keyword).collect() };

    assert_eq!(of("x-kubernetes-list-type"), Vec::<&[String; 4]>::new());
    assert_eq!(of("x-kubernetes-list-map-keys"), Vec::<&[String; 4]>::new());

    // The Go facts (`go_facts.rs`) give the structs that embed `LocalObjectReference` inline
    // its `+structType=atomic`, and every `+default`, as controller-gen writes them.
    assert_eq!(of("x-kubernetes-map-type"), Vec::<&[String; 4]>::new());
    assert_eq!(of("default"), Vec::<&[String; 4]>::new());
    assert_eq!(count_keyword(&golden, "default"), 47);
    let ports = "/properties/spec/properties/template/properties/spec/properties/containers\
                 /items/properties/ports/items/properties/protocol/default";
    assert_eq!(ours.pointer(ports), Some(&json!("TCP")));

    assert_eq!(of("only in the golden"), Vec::<&[String; 4]>::new());
    let only_ours = of("only in ours");
    assert_eq!(only_ours.len(), 58, "{only_ours:#?}");
    assert_eq!(found.len(), 58);
}

/// The list-type rules' findings, as text.
fn list_problems(node: &Schema) -> Vec<String> {
    crate::check::lists::problems(node)
        .iter()
        .map(ToString::to_string)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The Go facts

fn minor(minor: u32) -> Minor {
    Minor::new(minor).expect("a supported version")
}

#[test]
fn condition_and_local_object_reference_facts() {
    let condition =
        go_facts::lookup(minor(37), "io.k8s.apimachinery.pkg.apis.meta.v1.Condition").unwrap();
    let field = |name: &str| condition.fields().find(|f| f.name == name).unwrap();
    assert!(
        field("type")
            .facts
            .contains(&go_facts::Fact::MaxLength(316))
    );
    assert!(
        field("status")
            .facts
            .contains(&go_facts::Fact::Enum(r#"["True","False","Unknown"]"#))
    );
    assert!(!field("observedGeneration").required);
    let reference = go_facts::lookup(minor(33), "io.k8s.api.core.v1.LocalObjectReference").unwrap();
    assert!(reference.atomic());
    let name = reference.fields().next().unwrap();
    assert_eq!(name.facts, [go_facts::Fact::Default(r#""""#)]);
    assert!(!name.required);
}

/// The offsets the generator computes for these two texts (its own test checks them).
#[test]
fn descriptions_keep_controller_gens_line_breaks() {
    let go = "Name of the referent.\nThis field is effectively\n\nMore info:  see";
    let openapi = "Name of the referent. This field is effectively\n\nMore info: see";
    let offsets = "11|4n,4nn,2ss";
    assert_eq!(go_facts::rewrap(openapi, offsets).as_deref(), Some(go));
    assert_eq!(go_facts::rewrap("Name of", offsets), None);
    assert_eq!(go_facts::rewrap(openapi, ""), None);
}

#[test]
fn an_unsupported_version_is_an_error_naming_the_supported_ones() {
    let error = Minor::new(32).unwrap_err();
    assert!(
        error.contains("1.32") && error.contains("supported: v1_33, v1_34, v1_35, v1_36, v1_37"),
        "{error}"
    );
    assert_eq!(Minor::compiled(), minor(37));
    assert_eq!(Minor::compiled().to_string(), "1.37");
    let supported: Vec<u32> = Minor::supported().map(Minor::get).collect();
    assert_eq!(supported, [33, 34, 35, 36, 37]);
}

#[test]
fn each_version_has_its_own_facts() {
    let fields = |m: u32, definition: &str| -> Vec<&str> {
        let go = go_facts::lookup(minor(m), definition).expect(definition);
        go.fields().map(|f| f.name).collect()
    };
    let pod_spec = "io.k8s.api.core.v1.PodSpec";
    assert!(fields(37, pod_spec).contains(&"evictionResponders"));
    assert!(!fields(36, pod_spec).contains(&"evictionResponders"));
    assert!(fields(33, pod_spec).contains(&"containers"));
    // One entry per version where the facts differ: the type's own description breaks.
    let rules = "io.k8s.api.autoscaling.v2.HPAScalingRules";
    let breaks = |m: u32| go_facts::lookup(minor(m), rules).unwrap().breaks();
    assert!(breaks(33).starts_with("98|"), "{}", breaks(33));
    assert!(breaks(36).starts_with("100|"), "{}", breaks(36));
    assert!(breaks(37).starts_with("86|"), "{}", breaks(37));
    // A field's facts that change: required up to 1.36, optional in 1.37.
    let condition = "io.k8s.api.apps.v1.DeploymentCondition";
    let required = |m: u32| -> Vec<&str> {
        let go = go_facts::lookup(minor(m), condition).unwrap();
        go.fields().filter(|f| f.required).map(|f| f.name).collect()
    };
    assert_eq!(required(36), ["status", "type"]);
    assert_eq!(required(37), Vec::<&str>::new());
    // A type only some versions have.
    let bundle = "io.k8s.api.certificates.v1alpha1.ClusterTrustBundle";
    assert!(go_facts::lookup(minor(36), bundle).is_some());
    assert!(go_facts::lookup(minor(37), bundle).is_none());
}
