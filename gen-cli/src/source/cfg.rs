//! `#[cfg]` and `#[cfg_attr]` as a normal build of the package evaluates them.
//!
//! rustc configures a crate before any macro runs: every `cfg_attr(predicate, attrs..)` whose
//! predicate holds becomes `attrs..` (and disappears otherwise), then every item, field,
//! variant and associated item whose `cfg`s do not all hold is removed, and a derive sees what
//! is left. [`Cfg::configure`] does the same to a module's items, so that the CLI reads what
//! `crd()` was derived from. A predicate is decided as `cargo build` decides it:
//!
//! - `feature = ".."`: the package's enabled features ([`Cfg::new`]);
//! - `test`, `doc`, `doctest`, `miri`: false (not a test, doc or Miri build);
//! - `true`, `false`; `all(..)`, `any(..)`, `not(..)`;
//! - every other name (`unix`, `target_os = "linux"`, `debug_assertions`): as `rustc --print
//!   cfg` prints them for the host (rustc is `$RUSTC`, else `rustc`), asked once per run and
//!   only when a predicate needs it; a name it does not print is false, as in rustc.

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::OnceLock;

use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{
    Attribute, Fields, ImplItem, Item, LitBool, LitStr, Meta, Token, TraitItem, parenthesized,
};

use super::error::{SourceError, span_loc};

/// How a build of one package is configured: the features it enables.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cfg {
    features: BTreeSet<String>,
}

/// A `cfg` predicate.
enum Predicate {
    Bool(bool),
    /// `name`.
    Name(String),
    /// `name = "value"`.
    Pair(String, String),
    All(Vec<Predicate>),
    Any(Vec<Predicate>),
    Not(Box<Predicate>),
}

impl Cfg {
    /// A build with these features enabled (`default` among them when it is).
    pub fn new(features: impl IntoIterator<Item = String>) -> Cfg {
        Cfg {
            features: features.into_iter().collect(),
        }
    }

    /// The enabled features.
    pub fn features(&self) -> &BTreeSet<String> {
        &self.features
    }

