//! kubegen's public API, listed: every item a user of the `kubegen` crate can name (with every
//! feature on), its signature, fields, variants, methods and trait impls, in
//! `tests/public-api/kubegen.txt`. The test fails when the API changes and the listing was not
//! reviewed: `KUBEGEN_BLESS=1 cargo test -p gen-cli --test public_api` rewrites it, and the diff
//! is the change to review. Items re-exported from `kubegen-core` are listed with their members,
//! read from the engine's sources; `#[doc(hidden)]` items are not API and are left out.
//!
//! The listing is read from the sources with `syn` (rustdoc's JSON output, which tools such as
//! `cargo public-api` read, needs a nightly toolchain).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, Item, UseTree, Visibility};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A crate's modules, by path from its root, each with its items and the `cfg`s above it.
#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Vec<Item>>,
}

impl Crate {
    /// The modules of the crate whose root is `lib`, read through `mod x;` declarations.
    fn read(lib: &Path) -> Crate {
        let mut krate = Crate::default();
        let text = fs::read_to_string(lib).unwrap();
        let file = syn::parse_file(&text).unwrap();
        krate.add(Vec::new(), file.items, lib.parent().unwrap().to_path_buf());
        krate
    }

    /// Adds the module at `path` holding `items`, whose child files are in `dir`.
    fn add(&mut self, path: Vec<String>, items: Vec<Item>, dir: PathBuf) {
        for item in &items {
            let Item::Mod(m) = item else { continue };
            if is_test(&m.attrs) {
                continue;
            }
            let name = m.ident.to_string();
            let mut child = path.clone();
            child.push(name.clone());
            match &m.content {
                Some((_, inner)) => self.add(child, inner.clone(), dir.join(&name)),
                None => {
                    let flat = dir.join(format!("{name}.rs"));
                    let file = if flat.exists() {
                        flat
                    } else {
                        dir.join(&name).join("mod.rs")
                    };
                    let text = fs::read_to_string(&file).unwrap();
                    let parsed = syn::parse_file(&text).unwrap();
                    self.add(child, parsed.items, dir.join(&name));
                }
            }
        }
        self.modules.insert(path, items);
    }

    /// The item named `name` itself in `module` (not a `use`).
    fn item(&self, module: &[String], name: &str) -> Option<&Item> {
        self.modules
            .get(module)?
            .iter()
            .find(|item| !matches!(item, Item::Use(_)) && ident(item).as_deref() == Some(name))
    }

    /// The path a `use` in `module` brings in as `name`.
    fn used(&self, module: &[String], name: &str) -> Option<Vec<String>> {
        self.modules
            .get(module)?
            .iter()
            .find_map(|item| match item {
                Item::Use(u) => flatten_use(&u.tree, Vec::new())
                    .into_iter()
                    .find(|(alias, _)| alias == name)
                    .map(|(_, target)| target),
                _ => None,
            })
    }

    /// Every `impl` block of the crate, with the module it is in.
    fn impls(&self) -> impl Iterator<Item = (&Vec<String>, &syn::ItemImpl)> {
        self.modules.iter().flat_map(|(path, items)| {
            items.iter().filter_map(move |i| match i {
                Item::Impl(imp) if !is_test(&imp.attrs) => Some((path, imp)),
                _ => None,
            })
        })
    }
}

