//! The Go-facts table (`core/src/known/k8s/go_table.rs`): every version's facts in one table,
//! each distinct type header and field once with the Kubernetes versions it holds for. Read
//! back (with `syn`) so one version can be regenerated while the others stay as committed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// One field of a Go struct in one version, as the table writes it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Field {
    /// The JSON name.
    pub name: String,
    /// Whether controller-gen lists it in `required`.
    pub required: bool,
    /// Its facts, as Rust (`MaxLength(316)`), in the canonical form [`fact`] writes.
    pub facts: Vec<String>,
    /// Where controller-gen breaks its description's lines; empty for nowhere.
    pub breaks: String,
}

/// One Go struct in one version.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    /// The Kubernetes definition name.
    pub name: String,
    /// `x-kubernetes-map-type: atomic` on the struct.
    pub atomic: bool,
    /// Where controller-gen breaks the type's description's lines; empty for nowhere.
    pub breaks: String,
    /// Its fields, sorted by JSON name.
    pub fields: Vec<Field>,
}

/// Every version's types (sorted by name) and where each version's facts were read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The types of each Kubernetes minor version.
    pub versions: BTreeMap<u32, Vec<Type>>,
    /// The Go sources each version was read from (`v0.36.3 (api …, apimachinery …)`).
    pub sources: BTreeMap<u32, String>,
}

/// A set of versions, as the table spells it: `ALL`, `NONE`, `v(first, last)` for a range,
/// `vs(&[…])` otherwise.
fn versions(set: &BTreeSet<u32>, all: &BTreeSet<u32>) -> String {
    if set == all {
        return "ALL".to_string();
    }
    let (Some(first), Some(last)) = (set.first(), set.last()) else {
        return "NONE".to_string();
    };
    if (last - first + 1) as usize == set.len() {
        format!("v({first}, {last})")
    } else {
        let each: Vec<String> = set.iter().map(u32::to_string).collect();
        format!("vs(&[{}])", each.join(", "))
    }
}

