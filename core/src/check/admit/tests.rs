use super::*;
use serde_json::json;

/// A CRD version's schema from its YAML.
fn validator(yaml: &str) -> Validator {
    let schema: Schema = serde_saphyr::from_str(yaml).unwrap();
    Validator::new(schema).unwrap()
}

fn messages(a: &Admitted) -> Vec<String> {
    let mut m: Vec<String> = a.errors.iter().map(ToString::to_string).collect();
    m.sort();
    m
}

const SPEC: &str = r#"
type: object
properties:
  apiVersion: {type: string}
  kind: {type: string}
  metadata: {type: object}
  spec:
    type: object
    required: [size]
    properties:
      size: {type: integer, minimum: 1, maximum: 5}
      ratio: {type: number, exclusiveMaximum: true, maximum: 1}
      name: {type: string, maxLength: 5, minLength: 2, pattern: '^[a-z]+$'}
      mode: {type: string, enum: [fast, slow], default: fast}
      id: {type: string, format: uuid}
      tags:
        type: array
        maxItems: 3
        x-kubernetes-list-type: set
        items: {type: string}
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [port]
        items:
          type: object
          required: [port]
          properties:
            port: {type: integer}
            name: {type: string}
      labels:
        type: object
        maxProperties: 2
        additionalProperties: {type: string}
      target: {x-kubernetes-int-or-string: true}
    x-kubernetes-validations:
      - rule: "!has(self.name) || self.name != 'bad'"
        message: name must not be bad
        fieldPath: .name
        reason: FieldValueForbidden
      - rule: "self.size <= 3 || self.mode == 'slow'"
        messageExpression: "'size ' + string(self.size) + ' needs slow mode'"
      - rule: "self.size >= oldSelf.size"
        message: size may not shrink
      - rule: "!has(self.tags) || self.tags.all(t, t.size() < 4)"
"#;

fn object(spec: Value) -> Value {
    json!({"apiVersion": "x.io/v1", "kind": "W", "metadata": {"name": "w"}, "spec": spec})
}

#[test]
fn a_valid_object_is_pruned_and_defaulted() {
    let v = validator(SPEC);
    let a = v.admit(&object(json!({"size": 2, "extra": 1})), None);
    assert_eq!(messages(&a), Vec::<String>::new());
    assert_eq!(a.object["spec"], json!({"size": 2, "mode": "fast"}));
    assert_eq!(a.unknown_fields, vec!["spec.extra"]);
}

