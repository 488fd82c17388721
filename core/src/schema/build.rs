//! The builder: walks shapes, loads named types lazily, and reports recursion.

use std::collections::HashMap;

use crate::check::field_path;
use crate::known::Kubernetes;
use crate::model::{
    Data, Error, Errors, Field, Scalar, SchemaMarkers, Shape, Style, TypeDef, Variant, Warning,
};
use crate::model::{ListType, Schema, StructForm};

use super::markers::overlay;
use super::merge::merge;
use super::{Site, field_site};

/// Builds schemas, memoizing named types and collecting every error on the way.
#[derive(Default)]
pub struct Builder {
    /// Leaves [`Shape::Opaque`] untyped instead of reporting it (the derive's compile-time
    /// view, where some types are not visible yet).
    lenient: bool,
    /// The Kubernetes version k8s-openapi types are built for.
    kubernetes: Kubernetes,
    /// Named types being built, innermost last: seeing one again means recursion.
    stack: Vec<String>,
    /// Finished named types.
    cache: HashMap<String, Schema>,
    /// Problems found so far.
    errors: Errors,
    /// Warnings found so far.
    warnings: Vec<Warning>,
}

impl Builder {
    /// A new builder, for the Kubernetes version k8s-openapi is compiled for.
    pub fn new() -> Self {
        Builder::default()
    }

    /// A new builder for the Kubernetes version `kubernetes`.
    pub fn for_kubernetes(kubernetes: Kubernetes) -> Self {
        Builder {
            kubernetes,
            ..Builder::default()
        }
    }

    /// A builder for a partial view: opaque shapes become untyped nodes, silently.
    pub fn lenient() -> Self {
        Builder {
            lenient: true,
            ..Builder::default()
        }
    }

    /// Records a problem.
    pub(super) fn report(&mut self, error: Error) {
        self.errors.push(error);
    }

    /// Records warnings.
    pub(super) fn warn(&mut self, warnings: impl IntoIterator<Item = Warning>) {
        self.warnings.extend(warnings);
    }

    /// Drops the finished schema of the named type `key` from the cache (a type nothing will
    /// ask for again).
    pub(super) fn forget(&mut self, key: &str) {
        self.cache.remove(key);
    }

    /// The warnings, or every problem found.
    pub fn finish(self) -> Result<Vec<Warning>, Errors> {
        self.errors.into_result(self.warnings)
    }

    /// The schema of a value of this shape (without field-level markers).
    pub fn shape(&mut self, shape: &Shape, site: &Site) -> Schema {
        match shape {
            Shape::Scalar(s) => scalar(*s),
            Shape::Optional(inner) => self.shape(inner, site),
            Shape::Seq { item, set, len } => {
                let list = Schema {
                    items: Some(Box::new(self.entry(item, site))),
                    x_list_type: set.then_some(ListType::Set),
                    min_items: *len,
                    max_items: *len,
                    ..Schema::typed("array")
                };
                for problem in crate::check::lists::problems(&list) {
                    self.report(site.error(format!("a set type: {problem}")));
                }
                list
            }
            Shape::Map(value) => Schema {
                additional_properties: Some(Box::new(self.entry(value, site))),
                ..Schema::typed("object")
            },
            Shape::Any => Schema {
                x_preserve_unknown_fields: true,
                ..Schema::default()
            },
            Shape::Known(known) => self.kubernetes.schema(known),
            Shape::Named(named) => {
                if let Some(done) = self.cache.get(&named.key) {
                    return done.clone();
                }
                if self.stack.contains(&named.key) {
                    let name = named.key.rsplit("::").next().unwrap_or(&named.key);
                    self.report(site.error(recursion(name)));
                    return Schema::default();
                }
                match (named.load)() {
                    Ok(def) => {
                        self.stack.push(named.key.clone());
                        let schema = self.type_def(&def);
                        self.stack.pop();
                        self.cache.insert(named.key.clone(), schema.clone());
                        schema
                    }
                    Err(errors) => {
                        for e in errors.0 {
                            self.report(e);
                        }
                        Schema::default()
                    }
                }
            }
            Shape::Opaque(_) if self.lenient => Schema::default(),
            Shape::Opaque(name) => {
                self.report(site.error(format!(
                    "cannot tell the schema of `{name}`: derive `KubeSchema` on it, or mark \
                     the field with `schema_type = \"...\"` or `schemaless`"
                )));
                Schema::default()
            }
        }
    }

    /// A list item's or map value's schema: serde writes `None` there as `null` (not left out,
    /// as for a field), so an `Option` entry is `nullable`.
    fn entry(&mut self, shape: &Shape, site: &Site) -> Schema {
        let mut schema = self.shape(shape, site);
        schema.nullable |= matches!(shape, Shape::Optional(_));
        schema
    }

