//! `#[kube_marker(...)]`: every attribute of an item parsed once, merged, and checked against
//! where it stands (spec struct, type, or field). `raw` is the attribute's grammar; `schema`
//! and `resource` turn it into the model's schema and resource keys, with their checks.

mod raw;
mod resource;
mod schema;

use std::collections::BTreeMap;

use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use darling::{Error, FromMeta, Result};
use proc_macro2::Span;
use quote::ToTokens;
use syn::{Attribute, Meta};

use super::registry::{self, Key};
use super::values::meta_list;
use crate::model::{Loc, ResourceMarkers, SchemaMarkers};
use raw::Raw;

pub use super::registry::Place;

/// The attribute's name.
pub const ATTRIBUTE: &str = "kube_marker";

/// Every key `#[kube_marker]` takes: the [resource](registry::RESOURCE) and
/// [schema](registry::SCHEMA) keys of the registry. Any other key is an "Unknown field" error,
/// checked before the grammar reads the attribute, so this is the accepted set.
pub fn keys() -> impl Iterator<Item = &'static str> {
    registry::kube_marker_keys().map(|k| k.name)
}

/// The registry's entry of a key of [`keys`].
fn registered(name: &str) -> Option<&'static Key> {
    registry::kube_marker_keys().find(|k| k.name == name)
}

/// What the markers of one item say.
#[derive(Debug, Default)]
pub struct Markers {
    /// The schema keys.
    pub schema: SchemaMarkers,
    /// The resource keys (spec structs only).
    pub resource: ResourceMarkers,
    /// `crate = "..."`: the path the derive's code names kubegen by, when not `::kubegen`.
    pub crate_path: Option<syn::Path>,
}

/// Parses every `#[kube_marker(...)]` in `attrs` for an item at `place`, reporting all problems
/// together. `item` spans the item, for errors about missing keys.
pub fn parse<T: ToTokens>(attrs: &[Attribute], place: Place, item: &T) -> Result<Markers> {
    let (markers, errors) = parse_all(attrs, place, item, &|_| None);
    errors.finish_with(markers)
}

/// Like [`parse`], but keeps what parsed beside the problems, so later checks can still run on
/// the rest (a key given twice keeps its first value; an unknown key drops the attribute's keys).
pub fn parse_all<T: ToTokens>(
    attrs: &[Attribute],
    place: Place,
    item: &T,
    loc: &dyn Fn(Span) -> Option<Loc>,
) -> (Markers, darling::error::Accumulator) {
    let mut errors = Error::accumulator();
    let (metas, parsed) = collect(attrs, place, &mut errors);
    // A kube-derive `#[kube(...)]` left on the item is its one error (`foreign::leftover`),
    // which names the keys it holds: none is reported missing.
    let parsed = parsed
        && !attrs
            .iter()
            .any(|a| super::foreign::Foreign::of(a) == Some(super::foreign::Foreign::Kube));
    // Each key alone first: a bad one is reported once and left out, so the others still
    // count (an unknown key beside `group` must not make `group` look missing).
    let good: Vec<NestedMeta> = metas
        .into_iter()
        .filter(|m| {
            if let NestedMeta::Meta(meta) = m {
                let key = meta.path().to_token_stream().to_string();
                if !keys().any(|k| k == key) {
                    let alts: Vec<&str> = keys().collect();
                    let path = meta.path();
                    errors.push(Error::unknown_field_path_with_alts(path, &alts).with_span(path));
                    return false;
                }
            }
            errors
                .handle(Raw::from_list(std::slice::from_ref(m)))
                .is_some()
        })
        .collect();
    let raw = errors.handle(Raw::from_list(&good)).unwrap_or_default();
    let mut markers = Markers {
        schema: errors
            .handle(schema::schema_markers(&raw, loc))
            .unwrap_or_default(),
        crate_path: raw
            .crate_path
            .as_ref()
            .and_then(|p| errors.handle(crate_path(p))),
        ..Markers::default()
    };
    // An attribute that did not parse may hold any key: none is reported missing.
    if place == Place::Spec && parsed {
        markers.resource = errors
            .handle(resource::resource_markers(&raw, item, loc))
            .unwrap_or_default();
        // On the spec struct, `optional` is about the root's `spec` property (a resource key).
        markers.schema.optional = false;
    }
    (markers, errors)
}

