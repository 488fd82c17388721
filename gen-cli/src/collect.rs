//! From a loaded crate to the engine's model: every type deriving `KubeSchema` or
//! `CustomResource` parsed by the engine's parser, its field types resolved through the
//! crate's modules into shapes, and every `#[rbac]`, `#[webhook]` and
//! `#[webhook_configuration]` attribute.

use std::collections::HashMap;
use std::mem;
use std::sync::{Arc, OnceLock};

use syn::spanned::Spanned;
use syn::{
    Attribute, Data, DataEnum, DataStruct, DataUnion, DeriveInput, Fields, FieldsNamed, Item, Meta,
};

use kubegen_core::known::{self, Kubernetes};
use kubegen_core::model::{Error, Errors, Loc, ResourceDef, ResourceMarkers, Shape, TypeDef};
use kubegen_core::parse::markers::Place;
use kubegen_core::parse::shape::{Resolver, shape_of};
use kubegen_core::parse::typedef;
use kubegen_core::rbac::RbacRule;
use kubegen_core::webhook::{ConfigurationName, Webhook};

use crate::source::{
    Crate, ItemKind, ModuleId, Origin, Resolved, Visitor, associated_items, derives, item_attrs,
};

/// What a crate declares.
#[derive(Default)]
pub struct Collected {
    /// One entry per `#[derive(CustomResource)]` spec struct.
    pub resources: Vec<ResourceDef>,
    /// One entry per `#[rbac(...)]`.
    pub rbac: Vec<RbacRule>,
    /// One entry per `#[webhook(...)]`.
    pub webhooks: Vec<Webhook>,
    /// One entry per `#[webhook_configuration(...)]`.
    pub webhook_names: Vec<ConfigurationName>,
    /// Every type deriving `KubeSchema` or `CustomResource`, checked on its own as the derive
    /// checks it, whether or not a resource uses it.
    pub types: Vec<Shape>,
    /// Every problem, with its location.
    pub errors: Vec<Error>,
}

/// The derived types of a crate, by key, shared with the shapes that refer to them.
type Defs = Arc<OnceLock<HashMap<String, Arc<TypeDef>>>>;

/// The Kubernetes version field types resolve against, set when it is known (a crate may be
/// read before: see `generate::render`); `None` once the run has stopped without one.
pub type Version = OnceLock<Option<Kubernetes>>;

/// Reads every kubegen attribute of a crate, as the [`Visitor`] of [`Crate::load_with`]: each
/// module's attributes as soon as its file is parsed ([`Visitor::read`]), then its derived
/// types' field types resolved through the complete crate ([`Visitor::finish`]), both on the
/// thread that parsed the file; [`Reader::collect`] puts the modules together.
pub struct Reader<'k> {
    /// The crate's name, the first part of each derived type's key.
    crate_name: String,
    /// The Kubernetes version whose k8s-openapi types paths resolve to.
    kubernetes: &'k Version,
    /// The derived types, once every module is finished.
    defs: Defs,
}

/// What one module declares, its derived types not resolved yet.
pub struct Found {
    items: Collected,
    derived: Vec<(typedef::Parsed, Place)>,
    associated: Collected,
}

/// What one module declares, its derived types resolved.
#[derive(Default)]
pub struct Declared {
    items: Collected,
    associated: Collected,
    /// Each derived type, with its place and, for a spec, its resource keys and status shape.
    derived: Vec<(TypeDef, Place, ResourceMarkers, Option<Shape>)>,
    /// Field types that do not resolve.
    errors: Vec<Error>,
}

impl<'k> Reader<'k> {
    /// A reader for the crate named `crate_name`, k8s-openapi types as the Kubernetes version
    /// `kubernetes` has them (the reader waits for it before resolving field types).
    pub fn new(crate_name: &str, kubernetes: &'k Version) -> Self {
        Reader {
            crate_name: crate_name.to_owned(),
            kubernetes,
            defs: Arc::new(OnceLock::new()),
        }
    }

