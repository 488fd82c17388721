//! Random rules × random objects into the admission (`check::admit`): a schema of a few typed
//! fields, each with rules drawn from the Kubernetes CEL libraries and joined at random, and
//! objects (and old objects, for updates) built from the fuzzer's bytes. Admission must not
//! panic, must give the same answer twice, and every error must name its field.

#![no_main]

use arbitrary::{Result, Unstructured};
use kubegen_core::check::admit::Validator;
use serde_json::{Map, Value, json};

/// Rules on the string field `s`.
const STRING_RULES: &[&str] = &[
    "self.size() < 10",
    "self.matches('^[a-z]+$')",
    "self.find('[0-9]+') != ''",
    "self.findAll('a').size() < 3",
    "isURL(self) && url(self).getScheme() == 'https'",
    "isSemver(self) && semver(self).major() > 0",
    "isIP(self) && ip(self).family() == 4",
    "isCIDR(self) && cidr(self).prefixLength() > 8",
    "isQuantity(self) && quantity(self).isInteger()",
    "!format.dns1123Label().validate(self).hasValue()",
    "self.lowerAscii() == self",
    "self.split('.').size() < 3",
    "self.indexOf('x') < 0",
    "self.substring(0, 1) != 'z'",
    "self == oldSelf",
    "strings.quote(self).size() > 2",
];
/// Rules on the list field `l`.
const LIST_RULES: &[&str] = &[
    "self.isSorted()",
    "self.all(x, x.size() > 0)",
    "self.exists(x, x == 'a')",
    "sets.contains(self, ['a'])",
    "sets.intersects(self, ['b', 'c'])",
    "self.map(x, x.size()).sum() < 20",
    "self.filter(x, x.startsWith('a')).size() < 2",
    "self.size() == 0 || self.min() < 'm'",
    "self.indexOf('a') == self.lastIndexOf('a')",
    "self.join(',').size() < 30",
    "oldSelf.all(x, x in self)",
];
/// Rules on the object `spec`.
const OBJECT_RULES: &[&str] = &[
    "!has(self.a) || self.a > 0",
    "!has(self.s) || !has(self.a) || self.s.size() <= self.a",
    "has(self.m) && self.m.all(k, self.m[k] >= 0)",
    "self.a < oldSelf.a",
    "!has(self.l) || self.l.size() < 4",
    "quantity('1Gi').isGreaterThan(quantity('1G'))",
];
const WORDS: &[&str] = &[
    "",
    "a",
    "b",
    "abc",
    "https://x.io/p?q=1",
    "1.2.3",
    "v1.0.0",
    "10.0.0.1",
    "10.0.0.0/8",
    "500m",
    "1Gi",
    "UPPER",
    "a.b.c",
    "zz",
    "a1",
    "::1",
    "x",
    "2001:db8::/32",
    "ftp://h",
    "0.0.0.0",
];

fn rules(u: &mut Unstructured, from: &[&str]) -> Result<Value> {
    let n = u.int_in_range(0..=3)?;
    let mut out = Vec::new();
    for _ in 0..n {
        let mut rule = (*u.choose(from)?).to_string();
        if u.ratio(1, 3)? {
            let join = if u.arbitrary()? { " && " } else { " || " };
            rule = format!("({rule}){join}({})", u.choose(from)?);
        }
        if u.ratio(1, 4)? {
            rule = format!("!({rule})");
        }
        let mut v = json!({"rule": rule});
        if u.ratio(1, 4)? {
            v["messageExpression"] = json!("'failed: ' + string(size(self))");
        }
        if u.ratio(1, 5)? {
            v["optionalOldSelf"] = json!(true);
        }
        out.push(v);
    }
    Ok(Value::Array(out))
}

fn scalar(u: &mut Unstructured) -> Result<Value> {
    Ok(match u.int_in_range(0..=4)? {
        0 => Value::from(*u.choose(WORDS)?),
        1 => Value::from(u.int_in_range(-5i64..=20)?),
        2 => Value::from(u.arbitrary::<bool>()?),
        3 => Value::Null,
        _ => Value::from(u.arbitrary::<String>()?),
    })
}

fn spec(u: &mut Unstructured) -> Result<Value> {
    let mut map = Map::new();
    for key in ["a", "s", "l", "m", "extra"] {
        if !u.arbitrary::<bool>()? {
            continue;
        }
        let value = match (key, u.ratio(1, 8)?) {
            (_, true) => scalar(u)?,
            ("l", _) => {
                let n = u.int_in_range(0..=5)?;
                Value::Array((0..n).map(|_| scalar(u)).collect::<Result<_>>()?)
            }
            ("m", _) => {
                let mut m = Map::new();
                for _ in 0..u.int_in_range(0..=3)? {
                    m.insert((*u.choose(WORDS)?).to_string(), scalar(u)?);
                }
                Value::Object(m)
            }
            _ => scalar(u)?,
        };
        map.insert(key.to_string(), value);
    }
    Ok(Value::Object(map))
}

fn case(u: &mut Unstructured) -> Result<(Value, Value, Option<Value>)> {
    let schema = json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "x-kubernetes-validations": rules(u, OBJECT_RULES)?,
            "properties": {
                "a": {"type": "integer", "maximum": 100},
                "s": {"type": "string", "maxLength": 20, "x-kubernetes-validations": rules(u, STRING_RULES)?},
                "l": {"type": "array", "maxItems": 4, "x-kubernetes-list-type": "set",
                      "items": {"type": "string", "maxLength": 8}, "x-kubernetes-validations": rules(u, LIST_RULES)?},
                "m": {"type": "object", "additionalProperties": {"type": "integer"}},
            },
        }},
    });
    let object = |spec: Value| json!({"apiVersion": "f.test/v1", "kind": "F", "metadata": {"name": "f"}, "spec": spec});
    let new = object(spec(u)?);
    let old = if u.arbitrary()? {
        Some(object(spec(u)?))
    } else {
        None
    };
    Ok((schema, new, old))
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok((schema, new, old)) = case(&mut u) else {
        return;
    };
    let Ok(validator) = Validator::from_json(&schema) else {
        return;
    };
    let first = validator.admit(&new, old.as_ref());
    let again = validator.admit(&new, old.as_ref());
    assert_eq!(first.errors, again.errors, "admission is deterministic");
    for e in first.errors.iter().chain(&first.ratcheted) {
        assert!(!e.field.is_empty(), "{e}");
    }
});
