//! CEL rules as the apiserver sees them (feature `cel`; without it the apiserver is the first to
//! look): every `x-kubernetes-validations` rule and `messageExpression` is type-checked against
//! the schema at its node in the Kubernetes CEL environment, its worst-case cost is estimated
//! as kube-apiserver estimates it (per rule, per message expression, and over the whole CRD,
//! with the cardinality of the lists and maps above it), and `oldSelf` may only be used where
//! the apiserver can pair old and new values. A rule that reads an optional field with no
//! `has()` guard is a warning: the apiserver accepts it, then refuses every object without the
//! field.
//!
//! `types` declares a schema node to CEL, `library` lists the functions, `checker` types an
//! expression, `cost` estimates it, `walk` goes over the schema measuring every expression,
//! `bounds` finds the bounds that bring one under its limit, and `presence` finds the reads of
//! optional fields nothing guards.

#[cfg(feature = "cel")]
mod bounds;
#[cfg(feature = "cel")]
mod checker;
#[cfg(feature = "cel")]
mod cost;
#[cfg(feature = "cel")]
pub(crate) mod library;
#[cfg(feature = "cel")]
mod presence;
#[cfg(feature = "cel")]
mod types;
#[cfg(feature = "cel")]
mod walk;

use crate::model::{Diagnostic, Label, Loc, Schema};
use std::fmt;

/// The most a rule or message expression may cost (`StaticEstimatedCostLimit`).
pub const RULE_COST_LIMIT: u64 = 10_000_000;
/// The most a rule may cost when it is evaluated (`PerCallLimit`).
pub const CALL_COST_LIMIT: u64 = 1_000_000;
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
    /// A warning: the rule reads an optional field with no guard, and the apiserver refuses
    /// every object without that field at run time ("no such key").
    NoSuchKey,
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
            Class::NoSuchKey => "no-such-key",
        }
    }
}

/// A problem with a rule.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Where the rule sits: `.spec.ports[*]`, `.` for the root.
    pub at: String,
    /// The rule the problem is about (its expression), when it is about one.
    pub rule: Option<String>,
    /// What kind of problem it is.
    pub class: Class,
    /// What is wrong (naming the rule) and how to fix it.
    pub message: String,
    /// Where the rule is written, when the schema knows.
    pub loc: Option<Loc>,
    /// For [`Class::CostTotal`], the expressions the apiserver names as contributing: the
    /// costliest, at most four, each at least 1% of [`TOTAL_COST_LIMIT`], most expensive first.
    pub contributors: Vec<Contribution>,
    /// The characters of the rule at fault (a range of `char` positions), when they are not
    /// the whole rule: the sub-expression that does not type-check.
    pub part: Option<std::ops::Range<usize>>,
}

/// One expression's part of the total.
#[derive(Clone, Debug)]
pub struct Contribution {
    /// Where its rule sits: `.spec.ports[*]`.
    pub at: String,
    /// ``rule `…` `` or ``rule `…`: messageExpression `…` ``.
    pub subject: String,
    /// Its estimated cost, times the cardinality above it.
    pub cost: u64,
    /// Where its rule is written, when the schema knows.
    pub loc: Option<Loc>,
}

impl Problem {
    /// `loc`, the place of the problem's rule, narrowed to [`Problem::part`] where the source
    /// shows it (see [`Loc::within`]).
    pub fn place(&self, loc: Option<&Loc>) -> Option<Loc> {
        let part = self.rule.as_deref().zip(self.part.clone());
        let within = loc
            .zip(part)
            .and_then(|(l, (rule, part))| l.within(rule, part));
        within.or_else(|| loc.cloned())
    }

