//! From a loaded crate to the engine's model: every type deriving `KubeSchema` or
//! `CustomResource` parsed by the engine's parser, its field types resolved through the
//! crate's modules into shapes, and every `#[rbac]`, `#[webhook]` and
//! `#[webhook_configuration]` attribute.

use std::collections::{BTreeMap, HashMap};
use std::mem;
use std::sync::{Arc, OnceLock};

use syn::spanned::Spanned;
use syn::{
    Attribute, Data, DataEnum, DataStruct, DataUnion, DeriveInput, Fields, FieldsNamed, Item, Meta,
};

use kubegen_core::known::{self, Kubernetes};
use kubegen_core::model::{Error, Errors, Loc, ResourceDef, Shape, TypeDef};
use kubegen_core::parse::markers::Place;
use kubegen_core::parse::shape::{Resolver, shape_of};
use kubegen_core::parse::typedef;
use kubegen_core::rbac::RbacRule;
use kubegen_core::webhook::{ConfigurationName, Webhook};

use crate::source::{Crate, ItemKind, Module, ModuleId, Resolved, associated_items, item_attrs};

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

/// Reads every kubegen attribute of a crate in two steps: [`Reader::module`], the visitor of
/// [`Crate::load_with`], parses each module's attributes as soon as the module is read and drops
/// the fields and bodies nothing reads later; [`Reader::finish`] resolves the derived types'
/// field types through the loaded crate.
pub struct Reader {
    /// The crate's name, the first part of each derived type's key.
    crate_name: String,
    /// What each module declares, by module: its items' attributes, its derived types, its
    /// `impl` and `trait` items' attributes.
    modules: BTreeMap<ModuleId, Found>,
}

/// What one module declares, before its derived types' fields are resolved.
#[derive(Default)]
struct Found {
    items: Collected,
    derived: Vec<(typedef::Parsed, Place)>,
    associated: Collected,
}

impl Reader {
    /// A reader for the crate named `crate_name`.
    pub fn new(crate_name: &str) -> Self {
        Reader {
            crate_name: crate_name.to_owned(),
            modules: BTreeMap::new(),
        }
    }

    /// Reads the attributes of one module's items, then empties
    /// what later steps do not read: the fields and variants of derived types (parsed here),
    /// function bodies, and the items of `impl` and `trait` blocks.
    pub fn module(&mut self, id: ModuleId, module: &Module, items: &mut [Item]) {
        let mut found = Found::default();
        for item in items.iter() {
            attribute_markers(module, item_attrs(item), &mut found.items);
        }
        for assoc in associated_items(items) {
            attribute_markers(module, assoc.attrs(), &mut found.associated);
        }
        for item in items.iter_mut() {
            let Some(place) = derive_place(item_attrs(item)) else {
                continue;
            };
            let Some(input) = take_definition(item) else {
                continue;
            };
            let key = key(&self.crate_name, module.path(), &input.ident.to_string());
            match typedef::parse(&input, key, place, &|span| Some(module.loc(span))) {
                Ok(parsed) => found.derived.push((parsed, place)),
                Err(e) => found
                    .items
                    .errors
                    .extend(darling_errors(e, |s| module.first_token_loc(s))),
            }
        }
        for item in items.iter_mut() {
            match item {
                Item::Fn(f) => f.block.stmts = Vec::new(),
                Item::Impl(block) => block.items = Vec::new(),
                Item::Trait(block) => block.items = Vec::new(),
                _ => {}
            }
        }
        self.modules.insert(id, found);
    }

