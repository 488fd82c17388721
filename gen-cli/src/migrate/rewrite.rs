//! One source file migrated: byte-range edits of the attributes, derives and imports that
//! change, found with syn's spans; every other byte stays. The types rewritten are those that
//! derive kube-derive's `CustomResource`, `KubeSchema` or `CELSchema`, or schemars'
//! `JsonSchema`; their kube-derive and schemars attributes are replaced by what the engine's
//! migration table says ([`kubegen_core::parse::foreign`]); garde's, validator's and serde's
//! stay, with the markers they mean added beside them. A key with no equivalent is left as a
//! `// kubegen migrate:` comment where its attribute stood. A file the command wrote is a file
//! it leaves unchanged.

use std::ops::Range;

use kubegen_core::model::Loc;
use kubegen_core::parse::foreign::{Foreign, Site, Translation};
use kubegen_core::parse::registry::Place;
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::{Attribute, Fields, Path, Token, UseTree};

/// What migrating a file gives.
#[derive(Debug, Default)]
pub struct Migrated {
    /// The new text.
    pub text: String,
    /// What could not be translated, at its place: the key as written and what to do.
    pub untranslated: Vec<(Loc, String)>,
    /// The kubegen features the new text needs.
    pub features: Vec<&'static str>,
}

/// The crates whose derives are replaced.
const DERIVE_CRATES: [&str; 3] = ["kube", "kube_derive", "schemars"];

/// kubegen's derive that stands for a kube-derive or schemars derive named `name`.
fn kubegen_derive(name: &str) -> Option<&'static str> {
    match name {
        "CustomResource" => Some("CustomResource"),
        "KubeSchema" | "CELSchema" | "JsonSchema" => Some("KubeSchema"),
        _ => None,
    }
}

/// A replacement of `range` by `text`.
#[derive(Debug)]
struct Edit {
    range: Range<usize>,
    text: String,
}

/// The versions a kube-derive crate stores: the literal second argument of each
/// `merge_crds(crds, "v1")` call in `text`, the form kube-rs gives several versions of a kind
/// (every other version's `storage` is set to false). kubegen merges the versions itself and
/// takes the stored one from `storage_version`.
pub fn stored_versions(text: &str) -> syn::Result<Vec<String>> {
    struct Calls(Vec<String>);
    impl<'ast> Visit<'ast> for Calls {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            let merge = matches!(&*call.func, syn::Expr::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "merge_crds"));
            if merge
                && let Some(syn::Expr::Lit(l)) = call.args.iter().nth(1)
                && let syn::Lit::Str(s) = &l.lit
            {
                self.0.push(s.value());
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let mut calls = Calls(Vec::new());
    calls.visit_file(&syn::parse_file(text)?);
    Ok(calls.0)
}

/// The file `file` (its `text`) migrated; `stored` holds the crate's [`stored_versions`].
pub fn migrate(file: &str, text: &str, stored: &[String]) -> syn::Result<Migrated> {
    let ast = syn::parse_file(text)?;
    let mut finder = Finder {
        file,
        text,
        stored,
        edits: Vec::new(),
        untranslated: Vec::new(),
        derived: Vec::new(),
        features: Vec::new(),
    };
    finder.visit_file(&ast);
    let Finder {
        mut edits,
        untranslated,
        derived,
        features,
        ..
    } = finder;
    edits.extend(imports(&ast, text, &derived));
    Ok(Migrated {
        text: apply(text, edits),
        untranslated,
        features,
    })
}

/// `text` with the edits made (they do not overlap).
fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        if edit.range.start < at {
            continue; // inside an edit already made (a removed import's leaf)
        }
        out += &text[at..edit.range.start];
        out += &edit.text;
        at = edit.range.end;
    }
    out + &text[at..]
}

