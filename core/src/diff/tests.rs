//! One test per rule on small schemas, in both directions: what breaks and what does not.

use serde_json::{Value, json};

use super::*;

/// A namespaced CRD with one served storage version `v1` whose `spec` is `spec`.
fn crd(spec: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [version("v1", true, true, spec)],
        }
    })
}

fn version(name: &str, served: bool, storage: bool, spec: Value) -> Value {
    json!({
        "name": name, "served": served, "storage": storage,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}},
    })
}

/// `(rule, class, place, message)` of every change from `old` to `new`.
fn diff(old: &Value, new: &Value, config: &Config) -> Vec<(&'static str, Class, String, String)> {
    compare(old, new, config)
        .into_iter()
        .map(|c| (c.rule, c.class, c.place(), c.message))
        .collect()
}

/// The changes between two `spec` schemas (default configuration).
fn spec_diff(old: Value, new: Value) -> Vec<(&'static str, Class, String, String)> {
    diff(&crd(old), &crd(new), &Config::default())
}

/// The classes the changes of `rule` get.
fn classes(changes: &[(&'static str, Class, String, String)], rule: &str) -> Vec<Class> {
    changes
        .iter()
        .filter(|c| c.0 == rule)
        .map(|c| c.1)
        .collect()
}

fn field(schema: Value) -> Value {
    json!({"type": "object", "properties": {"f": schema}})
}

#[test]
fn identical_crds_have_no_changes() {
    let spec = field(json!({"type": "string", "enum": ["A"], "maxLength": 3}));
    assert_eq!(spec_diff(spec.clone(), spec), vec![]);
}

#[test]
fn scope_change_breaks_both_ways() {
    let namespaced = crd(json!({"type": "object"}));
    let mut cluster = namespaced.clone();
    cluster["spec"]["scope"] = json!("Cluster");
    for (a, b) in [(&namespaced, &cluster), (&cluster, &namespaced)] {
        let changes = diff(a, b, &Config::default());
        assert_eq!(
            classes(&changes, "scope"),
            vec![Class::Breaking],
            "{changes:?}"
        );
    }
}

#[test]
fn removed_field_breaks_and_added_field_is_safe() {
    let with = field(json!({"type": "object", "properties": {"g": {"type": "string"}}}));
    let without = json!({"type": "object"});
    let removed = spec_diff(with.clone(), without.clone());
    // The object and its child are one removal.
    assert_eq!(
        removed,
        vec![(
            "existingFieldRemoval",
            Class::Breaking,
            "v1 .spec.f".into(),
            "field removed".into()
        )]
    );
    let added = spec_diff(without, with);
    assert_eq!(
        added,
        vec![(
            "fieldAddition",
            Class::Safe,
            "v1 .spec.f".into(),
            "field added".into()
        )]
    );
}

#[test]
fn stored_version_removal_breaks_and_a_new_version_is_safe() {
    let spec = json!({"type": "object"});
    let mut two = crd(spec.clone());
    two["spec"]["versions"] = json!([
        version("v1alpha1", true, false, spec.clone()),
        version("v1", true, true, spec.clone())
    ]);
    let mut old = two.clone();
    old["status"] = json!({"storedVersions": ["v1alpha1", "v1"]});
    let one = crd(spec);
    let changes = diff(&old, &one, &Config::default());
    assert_eq!(
        classes(&changes, "storedVersionRemoval"),
        vec![Class::Breaking]
    );
    assert_eq!(
        classes(&changes, "servedVersionRemoval"),
        vec![Class::Breaking]
    );
    // Without the status, v1alpha1 was neither stored nor the storage version: only its
    // clients break.
    let changes = diff(&two, &one, &Config::default());
    assert_eq!(classes(&changes, "storedVersionRemoval"), vec![]);
    let back = diff(&one, &two, &Config::default());
    assert_eq!(classes(&back, "version"), vec![Class::Safe]);
    assert!(
        !breaking(&compare(&one, &two, &Config::default())),
        "{back:?}"
    );
}

#[test]
fn served_version_removal_breaks_and_serving_again_is_safe() {
    let spec = json!({"type": "object"});
    let mut old = crd(spec.clone());
    old["spec"]["versions"] = json!([
        version("v1beta1", true, false, spec.clone()),
        version("v1", true, true, spec.clone())
    ]);
    let mut new = old.clone();
    new["spec"]["versions"][0]["served"] = json!(false);
    let changes = diff(&old, &new, &Config::default());
    assert_eq!(
        classes(&changes, "servedVersionRemoval"),
        vec![Class::Breaking]
    );
    assert_eq!(
        classes(
            &diff(&new, &old, &Config::default()),
            "servedVersionRemoval"
        ),
        vec![]
    );
}

#[test]
fn storage_version_move_warns_that_a_migration_is_needed() {
    let spec = json!({"type": "object"});
    let mut old = crd(spec.clone());
    old["spec"]["versions"] = json!([
        version("v1beta1", true, true, spec.clone()),
        version("v1", true, false, spec.clone())
    ]);
    let mut new = old.clone();
    new["spec"]["versions"][0]["storage"] = json!(false);
    new["spec"]["versions"][1]["storage"] = json!(true);
    let changes = compare(&old, &new, &Config::default());
    let moved: Vec<&Change> = changes
        .iter()
        .filter(|c| c.rule == "storageVersionChange")
        .collect();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].class, Class::Warning);
    assert!(
        moved[0].message.contains("storage migration is needed"),
        "{}",
        moved[0].message
    );
    assert!(moved[0].note.unwrap().contains("storedVersions"));
    assert!(!breaking(&changes));
}

