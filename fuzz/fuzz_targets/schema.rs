//! Arbitrary schema trees (JSON built from the fuzzer's bytes, biased towards schema keywords)
//! into the structural, value and CEL checks, and the YAML writer's round trip.

#![no_main]

#[path = "../../core/tests/support/properties.rs"]
mod properties;

use arbitrary::{Arbitrary, Result, Unstructured};
use serde_json::{Map, Value};

/// Keys that make the tree read as a schema, and a few others.
const KEYS: &[&str] = &[
    "type", "format", "properties", "items", "additionalProperties", "required", "enum",
    "default", "example", "nullable", "allOf", "anyOf", "oneOf", "not", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern",
    "minItems", "maxItems", "minProperties", "maxProperties", "x-kubernetes-int-or-string",
    "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
    "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type",
    "x-kubernetes-validations", "rule", "message", "messageExpression", "fieldPath", "reason",
    "optionalOldSelf", "a", "b", "apiVersion", "kind", "metadata",
];

/// Words a schema holds (types, list types, CEL rules) and strings YAML could misread.
const WORDS: &[&str] = &[
    "object", "array", "string", "integer", "number", "boolean", "atomic", "set", "map",
    "granular", "int-or-string", "date-time", "self.a > 0", "self.b.size() < 3",
    "has(self.a) ? self.a : 'x'", "oldSelf == self", "self.all(x, x.startsWith('a'))",
    "self.a.matches('^[a-z]+$')", ".a", "^[a-z]+$", "", "yes", "on", "~", "null", "1", "<<",
];

fn json(u: &mut Unstructured, depth: u32) -> Result<Value> {
    let choice = if depth == 0 { u.int_in_range(0..=6)? } else { u.int_in_range(0..=9)? };
    Ok(match choice {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::from(u.arbitrary::<i64>()?),
        3 => Value::from(u.arbitrary::<f64>()?),
        4 => Value::from(u.int_in_range(-3i32..=300)?),
        5 => Value::from(*u.choose(WORDS)?),
        6 => Value::from(String::arbitrary(u)?),
        7 => {
            let n = u.int_in_range(0..=3)?;
            Value::Array((0..n).map(|_| json(u, depth - 1)).collect::<Result<_>>()?)
        }
        _ => {
            let n = u.int_in_range(0..=4)?;
            let mut map = Map::new();
            for _ in 0..n {
                let key = if u.arbitrary()? {
                    (*u.choose(KEYS)?).to_owned()
                } else {
                    String::arbitrary(u)?
                };
                map.insert(key, json(u, depth - 1)?);
            }
            Value::Object(map)
        }
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(value) = json(&mut u, 5) {
        properties::schema_checks(&value);
    }
});
