//! `x-kubernetes-validations` rules evaluated as the server evaluates them: at every node that
//! has a value, with `self` (and `oldSelf` on update where old and new values pair up; a
//! transition rule is skipped without an old value unless `optionalOldSelf` makes `oldSelf`
//! an optional), the message from `messageExpression`, `message` or the rule, the `reason`'s
//! error type and the `fieldPath`'s field.

use std::cell::Cell;
use std::sync::Arc;

use cel::objects::OptionalValue;
use serde_json::Value;

use super::convert::to_cel;
use super::error::{FieldError, Reason};
use super::path::Path;
use super::{Compiled, Found};
use crate::model::{Rule, Schema};

/// The compiled rules and the context they are evaluated in.
pub(super) struct Rules<'c> {
    c: &'c Compiled,
    ctx: cel::Context<'c, 'c>,
    /// A rule went over the per-call cost limit: the server runs no further rule.
    stopped: Cell<bool>,
}

impl<'c> Rules<'c> {
    pub(super) fn new(c: &'c Compiled) -> Self {
        let ctx = cel::Context::with_env(c.env.clone());
        Rules {
            c,
            ctx,
            stopped: Cell::new(false),
        }
    }

    /// Evaluates every rule of `s` and below on `v`, `old` its value before an update.
    pub(super) fn evaluate(
        &self,
        s: &Schema,
        v: &Value,
        old: Option<&Value>,
        path: &Path,
        resource: bool,
        out: &mut Found,
    ) {
        let (c, ctx) = (self.c, &self.ctx);
        if v.is_null() || self.stopped.get() {
            return;
        }
        if !s.x_validations.is_empty() {
            let this = to_cel(s, v, resource);
            let before = old.map(|o| to_cel(s, o, resource));
            for rule in &s.x_validations {
                if self.stopped.get() {
                    return;
                }
                let Some(program) = c.programs.get(&rule.rule) else {
                    continue;
                };
                let transition = program.references().has_variable("oldSelf");
                let optional = rule.optional_old_self == Some(true);
                if transition && before.is_none() && !optional {
                    continue;
                }
                let mut scope = ctx.new_inner_scope();
                scope.add_variable_from_value("self", this.clone());
                if transition {
                    let old_self = match (&before, optional) {
                        (Some(b), false) => b.clone(),
                        (b, true) => {
                            let o = b
                                .clone()
                                .map_or_else(OptionalValue::none, OptionalValue::of);
                            cel::Value::Opaque(Arc::new(o))
                        }
                        (None, false) => continue,
                    };
                    scope.add_variable_from_value("oldSelf", old_self);
                }
                if c.costly.contains(&rule.rule) && super::cost::exceeds(s, resource, rule, v) {
                    self.stopped.set(true);
                    out.errors.push(over_cost(s, rule, path));
                    return;
                }
                let error = match program.execute(&scope) {
                    Ok(cel::Value::Bool(true)) => continue,
                    Ok(cel::Value::Bool(false)) => failure(c, &scope, rule, path, v),
                    Ok(other) => runtime(
                        s,
                        rule,
                        path,
                        &format!("rule did not evaluate to a bool: {other:?}"),
                    ),
                    Err(e) => runtime(s, rule, path, &execution_error(&e)),
                };
                // Ratcheting: a rule that reads no old value and fails on an unchanged value.
                if !transition && old == Some(v) {
                    out.ratcheted.push(error.clone());
                    out.ratcheted_rules.push(error);
                } else {
                    out.errors.push(error);
                }
            }
        }
        for child in super::children(s, v, old, path, resource) {
            self.evaluate(
                child.schema,
                child.value,
                child.old,
                &child.path,
                false,
                out,
            );
        }
    }
}

