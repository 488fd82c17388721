//! serde's defaults against the schema's. The API server fills a missing field in only from the
//! schema's `default`; a Rust client fills it in from `#[serde(default ...)]`. Where the two
//! differ, clients disagree on the object. Two checks:
//!
//! - while the schema is built (`gen-cli` prints these as warnings): a
//!   `#[serde(default = "f")]` on a field, or on a struct for its fields, where the schema has
//!   no default. A plain `#[serde(default)]` is not warned about: `Default::default()` is the
//!   empty value for std and Kubernetes types, which is what a missing field means to every
//!   client, and a custom `impl Default` cannot be told from the sources; [`check`] finds it.
//! - [`check`] (at run time, with the type's serde code): what serde fills in against what the
//!   API server fills in, value by value.

use serde_json::Value;
use serde_json::value::Index;

use super::{Builder, Site, field_site};
use crate::check::defaults::{apply, server_defaults};
use crate::model::{Error, Errors, Field, Schema, SerdeDefault, Shape, TypeDef, Variant, Warning};

/// Warnings for the fields of an object (`owner`'s, or its `variant`'s) that serde fills in
/// from a function while `object`, their schema, has no default for them.
pub(crate) fn unfilled(
    owner: &TypeDef,
    variant: Option<&Variant>,
    fields: &[Field],
    object: &Schema,
) -> Vec<Warning> {
    let live = || fields.iter().filter(|f| !f.serde.skip && !f.serde.flatten);
    let undefaulted = |f: &Field| {
        let name = owner.json_name(variant, f);
        object
            .properties
            .get(&name)
            .is_some_and(|p| p.default.is_none())
            .then_some(name)
    };
    let mut out = Vec::new();
    for field in live() {
        if let Some(SerdeDefault::Function(f)) = &field.serde.default
            && undefaulted(field).is_some()
        {
            let warning = field_site(owner, variant, field).warning(format!(
                "`#[serde(default = \"{f}\")]` has no schema default: the API server will not \
                 fill this field in, while a Rust client reads `{f}()`"
            ));
            out.push(warning.with_help(
                format!(
                    "add `#[kube_marker(default = ...)]` (or `default_json`) with the value \
                     `{f}()` returns, and test that they agree with `kubegen::check_defaults`"
                ),
                None,
            ));
        }
    }
    if let (None, Some(SerdeDefault::Function(f))) = (variant, &owner.serde.default) {
        // A field's own `#[serde(default)]` wins over the container's.
        let names: Vec<String> = live()
            .filter(|field| field.serde.default.is_none())
            .filter_map(undefaulted)
            .map(|n| format!("`{n}`"))
            .collect();
        if !names.is_empty() {
            let site = Site::new(owner.name.clone(), owner.loc.as_ref());
            let warning = site.warning(format!(
                "`#[serde(default = \"{f}\")]` fills missing fields from `{f}()`, but the API \
                 server fills in only schema defaults, and the schema has none for {}",
                names.join(", ")
            ));
            out.push(warning.with_help(
                format!(
                    "give each such field the `#[kube_marker(default = ...)]` (or \
                     `default_json`) that `{f}()` gives it, and test that they agree with \
                     `kubegen::check_defaults`"
                ),
                None,
            ));
        }
    }
    out
}

/// Whether serde and the API server fill in the same values for what `input` leaves out, in
/// the schema of `shape` (a type called `name`). `read` is the type's serde round trip:
/// deserialize, then serialize. For each property missing from `input` (and from the objects
/// `input` gives, at any depth), what `read` makes of `input` must equal what it makes of
/// `input` with the schema's defaults applied; and where the schema has no default, serde must
/// not fill in anything but an empty value (`0`, `""`, `false`, `[]`, `{}`, `null`).
pub fn check(
    shape: &Shape,
    name: &str,
    input: &Value,
    read: impl Fn(&Value) -> Result<Value, String>,
) -> Result<(), Errors> {
    let mut builder = Builder::new();
    let schema = builder.shape(shape, &Site::new(name, None));
    builder.finish()?;
    let mut stored = input.clone();
    apply(&schema, &mut stored);
    let error = |message: String| Errors::from(Error::new(None, name, message));
    let by_serde =
        read(input).map_err(|e| error(format!("serde cannot read the input {input}: {e}")))?;
    let by_server = read(&stored).map_err(|e| {
        error(format!(
            "serde cannot read {stored}, the input with the schema's defaults: {e}"
        ))
    })?;
    let mut errors = Errors::default();
    compare(&schema, input, &by_serde, &by_server, name, &mut errors);
    errors.into_result(())
}

