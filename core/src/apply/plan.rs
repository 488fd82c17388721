//! The apply configuration of one type, planned from its model at derive time: the type's
//! form (a struct of optional fields, an enum mirroring the type's variants, or the type
//! applied whole), each field's JSON name and configuration type, and the description
//! `extract` reads ([`crate::model::describe`]). The derive only turns this plan into tokens.

use proc_macro2::Span;
use quote::{ToTokens, quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

use crate::model::{Data, Field, ListType, Shape, Style, Topology, TypeDef, Variant};
use crate::parse::shape::{Syntactic, option_inner, shape_of};
use crate::parse::typedef::Parsed;

/// The apply configuration of a type.
pub struct Plan {
    /// Its name: the type's name and `Apply`.
    pub name: String,
    /// Its form.
    pub form: Form,
    /// What `extract` knows of it.
    pub node: NodePlan,
}

/// The form of an apply configuration.
pub enum Form {
    /// The type is applied whole (`kubegen::apply::Whole<T>`): a newtype, a tuple or unit
    /// struct, an enum of unit variants, an untagged enum, a type whose schema is not its
    /// fields' (`schema_type`, `schemaless`, `preserve_unknown_fields`, `into`).
    Whole,
    /// A struct with named fields, every one optional.
    Struct(Vec<FieldPlan>),
    /// An enum with the type's variants and tagging; fields of struct variants are optional.
    Enum {
        /// `#[serde(tag = "...")]`
        tag: Option<String>,
        /// `#[serde(content = "...")]`
        content: Option<String>,
        /// The variants serde writes.
        variants: Vec<VariantPlan>,
    },
}

/// A variant of an enum's apply configuration.
pub struct VariantPlan {
    /// The Rust name.
    pub ident: String,
    /// Its JSON name (the tag's value).
    pub json: String,
    /// How its fields are written.
    pub style: Style,
    /// Its fields.
    pub fields: Vec<FieldPlan>,
}

/// A field of an apply configuration.
pub struct FieldPlan {
    /// Its Rust name (`None` in tuple variants).
    pub ident: Option<String>,
    /// Its JSON name (empty when flattened).
    pub json: String,
    /// `#[serde(flatten)]`
    pub flatten: bool,
    /// An `Option`, left out when `None` (the fields of structs and struct variants).
    pub optional: bool,
    /// The value's type in the configuration (inside the `Option`): the `Apply` projection of
    /// the field's type (the compiler resolves aliases and containers), or `Whole` of it. It
    /// names the field's type as written, with its spans, as the derive's schema names it (an
    /// `Option<X>` through `X`): a type without a schema is then the schema's own error, which
    /// the compiler reports once.
    pub ty: Type,
    /// A list map's keys (JSON names), which its items must carry: checked when the
    /// configuration is serialized, before anything is sent.
    pub list_map: Option<Vec<String>>,
    /// What `extract` knows of the value.
    pub node: NodePlan,
    /// The schema gives the field a default.
    pub defaulted: bool,
    /// Its builder takes any value the configuration's type converts from. Not so for a list
    /// or a map of types kubegen does not know: when one of those has no schema, the compiler
    /// resolves the configuration's type only in part (`Vec<_>`), and a conversion into it
    /// would be one more error beside the schema's; their builders take the configuration.
    pub converts: bool,
}

/// A node of the description `extract` reads, as [`crate::model::describe::Node`] but with types.
/// The types are fields' types as written: the inside of a container is described by its
/// type's `apply_node` or `apply_item_node`, never by naming the item type alone.
#[derive(Clone)]
pub enum NodePlan {
    /// [`crate::model::describe::Node::Value`]
    Value,
    /// [`crate::model::describe::Node::Type`]: the described type (its `KubeSchema::apply_node`).
    Type(Box<Type>),
    /// [`crate::model::describe::Node::Type`] of the items of a list or the values of a map of
    /// this type, a container or an alias of one (its `KubeSchema::apply_item_node`).
    ItemsOf(Box<Type>),
    /// [`crate::model::describe::Node::Object`]: (JSON name, flatten, defaulted, node) per field.
    Object(Vec<(String, bool, bool, NodePlan)>),
    /// [`crate::model::describe::Node::OneOf`]
    OneOf(Vec<NodePlan>),
    /// [`crate::model::describe::Node::List`]
    List {
        /// `None` atomic, `Some(empty)` a set, `Some(keys)` a list map.
        keys: Option<Vec<String>>,
        /// The items.
        item: Box<NodePlan>,
    },
    /// [`crate::model::describe::Node::Map`]
    Map {
        /// `map_type = "atomic"`
        atomic: bool,
        /// The values.
        value: Box<NodePlan>,
    },
}

/// The plan of `parsed`'s apply configuration. `schema` is the path of the trait whose
/// `Apply` names a type's configuration (`::kubegen::KubeSchema`) and `whole` the wrapper of
/// values applied whole (`::kubegen::apply::Whole`). A field the configuration cannot write is
/// an error at its type.
pub fn plan(parsed: &Parsed, schema: &syn::Path, whole: &syn::Path) -> Result<Plan, syn::Error> {
    let def = &parsed.def;
    let name = format!("{}Apply", def.name);
    let cx = Cx { def, schema, whole };
    let types = &parsed.field_types;
    let mut next = 0;
    let mut fields_of = |variant: Option<&Variant>, fields: &[Field], optional: bool| {
        let plans = fields
            .iter()
            .zip(types.get(next..).unwrap_or_default())
            .filter(|(f, _)| !f.serde.skip)
            .map(|(f, ty)| cx.field(variant, f, ty, optional))
            .collect::<Result<Vec<_>, _>>();
        next += fields.len();
        plans
    };
    let c = &def.serde;
    if is_whole(def) {
        return Ok(Plan {
            name,
            form: Form::Whole,
            node: NodePlan::Value,
        });
    }
    let (form, node) = match &def.data {
        Data::Struct { fields, .. } => {
            let fields = fields_of(None, fields, true)?;
            let node = NodePlan::Object(fields.iter().map(FieldPlan::described).collect());
            (Form::Struct(fields), node)
        }
        Data::Enum(variants) => {
            let mut planned = Vec::new();
            for v in variants {
                // Newtype and tuple variants hold their content, not optional fields.
                let fields = fields_of(Some(v), &v.fields, v.style == Style::Named)?;
                if !v.serde.skip {
                    planned.push(VariantPlan {
                        ident: v.ident.clone(),
                        json: def.variant_name(v),
                        style: v.style,
                        fields,
                    });
                }
            }
            let node = enum_node(&planned, c.tag.as_deref(), c.content.as_deref());
            let form = Form::Enum {
                tag: c.tag.clone(),
                content: c.content.clone(),
                variants: planned,
            };
            (form, node)
        }
    };
    Ok(Plan { name, form, node })
}

/// Whether a type is applied whole rather than field by field (see [`Form::Whole`]).
fn is_whole(def: &TypeDef) -> bool {
    let c = &def.serde;
    def.markers.stops_walk()
        || c.transparent
        || c.untagged
        || match &def.data {
            Data::Struct { style, .. } => *style != Style::Named,
            Data::Enum(variants) => {
                let mut live = variants.iter().filter(|v| !v.serde.skip);
                live.clone().all(|v| v.style == Style::Unit) || live.any(|v| v.serde.untagged)
            }
        }
}

/// How an enum's variants appear in JSON: externally tagged, each under its name; internally
/// tagged, the tag beside the variant's fields; adjacently tagged, the tag beside the content.
fn enum_node(variants: &[VariantPlan], tag: Option<&str>, content: Option<&str>) -> NodePlan {
    let content_of = |v: &VariantPlan| match v.style {
        Style::Named => NodePlan::Object(v.fields.iter().map(FieldPlan::described).collect()),
        // `fields[0]`: the guard checked there is exactly one.
        Style::Tuple if v.fields.len() == 1 => v.fields[0].node.clone(),
        Style::Tuple => NodePlan::List {
            keys: None,
            item: Box::new(NodePlan::Value),
        },
        Style::Unit => NodePlan::Value,
    };
    let contents = NodePlan::OneOf(variants.iter().map(content_of).collect());
    match (tag, content) {
        (None, _) => NodePlan::Object(
            variants
                .iter()
                .map(|v| (v.json.clone(), false, false, content_of(v)))
                .collect(),
        ),
        (Some(tag), None) => NodePlan::Object(vec![
            (tag.to_string(), false, false, NodePlan::Value),
            (String::new(), true, false, contents),
        ]),
        (Some(tag), Some(content)) => NodePlan::Object(vec![
            (tag.to_string(), false, false, NodePlan::Value),
            (content.to_string(), false, false, contents),
        ]),
    }
}

impl FieldPlan {
    fn described(&self) -> (String, bool, bool, NodePlan) {
        (
            self.json.clone(),
            self.flatten,
            self.defaulted,
            self.node.clone(),
        )
    }
}

struct Cx<'a> {
    def: &'a TypeDef,
    schema: &'a syn::Path,
    whole: &'a syn::Path,
}