#[test]
fn conversion_strategy_change_warns() {
    let old = crd(json!({"type": "object"}));
    let mut new = old.clone();
    new["spec"]["conversion"] = json!({"strategy": "Webhook"});
    assert_eq!(
        classes(&diff(&old, &new, &Config::default()), "conversion"),
        vec![Class::Warning]
    );
    assert_eq!(diff(&old, &old, &Config::default()), vec![]);
}

#[test]
fn enum_rules_follow_crdify() {
    let e = |values: Value| field(json!({"type": "string", "enum": values}));
    let plain = field(json!({"type": "string"}));
    // A constraint where there was none, a value removed, a value added: incompatible.
    assert_eq!(
        classes(&spec_diff(plain.clone(), e(json!(["A"]))), "enum"),
        vec![Class::Breaking]
    );
    let removed = spec_diff(e(json!(["A", "B"])), e(json!(["A"])));
    assert_eq!(removed[0].3, r#"allowed enum values removed: ["B"]"#);
    assert_eq!(classes(&removed, "enum"), vec![Class::Breaking]);
    let added = spec_diff(e(json!(["A"])), e(json!(["A", "B"])));
    assert_eq!(added[0].3, r#"allowed enum values added: ["B"]"#);
    assert_eq!(classes(&added, "enum"), vec![Class::Breaking]);
    // The addition policy makes an added value compatible; a removal stays incompatible.
    let allow = Config {
        enum_addition: Policy::Allow,
        ..Config::default()
    };
    let added = diff(&crd(e(json!(["A"]))), &crd(e(json!(["A", "B"]))), &allow);
    assert_eq!(classes(&added, "enum"), vec![Class::Safe]);
    let removed = diff(&crd(e(json!(["A", "B"]))), &crd(e(json!(["A"]))), &allow);
    assert_eq!(classes(&removed, "enum"), vec![Class::Breaking]);
    // Order does not matter.
    assert_eq!(
        classes(
            &spec_diff(e(json!(["A", "B"])), e(json!(["B", "A"]))),
            "enum"
        ),
        vec![Class::Safe]
    );
}

#[test]
fn default_added_changed_or_removed_breaks() {
    let d = |v: Value| field(json!({"type": "integer", "default": v}));
    let plain = field(json!({"type": "integer"}));
    for (a, b) in [
        (plain.clone(), d(json!(1))),
        (d(json!(1)), d(json!(2))),
        (d(json!(1)), plain.clone()),
    ] {
        let changes = spec_diff(a, b);
        assert_eq!(
            classes(&changes, "default"),
            vec![Class::Breaking],
            "{changes:?}"
        );
    }
    assert_eq!(spec_diff(d(json!(1)), d(json!(1))), vec![]);
}

/// A `spec.f` of type `ty` whose `rule` keyword is `value` (absent for `None`).
fn bounded(rule: &str, ty: &str, value: Option<i64>) -> Value {
    let mut s = json!({"type": ty});
    if let Some(v) = value {
        s[rule] = json!(v);
    }
    field(s)
}

#[test]
fn bounds_break_when_added_or_tightened() {
    // (rule, type, a bound the other is tighter than, the tighter one)
    let cases = [
        ("minimum", "integer", 1, 2),
        ("minLength", "string", 1, 2),
        ("minItems", "array", 1, 2),
        ("minProperties", "object", 1, 2),
        ("maximum", "number", 5, 3),
        ("maxLength", "string", 5, 3),
        ("maxItems", "array", 5, 3),
        ("maxProperties", "object", 5, 3),
    ];
    for (rule, ty, loose, tight) in cases {
        let b = |v| bounded(rule, ty, v);
        let class = |a, b| classes(&spec_diff(a, b), rule);
        assert_eq!(
            class(b(None), b(Some(tight))),
            [Class::Breaking],
            "{rule} added"
        );
        assert_eq!(
            class(b(Some(loose)), b(Some(tight))),
            [Class::Breaking],
            "{rule} tightened"
        );
        assert_eq!(
            class(b(Some(tight)), b(Some(loose))),
            [Class::Safe],
            "{rule} loosened"
        );
        assert_eq!(
            class(b(Some(tight)), b(None)),
            [Class::Safe],
            "{rule} removed"
        );
    }
    let raised = spec_diff(
        bounded("maximum", "number", Some(3)),
        bounded("maximum", "number", Some(5)),
    );
    assert_eq!(raised[0].3, "maximum increased: 3 -> 5");
    let raised = spec_diff(
        bounded("minItems", "array", Some(1)),
        bounded("minItems", "array", Some(2)),
    );
    assert_eq!(raised[0].3, "minimum increased: 1 -> 2");
}

#[test]
fn a_new_required_field_breaks_and_dropping_one_is_safe() {
    let r = |names: Value| json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": names});
    let changes = spec_diff(r(json!([])), r(json!(["a"])));
    assert_eq!(
        changes,
        vec![(
            "required",
            Class::Breaking,
            "v1 .spec".into(),
            r#"new required fields: ["a"]"#.into()
        )]
    );
    assert_eq!(
        classes(&spec_diff(r(json!(["a"])), r(json!([]))), "required"),
        vec![Class::Safe]
    );
}

#[test]
fn a_required_field_of_a_new_optional_object_is_safe() {
    let old = json!({"type": "object"});
    let new = field(
        json!({"type": "object", "properties": {"t": {"type": "string"}}, "required": ["t"]}),
    );
    let changes = spec_diff(old, new);
    assert!(changes.iter().all(|c| c.1 == Class::Safe), "{changes:?}");
}

#[test]
fn a_type_change_breaks_either_way() {
    let s = field(json!({"type": "string"}));
    let i = field(json!({"type": "integer"}));
    let changes = spec_diff(s.clone(), i.clone());
    assert_eq!(
        changes,
        vec![(
            "type",
            Class::Breaking,
            "v1 .spec.f".into(),
            r#"type changed: "string" -> "integer""#.into()
        )]
    );
    assert_eq!(classes(&spec_diff(i, s), "type"), vec![Class::Breaking]);
}

#[test]
fn nullable_follows_its_policies() {
    let n = |on: bool| field(json!({"type": "string", "nullable": on}));
    assert_eq!(
        classes(&spec_diff(n(false), n(true)), "nullable"),
        vec![Class::Breaking]
    );
    assert_eq!(
        classes(&spec_diff(n(true), n(false)), "nullable"),
        vec![Class::Breaking]
    );
    let allow = Config {
        nullable_addition: Policy::Allow,
        ..Config::default()
    };
    assert_eq!(
        classes(&diff(&crd(n(false)), &crd(n(true)), &allow), "nullable"),
        vec![Class::Safe]
    );
    assert_eq!(
        classes(&diff(&crd(n(true)), &crd(n(false)), &allow), "nullable"),
        vec![Class::Breaking]
    );
}

#[test]
fn pattern_added_changed_or_removed_is_flagged_unless_removal_is_allowed() {
    let p = |pattern: Option<&str>| {
        let mut s = json!({"type": "string"});
        if let Some(p) = pattern {
            s["pattern"] = json!(p);
        }
        field(s)
    };
    assert_eq!(
        classes(&spec_diff(p(None), p(Some("^a"))), "pattern"),
        vec![Class::Breaking]
    );
    assert_eq!(
        classes(&spec_diff(p(Some("^a")), p(Some("^b"))), "pattern"),
        vec![Class::Breaking]
    );
    assert_eq!(
        classes(&spec_diff(p(Some("^a")), p(None)), "pattern"),
        vec![Class::Breaking]
    );
    let allow = Config {
        pattern_removal: Policy::Allow,
        ..Config::default()
    };
    assert_eq!(
        classes(&diff(&crd(p(Some("^a"))), &crd(p(None)), &allow), "pattern"),
        vec![Class::Safe]
    );
}

#[test]
fn description_is_safe_unless_enforced() {
    let d = |text: &str| field(json!({"type": "string", "description": text}));
    assert_eq!(
        classes(&spec_diff(d("a"), d("b")), "description"),
        vec![Class::Safe]
    );
    let strict = Config {
        enforcement: [("description".to_string(), Enforcement::Error)].into(),
        ..Config::default()
    };
    assert_eq!(
        classes(&diff(&crd(d("a")), &crd(d("b")), &strict), "description"),
        vec![Class::Breaking]
    );
}

#[test]
fn enforcement_none_and_warning_reclassify_a_rule() {
    let t = |ty: &str| field(json!({"type": ty}));
    for (enforcement, class) in [
        (Enforcement::Warning, Class::Warning),
        (Enforcement::None, Class::Safe),
    ] {
        let config = Config {
            enforcement: [("type".to_string(), enforcement)].into(),
            ..Config::default()
        };
        let changes = diff(&crd(t("string")), &crd(t("integer")), &config);
        assert_eq!(classes(&changes, "type"), vec![class]);
    }
}

#[test]
fn list_type_list_map_keys_and_map_type_changes_break() {
    let list = |kind: Option<&str>, keys: Option<Value>| {
        let mut s = json!({"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}});
        if let Some(k) = kind {
            s["x-kubernetes-list-type"] = json!(k);
        }
        if let Some(keys) = keys {
            s["x-kubernetes-list-map-keys"] = keys;
        }
        field(s)
    };
    assert_eq!(
        classes(
            &spec_diff(list(None, None), list(Some("set"), None)),
            "listType"
        ),
        vec![Class::Breaking]
    );
    // An explicit `atomic` is what an unset list type means.
    assert_eq!(
        spec_diff(list(None, None), list(Some("atomic"), None)),
        vec![]
    );
    let keys = spec_diff(
        list(Some("map"), Some(json!(["name"]))),
        list(Some("map"), Some(json!(["name", "port"]))),
    );
    assert_eq!(classes(&keys, "listMapKeys"), vec![Class::Breaking]);
    let map = |kind: Option<&str>| {
        let mut s = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        if let Some(k) = kind {
            s["x-kubernetes-map-type"] = json!(k);
        }
        field(s)
    };
    assert_eq!(
        classes(&spec_diff(map(None), map(Some("atomic"))), "mapType"),
        vec![Class::Breaking]
    );
    assert_eq!(spec_diff(map(None), map(Some("granular"))), vec![]);
}

#[test]
fn removing_preserve_unknown_fields_breaks_and_adding_it_is_safe() {
    let open = field(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    let closed = field(json!({"type": "object"}));
    assert_eq!(
        classes(
            &spec_diff(open.clone(), closed.clone()),
            "preserveUnknownFields"
        ),
        vec![Class::Breaking]
    );
    assert_eq!(
        classes(&spec_diff(closed, open), "preserveUnknownFields"),
        vec![Class::Safe]
    );
}

#[test]
fn cel_rules_added_warn_with_ratcheting_and_removed_are_safe() {
    let rules = |rules: Value| field(json!({"type": "integer", "x-kubernetes-validations": rules}));
    let none = field(json!({"type": "integer"}));
    let added = compare(
        &crd(none.clone()),
        &crd(rules(json!([{"rule": "self > 1"}]))),
        &Config::default(),
    );
    assert_eq!(added.len(), 1);
    assert_eq!((added[0].rule, added[0].class), ("cel", Class::Warning));
    assert!(added[0].note.unwrap().contains("KEP-4008"));
    let transition = compare(
        &crd(none.clone()),
        &crd(rules(json!([{"rule": "self >= oldSelf"}]))),
        &Config::default(),
    );
    assert!(transition[0].note.unwrap().contains("not ratcheted"));
    // Tightened: the old text is gone, a new one is there.
    let tightened = spec_diff(
        rules(json!([{"rule": "self > 1"}])),
        rules(json!([{"rule": "self > 2"}])),
    );
    assert_eq!(
        classes(&tightened, "cel"),
        vec![Class::Warning, Class::Safe],
        "{tightened:?}"
    );
    let message = spec_diff(
        rules(json!([{"rule": "self > 1"}])),
        rules(json!([{"rule": "self > 1", "message": "m"}])),
    );
    assert_eq!(classes(&message, "cel"), vec![Class::Safe]);
    assert_eq!(
        classes(
            &spec_diff(rules(json!([{"rule": "self > 1"}])), none),
            "cel"
        ),
        vec![Class::Safe]
    );
}

#[test]
fn format_added_warns_and_removed_is_safe() {
    let f = |format: Option<&str>| {
        let mut s = json!({"type": "string"});
        if let Some(f) = format {
            s["format"] = json!(f);
        }
        field(s)
    };
    assert_eq!(
        classes(&spec_diff(f(None), f(Some("date-time"))), "format"),
        vec![Class::Warning]
    );
    assert_eq!(
        classes(&spec_diff(f(Some("date-time")), f(None)), "format"),
        vec![Class::Safe]
    );
}

#[test]
fn any_other_keyword_change_is_unhandled() {
    let t = |title: &str| field(json!({"type": "string", "title": title}));
    let changes = spec_diff(t("a"), t("b"));
    assert_eq!(classes(&changes, "unhandled"), vec![Class::Breaking]);
}

#[test]
fn served_versions_are_compared_pairwise_minus_what_the_old_crd_had() {
    let s = |max: i64| field(json!({"type": "string", "maxLength": max}));
    let two = |alpha: Value, ga: Value| {
        let mut c = crd(json!({}));
        c["spec"]["versions"] = json!([
            version("v1", true, true, ga),
            version("v1alpha1", true, false, alpha)
        ]);
        c
    };
    // v1 newly allows less than v1alpha1: a client moving from v1alpha1 to v1 breaks.
    let old = two(s(10), s(10));
    let new = two(s(10), s(5));
    let changes = diff(&old, &new, &Config::default());
    let pair: Vec<_> = changes
        .iter()
        .filter(|c| c.2.starts_with("v1alpha1 -> v1 "))
        .collect();
    assert_eq!(pair.len(), 1, "{changes:?}");
    assert_eq!(pair[0].0, "maxLength");
    // Already so in the old CRD: not reported again.
    let same = diff(&new, &new, &Config::default());
    assert_eq!(same, vec![]);
    // crdify's `conversion: Ignore`: a conversion webhook maps between the versions.
    let mut webhook = new.clone();
    webhook["spec"]["conversion"] = json!({"strategy": "Webhook"});
    let ignore = Config {
        conversion: ConversionPolicy::Ignore,
        ..Config::default()
    };
    let changes = diff(&old, &webhook, &ignore);
    assert!(changes.iter().all(|c| !c.2.contains(" -> ")), "{changes:?}");
    assert_eq!(
        classes(&diff(&old, &webhook, &Config::default()), "maxLength").len(),
        2
    );
}

#[test]
fn paths_show_items_and_map_values() {
    let old = field(
        json!({"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}}),
    );
    let new = field(
        json!({"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}),
    );
    assert_eq!(spec_diff(old, new)[0].2, "v1 .spec.f[*].n");
    let old = field(json!({"type": "object", "additionalProperties": {"type": "string"}}));
    let new = field(json!({"type": "object", "additionalProperties": {"type": "integer"}}));
    assert_eq!(spec_diff(old, new)[0].2, "v1 .spec.f{*}");
}

#[test]
fn configuration_reads_crdify_names_and_rejects_unknown_rules() {
    let config: Config = serde_json::from_value(json!({
        "enforcement": {"description": "Error", "enum": "Warn", "typo": "None"},
        "enum-addition": "Allow",
    }))
    .unwrap();
    assert_eq!(config.enforcement("description"), Enforcement::Error);
    assert_eq!(config.enforcement("enum"), Enforcement::Warning);
    assert_eq!(config.enum_addition, Policy::Allow);
    assert_eq!(config.unknown_rules(), vec!["typo"]);
    assert!(serde_json::from_value::<Config>(json!({"enum_addition": "Allow"})).is_err());
}

#[cfg(feature = "k8s")]
#[test]
fn k8s_objects_compare_as_their_json() {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let old = crd(field(json!({"type": "string", "maxLength": 5})));
    let new = crd(field(json!({"type": "string", "maxLength": 3})));
    let typed = |v: &Value| serde_json::from_value::<CustomResourceDefinition>(v.clone()).unwrap();
    let changes = compare_crds(&typed(&old), &typed(&new), &Config::default());
    assert_eq!(changes, compare(&old, &new, &Config::default()));
    assert_eq!(changes.len(), 1);
}
