//! Enums in a structural form, one function per serde tagging.
//!
//! A structural schema has one type per node, so every variant's properties go into one object;
//! what tells the variants apart becomes `oneOf`/`anyOf` of `required` where that is enough
//! (external tagging, untagged objects), or CEL rules keyed on the tag (internal and adjacent
//! tagging).

use serde_json::Value;

use crate::model::Schema;
use crate::model::{Rule, Style, Tagging, TypeDef, Variant};
use crate::names::cel_field;

use super::{Builder, Site};

/// One variant's JSON form, before the variants are combined.
struct Part {
    name: String,
    schema: Schema,
}

impl Builder {
    /// The schema of an enum, by its serde tagging.
    pub(super) fn enum_body(&mut self, def: &TypeDef, variants: &[Variant], site: &Site) -> Schema {
        let live: Vec<&Variant> = variants.iter().filter(|v| !v.serde.skip).collect();
        if let Some(v) = live.iter().find(|v| v.serde.untagged) {
            self.report(site.error(format!(
                "variant `{}` is `#[serde(untagged)]` inside a tagged enum: a CRD schema cannot \
                 describe that mix; make the whole enum untagged",
                v.ident
            )));
            return Schema::default();
        }
        match def.tagging() {
            Tagging::Untagged => self.untagged(def, &live, site),
            Tagging::Adjacent { tag, content } => self.adjacent(def, &live, tag, content, site),
            Tagging::Internal { tag } => self.internal(def, &live, tag, site),
            Tagging::External => self.external(def, &live, site),
        }
    }

    /// The value a variant carries: a newtype's inner value (nullable when it is an `Option`), or
    /// an object of its fields.
    fn variant_value(&mut self, def: &TypeDef, v: &Variant, site: &Site) -> Option<Schema> {
        match v.style {
            Style::Unit => None,
            Style::Named => Some(self.object(def, Some(v), &v.fields)),
            Style::Tuple if v.fields.len() == 1 => {
                // `fields[0]`: the guard checked there is exactly one.
                let inner = &v.fields[0];
                let mut value = self.field(def, Some(v), inner).0;
                // `V(None)` is written `null`, which the apiserver would drop from the object.
                value.nullable |= inner.shape.peel_optional().1;
                Some(value)
            }
            Style::Tuple => {
                self.report(site.error(format!(
                    "variant `{}` is a tuple: it serializes as a JSON array of mixed types, which \
                     a CRD schema cannot describe; give it named fields",
                    v.ident
                )));
                Some(Schema::default())
            }
        }
    }

    /// `{"Variant": value}`, or `"Variant"` for unit variants.
    fn external(&mut self, def: &TypeDef, variants: &[&Variant], site: &Site) -> Schema {
        let units: Vec<&&Variant> = variants.iter().filter(|v| v.style == Style::Unit).collect();
        if units.len() == variants.len() {
            return Schema {
                enum_: Some(
                    variants
                        .iter()
                        .map(|v| Value::String(def.variant_name(v)))
                        .collect(),
                ),
                ..Schema::typed("string")
            };
        }
        if let Some(unit) = units.first() {
            self.report(site.error(format!(
                "unit variant `{}` serializes as a string while the other variants serialize as \
                 objects, and a CRD schema needs one type; write it `{} {{}}` (an empty struct \
                 variant) or tag the enum with `#[serde(tag = \"...\")]`",
                unit.ident, unit.ident
            )));
            return Schema::default();
        }
        let mut object = Schema::typed("object");
        for v in variants {
            let name = def.variant_name(v);
            let mut value = self.variant_value(def, v, site).unwrap_or_default();
            // The variant's doc describes the variant; its value's type's doc is about the
            // type (as a field's doc wins over its type's).
            if v.doc.is_some() {
                value.description = v.doc.clone();
            }
            object.properties.insert(name.clone(), value);
            object.one_of.push(Schema {
                required: vec![name],
                ..Schema::default()
            });
        }
        if object.one_of.len() == 1 {
            object.required = object.one_of.remove(0).required;
        }
        object
    }

