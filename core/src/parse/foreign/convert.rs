//! The conversions of keys that are not one kubegen key with the same value ([`How::With`]).
//!
//! [`How::With`]: super::How::With

use quote::ToTokens;
use syn::{Expr, Lit, Meta};

use super::{Site, Translation, flag, literal, nested, string};

/// `key(a = .., b = ..)` (or `key = "<JSON object>"`, whose fields are `json` of each) as
/// kubegen's `name(...)`: each of `keys` (`(foreign, json, kubegen)`) renamed, in that order.
fn renamed(
    meta: &Meta,
    name: &str,
    keys: &[(&str, &str, &str)],
    out: &mut Translation,
) -> Result<(), String> {
    let mut args = Vec::new();
    match meta {
        Meta::List(list) => {
            let inner = nested(&list.tokens).map_err(|e| e.to_string())?;
            for m in &inner {
                let key = m.path().to_token_stream().to_string();
                let Some((_, _, to)) = keys.iter().find(|(from, _, _)| *from == key) else {
                    return Err(format!(
                        "`{key}` is not a key of `{name}`: translate it by hand"
                    ));
                };
                let Meta::NameValue(nv) = m else {
                    return Err(format!("`{key}` needs a value"));
                };
                let value = literal(&nv.value).ok_or("a value known only at run time")?;
                args.push(format!("{to} = {value}"));
            }
        }
        _ => {
            let text = string(meta).ok_or("expected a string of JSON or `(...)`")?;
            let json: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&text).map_err(|e| format!("not a JSON object: {e}"))?;
            for (_, from, to) in keys {
                if let Some(v) = json.get(*from) {
                    args.push(format!("{to} = {v}"));
                }
            }
            if let Some(other) = json.keys().find(|k| !keys.iter().any(|(_, j, _)| j == k)) {
                return Err(format!("`{other}` is not a field of `{name}`"));
            }
        }
    }
    out.markers.push(format!("{name}({})", args.join(", ")));
    Ok(())
}

/// kube-derive's `printcolumn(...)` or `printcolumn = "<JSON>"`.
pub(super) fn printcolumn(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    renamed(
        meta,
        "printcolumn",
        &[
            ("name", "name", "name"),
            ("type_", "type", "type"),
            ("json_path", "jsonPath", "json_path"),
            ("description", "description", "description"),
            ("format", "format", "format"),
            ("priority", "priority", "priority"),
        ],
        out,
    )
}

/// kube-derive's `scale(...)` or `scale = "<JSON>"`.
pub(super) fn scale(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    renamed(
        meta,
        "scale",
        &[
            ("spec_replicas_path", "specReplicasPath", "spec_path"),
            ("status_replicas_path", "statusReplicasPath", "status_path"),
            ("label_selector_path", "labelSelectorPath", "selector_path"),
        ],
        out,
    )
}

/// kube-derive's `annotation("key", "value")` or `label(...)`: an entry of `annotations` or
/// `labels`.
fn pair(meta: &Meta, name: &str, out: &mut Translation) -> Result<(), String> {
    let Meta::List(list) = meta else {
        return Err("expected `(\"key\", \"value\")`".into());
    };
    let parser = syn::punctuated::Punctuated::<syn::LitStr, syn::Token![,]>::parse_terminated;
    let strings = syn::parse::Parser::parse2(parser, list.tokens.clone())
        .map_err(|_| "expected two string literals".to_string())?;
    let [key, value] = &strings.into_iter().collect::<Vec<_>>()[..] else {
        return Err("expected `(\"key\", \"value\")`".into());
    };
    let entry = format!("{}={}", key.value(), value.value());
    // Entries of one key collect into one list.
    let prefix = format!("{name} = [");
    match out.markers.iter_mut().find(|m| m.starts_with(&prefix)) {
        Some(list) => {
            list.pop();
            *list += &format!(", {entry:?}]");
        }
        None => out.markers.push(format!("{prefix}{entry:?}]")),
    }
    Ok(())
}

pub(super) fn annotation(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    pair(meta, "annotations", out)
}

pub(super) fn label(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    pair(meta, "labels", out)
}

/// kube-derive's `selectable = ".spec.x"`.
pub(super) fn selectable(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    let path = string(meta).ok_or("expected a string")?;
    out.markers
        .push(format!("selectable_field(json_path = {path:?})"));
    Ok(())
}

