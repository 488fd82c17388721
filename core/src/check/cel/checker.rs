//! Type checking of a parsed expression in the Kubernetes CEL environment, as cel-go's checker
//! does it: every node gets a type, every call the overloads that match it. The macros the
//! `cel` crate's parser leaves as calls (two-variable comprehensions, `transformList`,
//! `sortBy`, `optMap`) are expanded first, the way cel-go's extensions expand them.

use std::collections::HashMap;
use std::ops::Range;

use cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, ListExpr, LiteralValue, MapExpr,
    SelectExpr, StructExpr,
};

use super::library::{self, Overload};
use super::types::Type;

/// The variables of a rule: `self`, and `oldSelf` (an optional with `optionalOldSelf`).
pub struct Env {
    pub self_type: Type,
    pub old_self: Type,
}

/// A type-checked expression: the (expanded) tree, each node's type and each call's overloads.
pub struct Checked {
    pub expr: IdedExpr,
    pub types: HashMap<u64, Type>,
    pub overloads: HashMap<u64, Vec<&'static str>>,
    pub uses_old_self: bool,
}

/// Why an expression has no checked form.
#[derive(Clone, Debug)]
pub enum Failure {
    /// The apiserver's compiler would reject it: why, and the innermost node at fault (by
    /// id, see [`extent`]) when it is one.
    Invalid(String, Option<u64>),
    /// It does not parse (reported where rules are read), or touches a node whose type the
    /// caller cannot see: nothing to say here.
    Skipped,
}

/// `source` parsed, with cel-go's extension macros expanded.
pub fn parse(source: &str) -> Result<IdedExpr, Failure> {
    let parsed = cel::parser::Parser::new()
        .enable_optional_syntax(true)
        .parse(source)
        .map_err(|_| Failure::Skipped)?;
    let mut next_id = 1 << 40;
    expand(parsed, &mut next_id).map_err(|e| Failure::Invalid(e, None))
}

/// The characters of `source` (a range of `char` positions) that node `id` of its parse
/// covers, itself and everything under it, where the parser placed them: `self.name.size()`
/// for the call, though the parser places each node at one token (a call at its `(`, a
/// selection at its `.`).
pub fn extent(source: &str, id: u64) -> Option<Range<usize>> {
    let (expr, info) = cel::parser::Parser::new()
        .enable_optional_syntax(true)
        .parse_with_source_info(source)
        .ok()?;
    let mut found = None;
    visit(&expr, &mut |e| {
        if e.id == id {
            found = Some(e.clone());
        }
    });
    let chars: Vec<char> = source.chars().collect();
    let mut range: Option<Range<usize>> = None;
    visit(&found?, &mut |e| {
        // The parser's offsets are its token's first and last characters.
        if let Some((start, stop)) = info.offset_for(e.id) {
            let own = token_reach(&chars, start as usize, stop as usize + 1);
            range = Some(match range.take() {
                Some(r) => r.start.min(own.start)..r.end.max(own.end),
                None => own,
            });
        }
    });
    range.map(|r| r.start..closed(&chars, r))
}

/// What the token at `start..end` stands for: a `(` with the name called before it, a `.`
/// (or `.?`) with the name selected after it.
fn token_reach(chars: &[char], start: usize, end: usize) -> Range<usize> {
    let name = |c: &char| c.is_alphanumeric() || *c == '_';
    match chars.get(start) {
        Some('(') => {
            let before = chars[..start].iter().rev().take_while(|c| name(c)).count();
            start - before..end
        }
        Some('.') => {
            let mut after = start + 1;
            after += usize::from(chars.get(after) == Some(&'?'));
            after += chars[after.min(chars.len())..]
                .iter()
                .take_while(|c| c.is_whitespace())
                .count();
            after += chars[after.min(chars.len())..]
                .iter()
                .take_while(|c| name(c))
                .count();
            start..after.max(end)
        }
        _ => start..end,
    }
}

