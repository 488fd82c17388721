//! The server's runtime cost limit on a rule (`PerCallLimit`), enforced before the rule runs:
//! a rule whose estimated cost on its schema is within the limit cannot exceed it; any other
//! is estimated again on a schema bounded by the value itself (each list, map and string no
//! longer than the value's), and refused without being evaluated when that estimate is over
//! the limit. The estimate is a worst case: a rule that would stop early (an `exists` that
//! finds its match first) is refused all the same.

use serde_json::Value;

use crate::check::cel::{CALL_COST_LIMIT, rule_cost};
use crate::model::{Rule, Schema};

/// Whether `rule` may cost more than the limit on some value of `s`.
pub fn may_exceed(s: &Schema, resource: bool, rule: &Rule) -> bool {
    rule_cost(s, resource, rule).is_some_and(|c| c > CALL_COST_LIMIT)
}

/// Whether `rule` costs more than the limit on `v` (of schema `s`), estimated on `v`'s sizes.
pub fn exceeds(s: &Schema, resource: bool, rule: &Rule, v: &Value) -> bool {
    let bounded = bounded(s, &[v]);
    rule_cost(&bounded, resource, rule).is_some_and(|c| c > CALL_COST_LIMIT)
}

/// `s` with each list's, map's and string's bound the longest of `values` has there.
fn bounded(s: &Schema, values: &[&Value]) -> Schema {
    let mut out = s.clone();
    let longest = |f: &dyn Fn(&Value) -> Option<usize>| {
        values.iter().filter_map(|v| f(v)).max().unwrap_or(0) as u64
    };
    match s.type_str() {
        "string" => out.max_length = Some(longest(&|v| v.as_str().map(|s| s.chars().count()))),
        "array" => {
            out.max_items = Some(longest(&|v| v.as_array().map(Vec::len)));
            if let Some(item) = &s.items {
                let items: Vec<&Value> = values
                    .iter()
                    .filter_map(|v| v.as_array())
                    .flatten()
                    .collect();
                out.items = Some(Box::new(bounded(item, &items)));
            }
        }
        "object" => {
            out.max_properties = Some(longest(&|v| v.as_object().map(|m| m.len())));
            for (name, property) in &s.properties {
                let below: Vec<&Value> = values.iter().filter_map(|v| v.get(name)).collect();
                out.properties
                    .insert(name.clone(), bounded(property, &below));
            }
            if let Some(entry) = &s.additional_properties {
                let below: Vec<&Value> = values
                    .iter()
                    .filter_map(|v| v.as_object())
                    .flat_map(|m| m.values())
                    .collect();
                out.additional_properties = Some(Box::new(bounded(entry, &below)));
            }
        }
        _ => {}
    }
    out
}
