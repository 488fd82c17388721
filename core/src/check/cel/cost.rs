//! The worst-case cost of a checked expression, estimated as kube-apiserver does: cel-go's
//! estimator (sizes and costs as min/max ranges, comprehensions cost their range's size times
//! an iteration), cel-go's extension estimators, Kubernetes' library cost functions, and the
//! sizes the schema declares, looked up by the path of field selections from `self`.

use std::collections::HashMap;
use std::sync::Arc;

use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};

use super::checker::{ACCUMULATOR, Checked};
use super::types::{Decl, Opaque, Type};

/// A cost or size range, saturating at `u64::MAX` like cel-go's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Est {
    pub min: u64,
    pub max: u64,
}

const STRING_TRAVERSAL: f64 = 0.1;
const REGEX_LENGTH: f64 = 0.25;
const LIST_CREATE: u64 = 10;
const MAP_CREATE: u64 = 30;

impl Est {
    const UNKNOWN: Est = Est {
        min: 0,
        max: u64::MAX,
    };

    fn fixed(n: u64) -> Est {
        Est { min: n, max: n }
    }

    fn add(self, o: Est) -> Est {
        Est {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    fn mul(self, o: Est) -> Est {
        Est {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    fn factor(self, f: f64) -> Est {
        Est {
            min: by_factor(self.min, f),
            max: by_factor(self.max, f),
        }
    }

    fn union(self, o: Est) -> Est {
        Est {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

fn by_factor(x: u64, f: f64) -> u64 {
    let product = (x as f64 * f).ceil();
    if product >= 18_446_744_073_709_551_616.0 {
        u64::MAX
    } else {
        product as u64
    }
}

/// The sizes of a list's or map's entries.
#[derive(Clone, Copy, Debug)]
struct Entry {
    list: bool,
    key: Est,
    val: Est,
}

impl Entry {
    fn union(a: Option<Entry>, b: Option<Entry>) -> Option<Entry> {
        let (a, b) = (a?, b?);
        Some(Entry {
            list: a.list,
            key: a.key.union(b.key),
            val: a.val.union(b.val),
        })
    }
}

struct Local {
    path: Vec<String>,
    size: Option<Est>,
    entry: Option<Entry>,
}

/// What a call's estimator sees of an argument.
struct Node<'e> {
    path: Vec<String>,
    ty: Type,
    expr: &'e IdedExpr,
    size: Option<Est>,
}

/// The estimated worst-case cost of `checked`, whose `self` is declared by `decl`.
pub fn estimate(checked: &Checked, decl: &Arc<Decl>) -> u64 {
    let mut coster = Coster {
        checked,
        decl,
        paths: HashMap::new(),
        sizes: HashMap::new(),
        entries: HashMap::new(),
        locals: HashMap::new(),
    };
    coster.cost(&checked.expr).max
}

struct Coster<'c> {
    checked: &'c Checked,
    decl: &'c Arc<Decl>,
    paths: HashMap<u64, Vec<String>>,
    sizes: HashMap<u64, Est>,
    entries: HashMap<u64, Entry>,
    locals: HashMap<String, Vec<Local>>,
}

impl<'c> Coster<'c> {
    fn ty(&self, e: &IdedExpr) -> Type {
        self.checked.types.get(&e.id).cloned().unwrap_or(Type::Dyn)
    }

    fn local(&self, name: &str) -> Option<&Local> {
        self.locals.get(name).and_then(|l| l.last())
    }

    fn push(&mut self, name: &str, local: Local) {
        self.locals.entry(name.to_string()).or_default().push(local);
    }

    fn pop(&mut self, name: &str) {
        if let Some(stack) = self.locals.get_mut(name) {
            stack.pop();
        }
    }

    fn path(&self, e: &IdedExpr) -> Vec<String> {
        if let Expr::Ident(name) = &e.expr
            && let Some(local) = self.local(name)
        {
            return local.path.clone();
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    fn cost(&mut self, e: &'c IdedExpr) -> Est {
        match &e.expr {
            Expr::Literal(_) => Est::fixed(0),
            Expr::Ident(name) => {
                let path = match self.local(name) {
                    Some(local) => local.path.clone(),
                    None => vec![name.clone()],
                };
                self.paths.insert(e.id, path);
                Est::fixed(1)
            }
            Expr::Select(s) => {
                let mut sum = self.cost(&s.operand);
                if s.test {
                    return sum;
                }
                if matches!(self.ty(&s.operand), Type::Map(..) | Type::Object(_)) {
                    sum = sum.add(Est::fixed(1));
                }
                let mut path = self.path(&s.operand);
                path.push(s.field.clone());
                self.paths.insert(e.id, path);
                sum
            }
            Expr::Call(_) => self.call(e),
            Expr::List(l) => {
                let mut sum = Est::fixed(0);
                let mut item = Est {
                    min: if l.elements.is_empty() { 0 } else { u64::MAX },
                    max: 0,
                };
                for el in &l.elements {
                    sum = sum.add(self.cost(el));
                    item = item.union(self.size(el).unwrap_or(Est::UNKNOWN));
                }
                let entry = Entry {
                    list: true,
                    key: Est::fixed(1),
                    val: item,
                };
                self.entries.insert(e.id, entry);
                sum.add(Est::fixed(LIST_CREATE))
            }
            Expr::Map(m) => {
                let mut sum = Est::fixed(0);
                let empty = m.entries.is_empty();
                let start = Est {
                    min: if empty { 0 } else { u64::MAX },
                    max: 0,
                };
                let (mut key, mut val) = (start, start);
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        sum = sum.add(self.cost(&me.key)).add(self.cost(&me.value));
                        key = key.union(self.size(&me.key).unwrap_or(Est::UNKNOWN));
                        val = val.union(self.size(&me.value).unwrap_or(Est::UNKNOWN));
                    }
                }
                let entry = Entry {
                    list: false,
                    key,
                    val,
                };
                self.entries.insert(e.id, entry);
                sum.add(Est::fixed(MAP_CREATE))
            }
            Expr::Comprehension(c) => {
                let bind = matches!(&c.iter_range.expr, Expr::List(l) if l.elements.is_empty())
                    && matches!(c.loop_cond.expr, Expr::Literal(LiteralValue::Boolean(b)) if !*b)
                    && c.accu_var != ACCUMULATOR;
                let mut sum = self.cost(&c.iter_range).add(self.cost(&c.accu_init));
                self.push_var(&c.accu_var, &c.accu_init);
                if bind {
                    sum = sum.add(self.cost(&c.result));
                    self.pop(&c.accu_var);
                    self.copy_sizes(e, &c.result);
                    return sum;
                }
                let entry = self.entry(&c.iter_range);
                let container_list = match entry {
                    Some(en) => en.list,
                    None => matches!(self.ty(&c.iter_range), Type::List(_)),
                };
                let range_path = self.path(&c.iter_range);
                let at = |sub: &str| {
                    let mut p = range_path.clone();
                    p.push(sub.to_string());
                    p
                };
                match &c.iter_var2 {
                    Some(v2) => {
                        let (k, v) = if container_list {
                            ("@indices", "@items")
                        } else {
                            ("@keys", "@values")
                        };
                        let key = Local {
                            path: at(k),
                            size: entry.map(|en| en.key),
                            entry: None,
                        };
                        self.push(&c.iter_var, key);
                        let value = Local {
                            path: at(v),
                            size: entry.map(|en| en.val),
                            entry: None,
                        };
                        self.push(v2, value);
                    }
                    None => {
                        let (sub, size) = if container_list {
                            ("@items", entry.map(|en| en.val))
                        } else {
                            ("@keys", entry.map(|en| en.key))
                        };
                        let single = Local {
                            path: at(sub),
                            size,
                            entry: None,
                        };
                        self.push(&c.iter_var, single);
                    }
                }
                let loop_cost = self.cost(&c.loop_cond);
                let step_cost = self.cost(&c.loop_step);
                self.pop(&c.iter_var);
                if let Some(v2) = &c.iter_var2 {
                    self.pop(v2);
                }
                sum = sum.add(self.cost(&c.result));
                self.pop(&c.accu_var);
                let count = self.size(&c.iter_range).unwrap_or(Est::UNKNOWN);
                sum = sum.add(count.mul(step_cost.add(loop_cost)));
                match &c.accu_init.expr {
                    Expr::Literal(_) => {
                        if let Some(s) = self.size(&c.accu_init) {
                            self.sizes.insert(e.id, s);
                        }
                    }
                    Expr::List(_) | Expr::Map(_) => {
                        self.sizes.insert(e.id, count);
                        if let Some(en) = self.entry(&c.loop_step) {
                            self.entries.insert(e.id, en);
                        }
                    }
                    _ => {}
                }
                sum
            }
            Expr::Struct(_) | Expr::Unspecified => Est::fixed(0),
        }
    }

    fn push_var(&mut self, name: &str, init: &IdedExpr) {
        let local = Local {
            path: self.path(init),
            size: self.size(init),
            entry: self.entry(init),
        };
        self.push(name, local);
    }

    fn copy_sizes(&mut self, to: &IdedExpr, from: &IdedExpr) {
        if let Some(s) = self.size(from) {
            self.sizes.insert(to.id, s);
        }
        if let Some(en) = self.entry(from) {
            self.entries.insert(to.id, en);
        }
    }

    fn entry(&self, e: &IdedExpr) -> Option<Entry> {
        if let Some(en) = self.entries.get(&e.id) {
            return Some(*en);
        }
        match &e.expr {
            Expr::Ident(name) => self.local(name).and_then(|l| l.entry),
            _ => None,
        }
    }

    /// The declared size at a path from `self` (the first step names the variable).
    fn declared(&self, path: &[String]) -> Option<Est> {
        let (_, rest) = path.split_first()?;
        let max = self.decl.max_at(rest)?;
        Some(Est { min: 0, max })
    }

    fn size(&mut self, e: &IdedExpr) -> Option<Est> {
        if let Some(s) = self.sizes.get(&e.id) {
            return Some(*s);
        }
        let literal = match &e.expr {
            Expr::Literal(LiteralValue::String(s)) => Some(s.chars().count() as u64),
            Expr::Literal(LiteralValue::Bytes(b)) => Some(b.len() as u64),
            Expr::Literal(_) => Some(1),
            Expr::List(l) => Some(l.elements.len() as u64),
            Expr::Map(m) => Some(m.entries.len() as u64),
            _ => None,
        };
        if let Some(n) = literal {
            return Some(Est::fixed(n));
        }
        if let Some(s) = self.declared(&self.path(e)) {
            self.sizes.insert(e.id, s);
            return Some(s);
        }
        if self.ty(e).is_scalar() {
            return Some(Est::fixed(1));
        }
        match &e.expr {
            Expr::Ident(name) => self.local(name).and_then(|l| l.size),
            _ => None,
        }
    }

    fn node(&mut self, e: &'c IdedExpr) -> Node<'c> {
        let mut path = self.path(e);
        if path
            .first()
            .is_some_and(|p| p == ACCUMULATOR || p == "__result__")
        {
            path.clear();
        }
        Node {
            path,
            ty: self.ty(e),
            expr: e,
            size: self.size(e),
        }
    }

    /// A node's size as estimators see it: computed, declared, or unknown.
    fn estimated(&self, n: &Node) -> Est {
        n.size
            .or_else(|| self.declared(&n.path))
            .unwrap_or(Est::UNKNOWN)
    }

    /// The elements of a list node (the first type parameter), as Kubernetes' estimator
    /// sees them.
    fn element(&self, list: &Node<'c>) -> Option<Node<'c>> {
        let ty = match &list.ty {
            Type::List(t) | Type::Optional(t) | Type::Meta(t) | Type::Map(t, _) => (**t).clone(),
            _ => return None,
        };
        let mut path = list.path.clone();
        if !path.is_empty() {
            path.push("@items".into());
        }
        Some(Node {
            path,
            ty,
            expr: list.expr,
            size: None,
        })
    }

    fn call(&mut self, e: &'c IdedExpr) -> Est {
        let Expr::Call(c) = &e.expr else {
            unreachable!()
        };
        // The checker resolved `dyn` to its one overload, `dyn(A)`: one argument.
        if c.func_name == "dyn"
            && c.target.is_none()
            && let [arg] = c.args.as_slice()
        {
            let cost = self.cost(arg);
            self.copy_sizes(e, arg);
            return Est::fixed(1).add(cost);
        }
        let mut arg_costs = Vec::new();
        let mut args = Vec::new();
        for a in &c.args {
            arg_costs.push(self.cost(a));
            args.push(self.node(a));
        }
        let Some(overloads) = self.checked.overloads.get(&e.id) else {
            return Est::fixed(0);
        };
        let mut sum = Est::fixed(0);
        let target = match &c.target {
            Some(t) => {
                sum = self.cost(t);
                Some(self.node(t))
            }
            None => None,
        };
        let mut cost = Est {
            min: u64::MAX,
            max: 0,
        };
        let mut result: Option<Est> = None;
        for overload in overloads {
            let (fn_cost, size) = self.function(
                e,
                &c.func_name,
                overload,
                target.as_ref(),
                &args,
                &arg_costs,
            );
            cost = cost.union(fn_cost);
            if let Some(s) = size {
                result = Some(result.map_or(s, |r| r.union(s)));
            }
            let index = match *overload {
                "index_list" => Some("@items"),
                "index_map" => Some("@values"),
                _ => None,
            };
            // `index_list` and `index_map` take two arguments, the list or map first.
            if let Some(sub) = index
                && let Some(indexed) = c.args.first()
            {
                result = self.entry(indexed).map(|en| en.val);
                let mut path = self.path(indexed);
                path.push(sub.into());
                self.paths.insert(e.id, path);
            }
            if result.is_none() {
                result = self.size(e);
            }
        }
        if let Some(s) = result {
            self.sizes.insert(e.id, s);
        }
        sum.add(cost)
    }

    /// One overload's cost (its arguments' included) and result size.
    fn function(
        &mut self,
        e: &IdedExpr,
        name: &str,
        overload: &str,
        target: Option<&Node<'c>>,
        args: &[Node<'c>],
        arg_costs: &[Est],
    ) -> (Est, Option<Est>) {
        let arg_sum = arg_costs.iter().fold(Est::fixed(0), |s, c| s.add(*c));
        if let Some((cost, size)) = self
            .extension(overload, target, args)
            .or_else(|| self.kubernetes(name, overload, target, args))
        {
            return (cost.add(arg_sum), size);
        }
        let known = |n: &Node| n.size.unwrap_or(Est::UNKNOWN);
        let traverse = |n: &Node| known(n).factor(STRING_TRAVERSAL);
        match (overload, target, args) {
            ("string_format", Some(t), _) => (traverse(t).add(arg_sum), None),
            ("string_to_bytes", None, [a]) => {
                let s = known(a);
                let size = Est {
                    min: s.min,
                    max: s.max.saturating_mul(4),
                };
                (traverse(a).add(arg_sum), Some(size))
            }
            ("bytes_to_string", None, [a]) => {
                let s = known(a);
                let size = Est {
                    min: s.min / 4,
                    max: s.max,
                };
                (traverse(a).add(arg_sum), Some(size))
            }
            ("strings_quote", None, [a]) => {
                let s = known(a);
                let size = Est {
                    min: s.min.saturating_add(2),
                    max: s.max.saturating_mul(2).saturating_add(2),
                };
                (traverse(a).add(arg_sum), Some(size))
            }
            ("starts_with_string" | "ends_with_string", _, [a]) => (traverse(a).add(arg_sum), None),
            ("in_list", None, [_, list]) => (known(list).add(arg_sum), None),
            ("matches_string", Some(t), [re]) => {
                let s = known(t).add(Est::fixed(1)).factor(STRING_TRAVERSAL);
                let r = known(re).factor(REGEX_LENGTH);
                (s.mul(r).add(arg_sum), None)
            }
            ("contains_string", Some(t), [sub]) => {
                (traverse(t).mul(traverse(sub)).add(arg_sum), None)
            }
            ("logical_or" | "logical_and", _, _) => {
                // `_||_` and `_&&_` take two arguments; `arg_costs` has one per argument.
                let (l, r) = (arg_costs[0], arg_costs[1]);
                let cost = Est {
                    min: l.min,
                    max: l.add(r).max,
                };
                (cost, None)
            }
            ("conditional", _, [_, yes, no]) => {
                let size = known(yes).union(known(no));
                if let Some(en) = Entry::union(self.entry(yes.expr), self.entry(no.expr)) {
                    self.entries.insert(e.id, en);
                }
                // `args` matched `[_, yes, no]`; `arg_costs` has one per argument.
                let cost = arg_costs[0].add(arg_costs[1].union(arg_costs[2]));
                (cost, Some(size))
            }
            ("add_string" | "add_bytes" | "add_list", _, [l, r]) => {
                let size = known(l).add(known(r));
                if let Some(en) = Entry::union(self.entry(l.expr), self.entry(r.expr)) {
                    self.entries.insert(e.id, en);
                }
                let cost = if overload == "add_list" {
                    Est::fixed(1)
                } else {
                    size.factor(STRING_TRAVERSAL)
                };
                (cost.add(arg_sum), Some(size))
            }
            (
                "equals"
                | "not_equals"
                | "less_string"
                | "greater_string"
                | "less_equals_string"
                | "greater_equals_string"
                | "less_bytes"
                | "greater_bytes"
                | "less_equals_bytes"
                | "greater_equals_bytes",
                _,
                [l, r],
            ) => {
                let smallest = known(l).max.min(known(r).max);
                let cost = Est {
                    min: u64::from(smallest > 0),
                    max: smallest,
                };
                (cost.factor(STRING_TRAVERSAL).add(arg_sum), None)
            }
            _ => (Est::fixed(1).add(arg_sum), None),
        }
    }

    /// cel-go's extension estimators (lists v3, sets), without the arguments' cost.
    fn extension(
        &self,
        overload: &str,
        target: Option<&Node<'c>>,
        args: &[Node<'c>],
    ) -> Option<(Est, Option<Est>)> {
        let allocating = |factor: f64, size: Est| {
            let cost = size
                .factor(factor)
                .add(Est::fixed(1))
                .add(Est::fixed(LIST_CREATE));
            (cost, Some(size))
        };
        let sort = |n: &Node, elem: &str| {
            let s = self.estimated(n);
            let factor = if matches!(elem, "string" | "bytes") {
                2.0 + STRING_TRAVERSAL
            } else {
                2.0
            };
            allocating(factor, s.mul(s))
        };
        match (overload, target, args) {
            ("list_slice", Some(t), [from, to]) => {
                let s = self.estimated(t);
                let len = int_literal(to, s.max).saturating_sub(int_literal(from, 0));
                Some(allocating(1.0, Est::fixed(len)))
            }
            ("lists_range", None, [n]) => {
                Some(allocating(1.0, Est::fixed(int_literal(n, u64::MAX))))
            }
            ("list_reverse", Some(t), []) => Some(allocating(1.0, self.estimated(t))),
            ("list_flatten" | "list_flatten_int", Some(t), _) if args.len() <= 1 => {
                let depth = args.first().map_or(1, |d| int_literal(d, u64::MAX));
                Some(allocating(depth as f64, self.estimated(t)))
            }
            ("list_distinct", Some(t), []) => {
                let s = self.estimated(t);
                Some(allocating(2.0, s.mul(s)))
            }
            (o, Some(t), []) if o.ends_with("_sort") => Some(sort(
                t,
                o.trim_start_matches("list_").trim_end_matches("_sort"),
            )),
            (o, Some(_), [keys]) if o.ends_with("_sortByAssociatedKeys") => Some(sort(
                keys,
                o.trim_start_matches("list_")
                    .trim_end_matches("_sortByAssociatedKeys"),
            )),
            (o, _, [a, b]) if o.starts_with("list_sets_") => {
                let factor = if o == "list_sets_equivalent_list" {
                    2.0
                } else {
                    1.0
                };
                let cost = self
                    .estimated(a)
                    .mul(self.estimated(b))
                    .factor(factor)
                    .add(Est::fixed(1));
                Some((cost, None))
            }
            _ => None,
        }
    }

    /// Kubernetes' library estimator (`library.CostEstimator`), without the arguments' cost.
    fn kubernetes(
        &self,
        name: &str,
        overload: &str,
        target: Option<&Node<'c>>,
        args: &[Node<'c>],
    ) -> Option<(Est, Option<Est>)> {
        let one = Some((Est::fixed(1), None));
        let size = |n: &Node| self.estimated(n);
        let traverse = |n: &Node| self.estimated(n).factor(STRING_TRAVERSAL);
        match name {
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => {
                let t = target?;
                Some(match self.element(t) {
                    Some(el) => {
                        let mut each = Est::fixed(1);
                        if matches!(el.ty, Type::String | Type::Bytes) {
                            each = each.add(size(&el).factor(STRING_TRAVERSAL));
                        }
                        (size(t).mul(each), None)
                    }
                    None => (traverse(t), None),
                })
            }
            // `args[0]`: the arm's guard checked the argument count.
            "url" if args.len() == 1 => Some((traverse(&args[0]), Some(size(&args[0])))),
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                let t = target?;
                Some((traverse(t), Some(size(t))))
            }
            "replace" if args.len() >= 2 => {
                let t = target?;
                // `args[0]`, `args[1]`: the arm's guard checked there are at least two.
                let (sz, from, with) = (size(t), size(&args[0]), size(&args[1]));
                let mut count = Est::fixed(0);
                let mut kept = Est::fixed(0);
                if from.min == 0 {
                    count.max = sz.max.saturating_add(1);
                    kept.max = sz.max;
                } else if with.max <= from.min {
                    kept.max = sz.max;
                } else {
                    count.max = (sz.max as f64 / from.min as f64).ceil() as u64;
                }
                if from.max == 0 {
                    count.min = sz.min.saturating_add(1);
                    kept.min = sz.min;
                } else if from.max <= with.min {
                    kept.min = sz.min;
                } else {
                    count.min = (sz.min as f64 / from.max as f64).ceil() as u64;
                }
                let result = count.mul(with).add(kept);
                Some((sz.factor(2.0 * STRING_TRAVERSAL), Some(result)))
            }
            "split" => {
                let t = target?;
                let sz = size(t);
                let max = match args.get(1).map(|a| &a.expr.expr) {
                    Some(Expr::Literal(LiteralValue::Int(i))) => (**i).max(0) as u64,
                    _ => sz.max,
                };
                Some((sz.factor(2.0 * STRING_TRAVERSAL), Some(Est { min: 0, max })))
            }
            "join" => {
                let t = target?;
                let count = size(t);
                let mut sz = match self.element(t) {
                    Some(el) => count.mul(size(&el)),
                    None => Est::fixed(0),
                };
                if let Some(sep) = args.first() {
                    let separators = Est {
                        min: count.min.saturating_sub(1),
                        max: count.max.saturating_sub(1),
                    };
                    sz = sz.add(size(sep).mul(separators));
                }
                Some((sz.factor(STRING_TRAVERSAL), Some(sz)))
            }
            "find" | "findAll" if !args.is_empty() => {
                let t = target?;
                let sz = size(t);
                let s = sz.add(Est::fixed(1)).factor(STRING_TRAVERSAL);
                // `args[0]`: the arm's guard checked the argument count.
                let r = size(&args[0]).factor(REGEX_LENGTH);
                Some((
                    s.mul(r),
                    Some(Est {
                        min: 0,
                        max: sz.max,
                    }),
                ))
            }
            "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" | "semver" | "isSemver"
                if !args.is_empty() =>
            {
                // `args[0]`: the arm's guard checked the argument count.
                Some((traverse(&args[0]), None))
            }
            "ip" if overload == "cidr_ip" => one,
            // `args[0]`: the arm's guard checked the argument count.
            "ip" if !args.is_empty() => Some((traverse(&args[0]), None)),
            "ip.isCanonical" if !args.is_empty() => {
                // `args[0]`: the arm's guard checked the argument count.
                Some((size(&args[0]).factor(2.0 * STRING_TRAVERSAL), None))
            }
            "containsIP" | "containsCIDR" if !args.is_empty() => {
                let addr = Est { min: 4, max: 16 };
                let mut cost = addr.add(addr).factor(STRING_TRAVERSAL);
                if name == "containsCIDR" {
                    cost = cost.add(addr.factor(STRING_TRAVERSAL)).add(Est::fixed(1));
                }
                if matches!(
                    overload,
                    "cidr_contains_ip_string" | "cidr_contains_cidr_string"
                ) {
                    // `args[0]`: the arm's guard checked the argument count.
                    cost = cost.add(traverse(&args[0]));
                }
                Some((cost, None))
            }
            "validate" if !args.is_empty() => {
                // `args[0]`: the arm's guard checked the argument count.
                Some((traverse(&args[0]).factor(128.0 * REGEX_LENGTH), None))
            }
            "masked"
            | "prefixLength"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast"
            | "format.named"
            | "sign"
            | "asInteger"
            | "isInteger"
            | "asApproximateFloat"
            | "isGreaterThan"
            | "isLessThan"
            | "compareTo"
            | "add"
            | "sub"
            | "major"
            | "minor"
            | "patch"
            | "getScheme"
            | "getHostname"
            | "getHost"
            | "getPort"
            | "getEscapedPath"
            | "getQuery" => one,
            // `args[0]`, `args[1]`: the guard checked there are two (here and below).
            "_==_" if args.len() == 2 && args[0].ty == args[1].ty => match &args[0].ty {
                Type::Opaque(Opaque::Ip | Opaque::Cidr | Opaque::Quantity | Opaque::Semver) => one,
                Type::Opaque(Opaque::Format) => {
                    Some((Est { min: 1, max: 64 }.factor(STRING_TRAVERSAL), None))
                }
                Type::Opaque(Opaque::Url) => {
                    let max = args[1].size.map_or(1, |s| s.max.max(1));
                    Some((Est { min: 1, max }.factor(STRING_TRAVERSAL), None))
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// The value of an int literal argument, `default` for anything else.
fn int_literal(n: &Node, default: u64) -> u64 {
    match &n.expr.expr {
        Expr::Literal(LiteralValue::Int(i)) => (**i).max(0) as u64,
        _ => default,
    }
}