/// Walks the file's types.
struct Finder<'a> {
    file: &'a str,
    text: &'a str,
    stored: &'a [String],
    edits: Vec<Edit>,
    untranslated: Vec<(Loc, String)>,
    /// The kubegen derives written without a path (`CustomResource`), which an import brings.
    derived: Vec<&'static str>,
    /// The kubegen features the translated attributes need.
    features: Vec<&'static str>,
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        if let Some(place) = self.derives(&item.attrs) {
            let root = self.node(&item.attrs, place, None);
            self.alias(root, &item.vis, item.to_token_stream());
            self.fields(&item.fields);
        }
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        if let Some(place) = self.derives(&item.attrs) {
            let root = self.node(&item.attrs, place, None);
            self.alias(root, &item.vis, item.to_token_stream());
            for variant in &item.variants {
                self.node(&variant.attrs, Place::Type, None);
                self.fields(&variant.fields);
            }
        }
        syn::visit::visit_item_enum(self, item);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let kubegen = match call.method.to_string().as_str() {
            "validate_cel" => "Kind::validate(&x)",
            "validate_cel_update" => "Kind::validate_update(&old, &x)",
            _ => "",
        };
        if !kubegen.is_empty() {
            self.untranslated.push((
                kubegen_core::parse::span::loc(self.file, call.method.span()),
                format!(
                    "`{}`: kube-derive's client-side CEL check (`#[kube(cel)]`); kubegen's is \
                     `{kubegen}` (`use kubegen::Validate;`)",
                    call.method
                ),
            ));
        }
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let hand_written = item.trait_.as_ref().is_some_and(|(path, _)| {
            path.segments
                .last()
                .is_some_and(|s| s.ident == "JsonSchema")
        });
        if hand_written {
            let start = item.impl_token.span;
            let todo = "a hand-written `JsonSchema` impl, which kubegen does not read: write the \
                        schema as markers on a `KubeSchema` derive, or `schemaless` with \
                        `schema_type` on the fields of this type";
            self.untranslated.push((
                kubegen_core::parse::span::loc(self.file, start),
                todo.into(),
            ));
            self.comment_above(item_start(item), todo);
        }
        syn::visit::visit_item_impl(self, item);
    }
}

/// Where an impl starts (its first attribute, else `impl`).
fn item_start(item: &syn::ItemImpl) -> usize {
    item.attrs
        .first()
        .map_or(item.impl_token.span.byte_range().start, |a| {
            a.pound_token.span.byte_range().start
        })
}