    /// `d` (the problem as a diagnostic at [`Problem::loc`]) with the other places it names: a
    /// label at each other contributing rule, and a note with the `file:line:col` of each
    /// one written in another file.
    pub fn annotate(&self, mut d: Diagnostic) -> Diagnostic {
        let file = d.loc.as_ref().map(|l| l.file.clone());
        if let Some(first) = self.contributors.first()
            && first.loc.is_some()
            && first.loc == d.loc
        {
            d.label = Some(format!("contributes {}", first.cost));
        }
        for c in self.contributors.iter().skip(1) {
            let Some(loc) = &c.loc else { continue };
            if Some(&loc.file) == file.as_ref() {
                d.labels.push(Label {
                    loc: loc.clone(),
                    message: format!("contributes {}", c.cost),
                });
            } else {
                d.notes.push(format!(
                    "{loc}: {} (at `{}`) contributes {}",
                    c.subject, c.at, c.cost
                ));
            }
        }
        d
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// What the check found: errors the apiserver would reject the CRD for, in the order it reports
/// them, and warnings (costs within 10% of a limit, reads of optional fields with no guard).
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// What the apiserver would reject the CRD for, in its order.
    pub errors: Vec<Problem>,
    /// Costs within 10% of a limit, reads of optional fields with no guard.
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
pub use walk::rule_cost;
#[cfg(feature = "cel")]
use {bounds::suggest, walk::Walk};

/// Why `rule` is not valid CEL, if it is not.
#[cfg(feature = "cel")]
pub fn syntax_error(rule: &str) -> Option<String> {
    cel::parser::Parser::new()
        .enable_optional_syntax(true)
        .parse(rule)
        .err()
        .map(|e| format!("invalid CEL rule: {e}"))
}

/// The problems of every rule and message expression in `schema`.
#[cfg(feature = "cel")]
pub fn check(schema: &Schema, scope: Scope) -> Report {
    let mut walk = Walk::measure(schema, scope);
    for (at, cost, limit, class) in std::mem::take(&mut walk.over).into_iter().rev() {
        let hint = suggest(schema, scope, &at, cost, limit);
        walk.report.errors.insert(
            at.position,
            Problem {
                at: at.path.clone(),
                rule: Some(at.rule_source.clone()),
                class,
                message: format!(
                    "{}: estimated cost {cost} exceeds the apiserver's limit of {limit} by \
                     factor of {}{hint}",
                    at.subject,
                    walk::factor(cost, limit)
                ),
                loc: at.loc.clone(),
                contributors: Vec::new(),
                part: None,
            },
        );
    }
    // A type checked alone is at cardinality 1: its total is the least it adds to any CRD
    // that uses it, so over the limit it is over in every one. The apiserver also reports the
    // total when an expression over its own limit makes it; that one is reported above, and
    // the total only if it stays over once each expression is within its own limit.
    if walk.total > TOTAL_COST_LIMIT && walk.total_within_limits() > TOTAL_COST_LIMIT {
        walk.report.errors.push(total_problem(&walk, scope));
    } else if scope.resource && walk::near(walk.total, TOTAL_COST_LIMIT) {
        walk.report.warnings.push(Problem {
            at: ".".into(),
            rule: None,
            class: Class::CostTotal,
            message: format!(
                "the rules' estimated cost total {} is within 10% of the apiserver's limit \
                 of {TOTAL_COST_LIMIT} for a whole schema",
                walk.total
            ),
            loc: None,
            contributors: Vec::new(),
            part: None,
        });
    }
    walk.report
}

/// The schema's total over [`TOTAL_COST_LIMIT`], as kube-apiserver's CRD validation reports it
/// (`apiextensions/validation/validation.go`: when `TotalCost.Total` exceeds
/// `StaticEstimatedCRDCostLimit`, each of `TotalCost.MostExpensive` is "contributed to
/// estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema", and the schema
/// "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds
/// budget by factor of N"), placed at the costliest rule.
#[cfg(feature = "cel")]
fn total_problem(walk: &Walk, scope: Scope) -> Problem {
    let contributors = walk.costliest();
    let named: Vec<String> = contributors
        .iter()
        .map(|c| format!("`{}`: {} {}", c.at, c.subject, c.cost))
        .collect();
    let whose = if scope.resource {
        "the rules'"
    } else {
        "this type's rules' (alone, so in every CRD that uses it)"
    };
    Problem {
        at: ".".into(),
        rule: None,
        class: Class::CostTotal,
        message: format!(
            "{whose} estimated cost total {} exceeds the apiserver's limit of \
             {TOTAL_COST_LIMIT} for a whole schema by factor of {} (the apiserver: \
             \"x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema \
             exceeds budget\"); the costliest, which it names: {}; lower their estimates (the \
             `max_items`, `max_properties` and `max_length` of what they read and of the lists \
             and maps above them) or drop rules",
            walk.total,
            walk::factor(walk.total, TOTAL_COST_LIMIT),
            if named.is_empty() {
                "none (no expression reaches 1% of the limit)".to_string()
            } else {
                named.join("; ")
            }
        ),
        loc: contributors.first().and_then(|c| c.loc.clone()),
        contributors,
        part: None,
    }
}

#[cfg(all(test, feature = "cel"))]
mod tests {
    use super::*;
    use crate::model::{ListType, Rule};

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
        assert!(
            found[0].contains(
                "selects `y`, which is not a field there (fields: items, min-replicas, x)"
            )
        );
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
            x_list_type: Some(ListType::Map),
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
        assert!(
            found[0]
                .starts_with(".: rule `self.n > 0`: messageExpression `'got ' + string(self.n)`: ")
        );
        assert!(
            found[0].ends_with("format instead (`'got %d'.format([x])`), or use `string(x)` alone")
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
            "self.l.transformList(i, o, o.n + i).all(n, n >= 0)",
            "self.l.transformMap(i, o, o.n).all(k, k >= 0)",
            "self.l.transformMapEntry(i, o, {string(i): o.n}).all(k, k != '')",
            "self.l.transformMapEntry(i, o, i > 0, {string(i): o.n}).size() < 10",
            "self.l[0] != null",
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
                "self.l[0].n == null",
                "no matching overload for '_==_' applied to '(int, null_type)'",
            ),
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
    fn the_whole_schemas_budget_names_what_the_apiserver_names() {
        let strings = |n: usize| {
            let rules = (0..n).map(|i| Rule::new(format!("self.contains('{i}')"), "m"));
            let item = Schema {
                max_length: Some(20_000),
                x_validations: rules.collect(),
                ..Schema::typed("string")
            };
            Schema {
                items: Some(Box::new(item)),
                max_items: Some(1000),
                ..Schema::typed("array")
            }
        };
        let cheap = Schema {
            x_validations: vec![Rule::new("self > 0", "m")],
            ..Schema::typed("integer")
        };
        let schema = object(&[("l", strings(13)), ("n", cheap)], &[]);
        let report = check(&schema, Scope::default());
        assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
        let total = &report.errors[0];
        assert_eq!(total.class, Class::CostTotal);
        assert!(total.message.contains("104013002"), "{}", total.message);
        assert!(
            total.message.contains("by factor of 1.040130x"),
            "{}",
            total.message
        );
        // The cheap rule counts in the total (2); named are the four costliest (equal: the
        // first measured), not a rule under 1% of the limit.
        let named: Vec<(&str, &str, u64)> = total
            .contributors
            .iter()
            .map(|c| (c.at.as_str(), c.subject.as_str(), c.cost))
            .collect();
        let want: Vec<(&str, String, u64)> = (0..4)
            .map(|i| (".l[*]", format!("rule `self.contains('{i}')`"), 8_001_000))
            .collect();
        let want: Vec<(&str, &str, u64)> =
            want.iter().map(|(a, s, c)| (*a, s.as_str(), *c)).collect();
        assert_eq!(named, want);
        let fits = object(&[("l", strings(12))], &[]);
        assert!(check(&fits, Scope::default()).errors.is_empty());
        // One rule over its own limit makes the total: that rule is the error.
        let unbounded = Schema {
            items: Some(Box::new(Schema::typed("string"))),
            ..Schema::typed("array")
        };
        let over = object(&[("u", unbounded)], &["self.u.all(s, s.contains('a'))"]);
        let errors = check(&over, Scope::default()).errors;
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].class, Class::CostRule);
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
        assert!(
            report.warnings[0].to_string().starts_with(
                ".l[*]: rule `self.contains('a')`: estimated cost 9601000 is within 10%"
            )
        );
    }
}