impl Table {
    /// The text of the table file.
    pub fn render(&self) -> String {
        let all: BTreeSet<u32> = self.versions.keys().copied().collect();
        // Per type name: the versions with each (atomic, breaks) header, and with each field.
        type Headers = BTreeMap<(bool, String), BTreeSet<u32>>;
        type Fields = BTreeMap<Field, BTreeSet<u32>>;
        let mut types: BTreeMap<&str, (Headers, Fields)> = BTreeMap::new();
        for (minor, list) in &self.versions {
            for ty in list {
                let (headers, fields) = types.entry(&ty.name).or_default();
                headers
                    .entry((ty.atomic, ty.breaks.clone()))
                    .or_default()
                    .insert(*minor);
                for field in &ty.fields {
                    fields.entry(field.clone()).or_default().insert(*minor);
                }
            }
        }
        let mut body = String::new();
        let mut field_count = 0;
        for (name, (headers, fields)) in &types {
            let present: BTreeSet<u32> = headers.values().flatten().copied().collect();
            let atomic: BTreeSet<u32> = headers
                .iter()
                .filter(|((atomic, _), _)| *atomic)
                .flat_map(|(_, v)| v.iter().copied())
                .collect();
            let mut breaks: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
            for ((_, text), set) in headers {
                if !text.is_empty() {
                    breaks.entry(text).or_default().extend(set);
                }
            }
            let (t, type_breaks) = if breaks.is_empty() {
                ("t", String::new())
            } else {
                let mut by_first: Vec<(&BTreeSet<u32>, &str)> =
                    breaks.iter().map(|(text, set)| (set, *text)).collect();
                by_first.sort();
                let each: Vec<String> = by_first
                    .iter()
                    .map(|(set, text)| format!("({}, {text:?})", versions(set, &all)))
                    .collect();
                ("tb", format!("&[{}], ", each.join(", ")))
            };
            let _ = writeln!(
                body,
                "    {t}({name:?}, {}, {}, {type_breaks}&[",
                versions(&present, &all),
                versions(&atomic, &all)
            );
            let mut ordered: Vec<(&Field, &BTreeSet<u32>)> = fields.iter().collect();
            ordered.sort_by(|a, b| (&a.0.name, a.1.first()).cmp(&(&b.0.name, b.1.first())));
            for (field, set) in ordered {
                field_count += 1;
                let (f, field_breaks) = if field.breaks.is_empty() {
                    ("f", String::new())
                } else {
                    ("fb", format!(", {:?}", field.breaks))
                };
                let _ = writeln!(
                    body,
                    "        {f}({}, {:?}, {}, &[{}]{field_breaks}),",
                    versions(set, &all),
                    field.name,
                    if field.required { "R" } else { "O" },
                    field.facts.join(", ")
                );
            }
            body.push_str("    ]),\n");
        }
        let mut out = String::from(
            "// @generated by `tools/k8s-facts` from k8s.io/api and k8s.io/apimachinery; do not\n\
             // edit (see docs/book/src/internals/parity.md for the command). Sources, by Kubernetes version:\n",
        );
        for (minor, source) in &self.sources {
            let _ = writeln!(out, "// - 1.{minor}: {source}");
        }
        let listed: Vec<String> = all.iter().map(u32::to_string).collect();
        let _ = write!(
            out,
            "//\n\
             // The Go facts of {} types ({field_count} field entries), each distinct entry once with\n\
             // the versions it holds for (`ALL`, `v(first, last)`, `vs(&[…])`):\n\
             // `t(definition, versions, atomic in, fields)`,\n\
             // `f(versions, json name, R(equired) or O(ptional), facts)`; `tb`, `fb`: the same and\n\
             // where controller-gen's description breaks k8s-openapi's words (`go_facts.rs`), per\n\
             // version for a type.\n\n\
             /// The Kubernetes minor versions the table covers.\n\
             pub(crate) const SUPPORTED: &[u32] = &[{}];\n\n\
             pub(super) const TYPES: &[GoType] = &[\n{body}];\n",
            types.len(),
            listed.join(", ")
        );
        out
    }

    /// Reads a table file back.
    pub fn parse(text: &str) -> Result<Table, String> {
        let mut table = Table::default();
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("// - 1.") else {
                continue;
            };
            let (minor, source) = rest.split_once(": ").ok_or("a malformed source line")?;
            let minor = minor.parse().map_err(|_| "a malformed source line")?;
            table.sources.insert(minor, source.to_string());
        }
        let file = syn::parse_file(text).map_err(|e| e.to_string())?;
        let constant = |name: &str| {
            file.items.iter().find_map(|item| match item {
                syn::Item::Const(c) if c.ident == name => Some(&*c.expr),
                _ => None,
            })
        };
        let supported = array(constant("SUPPORTED").ok_or("no `SUPPORTED`")?)?;
        let all: BTreeSet<u32> = supported
            .into_iter()
            .map(integer)
            .collect::<Result<_, _>>()?;
        for minor in &all {
            table.versions.insert(*minor, Vec::new());
        }
        for entry in array(constant("TYPES").ok_or("no `TYPES`")?)? {
            let (t, args) = call(entry)?;
            let (name, present, atomic, breaks, fields) = match (t.as_str(), args.as_slice()) {
                ("t", [name, present, atomic, fields]) => (name, present, atomic, None, fields),
                ("tb", [name, present, atomic, breaks, fields]) => {
                    (name, present, atomic, Some(breaks), fields)
                }
                _ => return Err(format!("an unexpected type entry `{t}`")),
            };
            let name = string(name)?;
            let present = set(present, &all)?;
            let atomic = set(atomic, &all)?;
            let mut type_breaks: BTreeMap<u32, String> = BTreeMap::new();
            for pair in breaks.map(|b| array(b)).transpose()?.unwrap_or_default() {
                let syn::Expr::Tuple(tuple) = pair else {
                    return Err(format!("{name}: a breaks entry is not a pair"));
                };
                let [set_expr, text] = [&tuple.elems[0], &tuple.elems[1]];
                for minor in set(set_expr, &all)? {
                    type_breaks.insert(minor, string(text)?);
                }
            }
            let mut rows: Vec<(BTreeSet<u32>, Field)> = Vec::new();
            for field in array(fields)? {
                let (f, args) = call(field)?;
                let (set_expr, json, required, facts, breaks) = match (f.as_str(), args.as_slice())
                {
                    ("f", [s, n, r, facts]) => (s, n, r, facts, None),
                    ("fb", [s, n, r, facts, b]) => (s, n, r, facts, Some(b)),
                    _ => return Err(format!("{name}: an unexpected field entry `{f}`")),
                };
                let required = match path(required)?.as_str() {
                    "R" => true,
                    "O" => false,
                    other => return Err(format!("{name}: `{other}` is neither R nor O")),
                };
                rows.push((
                    set(set_expr, &all)?,
                    Field {
                        name: string(json)?,
                        required,
                        facts: array(facts)?
                            .into_iter()
                            .map(fact)
                            .collect::<Result<_, _>>()?,
                        breaks: breaks.map(|b| string(b)).transpose()?.unwrap_or_default(),
                    },
                ));
            }
            for minor in present {
                let mut fields: Vec<Field> = rows
                    .iter()
                    .filter(|(set, _)| set.contains(&minor))
                    .map(|(_, field)| field.clone())
                    .collect();
                fields.sort_by(|a, b| a.name.cmp(&b.name));
                table.versions.entry(minor).or_default().push(Type {
                    name: name.clone(),
                    atomic: atomic.contains(&minor),
                    breaks: type_breaks.get(&minor).cloned().unwrap_or_default(),
                    fields,
                });
            }
        }
        Ok(table)
    }
}

