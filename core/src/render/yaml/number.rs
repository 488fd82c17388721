//! Numbers as controller-gen prints them.
//!
//! controller-gen marshals to JSON with Go's `encoding/json`, reads that back with yaml.v2
//! and marshals again. A JSON number that parses as an int64 or uint64 comes back as an
//! integer; anything else is a float64, printed with `strconv.FormatFloat(f, 'g', -1, 64)`.
//! Go's JSON encoder writes every integral float below 1e21 without a fraction or exponent,
//! so an integral `f64` in that range prints as an integer (`5.0` → `5`) when that text fits
//! int64 or uint64, and every other float prints in Go's shortest `%g` form, which
//! switches to an exponent below 1e-4 and from 1e6 on (`1.5`, `-0.5`, `1e-07`,
//! `1.2345675e+06`, `1e+21`).

/// Formats a JSON number the way controller-gen's YAML output shows it.
pub(crate) fn format_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        format_float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Formats a float as controller-gen's pipeline does: Go's JSON encoder writes an integral
/// value below 1e21 as its shortest digits padded with zeros (`4.9e18` →
/// `4900000000000000000`); if that text is an int64 or uint64, yaml.v2 keeps it as an
/// integer. Everything else is printed with Go's `strconv.FormatFloat(f, 'g', -1, 64)`
/// (and yaml.v2's `.inf`/`.nan` spellings, unreachable from JSON).
pub(crate) fn format_float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    if f.fract() == 0.0 && f.abs() < 1e21 {
        let (digits, exp) = shortest_digits(f);
        let mut text = String::new();
        if f.is_sign_negative() {
            text.push('-');
        }
        text.extend(digits.iter().map(|d| char::from(*d)));
        // An integral value has its decimal point at or after the last digit.
        let zeros = usize::try_from(exp + 1)
            .unwrap_or(0)
            .saturating_sub(digits.len());
        text.extend(std::iter::repeat_n('0', zeros));
        if let Ok(i) = text.parse::<i64>() {
            return i.to_string();
        }
        if let Ok(u) = text.parse::<u64>() {
            return u.to_string();
        }
    }
    format_g_shortest(f)
}

/// The shortest round-tripping decimal digits of `|f|` and the decimal exponent of the
/// first digit (`1.5` → `([1, 5], 0)`), chosen as Go does: among the shortest strings that
/// read back as `f`, the one closest to the exact value, a tie going to the even digit.
///
/// Rust's `{:e}` gives the same length and usually the same digits, but breaks an exact
/// tie upwards (`-886097170625152.25` → `…152.3`, Go: `…152.2`), so the correctly rounded
/// candidate is computed from the exact expansion and preferred when it reads back as `f`.
fn shortest_digits(f: f64) -> (Vec<u8>, i32) {
    let abs = f.abs();
    let (digits, exp) = split_scientific(&format!("{abs:e}"));
    // 800 fractional digits hold the whole exact expansion of any f64 (at most 767
    // significant digits), so this text is exact, padded with zeros.
    let (exact, exact_exp) = split_scientific(&format!("{abs:.800e}"));
    let (candidate, candidate_exp) = round_half_even(&exact, exact_exp, digits.len());
    if candidate != digits && reads_back_as(&candidate, candidate_exp, abs) {
        (candidate, candidate_exp)
    } else {
        (digits, exp)
    }
}

/// Splits Rust's `{:e}` text (`1.25e-3`) into its digits and exponent.
fn split_scientific(sci: &str) -> (Vec<u8>, i32) {
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci, "0"));
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// Rounds a digit string to `n` digits, ties to even; trailing zeros are dropped.
fn round_half_even(digits: &[u8], exp: i32, n: usize) -> (Vec<u8>, i32) {
    let n = n.max(1).min(digits.len());
    let (head, rest) = digits.split_at(n);
    let mut out = head.to_vec();
    let mut exp = exp;
    let round_up = match rest.split_first() {
        None => false,
        Some((first, tail)) => match first.cmp(&b'5') {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => {
                tail.iter().any(|d| *d != b'0') || out.last().is_some_and(|d| (d - b'0') % 2 == 1)
            }
        },
    };
    if round_up {
        let mut carry = true;
        for d in out.iter_mut().rev() {
            if *d == b'9' {
                *d = b'0';
            } else {
                *d += 1;
                carry = false;
                break;
            }
        }
        if carry {
            // 99…9 rounded up: 100…0, one decade higher.
            out.insert(0, b'1');
            out.truncate(n);
            exp += 1;
        }
    }
    while out.len() > 1 && out.last() == Some(&b'0') {
        out.pop();
    }
    (out, exp)
}

/// The decimal `0.d1d2… × 10^(exp+1)` parses back to exactly `value`.
fn reads_back_as(digits: &[u8], exp: i32, value: f64) -> bool {
    let Some((first, rest)) = digits.split_first() else {
        return false;
    };
    let text = format!(
        "{}.{}e{exp}",
        char::from(*first),
        String::from_utf8_lossy(rest)
    );
    text.parse::<f64>() == Ok(value)
}