    /// Expands the `cfg_attr`s of `attrs` (those of a nested `cfg_attr` too) and says whether
    /// every `cfg` among them holds.
    ///
    /// # Errors
    ///
    /// A malformed `cfg` or `cfg_attr`, or host cfgs that cannot be asked for.
    pub(super) fn keep(&self, attrs: &mut Vec<Attribute>, file: &str) -> Result<bool, SourceError> {
        let error = |e: syn::Error| SourceError::new(span_loc(file, e.span()), e.to_string());
        if attrs.iter().any(|a| a.path().is_ident("cfg_attr")) {
            let mut expanded = Vec::with_capacity(attrs.len());
            for attr in std::mem::take(attrs) {
                self.expand(attr, &mut expanded, file)?;
            }
            *attrs = expanded;
        }
        for attr in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
            let predicate = attr
                .meta
                .require_list()
                .and_then(|list| list.parse_args_with(single_predicate))
                .map_err(error)?;
            if !self.holds(&predicate, attr, file)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Pushes `attr` to `out`, or for a `cfg_attr` the attributes it stands for.
    fn expand(
        &self,
        attr: Attribute,
        out: &mut Vec<Attribute>,
        file: &str,
    ) -> Result<(), SourceError> {
        if !attr.path().is_ident("cfg_attr") {
            out.push(attr);
            return Ok(());
        }
        let parse = |input: ParseStream| {
            let predicate = predicate(input)?;
            input.parse::<Token![,]>()?;
            let metas = Punctuated::<Meta, Token![,]>::parse_terminated(input)?;
            Ok((predicate, metas))
        };
        let (predicate, metas) = attr
            .meta
            .require_list()
            .and_then(|list| list.parse_args_with(parse))
            .map_err(|e| {
                SourceError::new(
                    span_loc(file, e.span()),
                    format!("{e}: expected `#[cfg_attr(predicate, attribute, ..)]`"),
                )
            })?;
        if self.holds(&predicate, &attr, file)? {
            for meta in metas {
                let nested = Attribute {
                    pound_token: attr.pound_token,
                    style: attr.style,
                    bracket_token: attr.bracket_token,
                    meta,
                };
                self.expand(nested, out, file)?;
            }
        }
        Ok(())
    }

    /// Whether `predicate` (written in `attr`) holds.
    fn holds(
        &self,
        predicate: &Predicate,
        attr: &Attribute,
        file: &str,
    ) -> Result<bool, SourceError> {
        Ok(match predicate {
            Predicate::Bool(b) => *b,
            Predicate::Name(name) => match name.as_str() {
                "test" | "doc" | "doctest" | "miri" => false,
                _ => host(attr, file)?.contains(name),
            },
            Predicate::Pair(name, value) if name == "feature" => self.features.contains(value),
            Predicate::Pair(name, value) => {
                host(attr, file)?.contains(&format!("{name}={value:?}"))
            }
            Predicate::All(all) => {
                for p in all {
                    if !self.holds(p, attr, file)? {
                        return Ok(false);
                    }
                }
                true
            }
            Predicate::Any(any) => {
                for p in any {
                    if self.holds(p, attr, file)? {
                        return Ok(true);
                    }
                }
                false
            }
            Predicate::Not(p) => !self.holds(p, attr, file)?,
        })
    }

    /// The items a build has among `items`, each with its `cfg_attr`s expanded and its fields,
    /// variants and associated items configured likewise (function bodies are left alone).
    ///
    /// # Errors
    ///
    /// As [`Cfg::keep`], for the first item in source order.
    pub(super) fn configure(&self, items: Vec<Item>, file: &str) -> Result<Vec<Item>, SourceError> {
        let mut kept = Vec::with_capacity(items.len());
        for mut item in items {
            if self.item(&mut item, file)? {
                kept.push(item);
            }
        }
        Ok(kept)
    }

    /// Configures `item` inside; whether it is kept.
    fn item(&self, item: &mut Item, file: &str) -> Result<bool, SourceError> {
        let Some(attrs) = item_attrs(item) else {
            return Ok(true);
        };
        if !self.keep(attrs, file)? {
            return Ok(false);
        }
        match item {
            Item::Struct(s) => self.fields(&mut s.fields, file)?,
            Item::Union(u) => {
                self.retain(&mut u.fields.named, |f| &mut f.attrs, file, |_| Ok(()))?
            }
            Item::Enum(e) => self.retain(
                &mut e.variants,
                |v| &mut v.attrs,
                file,
                |v| self.fields(&mut v.fields, file),
            )?,
            Item::Impl(block) => {
                for mut assoc in std::mem::take(&mut block.items) {
                    if impl_attrs(&mut assoc).map_or(Ok(true), |a| self.keep(a, file))? {
                        block.items.push(assoc);
                    }
                }
            }
            Item::Trait(block) => {
                for mut assoc in std::mem::take(&mut block.items) {
                    if trait_attrs(&mut assoc).map_or(Ok(true), |a| self.keep(a, file))? {
                        block.items.push(assoc);
                    }
                }
            }
            _ => {}
        }
        Ok(true)
    }

    /// Keeps the fields a build has.
    fn fields(&self, fields: &mut Fields, file: &str) -> Result<(), SourceError> {
        let list = match fields {
            Fields::Named(named) => &mut named.named,
            Fields::Unnamed(unnamed) => &mut unnamed.unnamed,
            Fields::Unit => return Ok(()),
        };
        self.retain(list, |f| &mut f.attrs, file, |_| Ok(()))
    }

    /// Keeps the elements of `list` a build has (`attrs` gives their attributes), each
    /// configured inside by `inner`.
    fn retain<T>(
        &self,
        list: &mut Punctuated<T, Token![,]>,
        attrs: fn(&mut T) -> &mut Vec<Attribute>,
        file: &str,
        mut inner: impl FnMut(&mut T) -> Result<(), SourceError>,
    ) -> Result<(), SourceError> {
        for mut element in std::mem::take(list) {
            if self.keep(attrs(&mut element), file)? {
                inner(&mut element)?;
                list.push(element);
            }
        }
        Ok(())
    }
}

/// One predicate, the whole input.
fn single_predicate(input: ParseStream) -> syn::Result<Predicate> {
    let p = predicate(input)?;
    // `cfg(a,)` is accepted by rustc.
    let _ = input.parse::<Option<Token![,]>>()?;
    if !input.is_empty() {
        return Err(input.error("expected one `cfg` predicate"));
    }
    Ok(p)
}

/// A `cfg` predicate: `name`, `name = "value"`, `all(..)`, `any(..)`, `not(..)`, `true`,
/// `false`.
fn predicate(input: ParseStream) -> syn::Result<Predicate> {
    if input.peek(LitBool) {
        return Ok(Predicate::Bool(input.parse::<LitBool>()?.value));
    }
    let name = input.call(syn::Ident::parse_any)?;
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        let value: LitStr = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "a `cfg` value must be a string literal"))?;
        return Ok(Predicate::Pair(name.to_string(), value.value()));
    }
    if !input.peek(syn::token::Paren) {
        return Ok(Predicate::Name(name.to_string()));
    }
    let content;
    parenthesized!(content in input);
    let args: Vec<Predicate> =
        Punctuated::<Predicate, Token![,]>::parse_terminated_with(&content, predicate)?
            .into_iter()
            .collect();
    match name.to_string().as_str() {
        "all" => Ok(Predicate::All(args)),
        "any" => Ok(Predicate::Any(args)),
        "not" if args.len() == 1 => Ok(Predicate::Not(Box::new(
            args.into_iter().next().expect("one argument"),
        ))),
        "not" => Err(syn::Error::new(name.span(), "`not` takes one predicate")),
        other => Err(syn::Error::new(
            name.span(),
            format!("invalid `cfg` predicate `{other}`: expected `all`, `any` or `not`"),
        )),
    }
}