    /// The schema of a type: its JSON form, then its type-level markers and doc.
    pub fn type_def(&mut self, def: &TypeDef) -> Schema {
        let site = Site::new(def.name.clone(), def.loc.as_ref());
        let body = if def.markers.stops_walk() {
            Schema::default()
        } else {
            match &def.data {
                Data::Struct { style, fields } => self.struct_body(def, *style, fields, &site),
                Data::Enum(variants) => self.enum_body(def, variants, &site),
            }
        };
        let mut body = body;
        // Rules the fields put on their parent come before the type's own rules.
        let field_rules = std::mem::take(&mut body.x_validations);
        let mut schema = self.lay(&def.markers, def.doc.as_deref(), body, &site);
        schema.x_validations.splice(0..0, field_rules);
        self.object_rules(def, &mut schema, &site);
        self.check_examples(&def.markers, &schema, &site);
        schema
    }

    /// Lays markers (and a doc comment) over a schema.
    fn lay(&mut self, m: &SchemaMarkers, doc: Option<&str>, base: Schema, site: &Site) -> Schema {
        let (over, mut errors) = overlay(m, doc, &base, site);
        let schema = merge(base, over, site, &mut errors);
        for e in errors {
            self.report(e);
        }
        self.check_field_paths(m, &schema, site);
        schema
    }

    /// Each rule's `field_path` must lead from the node the rule is on (`schema`, or its items
    /// for rules in `items(...)`) to one of its fields; reported at the value.
    fn check_field_paths(&mut self, m: &SchemaMarkers, schema: &Schema, site: &Site) {
        for rule in &m.x_validations {
            let Some(path) = &rule.field_path else {
                continue;
            };
            if let Some(problem) = field_path::problem(path, schema, self.lenient) {
                let loc = rule.field_path_loc.as_ref().or(site.loc.as_ref());
                let message = format!("field_path `{path}`: {problem}");
                self.report(Error::new(loc, site.context.clone(), message));
            }
        }
        if let (Some(items_markers), Some(items)) = (&m.items, &schema.items) {
            let site = Site::new(format!("{}[*]", site.context), site.loc.as_ref());
            self.check_field_paths(items_markers, items, &site);
        }
    }

    /// `default` and `example` must validate against the schema they are set on.
    fn check_examples(&mut self, m: &SchemaMarkers, schema: &Schema, site: &Site) {
        for (key, value, loc) in [
            ("default", &m.default, &m.default_loc),
            ("example", &m.example, &m.example_loc),
        ] {
            if let Some(value) = value {
                let mut plain = schema.clone();
                plain.default = None;
                if let Some(problem) = crate::check::value::validate(&plain, value) {
                    let at = loc.as_ref().or(site.loc.as_ref());
                    let message = format!("`{key}` does not fit the schema: {problem}");
                    self.report(Error::new(at, site.context.clone(), message));
                }
            }
        }
    }

    fn struct_body(
        &mut self,
        def: &TypeDef,
        style: Style,
        fields: &[Field],
        site: &Site,
    ) -> Schema {
        match def.struct_form(style, fields) {
            StructForm::Transparent { single } => match fields.iter().find(|f| !f.serde.skip) {
                Some(inner) if single => self.field(def, None, inner).0,
                _ => {
                    self.report(site.error("a transparent struct needs exactly one field"));
                    Schema::default()
                }
            },
            StructForm::Object => self.object(def, None, fields),
            StructForm::Tuple => {
                self.report(site.error(
                    "a tuple struct serializes as a JSON array of mixed types, which a CRD \
                     schema cannot describe: use named fields, or mark the type with \
                     `schema_type` or `schemaless`",
                ));
                Schema::default()
            }
            StructForm::Null => {
                self.report(site.error(
                    "a unit struct serializes as `null`, which a CRD schema cannot describe",
                ));
                Schema::default()
            }
        }
    }

    /// A field's schema (its shape's schema with the field's markers laid over it), and whether
    /// the field is required in its parent.
    pub(super) fn field(
        &mut self,
        owner: &TypeDef,
        variant: Option<&Variant>,
        field: &Field,
    ) -> (Schema, bool) {
        let site = field_site(owner, variant, field);
        let base = if field.markers.stops_walk() {
            Schema::default()
        } else {
            self.shape(&field.shape, &site)
        };
        let schema = self.lay(&field.markers, field.doc.as_deref(), base, &site);
        let m = &field.markers;
        self.check_examples(m, &schema, &site);
        if m.optional && m.required {
            self.report(site.error("`optional` and `required` contradict each other"));
        }
        (schema, owner.required(field))
    }
}

/// The message for a field that leads back to its own type.
pub fn recursion(name: &str) -> String {
    format!(
        "recursive type `{name}`: a CRD schema cannot refer to itself; mark this field \
         `#[kube_marker(schema_type = \"object\", preserve_unknown_fields)]` (or `schemaless`) to \
         stop the schema here"
    )
}

/// The schema docs/markers.md gives each scalar.
fn scalar(s: Scalar) -> Schema {
    match s {
        Scalar::Bool => Schema::typed("boolean"),
        Scalar::Int { wide, unsigned } => Schema {
            minimum: unsigned.then_some(0.0),
            ..Schema::formatted("integer", if wide { "int64" } else { "int32" })
        },
        Scalar::Float { double } => {
            Schema::formatted("number", if double { "double" } else { "float" })
        }
        Scalar::String => Schema::typed("string"),
        Scalar::DateTime => Schema::formatted("string", "date-time"),
    }
}