/// The elements of `&[…]` or `[…]`.
fn array(expr: &syn::Expr) -> Result<Vec<&syn::Expr>, String> {
    match expr {
        syn::Expr::Reference(r) => array(&r.expr),
        syn::Expr::Array(a) => Ok(a.elems.iter().collect()),
        _ => Err("an array expected".to_string()),
    }
}

/// The function name and arguments of a call.
fn call(expr: &syn::Expr) -> Result<(String, Vec<&syn::Expr>), String> {
    let syn::Expr::Call(c) = expr else {
        return Err("a call expected".to_string());
    };
    Ok((path(&c.func)?, c.args.iter().collect()))
}

/// A single-segment path's name.
fn path(expr: &syn::Expr) -> Result<String, String> {
    match expr {
        syn::Expr::Path(p) if p.path.segments.len() == 1 => {
            Ok(p.path.segments[0].ident.to_string())
        }
        _ => Err("a name expected".to_string()),
    }
}

/// A literal.
fn literal(expr: &syn::Expr) -> Result<&syn::Lit, String> {
    match expr {
        syn::Expr::Lit(l) => Ok(&l.lit),
        _ => Err("a literal expected".to_string()),
    }
}

/// A string literal's value.
fn string(expr: &syn::Expr) -> Result<String, String> {
    match literal(expr)? {
        syn::Lit::Str(s) => Ok(s.value()),
        _ => Err("a string expected".to_string()),
    }
}

/// An integer literal's value.
fn integer(expr: &syn::Expr) -> Result<u32, String> {
    match literal(expr)? {
        syn::Lit::Int(i) => i.base10_parse().map_err(|e| e.to_string()),
        _ => Err("an integer expected".to_string()),
    }
}

/// The versions a set expression (`ALL`, `NONE`, `v(a, b)`, `vs(&[…])`) names.
fn set(expr: &syn::Expr, all: &BTreeSet<u32>) -> Result<BTreeSet<u32>, String> {
    if let Ok(name) = path(expr) {
        return match name.as_str() {
            "ALL" => Ok(all.clone()),
            "NONE" => Ok(BTreeSet::new()),
            _ => Err(format!("`{name}` is not a set of versions")),
        };
    }
    let (name, args) = call(expr)?;
    match (name.as_str(), args.as_slice()) {
        ("v", [first, last]) => Ok((integer(first)?..=integer(last)?).collect()),
        ("vs", [list]) => array(list)?.into_iter().map(integer).collect(),
        _ => Err(format!("`{name}` is not a set of versions")),
    }
}