/// The error of a rule that evaluated to false on `v`: the message shows a scalar value, not
/// an object or a list; with `reason: FieldValueDuplicate` the server drops the message. A
/// `messageExpression`'s result is trimmed, and used when it is not empty, at most 5 KiB and
/// on one line.
fn failure(c: &Compiled, scope: &cel::Context, rule: &Rule, path: &Path, v: &Value) -> FieldError {
    let computed = rule
        .message_expression
        .as_ref()
        .and_then(|m| c.programs.get(m))
        .and_then(|p| match p.execute(scope) {
            Ok(cel::Value::String(s)) => {
                let s = s.trim();
                let fits = !s.is_empty() && s.len() <= 5 * 1024 && !s.contains('\n');
                fits.then(|| s.to_string())
            }
            _ => None,
        });
    let message = computed
        .or_else(|| rule.message.clone().filter(|m| !m.trim().is_empty()))
        .unwrap_or_else(|| format!("failed rule: {}", rule.rule));
    let reason = rule
        .reason
        .as_deref()
        .and_then(Reason::of_rule)
        .unwrap_or(Reason::Invalid);
    let field = match rule.field_path.as_deref() {
        Some(fp) => relative(path, fp),
        None => path.field(),
    };
    // The server's `Duplicate value` has no detail: the message is lost.
    let message = if reason == Reason::Duplicate {
        String::new()
    } else {
        message
    };
    let error = match v {
        Value::Object(_) | Value::Array(_) => FieldError::omitting_value(reason, &field, message),
        scalar => FieldError::new(reason, &field, scalar, message),
    };
    error.at(path)
}

/// The error of a rule over the per-call cost limit, which ends the evaluation of rules.
fn over_cost(s: &Schema, rule: &Rule, path: &Path) -> FieldError {
    let detail = format!(
        "'operation cancelled: actual cost limit exceeded': no further validation rules will \
         be run due to call cost exceeds limit for rule: {}",
        rule_name(rule)
    );
    invalid_type(s, path, detail)
}

/// A rule as the server names it in an error (`ruleErrorString`): its message if it has one.
fn rule_name(rule: &Rule) -> &str {
    let named = rule.message.as_deref().map(str::trim);
    named.filter(|m| !m.is_empty()).unwrap_or(rule.rule.trim())
}

/// The error of a rule that could not be evaluated.
fn runtime(s: &Schema, rule: &Rule, path: &Path, error: &str) -> FieldError {
    invalid_type(
        s,
        path,
        format!("{error} evaluating rule: {}", rule_name(rule)),
    )
}

/// `Invalid value: "<type>": <detail>` at `path`.
fn invalid_type(s: &Schema, path: &Path, detail: String) -> FieldError {
    let kind = if s.x_int_or_string { "" } else { s.type_str() };
    FieldError::new(Reason::Invalid, &path.field(), &Value::from(kind), detail).at(path)
}

/// An evaluation error as cel-go words the common ones.
fn execution_error(e: &cel::ExecutionError) -> String {
    match e {
        cel::ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        cel::ExecutionError::DivisionByZero(_) => "division by zero".into(),
        cel::ExecutionError::RemainderByZero(_) => "modulus by zero".into(),
        cel::ExecutionError::FunctionError { function, .. } if function == "duration" => {
            "type conversion error from 'string' to 'google.protobuf.Duration'".into()
        }
        cel::ExecutionError::FunctionError { function, .. } if function == "timestamp" => {
            "type conversion error from 'string' to 'google.protobuf.Timestamp'".into()
        }
        cel::ExecutionError::FunctionError { function, message }
            if function == "transformMapEntry" =>
        {
            message.clone()
        }
        other => other.to_string(),
    }
}

/// `fieldPath` (`.a.b`, `['k']`) under `path`, as `field.Path` prints it.
fn relative(path: &Path, field_path: &str) -> String {
    let mut out = path.field();
    let mut rest = field_path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("['") {
            let end = r.find("']").unwrap_or(r.len());
            out.push_str(&format!("[{}]", &r[..end]));
            rest = r.get(end + 2..).unwrap_or("");
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&r[..end]);
            rest = &r[end..];
        } else {
            out.push_str(rest);
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::admit::Step;

    #[test]
    fn field_paths_extend_the_rule_s_path() {
        let spec = Path::default().child(Step::Field("spec".into()));
        assert_eq!(relative(&spec, ".a.b"), "spec.a.b");
        assert_eq!(relative(&spec, ".m['k.x'].c"), "spec.m[k.x].c");
        assert_eq!(relative(&Path::default(), ".a"), "a");
    }
}
