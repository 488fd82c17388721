//! Kubernetes' quantity library for CEL (`quantity`, `isQuantity`, and on a quantity
//! `isInteger`, `asInteger`, `asApproximateFloat`, `add`, `sub`, `isGreaterThan`,
//! `isLessThan`, `compareTo`): quantities as `resource.Quantity` parses them (`1.5Gi`, `500m`,
//! `1e3`), held exactly in billionths, so that `quantity('1Gi') == quantity('1024Mi')`.

use std::cmp::Ordering;
use std::sync::Arc;

use cel::objects::Opaque;
use cel::{ExecutionError, Value};

/// A quantity, in billionths of its unit (`1` is `1000000000`); finer parts are rounded up,
/// as `resource.Quantity` rounds them.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
pub struct Quantity(i128);

impl Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Quantity"
    }
}

const NANO: i128 = 1_000_000_000;

/// `text` as a quantity: a signed decimal number, then a binary suffix (`Ki`..`Ei`), a decimal
/// one (`n`, `u`, `m`, `k`, `M`..`E`) or an exponent (`e3`, `E-2`).
pub fn parse(text: &str) -> Option<Quantity> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let end = rest
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(rest.len());
    let (number, suffix) = rest.split_at(end);
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if (whole.is_empty() && fraction.is_empty()) || fraction.contains('.') {
        return None;
    }
    // (base, exponent): the suffix multiplies by base^exponent.
    let (base, exp): (i128, i32) = match suffix {
        "" => (10, 0),
        "n" => (10, -9),
        "u" => (10, -6),
        "m" => (10, -3),
        "k" => (10, 3),
        "M" => (10, 6),
        "G" => (10, 9),
        "T" => (10, 12),
        "P" => (10, 15),
        "E" => (10, 18),
        "Ki" => (2, 10),
        "Mi" => (2, 20),
        "Gi" => (2, 30),
        "Ti" => (2, 40),
        "Pi" => (2, 50),
        "Ei" => (2, 60),
        s if s.starts_with(['e', 'E']) => {
            let e = &s[1..];
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (10, e.parse().ok()?)
        }
        _ => return None,
    };
    // The number in billionths, rounded up, then scaled by the suffix.
    let digits = format!("{whole}{fraction}");
    let mut n: i128 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    let mut scale = 9 - fraction.len() as i32; // n × 10^scale billionths
    if base == 10 {
        scale += exp;
    } else {
        n = n.checked_mul(1i128.checked_shl(exp as u32)?)?;
    }
    let value = if scale >= 0 {
        n.checked_mul(10i128.checked_pow(scale as u32)?)?
    } else {
        let d = 10i128.checked_pow((-scale) as u32)?;
        n / d + i128::from(n % d != 0)
    };
    Some(Quantity(sign * value))
}

fn fail(f: &str, message: impl ToString) -> ExecutionError {
    ExecutionError::function_error(f, message)
}

fn quantity_of(f: &str, v: Option<&Value>) -> Result<Quantity, ExecutionError> {
    match v {
        Some(Value::Opaque(o)) => o
            .downcast_ref::<Quantity>()
            .copied()
            .ok_or_else(|| fail(f, "no such overload")),
        Some(Value::Int(i)) => Ok(Quantity(i128::from(*i) * NANO)),
        _ => Err(fail(f, "no such overload")),
    }
}

fn value(q: Quantity) -> Value {
    Value::Opaque(Arc::new(q))
}

/// `quantity(string)`.
pub fn quantity(v: &[Value]) -> Result<Value, ExecutionError> {
    match v.first() {
        Some(Value::String(s)) => parse(s)
            .map(value)
            .ok_or_else(|| fail("quantity", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")),
        _ => Err(fail("quantity", "no such overload")),
    }
}

/// `isQuantity(string)`.
pub fn is_quantity(v: &[Value]) -> Result<Value, ExecutionError> {
    match v.first() {
        Some(Value::String(s)) => Ok(Value::Bool(parse(s).is_some())),
        _ => Err(fail("isQuantity", "no such overload")),
    }
}

/// `q.isInteger()`: whole, and within `int`.
pub fn is_integer(v: &[Value]) -> Result<Value, ExecutionError> {
    let q = quantity_of("isInteger", v.first())?;
    Ok(Value::Bool(
        q.0 % NANO == 0 && i64::try_from(q.0 / NANO).is_ok(),
    ))
}

/// `q.asInteger()`.
pub fn as_integer(v: &[Value]) -> Result<Value, ExecutionError> {
    let q = quantity_of("asInteger", v.first())?;
    if q.0 % NANO != 0 {
        return Err(fail("asInteger", "cannot convert value to integer"));
    }
    i64::try_from(q.0 / NANO)
        .map(Value::Int)
        .map_err(|_| fail("asInteger", "cannot convert value to integer"))
}

/// `q.asApproximateFloat()`.
pub fn as_approximate_float(v: &[Value]) -> Result<Value, ExecutionError> {
    let q = quantity_of("asApproximateFloat", v.first())?;
    Ok(Value::Float(q.0 as f64 / NANO as f64))
}

/// `q.add(q2)`, `q.add(int)`.
pub fn add(v: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = (
        quantity_of("add", v.first())?,
        quantity_of("add", v.get(1))?,
    );
    Ok(value(Quantity(a.0 + b.0)))
}

/// `q.sub(q2)`, `q.sub(int)`.
pub fn sub(v: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = (
        quantity_of("sub", v.first())?,
        quantity_of("sub", v.get(1))?,
    );
    Ok(value(Quantity(a.0 - b.0)))
}

/// How quantity `v[0]` compares with `v[1]` (a quantity or an `int`), for `compareTo`,
/// `isGreaterThan` and `isLessThan`.
pub fn ordering(f: &str, v: &[Value]) -> Result<Ordering, ExecutionError> {
    Ok(quantity_of(f, v.first())?.cmp(&quantity_of(f, v.get(1))?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_parse_as_resource_quantity_parses_them() {
        let q = |s: &str| parse(s).map(|q| q.0);
        assert_eq!(q("1"), Some(NANO));
        assert_eq!(q("500m"), Some(NANO / 2));
        assert_eq!(q("1Gi"), q("1024Mi"));
        assert_eq!(q("1.5k"), Some(1500 * NANO));
        assert_eq!(q("1e3"), q("1k"));
        assert_eq!(q("-2"), Some(-2 * NANO));
        assert_eq!(q("0.0000000001"), Some(1));
        assert_eq!(q(".5"), Some(NANO / 2));
        for bad in ["", "x", "1.2.3", "1Kb", "1e", "--1", "1 "] {
            assert_eq!(q(bad), None, "{bad}");
        }
    }
}
