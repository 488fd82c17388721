//! Other crates' attributes in kubegen's terms: kube-derive's `#[kube(...)]` and
//! `#[x_kube(...)]`, schemars' `#[schemars(...)]`, garde's `#[garde(...)]` and validator's
//! `#[validate(...)]`, each key → the `#[kube_marker]` key or serde attribute it means, or why
//! it cannot be translated and what to do. [`ROWS`] is that table, once: `kubegen migrate`
//! rewrites by it, the derive and the CLI name its answer at a leftover attribute
//! ([`leftover`]), and the book prints it
//! (`docs/book/src/guides/migrate.md`).

mod convert;
mod table;

use proc_macro2::Span;
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Lit, Meta, Token, UnOp};

use super::registry::Place;

pub use table::ROWS;

/// An attribute of another crate that fed a CRD schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foreign {
    /// kube-derive's `#[kube(...)]`, on a `CustomResource` spec struct.
    Kube,
    /// kube-derive's `#[x_kube(...)]`, on a `KubeSchema` (or `CELSchema`) type or field.
    XKube,
    /// schemars' `#[schemars(...)]`.
    Schemars,
    /// garde's `#[garde(...)]`, which schemars also reads.
    Garde,
    /// validator's `#[validate(...)]`, which schemars also reads.
    Validate,
    /// serde's `#[serde(...)]`, whose defaults schemars writes into the schema.
    Serde,
}

impl Foreign {
    /// Every one, in the table's order.
    pub const ALL: [Foreign; 6] = [
        Foreign::Kube,
        Foreign::XKube,
        Foreign::Schemars,
        Foreign::Garde,
        Foreign::Validate,
        Foreign::Serde,
    ];

    /// The attribute's name.
    pub fn name(self) -> &'static str {
        match self {
            Foreign::Kube => "kube",
            Foreign::XKube => "x_kube",
            Foreign::Schemars => "schemars",
            Foreign::Garde => "garde",
            Foreign::Validate => "validate",
            Foreign::Serde => "serde",
        }
    }

    /// The crate whose attribute it is.
    pub fn owner(self) -> &'static str {
        match self {
            Foreign::Kube | Foreign::XKube => "kube-derive",
            Foreign::Schemars => "schemars",
            Foreign::Garde => "garde",
            Foreign::Validate => "validator",
            Foreign::Serde => "serde",
        }
    }

    /// The foreign attribute `attr` is, if it is one.
    pub fn of(attr: &Attribute) -> Option<Foreign> {
        Foreign::ALL
            .into_iter()
            .find(|f| attr.path().is_ident(f.name()))
    }

    /// Whether the attribute stays beside kubegen's markers: garde's and validator's check
    /// values at run time, which kubegen does not replace, and serde's is serde's. kube-derive's
    /// and schemars' are read by nothing once the type derives kubegen's traits.
    pub fn stays(self) -> bool {
        matches!(self, Foreign::Garde | Foreign::Validate | Foreign::Serde)
    }
}

