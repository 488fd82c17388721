//! Structs (and struct-like variants) as JSON objects: properties, `required`, `flatten`, and
//! the rules that need the object's properties (`immutable` on optional fields, one-of groups).

use crate::model::Schema;
use crate::model::{Field, Rule, Shape, TypeDef, Variant};
use crate::names::cel_field;

use super::defaults;
use super::{Builder, Site, field_site};

impl Builder {
    /// The object a struct (or a struct variant's fields) serializes to.
    pub(super) fn object(
        &mut self,
        owner: &TypeDef,
        variant: Option<&Variant>,
        fields: &[Field],
    ) -> Schema {
        let mut object = Schema::typed("object");
        for field in fields.iter().filter(|f| !f.serde.skip) {
            if field.serde.flatten {
                self.flatten_into(&mut object, owner, variant, field);
                continue;
            }
            let name = owner.json_name(variant, field);
            let (schema, required) = self.field(owner, variant, field);
            if field.markers.immutable && !required {
                let f = cel_field(&name);
                object.x_validations.push(Rule::new(
                    format!("!has(oldSelf.{f}) || has(self.{f})"),
                    format!("field {name} is immutable once set"),
                ));
            }
            let site = field_site(owner, variant, field);
            self.add_property(&mut object, name, schema, required, &site);
        }
        if object.x_preserve_unknown_fields {
            // A flattened map's entries are written beside the rest and may carry another
            // variant's key: one variant's can be told, not that it is the only one.
            object.all_of = object.all_of.into_iter().map(inclusive).collect();
        }
        object.required.sort();
        self.warn(defaults::unfilled(owner, variant, fields, &object));
        object
    }

    fn add_property(
        &mut self,
        object: &mut Schema,
        name: String,
        schema: Schema,
        required: bool,
        site: &Site,
    ) {
        if object.properties.contains_key(&name) {
            self.report(site.error(format!(
                "two fields serialize to the same JSON name `{name}`"
            )));
            return;
        }
        if required {
            object.required.push(name.clone());
        }
        object.properties.insert(name, schema);
    }

    /// `#[serde(flatten)]`: the field's object is inlined; a map keeps unknown keys.
    fn flatten_into(
        &mut self,
        object: &mut Schema,
        owner: &TypeDef,
        variant: Option<&Variant>,
        field: &Field,
    ) {
        let site = field_site(owner, variant, field);
        let (inner, optional) = field.shape.peel_optional();
        if matches!(inner, Shape::Map(_) | Shape::Any) {
            object.x_preserve_unknown_fields = true;
            return;
        }
        let flat = self.shape(inner, &site);
        if flat == Schema::default() {
            return; // not visible yet (the derive's compile-time view), or already reported
        }
        if flat.type_str() != "object"
            || flat.x_preserve_unknown_fields && flat.properties.is_empty()
        {
            self.report(site.error(
                "`#[serde(flatten)]` needs a struct, a map or an enum that serializes as an object",
            ));
            return;
        }
        let optional = optional || field.serde.default.is_some();
        let present = constraints(&flat);
        let rules = flat.x_validations;
        let keys: Vec<&String> = flat.properties.keys().collect();
        if optional {
            // serde writes none of an absent value's keys: its constraints hold when it is there.
            object.all_of.extend(when_present(present, &keys));
            object
                .x_validations
                .extend(rules.into_iter().map(|r| guard(r, &keys)));
        } else {
            object.all_of.extend(present);
            object.x_validations.extend(rules);
        }
        for (name, schema) in flat.properties {
            let required = !optional && flat.required.contains(&name);
            self.add_property(object, name, schema, required, &site);
        }
        object.x_preserve_unknown_fields |= flat.x_preserve_unknown_fields;
    }

    /// Type-level rules that name the object's properties: `at_most_one_of`,
    /// `exactly_one_of`, `at_least_one_of` (in that order, after the type's own rules).
    pub(super) fn object_rules(&mut self, def: &TypeDef, schema: &mut Schema, site: &Site) {
        let m = &def.markers;
        let groups = [
            ("at_most_one_of", &m.at_most_one_of),
            ("exactly_one_of", &m.exactly_one_of),
            ("at_least_one_of", &m.at_least_one_of),
        ];
        for (key, lists) in groups {
            for names in lists.iter() {
                if let Some(rule) = self.one_of_rule(key, names, schema, site) {
                    schema.x_validations.push(rule);
                }
            }
        }
    }

