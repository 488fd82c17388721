//! The Rust an imported CRD becomes: one module per group and version, its types named after
//! their path in the schema (`CertificateSpecPrivateKey`), a type per distinct subtree (two
//! equal subtrees share the first one's), in the order the schema is walked (properties in
//! their sorted order), so the same CRD always gives the same Rust.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, CustomResourceDefinitionVersion, JSONSchemaProps,
    JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
};
use kubegen_core::model::RenameRule;
use kubegen_core::parse::docs::{Comment, description};
use serde_json::Value;

use super::known::Known;

/// The module of one group and version.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// The API group.
    pub group: String,
    /// The version's name.
    pub version: String,
    /// Its types, the spec struct first.
    pub items: Vec<Item>,
}

/// A Rust type of a module.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A struct with named fields.
    Struct(Struct),
    /// A string enum: unit variants.
    Enum(Enum),
    /// A `#[serde(transparent)]` newtype carrying its schema's keys (Go's named types).
    Newtype(Newtype),
}

/// A struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Struct {
    /// Its name.
    pub name: String,
    /// Its doc comment: only the spec and status structs have one (it is their property's
    /// description; any other struct's would be the description of fields without one).
    pub doc: Option<String>,
    /// `#[derive(CustomResource)]`'s resource keys, for the spec struct.
    pub resource: Option<Vec<Marker>>,
    /// Its schema keys.
    pub markers: Vec<Marker>,
    /// Whether `#[serde(rename_all = "camelCase")]` names its fields.
    pub camel_case: bool,
    /// Its fields, in the schema's order.
    pub fields: Vec<Field>,
}

/// A field.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The Rust name.
    pub rust: String,
    /// The JSON name, when the container's `rename_all` does not make it.
    pub rename: Option<String>,
    /// Its type.
    pub ty: Ty,
    /// Its doc comment (the description).
    pub doc: Option<String>,
    /// Its schema keys.
    pub markers: Vec<Marker>,
    /// `#[serde(flatten)]`: an embedded struct's fields inline (Go's `json:",inline"`).
    pub flatten: bool,
    /// `#[cfg(feature = "...")]`: the feature that has the field (Gateway API's
    /// `<gateway:experimental>` fields).
    pub feature: Option<String>,
}

/// A string enum: its schema is `type: string` and its values, in the variants' order.
#[derive(Debug, Clone, PartialEq)]
pub struct Enum {
    /// Its name.
    pub name: String,
    /// Each variant: its Rust name, and its value when that is not the Rust name.
    pub variants: Vec<(String, Option<String>)>,
    /// Its doc comment (a Go named type's).
    pub doc: Option<String>,
    /// Its schema keys besides the values (a Go named type's markers).
    pub markers: Vec<Marker>,
}

/// A newtype.
#[derive(Debug, Clone, PartialEq)]
pub struct Newtype {
    /// Its name.
    pub name: String,
    /// The wrapped type.
    pub ty: Ty,
    /// Its doc comment (a Go named type's).
    pub doc: Option<String>,
    /// Its schema keys.
    pub markers: Vec<Marker>,
}

/// A field's type.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// A type of the module.
    Named(String),
    /// A type by path (`String`, `i32`, `serde_json::Value`).
    Path(&'static str),
    /// A type of another crate by a path made from the input (`k8s_openapi::api::core::v1::Pod`).
    Extern(String),
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>`.
    Map(Box<Ty>),
    /// `Option<T>`.
    Option(Box<Ty>),
}

/// One key of `#[kube_marker(...)]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// The key.
    pub key: &'static str,
    /// Its value.
    pub value: MarkerValue,
}

/// The key of a [`Marker`] that is no key: `write` prints its value as a `// kubegen import:`
/// comment above the item or field (what the import could not translate).
pub const NOTE: &str = "kubegen_import_note";

/// A key's value.
#[derive(Debug, Clone, PartialEq)]
pub enum MarkerValue {
    /// A flag: the key alone.
    Flag,
    /// `key = false`.
    False,
    /// `key = "..."`.
    Str(String),
    /// `key = 1.5`, a number.
    Number(f64),
    /// `key = 3`, a count.
    Count(i64),
    /// `key = <JSON literal or array of literals>`, else `key_json = "..."`.
    Json(Value),
    /// `key = ["a", "b"]`.
    List(Vec<String>),
    /// `key(...)`.
    Nested(Vec<Marker>),
}

/// A problem with the input, at a schema path.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Where: `v1 .spec.foo`.
    pub path: String,
    /// What.
    pub message: String,
}

/// What importing one CRD gives: its modules' parts (one per version), and what it could not
/// express (a keyword with no marker), which the import reports as warnings.
#[derive(Debug, Default)]
pub struct Imported {
    /// One module per version.
    pub modules: Vec<Module>,
    /// What is lost, each at its path.
    pub lost: Vec<Problem>,
}

/// The annotations a generator writes about itself: not part of the API.
const GENERATOR_ANNOTATIONS: &[&str] = &[
    "controller-gen.kubebuilder.io/version",
    "kubegen.io/version",
];

