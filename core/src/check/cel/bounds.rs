//! The bounds to add to bring an expression under its cost limit: `maxItems`,
//! `maxProperties`, `maxLength` on the nodes it reads or the lists and maps above it, chosen by
//! measuring the schema with each.

use super::Scope;
use super::walk::{Measured, Step, Walk, show};
use crate::model::Schema;

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
            Some("string") if s.max_length.is_none() && s.enum_.is_none() && s.format.is_none() => {
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
pub(super) fn suggest(
    schema: &Schema,
    scope: Scope,
    m: &Measured,
    mut cost: u64,
    limit: u64,
) -> String {
    let mut candidates = Vec::new();
    // The lists and maps above the rule multiply its cost; the nodes below size it.
    for n in 0..m.steps.len() {
        // `n` < `m.steps.len()`: the loop range.
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
