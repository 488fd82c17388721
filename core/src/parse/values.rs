//! The value forms of docs/markers.md: numbers that must not be quoted, `;`-or-array lists, JSON
//! values written as Rust expressions, and closed sets of words with "did you mean".

use darling::ast::NestedMeta;
use darling::{Error, FromMeta, Result};
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use serde_json::Value;
use syn::spanned::Spanned;
use syn::{Expr, Lit, UnOp};

/// A number (`minimum = -0.5`); a quoted number is an error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

impl FromMeta for Num {
    fn from_expr(expr: &Expr) -> Result<Self> {
        let value = json_from_expr(expr)?;
        match value.as_f64() {
            Some(n) => Ok(Num(n)),
            None if value.is_string() => Err(Error::custom(
                "expected a number, found a string: write the number without quotes",
            )
            .with_span(expr)),
            None => Err(Error::custom("expected a number").with_span(expr)),
        }
    }
}

/// A non-negative whole number (`max_length = 63`); floats and quoted numbers are errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count(pub u64);

impl FromMeta for Count {
    fn from_expr(expr: &Expr) -> Result<Self> {
        match json_from_expr(expr)? {
            Value::Number(n) if n.as_u64().is_some() => Ok(Count(n.as_u64().unwrap_or_default())),
            Value::Number(n) if n.is_f64() => {
                Err(Error::custom(format!("expected a whole number, found {n}")).with_span(expr))
            }
            Value::Number(_) => {
                Err(Error::custom("expected a number of zero or more").with_span(expr))
            }
            Value::String(_) => Err(Error::custom(
                "expected a whole number, found a string: write the number without quotes",
            )
            .with_span(expr)),
            _ => Err(Error::custom("expected a whole number").with_span(expr)),
        }
    }
}

/// A list of strings: `"a;b"` (kubebuilder's form) or `["a", "b"]`, with where each entry
/// is written.
#[derive(Clone, Debug, Default)]
pub struct List(pub Vec<String>, Vec<Span>);

impl List {
    /// Each entry with its span. An entry of a `"a;b"` string has a span of its own where
    /// the front end can make one (the CLI); a proc macro on stable Rust has only the
    /// literal's (`proc_macro::Literal::subspan` is unstable).
    pub fn entries(&self) -> impl Iterator<Item = (&str, Span)> {
        self.0
            .iter()
            .map(String::as_str)
            .zip(self.1.iter().copied())
    }
}

/// Lists are equal when their entries are, wherever they are written.
impl PartialEq for List {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for List {}

impl FromMeta for List {
    fn from_value(lit: &Lit) -> Result<Self> {
        let Lit::Str(s) = lit else {
            return Err(Error::unexpected_lit_type(lit));
        };
        let value = s.value();
        // Offsets into the value are offsets into the token (after its quote) only when it is
        // written plainly: no escapes, no raw string, one byte a character.
        let plain = value.is_ascii() && s.token().to_string() == format!("\"{value}\"");
        let mut at = 0;
        let (items, spans) = value
            .split(';')
            .map(|part| {
                let start = at + part.len() - part.trim_start().len();
                let entry = part.trim();
                at += part.len() + 1;
                let own = (plain && !entry.is_empty())
                    .then(|| s.token().subspan(start + 1..start + 1 + entry.len()))
                    .flatten();
                (entry.to_string(), own.unwrap_or_else(|| s.span()))
            })
            .unzip();
        Ok(List(items, spans))
    }