    /// Everything the crate declares, from each module's [`Declared`] in module order: items
    /// in the order of the crate's modules and items.
    pub fn collect(self, modules: Vec<Declared>) -> Collected {
        let mut out = Collected::default();
        let mut associated = Vec::with_capacity(modules.len());
        let mut derived = Vec::new();
        for module in modules {
            out.append(module.items);
            associated.push(module.associated);
            out.errors.extend(module.errors);
            derived.push(module.derived);
        }
        for found in associated {
            out.append(found);
        }
        let mut table = HashMap::new();
        for (def, place, markers, status) in derived.into_iter().flatten() {
            if place == Place::Spec {
                out.resources.push(ResourceDef {
                    markers,
                    spec: named(&def.key, &self.defs),
                    status,
                });
            }
            out.types.push(named(&def.key, &self.defs));
            table.insert(def.key.clone(), Arc::new(def));
        }
        self.defs.set(table).expect("the table is set once");
        out
    }
}

impl Visitor for Reader<'_> {
    type Read = Found;
    type Output = Declared;

    /// Reads the attributes of one module's items, and the derived types' fields and variants
    /// (moved out of the items, which are dropped afterwards).
    fn read(&self, origin: &Origin, items: &mut [Item]) -> Found {
        let mut found = Found {
            items: Collected::default(),
            derived: Vec::new(),
            associated: Collected::default(),
        };
        for item in items.iter() {
            attribute_markers(origin, item_attrs(item), &mut found.items);
        }
        for assoc in associated_items(items) {
            attribute_markers(origin, assoc.attrs(), &mut found.associated);
        }
        for item in items.iter_mut() {
            let Some(place) = derive_place(&derives(item_attrs(item))) else {
                continue;
            };
            let Some(input) = take_definition(item) else {
                continue;
            };
            let key = key(&self.crate_name, origin.path(), &input.ident.to_string());
            match typedef::parse(&input, key, place, &|span| Some(origin.loc(span))) {
                Ok(parsed) => found.derived.push((parsed, place)),
                Err(e) => found
                    .items
                    .errors
                    .extend(darling_errors(e, |s| origin.first_token_loc(s))),
            }
        }
        found
    }

    /// Resolves the field types of the module's derived types into shapes, once the Kubernetes
    /// version is known (nothing, when the run stopped without one).
    fn finish(&self, krate: &Crate, module: ModuleId, found: Found) -> Declared {
        let Some(kubernetes) = self.kubernetes.wait() else {
            return Declared::default();
        };
        let r = CrateResolver {
            krate,
            kubernetes,
            module,
            defs: &self.defs,
            generics: Vec::new(),
        };
        let mut errors = Vec::new();
        let derived = found
            .derived
            .into_iter()
            .map(|(parsed, place)| {
                let (def, markers, status) = r.parsed(parsed, place, &mut errors);
                (def, place, markers, status)
            })
            .collect();
        Declared {
            items: found.items,
            associated: found.associated,
            derived,
            errors,
        }
    }
}

impl Collected {
    fn append(&mut self, other: Collected) {
        self.resources.extend(other.resources);
        self.rbac.extend(other.rbac);
        self.webhooks.extend(other.webhooks);
        self.webhook_names.extend(other.webhook_names);
        self.types.extend(other.types);
        self.errors.extend(other.errors);
    }
}

/// The derive input of a struct, enum or union item, its fields or variants moved out of the
/// item (which keeps its name, visibility, attributes and generics).
fn take_definition(item: &mut Item) -> Option<DeriveInput> {
    let (attrs, vis, ident, generics, data) = match item {
        Item::Struct(s) => {
            let fields = mem::replace(&mut s.fields, Fields::Unit);
            let data = Data::Struct(DataStruct {
                struct_token: s.struct_token,
                fields,
                semi_token: s.semi_token,
            });
            (&s.attrs, &s.vis, &s.ident, &s.generics, data)
        }
        Item::Enum(e) => {
            let data = Data::Enum(DataEnum {
                enum_token: e.enum_token,
                brace_token: e.brace_token,
                variants: mem::take(&mut e.variants),
            });
            (&e.attrs, &e.vis, &e.ident, &e.generics, data)
        }
        Item::Union(u) => {
            let fields = FieldsNamed {
                brace_token: u.fields.brace_token,
                named: mem::take(&mut u.fields.named),
            };
            let data = Data::Union(DataUnion {
                union_token: u.union_token,
                fields,
            });
            (&u.attrs, &u.vis, &u.ident, &u.generics, data)
        }
        _ => return None,
    };
    Some(DeriveInput {
        attrs: attrs.clone(),
        vis: vis.clone(),
        ident: ident.clone(),
        generics: generics.clone(),
        data,
    })
}

