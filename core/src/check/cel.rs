//! CEL rules: each `x-kubernetes-validations` rule must parse, the fields it selects from
//! `self`/`oldSelf` must exist in the schema it sits on, and `oldSelf` may only be used where
//! the apiserver can pair old and new values (feature `cel`; without it the apiserver is the
//! first to look).

#[cfg(feature = "cel")]
pub use checked::{references, syntax_error};

/// Why `rule` is not valid CEL, if it is not (CEL checks are off: feature `cel`).
#[cfg(not(feature = "cel"))]
pub fn syntax_error(_rule: &str) -> Option<String> {
    None
}

/// Problems with the rules' field references in `schema` (CEL checks are off: feature `cel`).
#[cfg(not(feature = "cel"))]
pub fn references(_schema: &crate::schema::Schema) -> Vec<String> {
    Vec::new()
}

#[cfg(feature = "cel")]
mod checked {
    use std::collections::HashMap;

    use cel::common::ast::{Expr, IdedExpr};

    use crate::schema::Schema;

    fn parse(rule: &str) -> Result<IdedExpr, String> {
        cel::parser::Parser::new()
            .enable_optional_syntax(true)
            .parse(rule)
            .map_err(|e| format!("invalid CEL rule: {e}"))
    }

    /// Why `rule` is not valid CEL, if it is not.
    pub fn syntax_error(rule: &str) -> Option<String> {
        parse(rule).err()
    }

    /// Every rule in `schema` that selects a field its node does not have, or uses `oldSelf`
    /// under a list whose items the apiserver cannot pair (not `x-kubernetes-list-type: map`),
    /// as `path: problem`.
    pub fn references(schema: &Schema) -> Vec<String> {
        let mut found = Vec::new();
        walk(schema, "", true, &mut found);
        found
    }

    fn walk(node: &Schema, path: &str, correlatable: bool, found: &mut Vec<String>) {
        let at = if path.is_empty() { "." } else { path };
        for rule in &node.x_validations {
            let Ok(expr) = parse(&rule.rule) else {
                continue;
            };
            let mut scope = Scope {
                found,
                at,
                rule: &rule.rule,
                old_self: false,
            };
            let mut vars = HashMap::new();
            vars.insert("self".to_string(), Some(node));
            vars.insert("oldSelf".to_string(), Some(node));
            scope.expr(&expr, &vars);
            if scope.old_self && !correlatable {
                found.push(format!(
                    "{at}: rule `{}` uses `oldSelf`, but the apiserver cannot pair old and new \
                     values here: it sits under a list that is not `list_type = \"map\"`",
                    rule.rule
                ));
            }
        }
        for (name, prop) in &node.properties {
            walk(prop, &format!("{path}.{name}"), correlatable, found);
        }
        if let Some(items) = &node.items {
            let keyed = node.x_list_type.as_deref() == Some("map");
            walk(items, &format!("{path}[*]"), correlatable && keyed, found);
        }
        if let Some(values) = &node.additional_properties {
            walk(values, &format!("{path}[*]"), correlatable, found);
        }
    }

    /// What a variable stands for: a schema node, or `None` when unknown.
    type Vars<'s> = HashMap<String, Option<&'s Schema>>;

