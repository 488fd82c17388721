//! Schema keys as an overlay: the keywords a field's (or type's) markers set, each checked
//! against the schema it is laid on, as controller-gen checks its markers.

use crate::check::bounds::contradictions;
use crate::check::lists::{self, ListProblem};
use crate::check::value::fits_type;
use crate::model::Schema;
use crate::model::info::{MapKey, Wants};
use crate::model::{Error, Rule, SchemaMarkers};

use super::Site;

const TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

/// The keywords `m` (and the doc comment) set, checked against `base`, the schema they apply
/// to. The overlay leaves out what does not fit; the problems come back beside it.
pub(super) fn overlay(
    m: &SchemaMarkers,
    doc: Option<&str>,
    base: &Schema,
    site: &Site,
) -> (Schema, Vec<Error>) {
    let mut o = Schema {
        description: m.description.clone().or_else(|| doc.map(str::to_string)),
        title: m.title.clone(),
        example: m.example.clone(),
        default: m.default.clone(),
        external_docs: m.external_docs.clone(),
        nullable: m.nullable,
        x_preserve_unknown_fields: m.preserve_unknown_fields,
        x_embedded_resource: m.embedded_resource,
        x_map_type: m.map_type.or(m.struct_type),
        format: m.format.clone(),
        x_int_or_string: m.int_or_string,
        min_length: m.min_length,
        max_length: m.max_length,
        pattern: m.pattern.clone(),
        min_items: m.min_items,
        max_items: m.max_items,
        x_list_type: m.list_type,
        x_list_map_keys: m.list_map_keys.clone(),
        min_properties: m.min_properties,
        max_properties: m.max_properties,
        enum_: m.enum_values.clone(),
        x_validations: m.x_validations.clone(),
        all_of: m.all_of.clone(),
        any_of: m.any_of.clone(),
        one_of: m.one_of.clone(),
        not: m.not.clone(),
        ..Schema::default()
    };
    if m.immutable {
        o.x_validations
            .push(Rule::new("self == oldSelf", "field is immutable"));
    }
    let mut c = Checker::new(base, site);
    // Keys that change the node's type run first; the others are checked against the result.
    if let Some(t) = &m.schema_type {
        if TYPES.contains(&t.as_str()) {
            o.type_ = Some(t.clone());
            c.ty = t.clone();
        } else {
            c.error(format!(
                "`schema_type = \"{t}\"` is not an OpenAPI type; use one of {}",
                TYPES.join(", ")
            ));
        }
    } else if m.schemaless {
        c.ty.clear();
    }
    c.int_or_string |= m.int_or_string;

    for (key, wants) in type_bound_keys(m) {
        c.wants(key, wants);
    }
    for (key, value) in [
        ("minimum", m.minimum),
        ("maximum", m.maximum),
        ("multiple_of", m.multiple_of),
    ] {
        if let Some(v) = value
            && c.ty == "integer"
            && v.fract() != 0.0
        {
            c.error(format!(
                "`{key} = {v}` must be a whole number on an integer"
            ));
        }
    }
    o.minimum = m.minimum;
    o.maximum = m.maximum;
    o.multiple_of = m.multiple_of;
    o.exclusive_minimum = m.exclusive_minimum;
    o.exclusive_maximum = m.exclusive_maximum;
    for problem in contradictions(&o) {
        c.error(problem);
    }
    if let Some(items) = &m.items {
        let base_items = base.items.as_deref().cloned().unwrap_or_default();
        let (items, errors) = overlay(items, None, &base_items, site);
        c.errors.extend(errors);
        o.items = Some(Box::new(items));
    }
    c.list_keys(m, o.items.as_deref());

    for v in m.enum_values.iter().flatten() {
        if !c.unknown() && !fits_type(v, &c.ty, c.int_or_string) {
            c.error(format!(
                "enum value {v} is not of this field's type ({})",
                c.ty
            ));
        }
    }
    let typed = Schema {
        type_: (!c.ty.is_empty()).then(|| c.ty.clone()),
        x_int_or_string: c.int_or_string,
        ..base.clone()
    };
    let branches = (m.all_of.iter().map(|b| ("all_of", b)))
        .chain(m.any_of.iter().map(|b| ("any_of", b)))
        .chain(m.one_of.iter().map(|b| ("one_of", b)))
        .chain(m.not.iter().map(|b| ("not", &**b)));
    for (key, branch) in branches {
        c.errors.extend(branch_problems(key, branch, &typed, site));
    }
    (o, c.errors)
}