/// The end of `range` past the brackets it opens and does not close (a call's `)`, an
/// index's `]`), outside string literals.
fn closed(chars: &[char], range: Range<usize>) -> usize {
    let (mut depth, mut quote, mut escaped) = (0usize, None, false);
    for (i, &c) in chars.iter().enumerate().skip(range.start) {
        if i >= range.end && depth == 0 {
            return i;
        }
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    chars.len()
}

/// Calls `f` on `e` and on every node under it.
fn visit(e: &IdedExpr, f: &mut dyn FnMut(&IdedExpr)) {
    f(e);
    match &e.expr {
        Expr::Call(c) => {
            c.target.iter().for_each(|t| visit(t, f));
            c.args.iter().for_each(|a| visit(a, f));
        }
        Expr::Comprehension(c) => {
            for part in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                visit(part, f);
            }
        }
        Expr::List(l) => l.elements.iter().for_each(|x| visit(x, f)),
        Expr::Map(MapExpr { entries }) | Expr::Struct(StructExpr { entries, .. }) => {
            for entry in entries {
                match &entry.expr {
                    EntryExpr::MapEntry(me) => {
                        visit(&me.key, f);
                        visit(&me.value, f);
                    }
                    EntryExpr::StructField(sf) => visit(&sf.value, f),
                }
            }
        }
        Expr::Select(s) => visit(&s.operand, f),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

/// Checks `expr` (from [`parse`]) in `env`.
pub fn check(expr: IdedExpr, env: &Env) -> Result<Checked, Failure> {
    let mut checker = Checker {
        env,
        scopes: Vec::new(),
        types: HashMap::new(),
        overloads: HashMap::new(),
        uses_old_self: false,
        unknown: false,
        failed: None,
    };
    let result = checker.expr(&expr);
    if checker.unknown {
        return Err(Failure::Skipped);
    }
    result.map_err(|e| Failure::Invalid(e, checker.failed))?;
    Ok(Checked {
        expr,
        types: checker.types,
        overloads: checker.overloads,
        uses_old_self: checker.uses_old_self,
    })
}

/// The accumulator cel-go's macros use.
pub const ACCUMULATOR: &str = "@result";

fn node(id: &mut u64, expr: Expr) -> IdedExpr {
    *id += 1;
    IdedExpr { id: *id, expr }
}

fn call(id: &mut u64, name: &str, target: Option<IdedExpr>, args: Vec<IdedExpr>) -> IdedExpr {
    let expr = Expr::Call(CallExpr {
        func_name: name.into(),
        target: target.map(Box::new),
        args,
    });
    node(id, expr)
}

fn ident(id: &mut u64, name: &str) -> IdedExpr {
    node(id, Expr::Ident(name.into()))
}

fn literal(id: &mut u64, value: LiteralValue) -> IdedExpr {
    node(id, Expr::Literal(value))
}

fn list(id: &mut u64, elements: Vec<IdedExpr>) -> IdedExpr {
    node(id, Expr::List(ListExpr::new(elements)))
}

#[allow(clippy::too_many_arguments)]
fn comprehension(
    id: &mut u64,
    range: IdedExpr,
    vars: (&str, Option<&str>),
    accu: &str,
    init: IdedExpr,
    cond: IdedExpr,
    step: IdedExpr,
    result: IdedExpr,
) -> IdedExpr {
    let c = ComprehensionExpr {
        iter_range: range,
        iter_var: vars.0.into(),
        iter_var2: vars.1.map(Into::into),
        accu_var: accu.into(),
        accu_init: init,
        loop_cond: cond,
        loop_step: step,
        result,
    };
    node(id, Expr::Comprehension(Box::new(c)))
}

fn var_name(e: &IdedExpr) -> Result<String, String> {
    match &e.expr {
        Expr::Ident(name) => Ok(name.clone()),
        _ => Err("argument must be a simple name".into()),
    }
}

/// `e` with cel-go's extension macros expanded and namespaced functions (`sets.contains`)
/// called by their full name.
fn expand(e: IdedExpr, id: &mut u64) -> Result<IdedExpr, String> {
    let IdedExpr { id: own, expr } = e;
    let expr = match expr {
        Expr::Call(c) => return expand_call(own, c, id),
        Expr::Select(s) => Expr::Select(SelectExpr {
            operand: Box::new(expand(*s.operand, id)?),
            ..s
        }),
        Expr::List(l) => Expr::List(ListExpr {
            elements: l
                .elements
                .into_iter()
                .map(|e| expand(e, id))
                .collect::<Result<_, _>>()?,
            ..l
        }),
        Expr::Map(m) => {
            let mut entries = Vec::new();
            for mut entry in m.entries {
                if let EntryExpr::MapEntry(me) = entry.expr {
                    let mut me = me;
                    me.key = expand(me.key, id)?;
                    me.value = expand(me.value, id)?;
                    entry.expr = EntryExpr::MapEntry(me);
                }
                entries.push(entry);
            }
            Expr::Map(MapExpr { entries })
        }
        Expr::Comprehension(c) => {
            let c = *c;
            Expr::Comprehension(Box::new(ComprehensionExpr {
                iter_range: expand(c.iter_range, id)?,
                accu_init: expand(c.accu_init, id)?,
                loop_cond: expand(c.loop_cond, id)?,
                loop_step: expand(c.loop_step, id)?,
                result: expand(c.result, id)?,
                ..c
            }))
        }
        other => other,
    };
    Ok(IdedExpr { id: own, expr })
}

fn expand_call(own: u64, c: CallExpr, id: &mut u64) -> Result<IdedExpr, String> {
    let mut args: Vec<IdedExpr> = c
        .args
        .into_iter()
        .map(|a| expand(a, id))
        .collect::<Result<_, _>>()?;
    let target = c.target.map(|t| expand(*t, id)).transpose()?;
    let name = c.func_name;
    let Some(target) = target else {
        return Ok(IdedExpr {
            id: own,
            expr: Expr::Call(CallExpr {
                func_name: name,
                target: None,
                args,
            }),
        });
    };
    if let Expr::Ident(ns) = &target.expr {
        let full = format!("{ns}.{name}");
        if library::functions().contains_key(&full) {
            return Ok(call(id, &full, None, args));
        }
    }
    let accu = || ACCUMULATOR;
    let expanded = match (name.as_str(), args.len()) {
        ("all" | "exists" | "existsOne" | "exists_one", 3) => {
            // The match checked `args.len()` (3 here, 3 or 4 and 2 below): `pop` and
            // `args[0]`, `args[1]` exist.
            let pred = args.pop().unwrap();
            let (v1, v2) = (var_name(&args[0])?, var_name(&args[1])?);
            let vars = (v1.as_str(), Some(v2.as_str()));
            let acc = |id: &mut u64| ident(id, accu());
            let (init, cond, step, result) = match name.as_str() {
                "all" => {
                    let a = acc(id);
                    let cond = call(id, "@not_strictly_false", None, vec![a]);
                    let a = acc(id);
                    let step = call(id, "_&&_", None, vec![a, pred]);
                    let init = literal(id, LiteralValue::Boolean(true.into()));
                    (init, cond, step, acc(id))
                }
                "exists" => {
                    let a = acc(id);
                    let not = call(id, "!_", None, vec![a]);
                    let cond = call(id, "@not_strictly_false", None, vec![not]);
                    let a = acc(id);
                    let step = call(id, "_||_", None, vec![a, pred]);
                    let init = literal(id, LiteralValue::Boolean(false.into()));
                    (init, cond, step, acc(id))
                }
                _ => {
                    let a = acc(id);
                    let one = literal(id, LiteralValue::Int(1.into()));
                    let plus = call(id, "_+_", None, vec![a, one]);
                    let a = acc(id);
                    let step = call(id, "_?_:_", None, vec![pred, plus, a]);
                    let a = acc(id);
                    let one = literal(id, LiteralValue::Int(1.into()));
                    let result = call(id, "_==_", None, vec![a, one]);
                    let init = literal(id, LiteralValue::Int(0.into()));
                    let cond = literal(id, LiteralValue::Boolean(true.into()));
                    (init, cond, step, result)
                }
            };
            comprehension(id, target, vars, accu(), init, cond, step, result)
        }
        ("transformList" | "transformMap" | "transformMapEntry", 3 | 4) => {
            // `args.len()` is 3 or 4 (the match): the pops and `args[0]`, `args[1]` exist.
            let transform = args.pop().unwrap();
            let filter = (args.len() == 3).then(|| args.pop().unwrap());
            let (v1, v2) = (var_name(&args[0])?, var_name(&args[1])?);
            let a = ident(id, accu());
            let (init, step) = if name == "transformList" {
                let one = list(id, vec![transform]);
                (list(id, Vec::new()), call(id, "_+_", None, vec![a, one]))
            } else {
                let init = node(id, Expr::Map(MapExpr::default()));
                // `transformMap` inserts `v1: transform`; `transformMapEntry` merges the
                // one-entry map `transform` returns.
                let mut inserted = vec![a];
                if name == "transformMap" {
                    inserted.push(ident(id, &v1));
                }
                inserted.push(transform);
                (init, call(id, "cel.@mapInsert", None, inserted))
            };
            let step = match filter {
                Some(f) => {
                    let a = ident(id, accu());
                    call(id, "_?_:_", None, vec![f, step, a])
                }
                None => step,
            };
            let cond = literal(id, LiteralValue::Boolean(true.into()));
            let result = ident(id, accu());
            let vars = (v1.as_str(), Some(v2.as_str()));
            comprehension(id, target, vars, accu(), init, cond, step, result)
        }
        ("sortBy", 2) => {
            // `args.len()` is 2 (the match): `pop` and `args[0]` exist.
            let key = args.pop().unwrap();
            let v = var_name(&args[0])?;
            const INPUT: &str = "@__sortBy_input__";
            let input = ident(id, INPUT);
            let init = list(id, Vec::new());
            let result = ident(id, accu());
            let a = ident(id, accu());
            let one = list(id, vec![key]);
            let step = call(id, "_+_", None, vec![a, one]);
            let cond = literal(id, LiteralValue::Boolean(true.into()));
            let keys = comprehension(id, input, (&v, None), accu(), init, cond, step, result);
            let input = ident(id, INPUT);
            let sorted = call(id, "@sortByAssociatedKeys", Some(input), vec![keys]);
            let empty = list(id, Vec::new());
            let no = literal(id, LiteralValue::Boolean(false.into()));
            let step = ident(id, INPUT);
            let vars = ("#unused", None);
            comprehension(id, empty, vars, INPUT, target, no, step, sorted)
        }
        ("optMap" | "optFlatMap", 2) => {
            // `args.len()` is 2 (the match): `pop` and `args[0]` exist.
            let f = args.pop().unwrap();
            let v = var_name(&args[0])?;
            let has = call(id, "hasValue", Some(target.clone()), Vec::new());
            let value = call(id, "value", Some(target), Vec::new());
            let empty = list(id, Vec::new());
            let no = literal(id, LiteralValue::Boolean(false.into()));
            let step = ident(id, &v);
            let bound = comprehension(id, empty, ("#unused", None), &v, value, no, step, f);
            let some = if name == "optMap" {
                call(id, "optional.of", None, vec![bound])
            } else {
                bound
            };
            let none = call(id, "optional.none", None, Vec::new());
            call(id, "_?_:_", None, vec![has, some, none])
        }
        _ => IdedExpr {
            id: own,
            expr: Expr::Call(CallExpr {
                func_name: name,
                target: Some(Box::new(target)),
                args,
            }),
        },
    };
    Ok(expanded)
}

struct Checker<'e> {
    env: &'e Env,
    scopes: Vec<(String, Type)>,
    types: HashMap<u64, Type>,
    overloads: HashMap<u64, Vec<&'static str>>,
    uses_old_self: bool,
    unknown: bool,
    /// The innermost node whose check failed.
    failed: Option<u64>,
}

type Checking = Result<Type, String>;

impl Checker<'_> {
    fn expr(&mut self, e: &IdedExpr) -> Checking {
        let t = self.node(e);
        if t.is_err() && self.failed.is_none() {
            self.failed = Some(e.id);
        }
        let t = t?;
        if matches!(t, Type::Unknown) {
            self.unknown = true;
        }
        self.types.insert(e.id, t.clone());
        Ok(t)
    }

    /// The type of `e`, from its parts' types.
    fn node(&mut self, e: &IdedExpr) -> Checking {
        match &e.expr {
            Expr::Literal(l) => Ok(match l {
                LiteralValue::Boolean(_) => Type::Bool,
                LiteralValue::Bytes(_) => Type::Bytes,
                LiteralValue::Double(_) => Type::Double,
                LiteralValue::Int(_) => Type::Int,
                LiteralValue::Null => Type::Null,
                LiteralValue::String(_) => Type::String,
                LiteralValue::UInt(_) => Type::Uint,
            }),
            Expr::Ident(name) => self.ident(name),
            Expr::Select(s) => {
                let operand = self.expr(&s.operand)?;
                let field = self.select(&operand, &s.field)?;
                Ok(if s.test { Type::Bool } else { field })
            }
            Expr::Call(c) => self.call(e.id, c),
            Expr::List(l) => {
                let mut elem: Option<Type> = None;
                for (i, el) in l.elements.iter().enumerate() {
                    let mut t = self.expr(el)?;
                    if l.optional_indices.contains(&i) {
                        t = optional_inner(t, "optional list element")?;
                    }
                    elem = Some(join(elem, t)?);
                }
                Ok(Type::List(Box::new(elem.unwrap_or(Type::Dyn))))
            }
            Expr::Map(m) => {
                let (mut key, mut value) = (None, None);
                for entry in &m.entries {
                    let EntryExpr::MapEntry(me) = &entry.expr else {
                        return Err("message construction is not supported".into());
                    };
                    key = Some(join(key, self.expr(&me.key)?)?);
                    let mut v = self.expr(&me.value)?;
                    if me.optional {
                        v = optional_inner(v, "optional map entry")?;
                    }
                    value = Some(join(value, v)?);
                }
                let or_dyn = |t: Option<Type>| Box::new(t.unwrap_or(Type::Dyn));
                Ok(Type::Map(or_dyn(key), or_dyn(value)))
            }
            Expr::Comprehension(c) => self.comprehension(c),
            Expr::Struct(_) => Err("message construction is not supported".into()),
            Expr::Unspecified => Err("unspecified expression".into()),
        }
    }

    fn ident(&mut self, name: &str) -> Checking {
        if let Some((_, t)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return Ok(t.clone());
        }
        match name {
            "self" => Ok(self.env.self_type.clone()),
            "oldSelf" => {
                self.uses_old_self = true;
                Ok(self.env.old_self.clone())
            }
            _ => library::type_ident(name)
                .ok_or_else(|| format!("undeclared reference to '{name}' (in container '')")),
        }
    }

    fn select(&mut self, operand: &Type, field: &str) -> Checking {
        match operand {
            Type::Object(decl) => match decl.field(field) {
                Some(f) => Ok(f.cel_type()),
                None => {
                    let names = decl.field_names();
                    let fields = if names.is_empty() {
                        "it declares none: CEL does not see fields kept by \
                         x-kubernetes-preserve-unknown-fields"
                            .to_string()
                    } else {
                        format!("fields: {}", names.join(", "))
                    };
                    Err(format!(
                        "selects `{}`, which is not a field there ({fields})",
                        unescape(field)
                    ))
                }
            },
            Type::Map(_, v) => Ok((**v).clone()),
            // Optional chaining (`a.?b.c`): selecting in an optional gives an optional.
            Type::Optional(inner) => Ok(Type::Optional(Box::new(self.select(inner, field)?))),
            Type::Dyn => Ok(Type::Dyn),
            Type::Unknown => {
                self.unknown = true;
                Ok(Type::Unknown)
            }
            other => Err(format!("type '{other}' does not support field selection")),
        }
    }

    fn call(&mut self, id: u64, c: &CallExpr) -> Checking {
        let name = c.func_name.as_str();
        if name == "_?._" {
            // The parser makes `_?._` only from `a.?b`: the operand and the field name.
            let [operand, field] = c.args.as_slice() else {
                return Err("optional selection needs a field name".into());
            };
            let operand = self.expr(operand)?;
            let Expr::Literal(LiteralValue::String(field)) = &field.expr else {
                return Err("optional selection needs a field name".into());
            };
            let inner = match operand {
                Type::Optional(t) => *t,
                t => t,
            };
            let field = self.select(&inner, field)?;
            self.overloads.insert(id, vec!["select_optional_field"]);
            return Ok(Type::Optional(Box::new(field)));
        }
        let mut types = Vec::new();
        if let Some(target) = &c.target {
            types.push(self.expr(target)?);
        }
        for arg in &c.args {
            types.push(self.expr(arg)?);
        }
        // cel-go's literal validators: regexes, durations and timestamps written as literals.
        if let Some(Expr::Literal(LiteralValue::String(text))) = c.args.last().map(|a| &a.expr) {
            let valid = match (name, c.args.len()) {
                ("matches", _) => crate::check::re2::compile(text).is_ok(),
                ("duration", 1) => is_duration(text),
                ("timestamp", 1) => is_timestamp(text),
                _ => true,
            };
            if !valid {
                return Err(format!("invalid {name} argument"));
            }
        }
        let Some(overloads) = library::functions().get(name) else {
            return Err(format!(
                "undeclared reference to '{name}' (in container '')"
            ));
        };
        let member = c.target.is_some();
        let mut ids = Vec::new();
        let mut result: Option<Type> = None;
        for o in overloads
            .iter()
            .filter(|o| o.member == member && o.params.len() == types.len())
        {
            if let Some(r) = resolve(o, &types) {
                ids.push(o.id.as_str());
                result = Some(match result {
                    Some(prev) if prev != r => Type::Dyn,
                    _ => r,
                });
            }
        }
        let Some(result) = result else {
            let shown: Vec<String> = types.iter().map(ToString::to_string).collect();
            // A member call's types start with its target's.
            let applied = match shown.split_first() {
                Some((target, args)) if member => format!("{target}.({})", args.join(", ")),
                _ => format!("({})", shown.join(", ")),
            };
            let objects = types
                .iter()
                .filter(|t| matches!(t, Type::Object(_)))
                .count();
            let hint = if objects > 1 {
                "; each schema node's objects are a type of their own to CEL: compare their fields"
            } else {
                ""
            };
            return Err(format!(
                "found no matching overload for '{name}' applied to '{applied}'{hint}"
            ));
        };
        self.overloads.insert(id, ids);
        Ok(result)
    }

    fn comprehension(&mut self, c: &ComprehensionExpr) -> Checking {
        let range = self.expr(&c.iter_range)?;
        let (first, second) = match &range {
            Type::List(e) => (Type::Int, (**e).clone()),
            Type::Map(k, v) => ((**k).clone(), (**v).clone()),
            Type::Dyn | Type::Unknown => (Type::Dyn, Type::Dyn),
            other => {
                return Err(format!(
                    "expression of type '{other}' cannot be the range of a comprehension \
                     (must be list, map, or dynamic)"
                ));
            }
        };
        let single = match &range {
            Type::List(_) => second.clone(),
            _ => first.clone(),
        };
        let init = self.expr(&c.accu_init)?;
        let depth = self.scopes.len();
        self.scopes.push((c.accu_var.clone(), init.clone()));
        match &c.iter_var2 {
            Some(v2) => {
                self.scopes.push((c.iter_var.clone(), first));
                self.scopes.push((v2.clone(), second));
            }
            None => self.scopes.push((c.iter_var.clone(), single)),
        }
        self.expr(&c.loop_cond)?;
        let step = self.expr(&c.loop_step)?;
        self.scopes.truncate(depth);
        // An empty list or map accumulates what the step adds to it.
        let accu = match (&c.accu_init.expr, &step) {
            (Expr::List(_) | Expr::Map(_), Type::List(_) | Type::Map(..)) => step,
            _ => init,
        };
        self.scopes.push((c.accu_var.clone(), accu));
        let result = self.expr(&c.result);
        self.scopes.truncate(depth);
        result
    }
}