/// The Rust of one CRD, its subtrees that are one of the `known` types made fields of that
/// type; or the first problem that makes it unimportable (a schema that is not structural).
pub fn import(crd: &CustomResourceDefinition, known: &Known) -> Result<Imported, Problem> {
    let mut imported = Imported::default();
    let several = crd.spec.versions.len() > 1;
    for version in &crd.spec.versions {
        let mut walk = Walk {
            kind: &crd.spec.names.kind,
            version: &version.name,
            items: Vec::new(),
            seen: BTreeMap::new(),
            known,
            lost: &mut imported.lost,
        };
        walk.version(crd, version, several)?;
        imported.modules.push(Module {
            group: crd.spec.group.clone(),
            version: version.name.clone(),
            items: walk.items,
        });
    }
    Ok(imported)
}

/// The state of one version's walk.
struct Walk<'a> {
    kind: &'a str,
    version: &'a str,
    items: Vec<Item>,
    /// The type made of each subtree (its JSON without its description), by that JSON.
    seen: BTreeMap<String, String>,
    /// The k8s-openapi types a subtree may be.
    known: &'a Known,
    lost: &'a mut Vec<Problem>,
}

impl Walk<'_> {
    fn problem(&self, path: &str, message: impl Into<String>) -> Problem {
        Problem {
            path: format!(
                "{} {}",
                self.version,
                if path.is_empty() { "." } else { path }
            ),
            message: message.into(),
        }
    }

    fn lose(&mut self, path: &str, message: impl Into<String>) {
        let p = self.problem(path, message);
        self.lost.push(p);
    }

    /// The spec struct of a version (with the resource keys) and every type below it.
    fn version(
        &mut self,
        crd: &CustomResourceDefinition,
        version: &CustomResourceDefinitionVersion,
        several: bool,
    ) -> Result<(), Problem> {
        let root = version
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .ok_or_else(|| self.problem("", "the version has no openAPIV3Schema"))?;
        let no_props = BTreeMap::new();
        let props = root.properties.as_ref().unwrap_or(&no_props);
        for name in props.keys() {
            if !["apiVersion", "kind", "metadata", "spec", "status"].contains(&name.as_str()) {
                self.lose(
                    &format!(".{name}"),
                    "a root property other than spec and status",
                );
            }
        }
        self.check_root(root);
        let spec_name = format!("{}Spec", self.kind);
        let mut spec = match props.get("spec") {
            Some(node) => self.object(node, &spec_name, ".spec")?,
            None => {
                self.lose(".spec", "no spec: the spec struct adds an empty one");
                Struct {
                    name: spec_name.clone(),
                    doc: None,
                    resource: None,
                    markers: Vec::new(),
                    camel_case: false,
                    fields: Vec::new(),
                }
            }
        };
        describe(&mut spec, props.get("spec"));
        let mut resource = resource_keys(crd, version, several);
        // After the kind: whether the spec is required, the status and its subresource.
        let mut root_keys = Vec::new();
        let required = root.required.clone().unwrap_or_default();
        if props.contains_key("spec") && !required.iter().any(|r| r == "spec") {
            root_keys.push(marker("optional", MarkerValue::Flag));
        }
        let subresource = (version.subresources.as_ref()).is_some_and(|s| s.status.is_some());
        if let Some(status) = props.get("status") {
            let name = format!("{}Status", self.kind);
            let mut s = self.object(status, &name, ".status")?;
            describe(&mut s, Some(status));
            self.items.push(Item::Struct(s));
            root_keys.push(marker("status", MarkerValue::Str(name)));
            if !subresource {
                root_keys.push(marker("status_subresource", MarkerValue::False));
            }
        } else if subresource {
            root_keys.push(marker("status_subresource", MarkerValue::Flag));
        }
        resource.splice(3..3, root_keys);
        for r in required.iter().filter(|r| *r != "spec") {
            self.lose("", format!("the root requires `{r}`"));
        }
        if let Some(doc) = &root.description {
            resource.push(marker("doc", MarkerValue::Str(doc.clone())));
        }
        spec.resource = Some(resource);
        self.items.insert(0, Item::Struct(spec));
        Ok(())
    }

    /// Reports what the root schema holds beyond what kubegen writes for every kind.
    fn check_root(&mut self, root: &JSONSchemaProps) {
        let bare = JSONSchemaProps {
            properties: None,
            description: None,
            type_: None,
            required: None,
            ..root.clone()
        };
        if bare != JSONSchemaProps::default() {
            self.lose(
                "",
                "root schema keywords besides properties and description",
            );
        }
    }

    /// The struct of an object node (its fields' types added to the module on the way).
    fn object(
        &mut self,
        node: &JSONSchemaProps,
        name: &str,
        path: &str,
    ) -> Result<Struct, Problem> {
        let required = node.required.clone().unwrap_or_default();
        let no_props = BTreeMap::new();
        let props = node.properties.as_ref().unwrap_or(&no_props);
        let mut fields = Vec::new();
        for (json, prop) in props {
            let field_path = format!("{path}.{json}");
            let (ty, mut markers) =
                self.ty(prop, &format!("{name}{}", pascal(json)), &field_path)?;
            let ty = if required.contains(json) {
                ty
            } else {
                Ty::Option(Box::new(ty))
            };
            let doc = match &prop.description {
                Some(d) if as_doc_comment(d) => Some(d.clone()),
                Some(d) => {
                    markers.push(marker("description", MarkerValue::Str(d.clone())));
                    None
                }
                None => None,
            };
            fields.push((json.clone(), ty, doc, markers));
        }
        for r in &required {
            if !props.contains_key(r) {
                self.lose(
                    path,
                    format!("`required` names `{r}`, which is no property"),
                );
            }
        }
        let camel_case = !fields.is_empty()
            && fields
                .iter()
                .filter(|(json, ..)| camel(&rust_name(json)) == *json)
                .count()
                * 2
                > fields.len();
        let fields = fields
            .into_iter()
            .map(|(json, ty, doc, markers)| {
                let rust = rust_name(&json);
                let made = if camel_case {
                    camel(&rust)
                } else {
                    rust.clone()
                };
                Field {
                    rename: (made != json).then_some(json),
                    rust,
                    ty,
                    doc,
                    markers,
                    flatten: false,
                    feature: None,
                }
            })
            .collect();
        let mut markers = self.keys(node, path, Shape::Object);
        if node.x_kubernetes_map_type.is_some() {
            markers.retain(|m| m.key != "map_type");
            markers.push(marker(
                "struct_type",
                MarkerValue::Str(node.x_kubernetes_map_type.clone().unwrap_or_default()),
            ));
        }
        Ok(Struct {
            name: name.to_string(),
            doc: None,
            resource: None,
            markers,
            camel_case,
            fields,
        })
    }

    /// The type of a node, and the keys its field carries.
    fn ty(
        &mut self,
        node: &JSONSchemaProps,
        name: &str,
        path: &str,
    ) -> Result<(Ty, Vec<Marker>), Problem> {
        let ty_name = node.type_.as_deref();
        if let Some(path) = self.known.find(node) {
            return Ok((Ty::Extern(path.to_string()), Vec::new()));
        }
        if node.x_kubernetes_int_or_string == Some(true) {
            let mut keys = self.keys(node, path, Shape::IntOrString);
            keys.push(marker("int_or_string", MarkerValue::Flag));
            return Ok((
                Ty::Path("k8s_openapi::apimachinery::pkg::util::intstr::IntOrString"),
                keys,
            ));
        }
        if let Some([base, over]) = node.all_of.as_deref()
            && is_merge_pair(base, over)
        {
            // A field's keyword over its type's: the type a newtype with the first branch, the
            // field with the second (kubegen's merge writes `allOf: [type's, field's]`).
            let plain = JSONSchemaProps {
                all_of: None,
                ..node.clone()
            };
            let (inner, keys) = self.ty(&plain, name, path)?;
            if let Ty::Path(_) = inner {
                let (typed, mut field): (Vec<Marker>, Vec<Marker>) =
                    keys.into_iter().partition(|m| m.key == "schema_type");
                let mut type_keys = typed;
                type_keys.extend(self.keys(base, path, Shape::Scalar));
                field.extend(self.keys(over, path, Shape::Scalar));
                let tree = JSONSchemaProps {
                    type_: node.type_.clone(),
                    format: node.format.clone(),
                    ..base.clone()
                };
                let ty = self.named(&tree, name, |_| {
                    Ok(Item::Newtype(Newtype {
                        name: name.to_string(),
                        ty: inner.clone(),
                        doc: None,
                        markers: type_keys.clone(),
                    }))
                })?;
                return Ok((ty, field));
            }
        }
        let preserve = node.x_kubernetes_preserve_unknown_fields == Some(true);
        match ty_name {
            Some("object")
                if node.properties.is_some()
                    || (!preserve && node.additional_properties.is_none()) =>
            {
                let ty =
                    self.named(node, name, |w| w.object(node, name, path).map(Item::Struct))?;
                Ok((ty, Vec::new()))
            }
            Some("object") if !preserve => {
                let value = match &node.additional_properties {
                    Some(JSONSchemaPropsOrBool::Schema(s)) => s,
                    _ => {
                        return Err(
                            self.problem(path, "`additionalProperties: true` is not structural")
                        );
                    }
                };
                let (vty, mut vkeys) =
                    self.ty(value, &format!("{name}Value"), &format!("{path}[*]"))?;
                vkeys.extend(self.entry_description(&vty, value));
                let vty = if vkeys.is_empty() {
                    vty
                } else {
                    self.wrapper(value, &format!("{name}Value"), vty, vkeys)?
                };
                Ok((Ty::Map(Box::new(vty)), self.keys(node, path, Shape::Map)))
            }
            None | Some("object") if preserve => {
                let mut keys = vec![
                    marker("schemaless", MarkerValue::Flag),
                    marker("preserve_unknown_fields", MarkerValue::Flag),
                ];
                if let Some(t) = ty_name {
                    keys.push(marker("schema_type", MarkerValue::Str(t.into())));
                }
                keys.extend(self.keys(node, path, Shape::Object));
                Ok((Ty::Path("serde_json::Value"), keys))
            }
            Some("array") => {
                let items = match &node.items {
                    Some(JSONSchemaPropsOrArray::Schema(s)) => s,
                    _ => {
                        return Err(self
                            .problem(path, "an array needs one `items` schema to be structural"));
                    }
                };
                let (mut ity, mut ikeys) = self.ty(items, name, &format!("{path}[*]"))?;
                ikeys.extend(self.entry_description(&ity, items));
                // `items(schema_type = ...)` keeps the Rust type's `format`: a newtype's does not.
                if ikeys.iter().any(|m| m.key == "schema_type") {
                    ity = self.wrapper(items, &format!("{name}Item"), ity, ikeys)?;
                    ikeys = Vec::new();
                }
                let mut keys = self.keys(node, path, Shape::Array);
                if !ikeys.is_empty() {
                    keys.push(marker("items", MarkerValue::Nested(ikeys)));
                }
                Ok((Ty::Vec(Box::new(ity)), keys))
            }
            Some("string") if string_enum(node).is_some() => {
                let values = string_enum(node).unwrap_or_default();
                let ty = self.named(node, name, |_| {
                    Ok(Item::Enum(Enum {
                        name: name.to_string(),
                        variants: variants(&values),
                        doc: None,
                        markers: Vec::new(),
                    }))
                })?;
                let mut keys = self.keys(node, path, Shape::Scalar);
                keys.retain(|m| m.key != "enum_values");
                Ok((ty, keys))
            }
            Some(t @ ("string" | "integer" | "number" | "boolean")) => {
                let (path_ty, keeps_format) = match (t, node.format.as_deref()) {
                    ("string", _) => ("String", false),
                    ("boolean", _) => ("bool", false),
                    ("integer", Some("int32")) => ("i32", true),
                    ("integer", Some("int64")) => ("i64", true),
                    ("number", Some("double")) => ("f64", true),
                    ("number", Some("float")) => ("f32", true),
                    ("integer", _) => ("i64", false),
                    (_, _) => ("f64", false),
                };
                let mut keys = Vec::new();
                if matches!(t, "integer" | "number") && !keeps_format {
                    keys.push(marker("schema_type", MarkerValue::Str(t.into())));
                }
                keys.extend(self.keys(node, path, Shape::Scalar));
                if keeps_format {
                    keys.retain(|m| m.key != "format");
                }
                Ok((Ty::Path(path_ty), keys))
            }
            Some(other) => Err(self.problem(path, format!("unknown type `{other}`"))),
            None => Err(self.problem(
                path,
                "no `type`: a structural schema gives every node a type (or \
                 `x-kubernetes-int-or-string`, `x-kubernetes-preserve-unknown-fields`)",
            )),
        }
    }

    /// The `description` key of a list item or map value of type `ty`: none where `ty` is a
    /// known type that renders the same description.
    fn entry_description(&self, ty: &Ty, node: &JSONSchemaProps) -> Option<Marker> {
        let d = node.description.as_ref()?;
        let same = matches!(ty, Ty::Extern(path) if self.known.description(path) == Some(d));
        (!same).then(|| marker("description", MarkerValue::Str(d.clone())))
    }

    /// A newtype of `ty` carrying the keys of a list item or map value `node` (which its
    /// field cannot carry), shared by equal nodes; apart from the type `ty` may be of the
    /// same node, and by description too (a key here).
    fn wrapper(
        &mut self,
        node: &JSONSchemaProps,
        name: &str,
        ty: Ty,
        markers: Vec<Marker>,
    ) -> Result<Ty, Problem> {
        let key = format!(
            "newtype {}",
            serde_json::to_string(node).unwrap_or_default()
        );
        let item = |_: &mut Self| {
            Ok(Item::Newtype(Newtype {
                name: name.to_string(),
                ty,
                doc: None,
                markers,
            }))
        };
        self.keyed(key, name, item)
    }

    /// The module's type for `node`: the one made of an equal subtree, else a new one.
    fn named(
        &mut self,
        node: &JSONSchemaProps,
        name: &str,
        make: impl FnOnce(&mut Self) -> Result<Item, Problem>,
    ) -> Result<Ty, Problem> {
        let key = serde_json::to_string(&JSONSchemaProps {
            description: None,
            ..node.clone()
        })
        .unwrap_or_default();
        self.keyed(key, name, make)
    }

    /// The module's type of the subtree `key`: the one made of it already, else a new one.
    fn keyed(
        &mut self,
        key: String,
        name: &str,
        make: impl FnOnce(&mut Self) -> Result<Item, Problem>,
    ) -> Result<Ty, Problem> {
        if let Some(existing) = self.seen.get(&key) {
            return Ok(Ty::Named(existing.clone()));
        }
        let reserved = [
            self.kind.to_string(),
            format!("{}Spec", self.kind),
            format!("{}Status", self.kind),
        ];
        let mut unique = name.to_string();
        let mut n = 2;
        while reserved.contains(&unique) || self.seen.values().any(|v| *v == unique) {
            unique = format!("{name}{n}");
            n += 1;
        }
        self.seen.insert(key, unique.clone());
        let item = make(self)?;
        let item = rename_item(item, &unique);
        self.items.push(item);
        Ok(Ty::Named(unique))
    }

    /// The schema keys of a node, as its field (or type) carries them.
    fn keys(&mut self, n: &JSONSchemaProps, path: &str, shape: Shape) -> Vec<Marker> {
        let mut m = value_keys(n);
        for rule in n.x_kubernetes_validations.iter().flatten() {
            let mut args = vec![marker("rule", MarkerValue::Str(rule.rule.clone()))];
            for (key, v) in [
                ("message", &rule.message),
                ("message_expression", &rule.message_expression),
                ("reason", &rule.reason),
                ("field_path", &rule.field_path),
            ] {
                if let Some(v) = v {
                    args.push(marker(key, MarkerValue::Str(v.clone())));
                }
            }
            if rule.optional_old_self == Some(true) {
                args.push(marker("optional_old_self", MarkerValue::Flag));
            }
            m.push(marker("x_validation", MarkerValue::Nested(args)));
        }
        if n.x_kubernetes_embedded_resource == Some(true) {
            m.push(marker("embedded_resource", MarkerValue::Flag));
        }
        if n.x_kubernetes_preserve_unknown_fields == Some(true)
            && shape == Shape::Object
            && n.properties.is_some()
        {
            m.push(marker("preserve_unknown_fields", MarkerValue::Flag));
        }
        if let Some(t) = &n.x_kubernetes_list_type {
            m.push(marker("list_type", MarkerValue::Str(t.clone())));
        }
        if let Some(k) = &n.x_kubernetes_list_map_keys {
            m.push(marker("list_map_keys", MarkerValue::List(k.clone())));
        }
        if let Some(t) = &n.x_kubernetes_map_type {
            m.push(marker("map_type", MarkerValue::Str(t.clone())));
        }
        if n.nullable == Some(true) {
            m.push(marker("nullable", MarkerValue::Flag));
        }
        if let Some(d) = &n.default {
            m.push(marker("default", MarkerValue::Json(d.0.clone())));
        }
        if let Some(e) = &n.example {
            m.push(marker("example", MarkerValue::Json(e.0.clone())));
        }
        if let Some(t) = &n.title {
            m.push(marker("title", MarkerValue::Str(t.clone())));
        }
        if let Some(d) = &n.external_docs {
            let mut args = Vec::new();
            if let Some(u) = &d.url {
                args.push(marker("url", MarkerValue::Str(u.clone())));
            }
            if let Some(t) = &d.description {
                args.push(marker("description", MarkerValue::Str(t.clone())));
            }
            m.push(marker("external_docs", MarkerValue::Nested(args)));
        }
        if n.unique_items == Some(true) {
            self.lose(path, "`uniqueItems: true`, which the API server refuses");
        }
        let any_of = n.any_of.as_ref().filter(|_| shape != Shape::IntOrString);
        let junctors = [
            ("all_of", "allOf", n.all_of.as_ref()),
            ("any_of", "anyOf", any_of),
            ("one_of", "oneOf", n.one_of.as_ref()),
        ];
        for (key, keyword, branches) in junctors {
            for b in branches.into_iter().flatten() {
                match branch_keys(b) {
                    Some(args) => m.push(marker(key, MarkerValue::Nested(args))),
                    None => self.lose(
                        path,
                        format!("a `{keyword}` branch holds more than value validations"),
                    ),
                }
            }
        }
        if let Some(b) = &n.not {
            match branch_keys(b) {
                Some(args) => m.push(marker("not", MarkerValue::Nested(args))),
                None => self.lose(path, "`not` holds more than value validations"),
            }
        }
        let unmarked = [
            ("patternProperties", n.pattern_properties.is_some()),
            ("dependencies", n.dependencies.is_some()),
            ("definitions", n.definitions.is_some()),
            ("additionalItems", n.additional_items.is_some()),
            ("$ref", n.ref_path.is_some()),
            ("$schema", n.schema.is_some()),
            ("id", n.id.is_some()),
            (
                "additionalProperties",
                shape != Shape::Map && n.additional_properties.is_some(),
            ),
        ];
        for (keyword, present) in unmarked {
            if present {
                self.lose(path, format!("`{keyword}` has no marker"));
            }
        }
        m
    }
}