    fn from_expr(expr: &Expr) -> Result<Self> {
        match expr {
            Expr::Array(array) => array
                .elems
                .iter()
                .map(|e| match json_from_expr(e)? {
                    Value::String(s) => Ok((s, e.span())),
                    _ => Err(Error::custom("expected a string").with_span(e)),
                })
                .collect::<Result<Vec<_>>>()
                .map(|entries| {
                    let (items, spans) = entries.into_iter().unzip();
                    List(items, spans)
                }),
            Expr::Lit(lit) => Self::from_value(&lit.lit),
            Expr::Group(g) => Self::from_expr(&g.expr),
            _ => Err(Error::custom("expected \"a;b\" or [\"a\", \"b\"]").with_span(expr)),
        }
    }
}

/// A JSON value written as a Rust literal expression: `1`, `-0.5`, `"x"`, `true`, `["a", 1]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Json(pub Value);

impl FromMeta for Json {
    fn from_expr(expr: &Expr) -> Result<Self> {
        json_from_expr(expr).map(Json)
    }
}

/// A JSON document in a string: `default_json = r#"{"a": 1}"#`.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonText(pub Value);

impl FromMeta for JsonText {
    fn from_value(lit: &Lit) -> Result<Self> {
        match lit {
            Lit::Str(s) => serde_json::from_str(&s.value())
                .map(JsonText)
                .map_err(|e| Error::custom(format!("not valid JSON: {e}")).with_span(lit)),
            _ => Err(Error::custom("expected a string holding JSON").with_span(lit)),
        }
    }
}

/// Turns a literal expression into JSON.
fn json_from_expr(expr: &Expr) -> Result<Value> {
    let fail = || {
        Error::custom(
            "expected a literal value (number, string, bool, or an array of them); write \
             objects with the `_json` form of the key",
        )
        .with_span(expr)
    };
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => Ok(Value::String(s.value())),
            Lit::Bool(b) => Ok(Value::Bool(b.value)),
            Lit::Int(i) => i
                .base10_parse::<i64>()
                .map(Value::from)
                .map_err(|e| Error::from(e).with_span(expr)),
            Lit::Float(f) => f
                .base10_parse::<f64>()
                .map(Value::from)
                .map_err(|e| Error::from(e).with_span(expr)),
            _ => Err(fail()),
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match json_from_expr(&u.expr)? {
            Value::Number(n) => Ok(match n.as_i64() {
                Some(i) => Value::from(-i),
                None => Value::from(-n.as_f64().unwrap_or_default()),
            }),
            _ => Err(fail()),
        },
        Expr::Array(a) => a
            .elems
            .iter()
            .map(json_from_expr)
            .collect::<Result<Vec<_>>>()
            .map(Value::Array),
        Expr::Group(g) => json_from_expr(&g.expr),
        Expr::Paren(p) => json_from_expr(&p.expr),
        _ => Err(fail()),
    }
}

/// A closed set of words (`scope`, `list_type`, ...), with a suggestion for near misses.
pub trait Word: Sized + Copy + 'static {
    /// Each accepted word and its value.
    const WORDS: &'static [(&'static str, Self)];
}

/// A [`Word`] parsed from a string literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneOf<T>(pub T);

impl<T: Word> FromMeta for OneOf<T> {
    fn from_string(value: &str) -> Result<Self> {
        if let Some((_, v)) = T::WORDS.iter().find(|(w, _)| *w == value) {
            return Ok(OneOf(*v));
        }
        let words: Vec<&str> = T::WORDS.iter().map(|(w, _)| *w).collect();
        Err(Error::custom(format!(
            "unknown value `{value}`{}; expected one of: {}",
            did_you_mean(value, &words),
            words.join(", ")
        )))
    }
}

pub use crate::names::{did_you_mean, nearest};

/// Splits an attribute's `tokens` into known `key = value` metas, reporting unknown keys with a
/// suggestion (and `refused` ones with their reason). The span is `None` when a key was not
/// known: then missing keys are not reported, since the unknown key may be a misspelled one.
pub(crate) fn known_metas(
    tokens: TokenStream,
    keys: &[&str],
    refused: &[(&str, &str)],
    errors: &mut darling::error::Accumulator,
) -> Result<(Vec<NestedMeta>, Option<Span>)> {
    let whole = tokens.span();
    let metas = meta_list(tokens)?;
    let count = metas.len();
    let mut known = Vec::new();
    for meta in metas {
        let path = match &meta {
            NestedMeta::Meta(m) => m.path(),
            NestedMeta::NameValueInvalidExpr(m) => &m.path,
            NestedMeta::Lit(_) => {
                errors.push(Error::custom("expected `key = value`").with_span(&meta));
                continue;
            }
        };
        let Some(key) = path.get_ident().map(ToString::to_string) else {
            errors.push(Error::unknown_field_path_with_alts(path, keys.iter()).with_span(path));
            continue;
        };
        if keys.contains(&key.as_str()) {
            known.push(meta);
        } else if let Some((_, why)) = refused.iter().find(|(k, _)| *k == key) {
            errors.push(Error::custom(why).with_span(path));
        } else {
            errors.push(Error::unknown_field_path_with_alts(path, keys.iter()).with_span(path));
        }
    }
    let all_known = known.len() == count;
    Ok((known, all_known.then_some(whole)))
}