/// A fact in its canonical form: strings as Rust's `{:?}` writes them, integers in decimal,
/// floats as `{:?}` writes an `f64`.
fn fact(expr: &syn::Expr) -> Result<String, String> {
    let (kind, args) = call(expr)?;
    let [arg] = args.as_slice() else {
        return Err(format!("`{kind}` takes one value"));
    };
    let value = match arg {
        syn::Expr::Reference(_) => {
            let keys: Vec<String> = array(arg)?
                .into_iter()
                .map(|k| string(k).map(|k| format!("{k:?}")))
                .collect::<Result<_, _>>()?;
            format!("&[{}]", keys.join(", "))
        }
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match literal(expr)? {
            syn::Lit::Float(f) => {
                format!("{:?}", -f.base10_parse::<f64>().map_err(|e| e.to_string())?)
            }
            _ => return Err(format!("`{kind}`: an unexpected negative value")),
        },
        _ => match literal(arg)? {
            syn::Lit::Str(s) => format!("{:?}", s.value()),
            syn::Lit::Int(i) => i
                .base10_parse::<u64>()
                .map_err(|e| e.to_string())?
                .to_string(),
            syn::Lit::Float(f) => {
                format!("{:?}", f.base10_parse::<f64>().map_err(|e| e.to_string())?)
            }
            _ => return Err(format!("`{kind}`: an unexpected value")),
        },
    };
    Ok(format!("{kind}({value})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, facts: &[&str], breaks: &str) -> Field {
        Field {
            name: name.to_string(),
            required: name == "a",
            facts: facts.iter().map(|f| f.to_string()).collect(),
            breaks: breaks.to_string(),
        }
    }

    fn ty(atomic: bool, breaks: &str, fields: Vec<Field>) -> Type {
        Type {
            name: "io.k8s.api.core.v1.Thing".to_string(),
            atomic,
            breaks: breaks.to_string(),
            fields,
        }
    }

    #[test]
    fn each_entry_once_with_its_versions_and_read_back_alike() {
        let a = field("a", &[r#"Default("\"x\"")"#, "MaxLength(63)"], "");
        let b = field(
            "b",
            &[r#"ListMapKeys(&["type", "name"])"#, "Minimum(-1.0)"],
            "3|1n",
        );
        let b2 = field("b", &[], "");
        let table = Table {
            versions: BTreeMap::from([
                (33, vec![ty(false, "", vec![a.clone(), b.clone()])]),
                (34, vec![ty(true, "2|1n", vec![a.clone(), b2.clone()])]),
                (35, vec![ty(false, "", vec![a.clone(), b.clone()])]),
                (36, vec![]),
            ]),
            sources: BTreeMap::from([(33, "v0.33.1 (api 1, apimachinery 2)".to_string())]),
        };
        let text = table.render();
        assert!(
            text.contains(r#"f(v(33, 35), "a", R, &[Default("\"x\""), MaxLength(63)]),"#),
            "{text}"
        );
        assert!(text.contains(r#"fb(vs(&[33, 35]), "b", O, &[ListMapKeys(&["type", "name"]), Minimum(-1.0)], "3|1n"),"#), "{text}");
        assert!(
            text.contains(
                r#"tb("io.k8s.api.core.v1.Thing", v(33, 35), v(34, 34), &[(v(34, 34), "2|1n")], &["#
            ),
            "{text}"
        );
        assert!(
            text.contains("SUPPORTED: &[u32] = &[33, 34, 35, 36];"),
            "{text}"
        );
        assert_eq!(Table::parse(&text), Ok(table));
    }
}
