//! The walk over a schema: every rule and message expression compiled in its node's CEL
//! environment and measured (cost times the cardinality above it), problems and costs noted in
//! the apiserver's order.

use crate::model::{ListType, Loc, Rule, Schema};
use std::sync::Arc;

use super::checker::{self, Env, Failure};
use super::types::{Decl, DeclKind, MAX_REQUEST_BYTES, Type};
use super::{Class, Contribution, Problem, RULE_COST_LIMIT, Report, Scope, TOTAL_COST_LIMIT};
use super::{cost, presence};
use cel::common::ast::IdedExpr;

/// `"factor of 3.1x"`, worded as the apiserver words it.
pub(super) fn factor(cost: u64, limit: u64) -> String {
    let f = cost as f64 / limit as f64;
    if f > 100.0 {
        "more than 100x".into()
    } else if f < 1.5 {
        format!("{f:.6}x")
    } else {
        format!("{f:.1}x")
    }
}

pub(super) fn near(cost: u64, limit: u64) -> bool {
    cost <= limit && cost > limit / 10 * 9
}

/// One step from a node to a child.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    Property(String),
    Items,
    Values,
}

/// An expression measured: where, which, and where its error goes in the report.
#[derive(Clone, Debug)]
pub(super) struct Measured {
    /// The rule's node.
    pub(super) steps: Vec<Step>,
    /// The node as a JSON path.
    pub(super) path: String,
    rule: usize,
    message: bool,
    /// The expression.
    pub(super) source: String,
    /// The rule's expression (the rule of a message expression).
    pub(super) rule_source: String,
    /// ``rule `…` `` or ``rule `…`: messageExpression `…` ``.
    pub(super) subject: String,
    /// Where its error goes among the report's errors.
    pub(super) position: usize,
    /// Where the rule is written.
    pub(super) loc: Option<Loc>,
}

pub(super) struct Walk {
    scope: Scope,
    /// The problems found, but for expressions over a limit.
    pub(super) report: Report,
    /// The sum of all costs.
    pub(super) total: u64,
    costs: Vec<(Measured, u64)>,
    /// The expressions over a limit: cost, limit, class.
    pub(super) over: Vec<(Measured, u64, u64, Class)>,
}

impl Walk {
    pub(super) fn measure(schema: &Schema, scope: Scope) -> Walk {
        let mut walk = Walk {
            scope,
            report: Report::default(),
            total: 0,
            costs: Vec::new(),
            over: Vec::new(),
        };
        let decl = Decl::of(schema, scope.resource, scope.lenient);
        walk.node(schema, decl, &mut Vec::new(), Some(1), true);
        walk
    }

    /// The expressions the apiserver names when the total is over its limit
    /// (`TotalCost.MostExpensive`): the four costliest of those costing at least 1% of the
    /// limit, most expensive first, the first measured first among equals.
    pub(super) fn costliest(&self) -> Vec<Contribution> {
        let mut costs: Vec<&(Measured, u64)> = self
            .costs
            .iter()
            .filter(|c| c.1 >= TOTAL_COST_LIMIT / 100)
            .collect();
        costs.sort_by_key(|c| std::cmp::Reverse(c.1));
        costs
            .iter()
            .take(4)
            .map(|(m, cost)| Contribution {
                at: m.path.clone(),
                subject: m.subject.clone(),
                cost: *cost,
                loc: m.loc.clone(),
            })
            .collect()
    }