impl Cx<'_> {
    fn field(
        &self,
        variant: Option<&Variant>,
        field: &Field,
        ty: &Type,
        optional: bool,
    ) -> Result<FieldPlan, syn::Error> {
        // A field `with` writes is refused by the parser unless markers give its schema.
        if field.serde.custom && !self.def.walks(field) {
            return Err(syn::Error::new(
                ty.span(),
                "the apply configuration cannot write this field: `#[serde(with)]` writes it \
                 with a function that takes the field's own type; give the field a type whose \
                 `Serialize` writes its JSON form (a newtype with `#[kube_marker(schema_type)]`)",
            ));
        }
        let m = &field.markers;
        let (converts, (ty, node)) = match self.def.walks(field) {
            true => (
                converts(ty),
                (self.config_type(ty, optional), node_of(ty, field)?),
            ),
            false => (true, (self.whole_of(ty), NodePlan::Value)),
        };
        let list_map = match (&node, m.list_type) {
            (NodePlan::List { keys: Some(k), .. }, Some(ListType::Map)) => Some(k.clone()),
            _ => None,
        };
        Ok(FieldPlan {
            ident: field.ident.clone(),
            json: if field.serde.flatten {
                String::new()
            } else {
                self.def.json_name(variant, field)
            },
            flatten: field.serde.flatten,
            optional,
            ty,
            list_map,
            node,
            defaulted: m.default.is_some(),
            converts,
        })
    }

    fn whole_of(&self, ty: &Type) -> Type {
        let whole = self.whole;
        syn::parse_quote!(#whole<#ty>)
    }

    /// The configuration type of a value of type `ty`: its `Apply` projection, the template
    /// spanned at `ty`. An `Option<X>` is named through `X` (the derive names its schema so, see
    /// [`option_inner`]): with `peel`, `X`'s configuration (the field's own `Option` is added by
    /// the caller), else `Option` of it, all spanned at `X`.
    fn config_type(&self, ty: &Type, peel: bool) -> Type {
        let schema = self.schema;
        let inner = option_inner(ty);
        let named = inner.unwrap_or(ty);
        // What comes before the type is spanned at its first token, what follows at its last:
        // the compiler's span of the whole is then the type's.
        let (first, last) = ends(named);
        let open = quote_spanned!(first=> <);
        let close = quote_spanned!(last=> as #schema>::Apply);
        let config = quote!(#open #named #close);
        match (inner, peel) {
            // Spanned at `X` too: whatever fails in it fails where the schema's error is.
            (Some(_), false) => {
                let open = quote_spanned!(first=> ::core::option::Option<);
                let close = quote_spanned!(last=> >);
                syn::parse_quote!(#open #config #close)
            }
            _ => syn::parse_quote!(#config),
        }
    }
}

/// Whether a type of this shape is made of types kubegen knows (scalars, k8s-openapi types, any
/// JSON, and containers of them): it has a schema, so naming it alone cannot fail.
fn known(shape: &Shape) -> bool {
    match shape {
        Shape::Scalar(_) | Shape::Known(_) | Shape::Any => true,
        Shape::Optional(inner) | Shape::Seq { item: inner, .. } | Shape::Map(inner) => known(inner),
        Shape::Named(_) | Shape::Opaque(_) => false,
    }
}

/// Whether a value of type `ty` (in an `Option` or not) can be converted into its
/// configuration whether or not the types in it have a schema (see [`FieldPlan::converts`]):
/// anything but a list or a map whose items are not known types.
fn converts(ty: &Type) -> bool {
    let mut shape = shape_of(ty, &Syntactic);
    while let Ok(Shape::Optional(inner)) = shape {
        shape = Ok(*inner);
    }
    match shape {
        Ok(Shape::Seq { item, .. } | Shape::Map(item)) => known(&item),
        _ => true,
    }
}

/// The spans of the first and last tokens of `tokens` (the call site when there are none).
pub fn ends(tokens: &impl ToTokens) -> (Span, Span) {
    let mut trees = tokens.to_token_stream().into_iter();
    let first = trees.next().map_or_else(Span::call_site, |t| t.span());
    (first, trees.last().map_or(first, |t| t.span()))
}

/// What `extract` knows of a field of type `ty`, as far as its syntax and the field's markers
/// (list and map types) tell. The inside of a list or map is its type's `apply_item_node`,
/// anything else with a description its type's `apply_node` (an `Option` or a pointer
/// describes its content): a named type is described by its own, and an alias the markers
/// call a list or a map by its items'.
fn node_of(ty: &Type, field: &Field) -> Result<NodePlan, syn::Error> {
    let markers = &field.markers;
    let keys = || match markers.list_type {
        Some(ListType::Map) => Some(markers.list_map_keys.clone().unwrap_or_default()),
        Some(ListType::Set) => Some(Vec::new()),
        Some(ListType::Atomic) | None => None,
    };
    // Described through the inside of an `Option`, as the derive names its schema.
    let named = option_inner(ty).unwrap_or(ty);
    // Items of a known type are values (the compiler need not resolve their description).
    let items = |of: Option<&Shape>| match of {
        Some(shape) if known(shape) => Box::new(NodePlan::Value),
        _ => Box::new(NodePlan::ItemsOf(Box::new(named.clone()))),
    };
    let list = |of| NodePlan::List {
        keys: keys(),
        item: items(of),
    };
    let map = |of, map_type: Option<Topology>| NodePlan::Map {
        atomic: map_type == Some(Topology::Atomic),
        value: items(of),
    };
    let mut shape = shape_of(ty, &Syntactic)?;
    while let Shape::Optional(inner) = shape {
        shape = *inner;
    }
    Ok(match shape {
        Shape::Scalar(_) | Shape::Known(_) | Shape::Any => NodePlan::Value,
        Shape::Seq { set, len, .. } if set || len.is_some() => NodePlan::List {
            keys: set.then(Vec::new),
            item: Box::new(NodePlan::Value),
        },
        Shape::Seq { item, .. } => list(Some(&item)),
        Shape::Map(value) => map(Some(&value), markers.map_type),
        Shape::Named(_) | Shape::Opaque(_) if markers.list_type.is_some() => list(None),
        Shape::Named(_) | Shape::Opaque(_) if markers.map_type.is_some() => {
            map(None, markers.map_type)
        }
        // A named type, or one the syntax does not see into (an alias).
        _ => NodePlan::Type(Box::new(named.clone())),
    })
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;
    use syn::DeriveInput;

    use super::*;
    use crate::parse::markers::Place;
    use crate::parse::typedef;

    fn plan_of(src: &str) -> Plan {
        let input: DeriveInput = syn::parse_str(src).unwrap();
        let parsed = typedef::parse(&input, "t::T".into(), Place::Type, &|_| None).unwrap();
        plan(&parsed, &syn::parse_quote!(A), &syn::parse_quote!(W)).unwrap()
    }

    fn types(plan: &Plan) -> Vec<(String, String)> {
        let Form::Struct(fields) = &plan.form else {
            panic!("not a struct")
        };
        fields
            .iter()
            .map(|f| (f.json.clone(), f.ty.to_token_stream().to_string()))
            .collect()
    }

    #[test]
    fn fields_become_configurations_of_their_types() {
        let p = plan_of(
            r#"#[serde(rename_all = "camelCase")]
            struct FooSpec {
                replica_count: Option<i32>,
                ports: Vec<Port>,
                by_name: std::collections::BTreeMap<String, Box<Port>>,
                raw_json: serde_json::Value,
                #[serde(rename = "x")]
                inner: Inner,
                #[kube_marker(schemaless)]
                raw: Raw,
                #[serde(skip)]
                hidden: Hidden,
            }"#,
        );
        assert_eq!(p.name, "FooSpecApply");
        assert_eq!(
            types(&p),
            [
                ("replicaCount".into(), "< i32 as A > :: Apply".into()),
                ("ports".into(), "< Vec < Port > as A > :: Apply".into()),
                (
                    "byName".into(),
                    "< std :: collections :: BTreeMap < String , Box < Port > > as A > :: Apply"
                        .into()
                ),
                (
                    "rawJson".into(),
                    "< serde_json :: Value as A > :: Apply".into()
                ),
                ("x".into(), "< Inner as A > :: Apply".into()),
                ("raw".into(), "W < Raw >".into()),
            ]
        );
        let Form::Struct(fields) = &p.form else {
            panic!()
        };
        let described = |i: usize| match &fields[i].node {
            NodePlan::List { keys, item } => match &**item {
                NodePlan::ItemsOf(t) => {
                    format!("list {keys:?} of items of {}", t.to_token_stream())
                }
                _ => "list of other".into(),
            },
            NodePlan::Map { atomic, value } => match &**value {
                NodePlan::ItemsOf(t) => {
                    format!("map {atomic} of values of {}", t.to_token_stream())
                }
                _ => "map of other".into(),
            },
            NodePlan::Type(t) => t.to_token_stream().to_string(),
            NodePlan::Value => "value".into(),
            _ => "other".into(),
        };
        assert_eq!(described(0), "value");
        assert_eq!(described(1), "list None of items of Vec < Port >");
        assert_eq!(
            described(2),
            "map false of values of std :: collections :: BTreeMap < String , Box < Port > >"
        );
        assert_eq!(described(4), "Inner");
    }

    /// A type without a schema must fail only where the schema's `<T as KubeSchema>::shape()`
    /// does: the plan names a field's type as the derive's schema does, whole, or the inside of
    /// an `Option` (never a part of it otherwise).
    #[test]
    fn field_types_are_named_whole() {
        let p = plan_of(
            r#"struct S {
                maybe: Option<Inner>,
                #[kube_marker(list_type = "map", list_map_keys = "name")]
                keyed: Option<Vec<Port>>,
                boxed: Box<Inner>,
                names: Option<Vec<String>>,
            }"#,
        );
        assert_eq!(
            types(&p),
            [
                ("maybe".into(), "< Inner as A > :: Apply".into()),
                ("keyed".into(), "< Vec < Port > as A > :: Apply".into()),
                ("boxed".into(), "< Box < Inner > as A > :: Apply".into()),
                // Known types cannot fail: named alone.
                ("names".into(), "< Vec < String > as A > :: Apply".into()),
            ]
        );
        let Form::Struct(fields) = &p.form else {
            panic!()
        };
        let named = |n: &NodePlan| match n {
            NodePlan::Type(t) | NodePlan::ItemsOf(t) => t.to_token_stream().to_string(),
            NodePlan::List { keys, item } => {
                let NodePlan::ItemsOf(t) = &**item else {
                    panic!("items not described by their list's type")
                };
                format!("list {keys:?} of items of {}", t.to_token_stream())
            }
            _ => "other".into(),
        };
        assert_eq!(named(&fields[0].node), "Inner");
        assert_eq!(
            named(&fields[1].node),
            "list Some([\"name\"]) of items of Vec < Port >"
        );
        assert_eq!(named(&fields[2].node), "Box < Inner >");
        assert!(matches!(
            &fields[3].node,
            NodePlan::List { keys: None, item } if matches!(**item, NodePlan::Value)
        ));
    }

    /// Builders convert their value unless the field is a list or a map of types kubegen does
    /// not know, whose partly resolved configuration (`Vec<_>`) a conversion would add an
    /// error to.
    #[test]
    fn builders_convert_all_but_lists_and_maps_of_named_types() {
        let p = plan_of(
            r#"struct S {
                name: String,
                maybe: Option<Inner>,
                inner: crate::Inner,
                boxed: Box<Inner>,
                names: Option<Vec<String>>,
                labels: std::collections::BTreeMap<String, String>,
                ports: Vec<Port>,
                maybe_ports: Option<Vec<Port>>,
                by_name: std::collections::HashMap<String, Port>,
                #[kube_marker(schemaless)]
                raw: Vec<Raw>,
            }"#,
        );
        let Form::Struct(fields) = &p.form else {
            panic!()
        };
        let converting: Vec<_> = fields
            .iter()
            .filter(|f| f.converts)
            .map(|f| f.json.as_str())
            .collect();
        assert_eq!(
            converting,
            ["name", "maybe", "inner", "boxed", "names", "labels", "raw"]
        );
    }

    #[test]
    fn aliases_are_described_by_their_types_and_markers() {
        let p = plan_of(
            r#"struct S {
                #[kube_marker(list_type = "map", list_map_keys = "name")]
                ports: Ports,
                #[kube_marker(map_type = "atomic")]
                labels: Labels,
                items: Items,
            }"#,
        );
        let Form::Struct(fields) = &p.form else {
            panic!()
        };
        assert_eq!(types(&p)[0].1, "< Ports as A > :: Apply");
        assert_eq!(
            fields[0].list_map.as_deref(),
            Some(&["name".to_string()][..])
        );
        assert!(matches!(
            &fields[0].node,
            NodePlan::List { keys: Some(k), item } if k == &["name"] && matches!(**item, NodePlan::ItemsOf(_))
        ));
        assert!(matches!(
            &fields[1].node,
            NodePlan::Map { atomic: true, value } if matches!(**value, NodePlan::ItemsOf(_))
        ));
        assert!(matches!(&fields[2].node, NodePlan::Type(_)));
    }

    #[test]
    fn list_and_map_types_come_from_the_markers() {
        let p = plan_of(
            r#"struct S {
                #[kube_marker(list_type = "map", list_map_keys = "name")]
                ports: Vec<Port>,
                tags: std::collections::BTreeSet<String>,
                args: Vec<String>,
                #[kube_marker(map_type = "atomic")]
                labels: std::collections::BTreeMap<String, String>,
            }"#,
        );
        let Form::Struct(fields) = &p.form else {
            panic!()
        };
        assert_eq!(
            fields[0].list_map.as_deref(),
            Some(&["name".to_string()][..])
        );
        let kinds: Vec<String> = fields
            .iter()
            .map(|f| match &f.node {
                NodePlan::List { keys, .. } => format!("list {keys:?}"),
                NodePlan::Map { atomic, .. } => format!("map atomic={atomic}"),
                _ => "other".into(),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "list Some([\"name\"])",
                "list Some([])",
                "list None",
                "map atomic=true"
            ]
        );
    }

    #[test]
    fn newtypes_unit_enums_and_untagged_enums_are_applied_whole() {
        for src in [
            "struct Name(String);",
            "#[serde(transparent)] struct Name { inner: String }",
            "enum Mode { A, B }",
            "#[serde(untagged)] enum U { A { x: i32 }, B(String) }",
            // Its variants serde writes are units.
            "enum Mode { A, B, #[serde(skip)] C { x: i32 } }",
            r#"#[kube_marker(schema_type = "string")] struct Q { v: i32 }"#,
        ] {
            assert!(matches!(plan_of(src).form, Form::Whole), "{src}");
        }
    }

    #[test]
    fn enums_keep_their_tagging() {
        let p = plan_of(
            r#"#[serde(tag = "type", rename_all = "camelCase")]
            enum Source { GitRepo { url: String }, Oci(Oci), #[serde(skip)] Never }"#,
        );
        let Form::Enum { tag, variants, .. } = &p.form else {
            panic!()
        };
        assert_eq!(tag.as_deref(), Some("type"));
        let names: Vec<_> = variants.iter().map(|v| v.json.as_str()).collect();
        assert_eq!(names, ["gitRepo", "oci"]);
        assert!(variants[0].fields[0].optional);
        assert!(!variants[1].fields[0].optional);
        let NodePlan::Object(fields) = &p.node else {
            panic!()
        };
        assert_eq!(fields[0].0, "type");
        assert!(
            fields[1].1,
            "the variants' fields are flattened beside the tag"
        );
    }

    #[test]
    fn fields_written_by_functions_are_refused() {
        let input: DeriveInput = syn::parse_str(
            r#"struct S { #[serde(with = "m")] #[kube_marker(schema_type = "string")] d: D }"#,
        )
        .unwrap();
        let parsed = typedef::parse(&input, "t::S".into(), Place::Type, &|_| None).unwrap();
        let e = plan(&parsed, &syn::parse_quote!(A), &syn::parse_quote!(W))
            .err()
            .unwrap();
        assert!(e.to_string().contains("`#[serde(with)]`"), "{e}");
    }
}