/// The value validations of a node (the keywords a junctor's branch may hold too).
fn value_keys(n: &JSONSchemaProps) -> Vec<Marker> {
    let mut m = Vec::new();
    let num = |m: &mut Vec<Marker>, key, v: Option<f64>| {
        if let Some(v) = v {
            m.push(marker(key, MarkerValue::Number(v)));
        }
    };
    let count = |m: &mut Vec<Marker>, key, v: Option<i64>| {
        if let Some(v) = v {
            m.push(marker(key, MarkerValue::Count(v)));
        }
    };
    num(&mut m, "minimum", n.minimum);
    num(&mut m, "maximum", n.maximum);
    num(&mut m, "multiple_of", n.multiple_of);
    if n.exclusive_minimum == Some(true) {
        m.push(marker("exclusive_minimum", MarkerValue::Flag));
    }
    if n.exclusive_maximum == Some(true) {
        m.push(marker("exclusive_maximum", MarkerValue::Flag));
    }
    count(&mut m, "min_length", n.min_length);
    count(&mut m, "max_length", n.max_length);
    if let Some(p) = &n.pattern {
        m.push(marker("pattern", MarkerValue::Str(p.clone())));
    }
    if let Some(f) = &n.format {
        m.push(marker("format", MarkerValue::Str(f.clone())));
    }
    if let Some(e) = &n.enum_ {
        m.push(marker(
            "enum_values",
            MarkerValue::Json(Value::Array(e.iter().map(|j| j.0.clone()).collect())),
        ));
    }
    count(&mut m, "min_items", n.min_items);
    count(&mut m, "max_items", n.max_items);
    count(&mut m, "min_properties", n.min_properties);
    count(&mut m, "max_properties", n.max_properties);
    m
}