/// `#[x_kube(validation = ...)]`: a rule on the node it stands on.
pub(super) fn validation(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    rule(meta, &|text| Some(text.to_string()), out)
}

/// `#[kube(validation = ...)]`: a rule on the root object, which kubegen writes on the spec
/// (`x_validation` on the spec struct): `self.spec.x` becomes `self.x`. A rule that reads
/// anything else of the root (`self.metadata`, `self.status`) has no place there.
pub(super) fn root_validation(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    rule(meta, &on_spec, out).map_err(|e| match e.as_str() {
        ROOT => "the rule reads the root object beyond `spec` (`self.metadata`, `self.status`):                  kubegen's `x_validation` goes on the spec or a field; rewrite it there, or check                  it in a validating webhook"
            .to_string(),
        _ => e,
    })
}

/// What [`rule`] says of a text [`on_spec`] cannot move.
const ROOT: &str = "root";

/// A CEL text of the root object (a rule, a message expression, a field path) as the spec's:
/// `self.spec` → `self`, `oldSelf.spec` → `oldSelf`, `.spec.x` → `.x`; `None` when it reads
/// more of the root.
fn on_spec(text: &str) -> Option<String> {
    if let Some(path) = text.strip_prefix(".spec") {
        return (path.is_empty() || path.starts_with(['.', '['])).then(|| path.to_string());
    }
    let selves = text.matches("self").count() + text.matches("Self").count();
    let on_spec = text.matches("self.spec").count() + text.matches("oldSelf.spec").count();
    (selves == on_spec).then(|| {
        text.replace("self.spec", "self")
            .replace("oldSelf.spec", "oldSelf")
    })
}