/// What a path resolves to.
enum Found {
    /// An item of a crate read here, in this module.
    Item(&'static str, Vec<String>, Box<Item>),
    /// A module of a crate read here.
    Module(&'static str, Vec<String>),
    /// A path into a crate not read here.
    External(String),
}

/// The (name, path) pairs a `use` tree brings in.
fn flatten_use(tree: &UseTree, prefix: Vec<String>) -> Vec<(String, Vec<String>)> {
    let push = |mut p: Vec<String>, s: String| {
        p.push(s);
        p
    };
    match tree {
        UseTree::Path(p) => flatten_use(&p.tree, push(prefix, p.ident.to_string())),
        UseTree::Name(n) => vec![(n.ident.to_string(), push(prefix, n.ident.to_string()))],
        UseTree::Rename(r) => vec![(r.rename.to_string(), push(prefix, r.ident.to_string()))],
        UseTree::Group(g) => g
            .items
            .iter()
            .flat_map(|t| flatten_use(t, prefix.clone()))
            .collect(),
        UseTree::Glob(_) => vec![("*".to_string(), prefix)],
    }
}

fn ident(item: &Item) -> Option<String> {
    Some(match item {
        Item::Struct(i) => i.ident.to_string(),
        Item::Enum(i) => i.ident.to_string(),
        Item::Trait(i) => i.ident.to_string(),
        Item::Fn(i) => i.sig.ident.to_string(),
        Item::Type(i) => i.ident.to_string(),
        Item::Const(i) => i.ident.to_string(),
        Item::Static(i) => i.ident.to_string(),
        Item::Mod(i) => i.ident.to_string(),
        Item::Macro(i) => i.ident.as_ref()?.to_string(),
        _ => return None,
    })
}

fn attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Struct(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Const(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

fn is_pub(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

fn visibility(item: &Item) -> bool {
    match item {
        Item::Struct(i) => is_pub(&i.vis),
        Item::Enum(i) => is_pub(&i.vis),
        Item::Trait(i) => is_pub(&i.vis),
        Item::Fn(i) => is_pub(&i.vis),
        Item::Type(i) => is_pub(&i.vis),
        Item::Const(i) => is_pub(&i.vis),
        Item::Static(i) => is_pub(&i.vis),
        Item::Mod(i) => is_pub(&i.vis),
        Item::Use(i) => is_pub(&i.vis),
        Item::Macro(i) => i.attrs.iter().any(|a| a.path().is_ident("macro_export")),
        _ => false,
    }
}

fn is_hidden(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "hidden")
    })
}

fn is_test(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.to_token_stream().to_string() == "cfg (test)")
}

/// The `cfg`s of an item, as `  #[cfg(...)]` suffixes.
fn cfgs(attrs: &[Attribute]) -> String {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .map(|a| format!("  {}", pretty("", a, "struct X;")))
        .collect()
}

/// `tokens` as prettyplease prints them between `before` and `after` (which make them an
/// item of a file), on one line, without `before` and `after`.
fn pretty(before: &str, tokens: impl ToTokens, after: &str) -> String {
    let text = format!("{before} {} {after}", tokens.to_token_stream());
    let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let line = one_line(&prettyplease::unparse(&file));
    let (before, after) = (one_line(before), one_line(after));
    let line = line.strip_prefix(&before).unwrap_or(&line).trim();
    let line = line.strip_suffix(&after).unwrap_or(line).trim();
    let line = line.trim_end_matches(" {}").trim_end_matches(';');
    line.trim_end_matches(',').to_string()
}

/// An item's one-line form, as prettyplease prints it without a body or attributes.
fn signature(item: &Item) -> String {
    let mut item = item.clone();
    match &mut item {
        Item::Fn(f) => {
            f.attrs.clear();
            f.block.stmts.clear();
        }
        Item::Struct(s) => {
            s.attrs.clear();
            s.fields = syn::Fields::Unit;
        }
        Item::Enum(e) => {
            e.attrs.clear();
            e.variants.clear();
        }
        Item::Trait(t) => {
            t.attrs.clear();
            t.items.clear();
        }
        Item::Type(t) => t.attrs.clear(),
        Item::Const(c) => {
            c.attrs.clear();
            *c.expr = syn::parse_quote!(_);
        }
        Item::Static(s) => {
            s.attrs.clear();
            *s.expr = syn::parse_quote!(_);
        }
        Item::Macro(m) => {
            return format!("macro {}!", m.ident.as_ref().unwrap());
        }
        Item::Mod(m) => return format!("pub mod {}", m.ident),
        _ => {}
    }
    pretty("", item, "")
}

/// prettyplease's lines joined into one.
fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    joined
        .replace("{ }", "{}")
        .replace("( ", "(")
        .replace(", )", ")")
        .replace("< ", "<")
        .replace(", >", ">")
        .replace(", }", " }")
}

/// The listing's lines for `krate`'s module `module`, public as `public`.
struct Lister<'a> {
    crates: &'a BTreeMap<&'static str, Crate>,
    out: Vec<String>,
}