/// The keys of a junctor's branch (`one_of(...)`'s arguments), or `None` when it holds more
/// than a branch key says: value validations, `required`, properties, items and junctors.
fn branch_keys(b: &JSONSchemaProps) -> Option<Vec<Marker>> {
    let rest = JSONSchemaProps {
        minimum: None,
        maximum: None,
        multiple_of: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
        enum_: None,
        min_items: None,
        max_items: None,
        min_properties: None,
        max_properties: None,
        required: None,
        properties: None,
        items: None,
        all_of: None,
        any_of: None,
        one_of: None,
        not: None,
        ..b.clone()
    };
    if rest != JSONSchemaProps::default() {
        return None;
    }
    let mut m = value_keys(b);
    if let Some(r) = &b.required {
        m.push(marker("required", MarkerValue::List(r.clone())));
    }
    for (name, p) in b.properties.iter().flatten() {
        let mut args = vec![marker("name", MarkerValue::Str(name.clone()))];
        args.extend(branch_keys(p)?);
        m.push(marker("property", MarkerValue::Nested(args)));
    }
    match &b.items {
        Some(JSONSchemaPropsOrArray::Schema(i)) => {
            m.push(marker("items", MarkerValue::Nested(branch_keys(i)?)))
        }
        Some(JSONSchemaPropsOrArray::Schemas(_)) => return None,
        None => {}
    }
    for (key, branches) in [
        ("all_of", &b.all_of),
        ("any_of", &b.any_of),
        ("one_of", &b.one_of),
    ] {
        for nested in branches.iter().flatten() {
            m.push(marker(key, MarkerValue::Nested(branch_keys(nested)?)));
        }
    }
    if let Some(not) = &b.not {
        m.push(marker("not", MarkerValue::Nested(branch_keys(not)?)));
    }
    Some(m)
}

