//! CEL rules as the apiserver sees them (feature `cel`; without it the apiserver is the first to
//! look): every `x-kubernetes-validations` rule and `messageExpression` is type-checked against
//! the schema at its node in the Kubernetes CEL environment, its worst-case cost is estimated
//! as kube-apiserver estimates it (per rule, per message expression, and over the whole CRD,
//! with the cardinality of the lists and maps above it), and `oldSelf` may only be used where
//! the apiserver can pair old and new values.
//!
//! `types` declares a schema node to CEL, `library` lists the functions, `checker` types an
//! expression, `cost` estimates it; this module walks the schema and words the problems.

#[cfg(feature = "cel")]
mod checker;
#[cfg(feature = "cel")]
mod cost;
#[cfg(feature = "cel")]
mod library;
#[cfg(feature = "cel")]
mod types;

use std::fmt;

use crate::schema::Schema;

/// The most a rule or message expression may cost (`StaticEstimatedCostLimit`).
pub const RULE_COST_LIMIT: u64 = 10_000_000;
/// The most all rules and message expressions of a CRD version may cost together.
pub const TOTAL_COST_LIMIT: u64 = 100_000_000;

/// What is wrong with a rule, in the classes of the apiserver's causes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The rule or message expression does not compile (types, names, overloads).
    Type,
    /// The rule's estimated cost is over [`RULE_COST_LIMIT`].
    CostRule,
    /// The message expression's estimated cost is over [`RULE_COST_LIMIT`].
    CostMessage,
    /// All rules together are over [`TOTAL_COST_LIMIT`].
    CostTotal,
    /// Anything else the apiserver rejects (`oldSelf` placement, untyped nodes).
    Other,
}

impl Class {
    /// The name the CEL ground truth (`core/tests/cel/verdicts.json`) uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Type => "type",
            Class::CostRule => "cost-rule",
            Class::CostMessage => "cost-message",
            Class::CostTotal => "cost-total",
            Class::Other => "other",
        }
    }
}

/// A problem with a rule.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Where the rule sits: `.spec.ports[*]`, `.` for the root.
    pub at: String,
    /// What kind of problem it is.
    pub class: Class,
    /// What is wrong (naming the rule) and how to fix it.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// What the check found: errors the apiserver would reject the CRD for, in the order it reports
/// them, and warnings (costs within 10% of a limit).
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// What the apiserver would reject the CRD for, in its order.
    pub errors: Vec<Problem>,
    /// Costs within 10% of a limit.
    pub warnings: Vec<Problem>,
}

/// Where the checked schema comes from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scope {
    /// The schema is a CRD version's root (`apiVersion`, `kind` and `metadata` are added, and
    /// the CRD-wide total is checked); otherwise one type's schema, taken at cardinality 1.
    pub resource: bool,
    /// Untyped nodes are types the caller cannot see (the derive): rules touching them are
    /// not judged.
    pub lenient: bool,
}

#[cfg(feature = "cel")]
pub use checked::{check, syntax_error};

/// Why `rule` is not valid CEL, if it is not (CEL checks are off: feature `cel`).
#[cfg(not(feature = "cel"))]
pub fn syntax_error(_rule: &str) -> Option<String> {
    None
}

/// The problems of the rules in `schema` (CEL checks are off: feature `cel`).
#[cfg(not(feature = "cel"))]
pub fn check(_schema: &Schema, _scope: Scope) -> Report {
    Report::default()
}

#[cfg(feature = "cel")]
mod checked {
    use std::sync::Arc;

    use super::checker::{self, Env, Failure};
    use super::types::{Decl, DeclKind, MAX_REQUEST_BYTES, Type};
    use super::*;

    /// Why `rule` is not valid CEL, if it is not.
    pub fn syntax_error(rule: &str) -> Option<String> {
        cel::parser::Parser::new()
            .enable_optional_syntax(true)
            .parse(rule)
            .err()
            .map(|e| format!("invalid CEL rule: {e}"))
    }