/// Compares, below `path`, serde's reading of `input` with its reading of what the API server
/// stores for it.
fn compare(
    schema: &Schema,
    input: &Value,
    by_serde: &Value,
    by_server: &Value,
    path: &str,
    errors: &mut Errors,
) {
    let here = (input, by_serde, by_server);
    match input {
        Value::Object(given) => {
            for (name, prop) in &schema.properties {
                let at = format!("{path}.{name}");
                if !server_defaults(given, name, prop) {
                    descend(prop, here, name.as_str(), &at, errors);
                    continue;
                }
                let (serde, server) = (by_serde.get(name), by_server.get(name));
                let problem = match (&prop.default, serde) {
                    (Some(default), _) if serde != server => {
                        let schema = if server == Some(default) {
                            format!("the schema's default is {default}")
                        } else {
                            format!("the schema's default {default} reads as {}", shown(server))
                        };
                        format!("{schema}, serde's is {}", shown(serde))
                    }
                    (None, Some(v)) if !is_empty(v) => format!(
                        "serde fills in {v}, but the schema has no default, so the API server \
                         leaves it out: add `#[kube_marker(default = ...)]` (or `default_json`) \
                         with that value"
                    ),
                    _ => continue,
                };
                errors.push(Error::new(None, at, problem));
            }
            if let Some(values) = &schema.additional_properties {
                for key in given.keys() {
                    if !schema.properties.contains_key(key) {
                        let at = format!("{path}.{key}");
                        descend(values, here, key.as_str(), &at, errors);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = &schema.items {
                for i in 0..items.len() {
                    let at = format!("{path}[{i}]");
                    descend(item, here, i, &at, errors);
                }
            }
        }
        _ => {}
    }
}

/// [`compare`] at `key` of the three values, where each has it.
fn descend<I: Index + Copy>(
    schema: &Schema,
    (input, by_serde, by_server): (&Value, &Value, &Value),
    key: I,
    path: &str,
    errors: &mut Errors,
) {
    if let (Some(v), Some(a), Some(b)) = (input.get(key), by_serde.get(key), by_server.get(key)) {
        compare(schema, v, a, b, path, errors);
    }
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "to leave it out".to_string(), Value::to_string)
}

/// The value a missing field means to a client that does not default it.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_empty),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        BoxedMarkers, ContainerAttrs, Data, FieldAttrs, Scalar, SchemaMarkers, Style,
    };
    use serde_json::json;

    /// A struct `S` with integer fields: (name, kubegen default, serde default).
    fn def(
        container: Option<SerdeDefault>,
        fields: &[(&str, Option<i32>, Option<SerdeDefault>)],
    ) -> TypeDef {
        TypeDef {
            key: "t::S".into(),
            name: "S".into(),
            doc: None,
            markers: BoxedMarkers::default(),
            serde: ContainerAttrs {
                default: container,
                ..ContainerAttrs::default()
            },
            data: Data::Struct {
                style: Style::Named,
                fields: fields
                    .iter()
                    .map(|(name, default, serde)| Field {
                        ident: Some(name.to_string()),
                        ty: "i32".into(),
                        doc: None,
                        markers: SchemaMarkers {
                            default: default.map(Value::from),
                            ..SchemaMarkers::default()
                        }
                        .into(),
                        serde: FieldAttrs {
                            default: serde.clone(),
                            ..FieldAttrs::default()
                        },
                        loc: None,
                        shape: Shape::Scalar(Scalar::Int {
                            wide: false,
                            unsigned: false,
                        }),
                    })
                    .collect(),
            },
            loc: None,
        }
    }

    fn warnings(def: &TypeDef) -> Vec<String> {
        let mut b = Builder::new();
        b.type_def(def);
        let w = b.finish().unwrap();
        w.iter().map(ToString::to_string).collect()
    }

    fn function(f: &str) -> Option<SerdeDefault> {
        Some(SerdeDefault::Function(f.into()))
    }

    #[test]
    fn a_function_default_without_a_schema_default_is_warned_about() {
        let w = warnings(&def(
            None,
            &[
                ("a", None, function("four")),
                ("b", Some(4), function("four")),
                ("c", None, Some(SerdeDefault::Trait)),
                ("d", None, None),
            ],
        ));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("S.a: `#[serde(default = \"four\")]` has no schema default"),
            "{w:?}"
        );
        assert!(w[0].contains("`four()`"), "{w:?}");
    }

    #[test]
    fn a_container_function_default_names_the_fields_the_schema_leaves_empty() {
        let w = warnings(&def(
            function("Self::fallback"),
            &[
                ("a", None, None),
                ("b", Some(1), None),
                ("c", None, Some(SerdeDefault::Trait)),
                ("d", None, None),
            ],
        ));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("S: `#[serde(default = \"Self::fallback\")]`"));
        assert!(w[0].ends_with("the schema has none for `a`, `d`"), "{w:?}");
        let covered = def(function("f"), &[("a", Some(1), None)]);
        assert!(warnings(&covered).is_empty());
        assert!(warnings(&def(Some(SerdeDefault::Trait), &[("a", None, None)])).is_empty());
    }

    /// `S { n: i32 (schema default 3), extra: i32 }` read by a stand-in for serde whose
    /// default for `n` is `serde_n` and for `extra` is `extra`.
    fn run(input: Value, serde_n: i64, extra: i64) -> Result<(), Errors> {
        let shape = Shape::named("t::S", || {
            Ok(def(None, &[("n", Some(3), None), ("extra", None, None)]))
        });
        let read = |v: &Value| {
            let n = v.get("n").cloned().unwrap_or(json!(serde_n));
            let x = v.get("extra").cloned().unwrap_or(json!(extra));
            Ok(json!({"n": n, "extra": x}))
        };
        check(&shape, "S", &input, read)
    }

    #[test]
    fn the_runtime_check_compares_serde_with_the_server() {
        assert_eq!(run(json!({}), 3, 0), Ok(()));
        let e = run(json!({}), 4, 0).unwrap_err().to_string();
        assert_eq!(e, "S.n: the schema's default is 3, serde's is 4");
        assert_eq!(run(json!({"n": 7}), 4, 0), Ok(()), "n is given");
        let e = run(json!({}), 3, 2).unwrap_err().to_string();
        assert!(
            e.starts_with("S.extra: serde fills in 2, but the schema has no default"),
            "{e}"
        );
    }
}