/// The host's cfgs, as `rustc --print cfg` prints them (`unix`, `target_os="linux"`).
fn host(attr: &Attribute, file: &str) -> Result<&'static BTreeSet<String>, SourceError> {
    static HOST: OnceLock<Result<BTreeSet<String>, String>> = OnceLock::new();
    HOST.get_or_init(|| {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let out = Command::new(&rustc)
            .args(["--print", "cfg"])
            .output()
            .map_err(|e| format!("cannot run `{} --print cfg`: {e}", rustc.display()))?;
        if !out.status.success() {
            return Err(format!(
                "`{} --print cfg` failed: {}",
                rustc.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect())
    })
    .as_ref()
    .map_err(|e| {
        SourceError::new(
            span_loc(file, attr.span()),
            format!("cannot evaluate this `cfg` for the host: {e}"),
        )
    })
}

/// The attributes of `$item`, a value of the enum `$kind`, for its `$variant`s (`None` for the
/// others: unparsed tokens).
macro_rules! attrs_mut {
    ($item:expr, $kind:ident: $($variant:ident),*) => {
        match $item {
            $($kind::$variant(item) => Some(&mut item.attrs),)*
            _ => None,
        }
    };
}

fn item_attrs(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    attrs_mut!(item, Item: Const, Enum, ExternCrate, Fn, ForeignMod, Impl, Macro, Mod, Static,
        Struct, Trait, TraitAlias, Type, Union, Use)
}

fn impl_attrs(item: &mut ImplItem) -> Option<&mut Vec<Attribute>> {
    attrs_mut!(item, ImplItem: Const, Fn, Type, Macro)
}

fn trait_attrs(item: &mut TraitItem) -> Option<&mut Vec<Attribute>> {
    attrs_mut!(item, TraitItem: Const, Fn, Type, Macro)
}

#[cfg(test)]
mod tests {
    use super::Cfg;
    use quote::ToTokens;

    /// The items of `source` as a build with `features` has them, as tokens.
    fn configured(features: &[&str], source: &str) -> String {
        let cfg = Cfg::new(features.iter().map(|f| f.to_string()));
        let items = syn::parse_file(source).unwrap().items;
        let items = cfg
            .configure(items, "lib.rs")
            .unwrap_or_else(|e| panic!("{e}"));
        items
            .iter()
            .map(|i| i.to_token_stream().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `source` parsed and printed again.
    fn tokens(source: &str) -> String {
        let items = syn::parse_file(source).unwrap().items;
        items
            .iter()
            .map(|i| i.to_token_stream().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn items_fields_variants_and_associated_items() {
        let source = r#"
            struct S { a: u8, #[cfg(feature = "on")] b: u8, #[cfg(feature = "off")] c: u8, #[cfg(test)] d: u8 }
            struct T(#[cfg(not(feature = "on"))] u8, u16);
            enum E { A, #[cfg(feature = "off")] B, C { #[cfg(feature = "off")] x: u8, y: u8 } }
            impl S { #[cfg(feature = "off")] fn f() {} fn g() {} }
            trait R { #[cfg(doc)] const N: u8; fn h(); }
            union Un { #[cfg(any(feature = "off", all(feature = "on", not(doc))))] a: u8, b: u16 }
            #[cfg(true)] struct V;
            #[cfg(false)] struct W;
            #[cfg(all(feature = "on", feature = "off"))] mod gone;
        "#;
        assert_eq!(
            configured(&["on"], source),
            tokens(
                "struct S { a: u8, #[cfg(feature = \"on\")] b: u8 }
                 struct T(u16);
                 enum E { A, C { y: u8 } }
                 impl S { fn g() {} }
                 trait R { fn h(); }
                 union Un { #[cfg(any(feature = \"off\", all(feature = \"on\", not(doc))))] a: u8, b: u16 }
                 #[cfg(true)] struct V;"
            )
        );
    }

    #[test]
    fn cfg_attr_is_expanded_where_it_holds() {
        let source = r#"
            #[cfg_attr(feature = "on", derive(Debug), cfg_attr(all(), kube_marker(max_length = 3)))]
            #[cfg_attr(feature = "off", serde(rename = "y"))]
            struct U {
                #[cfg_attr(not(feature = "on"), cfg(any()))]
                #[cfg_attr(feature = "on", serde(default))]
                a: u8,
                #[cfg_attr(feature = "off", cfg(any()))]
                b: u8,
            }
            #[cfg_attr(feature = "on", cfg(feature = "off"))]
            struct Gone;
        "#;
        assert_eq!(
            configured(&["on"], source),
            tokens(
                "#[derive(Debug)] #[kube_marker(max_length = 3)] struct U { #[serde(default)] a: u8, b: u8 }"
            )
        );
        assert_eq!(
            configured(&[], source),
            tokens("struct U { b: u8 } struct Gone;")
        );
    }

    #[test]
    fn other_names_are_the_hosts() {
        let source = r#"
            #[cfg(unix)] struct Unix;
            #[cfg(windows)] struct Windows;
            #[cfg(target_pointer_width = "64")] struct Wide;
            #[cfg(miri)] struct Miri;
            #[cfg(no_such_cfg)] struct Unset;
        "#;
        let mut expected = Vec::new();
        if cfg!(unix) {
            expected.push("struct Unix;");
        }
        if cfg!(windows) {
            expected.push("struct Windows;");
        }
        if cfg!(target_pointer_width = "64") {
            expected.push("struct Wide;");
        }
        let want = tokens(&expected.join("\n"))
            .replace("struct Unix ;", "# [cfg (unix)] struct Unix ;")
            .replace("struct Windows ;", "# [cfg (windows)] struct Windows ;")
            .replace(
                "struct Wide ;",
                "# [cfg (target_pointer_width = \"64\")] struct Wide ;",
            );
        assert_eq!(configured(&[], source), want);
    }

    #[test]
    fn malformed_predicates_are_errors_at_their_place() {
        let error = |source: &str| {
            let items = syn::parse_file(source).unwrap().items;
            let e = Cfg::default().configure(items, "lib.rs").unwrap_err();
            (e.loc.line, e.loc.column, e.message)
        };
        assert_eq!(
            error("struct A;\nstruct B { #[cfg(feature = 1)] x: u8 }"),
            (2, 28, "a `cfg` value must be a string literal".to_string())
        );
        assert_eq!(
            error("#[cfg(nott(test))] struct A;"),
            (
                1,
                7,
                "invalid `cfg` predicate `nott`: expected `all`, `any` or `not`".to_string()
            )
        );
        assert_eq!(
            error("#[cfg(not(a, b))] struct A;").2,
            "`not` takes one predicate"
        );
        assert_eq!(
            error("#[cfg(a, b)] struct A;").2,
            "expected one `cfg` predicate"
        );
        assert_eq!(
            error("#[cfg_attr(test)] struct A;").2,
            "expected `,`: expected `#[cfg_attr(predicate, attribute, ..)]`"
        );
    }
}