    /// The problems of every rule and message expression in `schema`.
    pub fn check(schema: &Schema, scope: Scope) -> Report {
        let mut walk = Walk::measure(schema, scope);
        for (at, cost, limit, class) in std::mem::take(&mut walk.over).into_iter().rev() {
            let hint = suggest(schema, scope, &at, cost, limit);
            walk.report.errors.insert(
                at.position,
                Problem {
                    at: at.path.clone(),
                    class,
                    message: format!(
                        "{}: estimated cost {cost} exceeds the apiserver's limit of {limit} by \
                         factor of {}{hint}",
                        at.subject,
                        factor(cost, limit)
                    ),
                },
            );
        }
        if scope.resource && walk.total > TOTAL_COST_LIMIT {
            walk.report.errors.push(Problem {
                at: ".".into(),
                class: Class::CostTotal,
                message: format!(
                    "the rules' estimated cost total {} exceeds the apiserver's limit of {} for \
                     a whole schema by factor of {} (the costliest: {})",
                    walk.total,
                    TOTAL_COST_LIMIT,
                    factor(walk.total, TOTAL_COST_LIMIT),
                    walk.costliest()
                ),
            });
        } else if scope.resource && near(walk.total, TOTAL_COST_LIMIT) {
            walk.report.warnings.push(Problem {
                at: ".".into(),
                class: Class::CostTotal,
                message: format!(
                    "the rules' estimated cost total {} is within 10% of the apiserver's limit \
                     of {TOTAL_COST_LIMIT} for a whole schema",
                    walk.total
                ),
            });
        }
        walk.report
    }

    /// `"factor of 3.1x"`, worded as the apiserver words it.
    fn factor(cost: u64, limit: u64) -> String {
        let f = cost as f64 / limit as f64;
        if f > 100.0 {
            "more than 100x".into()
        } else if f < 1.5 {
            format!("{f:.6}x")
        } else {
            format!("{f:.1}x")
        }
    }

    fn near(cost: u64, limit: u64) -> bool {
        cost <= limit && cost > limit / 10 * 9
    }

    /// One step from a node to a child.
    #[derive(Clone, Debug, PartialEq)]
    enum Step {
        Property(String),
        Items,
        Values,
    }

    /// An expression measured: where, which, and where its error goes in the report.
    #[derive(Clone, Debug)]
    struct Measured {
        steps: Vec<Step>,
        path: String,
        rule: usize,
        message: bool,
        source: String,
        /// ``rule `…` `` or ``rule `…`: messageExpression `…` ``.
        subject: String,
        position: usize,
    }

    struct Walk {
        scope: Scope,
        report: Report,
        total: u64,
        costs: Vec<(Measured, u64)>,
        over: Vec<(Measured, u64, u64, Class)>,
    }

    impl Walk {
        fn measure(schema: &Schema, scope: Scope) -> Walk {
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

        fn costliest(&self) -> String {
            let mut costs: Vec<&(Measured, u64)> = self.costs.iter().collect();
            costs.sort_by_key(|c| std::cmp::Reverse(c.1));
            let shown: Vec<String> = costs
                .iter()
                .take(4)
                .map(|(m, cost)| format!("{}: {} {cost}", m.path, m.subject))
                .collect();
            shown.join("; ")
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
                        class: Class::Other,
                        message: "the apiserver declares no CEL type for this node (it has no \
                                  type), so its rules cannot compile"
                            .into(),
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
                let keyed = node.x_list_type.as_deref() == Some("map");
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

        #[allow(clippy::too_many_arguments)]
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
                    subject: subject(message),
                    position,
                };
                let error = |class, message: String| Problem {
                    at: path.to_string(),
                    class,
                    message,
                };
                let checked = match compile(&rule.rule, &env, Type::Bool, "a bool") {
                    Ok(c) => c,
                    Err(Failure::Skipped) => continue,
                    Err(Failure::Invalid(e)) => {
                        let e = error(Class::Type, format!("rule `{}`: {e}", rule.rule));
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
                        Err(Failure::Invalid(e)) => {
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
                    class,
                    message: format!(
                        "{}: estimated cost {cost} is within 10% of the apiserver's limit of \
                         {RULE_COST_LIMIT}",
                        at.subject
                    ),
                });
            }
            self.costs.push((at, cost));
        }