/// What a node is, for the keys that depend on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Object,
    Map,
    Array,
    Scalar,
    IntOrString,
}

/// The spec's or status's description: their struct's doc comment, or its `description` key
/// where a doc comment cannot say it.
fn describe(s: &mut Struct, node: Option<&JSONSchemaProps>) {
    match node.and_then(|n| n.description.clone()) {
        Some(d) if as_doc_comment(&d) => s.doc = Some(d),
        Some(d) => s.markers.push(marker("description", MarkerValue::Str(d))),
        None => {}
    }
}

fn marker(key: &'static str, value: MarkerValue) -> Marker {
    Marker { key, value }
}

/// The resource keys of a version's spec struct.
fn resource_keys(
    crd: &CustomResourceDefinition,
    version: &CustomResourceDefinitionVersion,
    several: bool,
) -> Vec<Marker> {
    let spec = &crd.spec;
    let names = &spec.names;
    let str = |s: &str| MarkerValue::Str(s.to_string());
    let mut m = vec![
        marker("group", str(&spec.group)),
        marker("version", str(&version.name)),
        marker("kind", str(&names.kind)),
    ];
    if names.plural != kubegen_core::names::resource_plural(&names.kind) {
        m.push(marker("plural", str(&names.plural)));
    }
    // None is the kind in lower case, as the API server defaults it and kubegen writes it.
    if let Some(singular) = &names.singular
        && *singular != names.kind.to_lowercase()
    {
        m.push(marker("singular", str(singular)));
    }
    if spec.scope == "Cluster" {
        m.push(marker("namespaced", MarkerValue::False));
    }
    if let Some(s) = names.short_names.as_ref().filter(|s| !s.is_empty()) {
        m.push(marker("short_names", MarkerValue::List(s.clone())));
    }
    if let Some(c) = names.categories.as_ref().filter(|c| !c.is_empty()) {
        m.push(marker("categories", MarkerValue::List(c.clone())));
    }
    if let Some(scale) = version.subresources.as_ref().and_then(|s| s.scale.as_ref()) {
        let mut args = vec![
            marker("spec_path", str(&scale.spec_replicas_path)),
            marker("status_path", str(&scale.status_replicas_path)),
        ];
        if let Some(sel) = &scale.label_selector_path {
            args.push(marker("selector_path", str(sel)));
        }
        m.push(marker("scale", MarkerValue::Nested(args)));
    }
    for col in version.additional_printer_columns.iter().flatten() {
        let mut args = vec![
            marker("name", str(&col.name)),
            marker("type", str(&col.type_)),
            marker("json_path", str(&col.json_path)),
        ];
        if let Some(d) = &col.description {
            args.push(marker("description", str(d)));
        }
        if let Some(f) = &col.format {
            args.push(marker("format", str(f)));
        }
        if let Some(p) = col.priority {
            args.push(marker("priority", MarkerValue::Count(p.into())));
        }
        m.push(marker("printcolumn", MarkerValue::Nested(args)));
    }
    if several && version.storage {
        m.push(marker("storage_version", MarkerValue::Flag));
    }
    if !version.served {
        m.push(marker("served", MarkerValue::False));
    }
    if version.deprecated == Some(true) {
        m.push(match &version.deprecation_warning {
            Some(w) => marker(
                "deprecated",
                MarkerValue::Nested(vec![marker("warning", str(w))]),
            ),
            None => marker("deprecated", MarkerValue::Flag),
        });
    }
    for f in version.selectable_fields.iter().flatten() {
        m.push(marker(
            "selectable_field",
            MarkerValue::Nested(vec![marker("json_path", str(&f.json_path))]),
        ));
    }
    let pairs = |map: &Option<BTreeMap<String, String>>| -> Vec<String> {
        map.iter()
            .flatten()
            .filter(|(k, _)| !GENERATOR_ANNOTATIONS.contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    };
    let annotations = pairs(&crd.metadata.annotations);
    if !annotations.is_empty() {
        m.push(marker("annotations", MarkerValue::List(annotations)));
    }
    let labels = pairs(&crd.metadata.labels);
    if !labels.is_empty() {
        m.push(marker("labels", MarkerValue::List(labels)));
    }
    if let Some(conv) = spec.conversion.as_ref().filter(|c| c.strategy == "Webhook") {
        let mut args = Vec::new();
        if let Some(w) = &conv.webhook {
            if let Some(cc) = &w.client_config {
                if let Some(s) = &cc.service {
                    args.push(marker("service_name", str(&s.name)));
                    args.push(marker("service_namespace", str(&s.namespace)));
                    if let Some(p) = &s.path {
                        args.push(marker("path", str(p)));
                    }
                    if let Some(p) = s.port {
                        args.push(marker("service_port", MarkerValue::Count(p.into())));
                    }
                }
                if let Some(u) = &cc.url {
                    args.push(marker("url", str(u)));
                }
            }
            args.push(marker(
                "review_versions",
                MarkerValue::List(w.conversion_review_versions.clone()),
            ));
        }
        m.push(marker(
            "conversion",
            MarkerValue::Nested(vec![marker("webhook", MarkerValue::Nested(args))]),
        ));
    }
    m
}

/// Whether `allOf: [base, over]` is what kubegen's merge of a field's keys over its type's
/// writes: the same validation keywords on both sides, nothing else.
fn is_merge_pair(base: &JSONSchemaProps, over: &JSONSchemaProps) -> bool {
    let validation_only = |s: &JSONSchemaProps| {
        let rest = JSONSchemaProps {
            enum_: None,
            maximum: None,
            exclusive_maximum: None,
            minimum: None,
            exclusive_minimum: None,
            multiple_of: None,
            max_length: None,
            min_length: None,
            pattern: None,
            max_items: None,
            min_items: None,
            max_properties: None,
            min_properties: None,
            ..s.clone()
        };
        rest == JSONSchemaProps::default()
    };
    let keywords = |s: &JSONSchemaProps| {
        [
            s.enum_.is_some(),
            s.maximum.is_some(),
            s.minimum.is_some(),
            s.multiple_of.is_some(),
            s.max_length.is_some(),
            s.min_length.is_some(),
            s.pattern.is_some(),
            s.max_items.is_some(),
            s.min_items.is_some(),
            s.max_properties.is_some(),
            s.min_properties.is_some(),
        ]
    };
    validation_only(base) && validation_only(over) && keywords(base) == keywords(over)
}

/// The values of a string enum that become Rust variants: all strings, each a distinct,
/// non-empty Rust name.
fn string_enum(node: &JSONSchemaProps) -> Option<Vec<String>> {
    let values: Vec<Value> = node.enum_.as_ref()?.iter().map(|v| v.0.clone()).collect();
    enum_variants(&values).filter(|_| node.nullable != Some(true))
}

/// `values` when a Rust enum can hold them: all strings, each variant a distinct Rust name
/// that does not start with a digit (see [`variants`]).
pub fn enum_variants(values: &[Value]) -> Option<Vec<String>> {
    let values: Vec<String> = values
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect::<Option<_>>()?;
    let mut names: Vec<String> = values.iter().map(|v| pascal(v)).collect();
    if names
        .iter()
        .any(|n| n.is_empty() || n.starts_with(|c: char| c.is_ascii_digit()))
    {
        return None;
    }
    names.sort();
    names.dedup();
    (!values.is_empty() && names.len() == values.len()).then_some(values)
}

/// The variants of a string enum of `values`: each value's Rust name, and the value when serde
/// must rename the variant to it.
pub fn variants(values: &[String]) -> Vec<(String, Option<String>)> {
    values
        .iter()
        .map(|v| {
            let r = pascal(v);
            let rename = (r != *v).then(|| v.clone());
            (r, rename)
        })
        .collect()
}

fn rename_item(mut item: Item, name: &str) -> Item {
    match &mut item {
        Item::Struct(s) => s.name = name.to_string(),
        Item::Enum(e) => e.name = name.to_string(),
        Item::Newtype(n) => n.name = name.to_string(),
    }
    item
}

/// Whether a description is what controller-gen's comment rules make of `///` lines holding
/// its lines (else it goes in a `description` key).
pub fn as_doc_comment(text: &str) -> bool {
    let lines: Vec<String> = text.split('\n').map(|l| format!(" {l}")).collect();
    let comments: Vec<Comment> = lines.iter().map(|l| Comment::Line(l)).collect();
    description(&comments).as_deref() == Some(text)
}

/// A JSON name as a Rust type name's part: `privateKey` → `PrivateKey`, `tls-cert` → `TlsCert`.
pub fn pascal(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.extend(c.to_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    out
}

/// A JSON name as a Rust field name: `privateKey` → `private_key`, `type` → `type_`.
pub fn rust_name(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
            if !out.is_empty() && !out.ends_with('_') && (prev_lower || (prev_upper && next_lower))
            {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let mut out = out.trim_matches('_').to_string();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if syn::parse_str::<syn::Ident>(&out).is_err() {
        out.push('_');
    }
    out
}

/// What serde's `rename_all = "camelCase"` makes of a Rust field name, by the engine's rule.
fn camel(rust: &str) -> String {
    RenameRule::Camel.apply_to_field(rust)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_json_names() {
        assert_eq!(rust_name("privateKey"), "private_key");
        assert_eq!(rust_name("podCIDR"), "pod_cidr");
        assert_eq!(rust_name("type"), "type_");
        assert_eq!(rust_name("x-kubernetes-foo"), "x_kubernetes_foo");
        assert_eq!(camel("private_key"), "privateKey");
        assert_eq!(camel("type_"), "type");
        assert_eq!(pascal("privateKey"), "PrivateKey");
        assert_eq!(pascal("tls-cert"), "TlsCert");
    }

    /// A CRD of kind `Widget` whose spec has these properties.
    fn widget(spec: Value) -> CustomResourceDefinition {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"kind": "Widget", "plural": "widgets"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object",
                        "properties": {"spec": spec}}}}]}
        }))
        .unwrap()
    }

    /// The first version's `openAPIV3Schema`.
    fn root_of(crd: &mut CustomResourceDefinition) -> &mut JSONSchemaProps {
        let version = &mut crd.spec.versions[0];
        let schema = version.schema.as_mut().unwrap();
        schema.open_api_v3_schema.as_mut().unwrap()
    }

    /// The resource keys of the first version's spec struct.
    fn resource_of(crd: &CustomResourceDefinition) -> Vec<Marker> {
        let Item::Struct(spec) = &import(crd, &Known::default()).unwrap().modules[0].items[0]
        else {
            panic!()
        };
        spec.resource.clone().unwrap_or_default()
    }

    fn names(module: &Module) -> Vec<&str> {
        module
            .items
            .iter()
            .map(|i| match i {
                Item::Struct(s) => s.name.as_str(),
                Item::Enum(e) => e.name.as_str(),
                Item::Newtype(n) => n.name.as_str(),
            })
            .collect()
    }

    #[test]
    fn equal_subtrees_share_the_first_ones_type_named_after_its_path() {
        let port = serde_json::json!({"type": "object", "required": ["port"],
            "properties": {"port": {"type": "integer", "format": "int32", "minimum": 1}}});
        let mut primary = port.clone();
        primary["description"] = "The first.".into();
        let crd = widget(
            serde_json::json!({"type": "object", "required": ["primary"],
            "properties": {
                "primary": primary,
                "secondary": port,
                "mode": {"type": "string", "enum": ["fast", "slow-start"]}
            }}),
        );
        let module = &import(&crd, &Known::default()).unwrap().modules[0];
        assert_eq!(
            names(module),
            ["WidgetSpec", "WidgetSpecMode", "WidgetSpecPrimary"]
        );
        let Item::Struct(spec) = &module.items[0] else {
            panic!()
        };
        let ty = |name: &str| &spec.fields.iter().find(|f| f.rust == name).unwrap().ty;
        assert_eq!(*ty("primary"), Ty::Named("WidgetSpecPrimary".into()));
        let shared = Ty::Option(Box::new(Ty::Named("WidgetSpecPrimary".into())));
        assert_eq!(*ty("secondary"), shared);
        let Item::Enum(mode) = &module.items[1] else {
            panic!()
        };
        let variants = [
            ("Fast".into(), Some("fast".into())),
            ("SlowStart".into(), Some("slow-start".into())),
        ];
        assert_eq!(mode.variants, variants);
    }

    #[test]
    fn a_spec_the_root_does_not_require_is_optional() {
        let optional = |crd: &_| resource_of(crd).contains(&marker("optional", MarkerValue::Flag));
        let mut crd = widget(serde_json::json!({"type": "object"}));
        assert!(optional(&crd));
        root_of(&mut crd).required = Some(vec!["spec".into()]);
        assert!(!optional(&crd));
    }

    #[test]
    fn the_status_subresource_is_written_where_it_and_the_status_go_apart() {
        let keys = |crd: &_| {
            let resource = resource_of(crd).into_iter();
            resource
                .filter(|m| m.key.starts_with("status"))
                .collect::<Vec<_>>()
        };
        let status = MarkerValue::Str("WidgetStatus".into());
        let mut crd = widget(serde_json::json!({"type": "object"}));
        let root = root_of(&mut crd);
        let props = root.properties.as_mut().unwrap();
        props.insert(
            "status".into(),
            serde_json::from_value(serde_json::json!({"type": "object"})).unwrap(),
        );
        let alone = [
            marker("status", status.clone()),
            marker("status_subresource", MarkerValue::False),
        ];
        assert_eq!(keys(&crd), alone);
        crd.spec.versions[0].subresources =
            Some(serde_json::from_value(serde_json::json!({"status": {}})).unwrap());
        assert_eq!(keys(&crd), [marker("status", status)]);
        let root = root_of(&mut crd);
        root.properties.as_mut().unwrap().remove("status");
        assert_eq!(
            keys(&crd),
            [marker("status_subresource", MarkerValue::Flag)]
        );
    }

    #[test]
    fn descriptions_controller_gen_cannot_write_go_in_a_key() {
        assert!(as_doc_comment("A plain line.\n\nAnd another."));
        assert!(!as_doc_comment("+marker-looking line"));
        assert!(!as_doc_comment("cut\n---\nbelow"));
        assert!(!as_doc_comment("trailing space "));
    }
}
