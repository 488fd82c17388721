use super::*;

/// The attribute `src`.
fn attr(src: &str) -> Attribute {
    let item: syn::ItemStruct = syn::parse_str(&format!("{src} struct S;")).unwrap();
    item.attrs.into_iter().next().unwrap()
}

/// Where a row's example stands: the spec struct for `#[kube]`, a `String` field otherwise.
fn site<'a>(row: &Row, ty: &'a syn::Type) -> Site<'a> {
    let attrs = [attr(row.example.0)];
    match row.attribute {
        Foreign::Kube => Site::new(Place::Spec, None, &attrs),
        _ => Site::new(Place::Field, Some(ty), &attrs),
    }
}

/// What `kubegen migrate` writes for `src`: the attribute itself when it stays, then the
/// translation's attributes, one per line.
fn written(src: &str, site: &Site) -> (String, Translation) {
    let a = attr(src);
    let t = translate(&a, site);
    let mut lines = Vec::new();
    if Foreign::of(&a).is_some_and(Foreign::stays) {
        lines.push(src.to_string());
    }
    lines.extend(t.attributes());
    (lines.join("\n"), t)
}

#[test]
fn every_rows_example_becomes_what_the_row_shows() {
    let ty: syn::Type = syn::parse_quote!(String);
    for row in ROWS {
        let (input, expected) = row.example;
        assert!(
            input.starts_with(&format!("#[{}(", row.attribute.name())) && input.contains(row.key),
            "{}: its example does not use it: {input}",
            row.key
        );
        let (out, t) = written(input, &site(row, &ty));
        assert_eq!(out, expected, "{} {}", row.attribute.name(), row.key);
        let manual = matches!(row.how, How::Manual) || expected == input;
        assert_eq!(
            !t.untranslated.is_empty(),
            manual,
            "{}: {:?}",
            row.key,
            t.untranslated
        );
    }
}

#[test]
fn keys_have_one_row_each() {
    for (i, row) in ROWS.iter().enumerate() {
        assert!(
            !ROWS[..i]
                .iter()
                .any(|r| r.attribute == row.attribute && r.key == row.key),
            "{} {} twice",
            row.attribute.name(),
            row.key
        );
    }
}

#[test]
fn lengths_of_lists_are_item_counts() {
    let site = |ty: &syn::Type| {
        translate(
            &attr("#[schemars(length(max = 3))]"),
            &Site {
                place: Place::Field,
                ty: Some(ty),
                namespaced: false,
            },
        )
    };
    let list: syn::Type = syn::parse_quote!(Option<Vec<String>>);
    assert_eq!(site(&list).markers, ["max_items = 3"]);
    let text: syn::Type = syn::parse_quote!(Option<String>);
    assert_eq!(site(&text).markers, ["max_length = 3"]);
}

#[test]
fn kube_attributes_of_one_item_share_the_scope() {
    let attrs = [
        attr(r#"#[kube(group = "a.io", version = "v1", kind = "A")]"#),
        attr("#[kube(namespaced)]"),
    ];
    let site = Site::new(Place::Spec, None, &attrs);
    assert!(site.namespaced);
    assert_eq!(
        translate(&attrs[0], &site).attributes(),
        [r#"#[kube_marker(group = "a.io", version = "v1", kind = "A")]"#]
    );
}

#[test]
fn printcolumns_in_json_become_nested_keys() {
    let t = translate(
        &attr(
            r##"#[kube(printcolumn = r#"{"name":"Team","jsonPath":".spec.team","type":"string","priority":1}"#)]"##,
        ),
        &Site::new(Place::Spec, None, &[]),
    );
    assert_eq!(
        t.markers,
        [r#"printcolumn(name = "Team", type = "string", json_path = ".spec.team", priority = 1)"#]
    );
}

#[test]
fn a_leftover_is_one_error_naming_the_replacement() {
    let a = attr(r#"#[kube(group = "a.io", version = "v1", kind = "A", namespaced)]"#);
    let e = leftover(&a, &Site::new(Place::Spec, None, std::slice::from_ref(&a))).unwrap();
    assert_eq!(
        e.to_string(),
        "`#[kube(...)]` is an attribute of kube-derive, which kubegen's derives do not read: write \
         `#[kube_marker(group = \"a.io\", version = \"v1\", kind = \"A\")]` (`kubegen migrate` \
         rewrites a package's kube-derive attributes)"
    );
    let a = attr(r#"#[schemars(schema_with = "f", length(max = 2))]"#);
    let e = leftover(&a, &Site::new(Place::Field, None, &[])).unwrap();
    assert!(
        e.to_string().contains(
            "write `#[kube_marker(max_length = 2)]`; `schema_with = \"f\"` has no equivalent: \
             write the function's schema as markers"
        ),
        "{e}"
    );
    let a = attr(r#"#[kube(root = "DocRoot", cel)]"#);
    let e = leftover(&a, &Site::new(Place::Spec, None, std::slice::from_ref(&a))).unwrap();
    assert!(
        e.to_string().contains(
            "kubegen names the root type after the kind: write `type DocRoot = <kind>;` to keep \
             the name `DocRoot`; turn on kubegen's `validate` feature"
        ),
        "{e}"
    );
    assert!(
        leftover(
            &attr("#[garde(length(max = 2))]"),
            &Site::new(Place::Field, None, &[])
        )
        .is_none()
    );
    assert!(
        leftover(
            &attr("#[serde(default)]"),
            &Site::new(Place::Field, None, &[])
        )
        .is_none()
    );
}

#[test]
fn runtime_values_are_left_to_the_user() {
    let t = translate(
        &attr("#[schemars(length(max = MAX))]"),
        &Site::new(Place::Field, None, &[]),
    );
    assert!(t.markers.is_empty());
    assert!(t.untranslated[0].todo.contains("run time"), "{t:?}");
    let t = translate(
        &attr("#[kube(validation = rule())]"),
        &Site::new(Place::Spec, None, &[]),
    );
    assert!(t.untranslated[0].todo.contains("run time"), "{t:?}");
}

#[test]
fn root_rules_move_to_the_spec_or_are_left() {
    let spec = Site::new(Place::Spec, None, &[]);
    let t = translate(
        &attr(
            r#"#[kube(validation = Rule::new("self.spec.a == oldSelf.spec.a").field_path(".spec.a"))]"#,
        ),
        &spec,
    );
    assert_eq!(
        t.markers,
        [r#"x_validation(rule = "self.a == oldSelf.a", field_path = ".a")"#]
    );
    let t = translate(
        &attr(r#"#[kube(validation = "self.metadata.name == 'x'")]"#),
        &spec,
    );
    assert!(t.markers.is_empty());
    assert!(t.untranslated[0].todo.contains("beyond `spec`"), "{t:?}");
    let t = translate(&attr(r#"#[x_kube(validation = "self.a > 0")]"#), &spec);
    assert_eq!(t.markers, [r#"x_validation(rule = "self.a > 0")"#]);
}

#[test]
fn rules_of_kube_rs_examples_translate() {
    let field = Site::new(Place::Field, None, &[]);
    let t = translate(
        &attr(
            r#"#[x_kube(validation = Rule::new("self != 'illegal'").message(Message::Expression("'no'".into())).reason(Reason::FieldValueForbidden), validation = ("self != 'x'", "not x"))]"#,
        ),
        &field,
    );
    assert_eq!(
        t.markers,
        [
            r#"x_validation(rule = "self != 'illegal'", message_expression = "'no'", reason = "FieldValueForbidden")"#,
            r#"x_validation(rule = "self != 'x'", message = "not x")"#,
        ]
    );
}