/// The value of a `crate = "..."` key (`#[kube_marker]`'s, `#[webhook]`'s): a path of plain
/// segments (`my_sdk::kubegen`), spanned at the string, so that what does not resolve is
/// reported there.
pub fn crate_path(value: &SpannedValue<String>) -> Result<syn::Path> {
    let not_a_path = || {
        Error::custom(format!(
            "`crate = \"{}\"` is not a path: give the path that names kubegen, such as \
             `crate = \"my_sdk::kubegen\"` where `my_sdk` has `pub use kubegen;`",
            value.as_str()
        ))
        .with_span(&value.span())
    };
    let path: syn::Path = syn::LitStr::new(value, value.span())
        .parse()
        .map_err(|_| not_a_path())?;
    if path.segments.iter().any(|s| !s.arguments.is_none()) {
        return Err(not_a_path());
    }
    Ok(path)
}

/// The nested metas of all the item's `#[kube_marker]`s, with keys checked against the place
/// and repeated keys merged (the same value twice is fine, two values are an error); `false`
/// when an attribute's arguments did not parse.
fn collect(
    attrs: &[Attribute],
    place: Place,
    errors: &mut darling::error::Accumulator,
) -> (Vec<NestedMeta>, bool) {
    let mut seen: BTreeMap<String, NestedMeta> = BTreeMap::new();
    let mut out = Vec::new();
    let mut parsed = true;
    for attr in attrs.iter().filter(|a| a.path().is_ident(ATTRIBUTE)) {
        let list = match &attr.meta {
            Meta::List(list) => list,
            other => {
                errors.push(
                    Error::custom("expected `#[kube_marker(key = value, ...)]`").with_span(other),
                );
                continue;
            }
        };
        let Some(metas) = errors.handle(meta_list(list.tokens.clone())) else {
            parsed = false;
            continue;
        };
        for meta in metas {
            let NestedMeta::Meta(m) = &meta else {
                errors.push(Error::custom("expected `key = value`").with_span(&meta));
                continue;
            };
            let key = m.path().to_token_stream().to_string();
            if let Some(problem) = misplaced(&key, place) {
                errors.push(Error::custom(problem).with_span(m.path()));
                continue;
            }
            if key == "items" {
                check_items(m, errors);
            }
            if JUNCTORS.contains(&key.as_str()) && !check_branch(m, &key, errors) {
                continue;
            }
            if registered(&key).is_some_and(|k| k.repeatable) {
                out.push(meta);
                continue;
            }
            match seen.get(&key) {
                Some(earlier) if same(earlier, &meta) => {}
                Some(_) => errors.push(
                    Error::custom(format!(
                        "`{key}` is given twice with different values; give it once"
                    ))
                    .with_span(&meta),
                ),
                None => {
                    seen.insert(key, meta.clone());
                    out.push(meta);
                }
            }
        }
    }
    (out, parsed)
}

/// Keys inside `items(...)` describe the items' schema: resource, field and type keys do not
/// go there (nested `items(...)` are checked the same way).
fn check_items(meta: &Meta, errors: &mut darling::error::Accumulator) {
    let Meta::List(list) = meta else { return };
    let Ok(inner) = NestedMeta::parse_meta_list(list.tokens.clone()) else {
        return; // the grammar reports it
    };
    for nested in &inner {
        let NestedMeta::Meta(m) = nested else {
            continue;
        };
        let key = m.path().to_token_stream().to_string();
        if registered(&key).is_some_and(|k| !k.goes.inside_items()) {
            errors.push(
                Error::custom(format!(
                    "`{key}` does not go inside `items(...)`, which takes the items' schema keys \
                     (`min_length`, `pattern`, `maximum`, ...)"
                ))
                .with_span(m.path()),
            );
        } else if key == "items" {
            check_items(m, errors);
        }
    }
}

/// The keys of logical junctors: each takes a branch, value validations only.
const JUNCTORS: &[&str] = &["all_of", "any_of", "one_of", "not"];

/// The keys a branch takes besides the junctors (and `name`, in `property(...)`).
const BRANCH_KEYS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "multiple_of",
    "min_length",
    "max_length",
    "pattern",
    "format",
    "enum_values",
    "min_items",
    "max_items",
    "min_properties",
    "max_properties",
    "required",
    "property",
    "items",
];

