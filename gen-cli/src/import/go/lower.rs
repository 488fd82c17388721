//! A Go API package into the import's model (`import::model`): each kind's spec struct (a kind
//! is a struct with `metav1.TypeMeta` and `ObjectMeta`) carries the resource keys (the kind's
//! markers, the package's `+groupName` and `+versionName`, its doc as `doc`), and every type
//! reachable from a spec or status becomes a
//! struct or a `#[serde(transparent)]` newtype (Go's named types) with its markers as keys.
//! What has no Rust form is reported at its Go `file:line:col` and kept as a note.

use std::collections::{BTreeMap, BTreeSet};

use kubegen_core::model::RenameRule;
use serde_json::Value;

use super::super::model::{
    Field, Item, Marker, MarkerValue, Module, Newtype, Struct, Ty, as_doc_comment, rust_name,
};
use super::keys::{Keys, dedup, items_key, key, merge_items, note, string};
use super::markers::{self, Marker as GoMarker};
use super::parse::{self, Loc, Type, TypeDecl};
use super::{docs, keys, resource, types};

/// One Go package: its files' declarations merged.
#[derive(Debug, Default)]
pub struct Package {
    /// The package name (the version when `+versionName` is absent).
    pub name: String,
    /// Package-level markers.
    pub markers: Vec<GoMarker>,
    /// The type declarations by name, each with its file's imports.
    pub types: BTreeMap<String, (TypeDecl, BTreeMap<String, String>)>,
    /// Their names in source order.
    pub order: Vec<String>,
    /// Typed string constants: (type, value).
    pub constants: Vec<(String, String)>,
    /// Methods by receiver type: (name, where).
    pub methods: BTreeMap<String, Vec<(String, Loc)>>,
}

/// Markers that describe a package only: above a type's doc comment (not in it) they are the
/// package's, as controller-tools re-associates them.
const PACKAGE_ONLY: &[&str] = &[
    "groupName",
    "versionName",
    "kubebuilder:validation:Optional",
    "kubebuilder:validation:Required",
    "kubebuilder:skip",
    "kubebuilder:object:generate",
    "kubebuilder:rbac",
    "kubebuilder:webhook",
];

impl Package {
    /// Adds one file's declarations.
    pub fn add(&mut self, file: parse::File) {
        if self.name.is_empty() {
            self.name = file.package.clone();
        }
        self.markers
            .extend(markers::of(&file.package_comments.before));
        self.markers.extend(markers::of(&file.package_comments.doc));
        self.markers.extend(markers::of(&file.free));
        for mut decl in file.types {
            let (package, kept): (Vec<_>, Vec<_>) =
                decl.comments.before.into_iter().partition(|c| {
                    markers::of(std::slice::from_ref(c))
                        .first()
                        .is_some_and(|m| PACKAGE_ONLY.contains(&m.name.as_str()))
                });
            self.markers.extend(markers::of(&package));
            decl.comments.before = kept;
            self.order.push(decl.name.clone());
            self.types
                .insert(decl.name.clone(), (decl, file.imports.clone()));
        }
        self.constants.extend(file.constants);
        for (ty, name, at) in file.methods {
            self.methods.entry(ty).or_default().push((name, at));
        }
    }

    fn marker(&self, name: &str) -> Option<&GoMarker> {
        self.markers.iter().find(|m| m.name == name)
    }
}

/// The input packages other packages may import: by Go import path (from a `go.mod`), or by
/// folder, the package's index and the Rust module its types go to.
#[derive(Debug, Default)]
pub struct Imports {
    by_path: BTreeMap<String, (usize, String)>,
    /// Packages without a `go.mod` above them: their folders' components, last first.
    by_dir: Vec<(Vec<String>, usize, String)>,
}

impl Imports {
    /// Package `index`, imported as `path`, has its types in the module `module`.
    pub fn add(&mut self, path: String, index: usize, module: String) {
        self.by_path.insert(path, (index, module));
    }

    /// Package `index`, in the folder `dir` with no `go.mod` above it, has its types in
    /// `module`.
    pub fn add_dir(&mut self, dir: &std::path::Path, index: usize, module: String) {
        let parts = dir
            .components()
            .rev()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        self.by_dir.push((parts, index, module));
    }

