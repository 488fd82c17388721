//! Parse-time rewrites that give the `cel` crate's evaluator what Kubernetes' CEL has and it
//! lacks:
//!
//! - a timestamp's getters without a time zone read it in UTC (`x.getHours()` becomes
//!   `@utc(x).getHours()`; `@utc` leaves any other value alone, so durations are unchanged);
//! - `timestamp(x)` and `duration(x)` are `@timestamp(x)` and `@duration(x)`, which read strings
//!   as Go's `time.Parse(time.RFC3339, ..)` and `time.ParseDuration` do;
//! - `string(x)` is `@own_string(x) ? @string(x) : string(x)` (`x` bound once): kubegen writes
//!   a timestamp (in its own offset, as Go's `Time.Format`), an IP address and a CIDR, the
//!   `cel` crate anything else;
//! - the two-variable comprehensions (`all(i, v, p)`, `exists`, `existsOne`,
//!   `transformList(i, v, [filter,] e)`, `transformMap`, `transformMapEntry`) iterate
//!   `@pairs(x)`, the `[index or key, value]` pairs of a list or map, binding `i` and `v` to
//!   each pair's items as `cel.bind` binds (a comprehension over nothing whose accumulator is
//!   the variable); maps are built by `@to_map` and `@merge`.

use cel::common::ast::{
    CallExpr, ComprehensionExpr, Expr, IdedExpr, ListExpr, LiteralValue, operators,
};
use cel::parser::{Macro, MacroExprHelper};
use cel::{DeclarationError, Env, ParseError};

use crate::check::cel::library::TIMESTAMP_GETTERS;

/// The names of the functions the rewrites call (no expression can spell them).
pub const UTC: &str = "@utc";
pub const PAIRS: &str = "@pairs";
pub const TO_MAP: &str = "@to_map";
pub const MERGE: &str = "@merge";
pub const TIMESTAMP: &str = "@timestamp";
pub const DURATION: &str = "@duration";
pub const STRING: &str = "@string";
pub const OWN_STRING: &str = "@own_string";

/// The comprehensions' iteration variable and accumulator.
const ITEM: &str = "@it";
const RESULT: &str = "@result";
/// The value `string(x)` converts.
const SUBJECT: &str = "@string_of";

/// Adds the rewrites to `env` (the functions they call are `library`'s).
pub fn add(env: &mut Env) -> Result<(), DeclarationError> {
    for getter in TIMESTAMP_GETTERS {
        env.add_macro(Macro::receiver(*getter, 0, move |h, target, _| {
            let x = target.take().expect("a receiver macro");
            let utc = call(h, UTC, vec![x]);
            Ok(Some(h.next_expr(Expr::Call(CallExpr {
                func_name: getter.to_string(),
                target: Some(Box::new(utc)),
                args: Vec::new(),
            }))))
        }))?;
    }
    for (name, own) in [("timestamp", TIMESTAMP), ("duration", DURATION)] {
        env.add_macro(Macro::global(name, 1, move |h, _, args| {
            let x = args.pop().expect("one argument");
            Ok(Some(call(h, own, vec![x])))
        }))?;
    }
    env.add_macro(Macro::global("string", 1, |h, _, args| {
        let x = args.pop().expect("one argument");
        let subject = ident(h, SUBJECT);
        let own = call(h, OWN_STRING, vec![subject]);
        let subject = ident(h, SUBJECT);
        let ours = call(h, STRING, vec![subject]);
        let subject = ident(h, SUBJECT);
        let theirs = call(h, "string", vec![subject]);
        let body = call(h, operators::CONDITIONAL, vec![own, ours, theirs]);
        Ok(Some(bind(h, SUBJECT, x, body)))
    }))?;
    for (name, arity, kind) in [
        ("all", 3, Kind::All),
        ("exists", 3, Kind::Exists),
        ("existsOne", 3, Kind::ExistsOne),
        ("transformList", 3, Kind::List),
        ("transformList", 4, Kind::List),
        ("transformMap", 3, Kind::Map),
        ("transformMap", 4, Kind::Map),
        ("transformMapEntry", 3, Kind::MapEntry),
        ("transformMapEntry", 4, Kind::MapEntry),
    ] {
        env.add_macro(Macro::receiver(name, arity, move |h, target, args| {
            two_variables(h, target, args, kind).map(Some)
        }))?;
    }
    Ok(())
}

/// What a two-variable comprehension computes.
#[derive(Clone, Copy)]
enum Kind {
    All,
    Exists,
    ExistsOne,
    List,
    Map,
    MapEntry,
}

fn call(h: &mut MacroExprHelper<'_>, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
    h.next_expr(Expr::Call(CallExpr {
        func_name: name.to_string(),
        target: None,
        args,
    }))
}

fn ident(h: &mut MacroExprHelper<'_>, name: &str) -> IdedExpr {
    h.next_expr(Expr::Ident(name.to_string()))
}

fn literal(h: &mut MacroExprHelper<'_>, value: LiteralValue) -> IdedExpr {
    h.next_expr(Expr::Literal(value))
}