/// What is wrong with a junctor's branch laid on `node`, as the API server judges a structural
/// schema: each property and the items it constrains exist outside the junctor (`metadata`
/// never), the names it requires are properties, and each keyword fits the node's type.
fn branch_problems(key: &str, branch: &Schema, node: &Schema, site: &Site) -> Vec<Error> {
    let mut c = Checker::new(node, site);
    let wants = [
        ("minimum", branch.minimum.is_some(), Wants::Numbers),
        ("maximum", branch.maximum.is_some(), Wants::Numbers),
        ("multiple_of", branch.multiple_of.is_some(), Wants::Numbers),
        ("min_length", branch.min_length.is_some(), Wants::Strings),
        ("max_length", branch.max_length.is_some(), Wants::Strings),
        ("pattern", branch.pattern.is_some(), Wants::Strings),
        ("min_items", branch.min_items.is_some(), Wants::Arrays),
        ("max_items", branch.max_items.is_some(), Wants::Arrays),
        ("items", branch.items.is_some(), Wants::Arrays),
        (
            "min_properties",
            branch.min_properties.is_some(),
            Wants::Objects,
        ),
        (
            "max_properties",
            branch.max_properties.is_some(),
            Wants::Objects,
        ),
        ("required", !branch.required.is_empty(), Wants::Objects),
        ("property", !branch.properties.is_empty(), Wants::Objects),
    ];
    for (k, set, w) in wants {
        if set {
            c.wants(&format!("{key}({k})"), w);
        }
    }
    for v in branch.enum_.iter().flatten() {
        if !c.unknown() && !fits_type(v, &c.ty, c.int_or_string) {
            c.error(format!(
                "`{key}(enum_values)`: {v} is not of this node's type ({})",
                c.ty
            ));
        }
    }
    // A node whose properties come from elsewhere (a map, an untyped node) is not checked.
    let known = c.ty == "object" && node.additional_properties.is_none();
    let names: Vec<&str> = node.properties.keys().map(String::as_str).collect();
    // Named in the branch, not a property of the node: the error, with a near name's help.
    let missing = |message: String, name: &str| {
        let e = site.error(message);
        match crate::names::nearest(name, &names) {
            Some(near) => e.with_help(
                format!("a property with a similar name exists: `{near}`"),
                None,
            ),
            None => e,
        }
    };
    for name in &branch.required {
        if known && !node.properties.contains_key(name) {
            let message = format!("`{key}(required)`: no property `{name}` here");
            c.errors.push(missing(message, name));
        }
    }
    for (name, inner) in &branch.properties {
        if name == "metadata" {
            c.error(format!(
                "`{key}(property(name = \"metadata\"))`: the API server refuses `metadata` in \
                 a logical junctor"
            ));
        }
        match node.properties.get(name) {
            Some(prop) => c.errors.extend(branch_problems(key, inner, prop, site)),
            None if known => {
                let message = format!(
                    "`{key}(property(name = \"{name}\"))`: no property `{name}` here (a junctor \
                     constrains properties specified outside it)"
                );
                c.errors.push(missing(message, name));
            }
            None => {}
        }
    }
    if let (Some(inner), Some(items)) = (&branch.items, &node.items) {
        c.errors.extend(branch_problems(key, inner, items, site));
    }
    for nested in branch.junctors() {
        c.errors.extend(branch_problems(key, nested, node, site));
    }
    c.errors
}

/// Checks keys against the type of the node they apply to.
struct Checker<'a> {
    base: &'a Schema,
    site: &'a Site,
    /// The node's type once `schema_type` is applied (`""` when untyped).
    ty: String,
    int_or_string: bool,
    errors: Vec<Error>,
}

impl<'a> Checker<'a> {
    fn new(base: &'a Schema, site: &'a Site) -> Self {
        Checker {
            base,
            site,
            ty: base.type_str().to_string(),
            int_or_string: base.x_int_or_string,
            errors: Vec::new(),
        }
    }

    fn error(&mut self, message: String) {
        self.errors.push(self.site.error(message));
    }

    /// An untyped node (e.g. `schemaless`) accepts any key.
    fn unknown(&self) -> bool {
        self.ty.is_empty() && !self.int_or_string
    }

    /// `key` applies to values of `wants`: an error when the node is of another type.
    fn wants(&mut self, key: &str, wants: Wants) {
        let ok = match wants {
            Wants::Numbers => matches!(self.ty.as_str(), "integer" | "number"),
            Wants::Strings => self.ty == "string" || self.int_or_string,
            Wants::Arrays => self.ty == "array",
            Wants::Objects => self.ty == "object",
        };
        if !ok && !self.unknown() {
            let got = if self.ty.is_empty() {
                "untyped".to_string()
            } else {
                self.ty.clone()
            };
            let wants = wants_text(wants);
            self.error(format!("`{key}` applies to {wants}, but this is {got}"));
        }
    }