    /// `{"tag": "Variant", ...fields}`.
    fn internal(&mut self, def: &TypeDef, variants: &[&Variant], tag: &str, site: &Site) -> Schema {
        let mut parts = Vec::new();
        for v in variants {
            let value = match self.variant_value(def, v, site) {
                None => Schema::typed("object"),
                Some(s) if matches!(s.type_str(), "object" | "") => s,
                Some(_) => {
                    self.report(site.error(format!(
                        "variant `{}` of an internally tagged enum must hold a struct or a map",
                        v.ident
                    )));
                    continue;
                }
            };
            if value.properties.contains_key(tag) {
                self.report(site.error(format!(
                    "variant `{}` has a field named `{tag}`, the enum's tag",
                    v.ident
                )));
            }
            parts.push(Part {
                name: def.variant_name(v),
                schema: value,
            });
        }
        let mut object = self.union_of_objects(&parts, site);
        object
            .properties
            .insert(tag.to_string(), tag_schema(&parts));
        object
            .x_validations
            .extend(required_by_tag(&parts, tag, None));
        object.required = vec![tag.to_string()];
        object
    }

    /// `{"tag": "Variant", "content": value}`.
    fn adjacent(
        &mut self,
        def: &TypeDef,
        variants: &[&Variant],
        tag: &str,
        content: &str,
        site: &Site,
    ) -> Schema {
        let mut parts = Vec::new();
        for v in variants {
            if let Some(value) = self.variant_value(def, v, site) {
                parts.push(Part {
                    name: def.variant_name(v),
                    schema: value,
                });
            }
        }
        let mut object = Schema::typed("object");
        let names: Vec<String> = variants.iter().map(|v| def.variant_name(v)).collect();
        object.properties.insert(
            tag.to_string(),
            Schema {
                enum_: Some(names.iter().cloned().map(Value::String).collect()),
                ..Schema::typed("string")
            },
        );
        if !parts.is_empty() {
            let value = self.union(&parts, site);
            let t = cel_field(tag);
            let c = cel_field(content);
            for part in &parts {
                object.x_validations.push(Rule::new(
                    format!("self.{t} != '{}' || has(self.{c})", part.name),
                    format!("{content} is required when {tag} is {}", part.name),
                ));
            }
            object
                .x_validations
                .extend(required_by_tag(&parts, tag, Some(content)));
            object.properties.insert(content.to_string(), value);
        }
        object.required = vec![tag.to_string()];
        object
    }

    /// Whichever variant matches first; variants must agree on one JSON type.
    fn untagged(&mut self, def: &TypeDef, variants: &[&Variant], site: &Site) -> Schema {
        let mut parts = Vec::new();
        for v in variants {
            match self.variant_value(def, v, site) {
                Some(schema) => parts.push(Part {
                    name: def.variant_name(v),
                    schema,
                }),
                None => self.report(site.error(format!(
                    "unit variant `{}` of an untagged enum serializes as `null`, which a CRD \
                     schema cannot describe",
                    v.ident
                ))),
            }
        }
        let mut schema = self.union(&parts, site);
        if schema.type_str() == "object" {
            let required: Vec<&Part> = parts
                .iter()
                .filter(|p| !p.schema.required.is_empty())
                .collect();
            if required.len() == parts.len() && parts.len() > 1 {
                schema.any_of = parts
                    .iter()
                    .map(|p| Schema {
                        required: p.schema.required.clone(),
                        ..Schema::default()
                    })
                    .collect();
            }
            schema.required.clear();
        }
        schema
    }

    /// One schema accepting every part: objects merge their properties, an integer and a string
    /// make an int-or-string, equal scalars stay as they are; `null` if any part takes it.
    fn union(&mut self, parts: &[Part], site: &Site) -> Schema {
        let nullable = parts.iter().any(|p| p.schema.nullable);
        let parts: Vec<Part> = parts
            .iter()
            .map(|p| Part {
                name: p.name.clone(),
                schema: Schema {
                    nullable: false,
                    ..p.schema.clone()
                },
            })
            .collect();
        let mut schema = self.union_of_values(&parts, site);
        schema.nullable |= nullable;
        schema
    }

