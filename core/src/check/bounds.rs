//! Bounds that contradict each other on one schema node.

use crate::model::Schema;

/// Bounds no value could ever meet, or that cannot be meant, on one node (named by their keys):
/// a lower bound above its upper bound, `multiple_of` not above 0, an `exclusive_*` flag without
/// its bound. The apiserver accepts all of these; kubegen refuses them (see the book's
/// validation guide, "What kubegen checks beyond the API server").
pub fn contradictions(s: &Schema) -> Vec<String> {
    let mut found = Vec::new();
    if s.exclusive_minimum && s.minimum.is_none() {
        found.push("`exclusive_minimum` needs `minimum`".to_string());
    }
    if s.exclusive_maximum && s.maximum.is_none() {
        found.push("`exclusive_maximum` needs `maximum`".to_string());
    }
    if s.multiple_of.is_some_and(|v| v <= 0.0) {
        found.push("`multiple_of` must be greater than 0".to_string());
    }
    let count = |v: Option<u64>| v.map(|v| v as f64);
    for (low_key, low, high_key, high) in [
        ("minimum", s.minimum, "maximum", s.maximum),
        (
            "min_length",
            count(s.min_length),
            "max_length",
            count(s.max_length),
        ),
        (
            "min_items",
            count(s.min_items),
            "max_items",
            count(s.max_items),
        ),
        (
            "min_properties",
            count(s.min_properties),
            "max_properties",
            count(s.max_properties),
        ),
    ] {
        if let (Some(lo), Some(hi)) = (low, high)
            && hi < lo
        {
            found.push(format!("`{high_key} = {hi}` is below `{low_key} = {lo}`"));
        }
    }
    found
}