    /// The package imported as `path`: by its import path, else the one folder whose path
    /// ends with the most of `path`'s components (two at least: `apis/v1`).
    fn get(&self, path: &str) -> Option<(usize, &str)> {
        if let Some((index, module)) = self.by_path.get(path) {
            return Some((*index, module));
        }
        let wanted: Vec<&str> = path.rsplit('/').collect();
        let common = |parts: &[String]| {
            parts
                .iter()
                .zip(&wanted)
                .take_while(|(a, b)| a == *b)
                .count()
        };
        let best = self.by_dir.iter().map(|(p, _, _)| common(p)).max()?;
        let mut matching = self.by_dir.iter().filter(|(p, _, _)| common(p) == best);
        match (matching.next(), matching.next()) {
            (Some((_, index, module)), None) if best >= 2 => Some((*index, module)),
            _ => None,
        }
    }
}

/// The group and version of a package: `None` without `+groupName` or with
/// `+kubebuilder:skip`.
pub fn group_version(package: &Package) -> Option<(String, String)> {
    let group = package
        .marker("groupName")
        .and_then(|m| m.arg(""))
        .map(string)?;
    if package.marker("kubebuilder:skip").is_some() {
        return None;
    }
    let version = package
        .marker("versionName")
        .and_then(|m| m.arg(""))
        .map(string)
        .unwrap_or_else(|| package.name.clone());
    Some((group, version))
}

/// The modules of some packages (`None` for one without a group, see [`group_version`]), and
/// the warnings (each at its Go location). A type of another input package (in `imports`) is
/// that package's type, lowered there.
pub fn modules(packages: &[Package], imports: &Imports) -> (Vec<Option<Module>>, Vec<String>) {
    let mut lowers: Vec<Option<Lower>> = packages
        .iter()
        .map(|package| {
            let (group, version) = group_version(package)?;
            let module = super::super::module_name(&group, &version);
            let mut lower = Lower {
                package,
                imports,
                module,
                items: Vec::new(),
                done: BTreeSet::new(),
                warnings: Vec::new(),
                wanted: Vec::new(),
                optional_default: package.marker("kubebuilder:validation:Optional").is_some(),
            };
            for name in &package.order {
                let (decl, _) = &package.types[name];
                if let Some(fields) = kind_fields(decl) {
                    lower.root(decl, fields, &group, &version, None);
                }
            }
            Some(lower)
        })
        .collect();
    // A kind that is another package's kind (`type HTTPRoute v1.HTTPRoute`), its spec
    // lowered by that package.
    for (index, package) in packages.iter().enumerate() {
        let Some((group, version)) = group_version(package) else {
            continue;
        };
        for name in &package.order {
            let (decl, file_imports) = &package.types[name];
            let Type::Qualified(p, kind) = &decl.ty else {
                continue;
            };
            let path = file_imports.get(p).cloned().unwrap_or_else(|| p.clone());
            let Some((other, _)) = imports.get(&path) else {
                continue;
            };
            let Some(fields) = packages[other]
                .types
                .get(kind)
                .and_then(|(d, _)| kind_fields(d))
            else {
                continue;
            };
            let (Some(mut this), Some(mut that)) = (lowers[index].take(), lowers[other].take())
            else {
                continue;
            };
            this.root(decl, fields, &group, &version, Some(&mut that));
            lowers[index] = Some(this);
            lowers[other] = Some(that);
        }
    }
    // The types other packages use, until none is new.
    loop {
        let wanted: Vec<(usize, String)> = lowers
            .iter_mut()
            .flatten()
            .flat_map(|l| std::mem::take(&mut l.wanted))
            .collect();
        if wanted.is_empty() {
            break;
        }
        for (index, name) in wanted {
            if let Some(Some(lower)) = lowers.get_mut(index) {
                lower.queue(&name);
            }
        }
    }
    let mut warnings = Vec::new();
    let modules = lowers
        .into_iter()
        .zip(packages)
        .map(|(lower, package)| {
            let lower = lower?;
            warnings.extend(lower.warnings);
            let (group, version) = group_version(package)?;
            Some(Module {
                group,
                version,
                items: lower.items,
            })
        })
        .collect();
    (modules, warnings)
}

/// A kind's fields; `None` for a type that is no kind. A kind, as controller-gen finds them, is
/// a struct embedding `metav1.TypeMeta` with an `metav1.ObjectMeta` field (a `...List`'s is a
/// `ListMeta`); its `+kubebuilder:object:root` is deepcopy's, not the CRD generator's.
fn kind_fields(decl: &TypeDecl) -> Option<&[parse::Field]> {
    let Type::Struct(fields) = &decl.ty else {
        return None;
    };
    let has = |name: &str| {
        fields
            .iter()
            .any(|f| matches!(&f.ty, Type::Qualified(_, n) if n == name))
    };
    (has("TypeMeta") && has("ObjectMeta")).then_some(fields.as_slice())
}

