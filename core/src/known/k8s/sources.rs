//! The schemas of k8s-openapi's types in one Kubernetes version, read from k8s-openapi's own
//! sources (`src/v1_xx`, in the cargo registry; feature `parse`): gen-cli is built with one
//! version's k8s-openapi (1.37), and the user's crate may use another, with other types, other
//! fields and other words (see [`selected`](super::selected)). The Go tables' generator reads
//! each version's words the same way.
//!
//! Each generated type's file implements `JsonSchema` the same way: `schema_name()` returns
//! the Kubernetes definition name and `json_schema()` is one `json_schema!({...})` call, JSON
//! where a field of another k8s-openapi type is `__gen.subschema_for::<crate::path::Type>()`,
//! alone or in a block that inserts the field's `"description"`. Those become
//! [`Definitions::reference`]s with the description beside them, which is what
//! schemars makes of the compiled impls.

use std::collections::HashMap;
use std::path::Path;
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use serde_json::{Map, Value};

use super::selected::Definitions;

/// Every definition under a k8s-openapi version folder (`src/v1_36`).
pub fn read(dir: &Path) -> Result<Definitions, String> {
    let mut types = Vec::new();
    walk(dir, &[], &mut types)?;
    let names: HashMap<String, String> = types
        .iter()
        .map(|t| (t.path.clone(), t.name.clone()))
        .collect();
    let mut definitions = Definitions::default();
    for mut found in types {
        resolve(&mut found.schema, &names)
            .map_err(|path| format!("{}: `{path}` has no schema", found.path))?;
        definitions.schemas.insert(found.name.clone(), found.schema);
        definitions.names.insert(found.path, found.name);
    }
    Ok(definitions)
}

/// One type's file, read.
#[derive(Debug)]
struct Found {
    /// Its canonical path (`k8s_openapi::api::core::v1::PodSpec`).
    path: String,
    /// Its Kubernetes definition name.
    name: String,
    /// Its schema, references still by Rust path ([`TYPE_KEY`]).
    schema: Value,
}

/// Where a reference holds a Rust path until every definition name is known.
const TYPE_KEY: &str = "$kubegenType";

/// Reads the `.rs` files under `dir`, whose module path is `module`.
fn walk(dir: &Path, module: &[String], found: &mut Vec<Found>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.is_dir() {
            let mut inner = module.to_vec();
            inner.push(stem.to_string());
            walk(&path, &inner, found)?;
        } else if path.extension().is_some_and(|e| e == "rs") && stem != "mod" {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(mut one) = parse(&text).map_err(|e| format!("{}: {e}", path.display()))? {
                one.path = format!("k8s_openapi::{}::{}", module.join("::"), one.path);
                found.push(one);
            }
        }
    }
    Ok(())
}

/// The type, definition name and schema of one generated file (`path` is the type's name
/// only); `None` for a file without a `JsonSchema` impl or with a generic one (`WatchEvent<T>`,
/// no field's type).
fn parse(text: &str) -> Result<Option<Found>, String> {
    // Only the impl is read: the rest of a file (the type and its serde impls) is most of its
    // bytes, and tokenizing it would be most of the time.
    let Some(start) = text.find("impl crate::schemars::JsonSchema for") else {
        return Ok(None);
    };
    let tokens: Vec<TokenTree> = TokenStream::from_str(&text[start..])
        .map_err(|e| e.to_string())?
        .into_iter()
        .collect();
    let Some(at) = tokens
        .windows(2)
        .position(|w| ident_is(&w[0], "JsonSchema") && ident_is(&w[1], "for"))
    else {
        return Ok(None);
    };
    if matches!(tokens.get(at + 3), Some(TokenTree::Punct(p)) if p.as_char() == '<') {
        return Ok(None);
    }
    let (Some(TokenTree::Ident(ty)), Some(TokenTree::Group(body))) =
        (tokens.get(at + 2), tokens.get(at + 3))
    else {
        return Err("a `JsonSchema` impl of an unexpected form".to_string());
    };
    let body: Vec<TokenTree> = body.stream().into_iter().collect();
    let name = after(&body, "schema_name")
        .and_then(|group| strings(group.stream()).into_iter().next())
        .ok_or("`schema_name()` returns no literal")?;
    let schema = after(&body, "json_schema")
        .and_then(|group| macro_body(group.stream()))
        .ok_or("`json_schema()` has no `json_schema!({...})`")?;
    Ok(Some(Found {
        path: ty.to_string(),
        name,
        schema: value(&schema.into_iter().collect::<Vec<_>>())?,
    }))
}