impl Finder<'_> {
    /// The item's derives rewritten; where its attributes stand if it derives one of the
    /// replaced derives (or kubegen's, for a file migrated half-way).
    fn derives(&mut self, attrs: &[Attribute]) -> Option<Place> {
        let mut place = None;
        for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
            let Ok(paths) = attr.parse_args_with(Punctuated::<Path, Token![,]>::parse_terminated)
            else {
                continue;
            };
            let names: Vec<String> = paths
                .iter()
                .map(|p| {
                    p.segments
                        .last()
                        .map(|s| s.ident.to_string())
                        .unwrap_or_default()
                })
                .collect();
            if names.iter().any(|n| n == "CustomResource") {
                place = Some(Place::Spec);
            } else if names.iter().any(|n| kubegen_derive(n).is_some()) {
                place = place.or(Some(Place::Type));
            }
            let spec = names.iter().any(|n| n == "CustomResource");
            let mut kept_schema = false;
            let list: Vec<(&Path, &String)> = paths.iter().zip(&names).collect();
            for (i, (path, name)) in list.iter().enumerate() {
                let Some(ours) = kubegen_derive(name) else {
                    continue;
                };
                // kubegen's `CustomResource` gives the spec its schema; one schema derive
                // stays on another type.
                let schema = ours == "KubeSchema";
                if schema && (spec || kept_schema) {
                    self.edits.push(Edit {
                        range: list_entry(&list.iter().map(|(p, _)| *p).collect::<Vec<_>>(), i),
                        text: String::new(),
                    });
                    continue;
                }
                kept_schema |= schema;
                let range = span_range(path.to_token_stream());
                let qualified = path.segments.len() > 1;
                let text = match qualified {
                    true => format!("kubegen::{ours}"),
                    false => {
                        self.derived.push(ours);
                        ours.to_string()
                    }
                };
                if self.text[range.clone()] != text {
                    let foreign_crate = !qualified
                        || DERIVE_CRATES.contains(&path.segments[0].ident.to_string().as_str());
                    if foreign_crate {
                        self.edits.push(Edit { range, text });
                    }
                }
            }
        }
        place
    }

    /// The fields' attributes.
    fn fields(&mut self, fields: &Fields) {
        for field in fields {
            self.node(&field.attrs, Place::Field, Some(&field.ty));
        }
    }

    /// `type Root = Kind;` after the item `tokens`, for the `(root, kind)` kube-derive named.
    fn alias(
        &mut self,
        root: Option<(String, String)>,
        vis: &syn::Visibility,
        tokens: TokenStream,
    ) {
        let Some((root, kind)) = root else {
            return;
        };
        let item = span_range(tokens);
        let vis = match &self.text[span_range(vis.to_token_stream())] {
            "" => String::new(),
            v => format!("{v} "),
        };
        let indent = indentation(self.text, item.start);
        self.edits.push(Edit {
            range: item.end..item.end,
            text: format!("\n{indent}{vis}type {root} = {kind};"),
        });
    }

    /// The attributes of one type, variant or field: its kube-derive and schemars attributes
    /// replaced, markers added beside garde's and validator's. The root type's name and the
    /// kind's when `#[kube(root)]` names one other than the kind.
    fn node(
        &mut self,
        attrs: &[Attribute],
        place: Place,
        ty: Option<&syn::Type>,
    ) -> Option<(String, String)> {
        let site = Site::new(place, ty, attrs);
        let mut t = Translation::default();
        let mut replaced = Vec::new();
        let mut last_kept = None;
        let mut reported = Vec::new();
        for attr in attrs {
            let Some(foreign) = Foreign::of(attr) else {
                continue;
            };
            let before = t.untranslated.len();
            t.add(attr, &site);
            if foreign.stays() {
                // Reported, not commented: the attribute stays, and so would a comment on
                // every run.
                last_kept = Some(attr);
                reported.extend(t.untranslated.drain(before..));
            } else {
                replaced.push(attr);
            }
        }
        let stores = self
            .stored
            .iter()
            .any(|v| t.markers.contains(&format!("version = {v:?}")));
        if place == Place::Spec && stores {
            t.markers.push("storage_version".into());
        }
        self.features.extend(&t.features);
        let existing = |name: &str| keys(attrs, name);
        let markers: Vec<String> = t
            .markers
            .iter()
            .filter(|m| !existing("kube_marker").contains(&key_of(m)))
            .cloned()
            .collect();
        let serde: Vec<String> = t
            .serde
            .iter()
            .filter(|m| !existing("serde").contains(&key_of(m)))
            .cloned()
            .collect();
        let mut lines: Vec<String> = t
            .untranslated
            .iter()
            .map(|u| format!("// kubegen migrate: `{}`: {}", u.text, u.todo))
            .collect();
        for u in t.untranslated.iter().chain(&reported) {
            let loc = kubegen_core::parse::span::loc(self.file, u.span);
            self.untranslated
                .push((loc, format!("`{}`: {}", u.text, u.todo)));
        }
        if !serde.is_empty() {
            lines.push(format!("#[serde({})]", serde.join(", ")));
        }
        if !markers.is_empty() {
            lines.push(format!("#[kube_marker({})]", markers.join(", ")));
        }
        match (replaced.first(), last_kept) {
            (Some(first), _) => {
                let range = match lines.is_empty() {
                    // Nothing replaces it: its line goes too.
                    true => line_range(self.text, attr_range(first)),
                    false => attr_range(first),
                };
                let indent = indentation(self.text, range.start);
                self.edits.push(Edit {
                    range,
                    text: lines.join(&format!("\n{indent}")),
                });
                for attr in &replaced[1..] {
                    self.edits.push(Edit {
                        range: line_range(self.text, attr_range(attr)),
                        text: String::new(),
                    });
                }
            }
            (None, Some(kept)) if !lines.is_empty() => {
                let end = attr_range(kept).end;
                let indent = indentation(self.text, attr_range(kept).start);
                self.edits.push(Edit {
                    range: end..end,
                    text: lines.iter().map(|l| format!("\n{indent}{l}")).collect(),
                });
            }
            _ => {}
        }
        let kind = t
            .markers
            .iter()
            .find_map(|m| m.strip_prefix("kind = "))?
            .trim_matches('"')
            .to_string();
        t.root.filter(|root| *root != kind).map(|root| (root, kind))
    }

    /// A `// kubegen migrate:` line above the item starting at `start`, unless one is there.
    fn comment_above(&mut self, start: usize, todo: &str) {
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let above = self.text[..line_start.saturating_sub(1)]
            .rsplit('\n')
            .next()
            .unwrap_or_default();
        if above.trim_start().starts_with("// kubegen migrate:") {
            return;
        }
        let indent = indentation(self.text, start);
        self.edits.push(Edit {
            range: line_start..line_start,
            text: format!("{indent}// kubegen migrate: {todo}\n"),
        });
    }
}