    fn node(
        &mut self,
        node: &Schema,
        decl: Option<Arc<Decl>>,
        steps: &mut Vec<Step>,
        cardinality: Option<u64>,
        correlatable: bool,
    ) {
        let path = show(steps);
        if !node.x_validations.is_empty() {
            match &decl {
                Some(decl) => self.rules(node, decl, steps, &path, cardinality, correlatable),
                None if self.scope.lenient && node.type_.is_none() => {}
                None => self.report.errors.push(Problem {
                    at: path.clone(),
                    rule: None,
                    class: Class::Other,
                    message: "the apiserver declares no CEL type for this node (it has no \
                              type), so its rules cannot compile"
                        .into(),
                    loc: node.x_validations.first().and_then(|r| r.loc.clone()),
                    contributors: Vec::new(),
                    part: None,
                }),
            }
        }
        let below = |max: Option<u64>| cardinality.zip(max).map(|(c, m)| c.saturating_mul(m));
        let fields = |name: &str| match decl.as_deref().map(|d| &d.kind) {
            Some(DeclKind::Object(fields)) => fields.get(name).cloned(),
            _ => None,
        };
        for (name, prop) in &node.properties {
            steps.push(Step::Property(name.clone()));
            self.node(prop, fields(name), steps, below(Some(1)), correlatable);
            steps.pop();
        }
        let elem = || match decl.as_deref().map(|d| &d.kind) {
            Some(DeclKind::List(e) | DeclKind::Map(e)) => Some(Arc::clone(e)),
            _ => None,
        };
        if let Some(items) = &node.items {
            let keyed = node.x_list_type == Some(ListType::Map);
            steps.push(Step::Items);
            self.node(
                items,
                elem(),
                steps,
                below(node.max_items),
                correlatable && keyed,
            );
            steps.pop();
        }
        if let Some(values) = &node.additional_properties {
            steps.push(Step::Values);
            self.node(
                values,
                elem(),
                steps,
                below(node.max_properties),
                correlatable,
            );
            steps.pop();
        }
    }

    fn rules(
        &mut self,
        node: &Schema,
        decl: &Arc<Decl>,
        steps: &[Step],
        path: &str,
        cardinality: Option<u64>,
        correlatable: bool,
    ) {
        let self_type = decl.cel_type();
        // Under a list or map without a bound, the apiserver takes as many values of this
        // node as fit in a request.
        let cardinality = cardinality.unwrap_or(MAX_REQUEST_BYTES / (decl.min_size + 1));
        for (i, rule) in node.x_validations.iter().enumerate() {
            let old_self = if rule.optional_old_self == Some(true) {
                Type::Optional(Box::new(self_type.clone()))
            } else {
                self_type.clone()
            };
            let env = Env {
                self_type: self_type.clone(),
                old_self,
            };
            let subject = |message: Option<&String>| match message {
                Some(m) => format!("rule `{}`: messageExpression `{m}`", rule.rule),
                None => format!("rule `{}`", rule.rule),
            };
            let measured = |message: Option<&String>, position: usize| Measured {
                steps: steps.to_vec(),
                path: path.to_string(),
                rule: i,
                message: message.is_some(),
                source: message.unwrap_or(&rule.rule).clone(),
                rule_source: rule.rule.clone(),
                subject: subject(message),
                position,
                loc: rule.loc.clone(),
            };
            let error = |class, message: String| Problem {
                at: path.to_string(),
                rule: Some(rule.rule.clone()),
                class,
                message,
                loc: rule.loc.clone(),
                contributors: Vec::new(),
                part: None,
            };
            let parsed = checker::parse(&rule.rule);
            let checked = parsed
                .clone()
                .and_then(|expr| compile_parsed(expr, &env, Type::Bool, "a bool"));
            // A rule that compiles, or touches a node the caller cannot see, may still read
            // an optional field the schema shows.
            if let (Ok(expr), Ok(_) | Err(Failure::Skipped)) = (&parsed, &checked) {
                let root = self.scope.resource && steps.is_empty();
                for read in presence::unguarded(expr, node, root) {
                    let warning = error(Class::NoSuchKey, unguarded(&rule.rule, &read));
                    self.report.warnings.push(warning);
                }
            }
            let checked = match checked {
                Ok(c) => c,
                Err(Failure::Skipped) => continue,
                Err(Failure::Invalid(e, at)) => {
                    let mut e = error(Class::Type, format!("rule `{}`: {e}", rule.rule));
                    e.part = at.and_then(|id| checker::extent(&rule.rule, id));
                    self.report.errors.push(e);
                    continue;
                }
            };
            let cost = cost::estimate(&checked, decl).saturating_mul(cardinality);
            let at = measured(None, self.report.errors.len());
            self.observe(at, cost, Class::CostRule);
            if let Some(source) = &rule.message_expression {
                match compile(source, &env, Type::String, "a string") {
                    Ok(m) => {
                        let at = measured(Some(source), self.report.errors.len());
                        self.observe(at, cost::estimate(&m, decl), Class::CostMessage);
                    }
                    Err(Failure::Skipped) => {}
                    Err(Failure::Invalid(e, _)) => {
                        let e = error(Class::Type, format!("{}: {e}", subject(Some(source))));
                        self.report.errors.push(e);
                    }
                }
            }
            if checked.uses_old_self && !correlatable {
                self.report.errors.push(error(
                    Class::Other,
                    format!(
                        "rule `{}` uses `oldSelf`, but the apiserver cannot pair old and new \
                         values here: it sits under a list that is not `list_type = \"map\"`",
                        rule.rule
                    ),
                ));
            } else if !checked.uses_old_self && rule.optional_old_self.is_some() {
                self.report.errors.push(error(
                    Class::Other,
                    format!(
                        "rule `{}` sets `optional_old_self` but does not use `oldSelf`",
                        rule.rule
                    ),
                ));
            }
        }
    }