    /// `list_type` and `list_map_keys`, judged with the list-type rules on the node they make
    /// (with the items' own keys, `items`, laid over the base's items).
    fn list_keys(&mut self, m: &SchemaMarkers, items: Option<&Schema>) {
        if m.list_type.is_none() && m.list_map_keys.is_none() {
            return;
        }
        let node = Schema {
            type_: (!self.ty.is_empty()).then(|| self.ty.clone()),
            x_list_type: m.list_type.or(self.base.x_list_type),
            x_list_map_keys: m
                .list_map_keys
                .clone()
                .or_else(|| self.base.x_list_map_keys.clone()),
            // What the rules read of the items: their own schema, and what `items(...)` adds.
            items: self.base.items.as_deref().map(|base| {
                Box::new(Schema {
                    nullable: base.nullable || items.is_some_and(|i| i.nullable),
                    ..base.clone()
                })
            }),
            ..self.base.clone()
        };
        for problem in lists::problems(&node) {
            self.error(problem.to_string());
        }
    }
}

/// What is wrong with list map key `key`, in the words of [`lists::problems`], for the derive's
/// compile-time checks.
pub fn map_key_problem(problem: MapKey, key: &str) -> String {
    ListProblem::of_map_key(problem, key).map_or_else(String::new, |p| p.to_string())
}

/// The keys `m` sets that apply only to some JSON types, with those types. The derive checks
/// the same list at compile time against [`Info`](crate::model::info::Info).
pub fn type_bound_keys(m: &SchemaMarkers) -> Vec<(&'static str, Wants)> {
    use Wants::*;
    [
        ("minimum", m.minimum.is_some(), Numbers),
        ("maximum", m.maximum.is_some(), Numbers),
        ("multiple_of", m.multiple_of.is_some(), Numbers),
        ("min_length", m.min_length.is_some(), Strings),
        ("max_length", m.max_length.is_some(), Strings),
        ("pattern", m.pattern.is_some(), Strings),
        ("min_items", m.min_items.is_some(), Arrays),
        ("max_items", m.max_items.is_some(), Arrays),
        ("list_type", m.list_type.is_some(), Arrays),
        ("items", m.items.is_some(), Arrays),
        ("min_properties", m.min_properties.is_some(), Objects),
        ("max_properties", m.max_properties.is_some(), Objects),
        ("map_type", m.map_type.is_some(), Objects),
        ("struct_type", m.struct_type.is_some(), Objects),
        ("embedded_resource", m.embedded_resource, Objects),
    ]
    .into_iter()
    .filter(|(_, set, _)| *set)
    .map(|(key, _, wants)| (key, wants))
    .collect()
}

/// How messages name the types a key wants.
pub fn wants_text(wants: Wants) -> &'static str {
    match wants {
        Wants::Numbers => "numbers",
        Wants::Strings => "strings",
        Wants::Arrays => "arrays",
        Wants::Objects => "objects",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(props: &[(&str, &str)]) -> Schema {
        let mut s = Schema::typed("object");
        for (name, t) in props {
            s.properties.insert(name.to_string(), Schema::typed(t));
        }
        s
    }

    fn problems(m: SchemaMarkers, base: &Schema) -> Vec<String> {
        let site = Site::new("T", None);
        let (_, errors) = overlay(&m, None, base, &site);
        errors.iter().map(|e| e.one_message()).collect()
    }

    #[test]
    fn a_branch_names_properties_of_its_node_and_fits_their_types() {
        let base = object(&[("size", "integer"), ("color", "string")]);
        let branch = |props: &[(&str, Schema)], required: &[&str]| Schema {
            properties: props
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            required: required.iter().map(|r| r.to_string()).collect(),
            ..Schema::default()
        };
        let good = SchemaMarkers {
            one_of: vec![branch(
                &[(
                    "size",
                    Schema {
                        minimum: Some(1.0),
                        ..Schema::default()
                    },
                )],
                &["color"],
            )],
            ..SchemaMarkers::default()
        };
        assert_eq!(problems(good, &base), Vec::<String>::new());
        let pattern = Schema {
            pattern: Some("^a".into()),
            ..Schema::default()
        };
        let bad = SchemaMarkers {
            any_of: vec![branch(
                &[("sise", Schema::default()), ("size", pattern)],
                &["colour"],
            )],
            not: Some(Box::new(branch(&[("metadata", Schema::default())], &[]))),
            ..SchemaMarkers::default()
        };
        let found = problems(bad, &base);
        let wanted = [
            "`any_of(required)`: no property `colour` here\n= help: a property with a similar name exists: `color`",
            "`any_of(property(name = \"sise\"))`: no property `sise` here (a junctor constrains properties specified outside it)\n= help: a property with a similar name exists: `size`",
            "`any_of(pattern)` applies to strings, but this is integer",
            "the API server refuses `metadata` in a logical junctor",
        ];
        for w in wanted {
            assert!(found.iter().any(|f| f.contains(w)), "{w}: {found:#?}");
        }
    }
}