fn list(h: &mut MacroExprHelper<'_>, items: Vec<IdedExpr>) -> IdedExpr {
    h.next_expr(Expr::List(ListExpr::new(items)))
}

/// The name a comprehension's variable argument gives.
fn name(h: &mut MacroExprHelper<'_>, e: IdedExpr) -> Result<String, ParseError> {
    match e.expr {
        Expr::Ident(name) => Ok(name),
        _ => Err(h.new_error(e.id, "argument must be a simple name")),
    }
}

/// `body` with `i` and `v` bound to the current pair's items.
fn bound(h: &mut MacroExprHelper<'_>, i: &str, v: &str, body: IdedExpr) -> IdedExpr {
    let second = item(h, 1);
    let inner = bind(h, v, second, body);
    let first = item(h, 0);
    bind(h, i, first, inner)
}

/// `@it[index]`.
fn item(h: &mut MacroExprHelper<'_>, index: i64) -> IdedExpr {
    let it = ident(h, ITEM);
    let at = literal(h, LiteralValue::Int(index.into()));
    call(h, operators::INDEX, vec![it, at])
}

/// `body` with `var` bound to `init`, as `cel.bind` binds.
fn bind(h: &mut MacroExprHelper<'_>, var: &str, init: IdedExpr, body: IdedExpr) -> IdedExpr {
    let range = list(h, Vec::new());
    let cond = literal(h, LiteralValue::Boolean(false.into()));
    let step = ident(h, var);
    h.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: "#unused".to_string(),
        iter_var2: None,
        accu_var: var.to_string(),
        accu_init: init,
        loop_cond: cond,
        loop_step: step,
        result: body,
    })))
}

/// `x.f(i, v, [filter,] e)` over `@pairs(x)`.
fn two_variables(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    kind: Kind,
) -> Result<IdedExpr, ParseError> {
    let x = target.take().expect("a receiver macro");
    let mut args = std::mem::take(args).into_iter();
    let (Some(i), Some(v), Some(first)) = (args.next(), args.next(), args.next()) else {
        unreachable!("the macros take three or four arguments");
    };
    let (i, v) = (name(h, i)?, name(h, v)?);
    let (filter, e) = match args.next() {
        Some(e) => (Some(bound(h, &i, &v, first)), bound(h, &i, &v, e)),
        None => (None, bound(h, &i, &v, first)),
    };
    let accu = |h: &mut MacroExprHelper<'_>| ident(h, RESULT);
    let (init, cond, step, result) = match kind {
        Kind::All | Kind::Exists => {
            let all = matches!(kind, Kind::All);
            let init = literal(h, LiteralValue::Boolean(all.into()));
            let r = accu(h);
            let going = if all {
                r
            } else {
                call(h, operators::LOGICAL_NOT, vec![r])
            };
            let cond = call(h, operators::NOT_STRICTLY_FALSE, vec![going]);
            let join = if all {
                operators::LOGICAL_AND
            } else {
                operators::LOGICAL_OR
            };
            let r = accu(h);
            let step = call(h, join, vec![r, e]);
            (init, cond, step, accu(h))
        }
        Kind::ExistsOne => {
            let init = literal(h, LiteralValue::Int(0.into()));
            let cond = literal(h, LiteralValue::Boolean(true.into()));
            let (r, one) = (accu(h), literal(h, LiteralValue::Int(1.into())));
            let more = call(h, operators::ADD, vec![r, one]);
            let r = accu(h);
            let step = call(h, operators::CONDITIONAL, vec![e, more, r]);
            let (r, one) = (accu(h), literal(h, LiteralValue::Int(1.into())));
            (init, cond, step, call(h, operators::EQUALS, vec![r, one]))
        }
        Kind::List | Kind::Map | Kind::MapEntry => {
            let element = match kind {
                // `[i, e]` with `i` bound: the pair's key and the new value.
                Kind::Map => {
                    let key = ident(h, ITEM);
                    let zero = literal(h, LiteralValue::Int(0.into()));
                    let key = call(h, operators::INDEX, vec![key, zero]);
                    list(h, vec![key, e])
                }
                _ => e,
            };
            let init = list(h, Vec::new());
            let cond = literal(h, LiteralValue::Boolean(true.into()));
            let r = accu(h);
            let one = list(h, vec![element]);
            let append = call(h, operators::ADD, vec![r, one]);
            let step = match filter {
                Some(f) => {
                    let r = accu(h);
                    call(h, operators::CONDITIONAL, vec![f, append, r])
                }
                None => append,
            };
            let r = accu(h);
            let result = match kind {
                Kind::Map => call(h, TO_MAP, vec![r]),
                Kind::MapEntry => call(h, MERGE, vec![r]),
                _ => r,
            };
            (init, cond, step, result)
        }
    };
    let range = call(h, PAIRS, vec![x]);
    Ok(h.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: ITEM.to_string(),
        iter_var2: None,
        accu_var: RESULT.to_string(),
        accu_init: init,
        loop_cond: cond,
        loop_step: step,
        result,
    }))))
}