/// `crate::module::Name`, the same key the derive gives the type at run time.
fn key(crate_name: &str, module_path: &[String], name: &str) -> String {
    let mut parts = vec![crate_name.to_string()];
    parts.extend(module_path.iter().cloned());
    parts.push(name.to_string());
    parts.join("::")
}

/// A shape for a derived type, loaded from the shared table when the builder needs it. A type
/// whose attributes did not parse is not in the table: an error names it (its own errors are
/// reported at its definition).
fn named(key: &str, defs: &Defs) -> Shape {
    let defs = defs.clone();
    let k = key.to_string();
    Shape::shared(key, move || {
        defs.get().and_then(|t| t.get(&k)).cloned().ok_or_else(|| {
            let message = "this type has errors (reported at its definition)";
            Errors(vec![Error::new(None, k.clone(), message)])
        })
    })
}

/// Whether a type whose derives are `derives` (see [`derives`]) derives `CustomResource` (a
/// spec struct) or `KubeSchema`.
fn derive_place(derives: &[String]) -> Option<Place> {
    if derives.iter().any(|d| d == "CustomResource") {
        Some(Place::Spec)
    } else if derives.iter().any(|d| d == "KubeSchema") {
        Some(Place::Type)
    } else {
        None
    }
}

/// Every `#[rbac(...)]`, `#[webhook(...)]` and `#[webhook_configuration(...)]` among `attrs`
/// (also with a path, `#[kubegen::rbac(...)]`).
fn attribute_markers(m: &Origin, attrs: &[Attribute], out: &mut Collected) {
    let mut crates = Vec::new();
    for attr in attrs {
        let Some(name) = attr.path().segments.last().map(|s| s.ident.to_string()) else {
            continue;
        };
        if !["rbac", "webhook", "webhook_configuration"].contains(&name.as_str()) {
            continue;
        }
        let loc = m.loc(attr.span());
        let tokens = match &attr.meta {
            Meta::List(list) => list.tokens.clone(),
            _ => {
                out.errors
                    .push(located(loc, format!("expected `#[{name}(...)]`")));
                continue;
            }
        };
        let parsed = match name.as_str() {
            "rbac" => kubegen_core::parse::rbac::parse(tokens).map(|mut rule| {
                rule.loc = Some(loc);
                out.rbac.push(rule);
            }),
            "webhook" => {
                kubegen_core::parse::webhook::parse_with_crate(tokens).map(|(mut hook, path)| {
                    hook.loc = Some(loc);
                    out.webhooks.push(hook);
                    crates.push(path);
                })
            }
            _ => kubegen_core::parse::webhook::parse_configuration(tokens).map(|mut n| {
                n.loc = Some(loc);
                out.webhook_names.push(n);
            }),
        };
        if let Err(e) = parsed {
            out.errors
                .extend(darling_errors(e, |s| m.first_token_loc(s)));
        }
    }
    // The item's `#[webhook]`s name kubegen by one path (it changes no manifest).
    if let Err(e) = kubegen_core::parse::webhook::one_crate(crates) {
        out.errors
            .extend(darling_errors(e, |s| m.first_token_loc(s)));
    }
}

/// darling's accumulated errors, each at the first token of its span (where the derive puts
/// it), as the engine words them for both front ends.
fn darling_errors(e: darling::Error, loc: impl Fn(proc_macro2::Span) -> Loc) -> Vec<Error> {
    kubegen_core::parse::diagnostics::from_darling(e, &|span| Some(loc(span)))
        .into_iter()
        .map(|(_, d)| d)
        .collect()
}

fn located(loc: Loc, message: impl Into<String>) -> Error {
    Error::new(Some(&loc), "", message)
}