/// A branch of `all_of`, `any_of`, `one_of`, `not` (or a `property(...)` or `items(...)` in
/// one) holds value validations only: a schema key that sets anything else (`description`,
/// `default`, a type, `nullable`, `x-kubernetes-*`) is an error here, as the API server refuses
/// it in a structural schema. False when there is one (keys of no attribute are left to the
/// grammar, which suggests a near one).
fn check_branch(meta: &Meta, junctor: &str, errors: &mut darling::error::Accumulator) -> bool {
    let Meta::List(list) = meta else {
        return true; // the grammar reports it
    };
    let Ok(inner) = NestedMeta::parse_meta_list(list.tokens.clone()) else {
        return true;
    };
    let mut ok = true;
    for nested in &inner {
        let NestedMeta::Meta(m) = nested else {
            continue;
        };
        let key = m.path().to_token_stream().to_string();
        if key == "name" && junctor == "property" {
            continue;
        }
        if JUNCTORS.contains(&key.as_str()) || ["property", "items"].contains(&key.as_str()) {
            ok &= check_branch(m, &key, errors);
        } else if !BRANCH_KEYS.contains(&key.as_str())
            && (registered(&key).is_some() || key == "name")
        {
            ok = false;
            errors.push(
                Error::custom(format!(
                    "`{key}` does not go inside `{junctor}(...)`: a logical junctor holds value \
                     validations only (`required`, `enum_values`, `pattern`, `format`, `minimum`, \
                     ...), with `property(name = \"...\", ...)` and `items(...)` for what they \
                     constrain; the API server refuses anything else there"
                ))
                .with_span(m.path()),
            );
        }
    }
    ok
}

fn same(a: &NestedMeta, b: &NestedMeta) -> bool {
    a.to_token_stream().to_string() == b.to_token_stream().to_string()
}

/// The places a key of [`keys`] may stand (none for another key).
pub fn places(name: &str) -> Vec<Place> {
    registered(name)
        .map_or(&[][..], |k| k.goes.places())
        .to_vec()
}