    /// Everything `krate` declares, k8s-openapi types as the Kubernetes version `kubernetes`
    /// has them, in the order of the crate's modules and items.
    pub fn finish(self, krate: &Crate, kubernetes: &Kubernetes) -> Collected {
        let mut out = Collected::default();
        let mut derived = Vec::new();
        let mut associated = Vec::new();
        for (id, found) in self.modules {
            out.append(found.items);
            derived.extend(found.derived.into_iter().map(|(p, place)| (id, p, place)));
            associated.push(found.associated);
        }
        for found in associated {
            out.append(found);
        }
        resolve(krate, kubernetes, derived, &mut out);
        out
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

/// Resolves the field types of the `derived` types of `krate` into shapes, adding the types
/// and resources to `out`.
fn resolve(
    krate: &Crate,
    kubernetes: &Kubernetes,
    derived: Vec<(ModuleId, typedef::Parsed, Place)>,
    out: &mut Collected,
) {
    let defs: Defs = Arc::new(OnceLock::new());
    let mut table = HashMap::new();
    for (module, parsed, place) in derived {
        let r = CrateResolver {
            krate,
            kubernetes,
            module,
            defs: &defs,
            generics: Vec::new(),
        };
        let def = parsed.def;
        let mut shapes = Vec::new();
        for (field, ty) in def.fields().zip(&parsed.field_types) {
            if !def.walks(field) {
                shapes.push(Shape::default());
                continue;
            }
            match shape_of(ty, &r) {
                Ok(shape) => shapes.push(shape),
                Err(e) => {
                    out.errors
                        .push(located(krate.module(module).loc(e.span()), e.to_string()));
                    // Reported: any value stands in, so the type's own checks still run
                    // without reporting the field again.
                    shapes.push(Shape::Any);
                }
            }
        }
        let def = def.with_shapes(shapes);
        if place == Place::Spec {
            let mut markers = parsed.resource;
            markers.loc = def.loc.clone();
            let status = markers.status.as_ref().map(|s| {
                let ty: syn::Type = syn::parse_str(s).expect("the parser checked `status`");
                shape_of(&ty, &r).unwrap_or_else(|e| {
                    out.errors.push(located(
                        def.loc.clone().expect("the CLI always has locations"),
                        format!("`status = \"{s}\"`: {e}"),
                    ));
                    Shape::Opaque(s.clone())
                })
            });
            out.resources.push(ResourceDef {
                markers,
                spec: named(&def.key, &defs),
                status,
            });
        }
        out.types.push(named(&def.key, &defs));
        table.insert(def.key.clone(), Arc::new(def));
    }
    defs.set(table).expect("the table is set once");
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

/// Whether the item derives `CustomResource` (a spec struct) or `KubeSchema`.
fn derive_place(attrs: &[Attribute]) -> Option<Place> {
    let mut place = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            match meta
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .as_deref()
            {
                Some("CustomResource") => place = Some(Place::Spec),
                Some("KubeSchema") if place.is_none() => place = Some(Place::Type),
                _ => {}
            }
            Ok(())
        });
    }
    place
}

/// Every `#[rbac(...)]`, `#[webhook(...)]` and `#[webhook_configuration(...)]` among `attrs`
/// (also with a path, `#[kubegen::rbac(...)]`).
fn attribute_markers(m: &Module, attrs: &[Attribute], out: &mut Collected) {
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
            "webhook" => kubegen_core::parse::webhook::parse(tokens).map(|mut hook| {
                hook.loc = Some(loc);
                out.webhooks.push(hook);
            }),
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
                known::lookup(&full, args, self.kubernetes).unwrap_or_else(|| {
                    Err(format!(
                        "`{full}` is a type from another crate that kubegen does not know: \
                         derive `KubeSchema` on a type of your own, or mark the field with \
                         `schema_type = \"...\"` or `schemaless`"
                    ))
                })
            }
            Resolved::Local { module, name, kind } => match kind {
                ItemKind::Struct(_) | ItemKind::Enum(_) => {
                    let key = key(self.krate.name(), self.krate.module(module).path(), &name);
                    if self.krate_derives(module, &name) {
                        Ok(named(&key, self.defs))
                    } else {
                        Err(format!(
                            "`{name}` does not derive `KubeSchema`: add `#[derive(KubeSchema)]` \
                             to it, or mark the field with `schema_type = \"...\"` or `schemaless`"
                        ))
                    }
                }
                ItemKind::TypeAlias(alias) => {
                    let params: Vec<String> = alias
                        .generics
                        .type_params()
                        .map(|p| p.ident.to_string())
                        .collect();
                    let inner = CrateResolver {
                        krate: self.krate,
                        kubernetes: self.kubernetes,
                        module,
                        defs: self.defs,
                        generics: params.into_iter().zip(args).collect(),
                    };
                    shape_of(&alias.ty, &inner).map_err(|e| {
                        let at = self.krate.module(module).loc(e.span());
                        format!("in type alias `{name}` ({at}): {e}")
                    })
                }
                ItemKind::Other(_) => Err(format!("`{name}` is not a struct, enum or type alias")),
            },
        }
    }
}

impl CrateResolver<'_> {
    /// Whether `name` in `module` derives a schema.
    fn krate_derives(&self, module: ModuleId, name: &str) -> bool {
        self.krate
            .module(module)
            .items()
            .iter()
            .any(|item| match item {
                Item::Struct(s) if s.ident == name => derive_place(&s.attrs).is_some(),
                Item::Enum(e) if e.ident == name => derive_place(&e.attrs).is_some(),
                _ => false,
            })
    }
}
