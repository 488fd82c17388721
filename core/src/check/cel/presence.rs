//! Reads of optional fields that nothing guards: `self.strategy.type` where `strategy` is
//! neither required nor defaulted compiles, and the apiserver refuses every object without it
//! at run time ("no such key: strategy evaluating rule: ..."). A read is guarded when the rule
//! cannot reach it without the field: `has()` of it on the other side of `&&` (true) or `||`
//! (false) — CEL's logical operators absorb an error when the other side decides, so either
//! side guards — or in the condition of a `? :` (its branch), or it is read as an optional
//! (`self.?strategy`, whose `hasValue()` guards like `has()`). The rule's own `self` is present (a rule runs on
//! values that exist), and so is every required field of a present object and every field
//! with a default (the apiserver defaults before it validates).

use cel::common::ast::operators::{
    CONDITIONAL, INDEX, LOGICAL_AND, LOGICAL_NOT, LOGICAL_OR, OPT_SELECT,
};
use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};

use super::types::escape;
use crate::model::Schema;

/// The fields the apiserver fills in on every resource and embedded resource.
const OBJECT_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// The optional fields `expr` (a rule on `node`) reads with no guard, as CEL paths
/// (`self.strategy`, `p.port`), in the order read; `resource` when `node` is a resource's
/// root.
pub(super) fn unguarded(expr: &IdedExpr, node: &Schema, resource: bool) -> Vec<String> {
    let mut scan = Scan {
        root: node,
        resource,
        vars: Vec::new(),
        found: Vec::new(),
    };
    scan.expr(expr, &[]);
    scan.found
}

struct Scan<'s> {
    root: &'s Schema,
    resource: bool,
    /// Comprehension variables, innermost last: the node each ranges over, if known.
    vars: Vec<(String, Option<&'s Schema>)>,
    found: Vec<String>,
}

/// The text of a path expression (`self.a.b`, `x[k].f`, `self.m['key']`), the key guards are
/// matched by.
fn text(e: &IdedExpr) -> Option<String> {
    match &e.expr {
        Expr::Ident(name) => Some(name.clone()),
        Expr::Select(s) if !s.test => Some(format!("{}.{}", text(&s.operand)?, s.field)),
        Expr::Call(c) if c.func_name == INDEX && c.target.is_none() && c.args.len() == 2 => {
            let key = match &c.args[1].expr {
                Expr::Ident(name) => name.clone(),
                Expr::Literal(LiteralValue::String(s)) => format!("{:?}", s.to_string()),
                Expr::Literal(LiteralValue::Int(i)) => i.to_string(),
                _ => return None,
            };
            Some(format!("{}[{key}]", text(&c.args[0])?))
        }
        _ => None,
    }
}