/// What a key becomes.
#[derive(Clone, Copy)]
pub enum How {
    /// The `#[kube_marker]` key of this name, with the same value.
    Marker(&'static str),
    /// Repeats of the key collected into the list key of this name.
    List(&'static str),
    /// The serde attribute key of this name, with the same value (schemars reads serde's).
    Serde(&'static str),
    /// A conversion of its own.
    With(Convert),
    /// Nothing: kubegen does what the key asked without it.
    Dropped,
    /// Not translated: the row says what to do.
    Manual,
}

/// A conversion: what the key `meta` means at `site`, added to `out`; `Err` with what to do
/// when its value cannot be translated.
pub type Convert = fn(&Meta, &Site, &mut Translation) -> Result<(), String>;

/// One key of a foreign attribute and its kubegen equivalent: a row of the migration table.
pub struct Row {
    /// The attribute.
    pub attribute: Foreign,
    /// The key, as written.
    pub key: &'static str,
    /// Its forms (Markdown).
    pub form: &'static str,
    /// What it becomes.
    pub how: How,
    /// The kubegen equivalent, or what to do (Markdown).
    pub kubegen: &'static str,
    /// An attribute using the key, and what `kubegen migrate` writes for it (one line per
    /// attribute; empty when it is removed).
    pub example: (&'static str, &'static str),
}

impl Row {
    /// The row of `key` in `attribute`, if the table has one.
    pub fn of(attribute: Foreign, key: &str) -> Option<&'static Row> {
        ROWS.iter()
            .find(|r| r.attribute == attribute && r.key == key)
    }
}

/// Where a foreign attribute stands.
#[derive(Clone, Copy)]
pub struct Site<'a> {
    /// A spec struct, a type or a field.
    pub place: Place,
    /// The field's type (lengths of collections are item counts).
    pub ty: Option<&'a syn::Type>,
    /// Whether one of the item's `#[kube(...)]`s says `namespaced` (kube-derive's default scope
    /// is `Cluster`, kubegen's `Namespaced`).
    pub namespaced: bool,
}

impl<'a> Site<'a> {
    /// The site of an item at `place` whose attributes are `attrs`.
    pub fn new(place: Place, ty: Option<&'a syn::Type>, attrs: &[Attribute]) -> Site<'a> {
        let namespaced = attrs
            .iter()
            .filter(|a| Foreign::of(a) == Some(Foreign::Kube))
            .flat_map(|a| metas(a).unwrap_or_default())
            .any(|m| m.path().is_ident("namespaced") && flag(&m) != Some(false));
        Site {
            place,
            ty,
            namespaced,
        }
    }
}

/// A key that cannot be translated: where it is written, its text and what to do.
#[derive(Clone, Debug)]
pub struct Untranslated {
    /// The key's span.
    pub span: Span,
    /// The key as written.
    pub text: String,
    /// What to do instead.
    pub todo: String,
}

/// What foreign attributes mean in kubegen's attributes.
#[derive(Clone, Debug, Default)]
pub struct Translation {
    /// `#[kube_marker]` keys with their values, as written (`max_length = 5`).
    pub markers: Vec<String>,
    /// `#[serde]` keys with their values, as written.
    pub serde: Vec<String>,
    /// The keys that cannot be translated.
    pub untranslated: Vec<Untranslated>,
    /// The root type's name `#[kube(root)]` gives, which `migrate` keeps as an alias of the
    /// kind (`type Name = Kind;`).
    pub root: Option<String>,
    /// The kubegen features the translation needs (`validate` for `#[kube(cel)]`).
    pub features: Vec<&'static str>,
}

impl Translation {
    /// The key `key = value` of `#[kube_marker]`.
    fn marker(&mut self, key: &str, value: impl std::fmt::Display) {
        self.markers.push(format!("{key} = {value}"));
    }

