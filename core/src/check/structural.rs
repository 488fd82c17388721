//! The apiserver's structural-schema rules, checked before anything reaches a cluster: every
//! node typed (unless int-or-string or keeping unknown fields), logical junctors holding only
//! value validations of fields specified outside them, no `properties` beside
//! `additionalProperties`, sound `x-kubernetes-*` extensions (list types are judged where they are
//! declared, by [`lists`](super::lists)).

use crate::model::Schema;

/// Every way `schema` (a version's `openAPIV3Schema`) is not structural, as `path: problem`.
pub fn violations(schema: &Schema) -> Vec<String> {
    let mut found = Vec::new();
    node(schema, "", true, &mut found);
    found
}

fn node(s: &Schema, path: &str, typed: bool, found: &mut Vec<String>) {
    let at = if path.is_empty() { "." } else { path };
    let mut report = |msg: String| found.push(format!("{at}: {msg}"));
    if typed && s.type_.is_none() && !s.x_int_or_string && !s.x_preserve_unknown_fields {
        report(
            "has no `type` (a structural schema types every field: set `schema_type`, or \
             `preserve_unknown_fields` to keep it untyped)"
                .into(),
        );
    }
    if s.x_int_or_string && s.type_.is_some() {
        report("`x-kubernetes-int-or-string` must not set `type`".into());
    }
    if s.x_preserve_unknown_fields && !matches!(s.type_str(), "" | "object") {
        report("`x-kubernetes-preserve-unknown-fields` goes on objects (or untyped nodes)".into());
    }
    if s.x_embedded_resource && s.type_str() != "object" {
        report("`x-kubernetes-embedded-resource` needs `type: object`".into());
    }
    if s.x_embedded_resource && s.properties.is_empty() && !s.x_preserve_unknown_fields {
        report(
            "an embedded resource needs `properties` or `x-kubernetes-preserve-unknown-fields`"
                .into(),
        );
    }
    if !s.properties.is_empty() && s.additional_properties.is_some() {
        report("`properties` and `additionalProperties` cannot be combined".into());
    }
    if s.items.is_some() != (s.type_str() == "array") && s.type_str() == "array" {
        report("an array needs `items`".into());
    }
    for (i, branch) in s.junctors().enumerate() {
        junctor(s, branch, &format!("{at}(junctor {i})"), found);
    }
    for (name, prop) in &s.properties {
        node(prop, &format!("{path}.{name}"), true, found);
    }
    if let Some(items) = &s.items {
        node(items, &format!("{path}[*]"), true, found);
    }
    if let Some(extra) = &s.additional_properties {
        node(extra, &format!("{path}[*]"), true, found);
    }
}

/// A branch of `allOf`/`anyOf`/`oneOf`/`not`: value validations only, and only on fields the schema
/// specifies outside the junctor. The int-or-string pair `anyOf: [{type: integer}, {type:
/// string}]` is the one allowed use of `type`.
fn junctor(outer: &Schema, branch: &Schema, at: &str, found: &mut Vec<String>) {
    let int_or_string_pair = outer.x_int_or_string
        && matches!(branch.type_str(), "integer" | "string")
        && Schema {
            type_: None,
            ..branch.clone()
        } == Schema::default();
    let mut report =
        |what: &str| found.push(format!("{at}: a logical junctor must not set `{what}`"));
    if branch.type_.is_some() && !int_or_string_pair {
        report("type");
    }
    if branch.description.is_some() {
        report("description");
    }
    if branch.title.is_some() {
        report("title");
    }
    if branch.default.is_some() {
        report("default");
    }
    if branch.additional_properties.is_some() {
        report("additionalProperties");
    }
    if branch.nullable {
        report("nullable");
    }
    if branch.x_preserve_unknown_fields
        || branch.x_embedded_resource
        || branch.x_int_or_string
        || branch.x_list_type.is_some()
        || branch.x_list_map_keys.is_some()
        || branch.x_map_type.is_some()
        || !branch.x_validations.is_empty()
    {
        report("x-kubernetes-*");
    }
    for (name, prop) in &branch.properties {
        if name == "metadata" {
            found.push(format!(
                "{at}: `metadata` must not be specified in a logical junctor"
            ));
        }
        match outer.properties.get(name) {
            None => found.push(format!(
                "{at}: property `{name}` is specified in a logical junctor but not outside it"
            )),
            Some(o) => junctor(o, prop, &format!("{at}.{name}"), found),
        }
    }
    if let Some(items) = &branch.items {
        match &outer.items {
            None => found.push(format!(
                "{at}: `items` in a logical junctor but not outside it"
            )),
            Some(o) => junctor(o, items, &format!("{at}[*]"), found),
        }
    }
    for (i, nested) in branch.junctors().enumerate() {
        junctor(outer, nested, &format!("{at}(junctor {i})"), found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(props: &[(&str, Schema)]) -> Schema {
        let mut s = Schema::typed("object");
        for (k, v) in props {
            s.properties.insert(k.to_string(), v.clone());
        }
        s
    }

    #[test]
    fn typed_schemas_pass() {
        let int_or_string = Schema {
            x_int_or_string: true,
            any_of: vec![Schema::typed("integer"), Schema::typed("string")],
            ..Schema::default()
        };
        let s = object(&[("a", Schema::typed("string")), ("port", int_or_string)]);
        assert_eq!(violations(&s), Vec::<String>::new());
    }

    #[test]
    fn untyped_fields_and_bad_junctors_are_found() {
        let mut s = object(&[("free", Schema::default()), ("x", Schema::typed("string"))]);
        s.one_of.push(Schema {
            required: vec!["x".into()],
            type_: Some("object".into()),
            ..Schema::default()
        });
        s.any_of.push(object(&[("ghost", Schema::default())]));
        let v = violations(&s);
        assert!(
            v.iter().any(|e| e.starts_with(".free: has no `type`")),
            "{v:?}"
        );
        assert!(v.iter().any(|e| e.contains("must not set `type`")), "{v:?}");
        assert!(
            v.iter()
                .any(|e| e.contains("property `ghost` is specified in a logical junctor")),
            "{v:?}"
        );
    }

    #[test]
    fn junctors_hold_no_title_rules_or_metadata() {
        let mut s = object(&[("metadata", Schema::typed("object"))]);
        s.all_of.push(Schema {
            title: Some("t".into()),
            x_validations: vec![crate::model::Rule::new("true", "m")],
            ..object(&[("metadata", Schema::default())])
        });
        s.all_of[0].type_ = None;
        let v = violations(&s);
        assert!(
            v.iter().any(|e| e.ends_with("must not set `title`")),
            "{v:?}"
        );
        assert!(
            v.iter()
                .any(|e| e.ends_with("must not set `x-kubernetes-*`")),
            "{v:?}"
        );
        assert!(
            v.iter()
                .any(|e| e.contains("`metadata` must not be specified")),
            "{v:?}"
        );
    }

    #[test]
    fn properties_beside_additional_properties_are_refused() {
        let mut s = object(&[("a", Schema::typed("string"))]);
        s.additional_properties = Some(Box::new(Schema::typed("string")));
        assert_eq!(
            violations(&s),
            [".: `properties` and `additionalProperties` cannot be combined"]
        );
    }
}