#[test]
fn openapi_errors_are_worded_as_the_server_words_them() {
    let v = validator(SPEC);
    let a = v.admit(
        &object(json!({"size": 7, "ratio": 1, "name": "Ab", "id": "x", "labels": {"a": "1", "b": "2", "c": "3"}})),
        None,
    );
    assert_eq!(
        messages(&a),
        [
            r#"spec.id: Invalid value: "x": spec.id in body must be of type uuid: "x""#,
            r#"spec.labels: Too many: 3: must have at most 2 items"#,
            r#"spec.name: Invalid value: "Ab": spec.name in body should match '^[a-z]+$'"#,
            r#"spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1"#,
            r#"spec.size: Invalid value: 7: spec.size in body should be less than or equal to 5"#,
        ]
        .into_iter()
        .map(String::from)
        .chain(["<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation".into()])
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
}

#[test]
fn required_enum_length_type_and_counts() {
    let v = validator(SPEC);
    let a = v.admit(
        &object(json!({"mode": "quick", "name": "abcdefg", "tags": ["a", "b", "c", "d"], "target": 1.5})),
        None,
    );
    let m = messages(&a);
    assert!(
        m.contains(&"spec.size: Required value".to_string()),
        "{m:?}"
    );
    assert!(m.contains(
        &r#"spec.mode: Unsupported value: "quick": supported values: "fast", "slow""#.to_string()
    ));
    assert!(m.contains(&"spec.name: Too long: may not be more than 5 bytes".to_string()));
    assert!(m.contains(&"spec.tags: Too many: 4: must have at most 3 items".to_string()));
    assert!(m.contains(
        &r#"spec.target: Invalid value: "number": spec.target in body must be of type integer,string: "number""#.to_string()
    ));
    assert!(
        m.iter()
            .any(|e| e.contains("some validation rules were not checked"))
    );
}

#[test]
fn sets_and_map_lists_refuse_duplicates() {
    let v = validator(SPEC);
    let a = v.admit(
        &object(json!({"size": 1, "tags": ["a", "a"], "ports": [{"port": 80}, {"port": 80, "name": "x"}]})),
        None,
    );
    assert_eq!(
        messages(&a),
        [
            r#"spec.ports[1]: Duplicate value: {"port":80}"#,
            r#"spec.tags[1]: Duplicate value: "a""#,
        ]
    );
}

#[test]
fn rules_fail_with_their_message_reason_and_field_path() {
    let v = validator(SPEC);
    let a = v.admit(
        &object(json!({"size": 4, "name": "bad", "tags": ["abcd"]})),
        None,
    );
    assert_eq!(
        messages(&a),
        [
            "spec.name: Forbidden: name must not be bad",
            "spec: Invalid value: failed rule: !has(self.tags) || self.tags.all(t, t.size() < 4)",
            "spec: Invalid value: size 4 needs slow mode",
        ]
    );
}

#[test]
fn transition_rules_run_on_update_and_unchanged_values_ratchet() {
    let v = validator(SPEC);
    let old = object(json!({"size": 3, "tags": ["abcd"]}));
    let shrunk = v.admit(&object(json!({"size": 2, "tags": ["abcd"]})), Some(&old));
    // The tag rule fails on `spec`, which changed, so it is not ratcheted.
    assert_eq!(
        messages(&shrunk),
        [
            "spec: Invalid value: failed rule: !has(self.tags) || self.tags.all(t, t.size() < 4)",
            "spec: Invalid value: size may not shrink",
        ]
    );
    // The same object again: the failure on the unchanged `spec` is ratcheted.
    let same = v.admit(&old, Some(&old));
    assert_eq!(messages(&same), Vec::<String>::new());
    assert_eq!(same.ratcheted.len(), 1, "{:?}", same.ratcheted);
}

#[test]
fn optional_old_self_is_an_optional_on_create() {
    let v = validator(
        r#"
type: object
properties:
  spec:
    type: object
    properties:
      a: {type: string}
    x-kubernetes-validations:
      - rule: "!oldSelf.hasValue() || oldSelf.value().a == self.a"
        optionalOldSelf: true
        message: a is immutable
"#,
    );
    let create = v.admit(
        &json!({"metadata": {"name": "x"}, "spec": {"a": "1"}}),
        None,
    );
    assert!(create.errors.is_empty(), "{:?}", create.errors);
    let old = json!({"metadata": {"name": "x"}, "spec": {"a": "1"}});
    let update = v.admit(
        &json!({"metadata": {"name": "x"}, "spec": {"a": "2"}}),
        Some(&old),
    );
    assert_eq!(messages(&update), ["spec: Invalid value: a is immutable"]);
}

#[test]
fn runtime_errors_and_resources() {
    let v = validator(
        r#"
type: object
properties:
  spec:
    type: object
    properties:
      min-size: {type: integer}
      pod:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
    x-kubernetes-validations:
      - rule: "self.min__dash__size > 0"
"#,
    );
    let a = v.admit(
        &json!({"metadata": {"name": "Bad_Name"}, "spec": {"pod": {"kind": "Pod"}}}),
        None,
    );
    let m = messages(&a);
    assert!(
        m.iter().any(|e| e.starts_with(
            r#"metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain"#
        )),
        "{m:?}"
    );
    assert!(
        m.contains(&"spec.pod.apiVersion: Required value".to_string()),
        "{m:?}"
    );
    let a = v.admit(&json!({"metadata": {"name": "ok"}, "spec": {}}), None);
    assert_eq!(
        messages(&a),
        [
            r#"spec: Invalid value: "object": no such key: min__dash__size evaluating rule: self.min__dash__size > 0"#
        ]
    );
}

#[test]
fn a_rule_calling_an_undeclared_function_refuses_the_object() {
    let v = validator(
        r#"
type: object
properties:
  spec:
    type: object
    properties:
      q: {type: string}
    x-kubernetes-validations:
      - rule: "sha256(self.q) != ''"
"#,
    );
    let a = v.admit(
        &json!({"metadata": {"name": "x"}, "spec": {"q": "1"}}),
        None,
    );
    assert_eq!(
        messages(&a),
        [
            r#"spec: Invalid value: "object": Undeclared reference to 'sha256' evaluating rule: sha256(self.q) != ''"#
        ]
    );
}

#[test]
fn patterns_read_perl_classes_as_go_s_ascii_ones() {
    assert_eq!(super::ascii_classes(r"^\w+$"), "^[0-9A-Za-z_]+$");
    assert_eq!(
        super::ascii_classes(r"[\d.]\S\b"),
        r"[0-9.][^\t\n\f\r ](?-u:\b)"
    );
    assert_eq!(super::ascii_classes(r"[]\w]\.\\d"), r"[\]0-9A-Za-z_]\.\\d");
}