/// The result type of overload `o` applied to `args`, if it applies.
fn resolve(o: &Overload, args: &[Type]) -> Option<Type> {
    let mut bound = [None, None];
    for (param, arg) in o.params.iter().zip(args) {
        if !unify(param, arg, &mut bound) {
            return None;
        }
    }
    Some(substitute(&o.result, &bound))
}

fn slot(p: u8) -> usize {
    usize::from(p - b'A')
}

fn unify(param: &Type, arg: &Type, bound: &mut [Option<Type>; 2]) -> bool {
    match (param, arg) {
        // `slot` maps the library's type parameters `A` and `B` (the only ones) to 0 and 1.
        (Type::Param(p), _) => match bound[slot(*p)].clone() {
            None | Some(Type::Dyn) => {
                bound[slot(*p)] = Some(arg.clone());
                true
            }
            Some(t) => {
                if unify(&t, arg, bound) {
                    true
                } else if unify(arg, &t, bound) {
                    bound[slot(*p)] = Some(arg.clone());
                    true
                } else {
                    false
                }
            }
        },
        (_, Type::Dyn | Type::Unknown) | (Type::Dyn | Type::Unknown, _) => true,
        (t, Type::Null) | (Type::Null, t) => nullable(t),
        (Type::List(p), Type::List(a))
        | (Type::Optional(p), Type::Optional(a))
        | (Type::Meta(p), Type::Meta(a)) => unify(p, a, bound),
        (Type::Map(pk, pv), Type::Map(ak, av)) => unify(pk, ak, bound) && unify(pv, av, bound),
        (p, a) => p == a,
    }
}