/// A struct tag's `json` part: (name, options).
fn json_tag(tag: Option<&str>) -> Option<(String, Vec<String>)> {
    let tag = tag?;
    let start = tag.find("json:\"")? + 6;
    let end = tag[start..].find('"')? + start;
    let mut parts = tag[start..end].split(',');
    let name = parts.next().unwrap_or_default().to_string();
    Some((name, parts.map(str::to_string).collect()))
}

struct Lower<'a> {
    package: &'a Package,
    /// The other input packages.
    imports: &'a Imports,
    /// The name of the module this package's types go to.
    module: String,
    items: Vec<Item>,
    done: BTreeSet<String>,
    warnings: Vec<String>,
    /// The types of other input packages this one uses: (package index, type name).
    wanted: Vec<(usize, String)>,
    optional_default: bool,
}

impl Lower<'_> {
    fn warn(&mut self, at: &Loc, message: &str) -> Marker {
        self.warnings.push(format!("{at}: {message}"));
        note(format!("{message} ({at})"))
    }

    fn type_markers(&self, decl: &TypeDecl) -> Vec<GoMarker> {
        let mut m = markers::of(&decl.comments.before);
        m.extend(markers::of(&decl.comments.doc));
        m
    }

    /// A kind: its spec struct with the resource keys, its status type. `fields` are its
    /// struct's: `other`'s, lowered by `other`, for a kind that is another package's kind.
    fn root(
        &mut self,
        decl: &TypeDecl,
        fields: &[parse::Field],
        group: &str,
        version: &str,
        mut other: Option<&mut Lower>,
    ) {
        let field = |name: &str| fields.iter().find(|f| f.name.as_deref() == Some(name));
        let local = |f: &parse::Field| match &f.ty {
            Type::Name(n) => Some(n.clone()),
            Type::Pointer(inner) => match inner.as_ref() {
                Type::Name(n) => Some(n.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some((spec_field, spec)) = field("Spec").and_then(|f| Some((f, local(f)?))) else {
            self.warn(
                &decl.loc,
                "a root type without a `Spec` field of a type of its package: kubegen's \
                 `CustomResource` goes on a spec struct; left out",
            );
            return;
        };
        let str = |s: &str| MarkerValue::Str(s.to_string());
        let mut resource = vec![
            key("group", str(group)),
            key("version", str(version)),
            key("kind", str(&decl.name)),
        ];
        for f in fields {
            let known = matches!(f.name.as_deref(), Some("Spec" | "Status"))
                || matches!(&f.ty, Type::Qualified(_, n) if n == "TypeMeta" || n == "ObjectMeta");
            if !known {
                let name = f.name.clone().unwrap_or_else(|| format!("{:?}", f.ty));
                let w = self.warn(
                    &f.loc,
                    &format!("root field `{name}` besides spec and status: no key adds it"),
                );
                resource.push(w);
            }
        }
        let status = field("Status").and_then(local);
        // The status type's path from this module.
        let status_path = |s: &str| match &other {
            Some(o) => format!("super::{}::{}", o.module, rust_type(s)),
            None => rust_type(s),
        };
        let markers = self.type_markers(decl);
        let (resource_keys, has_status_subresource) =
            resource::keys(&markers, &mut |at, message| self.warn(at, message));
        resource.extend(resource_keys);
        if self.package.marker("kubebuilder:skipversion").is_some() {
            resource.push(key("skip_version", MarkerValue::Flag));
        }
        match (&status, has_status_subresource) {
            (Some(s), true) => resource.insert(3, key("status", str(&status_path(s)))),
            (Some(_), false) => {
                let w = self.warn(
                    &decl.loc,
                    "a `Status` field without `+kubebuilder:subresource:status`: kubegen's \
                     `status` key adds both; the status subresource is added",
                );
                resource.push(w);
                if let Some(s) = &status {
                    resource.insert(3, key("status", str(&status_path(s))));
                }
            }
            (None, true) => {
                let w = self.warn(&decl.loc, "the status subresource without a `Status` field");
                resource.push(w);
            }
            (None, false) => {}
        }
        if let Some(doc) = docs::of(&decl.comments.doc) {
            resource.push(key("doc", MarkerValue::Str(doc)));
        }
        let made = match other.as_deref_mut() {
            Some(o) => o.decl(&spec).map(|item| o.exported(item)),
            None => self.decl(&spec),
        };
        let Some(mut item) = made else {
            return;
        };
        if let Item::Struct(s) = &mut item {
            if let Some(doc) = docs::of(&spec_field.comments.doc) {
                s.doc = Some(doc);
            }
            // A marker given twice (in the doc comment and above it) is one key.
            let mut unique: Vec<Marker> = Vec::new();
            for k in resource {
                if !unique.contains(&k) {
                    unique.push(k);
                }
            }
            s.resource = Some(unique);
        } else {
            self.warn(&decl.loc, "the spec type is not a struct");
        }
        self.items.push(item);
        if let Some(o) = other {
            // The other package's kind gives its status type the doc.
            if let Some(s) = status {
                o.queue(&s);
            }
            return;
        }
        if let Some(s) = status {
            self.queue(&s);
            let field_doc = field("Status").and_then(|f| docs::of(&f.comments.doc));
            if let (Some(doc), Some(Item::Struct(st))) = (
                field_doc,
                self.items
                    .iter_mut()
                    .find(|i| matches!(i, Item::Struct(st) if st.name == rust_type(&s))),
            ) {
                st.doc = Some(doc);
            }
        }
    }

    /// An item of this package as another module names it: each type of this module
    /// through `super::<module>::`.
    fn exported(&self, item: Item) -> Item {
        let Item::Struct(mut s) = item else {
            return item;
        };
        for f in &mut s.fields {
            f.ty = qualified(&f.ty, &self.module);
        }
        Item::Struct(s)
    }

    /// Lowers the named local type, once.
    fn queue(&mut self, name: &str) {
        if self.done.contains(name) {
            return;
        }
        if let Some(item) = self.decl(name) {
            self.items.push(item);
        }
    }

    /// The item of a local type (its dependencies queued on the way).
    fn decl(&mut self, name: &str) -> Option<Item> {
        self.done.insert(name.to_string());
        let (decl, imports) = self.package.types.get(name)?;
        let decl = decl.clone();
        let markers = self.type_markers(&decl);
        let mut keys = self.keys(&markers, false);
        let doc = docs::of(&decl.comments.doc);
        let methods: Vec<(String, Loc)> =
            self.package.methods.get(name).cloned().unwrap_or_default();
        let marshal_json = methods.iter().find(|(m, _)| m == "MarshalJSON");
        let marshal_text = methods.iter().any(|(m, _)| m == "MarshalText");
        let schema_type = keys
            .keys
            .iter()
            .find(|k| k.key == "schema_type")
            .map(|k| k.value.clone());
        if let Some((_, at)) = marshal_json {
            let at = at.clone();
            let w = self.warn(
                &at,
                &format!(
                    "`{name}` has a custom MarshalJSON: its Rust type serializes as its Go \
                     fields; its schema is {}",
                    if schema_type.is_some() {
                        "its markers' type"
                    } else {
                        "inferred from its fields, as controller-gen does"
                    }
                ),
            );
            keys.keys.insert(0, w);
        }
        // A struct whose JSON is not its fields: a newtype of the scalar its markers say.
        let scalar = match (&schema_type, marshal_text && marshal_json.is_none()) {
            (Some(MarkerValue::Str(t)), _) if matches!(decl.ty, Type::Struct(_)) => Some(t.clone()),
            (_, true) => Some("string".to_string()),
            _ => None,
        };
        if let Some(t) = scalar {
            let ty = match t.as_str() {
                "string" => Ty::Path("String"),
                "integer" => Ty::Path("i64"),
                "number" => Ty::Path("f64"),
                "boolean" => Ty::Path("bool"),
                _ => Ty::Path("serde_json::Value"),
            };
            if marshal_text && schema_type.is_none() {
                keys.keys.push(key("schema_type", MarkerValue::Str(t)));
            }
            return Some(Item::Newtype(Newtype {
                name: rust_type(name),
                ty,
                doc,
                markers: keys.keys,
            }));
        }
        if let Type::Struct(fields) = &decl.ty {
            let fields = self.fields(name, fields, imports);
            keys.keys.extend(items_key(keys.items));
            return Some(Item::Struct(strukt(
                &rust_type(name),
                doc,
                keys.keys,
                fields,
            )));
        }
        let (mut ty, type_keys) = self.ty(&decl.ty, imports, &format!("{name}Item"), &decl.loc);
        if let Ty::Option(inner) = ty {
            ty = *inner;
        }
        if markers.iter().any(|m| m.name == "k8s:enum") {
            let values: Vec<Value> = self
                .package
                .constants
                .iter()
                .filter(|(t, _)| t == name)
                .map(|(_, v)| Value::String(v.clone()))
                .collect();
            keys.keys
                .push(key("enum_values", MarkerValue::Json(Value::Array(values))));
        }
        let mut all = type_keys.keys;
        all.extend(keys.keys);
        all.extend(items_key(merge_items(type_keys.items, keys.items)));
        Some(Item::Newtype(Newtype {
            name: rust_type(name),
            ty,
            doc,
            markers: dedup(all),
        }))
    }

    /// A struct's fields (embedded ones flattened).
    fn fields(
        &mut self,
        owner: &str,
        fields: &[parse::Field],
        imports: &BTreeMap<String, String>,
    ) -> Vec<(String, Field)> {
        let mut out: Vec<(String, Field)> = Vec::new();
        for f in fields {
            let tag = json_tag(f.tag.as_deref());
            if tag.as_ref().is_some_and(|(n, _)| n == "-") {
                continue;
            }
            let (json, options) = tag.unwrap_or_default();
            let markers = {
                let mut m = markers::of(&f.comments.before);
                m.extend(markers::of(&f.comments.doc));
                m
            };
            let Some(go_name) = &f.name else {
                if json.is_empty() || options.iter().any(|o| o == "inline") {
                    if let Some(field) = self.embedded(f, imports) {
                        out.push((String::new(), field));
                    }
                    continue;
                }
                let name = embedded_name(&f.ty);
                let field = self.field(owner, &name, &json, &options, f, &markers, imports);
                out.push((json, field));
                continue;
            };
            if !go_name.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue;
            }
            let json = if json.is_empty() {
                go_name.clone()
            } else {
                json
            };
            let field = self.field(owner, go_name, &json, &options, f, &markers, imports);
            out.push((json, field));
        }
        out
    }

    /// An embedded struct, flattened; `None` for `metav1.TypeMeta` (kubegen writes it).
    fn embedded(&mut self, f: &parse::Field, imports: &BTreeMap<String, String>) -> Option<Field> {
        let inner = match &f.ty {
            Type::Pointer(t) => t.as_ref(),
            t => t,
        };
        if matches!(inner, Type::Qualified(_, n) if n == "TypeMeta") {
            return None;
        }
        let (ty, keys) = match inner {
            Type::Name(n) => {
                let target = self.alias_target(n);
                self.queue(&target);
                (Ty::Named(rust_type(&target)), Keys::default())
            }
            other => self.ty(other, imports, "Embedded", &f.loc),
        };
        let mut markers = keys.keys;
        if !markers.is_empty() && !matches!(ty, Ty::Named(_)) {
            let w = self.warn(&f.loc, "an embedded field of a type with keys");
            markers.insert(0, w);
        }
        Some(Field {
            rust: rust_name(&embedded_name(&f.ty)),
            rename: None,
            ty,
            doc: None,
            markers,
            flatten: true,
            feature: None,
        })
    }

    /// `type A = B`'s `B`, for a local alias of a local type.
    fn alias_target(&self, name: &str) -> String {
        match self.package.types.get(name) {
            Some((d, _)) if d.alias => match &d.ty {
                Type::Name(n) => self.alias_target(n),
                _ => name.to_string(),
            },
            _ => name.to_string(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn field(
        &mut self,
        owner: &str,
        go_name: &str,
        json: &str,
        options: &[String],
        f: &parse::Field,
        markers: &[GoMarker],
        imports: &BTreeMap<String, String>,
    ) -> Field {
        let keys = self.keys(markers, true);
        let hint = format!("{owner}{go_name}");
        let (ty, type_keys) = self.ty(&f.ty, imports, &hint, &f.loc);
        let omits = options.iter().any(|o| o == "omitempty" || o == "omitzero");
        let optional = keys.optional.unwrap_or(self.optional_default || omits);
        let is_object = matches!(&ty, Ty::Map(_))
            || matches!(&ty, Ty::Named(n) if matches!(self.package.types.get(n), Some((d, _)) if matches!(d.ty, Type::Struct(_) | Type::Map(..))));
        let ty = match ty {
            Ty::Option(inner) => *inner,
            t => t,
        };
        let ty = if optional {
            Ty::Option(Box::new(ty))
        } else {
            ty
        };
        let mut doc = docs::of(&f.comments.doc);
        let mut all: Vec<Marker> = Vec::new();
        for k in type_keys.keys {
            let described = k.key == "description" && doc.is_some();
            if !described && !keys.keys.iter().any(|f| f.key == k.key) {
                all.push(k);
            }
        }
        for mut k in keys.keys {
            // `{}` is an empty slice to the marker parser, an empty object to an object field.
            if is_object && k.key == "default" && k.value == MarkerValue::Json(Value::Array(vec![]))
            {
                k.value = MarkerValue::Json(Value::Object(Default::default()));
            }
            all.push(k);
        }
        all.extend(items_key(merge_items(type_keys.items, keys.items)));
        if let Some(d) = doc.clone().filter(|d| !as_doc_comment(d)) {
            all.push(key("description", MarkerValue::Str(d)));
            doc = None;
        }
        Field {
            rust: rust_name(json),
            rename: Some(json.to_string()),
            ty,
            doc,
            markers: dedup(all),
            flatten: false,
            feature: docs::experimental(&f.comments.doc).then(|| "experimental".to_string()),
        }
    }

    /// A Go type's Rust type and the keys its field carries (for a slice, its items' under
    /// `items`).
    fn ty(
        &mut self,
        t: &Type,
        imports: &BTreeMap<String, String>,
        hint: &str,
        at: &Loc,
    ) -> (Ty, Keys) {
        let plain = |(ty, keys): types::Mapped| {
            (
                ty,
                Keys {
                    keys,
                    ..Keys::default()
                },
            )
        };
        match t {
            Type::Name(n) => {
                if let Some(m) = types::predeclared(n) {
                    return plain(m);
                }
                let Some((decl, _)) = self.package.types.get(n) else {
                    let w = self.warn(at, &format!("unknown type `{n}`: a `serde_json::Value`"));
                    return plain((Ty::Path("serde_json::Value"), vec![w]));
                };
                // An alias with markers is a schema of its own (the field's keys over it).
                if decl.alias && self.type_markers(decl).is_empty() {
                    let decl = decl.clone();
                    let (ty, mut keys) = self.ty(&decl.ty, imports, hint, at);
                    let markers = self.type_markers(&decl);
                    let own = self.keys(&markers, false);
                    keys.keys.extend(own.keys);
                    keys.items.extend(own.items);
                    return (ty, keys);
                }
                self.queue(n);
                (Ty::Named(rust_type(n)), Keys::default())
            }
            Type::Qualified(p, n) => {
                let path = imports.get(p).cloned().unwrap_or_else(|| p.clone());
                if let Some((index, module)) = self.imports.get(&path) {
                    self.wanted.push((index, n.clone()));
                    let ty = if module == self.module {
                        Ty::Named(rust_type(n))
                    } else {
                        Ty::Extern(format!("super::{module}::{}", rust_type(n)))
                    };
                    return (ty, Keys::default());
                }
                match types::qualified(&path, n) {
                    Ok(m) => plain(m),
                    Err(why) => {
                        let w = self.warn(at, &format!("{why}: a `serde_json::Value`"));
                        plain((Ty::Path("serde_json::Value"), vec![w]))
                    }
                }
            }
            Type::Pointer(inner) => self.ty(inner, imports, hint, at),
            Type::Slice(inner) | Type::Array(inner) => {
                if matches!(inner.as_ref(), Type::Name(n) if n == "byte") {
                    return plain(types::bytes());
                }
                let (ity, mut ikeys) = self.ty(inner, imports, hint, at);
                let mut ity = strip_option(ity);
                // `items(schema_type = ...)` keeps the Rust type's `format`: a newtype's does not.
                if ikeys.keys.iter().any(|k| k.key == "schema_type") {
                    let keys = std::mem::take(&mut ikeys.keys);
                    ity = self.wrapper(format!("{hint}Item"), ity, keys);
                }
                let ty = Ty::Vec(Box::new(ity));
                (
                    ty,
                    Keys {
                        keys: Vec::new(),
                        items: ikeys.keys,
                        optional: None,
                    },
                )
            }
            Type::Map(_, value) => {
                let (vty, vkeys) = self.ty(value, imports, &format!("{hint}Value"), at);
                let mut vty = strip_option(vty);
                let mut value_keys = vkeys.keys;
                value_keys.extend(items_key(vkeys.items));
                if !value_keys.is_empty() {
                    // A map's values take keys through a type of their own.
                    vty = self.wrapper(format!("{hint}Value"), vty, value_keys);
                }
                plain((Ty::Map(Box::new(vty)), Vec::new()))
            }
            Type::Struct(fields) => {
                let fields = self.fields(hint, fields, imports);
                self.done.insert(hint.to_string());
                self.items
                    .push(Item::Struct(strukt(hint, None, Vec::new(), fields)));
                (Ty::Named(hint.to_string()), Keys::default())
            }
            Type::Other(text) => {
                let w = self.warn(
                    at,
                    &format!("`{text}` has no schema: a `serde_json::Value`"),
                );
                plain((Ty::Path("serde_json::Value"), vec![w]))
            }
        }
    }

    /// The schema keys of some markers at a field (`field`) or a type.
    fn keys(&mut self, markers: &[GoMarker], field: bool) -> Keys {
        keys::schema(markers, field, &mut |at, message| self.warn(at, message))
    }

    /// A newtype `name` of `ty` carrying `markers` (made once), as a type.
    fn wrapper(&mut self, name: String, ty: Ty, markers: Vec<Marker>) -> Ty {
        if self.done.insert(name.clone()) {
            self.items.push(Item::Newtype(Newtype {
                name: name.clone(),
                ty,
                doc: None,
                markers,
            }));
        }
        Ty::Named(name)
    }
}

/// `t` with each type of the module `module` named through `super::<module>::`.
fn qualified(t: &Ty, module: &str) -> Ty {
    match t {
        Ty::Named(n) => Ty::Extern(format!("super::{module}::{n}")),
        Ty::Vec(inner) => Ty::Vec(Box::new(qualified(inner, module))),
        Ty::Map(inner) => Ty::Map(Box::new(qualified(inner, module))),
        Ty::Option(inner) => Ty::Option(Box::new(qualified(inner, module))),
        other => other.clone(),
    }
}

fn strip_option(t: Ty) -> Ty {
    match t {
        Ty::Option(inner) => *inner,
        t => t,
    }
}

/// A Go type's name as a Rust type's: its first letter upper case (`unexportedStruct`).
fn rust_type(go: &str) -> String {
    let mut chars = go.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// An embedded field's Go name: its type's name.
fn embedded_name(t: &Type) -> String {
    match t {
        Type::Name(n) | Type::Qualified(_, n) => n.clone(),
        Type::Pointer(inner) => embedded_name(inner),
        _ => "embedded".into(),
    }
}

/// A struct of fields, named `rename_all = "camelCase"` when most JSON names are what it
/// makes of their Rust names; Rust names made unique.
fn strukt(
    name: &str,
    doc: Option<String>,
    markers: Vec<Marker>,
    fields: Vec<(String, Field)>,
) -> Struct {
    let camel = |rust: &str| RenameRule::Camel.apply_to_field(rust);
    let named: Vec<&(String, Field)> = fields.iter().filter(|(_, f)| !f.flatten).collect();
    let camel_case = !named.is_empty()
        && named.iter().filter(|(j, f)| camel(&f.rust) == *j).count() * 2 > named.len();
    let mut seen = BTreeSet::new();
    let fields = fields
        .into_iter()
        .map(|(json, mut f)| {
            let mut rust = f.rust.clone();
            let mut n = 2;
            while !seen.insert(rust.clone()) {
                rust = format!("{}_{n}", f.rust);
                n += 1;
            }
            f.rust = rust;
            if !f.flatten {
                let made = if camel_case {
                    camel(&f.rust)
                } else {
                    f.rust.clone()
                };
                f.rename = (made != json).then_some(json);
            }
            f
        })
        .collect();
    Struct {
        name: name.to_string(),
        doc,
        resource: None,
        markers,
        camel_case,
        fields,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module of one Go file.
    fn lower(source: &str) -> (Module, Vec<String>) {
        let mut package = Package::default();
        package.add(parse::file("t.go", source).unwrap());
        let (mut modules, warnings) = modules(&[package], &Imports::default());
        (modules.remove(0).unwrap(), warnings)
    }

    fn item<'m>(m: &'m Module, name: &str) -> &'m Item {
        m.items
            .iter()
            .find(|i| match i {
                Item::Struct(s) => s.name == name,
                Item::Newtype(n) => n.name == name,
                Item::Enum(e) => e.name == name,
            })
            .unwrap_or_else(|| panic!("no {name} in {m:#?}"))
    }

    const SOURCE: &str = r#"// +kubebuilder:validation:Optional
// +groupName=example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WidgetSpec is the spec.
type WidgetSpec struct {
	// +required
	Name string `json:"name"`
	Mode Mode `json:"mode"`
	Size int `json:"size"`
}

// +k8s:enum
type Mode string

const (
	Fast Mode = "fast"
	Slow Mode = "slow"
)

// +kubebuilder:resource:scope=Cluster,shortName=wd
// +kubebuilder:subresource:status

// Widget is a widget.
// +kubebuilder:printcolumn:name="Mode",type=string,JSONPath=`.spec.mode`
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// The desired state.
	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

type WidgetStatus struct {
	Ready bool `json:"ready"`
}
"#;

    #[test]
    fn package_markers_optionality_enums_and_resource_keys() {
        let (m, warnings) = lower(SOURCE);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            (m.group.as_str(), m.version.as_str()),
            ("example.com", "v1")
        );
        let Item::Struct(spec) = item(&m, "WidgetSpec") else {
            panic!()
        };
        // The package's `+kubebuilder:validation:Optional`: every field optional but `+required`.
        let ty = |n: &str| &spec.fields.iter().find(|f| f.rust == n).unwrap().ty;
        assert_eq!(*ty("name"), Ty::Path("String"));
        assert_eq!(*ty("mode"), Ty::Option(Box::new(Ty::Named("Mode".into()))));
        // The `Spec` field's doc comment is the spec's description.
        assert_eq!(spec.doc.as_deref(), Some("The desired state."));
        let resource = spec.resource.as_ref().unwrap();
        let has = |k: &'static str, v: MarkerValue| resource.contains(&key_of(k, v));
        assert!(
            has("status", MarkerValue::Str("WidgetStatus".into())),
            "{resource:?}"
        );
        assert!(has("namespaced", MarkerValue::False), "{resource:?}");
        assert!(has("short_names", MarkerValue::List(vec!["wd".into()])));
        assert!(has("doc", MarkerValue::Str("Widget is a widget.".into())));
        assert!(resource.iter().any(|k| k.key == "printcolumn"));
        let Item::Newtype(mode) = item(&m, "Mode") else {
            panic!()
        };
        let values = serde_json::json!(["fast", "slow"]);
        assert!(
            mode.markers
                .contains(&key_of("enum_values", MarkerValue::Json(values)))
        );
        assert!(matches!(item(&m, "WidgetStatus"), Item::Struct(_)));
    }

    #[test]
    fn gateway_experimental_fields_are_of_a_feature_and_tags_leave_empty_lines() {
        let (m, _) = lower(
            "// +groupName=example.com\npackage v1\n\n\
             import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n\
             type WidgetSpec struct {\n\
             \t// Size counts.\n\t// <gateway:experimental:description>\n\t// More.\n\
             \t// </gateway:experimental:description>\n\t// <gateway:experimental>\n\
             \tSize int32 `json:\"size\"`\n\
             \t// Name names.\n\t// <gateway:util:excludeFromCRD>\n\t// Hidden.\n\
             \t// </gateway:util:excludeFromCRD>\n\
             \tName string `json:\"name\"`\n}\n\n\
             type Widget struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\
             \tmetav1.ObjectMeta `json:\"metadata\"`\n\tSpec WidgetSpec `json:\"spec\"`\n}\n",
        );
        let Item::Struct(spec) = item(&m, "WidgetSpec") else {
            panic!()
        };
        let field = |n: &str| spec.fields.iter().find(|f| f.rust == n).unwrap();
        assert_eq!(field("size").feature.as_deref(), Some("experimental"));
        assert_eq!(field("size").doc.as_deref(), Some("Size counts.\n\nMore."));
        assert_eq!(field("name").feature, None);
        assert_eq!(field("name").doc.as_deref(), Some("Name names."));
    }

    #[test]
    fn a_kind_that_is_another_packages_kind_gets_a_spec_struct_of_its_own() {
        let mut v1 = Package::default();
        v1.add(parse::file("v1.go", SOURCE).unwrap());
        let v2_source = "// +groupName=example.com\npackage v2\n\n\
                         import v1 \"example.com/api/v1\"\n\n\
                         // +kubebuilder:subresource:status\n\n\
                         // Widget is the old widget.\ntype Widget v1.Widget\n";
        let mut v2 = Package::default();
        v2.add(parse::file("v2.go", v2_source).unwrap());
        let mut imports = Imports::default();
        imports.add("example.com/api/v1".into(), 0, "example_com_v1".into());
        let (modules, warnings) = modules(&[v1, v2], &imports);
        assert!(warnings.is_empty(), "{warnings:?}");
        let v2 = modules[1].as_ref().unwrap();
        let Item::Struct(spec) = item(v2, "WidgetSpec") else {
            panic!()
        };
        let resource = spec.resource.as_ref().unwrap();
        let status = MarkerValue::Str("super::example_com_v1::WidgetStatus".into());
        assert!(resource.contains(&key_of("status", status)), "{resource:?}");
        assert!(resource.contains(&key_of("version", MarkerValue::Str("v2".into()))));
        let doc = MarkerValue::Str("Widget is the old widget.".into());
        assert!(resource.contains(&key_of("doc", doc)), "{resource:?}");
        let mode = spec.fields.iter().find(|f| f.rust == "mode").unwrap();
        let path = Ty::Extern("super::example_com_v1::Mode".into());
        assert_eq!(mode.ty, Ty::Option(Box::new(path)));
        assert_eq!(v2.items.len(), 1, "{v2:#?}");
    }

    fn key_of(k: &'static str, value: MarkerValue) -> Marker {
        Marker { key: k, value }
    }
}