    fn one_of_rule(
        &mut self,
        key: &str,
        names: &[String],
        schema: &Schema,
        site: &Site,
    ) -> Option<Rule> {
        if schema.type_str() != "object" || schema.properties.is_empty() {
            self.report(site.error(format!("`{key}` applies to structs")));
            return None;
        }
        let mut ok = true;
        for name in names {
            if name.contains('.') {
                self.report(
                    site.error(format!("`{key}` cannot reference nested fields: `{name}`")),
                );
                ok = false;
            } else if !schema.properties.contains_key(name) {
                self.report(site.error(format!(
                    "`{key}` names `{name}`, which is not a field of this struct (JSON names: {})",
                    schema.properties.keys().cloned().collect::<Vec<_>>().join(", ")
                )));
                ok = false;
            } else if schema.required.contains(name) {
                self.report(site.error(format!(
                    "`{key}` member `{name}` is required, so the rule could never be met: \
                     make it an `Option`, or mark it `optional`"
                )));
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let list = names.join(" ");
        let has = |n: &String| format!("has(self.{})", cel_field(n));
        let count = || {
            names
                .iter()
                .map(|n| format!("({}?1:0)", has(n)))
                .collect::<Vec<_>>()
                .join("+")
        };
        Some(match key {
            "at_most_one_of" => Rule::new(
                format!("{} <= 1", count()),
                format!("at most one of the fields in [{list}] may be set"),
            ),
            "exactly_one_of" => Rule::new(
                format!("{} == 1", count()),
                format!("exactly one of the fields in [{list}] must be set"),
            ),
            _ => Rule::new(
                names.iter().map(has).collect::<Vec<_>>().join("||"),
                format!("at least one of the fields in [{list}] must be set"),
            ),
        })
    }
}

/// What an object schema asks of its properties beyond their own schemas, as `allOf` branches:
/// its `allOf`, and its `oneOf` and `anyOf` (an enum's variants told apart by `required`), each
/// kept as it is: `anyOf` allows several variants' fields at once (an untagged enum's variant
/// may hold another's required fields), `oneOf` does not.
fn constraints(flat: &Schema) -> Vec<Schema> {
    let mut all = flat.all_of.clone();
    if !flat.one_of.is_empty() {
        all.push(Schema {
            one_of: flat.one_of.clone(),
            ..Schema::default()
        });
    }
    if !flat.any_of.is_empty() {
        all.push(Schema {
            any_of: flat.any_of.clone(),
            ..Schema::default()
        });
    }
    all
}

/// `oneOf` relaxed to `anyOf`, here and in the branches that must match (not under `not`).
fn inclusive(s: Schema) -> Schema {
    let relax = |branches: Vec<Schema>| branches.into_iter().map(inclusive).collect::<Vec<_>>();
    let mut all_of = relax(s.all_of);
    let mut any_of = relax(s.any_of);
    let one_of = relax(s.one_of);
    if any_of.is_empty() {
        any_of = one_of;
    } else if !one_of.is_empty() {
        all_of.push(Schema {
            any_of: one_of,
            ..Schema::default()
        });
    }
    Schema {
        all_of,
        any_of,
        one_of: Vec::new(),
        ..s
    }
}

/// `constraints`, or none of `keys` there: `anyOf: [{allOf: constraints}, {not: {anyOf:
/// [{required: [key]}, ...]}}]` (a single constraint stands for its `allOf`).
fn when_present(mut constraints: Vec<Schema>, keys: &[&String]) -> Option<Schema> {
    let present = match constraints.len() {
        0 => return None,
        1 => constraints.remove(0),
        _ => Schema {
            all_of: constraints,
            ..Schema::default()
        },
    };
    let each_key = keys
        .iter()
        .map(|k| Schema {
            required: vec![k.to_string()],
            ..Schema::default()
        })
        .collect();
    let absent = Schema {
        not: Some(Box::new(Schema {
            any_of: each_key,
            ..Schema::default()
        })),
        ..Schema::default()
    };
    Some(Schema {
        any_of: vec![present, absent],
        ..Schema::default()
    })
}

/// `rule`, evaluated only when one of `keys` is set.
fn guard(rule: Rule, keys: &[&String]) -> Rule {
    if keys.is_empty() {
        return rule;
    }
    let set: Vec<String> = keys
        .iter()
        .map(|k| format!("has(self.{})", cel_field(k)))
        .collect();
    Rule {
        rule: format!("!({}) || ({})", set.join(" || "), rule.rule),
        ..rule
    }
}