/// Go `strconv.FormatFloat(f, 'g', -1, 64)` for a finite `f`.
fn format_g_shortest(f: f64) -> String {
    let (digits, exp) = shortest_digits(f);
    let mut out = String::new();
    if f.is_sign_negative() {
        out.push('-');
    }
    // Shortest mode decides with precision 6: %e when exp < -4 || exp >= 6.
    if !(-4..6).contains(&exp) {
        if let Some((first, rest)) = digits.split_first() {
            out.push(char::from(*first));
            if !rest.is_empty() {
                out.push('.');
                out.extend(rest.iter().map(|d| char::from(*d)));
            }
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let abs = exp.unsigned_abs();
        if abs < 10 {
            out.push('0');
        }
        out.push_str(&abs.to_string());
    } else {
        // %f with just enough fraction digits. `dp` is the decimal point position.
        let dp = exp + 1;
        let nd = digits.len() as i32;
        let digit_at = |j: i32| {
            usize::try_from(j)
                .ok()
                .and_then(|j| digits.get(j))
                .map_or('0', |d| char::from(*d))
        };
        if dp > 0 {
            out.extend((0..dp).map(digit_at));
        } else {
            out.push('0');
        }
        let frac = (nd - dp).max(0);
        if frac > 0 {
            out.push('.');
            out.extend((0..frac).map(|i| digit_at(dp + i)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(v: serde_json::Value) -> String {
        match v {
            serde_json::Value::Number(n) => format_number(&n),
            other => panic!("not a number: {other}"),
        }
    }

    #[test]
    fn integers_print_as_integers() {
        assert_eq!(num(json!(2)), "2");
        assert_eq!(num(json!(-17)), "-17");
        assert_eq!(num(json!(u64::MAX)), "18446744073709551615");
        assert_eq!(num(json!(i64::MIN)), "-9223372036854775808");
    }

    #[test]
    fn integral_floats_print_as_integers() {
        assert_eq!(num(json!(5.0)), "5");
        assert_eq!(num(json!(-0.0)), "0");
        assert_eq!(num(json!(1e15)), "1000000000000000");
        assert_eq!(num(json!(1e19)), "10000000000000000000");
        // Go's JSON encoder pads the shortest digits with zeros, it does not print the
        // exact binary value (4908122847537393664).
        assert_eq!(format_float(4.908122847537394e18), "4908122847537394000");
        // 2^63 becomes 9223372036854776000: too big for int64, a uint64 for yaml.v2.
        assert_eq!(
            format_float(9_223_372_036_854_775_808.0),
            "9223372036854776000"
        );
    }

    #[test]
    fn integral_floats_beyond_64_bits_use_exponents() {
        assert_eq!(
            format_float(18_446_744_073_709_551_616.0),
            "1.8446744073709552e+19"
        );
        assert_eq!(format_float(1e20), "1e+20");
        assert_eq!(format_float(1e21), "1e+21");
        assert_eq!(format_float(-1e300), "-1e+300");
        // -2^63 becomes -9223372036854776000, below the int64 range: a float for yaml.v2.
        assert_eq!(
            format_float(-9_223_372_036_854_775_808.0),
            "-9.223372036854776e+18"
        );
    }

    #[test]
    fn fractions_use_go_shortest_g() {
        assert_eq!(num(json!(1.5)), "1.5");
        assert_eq!(num(json!(-0.5)), "-0.5");
        assert_eq!(format_float(0.1), "0.1");
        assert_eq!(format_float(0.0001234), "0.0001234");
        assert_eq!(format_float(0.00001234), "1.234e-05");
        assert_eq!(format_float(1e-7), "1e-07");
        assert_eq!(format_float(123456.5), "123456.5");
        assert_eq!(format_float(1234567.5), "1.2345675e+06");
        assert_eq!(format_float(5e-324), "5e-324");
        assert_eq!(
            format_float(1.7976931348623157e308),
            "1.7976931348623157e+308"
        );
    }

    #[test]
    fn exact_ties_round_to_even_like_go() {
        // Exactly halfway between …152.2 and …152.3 (both read back): Go picks the even
        // digit, where Rust's own shortest formatting picks …152.3.
        let tie = -(886_097_170_625_152.0 + 0.25);
        assert_eq!(format_float(tie), "-8.860971706251522e+14");
        assert_eq!(round_half_even(b"1235", 0, 3), (b"124".to_vec(), 0));
        assert_eq!(round_half_even(b"1225", 0, 3), (b"122".to_vec(), 0));
        assert_eq!(round_half_even(b"12251", 0, 3), (b"123".to_vec(), 0));
        assert_eq!(round_half_even(b"9996", 2, 3), (b"1".to_vec(), 3));
    }

    #[test]
    fn non_finite_values_use_yaml_spellings() {
        assert_eq!(format_float(f64::INFINITY), ".inf");
        assert_eq!(format_float(f64::NEG_INFINITY), "-.inf");
        assert_eq!(format_float(f64::NAN), ".nan");
    }
}