/// The paths `e` being `value` proves present: `has(x.f)` true proves `x.f` and the paths
/// under it; `!a`, `a && b` (true) and `a || b` (false) combine their sides'.
fn facts(e: &IdedExpr, value: bool) -> Vec<String> {
    match &e.expr {
        Expr::Select(s) if s.test && value => {
            let mut path = text(&s.operand).map(|t| format!("{t}.{}", s.field));
            let mut proven = Vec::new();
            while let Some(p) = path {
                path = p.rfind(['.', '[']).map(|at| p[..at].to_string());
                proven.push(p);
            }
            proven
        }
        // `x.?f.hasValue()`: `x.f` is there.
        Expr::Call(c) if c.func_name == "hasValue" && c.args.is_empty() && value => {
            let Some(Expr::Call(o)) = c.target.as_deref().map(|t| &t.expr) else {
                return Vec::new();
            };
            match (o.func_name.as_str(), o.args.as_slice()) {
                (OPT_SELECT, [x, field]) => match (text(x), &field.expr) {
                    (Some(x), Expr::Literal(LiteralValue::String(f))) => {
                        vec![format!("{x}.{}", &**f)]
                    }
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            }
        }
        Expr::Call(c) if c.target.is_none() => match (c.func_name.as_str(), c.args.as_slice()) {
            (LOGICAL_NOT, [a]) => facts(a, !value),
            (LOGICAL_AND, [a, b]) if value => [facts(a, true), facts(b, true)].concat(),
            (LOGICAL_OR, [a, b]) if !value => [facts(a, false), facts(b, false)].concat(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

impl<'s> Scan<'s> {
    /// The schema node a path expression denotes, when the schema shows it.
    fn node(&self, e: &IdedExpr) -> Option<&'s Schema> {
        match &e.expr {
            Expr::Ident(name) => match self.vars.iter().rev().find(|(v, _)| v == name) {
                Some((_, node)) => *node,
                None if name == "self" || name == "oldSelf" => Some(self.root),
                None => None,
            },
            Expr::Select(s) if !s.test => {
                let object = self.node(&s.operand)?;
                let (_, child) = object
                    .properties
                    .iter()
                    .find(|(name, _)| escape(name).as_deref() == Some(s.field.as_str()))?;
                Some(child)
            }
            Expr::Call(c) if c.func_name == INDEX && c.target.is_none() && c.args.len() == 2 => {
                let container = self.node(&c.args[0])?;
                container
                    .items
                    .as_deref()
                    .or(container.additional_properties.as_deref())
            }
            _ => None,
        }
    }

    /// Notes the select `operand.field` if it reads an optional field no guard covers.
    fn select(&mut self, operand: &IdedExpr, field: &str, guards: &[String]) {
        let Some(object) = self.node(operand) else {
            return;
        };
        let Some((name, child)) = object
            .properties
            .iter()
            .find(|(name, _)| escape(name).as_deref() == Some(field))
        else {
            return;
        };
        let filled_in = (object.x_embedded_resource
            || (self.resource && std::ptr::eq(object, self.root)))
            && OBJECT_FIELDS.contains(&name.as_str());
        if filled_in || object.required.contains(name) || child.default.is_some() {
            return;
        }
        let Some(path) = text(operand).map(|t| format!("{t}.{field}")) else {
            return;
        };
        if !guards.contains(&path) && !self.found.contains(&path) {
            self.found.push(path);
        }
    }

    fn expr(&mut self, e: &IdedExpr, guards: &[String]) {
        match &e.expr {
            Expr::Select(s) => {
                self.expr(&s.operand, guards);
                if !s.test {
                    self.select(&s.operand, &s.field, guards);
                }
            }
            Expr::Call(c) => {
                let with = |more: Vec<String>| [guards.to_vec(), more].concat();
                match (c.func_name.as_str(), c.target.as_deref(), c.args.as_slice()) {
                    (LOGICAL_AND, None, [a, b]) => {
                        self.expr(a, &with(facts(b, true)));
                        self.expr(b, &with(facts(a, true)));
                    }
                    (LOGICAL_OR, None, [a, b]) => {
                        self.expr(a, &with(facts(b, false)));
                        self.expr(b, &with(facts(a, false)));
                    }
                    (CONDITIONAL, None, [cond, then, other]) => {
                        self.expr(cond, guards);
                        self.expr(then, &with(facts(cond, true)));
                        self.expr(other, &with(facts(cond, false)));
                    }
                    // `x.?f` reads `x`, and `f` only if it is there.
                    (OPT_SELECT, None, [operand, _]) => self.expr(operand, guards),
                    (_, target, args) => {
                        for arg in target.into_iter().chain(args) {
                            self.expr(arg, guards);
                        }
                    }
                }
            }
            Expr::Comprehension(c) => {
                self.expr(&c.iter_range, guards);
                self.expr(&c.accu_init, guards);
                let range = self.node(&c.iter_range);
                let items = range.and_then(|r| r.items.as_deref());
                let values = range.and_then(|r| r.additional_properties.as_deref());
                // One variable: a list's item, a map's key; two: index and item, key and value.
                let (first, second) = match &c.iter_var2 {
                    None => (items, None),
                    Some(_) => (None, items.or(values)),
                };
                let depth = self.vars.len();
                self.vars.push((c.iter_var.clone(), first));
                if let Some(var) = &c.iter_var2 {
                    self.vars.push((var.clone(), second));
                }
                self.vars.push((c.accu_var.clone(), None));
                for part in [&c.loop_cond, &c.loop_step, &c.result] {
                    self.expr(part, guards);
                }
                self.vars.truncate(depth);
            }
            Expr::List(l) => {
                for element in &l.elements {
                    self.expr(element, guards);
                }
            }
            Expr::Map(m) => {
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        self.expr(&me.key, guards);
                        self.expr(&me.value, guards);
                    }
                }
            }
            Expr::Struct(_) | Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Schema {
        let mut strategy = Schema::typed("object");
        strategy
            .properties
            .insert("type".into(), Schema::typed("string"));
        let label = strategy.clone();
        strategy.required.push("type".into());
        let mut port = Schema::typed("object");
        port.properties
            .insert("name".into(), Schema::typed("string"));
        port.properties
            .insert("port".into(), Schema::typed("integer"));
        port.required.push("name".into());
        let ports = Schema {
            items: Some(Box::new(port)),
            ..Schema::typed("array")
        };
        let labels = Schema {
            additional_properties: Some(Box::new(label)),
            ..Schema::typed("object")
        };
        let defaulted = Schema {
            default: Some(serde_json::json!(1)),
            ..Schema::typed("integer")
        };
        let mut s = Schema::typed("object");
        for (name, prop) in [
            ("strategy", strategy),
            ("ports", ports),
            ("labels", labels),
            ("replicas", defaulted),
            ("name", Schema::typed("string")),
            ("min-size", Schema::typed("integer")),
        ] {
            s.properties.insert(name.into(), prop);
        }
        s.required.push("name".into());
        s
    }

    fn reads(rule: &str) -> Vec<String> {
        let parsed = cel::parser::Parser::new()
            .enable_optional_syntax(true)
            .parse(rule)
            .unwrap();
        unguarded(&parsed, &spec(), false)
    }

    #[test]
    fn unguarded_optional_reads_are_found() {
        for (rule, want) in [
            (
                "self.strategy.type == 'RollingUpdate' || self.name == 'x'",
                &["self.strategy"][..],
            ),
            ("self.min__dash__size > 0", &["self.min__dash__size"]),
            ("self.ports.all(p, p.port > 0)", &["self.ports", "p.port"]),
            (
                "has(self.ports) && self.ports.exists(p, p.port == 80)",
                &["p.port"],
            ),
            (
                "has(self.labels) && self.labels.all(k, self.labels[k].type != '')",
                &["self.labels[k].type"],
            ),
            (
                "has(self.strategy) && self.labels.all(k, self.strategy.type != '')",
                &["self.labels"],
            ),
            ("has(self.strategy.type)", &["self.strategy"]),
            (
                "has(self.strategy) || self.strategy.type == 'a'",
                &["self.strategy"],
            ),
            (
                "!has(self.strategy) && self.strategy.type == 'a'",
                &["self.strategy"],
            ),
            (
                "has(self.strategy) ? true : self.strategy.type == 'a'",
                &["self.strategy"],
            ),
            (
                "self.strategy == oldSelf.strategy",
                &["self.strategy", "oldSelf.strategy"],
            ),
        ] {
            assert_eq!(reads(rule), want, "{rule}");
        }
    }

    #[test]
    fn guarded_required_and_defaulted_reads_are_not() {
        for rule in [
            "has(self.strategy) && self.strategy.type == 'RollingUpdate'",
            "self.strategy.type == 'RollingUpdate' && has(self.strategy)",
            "!has(self.strategy) || self.strategy.type == 'RollingUpdate'",
            "!has(self.strategy.type) || !has(self.strategy) || self.strategy.type != ''",
            "has(self.strategy) ? self.strategy.type != '' : true",
            "!has(self.strategy) ? true : self.strategy.type != ''",
            "has(self.strategy) && has(self.ports) ? self.strategy.type != '' : true",
            "has(self.labels) && self.labels.all(k, !has(self.labels[k].type) || self.labels[k].type != '')",
            "self.?strategy.type.orValue('') != 'x'",
            "!self.?strategy.hasValue() || self.strategy.type != ''",
            "self.?strategy.hasValue() ? self.strategy.type != '' : true",
            "self.?min__dash__size.orValue(0) > 0",
            "self.name != '' && self.replicas > 0",
            "has(self.ports) && self.ports.all(p, p.name != '' && (!has(p.port) || p.port > 0))",
            "has(self.ports) && self.ports.all(p, has(p.port) ? p.port > 0 : true)",
            "has(self.ports) && self.ports.map(p, p.name).all(n, n != '')",
            "self.unknown.field > 0",
        ] {
            assert_eq!(reads(rule), Vec::<String>::new(), "{rule}");
        }
    }

    #[test]
    fn resource_roots_have_their_object_fields() {
        let mut root = Schema::typed("object");
        root.properties
            .insert("metadata".into(), Schema::typed("object"));
        root.properties.insert("spec".into(), spec());
        let parsed = cel::parser::Parser::new()
            .parse("self.metadata.name != '' && self.spec.name != ''")
            .unwrap();
        assert_eq!(unguarded(&parsed, &root, true), ["self.spec"]);
        assert!(unguarded(&parsed, &root, false).contains(&"self.metadata".to_string()));
    }
}