/// The key of an attribute argument as written (`max_length = 5` → `max_length`).
fn key_of(arg: &str) -> String {
    arg.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The keys of every `#[name(...)]` in `attrs`.
fn keys(attrs: &[Attribute], name: &str) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident(name))
        .filter_map(|a| {
            a.parse_args_with(Punctuated::<syn::Meta, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
        .map(|m| m.path().to_token_stream().to_string())
        .collect()
}

/// The bytes of an attribute, `#` to `]`.
fn attr_range(attr: &Attribute) -> Range<usize> {
    attr.pound_token.span.byte_range().start..attr.bracket_token.span.close().byte_range().end
}

/// The bytes the tokens cover.
fn span_range(tokens: TokenStream) -> Range<usize> {
    let spans: Vec<Span> = tokens.into_iter().map(|t| t.span()).collect();
    match (spans.first(), spans.last()) {
        (Some(first), Some(last)) => first.byte_range().start..last.byte_range().end,
        _ => 0..0,
    }
}

/// `range` widened to its whole line when nothing else is on it (the line's indentation and
/// its newline go too).
fn line_range(text: &str, range: Range<usize>) -> Range<usize> {
    let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |i| range.end + i + 1);
    let alone = text[line_start..range.start].trim().is_empty()
        && text[range.end..line_end].trim().is_empty();
    if alone { line_start..line_end } else { range }
}

/// The whitespace that starts the line holding `at`.
fn indentation(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..at];
    &line[..line.len() - line.trim_start().len()]
}

/// The bytes entry `i` of a comma-separated list takes with its comma: up to the next entry,
/// or for the last one from the end of the entry before.
fn list_entry<T: ToTokens>(entries: &[T], i: usize) -> Range<usize> {
    let this = span_range(entries[i].to_token_stream());
    match (entries.get(i + 1), i.checked_sub(1).map(|j| &entries[j])) {
        (Some(next), _) => this.start..span_range(next.to_token_stream()).start,
        (None, Some(before)) => span_range(before.to_token_stream()).end..this.end,
        (None, None) => this,
    }
}