/// The body (`{...}`) of the function named `name` among an impl's items.
fn after(items: &[TokenTree], name: &str) -> Option<proc_macro2::Group> {
    let at = items.iter().position(|t| ident_is(t, name))?;
    items[at..].iter().find_map(|t| match t {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => Some(g.clone()),
        _ => None,
    })
}

/// The `{...}` of the first `json_schema!({...})` in a function body.
fn macro_body(stream: TokenStream) -> Option<TokenStream> {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let at = tokens.windows(2).position(|w| {
        ident_is(&w[0], "json_schema") && matches!(&w[1], TokenTree::Punct(p) if p.as_char() == '!')
    })?;
    let TokenTree::Group(call) = tokens.get(at + 2)? else {
        return None;
    };
    Some(call.stream())
}

/// Whether `token` is the identifier `name`.
fn ident_is(token: &TokenTree, name: &str) -> bool {
    matches!(token, TokenTree::Ident(i) if i == name)
}

/// The JSON value `tokens` spell: `json!` syntax, where a subschema call (alone, or in a block
/// that inserts a description) is a reference.
fn value(tokens: &[TokenTree]) -> Result<Value, String> {
    let call = matches!(tokens.first(), Some(t) if ident_is(t, "__gen"));
    let block = matches!(tokens, [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace
        && matches!(g.stream().into_iter().next(), Some(t) if ident_is(&t, "let")));
    if (call || block)
        && let Some(path) = subschema(tokens)
    {
        let mut reference = Map::new();
        reference.insert(TYPE_KEY.to_string(), Value::String(path));
        if let Some(description) = inserted_description(tokens) {
            reference.insert("description".to_string(), Value::String(description));
        }
        return Ok(Value::Object(reference));
    }
    match tokens {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Parenthesis => {
            value(&g.stream().into_iter().collect::<Vec<_>>())
        }
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => {
            let mut object = Map::new();
            for entry in split(g.stream()) {
                let Some((TokenTree::Literal(key), rest)) = entry.split_first() else {
                    return Err(format!("an object entry without a key: {entry:?}"));
                };
                let rest = match rest.split_first() {
                    Some((TokenTree::Punct(p), rest)) if p.as_char() == ':' => rest,
                    _ => return Err(format!("an object entry without `:` after {key}")),
                };
                object.insert(literal_string(key)?, value(rest)?);
            }
            Ok(Value::Object(object))
        }
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => split(g.stream())
            .iter()
            .map(|item| value(item))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        [TokenTree::Ident(i)] if i == "true" || i == "false" => Ok(Value::Bool(i == "true")),
        [TokenTree::Ident(i)] if i == "null" => Ok(Value::Null),
        [TokenTree::Literal(_)] | [TokenTree::Punct(_), TokenTree::Literal(_)] => {
            let text: String = tokens.iter().map(ToString::to_string).collect();
            match syn::parse_str::<syn::Lit>(text.trim_start_matches('-')) {
                Ok(syn::Lit::Str(s)) => Ok(Value::String(s.value())),
                _ => serde_json::from_str(&text).map_err(|e| format!("`{text}`: {e}")),
            }
        }
        _ => Err(format!(
            "an unexpected value: `{}`",
            tokens.iter().map(ToString::to_string).collect::<String>()
        )),
    }
}

/// The token lists between top-level commas.
fn split(stream: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for token in stream {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts.last_mut().expect("one part").push(token),
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// Every token of `tokens`, groups opened, in order.
fn flat(tokens: &[TokenTree], out: &mut Vec<TokenTree>) {
    for token in tokens {
        match token {
            TokenTree::Group(g) => flat(&g.stream().into_iter().collect::<Vec<_>>(), out),
            other => out.push(other.clone()),
        }
    }
}

/// The Rust path `P` of a `__gen.subschema_for::<P>()` in `tokens`.
fn subschema(tokens: &[TokenTree]) -> Option<String> {
    let mut all = Vec::new();
    flat(tokens, &mut all);
    let at = all.iter().position(|t| ident_is(t, "subschema_for"))?;
    let open = at
        + all[at..]
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '<'))?;
    let path: String = all[open + 1..]
        .iter()
        .take_while(|t| !matches!(t, TokenTree::Punct(p) if p.as_char() == '>'))
        .map(ToString::to_string)
        .collect();
    Some(path)
}

/// The text of an `insert("description".into(), "...".into())` in `tokens`.
fn inserted_description(tokens: &[TokenTree]) -> Option<String> {
    let mut all = Vec::new();
    flat(tokens, &mut all);
    let at = all.iter().position(|t| ident_is(t, "insert"))?;
    let texts: Vec<String> = all[at..]
        .iter()
        .filter_map(|t| match t {
            TokenTree::Literal(l) => literal_string(l).ok(),
            _ => None,
        })
        .take(2)
        .collect();
    match texts.as_slice() {
        [key, text] if key == "description" => Some(text.clone()),
        _ => None,
    }
}

/// The string literals directly in `stream`.
fn strings(stream: TokenStream) -> Vec<String> {
    stream
        .into_iter()
        .filter_map(|t| match t {
            TokenTree::Literal(l) => literal_string(&l).ok(),
            _ => None,
        })
        .collect()
}

/// A string literal's value.
fn literal_string(literal: &proc_macro2::Literal) -> Result<String, String> {
    match syn::parse_str::<syn::Lit>(&literal.to_string()) {
        Ok(syn::Lit::Str(s)) => Ok(s.value()),
        _ => Err(format!("`{literal}` is not a string")),
    }
}

/// Replaces every Rust-path reference in `schema` by a reference to its definition; `Err` is
/// a path with no definition.
fn resolve(schema: &mut Value, names: &HashMap<String, String>) -> Result<(), String> {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(path)) = object.remove(TYPE_KEY) {
                let canonical = path.replacen("crate::", "k8s_openapi::", 1);
                let name = names.get(&canonical).ok_or(canonical)?;
                object.insert("$ref".to_string(), Definitions::reference(name));
            }
            object.values_mut().try_for_each(|v| resolve(v, names))
        }
        Value::Array(items) => items.iter_mut().try_for_each(|v| resolve(v, names)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_definition_with_references_and_descriptions() {
        let text = r#"
pub struct PodSpec { pub affinity: Option<Affinity> }
impl crate::schemars::JsonSchema for PodSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "io.k8s.api.core.v1.PodSpec".into()
    }

    fn json_schema(__gen: &mut crate::schemars::SchemaGenerator) -> crate::schemars::Schema {
        crate::schemars::json_schema!({
            "description": "PodSpec is a \"description\".",
            "type": "object",
            "properties": {
                "affinity": ({
                    let mut schema_obj = __gen.subschema_for::<crate::api::core::v1::Affinity>();
                    schema_obj.ensure_object().insert("description".into(), "If specified, the pod's scheduling constraints".into());
                    schema_obj
                }),
                "containers": {
                    "type": "array",
                    "items": (__gen.subschema_for::<crate::api::core::v1::Container>()),
                },
                "metadata": __gen.subschema_for::<crate::api::core::v1::Container>(),
                "priority": {
                    "type": "integer",
                    "format": "int32",
                    "minimum": -1,
                    "x-kubernetes-preserve-unknown-fields": true,
                },
            },
            "required": [
                "containers",
            ],
        })
    }
}
"#;
        let found = parse(text).expect("readable").expect("a schema");
        assert_eq!(found.path, "PodSpec");
        assert_eq!(found.name, "io.k8s.api.core.v1.PodSpec");
        let mut schema = found.schema;
        let names = HashMap::from([
            (
                "k8s_openapi::api::core::v1::Affinity".to_string(),
                "io.k8s.api.core.v1.Affinity".to_string(),
            ),
            (
                "k8s_openapi::api::core::v1::Container".to_string(),
                "io.k8s.api.core.v1.Container".to_string(),
            ),
        ]);
        resolve(&mut schema, &names).expect("every path has a definition");
        let reference = |name: &str| Definitions::reference(name);
        assert_eq!(
            schema,
            serde_json::json!({
                "description": "PodSpec is a \"description\".",
                "type": "object",
                "properties": {
                    "affinity": {
                        "$ref": reference("io.k8s.api.core.v1.Affinity"),
                        "description": "If specified, the pod's scheduling constraints",
                    },
                    "containers": {
                        "type": "array",
                        "items": {"$ref": reference("io.k8s.api.core.v1.Container")},
                    },
                    "metadata": {"$ref": reference("io.k8s.api.core.v1.Container")},
                    "priority": {
                        "type": "integer",
                        "format": "int32",
                        "minimum": -1,
                        "x-kubernetes-preserve-unknown-fields": true,
                    },
                },
                "required": ["containers"],
            })
        );
        assert_eq!(
            resolve(&mut serde_json::json!({TYPE_KEY: "crate::Missing"}), &names),
            Err("k8s_openapi::Missing".to_string())
        );
    }

    #[test]
    fn a_file_without_a_schema_is_skipped() {
        assert!(parse("pub mod x;").expect("readable").is_none());
    }
}
