//! Random JSON guided by a schema, deliberately broader than it: every property of an object
//! may come (a tagged enum's object gets any subset of its variants' fields, so several tags or
//! none), optional fields, list items and map values may be absent or `null`, objects may carry
//! fields the schema does not
//! know, untyped nodes get any JSON. Scalars stay inside the schema's bounds (serde does not
//! check `maximum`; a value beyond it says nothing about the schema's shape), and strings are
//! never empty (the fixtures port Go's `required` + `omitempty` fields, a contradiction their
//! authors chose, not one the schema makes).

use std::collections::BTreeSet;

use k8s_openapi::ByteString;
use kubegen_core::check::value::validate;
use kubegen_core::model::Schema;
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Past this depth, optional properties are rare; past [`DEEPEST`], absent and lists empty:
/// the Kubernetes types' trees stay small.
const SHALLOW: u32 = 3;
const DEEPEST: u32 = 6;

const ALPHABET: &[char] = &['a', 'b', 'x', 'z', '0', '7', '-', '.'];

/// Values for `s`, a node at `depth` below the value under test.
pub fn values(s: &Schema, depth: u32) -> BoxedStrategy<Value> {
    let plain = if let Some(choices) = enum_of(s) {
        prop::sample::select(choices).boxed()
    } else if s.x_int_or_string {
        prop_oneof![integers(s), strings(s)].boxed()
    } else {
        match s.type_str() {
            "object" => objects(s, depth),
            "array" => arrays(s, depth),
            "string" => strings(s),
            "integer" => integers(s),
            "number" => numbers(s),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            _ => any_json(),
        }
    };
    if s.nullable {
        prop_oneof![1 => Just(Value::Null), 4 => plain].boxed()
    } else {
        plain
    }
}

/// The node and its `allOf` branches (where a field's and its type's bounds both live).
fn layers(s: &Schema) -> impl Iterator<Item = &Schema> {
    std::iter::once(s).chain(&s.all_of)
}

/// The tightest of a bound set on the node or its `allOf` branches.
fn tightest<T: PartialOrd + Copy>(
    s: &Schema,
    get: impl Fn(&Schema) -> Option<T>,
    upper: bool,
) -> Option<T> {
    layers(s)
        .filter_map(get)
        .reduce(|a, b| if (b < a) == upper { b } else { a })
}

fn enum_of(s: &Schema) -> Option<Vec<Value>> {
    layers(s).find_map(|l| l.enum_.clone())
}

/// A scalar strategy kept to what `s` accepts (exclusive bounds, `multipleOf`, `allOf`).
fn within(s: &Schema, strategy: impl Strategy<Value = Value> + 'static) -> BoxedStrategy<Value> {
    let s = s.clone();
    strategy
        .prop_filter("inside the schema's bounds", move |v| {
            validate(&s, v).is_none()
        })
        .boxed()
}

fn strings(s: &Schema) -> BoxedStrategy<Value> {
    let text = match s.format.as_deref() {
        Some("date-time") => (2000u32..2040, 1u32..=12, 1u32..=28, 0u32..24, 0u32..60)
            .prop_map(|(y, mo, d, h, mi)| format!("{y}-{mo:02}-{d:02}T{h:02}:{mi:02}:00Z"))
            .boxed(),
        Some("byte") => prop::collection::vec(any::<u8>(), 1..9)
            .prop_map(|bytes| serde_json::to_value(ByteString(bytes)).unwrap())
            .prop_map(|v| v.as_str().unwrap().to_string())
            .boxed(),
        _ => {
            let lo = tightest(s, |l| l.min_length, false).unwrap_or(1).max(1) as usize;
            let hi = tightest(s, |l| l.max_length, true).map_or(lo + 8, |m| m as usize);
            prop::collection::vec(prop::sample::select(ALPHABET), lo..=hi.clamp(lo, lo + 8))
                .prop_map(String::from_iter)
                .boxed()
        }
    };
    within(s, text.prop_map(Value::String))
}

fn integers(s: &Schema) -> BoxedStrategy<Value> {
    let width = if s.format.as_deref() == Some("int64") {
        i64::MAX as f64
    } else {
        i32::MAX as f64
    };
    let lo = tightest(s, |l| l.minimum, false)
        .unwrap_or(-width)
        .max(-width);
    let hi = tightest(s, |l| l.maximum, true).unwrap_or(width).min(width);
    if let Some(m) = tightest(s, |l| l.multiple_of, true) {
        let ks = (lo / m).ceil() as i64..=(hi / m).floor() as i64;
        return within(s, ks.prop_map(move |k| Value::from((k as f64 * m) as i64)));
    }
    let (lo, hi) = (lo.ceil() as i64, hi.floor() as i64);
    let (small_lo, small_hi) = (lo.max(-100), hi.min(100));
    let any_in_range = (lo..=hi).prop_map(Value::from);
    if small_lo <= small_hi {
        let small = (small_lo..=small_hi).prop_map(Value::from);
        within(s, prop_oneof![3 => small, 1 => any_in_range])
    } else {
        within(s, any_in_range)
    }
}