    struct Scope<'a> {
        found: &'a mut Vec<String>,
        at: &'a str,
        rule: &'a str,
        old_self: bool,
    }

    impl Scope<'_> {
        /// Walks `e`, reporting unknown fields; returns the node it evaluates to, if known.
        fn expr<'s>(&mut self, e: &IdedExpr, vars: &Vars<'s>) -> Option<&'s Schema> {
            match &e.expr {
                Expr::Ident(name) => {
                    self.old_self |= name == "oldSelf";
                    vars.get(name).copied().flatten()
                }
                Expr::Select(select) => {
                    let base = self.expr(&select.operand, vars)?;
                    self.field(base, &select.field)
                }
                Expr::Call(call) => {
                    if let Some(target) = &call.target {
                        self.expr(target, vars);
                    }
                    let args: Vec<Option<&Schema>> =
                        call.args.iter().map(|a| self.expr(a, vars)).collect();
                    match (call.func_name.as_str(), args.as_slice()) {
                        // `a.?b`: an optional field selection.
                        ("_?._", [Some(base), _]) => {
                            let field = match &call.args[1].expr {
                                Expr::Literal(cel::common::ast::LiteralValue::String(s)) => {
                                    s.to_string()
                                }
                                _ => return None,
                            };
                            self.field(base, &field)
                        }
                        _ => None,
                    }
                }
                Expr::Comprehension(c) => {
                    let range = self.expr(&c.iter_range, vars);
                    let mut inner = vars.clone();
                    let item = range.and_then(|r| match r.type_str() {
                        "array" => r.items.as_deref(),
                        _ => None,
                    });
                    inner.insert(c.iter_var.clone(), item);
                    if let Some(v2) = &c.iter_var2 {
                        inner.insert(v2.clone(), None);
                    }
                    inner.insert(c.accu_var.clone(), None);
                    for part in [&c.accu_init, &c.loop_cond, &c.loop_step, &c.result] {
                        self.expr(part, &inner);
                    }
                    None
                }
                Expr::List(list) => {
                    for el in &list.elements {
                        self.expr(el, vars);
                    }
                    None
                }
                Expr::Map(map) => {
                    for entry in &map.entries {
                        if let cel::common::ast::EntryExpr::MapEntry(m) = &entry.expr {
                            self.expr(&m.key, vars);
                            self.expr(&m.value, vars);
                        }
                    }
                    None
                }
                _ => None,
            }
        }

        /// The property `escaped` (a CEL-escaped name) of `base`, reporting it when `base` is
        /// an object with known fields that lacks it.
        fn field<'s>(&mut self, base: &'s Schema, escaped: &str) -> Option<&'s Schema> {
            if let Some(values) = &base.additional_properties {
                return Some(values);
            }
            let name = unescape(escaped);
            if let Some(prop) = base.properties.get(&name) {
                return Some(prop);
            }
            let closed = base.type_str() == "object"
                && !base.properties.is_empty()
                && !base.x_preserve_unknown_fields;
            if closed {
                let known: Vec<&str> = base.properties.keys().map(String::as_str).collect();
                self.found.push(format!(
                    "{}: rule `{}` selects `{name}`, which is not a field there (fields: {})",
                    self.at,
                    self.rule,
                    known.join(", ")
                ));
            }
            None
        }
    }

    /// A CEL field name back to the property it stands for (the apiserver's escaping undone).
    fn unescape(name: &str) -> String {
        let name = name
            .strip_prefix("__")
            .and_then(|n| n.strip_suffix("__"))
            .filter(|n| !n.contains("__"))
            .unwrap_or(name);
        name.replace("__underscores__", "__")
            .replace("__dot__", ".")
            .replace("__dash__", "-")
            .replace("__slash__", "/")
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::model::Rule;

        #[test]
        fn kubernetes_rules_parse() {
            for ok in [
                "self.minReplicas <= self.replicas",
                "has(self.foo) ? self.foo.size() > 0 : true",
                "self.all(x, x.matches('^[a-z]+$'))",
                "oldSelf.optMap(o, o.size()).orValue(0) <= self.size()",
                "self.?foo.orValue('') != 'bar'",
                "!has(oldSelf.optionalString) || has(self.optionalString)",
            ] {
                assert_eq!(syntax_error(ok), None, "{ok}");
            }
            let e = syntax_error("self.a >").unwrap();
            assert!(e.starts_with("invalid CEL rule"), "{e}");
            assert!(syntax_error("self.a == 'open").is_some());
        }

        fn object(props: &[(&str, Schema)], rules: &[&str]) -> Schema {
            let mut s = Schema::typed("object");
            for (k, v) in props {
                s.properties.insert(k.to_string(), v.clone());
            }
            s.x_validations = rules.iter().map(|r| Rule::new(*r, "m")).collect();
            s
        }

        #[test]
        fn rules_must_select_existing_fields() {
            let item = object(&[("name", Schema::typed("string"))], &[]);
            let list = Schema {
                items: Some(Box::new(item)),
                ..Schema::typed("array")
            };
            let s = object(
                &[
                    ("min-replicas", Schema::typed("integer")),
                    ("items", list),
                    ("x", Schema::typed("integer")),
                ],
                &[
                    "self.min__dash__replicas <= self.x",
                    "has(self.y)",
                    "self.items.all(i, i.name != '' && i.nmae != '')",
                    "self.?z.orValue(0) > 0",
                ],
            );
            let found = references(&s);
            assert_eq!(found.len(), 3, "{found:?}");
            assert!(found[0].contains(
                "selects `y`, which is not a field there (fields: items, min-replicas, x)"
            ));
            assert!(found[1].contains("selects `nmae`"));
            assert!(found[2].contains("selects `z`"));
        }

        #[test]
        fn old_self_needs_a_correlatable_place() {
            let item = object(
                &[("name", Schema::typed("string"))],
                &["self.name == oldSelf.name"],
            );
            let atomic = Schema {
                items: Some(Box::new(item.clone())),
                ..Schema::typed("array")
            };
            let keyed = Schema {
                items: Some(Box::new(item)),
                x_list_type: Some("map".into()),
                ..Schema::typed("array")
            };
            let found = references(&object(&[("a", atomic), ("k", keyed)], &[]));
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(found[0].starts_with(".a[*]: rule `self.name == oldSelf.name` uses `oldSelf`"));
        }
    }
}