/// The imports of kube-derive's and schemars' derives removed, and one `use kubegen::{...}`
/// for the kubegen derives the file names without a path. An import whose name the file still
/// uses elsewhere (a hand-written impl) stays.
fn imports(ast: &syn::File, text: &str, derived: &[&'static str]) -> Vec<Edit> {
    let mut uses = Uses::default();
    uses.visit_file(ast);
    let mentions = |name: &str| count_ident(ast.to_token_stream(), name);
    let mut edits = Vec::new();
    let mut first_use: Option<(Range<usize>, bool)> = None;
    for (item, leaves) in &uses.found {
        let removable: Vec<&Leaf> = leaves
            .iter()
            .filter(|l| {
                // The import and the derives are its only uses.
                let derives = uses.derive_uses.iter().filter(|d| **d == l.name).count();
                mentions(&l.name) <= 1 + derives
            })
            .collect();
        if removable.is_empty() {
            continue;
        }
        let whole = removable.len() == leaves.len() && leaves.len() == count_leaves(&item.tree);
        let range = span_range(item.to_token_stream());
        if whole {
            edits.push(Edit {
                range: range.clone(),
                text: String::new(),
            });
        } else {
            for leaf in removable {
                edits.push(Edit {
                    range: leaf.range.clone(),
                    text: String::new(),
                });
            }
        }
        first_use.get_or_insert((range, whole));
    }
    let mut wanted: Vec<&str> = derived.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    wanted.retain(|name| !uses.kubegen.iter().any(|k| k == name));
    if wanted.is_empty() {
        return lines_of_removed(text, edits);
    }
    let import = match &wanted[..] {
        [one] => format!("use kubegen::{one};"),
        many => format!("use kubegen::{{{}}};", many.join(", ")),
    };
    match first_use {
        Some((range, true)) => {
            edits.retain(|e| e.range != range);
            edits.push(Edit {
                range,
                text: import,
            });
        }
        Some((range, false)) => edits.push(Edit {
            range: range.end..range.end,
            text: format!("\n{}{import}", indentation(text, range.start)),
        }),
        None => {
            let at = ast
                .items
                .iter()
                .find(|i| matches!(i, syn::Item::Use(_)))
                .map_or(0, |i| span_range(i.to_token_stream()).start);
            edits.push(Edit {
                range: at..at,
                text: format!("{import}\n"),
            });
        }
    }
    lines_of_removed(text, edits)
}

/// Whole imports removed with their lines.
fn lines_of_removed(text: &str, edits: Vec<Edit>) -> Vec<Edit> {
    edits
        .into_iter()
        .map(|e| {
            if e.text.is_empty() && text[e.range.clone()].starts_with("use ") {
                Edit {
                    range: line_range(text, e.range),
                    text: e.text,
                }
            } else {
                e
            }
        })
        .collect()
}

/// An imported name to remove, with the bytes it takes in its group.
struct Leaf {
    name: String,
    range: Range<usize>,
}

/// The file's imports of kube-derive's and schemars' derives, and of kubegen's.
#[derive(Default)]
struct Uses<'ast> {
    found: Vec<(&'ast syn::ItemUse, Vec<Leaf>)>,
    kubegen: Vec<String>,
    derive_uses: Vec<String>,
}

impl<'ast> Visit<'ast> for Uses<'ast> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        let mut kubegen = Vec::new();
        walk(&item.tree, &mut Vec::new(), None, &mut leaves, &mut kubegen);
        self.kubegen.extend(kubegen);
        if !leaves.is_empty() {
            self.found.push((item, leaves));
        }
    }

    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if attr.path().is_ident("derive")
            && let Ok(paths) = attr.parse_args_with(Punctuated::<Path, Token![,]>::parse_terminated)
        {
            for p in paths.iter().filter(|p| p.segments.len() == 1) {
                self.derive_uses.push(p.segments[0].ident.to_string());
            }
        }
    }
}

/// The leaves of `tree` under `prefix` that import a replaced derive (with the bytes each
/// takes, `range` being the entry's own in its group), and the names imported from kubegen.
fn walk(
    tree: &UseTree,
    prefix: &mut Vec<String>,
    range: Option<Range<usize>>,
    leaves: &mut Vec<Leaf>,
    kubegen: &mut Vec<String>,
) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            walk(&p.tree, prefix, range, leaves, kubegen);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            let root = prefix.first().map(String::as_str);
            if root == Some("kubegen") {
                kubegen.push(name);
            } else if let (Some(root), Some(ours)) = (root, kubegen_derive(&name)) {
                let from_kube = root != "schemars" && DERIVE_CRATES.contains(&root);
                if (from_kube && name != "JsonSchema")
                    || (root == "schemars" && ours == "KubeSchema")
                {
                    leaves.push(Leaf {
                        name,
                        range: range.unwrap_or_else(|| span_range(n.to_token_stream())),
                    });
                }
            }
        }
        UseTree::Group(g) => {
            let entries: Vec<&UseTree> = g.items.iter().collect();
            for (i, entry) in entries.iter().enumerate() {
                walk(
                    entry,
                    prefix,
                    Some(list_entry(&entries, i)),
                    leaves,
                    kubegen,
                );
            }
        }
        UseTree::Rename(_) | UseTree::Glob(_) => {}
    }
}

/// How many names a use tree imports.
fn count_leaves(tree: &UseTree) -> usize {
    match tree {
        UseTree::Path(p) => count_leaves(&p.tree),
        UseTree::Group(g) => g.items.iter().map(count_leaves).sum(),
        UseTree::Name(_) | UseTree::Rename(_) | UseTree::Glob(_) => 1,
    }
}

/// How often the identifier `name` appears in `tokens`.
fn count_ident(tokens: TokenStream, name: &str) -> usize {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Ident(i) => usize::from(i == name),
            TokenTree::Group(g) => count_ident(g.stream(), name),
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests;