impl Lister<'_> {
    /// Lists the public items of `module` of `krate` under the public path `public`.
    fn module(&mut self, krate: &'static str, module: &[String], public: &str, cfg: &str) {
        let items = self.crates[krate].modules[module].clone();
        for item in &items {
            if !visibility(item) || is_hidden(attrs(item)) || is_test(attrs(item)) {
                continue;
            }
            let cfg = format!("{cfg}{}", cfgs(attrs(item)));
            match item {
                Item::Use(u) => {
                    for (alias, target) in flatten_use(&u.tree, Vec::new()) {
                        let path = format!("{public}::{alias}");
                        let found = self.resolve(krate, module, &target);
                        self.found(found, &path, &cfg);
                    }
                }
                Item::Mod(m) => {
                    let mut child = module.to_vec();
                    child.push(m.ident.to_string());
                    let path = format!("{public}::{}", m.ident);
                    self.out.push(format!("pub mod {path}{cfg}"));
                    self.module(krate, &child, &path, &cfg);
                }
                _ => self.item(krate, module, item, public, &cfg),
            }
        }
    }

    /// What `path` names from `module` of `krate`, following `use`s and re-exported modules
    /// into the engine.
    fn resolve(&self, krate: &'static str, module: &[String], path: &[String]) -> Found {
        let (mut krate, mut base, rest) = match path.first().map(String::as_str) {
            Some("crate") => (krate, Vec::new(), &path[1..]),
            Some("self") => (krate, module.to_vec(), &path[1..]),
            Some("super") => (krate, module[..module.len() - 1].to_vec(), &path[1..]),
            Some("kubegen_core") => ("kubegen_core", Vec::new(), &path[1..]),
            _ => (krate, module.to_vec(), path),
        };
        for (i, segment) in rest.iter().enumerate() {
            let last = i + 1 == rest.len();
            let c = &self.crates[krate];
            let child = [base.as_slice(), std::slice::from_ref(segment)].concat();
            if c.modules.contains_key(&child) {
                base = child;
                continue;
            }
            if let Some(item) = c.item(&base, segment) {
                return match last {
                    true => Found::Item(krate, base, Box::new(item.clone())),
                    false => Found::External(path.join("::")),
                };
            }
            match c
                .used(&base, segment)
                .map(|t| self.resolve(krate, &base, &t))
            {
                Some(Found::Module(k, m)) => (krate, base) = (k, m),
                Some(found) if last => return found,
                _ => return Found::External(path.join("::")),
            }
        }
        Found::Module(krate, base)
    }

    /// Lists what a `use` re-exports as `path`.
    fn found(&mut self, found: Found, path: &str, cfg: &str) {
        match found {
            Found::Module(krate, module) => {
                let path = match path.strip_suffix("::*") {
                    Some(parent) => parent.to_string(),
                    None => {
                        self.out.push(format!("pub mod {path}{cfg}"));
                        path.to_string()
                    }
                };
                self.module(krate, &module, &path, cfg);
            }
            Found::Item(krate, module, mut item) => {
                let (public, name) = path.rsplit_once("::").unwrap();
                rename(&mut item, name);
                self.item(krate, &module, &item, public, cfg);
            }
            Found::External(target) => self.out.push(format!("pub use {path} = {target}{cfg}")),
        }
    }

    /// One item and its members, under `public`.
    fn item(
        &mut self,
        krate: &'static str,
        module: &[String],
        item: &Item,
        public: &str,
        cfg: &str,
    ) {
        let name = ident(item).unwrap();
        let sig = signature(item);
        let sig = sig.replacen(&format!(" {name}"), &format!(" {public}::{name}"), 1);
        self.out.push(format!("{sig}{cfg}"));
        match item {
            Item::Struct(s) => {
                self.derives(&s.attrs);
                for field in &s.fields {
                    if is_pub(&field.vis) && !is_hidden(&field.attrs) {
                        let name = field.ident.as_ref().map(ToString::to_string);
                        let ty = pretty("type X =", &field.ty, ";");
                        self.out.push(match name {
                            Some(n) => format!("    pub {n}: {ty}"),
                            None => format!("    pub {ty}"),
                        });
                    }
                }
                self.members(krate, module, &s.ident.to_string());
            }
            Item::Enum(e) => {
                self.derives(&e.attrs);
                for v in &e.variants {
                    if !is_hidden(&v.attrs) {
                        let mut fields = v.fields.clone();
                        fields.iter_mut().for_each(|f| f.attrs.clear());
                        let fields = match fields {
                            syn::Fields::Unit => String::new(),
                            syn::Fields::Unnamed(_) => pretty("struct X", &fields, ";"),
                            syn::Fields::Named(_) => pretty("struct X", &fields, ""),
                        };
                        self.out.push(format!("    variant {}{fields}", v.ident));
                    }
                }
                self.members(krate, module, &e.ident.to_string());
            }
            Item::Trait(t) => {
                for member in &t.items {
                    let hidden = match member {
                        syn::TraitItem::Fn(f) => is_hidden(&f.attrs),
                        syn::TraitItem::Type(t) => is_hidden(&t.attrs),
                        syn::TraitItem::Const(c) => is_hidden(&c.attrs),
                        _ => true,
                    };
                    if hidden {
                        continue;
                    }
                    let mut member = member.clone();
                    match &mut member {
                        syn::TraitItem::Fn(f) => {
                            f.attrs.clear();
                            f.default = None;
                        }
                        syn::TraitItem::Type(t) => t.attrs.retain(|a| a.path().is_ident("cfg")),
                        syn::TraitItem::Const(c) => {
                            c.attrs.clear();
                            c.default = None;
                        }
                        _ => continue,
                    }
                    let line = pretty("trait X {", &member, "}");
                    self.out.push(format!("    {line}"));
                }
            }
            _ => {}
        }
    }

    /// The traits a type derives, on one line.
    fn derives(&mut self, attrs: &[Attribute]) {
        let derives = derives(attrs);
        if !derives.is_empty() {
            self.out.push(format!("    derive {}", derives.join(", ")));
        }
    }

    /// The public methods and constants of `name`'s inherent impls, and the traits it
    /// implements, found in `module` and the modules below it.
    fn members(&mut self, krate: &str, module: &[String], name: &str) {
        let mut lines = Vec::new();
        for (path, imp) in self.crates[krate].impls() {
            if !path.starts_with(module) || self_name(&imp.self_ty).as_deref() != Some(name) {
                continue;
            }
            let cfg = cfgs(&imp.attrs);
            match &imp.trait_ {
                Some((t, _)) => {
                    let t = pretty("impl", t, "for X {}");
                    lines.push(format!("    impl {t}{cfg}"));
                }
                None => {
                    for member in &imp.items {
                        let line = match member {
                            syn::ImplItem::Fn(f) if is_pub(&f.vis) && !is_hidden(&f.attrs) => {
                                let mut f = f.clone();
                                f.attrs.clear();
                                f.block.stmts.clear();
                                pretty("impl X {", &f, "}")
                            }
                            syn::ImplItem::Const(c) if is_pub(&c.vis) && !is_hidden(&c.attrs) => {
                                let ty = pretty("type X =", &c.ty, ";");
                                format!("pub const {}: {ty}", c.ident)
                            }
                            _ => continue,
                        };
                        lines.push(format!("    {line}{cfg}"));
                    }
                }
            }
        }
        lines.sort();
        self.out.extend(lines);
    }
}