/// A CEL rule: `"rule"`, or `Rule::new("rule")` with `.message(..)`, `.reason(Reason::..)`,
/// `.field_path(..)` and `.optional_old_self(..)` calls, as `x_validation(...)`; each CEL text
/// passed through `place` (`None`: [`ROOT`]).
fn rule(
    meta: &Meta,
    place: &dyn Fn(&str) -> Option<String>,
    out: &mut Translation,
) -> Result<(), String> {
    let cel = |expr: &Expr| -> Result<Option<String>, String> {
        match converted(expr) {
            Expr::Lit(l) => match &l.lit {
                Lit::Str(s) if place(&s.value()).as_deref() == Some(s.value().as_str()) => {
                    Ok(literal(converted(expr)))
                }
                Lit::Str(s) => place(&s.value())
                    .map(|t| Some(format!("{t:?}")))
                    .ok_or_else(|| ROOT.to_string()),
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    };
    let Meta::NameValue(nv) = meta else {
        return Err("expected `validation = ...`".into());
    };
    let todo = "a rule built at run time: write `x_validation(rule = \"...\", ...)` with its literal \
                parts";
    let mut args = Vec::new();
    let mut expr = &nv.value;
    let mut calls = Vec::new();
    while let Expr::MethodCall(call) = expr {
        calls.push(call);
        expr = &call.receiver;
    }
    let rule = match expr {
        Expr::Lit(l) if matches!(l.lit, Lit::Str(_)) => cel(expr)?,
        // `("rule", "message")`
        Expr::Tuple(t) if t.elems.len() == 2 => {
            let message = literal(&t.elems[1]).ok_or(todo)?;
            calls.clear();
            args.push(format!("message = {message}"));
            cel(&t.elems[0])?
        }
        Expr::Call(call) if path_ends(&call.func, "new") && call.args.len() == 1 => {
            match call.args.first() {
                Some(arg) => cel(arg)?,
                None => None,
            }
        }
        _ => None,
    };
    args.insert(0, format!("rule = {}", rule.ok_or(todo)?));
    for call in calls.into_iter().rev() {
        let arg = call.args.first().ok_or(todo)?;
        let method = call.method.to_string();
        let written = match method.as_str() {
            "message" => match arg {
                Expr::Call(c) if path_ends(&c.func, "Expression") => match c.args.first() {
                    Some(m) => cel(m)?.map(|m| format!("message_expression = {m}")),
                    None => None,
                },
                _ => literal(converted(arg)).map(|m| format!("message = {m}")),
            },
            "reason" => last_segment(arg).map(|r| format!("reason = {r:?}")),
            "field_path" => cel(arg)?.map(|p| format!("field_path = {p}")),
            "optional_old_self" => literal(arg).map(|b| format!("optional_old_self = {b}")),
            _ => None,
        };
        args.push(written.ok_or(todo)?);
    }
    out.markers
        .push(format!("x_validation({})", args.join(", ")));
    Ok(())
}

/// `expr` without the conversions around a literal (`"a".into()`, `"a".to_string()`).
fn converted(expr: &Expr) -> &Expr {
    match expr {
        Expr::MethodCall(m)
            if m.args.is_empty()
                && ["into", "to_string", "to_owned"].contains(&m.method.to_string().as_str()) =>
        {
            converted(&m.receiver)
        }
        _ => expr,
    }
}

/// Whether the path expression `expr` ends with `name`.
fn path_ends(expr: &Expr, name: &str) -> bool {
    last_segment(expr).is_some_and(|s| s == name)
}

/// The last segment of a path expression.
fn last_segment(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// kube-derive's `storage`: `storage_version` when true.
pub(super) fn storage(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    if flag(meta).ok_or("expected `storage = true` or `false`")? {
        out.markers.push("storage_version".into());
    }
    Ok(())
}

/// kube-derive's `served`: `served = false` when false.
pub(super) fn served(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    if !flag(meta).ok_or("expected `served = true` or `false`")? {
        out.markers.push("served = false".into());
    }
    Ok(())
}

/// kube-derive's `deprecated` or `deprecated = "warning"`.
pub(super) fn deprecated(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    match meta {
        Meta::Path(_) => out.markers.push("deprecated".into()),
        Meta::NameValue(nv) => {
            let warning = literal(&nv.value).ok_or("expected a string")?;
            out.markers.push(format!("deprecated(warning = {warning})"));
        }
        Meta::List(_) => return Err("expected `deprecated = \"...\"`".into()),
    }
    Ok(())
}

/// kube-derive's `schema = "derived" | "disabled" | "manual"`.
pub(super) fn schema_mode(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    match string(meta).as_deref() {
        Some("derived") => Ok(()),
        Some("disabled") => {
            out.markers.push("schemaless".into());
            out.markers.push("preserve_unknown_fields".into());
            Ok(())
        }
        Some("manual") => Err(
            "kubegen derives the schema from the spec's fields: write its keywords as markers, \
             or implement `KubeSchema` by hand"
                .into(),
        ),
        _ => Err("expected `\"derived\"`, `\"disabled\"` or `\"manual\"`".into()),
    }
}

/// `root = "Name"`: the root type's name, which `migrate` keeps as an alias of the kind.
pub(super) fn root_name(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    out.root = Some(string(meta).ok_or("expected `root = \"Name\"`")?);
    Ok(())
}

/// `cel`: kubegen's `validate` feature, whose `Validate` trait checks objects in process.
pub(super) fn cel_validate(_: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    out.features.push("validate");
    Ok(())
}

/// What a length counts in a field of type `ty` (through an `Option`): `"items"` of a list or
/// set, `"properties"` of a map, else `"length"` (a string's).
fn counted(ty: Option<&syn::Type>) -> &'static str {
    let Some(syn::Type::Path(p)) = ty else {
        return match ty {
            Some(syn::Type::Array(_) | syn::Type::Slice(_)) => "items",
            _ => "length",
        };
    };
    let Some(last) = p.path.segments.last() else {
        return "length";
    };
    let name = last.ident.to_string();
    match name.as_str() {
        "Option" => match &last.arguments {
            syn::PathArguments::AngleBracketed(args) => match args.args.first() {
                Some(syn::GenericArgument::Type(inner)) => counted(Some(inner)),
                _ => "length",
            },
            _ => "length",
        },
        "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "IndexSet" => "items",
        "HashMap" | "BTreeMap" | "IndexMap" => "properties",
        _ => "length",
    }
}

/// The bounds of `key(min = .., max = .., equal = ..)` (garde's mode words, `chars` or `bytes`,
/// skipped), as kubegen's `min`/`max` keys.
fn bounds(meta: &Meta, min: &str, max: &str, out: &mut Translation) -> Result<(), String> {
    let Meta::List(list) = meta else {
        return Err("expected `(min = .., max = ..)`".into());
    };
    for m in nested(&list.tokens).map_err(|e| e.to_string())? {
        let key = m.path().to_token_stream().to_string();
        let Meta::NameValue(nv) = &m else {
            continue; // a mode word
        };
        let value = literal(&nv.value)
            .ok_or("a bound known only at run time (a constant): write the number as a marker")?;
        match key.as_str() {
            "min" => out.marker(min, value),
            "max" => out.marker(max, value),
            "equal" => {
                out.marker(min, &value);
                out.marker(max, value);
            }
            other => return Err(format!("`{other}` has no kubegen equivalent")),
        }
    }
    Ok(())
}

/// `length(min, max, equal)`: a string's `min_length`/`max_length`, a list's
/// `min_items`/`max_items`, a map's `min_properties`/`max_properties`.
pub(super) fn length(meta: &Meta, site: &Site, out: &mut Translation) -> Result<(), String> {
    let counted = counted(site.ty);
    bounds(
        meta,
        &format!("min_{counted}"),
        &format!("max_{counted}"),
        out,
    )
}

/// `range(min, max)`: `minimum`/`maximum`.
pub(super) fn range(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    bounds(meta, "minimum", "maximum", out)
}

/// A pattern: `regex(pattern = "...")`, `pattern("...")`, `pattern = "..."`; a path to a
/// compiled regex is known only at run time.
pub(super) fn pattern(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    let todo = "a regex known only at run time: write `pattern = \"...\"` with its text";
    let text = match meta {
        Meta::NameValue(nv) => literal(&nv.value).filter(|t| t.contains('"')),
        Meta::List(list) => match nested(&list.tokens) {
            Ok(inner) => inner.iter().find_map(|m| match m {
                Meta::NameValue(nv) if nv.path.is_ident("pattern") => literal(&nv.value),
                _ => None,
            }),
            Err(_) => syn::parse2::<syn::LitStr>(list.tokens.clone())
                .ok()
                .map(|s| s.to_token_stream().to_string()),
        },
        Meta::Path(_) => None,
    };
    out.marker("pattern", text.ok_or(todo)?);
    Ok(())
}

pub(super) fn email(_: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    out.marker("format", "\"email\"");
    Ok(())
}

pub(super) fn url(_: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    out.marker("format", "\"uri\"");
    Ok(())
}

/// schemars' `inner(...)`: the items' schema keys, as `items(...)`.
pub(super) fn inner(meta: &Meta, site: &Site, out: &mut Translation) -> Result<(), String> {
    let Meta::List(list) = meta else {
        return Err("expected `inner(...)`".into());
    };
    let tokens = &list.tokens;
    let attr: syn::Attribute = syn::parse_quote!(#[schemars(#tokens)]);
    let items = super::translate(&attr, &Site { ty: None, ..*site });
    if let Some(u) = items.untranslated.first() {
        return Err(format!("`{}` inside `inner`: {}", u.text, u.todo));
    }
    out.markers
        .push(format!("items({})", items.markers.join(", ")));
    Ok(())
}

/// schemars' `extend("key" = value, ...)`: the `x-kubernetes-*` keys kubegen has markers for.
pub(super) fn extend(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    let Meta::List(list) = meta else {
        return Err("expected `extend(\"key\" = value)`".into());
    };
    let parser = syn::punctuated::Punctuated::<syn::ExprAssign, syn::Token![,]>::parse_terminated;
    let pairs = syn::parse::Parser::parse2(parser, list.tokens.clone())
        .map_err(|_| "expected `\"key\" = value` pairs".to_string())?;
    for pair in pairs {
        let key = match &*pair.left {
            Expr::Lit(l) => match &l.lit {
                Lit::Str(s) => s.value(),
                _ => String::new(),
            },
            _ => String::new(),
        };
        let value = literal(&pair.right);
        let written = match (key.as_str(), value.as_deref()) {
            ("x-kubernetes-preserve-unknown-fields", Some("true")) => {
                Some("preserve_unknown_fields".to_string())
            }
            ("x-kubernetes-int-or-string", Some("true")) => Some("int_or_string".to_string()),
            ("x-kubernetes-embedded-resource", Some("true")) => {
                Some("embedded_resource".to_string())
            }
            ("x-kubernetes-list-type", Some(v)) => Some(format!("list_type = {v}")),
            ("x-kubernetes-map-type", Some(v)) => Some(format!("map_type = {v}")),
            ("x-kubernetes-validations", _) => None,
            _ => None,
        };
        out.markers.push(written.ok_or_else(|| {
            format!(
                "`{key}` has no kubegen marker: write the keyword's marker (`kubegen markers`), \
                 or `schemaless` with `schema_type`"
            )
        })?);
    }
    Ok(())
}

/// schemars' `example = value`: kubegen's `example` for a literal.
pub(super) fn example(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    let Meta::NameValue(nv) = meta else {
        return Err("expected `example = ...`".into());
    };
    let value = literal(&nv.value)
        .ok_or("an example built at run time: write `example = ...` with a literal")?;
    out.marker("example", value);
    Ok(())
}

/// kube-derive's `merge_strategy = ListMerge::Set | ListMerge::Map(vec![..]) | MapMerge::.. |
/// StructMerge::..`.
pub(super) fn merge_strategy(meta: &Meta, _: &Site, out: &mut Translation) -> Result<(), String> {
    let Meta::NameValue(nv) = meta else {
        return Err("expected `merge_strategy = ...`".into());
    };
    let todo = "a strategy kubegen cannot read: write `list_type`, `list_map_keys`, `map_type` or \
                `struct_type`";
    let (path, args) = match &nv.value {
        Expr::Path(p) => (&p.path, None),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => (&p.path, c.args.first()),
            _ => return Err(todo.into()),
        },
        _ => return Err(todo.into()),
    };
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let [.., kind, variant] = &names[..] else {
        return Err(todo.into());
    };
    let key = match kind.as_str() {
        "ListMerge" => "list_type",
        "MapMerge" => "map_type",
        "StructMerge" => "struct_type",
        _ => return Err(todo.into()),
    };
    out.marker(key, format!("{:?}", variant.to_lowercase()));
    if let Some(keys) = args {
        let keys = strings_in(keys).ok_or(todo)?;
        out.marker("list_map_keys", format!("{keys:?}"));
    }
    Ok(())
}

/// The string literals of `vec!["a".into(), "b".to_string()]` or `["a", "b"]`, in order.
fn strings_in(expr: &Expr) -> Option<Vec<String>> {
    let tokens = expr.to_token_stream();
    let mut out = Vec::new();
    collect_strings(tokens, &mut out);
    (!out.is_empty()).then_some(out)
}

fn collect_strings(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    for tree in tokens {
        match tree {
            proc_macro2::TokenTree::Literal(l) => {
                if let Ok(s) = syn::parse_str::<syn::LitStr>(&l.to_string()) {
                    out.push(s.value());
                }
            }
            proc_macro2::TokenTree::Group(g) => collect_strings(g.stream(), out),
            _ => {}
        }
    }
}

/// serde's `default` on a field: the value schemars writes as the schema's `default` (what
/// `Default::default()` serializes to) for the types whose default the syntax shows, as
/// kubegen's `default`; a field of another type, or a default function, is left to the user.
pub(super) fn serde_default(meta: &Meta, site: &Site, out: &mut Translation) -> Result<(), String> {
    if site.place != crate::parse::registry::Place::Field {
        return Ok(()); // a container's default is its `Default` impl's, field by field
    }
    let todo = "schemars wrote the default serde fills in; kubegen writes a `default` only from \
                `#[kube_marker(default = ...)]`: add it to keep the CRD's";
    if !matches!(meta, Meta::Path(_)) {
        return Err(todo.into());
    }
    let value = match counted(site.ty) {
        "items" => "[]",
        "properties" => {
            out.marker("default_json", "\"{}\"");
            return Ok(());
        }
        _ => match last_ident(site.ty).as_deref() {
            Some("String") => "\"\"",
            Some("bool") => "false",
            Some(
                "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "isize" | "usize",
            ) => "0",
            Some("f32" | "f64") => "0.0",
            Some("Option") => return Ok(()), // `None`: no default
            _ => return Err(todo.into()),
        },
    };
    out.marker("default", value);
    Ok(())
}

/// The last segment of a path type.
fn last_ident(ty: Option<&syn::Type>) -> Option<String> {
    match ty? {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}