    /// Adds what `attr` (a foreign attribute) means at `site`.
    pub fn add(&mut self, attr: &Attribute, site: &Site) {
        let Some(foreign) = Foreign::of(attr) else {
            return;
        };
        let metas = match metas(attr) {
            Ok(metas) => metas,
            Err(e) => {
                return self.untranslated.push(Untranslated {
                    span: attr.span(),
                    text: attr.to_token_stream().to_string(),
                    todo: format!("its arguments do not parse ({e}): translate it by hand"),
                });
            }
        };
        let mut lists: Vec<(&'static str, Vec<String>)> = Vec::new();
        for meta in &metas {
            let key = meta.path().to_token_stream().to_string();
            let done = match Row::of(foreign, &key) {
                None if foreign.stays() => Ok(()),
                None => {
                    let known: Vec<&str> = ROWS
                        .iter()
                        .filter(|r| r.attribute == foreign)
                        .map(|r| r.key)
                        .collect();
                    Err(match crate::names::nearest(&key, &known) {
                        Some(near) => format!(
                            "`#[{}]` has no key `{key}`; did you mean `{near}`?",
                            foreign.name()
                        ),
                        None => format!(
                            "{} has no `{key}` that kubegen knows: translate it by hand",
                            foreign.owner()
                        ),
                    })
                }
                Some(row) => match row.how {
                    How::Marker(name) => value(meta)
                        .map(|v| {
                            self.markers
                                .push(v.map_or(name.into(), |v| format!("{name} = {v}")))
                        })
                        .ok_or_else(|| runtime(row)),
                    How::Serde(name) => value(meta)
                        .map(|v| {
                            self.serde
                                .push(v.map_or(name.into(), |v| format!("{name} = {v}")))
                        })
                        .ok_or_else(|| runtime(row)),
                    How::List(name) => match value(meta) {
                        Some(Some(v)) => {
                            match lists.iter_mut().find(|(n, _)| *n == name) {
                                Some((_, values)) => values.push(v),
                                None => lists.push((name, vec![v])),
                            }
                            Ok(())
                        }
                        _ => Err(runtime(row)),
                    },
                    How::With(convert) => convert(meta, site, self),
                    How::Dropped => Ok(()),
                    How::Manual => Err(row.kubegen.to_string()),
                },
            };
            if let Err(todo) = done {
                self.untranslated.push(Untranslated {
                    span: meta.span(),
                    text: meta.to_token_stream().to_string(),
                    todo,
                });
            }
        }
        for (name, values) in lists {
            self.marker(name, format!("[{}]", values.join(", ")));
        }
        let holds_kind = metas.iter().any(|m| m.path().is_ident("kind"));
        if foreign == Foreign::Kube && holds_kind && !site.namespaced {
            self.marker("scope", "\"Cluster\"");
        }
    }

    /// The attributes the translation writes, one per line (none when it is empty).
    pub fn attributes(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.serde.is_empty() {
            out.push(format!("#[serde({})]", self.serde.join(", ")));
        }
        if !self.markers.is_empty() {
            out.push(format!("#[kube_marker({})]", self.markers.join(", ")));
        }
        out
    }
}

/// What one foreign attribute means at `site`.
pub fn translate(attr: &Attribute, site: &Site) -> Translation {
    let mut out = Translation::default();
    out.add(attr, site);
    out
}

/// The error at a kube-derive or schemars attribute left on a type deriving kubegen's
/// `CustomResource` or `KubeSchema`, which reads neither: what kubegen writes instead, from the
/// migration table, at the attribute's name (one token, which the derive and the CLI underline
/// alike). `None` for any other attribute (garde's, validator's and serde's stay).
pub fn leftover(attr: &Attribute, site: &Site) -> Option<darling::Error> {
    let foreign = Foreign::of(attr).filter(|f| !f.stays())?;
    let t = translate(attr, site);
    let attributes = t.attributes();
    let extra = t.root.is_some() || !t.features.is_empty();
    let instead = match (&attributes[..], &t.untranslated[..]) {
        ([], []) if !extra => "remove it: kubegen needs none of its keys".to_string(),
        (written, untranslated) => {
            let mut parts = Vec::new();
            if !written.is_empty() {
                parts.push(format!("write `{}`", written.join(" ")));
            }
            if let Some(root) = &t.root {
                parts.push(format!(
                    "kubegen names the root type after the kind: write `type {root} = <kind>;` \
                     to keep the name `{root}`"
                ));
            }
            for feature in &t.features {
                parts.push(format!("turn on kubegen's `{feature}` feature"));
            }
            for u in untranslated {
                parts.push(format!("`{}` has no equivalent: {}", u.text, u.todo));
            }
            parts.join("; ")
        }
    };
    Some(
        darling::Error::custom(format!(
            "`#[{}(...)]` is an attribute of {}, which kubegen's derives do not read: \
             {instead} (`kubegen migrate` rewrites a package's {} attributes)",
            foreign.name(),
            foreign.owner(),
            foreign.owner(),
        ))
        .with_span(attr.path()),
    )
}

/// The errors of every kube-derive and schemars attribute in `attrs`.
pub fn leftovers(attrs: &[Attribute], site: &Site) -> Vec<darling::Error> {
    attrs.iter().filter_map(|a| leftover(a, site)).collect()
}

/// The keys of an attribute `#[name(key, key = value, key(...))]`.
fn metas(attr: &Attribute) -> syn::Result<Vec<Meta>> {
    match &attr.meta {
        Meta::List(list) => nested(&list.tokens),
        _ => Ok(Vec::new()),
    }
}

/// The keys inside a `key(...)`.
fn nested(tokens: &proc_macro2::TokenStream) -> syn::Result<Vec<Meta>> {
    syn::parse::Parser::parse2(
        Punctuated::<Meta, Token![,]>::parse_terminated,
        tokens.clone(),
    )
    .map(|p| p.into_iter().collect())
}

/// The value of `key = value` as written, `Some(None)` for a bare `key`; `None` for another
/// form or a value known only at run time (a constant, a call).
fn value(meta: &Meta) -> Option<Option<String>> {
    match meta {
        Meta::Path(_) => Some(None),
        Meta::NameValue(nv) => literal(&nv.value).map(Some),
        Meta::List(_) => None,
    }
}

/// A literal (or a negated number) as written; `None` for any other expression.
fn literal(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(l) => Some(l.lit.to_token_stream().to_string()),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match &*u.expr {
            Expr::Lit(l) if matches!(l.lit, Lit::Int(_) | Lit::Float(_)) => {
                literal(&u.expr).map(|n| format!("-{n}"))
            }
            _ => None,
        },
        Expr::Group(g) => literal(&g.expr),
        _ => None,
    }
}

/// The literal of `key = <literal>`.
fn lit(meta: &Meta) -> Option<&Lit> {
    let Meta::NameValue(nv) = meta else {
        return None;
    };
    let Expr::Lit(l) = &nv.value else {
        return None;
    };
    Some(&l.lit)
}

/// The string of `key = "..."`.
fn string(meta: &Meta) -> Option<String> {
    match lit(meta)? {
        Lit::Str(s) => Some(s.value()),
        _ => None,
    }
}

/// A flag's value: `key` and `key = true` are `true`, `key = false` is `false`.
fn flag(meta: &Meta) -> Option<bool> {
    if let Meta::Path(_) = meta {
        return Some(true);
    }
    match lit(meta)? {
        Lit::Bool(b) => Some(b.value),
        _ => None,
    }
}

/// What to say of a row's key whose value is not a literal.
fn runtime(row: &Row) -> String {
    format!(
        "its value is known only at run time: write `{}` with a literal value",
        row.kubegen.trim_matches('`')
    )
}

#[cfg(test)]
mod tests;