/// The traits a `#[derive(...)]` names.
fn derives(attrs: &[Attribute]) -> Vec<String> {
    let paths = syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated;
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .filter_map(|a| a.parse_args_with(paths).ok())
        .flatten()
        .map(|path| pretty("type X =", &path, ";"))
        .collect()
}

/// The type an `impl` is for, by its last name.
fn self_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// Renames an item (a `use ... as name` re-export).
fn rename(item: &mut Item, name: &str) {
    let new = syn::Ident::new(name, proc_macro2::Span::call_site());
    match item {
        Item::Struct(i) => i.ident = new,
        Item::Enum(i) => i.ident = new,
        Item::Trait(i) => i.ident = new,
        Item::Fn(i) => i.sig.ident = new,
        Item::Type(i) => i.ident = new,
        Item::Const(i) => i.ident = new,
        Item::Static(i) => i.ident = new,
        Item::Macro(i) => i.ident = Some(new),
        _ => {}
    }
}

/// The listing of kubegen's public API.
fn listing() -> String {
    let crates = BTreeMap::from([
        ("kubegen", Crate::read(&root().join("src/lib.rs"))),
        ("kubegen_core", Crate::read(&root().join("core/src/lib.rs"))),
    ]);
    let mut lister = Lister {
        crates: &crates,
        out: Vec::new(),
    };
    lister.module("kubegen", &[], "kubegen", "");
    let mut text = lister.out.join("\n");
    text.push('\n');
    text
}

#[test]
fn the_public_api_is_the_reviewed_listing() {
    let file = root().join("gen-cli/tests/public-api/kubegen.txt");
    let listing = listing();
    if std::env::var_os("KUBEGEN_BLESS").is_some() {
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, &listing).unwrap();
        return;
    }
    let committed = fs::read_to_string(&file).unwrap_or_default();
    if committed != listing {
        let (old, new): (Vec<&str>, Vec<&str>) =
            (committed.lines().collect(), listing.lines().collect());
        let removed: Vec<&&str> = old.iter().filter(|l| !new.contains(l)).collect();
        let added: Vec<&&str> = new.iter().filter(|l| !old.contains(l)).collect();
        panic!(
            "kubegen's public API changed: review it, then run `KUBEGEN_BLESS=1 cargo test -p \
             gen-cli --test public_api`\nremoved:\n{}\nadded:\n{}",
            removed
                .iter()
                .map(|l| format!("- {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
            added
                .iter()
                .map(|l| format!("+ {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
}

#[test]
fn the_listing_holds_public_items_and_leaves_out_private_and_hidden_ones() {
    let text = listing();
    for expected in [
        "pub fn kubegen::crd_for(versions: &[ResourceDef]) -> Result<CustomResourceDefinition, Errors>",
        "pub struct kubegen::Errors",
        "    pub fn iter(&self) -> std::slice::Iter<'_, Error>",
        "pub trait kubegen::KubeSchema",
        "pub mod kubegen::runtime",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(expected)),
            "no `{expected}` in:\n{text}"
        );
    }
    for absent in [
        "__private",
        "derive_version",
        "fn type_def",
        "kubegen::https",
    ] {
        assert!(!text.contains(absent), "`{absent}` is listed:\n{text}");
    }
}