        fn cost_of(&self, m: &Measured) -> Option<u64> {
            self.costs
                .iter()
                .find(|(c, _)| c.steps == m.steps && c.rule == m.rule && c.message == m.message)
                .map(|(_, cost)| *cost)
        }
    }

    /// Parses and checks `source`, whose result must be of type `want`.
    fn compile(
        source: &str,
        env: &Env,
        want: Type,
        wanted: &str,
    ) -> Result<checker::Checked, Failure> {
        let checked = checker::check(source, env)?;
        match checked.types.get(&checked.expr.id) {
            Some(t) if *t == want => Ok(checked),
            Some(t) => Err(Failure::Invalid(format!(
                "must evaluate to {wanted}, not {t}"
            ))),
            None => Err(Failure::Skipped),
        }
    }

    /// A JSON path for steps (`.spec.ports[*]`, `.` for none).
    fn show(steps: &[Step]) -> String {
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

    /// A bound a node could declare.
    #[derive(Clone, Copy, Debug)]
    enum Bound {
        Items,
        Properties,
        Length,
    }

    impl Bound {
        /// The value suggested, and the marker and JSON keyword that set it.
        fn parts(self) -> (u64, &'static str, &'static str) {
            match self {
                Bound::Items => (100, "max_items", "maxItems"),
                Bound::Properties => (100, "max_properties", "maxProperties"),
                Bound::Length => (256, "max_length", "maxLength"),
            }
        }

        fn set(self, s: &mut Schema) {
            let (n, _, _) = self.parts();
            match self {
                Bound::Items => s.max_items = Some(n),
                Bound::Properties => s.max_properties = Some(n),
                Bound::Length => s.max_length = Some(n),
            }
        }

        /// The bound `s` lacks, if it is a list, map or plain string without one.
        fn missing(s: &Schema) -> Option<Bound> {
            match s.type_.as_deref() {
                Some("array") if s.max_items.is_none() => Some(Bound::Items),
                Some("object") if s.additional_properties.is_some() => {
                    s.max_properties.is_none().then_some(Bound::Properties)
                }
                Some("string")
                    if s.max_length.is_none() && s.enum_.is_none() && s.format.is_none() =>
                {
                    Some(Bound::Length)
                }
                _ if s.x_int_or_string && s.max_length.is_none() => Some(Bound::Length),
                _ => None,
            }
        }
    }

    /// Why `string(x)` inside a concatenation is over any budget, and what to write instead.
    const UNSIZED_STRING: &str = "`string(x)` has no size the apiserver can bound, so \
        concatenating or joining it is over any budget: format instead \
        (`'got %d'.format([x])`), or use `string(x)` alone";

    fn at_mut<'s>(s: &'s mut Schema, steps: &[Step]) -> Option<&'s mut Schema> {
        let Some((first, rest)) = steps.split_first() else {
            return Some(s);
        };
        let child = match first {
            Step::Property(name) => s.properties.get_mut(name)?,
            Step::Items => s.items.as_deref_mut()?,
            Step::Values => s.additional_properties.as_deref_mut()?,
        };
        at_mut(child, rest)
    }

    fn at<'s>(s: &'s Schema, steps: &[Step]) -> Option<&'s Schema> {
        let Some((first, rest)) = steps.split_first() else {
            return Some(s);
        };
        let child = match first {
            Step::Property(name) => s.properties.get(name)?,
            Step::Items => s.items.as_deref()?,
            Step::Values => s.additional_properties.as_deref()?,
        };
        at(child, rest)
    }

    /// Every node in and below `s` lacking a bound.
    fn unbounded(s: &Schema, steps: &mut Vec<Step>, found: &mut Vec<(Vec<Step>, Bound)>) {
        if let Some(b) = Bound::missing(s) {
            found.push((steps.clone(), b));
        }
        for (name, prop) in &s.properties {
            steps.push(Step::Property(name.clone()));
            unbounded(prop, steps, found);
            steps.pop();
        }
        for (step, child) in [
            (Step::Items, s.items.as_deref()),
            (Step::Values, s.additional_properties.as_deref()),
        ] {
            if let Some(child) = child {
                steps.push(step);
                unbounded(child, steps, found);
                steps.pop();
            }
        }
    }

    /// Which bounds to add, on which fields, to bring expression `m` (estimated at `cost`) under
    /// `limit`, and what its estimate becomes: greedily, the bound that lowers it most, until
    /// it is under.
    fn suggest(schema: &Schema, scope: Scope, m: &Measured, mut cost: u64, limit: u64) -> String {
        let mut candidates = Vec::new();
        // The lists and maps above the rule multiply its cost; the nodes below size it.
        for n in 0..m.steps.len() {
            let above = &m.steps[..n];
            if let Some(b) = at(schema, above)
                .filter(|s| s.type_.as_deref() != Some("string"))
                .and_then(Bound::missing)
            {
                candidates.push((above.to_vec(), b));
            }
        }
        if let Some(node) = at(schema, &m.steps) {
            unbounded(node, &mut m.steps.clone(), &mut candidates);
        }
        let with = |bounds: &[(Vec<Step>, Bound)]| {
            let mut bounded = schema.clone();
            for (steps, b) in bounds {
                if let Some(node) = at_mut(&mut bounded, steps) {
                    b.set(node);
                }
            }
            Walk::measure(&bounded, scope).cost_of(m)
        };
        let word = |bounds: &[(Vec<Step>, Bound)]| {
            let words: Vec<String> = bounds
                .iter()
                .map(|(steps, b)| {
                    let (n, marker, key) = b.parts();
                    format!("`{marker} = {n}` ({key}) on `{}`", show(steps))
                })
                .collect();
            words.join(", ")
        };
        let mut chosen: Vec<(Vec<Step>, Bound)> = Vec::new();
        while cost > limit {
            let best = candidates
                .iter()
                .filter(|c| !chosen.iter().any(|(steps, _)| *steps == c.0))
                .filter_map(|c| {
                    let mut trial = chosen.clone();
                    trial.push(c.clone());
                    Some((with(&trial)?, c))
                })
                .min_by_key(|(cost, _)| *cost);
            match best {
                Some((lower, c)) if lower < cost => {
                    chosen.push(c.clone());
                    cost = lower;
                }
                _ => break,
            }
        }
        let unsized_string = m.source.contains("string(");
        match () {
            _ if chosen.is_empty() && unsized_string => format!("; {UNSIZED_STRING}"),
            _ if chosen.is_empty() => {
                "; simplify the rule: no bound it lacks would lower the estimate".into()
            }
            _ if cost <= limit => {
                format!("; add {}: the estimate would become {cost}", word(&chosen))
            }
            _ if unsized_string => {
                format!("; adding {} leaves {cost}: {UNSIZED_STRING}", word(&chosen))
            }
            _ => format!(
                "; adding {} leaves {cost}, still over: simplify the rule",
                word(&chosen)
            ),
        }
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

        fn errors(s: &Schema) -> Vec<String> {
            check(s, Scope::default())
                .errors
                .iter()
                .map(ToString::to_string)
                .collect()
        }

        #[test]
        fn rules_must_select_existing_fields() {
            let item = object(&[("name", Schema::typed("string"))], &[]);
            let list = Schema {
                items: Some(Box::new(item)),
                max_items: Some(10),
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
            let found = errors(&s);
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
                max_items: Some(10),
                ..Schema::typed("array")
            };
            let keyed = Schema {
                items: Some(Box::new(item)),
                x_list_type: Some("map".into()),
                max_items: Some(10),
                ..Schema::typed("array")
            };
            let found = errors(&object(&[("a", atomic), ("k", keyed)], &[]));
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(found[0].starts_with(".a[*]: rule `self.name == oldSelf.name` uses `oldSelf`"));
        }

        #[test]
        fn cost_errors_name_the_bounds_to_add() {
            let list = |item: Schema| Schema {
                items: Some(Box::new(item)),
                ..Schema::typed("array")
            };
            let rule = "self.tags.all(t, t.contains('x'))";
            let short = Schema {
                max_length: Some(64),
                ..Schema::typed("string")
            };
            let found = errors(&object(&[("tags", list(short))], &[rule]));
            assert_eq!(
                found,
                [format!(
                    ".: rule `{rule}`: estimated cost 31457253 exceeds the apiserver's limit of \
                 10000000 by factor of 3.1x; add `max_items = 100` (maxItems) on `.tags`: the \
                 estimate would become 3003"
                )]
            );
            let found = errors(&object(&[("tags", list(Schema::typed("string")))], &[rule]));
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(
                found[0].contains("by factor of more than 100x"),
                "{}",
                found[0]
            );
            assert!(
                found[0].ends_with(
                    "; add `max_items = 100` (maxItems) on `.tags`, `max_length = 256` \
                     (maxLength) on `.tags[*]`: the estimate would become 10703"
                ),
                "{}",
                found[0]
            );
        }

        #[test]
        fn unsized_strings_in_messages_say_what_to_write() {
            let mut s = object(&[("n", Schema::typed("integer"))], &[]);
            let mut rule = Rule::new("self.n > 0", "m");
            rule.message_expression = Some("'got ' + string(self.n)".into());
            s.x_validations.push(rule);
            let found = errors(&s);
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(found[0].starts_with(
                ".: rule `self.n > 0`: messageExpression `'got ' + string(self.n)`: "
            ));
            assert!(
                found[0]
                    .ends_with("format instead (`'got %d'.format([x])`), or use `string(x)` alone")
            );
        }

        #[test]
        fn the_library_is_kubernetes_1_36s() {
            let short = Schema {
                max_length: Some(32),
                ..Schema::typed("string")
            };
            let objects = Schema {
                items: Some(Box::new(object(&[("n", Schema::typed("integer"))], &[]))),
                max_items: Some(10),
                ..Schema::typed("array")
            };
            let verdict = |rule: &str| {
                let s = object(&[("q", short.clone()), ("l", objects.clone())], &[rule]);
                errors(&s).into_iter().next()
            };
            for ok in [
                "sign(quantity(self.q)) >= 0",
                "self.l.map(o, o.n).isSorted()",
                "self.l.sortBy(o, o.n) == self.l",
                "self.l.all(i, o, o.n >= i)",
                "duration('1h30m') > duration('0')",
            ] {
                assert_eq!(verdict(ok), None, "{ok}");
            }
            for (bad, problem) in [
                (
                    "quantity(self.q).sign() >= 0",
                    "no matching overload for 'sign'",
                ),
                ("self.l.isSorted()", "no matching overload for 'isSorted'"),
                (
                    "self.q.reverse() == self.q",
                    "no matching overload for 'reverse'",
                ),
                (
                    "duration('1 hour') > duration('0')",
                    "invalid duration argument",
                ),
                (
                    "self.l.all(o, o == self.l[0]) && self.l[0] == self",
                    "applied to '(object(n), object(l, q))'; each schema node's objects are a \
                     type of their own to CEL",
                ),
            ] {
                let e = verdict(bad).unwrap_or_else(|| panic!("{bad} accepted"));
                assert!(e.contains(problem), "{bad}: {e}");
            }
        }

        #[test]
        fn costs_near_a_limit_are_warnings() {
            let string = Schema {
                max_length: Some(24_000),
                ..Schema::typed("string")
            };
            let list = Schema {
                items: Some(Box::new(Schema {
                    x_validations: vec![Rule::new("self.contains('a')", "m")],
                    ..string
                })),
                max_items: Some(1000),
                ..Schema::typed("array")
            };
            let report = check(&object(&[("l", list)], &[]), Scope::default());
            assert!(report.errors.is_empty(), "{:?}", report.errors);
            assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
            assert!(report.warnings[0].to_string().starts_with(
                ".l[*]: rule `self.contains('a')`: estimated cost 9601000 is within 10%"
            ));
        }
    }
}