/// Resolves type paths in one module of the crate.
struct CrateResolver<'a> {
    krate: &'a Crate,
    /// The Kubernetes version whose k8s-openapi types paths resolve to.
    kubernetes: &'a Kubernetes,
    module: ModuleId,
    defs: &'a Defs,
    /// A generic type alias's parameters, bound to the shapes of its arguments.
    generics: Vec<(String, Shape)>,
}

impl Resolver for CrateResolver<'_> {
    fn resolve(&self, path: &syn::Path, args: Vec<Shape>) -> Result<Shape, String> {
        if let Some(ident) = path.get_ident()
            && let Some((_, shape)) = self.generics.iter().find(|(p, _)| ident == p)
        {
            return Ok(shape.clone());
        }
        let resolved = self
            .krate
            .resolve_type(self.module, path)
            .map_err(|e| e.message)?;
        match resolved {
            Resolved::Primitive(p) => known::lookup(&p, args, self.kubernetes)
                .unwrap_or_else(|| Err(format!("`{p}` has no JSON form a CRD can describe"))),
            Resolved::External { path } => {
                let full = known::canonical(&path.join("::"));
                known::lookup(&full, args, self.kubernetes)
                    .unwrap_or_else(|| Err(known::unknown_foreign(&full)))
            }
            Resolved::Local { module, name, kind } => match kind {
                ItemKind::Struct(item) | ItemKind::Enum(item) => {
                    let key = key(self.krate.name(), self.krate.module(module).path(), &name);
                    if derive_place(&item.derives).is_some() {
                        Ok(named(&key, self.defs))
                    } else {
                        Err(format!(
                            "`{name}` does not derive `KubeSchema`: add `#[derive(KubeSchema)]` \
                             to it, or mark the field with `schema_type = \"...\"` or `schemaless`"
                        ))
                    }
                }
                ItemKind::TypeAlias(alias) => {
                    let inner = CrateResolver {
                        krate: self.krate,
                        kubernetes: self.kubernetes,
                        module,
                        defs: self.defs,
                        generics: alias.params.iter().cloned().zip(args).collect(),
                    };
                    let ty: syn::Type = alias.ty.parse().map_err(|e| e.to_string())?;
                    shape_of(&ty, &inner).map_err(|e| {
                        let at = alias.ty.loc(e.span());
                        format!("in type alias `{name}` ({at}): {e}")
                    })
                }
                ItemKind::Other(_) => Err(format!("`{name}` is not a struct, enum or type alias")),
            },
        }
    }
}

impl CrateResolver<'_> {
    /// A derived type of this resolver's module with its field types resolved into shapes
    /// (and, for a spec, its resource keys and status shape); problems go to `errors`.
    fn parsed(
        &self,
        parsed: typedef::Parsed,
        place: Place,
        errors: &mut Vec<Error>,
    ) -> (TypeDef, ResourceMarkers, Option<Shape>) {
        let module = self.krate.module(self.module);
        let def = parsed.def;
        let mut shapes = Vec::with_capacity(parsed.field_types.len());
        for (field, ty) in def.fields().zip(&parsed.field_types) {
            if !def.walks(field) {
                shapes.push(Shape::default());
                continue;
            }
            match shape_of(ty, self) {
                Ok(shape) => shapes.push(shape),
                Err(e) => {
                    errors.push(located(module.loc(e.span()), e.to_string()));
                    // Reported: any value stands in, so the type's own checks still run
                    // without reporting the field again.
                    shapes.push(Shape::Any);
                }
            }
        }
        let def = def.with_shapes(shapes);
        let mut markers = parsed.resource;
        let mut status = None;
        if place == Place::Spec {
            markers.loc = def.loc.clone();
            status = markers.status.as_ref().map(|s| {
                let ty: syn::Type = syn::parse_str(s).expect("the parser checked `status`");
                shape_of(&ty, self).unwrap_or_else(|e| {
                    errors.push(located(
                        def.loc.clone().expect("the CLI always has locations"),
                        format!("`status = \"{s}\"`: {e}"),
                    ));
                    Shape::Opaque(s.clone())
                })
            });
        }
        (def, markers, status)
    }
}