/// The `key = value, ...` list inside an attribute's parentheses. A key followed by anything
/// but `=`, `(` or `,` is reported as a missing `=` at that token (syn would say it expected
/// `,` there).
pub fn meta_list(tokens: TokenStream) -> Result<Vec<NestedMeta>> {
    NestedMeta::parse_meta_list(tokens.clone())
        .map_err(|e| missing_eq(tokens).unwrap_or_else(|| e.into()))
}

/// "expected `=` after `key`" at the first token that follows a key where `=`, `(` or `,`
/// should be.
fn missing_eq(tokens: TokenStream) -> Option<Error> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let is_punct =
        |t: Option<&TokenTree>, c: char| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
    for part in tokens.split(|t| is_punct(Some(t), ',')) {
        let Some(TokenTree::Ident(first)) = part.first() else {
            continue;
        };
        let mut key = first.to_string();
        let mut rest = part.get(1..).unwrap_or_default();
        while is_punct(rest.first(), ':') && is_punct(rest.get(1), ':') {
            let Some(TokenTree::Ident(next)) = rest.get(2) else {
                break;
            };
            key = format!("{key}::{next}");
            rest = rest.get(3..).unwrap_or_default();
        }
        match rest.first() {
            None => {}
            Some(TokenTree::Punct(p)) if p.as_char() == '=' => {}
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {}
            Some(other) => {
                return Some(
                    Error::custom(format!("expected `=` after `{key}`")).with_span(&other.span()),
                );
            }
        }
    }
    None
}

/// Ends a parse that cannot go on after `error`: every problem found so far, then `error`.
pub(crate) fn give_up<T>(errors: darling::error::Accumulator, error: Error) -> Result<T> {
    let mut all = errors.into_inner();
    all.extend(error.flatten());
    // `all` holds `error`: `multiple` panics only on an empty list.
    Err(Error::multiple(all))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn expr(s: &str) -> Expr {
        syn::parse_str(s).unwrap()
    }

    #[test]
    fn numbers_reject_quotes() {
        assert_eq!(Num::from_expr(&expr("-0.5")).unwrap(), Num(-0.5));
        assert_eq!(Num::from_expr(&expr("3")).unwrap(), Num(3.0));
        assert!(
            Num::from_expr(&expr("\"4\""))
                .unwrap_err()
                .to_string()
                .contains("without quotes")
        );
        assert_eq!(Count::from_expr(&expr("63")).unwrap(), Count(63));
        assert!(
            Count::from_expr(&expr("6.5"))
                .unwrap_err()
                .to_string()
                .contains("whole number")
        );
        assert!(Count::from_expr(&expr("-1")).is_err());
    }

    #[test]
    fn lists_take_both_forms() {
        assert_eq!(
            List::from_expr(&expr("\"get;list\"")).unwrap().0,
            ["get", "list"]
        );
        assert_eq!(
            List::from_expr(&expr("[\"a\", \"b\"]")).unwrap().0,
            ["a", "b"]
        );
        assert_eq!(List::from_expr(&expr("\"\"")).unwrap().0, [""]);
    }

    #[test]
    fn json_values_from_expressions() {
        assert_eq!(
            Json::from_expr(&expr("[\"a\", -1, true]")).unwrap().0,
            json!(["a", -1, true])
        );
        assert!(Json::from_expr(&expr("foo()")).is_err());
    }

    #[test]
    fn suggestions_for_near_misses() {
        assert_eq!(
            did_you_mean("Namspaced", &["Namespaced", "Cluster"]),
            ". Did you mean `Namespaced`?"
        );
        assert_eq!(did_you_mean("xyz", &["Namespaced", "Cluster"]), "");
    }
}