/// Whether `null` is a value of `t`: cel-go's legacy nullable kinds (objects, opaque values
/// such as optionals and Kubernetes' library types, durations, timestamps) and null itself.
fn nullable(t: &Type) -> bool {
    matches!(
        t,
        Type::Null
            | Type::Object(_)
            | Type::Opaque(_)
            | Type::Optional(_)
            | Type::Duration
            | Type::Timestamp
    )
}

fn substitute(t: &Type, bound: &[Option<Type>; 2]) -> Type {
    match t {
        // `slot` gives 0 or 1: `A` and `B` are the library's only type parameters.
        Type::Param(p) => bound[slot(*p)].clone().unwrap_or(Type::Dyn),
        Type::List(e) => Type::List(Box::new(substitute(e, bound))),
        Type::Optional(e) => Type::Optional(Box::new(substitute(e, bound))),
        Type::Meta(e) => Type::Meta(Box::new(substitute(e, bound))),
        Type::Map(k, v) => Type::Map(
            Box::new(substitute(k, bound)),
            Box::new(substitute(v, bound)),
        ),
        other => other.clone(),
    }
}

/// The common type of a literal's elements (cel-go's homogeneous aggregate literals).
fn join(prev: Option<Type>, next: Type) -> Checking {
    let Some(prev) = prev else { return Ok(next) };
    let mut bound = [None, None];
    if unify(&prev, &next, &mut bound) {
        Ok(if matches!(prev, Type::Dyn | Type::Null) {
            next
        } else {
            prev
        })
    } else if unify(&next, &prev, &mut bound) {
        Ok(next)
    } else {
        Err(format!("expected type '{prev}' but found '{next}'"))
    }
}