fn numbers(s: &Schema) -> BoxedStrategy<Value> {
    let lo = tightest(s, |l| l.minimum, false).unwrap_or(-1e6);
    let hi = tightest(s, |l| l.maximum, true).unwrap_or(1e6);
    match tightest(s, |l| l.multiple_of, true) {
        Some(m) => {
            let ks = (lo / m).ceil() as i64..=(hi / m).floor() as i64;
            within(s, ks.prop_map(move |k| Value::from(k as f64 * m)))
        }
        None => within(s, (lo..=hi).prop_map(Value::from)),
    }
}

fn arrays(s: &Schema, depth: u32) -> BoxedStrategy<Value> {
    let Some(item) = &s.items else {
        return Just(Value::Array(vec![])).boxed();
    };
    let lo = s.min_items.unwrap_or(0) as usize;
    let most = if depth >= DEEPEST { lo } else { lo + 3 };
    let hi = s.max_items.map_or(most, |m| m as usize).clamp(lo, most);
    prop::collection::vec(entries(item, depth + 1), lo..=hi)
        .prop_map(Value::Array)
        .boxed()
}

/// A list item or a map value: near the top, now and then `null`, which an `Option` entry reads
/// as `None` and writes back as `null` (other types refuse it, so deeper down it would make
/// whole objects unreadable too often).
fn entries(s: &Schema, depth: u32) -> BoxedStrategy<Value> {
    if depth > SHALLOW {
        return values(s, depth);
    }
    prop_oneof![200 => values(s, depth), 1 => Just(Value::Null)].boxed()
}

fn keys() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 1..6).prop_map(String::from_iter)
}

fn objects(s: &Schema, depth: u32) -> BoxedStrategy<Value> {
    let lo = s.min_properties.unwrap_or(0) as usize;
    let hi = s.max_properties.map_or(usize::MAX, |m| m as usize);
    if let Some(extra) = &s.additional_properties {
        let size = lo..=hi.min(lo + 3);
        return prop::collection::btree_map(keys(), entries(extra, depth + 1), size)
            .prop_map(|m| Value::Object(m.into_iter().collect()))
            .boxed();
    }
    let chance: f64 = match depth {
        d if d < SHALLOW => 0.5,
        d if d < DEEPEST => 0.125,
        _ => 0.0,
    };
    // Fields that tell an enum's variants apart (`oneOf`/`anyOf` of `required`): about one
    // at a time, as serde writes them, with now and then two or none.
    let tells: BTreeSet<&String> = layers(s)
        .flat_map(|l| l.one_of.iter().chain(&l.any_of))
        .flat_map(|branch| &branch.required)
        .collect();
    let mut fields = Vec::new();
    for (name, prop) in &s.properties {
        let required = s.required.contains(name);
        let chance = if tells.contains(name) {
            chance.min(1.0 / tells.len() as f64)
        } else {
            chance
        };
        if !required && chance == 0.0 {
            continue;
        }
        let value = values(prop, depth + 1);
        let name = name.clone();
        fields.push(if required {
            value.prop_map(move |v| Some((name.clone(), v))).boxed()
        } else {
            // An optional field may be written out as null (an `Option` reads it as absent;
            // rarely, as other types refuse it).
            let value = prop_oneof![31 => value, 1 => Just(Value::Null)];
            let field = value.prop_map(move |v| (name.clone(), v));
            prop::option::weighted(chance, field).boxed()
        });
    }
    if s.x_embedded_resource {
        for (name, value) in [("apiVersion", "example.com/v1"), ("kind", "Thing")] {
            if !s.properties.contains_key(name) {
                fields.push(Just(Some((name.to_string(), Value::from(value)))).boxed());
            }
        }
    }
    // Fields the schema does not know: kept where it says so, otherwise serde drops them.
    let most = if s.x_preserve_unknown_fields { 3 } else { 1 };
    let unknown_value = prop_oneof![2 => scalars(), 1 => any_json()];
    let unknown = prop::collection::btree_map(keys(), unknown_value, 0..=most).prop_map(|m| {
        m.into_iter()
            .map(|(k, v)| (format!("unknown-{k}"), v))
            .collect::<Vec<_>>()
    });
    (fields, unknown)
        .prop_map(|(fields, unknown)| {
            let mut map: Map<String, Value> = unknown.into_iter().collect();
            map.extend(fields.into_iter().flatten());
            Value::Object(map)
        })
        .prop_filter("within minProperties and maxProperties", move |v| {
            (lo..=hi).contains(&v.as_object().map_or(0, Map::len))
        })
        .boxed()
}

/// Any JSON but a top-level null (a null where the schema has a node is pruned, which
/// [`objects`] covers on its own).
fn any_json() -> BoxedStrategy<Value> {
    scalars()
        .prop_recursive(2, 8, 3, |inner| {
            let element = prop_oneof![4 => inner, 1 => Just(Value::Null)];
            prop_oneof![
                prop::collection::vec(element.clone(), 0..3).prop_map(Value::Array),
                prop::collection::btree_map(keys(), element, 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
        .boxed()
}

fn scalars() -> impl Strategy<Value = Value> + Clone {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-100i64..100).prop_map(Value::from),
        keys().prop_map(Value::String),
    ]
}