    fn observe(&mut self, at: Measured, cost: u64, class: Class) {
        self.total = self.total.saturating_add(cost);
        if cost > RULE_COST_LIMIT {
            self.over.push((at.clone(), cost, RULE_COST_LIMIT, class));
        } else if near(cost, RULE_COST_LIMIT) {
            self.report.warnings.push(Problem {
                at: at.path.clone(),
                rule: Some(at.rule_source.clone()),
                class,
                message: format!(
                    "{}: estimated cost {cost} is within 10% of the apiserver's limit of \
                     {RULE_COST_LIMIT}",
                    at.subject
                ),
                loc: at.loc.clone(),
                contributors: Vec::new(),
                part: None,
            });
        }
        self.costs.push((at, cost));
    }

    /// The total with each expression's cost brought down to its own limit.
    pub(super) fn total_within_limits(&self) -> u64 {
        self.costs
            .iter()
            .map(|(_, cost)| (*cost).min(RULE_COST_LIMIT))
            .fold(0, u64::saturating_add)
    }

    pub(super) fn cost_of(&self, m: &Measured) -> Option<u64> {
        self.costs
            .iter()
            .find(|(c, _)| c.steps == m.steps && c.rule == m.rule && c.message == m.message)
            .map(|(_, cost)| *cost)
    }
}

/// Parses and checks `source`, whose result must be of type `want`.
/// The estimated cost of `rule` once, its `self` a value of `node` (a resource's root if
/// `resource`), as
/// the apiserver estimates it; `None` if it does not compile.
pub fn rule_cost(node: &Schema, resource: bool, rule: &Rule) -> Option<u64> {
    let decl = Decl::of(node, resource, false)?;
    let self_type = decl.cel_type();
    let old_self = if rule.optional_old_self == Some(true) {
        Type::Optional(Box::new(self_type.clone()))
    } else {
        self_type.clone()
    };
    let env = Env {
        self_type,
        old_self,
    };
    let checked = compile(&rule.rule, &env, Type::Bool, "a bool").ok()?;
    Some(cost::estimate(&checked, &decl))
}

fn compile(source: &str, env: &Env, want: Type, wanted: &str) -> Result<checker::Checked, Failure> {
    compile_parsed(checker::parse(source)?, env, want, wanted)
}

/// [`compile`], of an expression parsed already.
fn compile_parsed(
    expr: IdedExpr,
    env: &Env,
    want: Type,
    wanted: &str,
) -> Result<checker::Checked, Failure> {
    let checked = checker::check(expr, env)?;
    match checked.types.get(&checked.expr.id) {
        Some(t) if *t == want => Ok(checked),
        Some(t) => Err(Failure::Invalid(
            format!("must evaluate to {wanted}, not {t}"),
            None,
        )),
        None => Err(Failure::Skipped),
    }
}

/// The warning about `rule`'s `read` (`self.strategy`) of an optional field, with the fixes.
fn unguarded(rule: &str, read: &str) -> String {
    let (operand, field) = read.rsplit_once('.').unwrap_or(("self", read));
    format!(
        "rule `{rule}` reads `{read}` with no `has()` guard, and `{field}` is optional (not \
         required, no default): the apiserver refuses every object without it at run time \
         (\"no such key: {field}\"); write `!has({read}) || ...` to let such objects pass or \
         `has({read}) && ...` to refuse them with the rule's message, read `{operand}.?{field}` \
         (an optional), or give `{field}` a default"
    )
}

/// A JSON path for steps (`.spec.ports[*]`, `.` for none).
pub(super) fn show(steps: &[Step]) -> String {
    let mut s = String::new();
    for step in steps {
        match step {
            Step::Property(name) => {
                s.push('.');
                s.push_str(name);
            }
            Step::Items | Step::Values => s.push_str("[*]"),
        }
    }
    if s.is_empty() { ".".into() } else { s }
}