/// Why `name` cannot stand at `place`, if it is a key that cannot.
fn misplaced(name: &str, place: Place) -> Option<String> {
    registered(name)?.goes.misplaced(name, place)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Deprecation, Scope};
    use serde_json::json;

    fn attrs(src: &str) -> Vec<Attribute> {
        let item: syn::ItemStruct = syn::parse_str(&format!("{src} struct S;")).unwrap();
        item.attrs
    }

    fn parse_at(src: &str, place: Place) -> Result<Markers> {
        parse(&attrs(src), place, &quote::quote!(S))
    }

    #[test]
    fn repeated_attributes_merge() {
        let m = parse_at(
            "#[kube_marker(minimum = 1)] #[kube_marker(maximum = 5, minimum = 1)]",
            Place::Field,
        )
        .unwrap();
        assert_eq!(m.schema.minimum, Some(1.0));
        assert_eq!(m.schema.maximum, Some(5.0));
    }

    #[test]
    fn conflicting_values_are_an_error() {
        let e = parse_at(
            "#[kube_marker(minimum = 1)] #[kube_marker(minimum = 2)]",
            Place::Field,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("given twice with different values"),
            "{e}"
        );
    }

    #[test]
    fn unknown_keys_get_a_suggestion() {
        let e = parse_at("#[kube_marker(min_lenght = 1)]", Place::Field).unwrap_err();
        assert!(e.to_string().contains("min_length"), "{e}");
    }

    #[test]
    fn accept_change_names_upgrade_safety_rules() {
        let m = parse_at(
            "#[kube_marker(accept_change = \"maximum;default\")]",
            Place::Field,
        )
        .unwrap();
        assert_eq!(m.schema.accept_change, ["maximum", "default"]);
        let e = parse_at("#[kube_marker(accept_change = \"maximun\")]", Place::Field).unwrap_err();
        assert!(
            e.to_string()
                .contains("no upgrade-safety rule is named `maximun`. Did you mean `maximum`?"),
            "{e}"
        );
        assert_eq!(places("accept_change"), [Place::Spec, Place::Field]);
    }

    #[test]
    fn keys_is_the_accepted_set() {
        for key in keys() {
            let places = places(key);
            assert!(!places.is_empty(), "{key}");
            for place in places {
                // A bare key may lack its value, but the grammar knows it.
                if let Err(e) = parse_at(&format!("#[kube_marker({key})]"), place) {
                    assert!(!e.to_string().contains("Unknown field"), "{key}: {e}");
                }
            }
        }
        for unknown in ["not_a_key", "min_lenght", "type"] {
            let e = parse_at(&format!("#[kube_marker({unknown} = 1)]"), Place::Field).unwrap_err();
            assert!(e.to_string().contains("Unknown field"), "{unknown}: {e}");
        }
        for key in registry::RESOURCE.names() {
            assert_eq!(places(key), [Place::Spec], "{key}");
        }
        for key in registry::SCHEMA.names() {
            assert!(places(key).iter().any(|&p| p != Place::Spec), "{key}");
        }
        assert_eq!(places("optional"), [Place::Spec, Place::Field]);
        assert_eq!(places("required"), [Place::Field]);
        assert_eq!(places("at_most_one_of"), [Place::Spec, Place::Type]);
        assert_eq!(places("minimum"), [Place::Spec, Place::Type, Place::Field]);
    }

    #[test]
    fn keys_must_stand_in_their_place() {
        let e = parse_at("#[kube_marker(group = \"a.b\")]", Place::Field).unwrap_err();
        assert!(e.to_string().contains("spec struct"), "{e}");
        let e = parse_at("#[kube_marker(optional)]", Place::Type).unwrap_err();
        assert!(
            e.to_string()
                .contains("goes on a field, or on the spec struct"),
            "{e}"
        );
    }

    #[test]
    fn optional_on_the_spec_struct_is_about_the_roots_spec() {
        let spec =
            r#"#[kube_marker(group = "a.example.com", version = "v1", kind = "A", optional)]"#;
        let m = parse_at(spec, Place::Spec).unwrap();
        assert!(m.resource.spec_optional);
        assert!(
            !m.schema.optional,
            "the spec type's own keys do not keep it"
        );
        let m = parse_at(&spec.replace(", optional", ""), Place::Spec).unwrap();
        assert!(!m.resource.spec_optional);
    }

    #[test]
    fn junctor_branches_hold_value_validations_only() {
        let m = parse_at(
            r#"#[kube_marker(one_of(required = ["a"]), one_of(property(name = "b", not(enum_values = ["x"]))))]"#,
            Place::Type,
        )
        .unwrap();
        assert_eq!(m.schema.one_of.len(), 2);
        assert_eq!(m.schema.one_of[0].required, ["a"]);
        let b = &m.schema.one_of[1].properties["b"];
        assert_eq!(b.not.as_ref().unwrap().enum_, Some(vec!["x".into()]));
        for (src, wanted) in [
            (
                "one_of(description = \"d\")",
                "`description` does not go inside `one_of(...)`",
            ),
            (
                "any_of(property(name = \"a\", default = 1))",
                "`default` does not go inside `property(...)`",
            ),
            (
                "not(property(minimum = 1))",
                "`property(...)` needs the property's `name",
            ),
            (
                "all_of(name = \"a\")",
                "`name` does not go inside `all_of(...)`",
            ),
            ("one_of(requird = [\"a\"])", "Did you mean `required`?"),
        ] {
            let e = parse_at(&format!("#[kube_marker({src})]"), Place::Field).unwrap_err();
            assert!(e.to_string().contains(wanted), "{src}: {e}");
        }
    }

    #[test]
    fn resource_keys_parse_and_validate() {
        let m = parse_at(
            r#"#[kube_marker(group = "cache.example.com", version = "v1alpha1", kind = "Memcached",
                short_names = "mc", categories = ["all"], status = "MemcachedStatus",
                printcolumn(name = "Size", type = "integer", json_path = ".spec.size"),
                printcolumn(name = "Age", type_ = "date", json_path = ".metadata.creationTimestamp"),
                scale(spec_path = ".spec.size", status_path = ".status.replicas"),
                deprecated, annotations = "a=b;c=d", namespaced)]"#,
            Place::Spec,
        )
        .unwrap();
        let r = m.resource;
        assert_eq!(r.kind, "Memcached");
        assert_eq!(r.short_names, Some(vec!["mc".to_string()]));
        assert_eq!(r.printcolumns.len(), 2);
        assert_eq!(r.printcolumns[1].type_.as_deref(), Some("date"));
        assert_eq!(r.deprecated, Some(Deprecation { warning: None }));
        assert_eq!(
            r.annotations.unwrap()[1],
            ("c".to_string(), "d".to_string())
        );
        assert_eq!(r.scope, Some(Scope::Namespaced));
        let e = parse_at(
            r#"#[kube_marker(group = "Bad_Group", version = "1", kind = "x")]"#,
            Place::Spec,
        )
        .unwrap_err();
        assert_eq!(e.len(), 3, "{e}");
        let e = parse_at(r#"#[kube_marker(group = "a.b")]"#, Place::Spec).unwrap_err();
        assert!(e.to_string().contains("missing `version`"), "{e}");
    }

    #[test]
    fn conversion_webhook_parses_with_defaults_and_checks() {
        let gvk = r#"group = "a.io", version = "v1", kind = "A""#;
        let m = parse_at(
            &format!("#[kube_marker({gvk}, conversion(webhook()))]"),
            Place::Spec,
        )
        .unwrap();
        let c = m.resource.conversion.unwrap();
        assert_eq!(
            (c.path, c.url, c.review_versions),
            (None, None, vec!["v1".to_string()])
        );
        let m = parse_at(
            &format!(
                r#"#[kube_marker({gvk}, conversion(webhook(path = "/c", service_name = "s",
                    service_namespace = "n", service_port = 8443, review_versions = ["v1"])))]"#
            ),
            Place::Spec,
        )
        .unwrap();
        let c = m.resource.conversion.unwrap();
        assert_eq!(c.path.as_deref(), Some("/c"));
        assert_eq!(c.service_port, Some(8443));
        let e = parse_at(
            &format!(
                r#"#[kube_marker({gvk}, conversion(webhook(path = "c", url = "http://x", service_port = 0)))]"#
            ),
            Place::Spec,
        )
        .unwrap_err()
        .to_string();
        for wanted in [
            "cannot both be given",
            "must start with `/`",
            "`https://` URL",
            "not a port",
        ] {
            assert!(e.contains(wanted), "{wanted}: {e}");
        }
        let e = parse_at(r#"#[kube_marker(conversion(webhook()))]"#, Place::Field).unwrap_err();
        assert!(e.to_string().contains("spec struct"), "{e}");
    }

    #[test]
    fn schema_values() {
        let m = parse_at(
            r#"#[kube_marker(default = ["a", "b"], pattern = r"^\d+$", enum_values = [1, "x"],
                list_type = "map", list_map_keys = "name;port",
                x_validation(rule = "self.a > 0", message = "a must be positive", reason = "FieldValueForbidden"),
                items(max_length = 3))]"#,
            Place::Field,
        )
        .unwrap()
        .schema;
        assert_eq!(m.default, Some(json!(["a", "b"])));
        assert_eq!(m.pattern.as_deref(), Some(r"^\d+$"));
        assert_eq!(m.enum_values, Some(vec![json!(1), json!("x")]));
        assert_eq!(m.list_map_keys, Some(vec!["name".into(), "port".into()]));
        assert_eq!(
            m.x_validations[0].reason.as_deref(),
            Some("FieldValueForbidden")
        );
        assert_eq!(m.items.unwrap().max_length, Some(3));
    }

    #[cfg(feature = "cel")]
    #[test]
    fn bad_cel_is_an_error() {
        let e = parse_at(
            "#[kube_marker(x_validation(rule = \"self.a >\"))]",
            Place::Field,
        )
        .unwrap_err();
        assert!(e.to_string().contains("invalid CEL rule"), "{e}");
    }

    #[test]
    fn bad_values_are_errors() {
        for (src, expect) in [
            ("#[kube_marker(unique_items)]", "list_type = \"set\""),
            (
                "#[kube_marker(pattern = \"a(\")]",
                "invalid regular expression",
            ),
            ("#[kube_marker(list_type = \"sett\")]", "Did you mean `set`"),
            ("#[kube_marker(max_length = \"4\")]", "without quotes"),
            ("#[kube_marker(default_json = \"{\")]", "not valid JSON"),
        ] {
            let e = parse_at(src, Place::Field).unwrap_err();
            assert!(e.to_string().contains(expect), "{src}: {e}");
        }
    }
}