    /// `union` of parts that are not nullable.
    fn union_of_values(&mut self, parts: &[Part], site: &Site) -> Schema {
        // Untyped parts (schemaless values, types not visible yet) accept anything.
        let types: Vec<&str> = parts
            .iter()
            .map(|p| p.schema.type_str())
            .filter(|t| !t.is_empty())
            .collect();
        if types.iter().all(|t| *t == "object") {
            return self.union_of_objects(parts, site);
        }
        let mut distinct = types.clone();
        distinct.sort();
        distinct.dedup();
        match distinct.as_slice() {
            ["integer", "string"] => Schema {
                x_int_or_string: true,
                any_of: vec![Schema::typed("integer"), Schema::typed("string")],
                ..Schema::default()
            },
            [only] => {
                let typed: Vec<&Schema> = parts
                    .iter()
                    .map(|p| &p.schema)
                    .filter(|s| s.type_str() == *only)
                    .collect();
                let alike = typed
                    .iter()
                    .zip(typed.iter().skip(1))
                    .all(|(a, b)| same_but_docs(a, b));
                if let Some(first) = typed.first()
                    && alike
                {
                    Schema {
                        description: None,
                        ..(*first).clone()
                    }
                } else {
                    self.report(site.error(format!(
                        "the variants all serialize as {only}s but with different constraints; a CRD \
                         schema has one schema per node"
                    )));
                    Schema::default()
                }
            }
            _ => {
                self.report(site.error(format!(
                    "the variants serialize to different JSON types ({}), and a CRD schema needs \
                     one; mark the type with `schema_type` and `preserve_unknown_fields`, or \
                     restructure it",
                    types.join(", ")
                )));
                Schema::default()
            }
        }
    }

    /// One object with every part's properties; a property shared by two parts must have the
    /// same schema in both (descriptions aside). A map part's entries are kept unvalidated.
    fn union_of_objects(&mut self, parts: &[Part], site: &Site) -> Schema {
        let mut object = Schema::typed("object");
        let mut owner: std::collections::BTreeMap<String, &str> = Default::default();
        for part in parts {
            for (name, prop) in &part.schema.properties {
                match object.properties.get_mut(name) {
                    None => {
                        object.properties.insert(name.clone(), prop.clone());
                        owner.insert(name.clone(), &part.name);
                    }
                    Some(existing) if same_but_docs(existing, prop) => {
                        if existing.description != prop.description {
                            existing.description = None;
                        }
                    }
                    // `owner[name]`: every name in `object.properties` got its owner when it
                    // was inserted (the arm above).
                    Some(_) => self.report(site.error(format!(
                        "field `{name}` has different schemas in variants `{}` and `{}`; a CRD \
                         schema has one schema per field name",
                        owner[name], part.name
                    ))),
                }
            }
            // A map's keys cannot be listed beside properties: they are kept, not validated.
            object.x_preserve_unknown_fields |= part.schema.x_preserve_unknown_fields
                || part.schema.additional_properties.is_some();
        }
        object
    }
}

fn same_but_docs(a: &Schema, b: &Schema) -> bool {
    let strip = |s: &Schema| Schema {
        description: None,
        ..s.clone()
    };
    strip(a) == strip(b)
}

/// The tag property: a string naming the variant.
fn tag_schema(parts: &[Part]) -> Schema {
    Schema {
        enum_: Some(
            parts
                .iter()
                .map(|p| Value::String(p.name.clone()))
                .collect(),
        ),
        ..Schema::typed("string")
    }
}

/// For each variant with required fields: a CEL rule requiring them when the tag names it.
fn required_by_tag(parts: &[Part], tag: &str, content: Option<&str>) -> Vec<Rule> {
    let t = cel_field(tag);
    let prefix = content
        .map(|c| format!("self.{}", cel_field(c)))
        .unwrap_or_else(|| "self".into());
    parts
        .iter()
        .filter(|p| p.schema.type_str() == "object" && !p.schema.required.is_empty())
        .map(|p| {
            // The content's fields are read only when the content is there (a rule that reads
            // an absent field fails: "no such key").
            let content_there = content.map(|_| format!("has({prefix})"));
            let has: Vec<String> = content_there
                .into_iter()
                .chain(
                    p.schema
                        .required
                        .iter()
                        .map(|f| format!("has({prefix}.{})", cel_field(f))),
                )
                .collect();
            let where_ = content.map(|c| format!("{c}.")).unwrap_or_default();
            let names: Vec<String> = p
                .schema
                .required
                .iter()
                .map(|f| format!("{where_}{f}"))
                .collect();
            Rule::new(
                format!("self.{t} != '{}' || ({})", p.name, has.join(" && ")),
                format!("{} required when {tag} is {}", names.join(", "), p.name),
            )
        })
        .collect()
}