fn optional_inner(t: Type, what: &str) -> Checking {
    match t {
        Type::Optional(inner) => Ok(*inner),
        Type::Dyn | Type::Unknown => Ok(t),
        other => Err(format!("{what} expects an optional, found '{other}'")),
    }
}

/// Whether `s` is a Go duration (`1h30m`, `-1.5s`, `0`), as `duration()` parses it.
fn is_duration(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    let mut rest = s;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let Some((number, after)) = rest.split_at_checked(digits) else {
            return false;
        };
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return false;
        }
        // The longest unit `after` starts with: the shortest text behind one.
        let Some(behind) = ["ns", "us", "µs", "μs", "ms", "s", "m", "h"]
            .iter()
            .filter_map(|u| after.strip_prefix(*u))
            .min_by_key(|behind| behind.len())
        else {
            return false;
        };
        rest = behind;
    }
    !s.is_empty()
}

/// Whether `s` is an RFC 3339 timestamp (`2020-01-01T00:00:00Z`), as `timestamp()` parses it.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let part = s.get(from..from + len)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let (Some(month), Some(day), Some(hour), Some(minute), Some(second)) =
        (num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2))
    else {
        return false;
    };
    let date_time = num(0, 4).is_some()
        && at(4, b'-')
        && at(7, b'-')
        && (at(10, b'T') || at(10, b't'))
        && at(13, b':')
        && at(16, b':')
        && (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && hour < 24
        && minute < 60
        && second < 60;
    // `num(17, 2)` read `s[17..19]` above, so `s` goes on from 19.
    let mut rest = s.get(19..).unwrap_or("");
    if let Some(fraction) = rest.strip_prefix('.') {
        let after = fraction.trim_start_matches(|c: char| c.is_ascii_digit());
        if after.len() == fraction.len() {
            return false;
        }
        rest = after;
    }
    let zone = match rest {
        "Z" | "z" => true,
        _ => {
            let z = rest.as_bytes();
            let two = |r: std::ops::Range<usize>| rest.get(r).and_then(|t| t.parse::<u32>().ok());
            z.len() == 6
                && matches!(z.first(), Some(b'+' | b'-'))
                && z.get(3) == Some(&b':')
                && two(1..3).is_some_and(|h| h < 24)
                && two(4..6).is_some_and(|m| m < 60)
        }
    };
    date_time && zone
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

    /// What [`extent`] underlines in `source` for the first node (in [`visit`] order) that
    /// `pick` chooses.
    fn part(source: &str, pick: &dyn Fn(&Expr) -> bool) -> String {
        let expr = cel::parser::Parser::new()
            .enable_optional_syntax(true)
            .parse(source)
            .unwrap();
        let mut id = None;
        visit(&expr, &mut |e| {
            if id.is_none() && pick(&e.expr) {
                id = Some(e.id);
            }
        });
        let range = extent(source, id.unwrap()).unwrap();
        source.chars().skip(range.start).take(range.len()).collect()
    }

    /// Picks the call of `name`.
    fn call(name: &'static str) -> impl Fn(&Expr) -> bool {
        move |e| matches!(e, Expr::Call(c) if c.func_name == name)
    }

    #[test]
    fn a_node_covers_its_source_from_first_to_last_character() {
        let select = |e: &Expr| matches!(e, Expr::Select(s) if !s.test);
        assert_eq!(part("self.sise > 0", &select), "self.sise");
        assert_eq!(part("self. sise > 0", &select), "self. sise");
        assert_eq!(
            part("1 + self.?a.orValue(0)", &call("orValue")),
            "self.?a.orValue(0)"
        );
        assert_eq!(
            part("self.name.size() > 'a'", &call("size")),
            "self.name.size()"
        );
        assert_eq!(part("int(self.x) + 1", &call("int")), "int(self.x)");
        let has = |e: &Expr| matches!(e, Expr::Select(s) if s.test);
        assert_eq!(part("has(self.x) && true", &has), "has(self.x)");
        assert_eq!(part("[')', 2][0] == 1", &call("_[_]")), "[')', 2][0]");
        let all = |e: &Expr| matches!(e, Expr::Comprehension(_));
        assert_eq!(
            part("true && self.a.all(x, x > 0)", &all),
            "self.a.all(x, x > 0)"
        );
    }
}
