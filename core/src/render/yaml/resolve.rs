//! Would a string, written as a plain scalar, read back as something else?
//!
//! yaml.v2 (`encode.go: stringv`) writes a string unquoted only if its `resolve.go` maps the
//! plain text back to `!!str` and the text is not a YAML 1.1 base-60 float. This module
//! reproduces that decision: the table of YAML 1.1 words (`yes`, `on`, `null`, `~`, ...),
//! Go's integer and float syntax as used by yaml.v2 (`strconv.ParseInt(s, 0, 64)`,
//! `ParseUint`, `ParseFloat`, underscores dropped first), the `0b` forms, and the
//! timestamp layouts yaml.v2 accepts.

/// True when yaml.v2 must quote `s`: as a plain scalar it would resolve to a bool, null,
/// number or timestamp, or it is a base-60 float such as `1:20`.
///
/// Two departures from yaml.v2, which writes these plain: `<<`, which yaml.v2 then reads back
/// as a merge key (a map key `<<` makes the file unreadable), as other parsers do; and a float
/// too large for an `f64` (`1e400`), a string to yaml.v2 but infinity to YAML 1.2 readers.
pub(crate) fn needs_quotes(s: &str) -> bool {
    s == "<<" || is_overflowing_float(s) || resolves_to_non_string(s) || is_base60_float(s)
}

/// A number in YAML's float syntax beyond `f64`'s range.
fn is_overflowing_float(s: &str) -> bool {
    is_yaml_style_float(s) && s.parse::<f64>().is_ok_and(f64::is_infinite)
}

/// yaml.v2 `resolve("", s)` returns a tag other than `!!str`.
fn resolves_to_non_string(s: &str) -> bool {
    let hint = match s.as_bytes().first() {
        None => return true, // "" is null
        Some(b'+' | b'-') => Hint::Sign,
        Some(b'0'..=b'9') => Hint::Digit,
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => {
            Hint::Word
        }
        Some(b'.') => Hint::Dot,
        Some(_) => return false,
    };
    if is_yaml11_word(s) {
        return true;
    }
    match hint {
        Hint::Word => false,
        Hint::Dot => go_parse_float(s),
        Hint::Sign | Hint::Digit => {
            if is_timestamp(s) {
                return true;
            }
            let plain: String = s.chars().filter(|c| *c != '_').collect();
            if go_parse_int(&plain, 0).is_some() || go_parse_uint(&plain, 0).is_some() {
                return true;
            }
            if is_yaml_style_float(&plain) && go_parse_float(&plain) {
                return true;
            }
            if let Some(rest) = plain.strip_prefix("0b") {
                go_parse_int(rest, 2).is_some() || go_parse_uint(rest, 2).is_some()
            } else if let Some(rest) = plain.strip_prefix("-0b") {
                go_parse_int(&format!("-{rest}"), 2).is_some()
            } else {
                false
            }
        }
    }
}

/// The first-byte classes of yaml.v2's `resolveTable`.
#[derive(Clone, Copy)]
enum Hint {
    Sign,
    Digit,
    Word,
    Dot,
}

/// The words of yaml.v2's `resolveMap`, reached only when the first byte has a hint (so
/// yaml.v2 writes `<<`, whose first byte has none, as a plain string).
fn is_yaml11_word(s: &str) -> bool {
    matches!(
        s,
        "y" | "Y"
            | "yes"
            | "Yes"
            | "YES"
            | "true"
            | "True"
            | "TRUE"
            | "on"
            | "On"
            | "ON"
            | "n"
            | "N"
            | "no"
            | "No"
            | "NO"
            | "false"
            | "False"
            | "FALSE"
            | "off"
            | "Off"
            | "OFF"
            | "~"
            | "null"
            | "Null"
            | "NULL"
            | ".nan"
            | ".NaN"
            | ".NAN"
            | ".inf"
            | ".Inf"
            | ".INF"
            | "+.inf"
            | "+.Inf"
            | "+.INF"
            | "-.inf"
            | "-.Inf"
            | "-.INF"
    )
}

/// yaml.v2 `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    i += 1;
    while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        i += 1;
        // `[0-5]?[0-9]`: one digit, or a digit 0-5 followed by a digit.
        match (b.get(i), b.get(i + 1)) {
            (Some(b'0'..=b'5'), Some(d)) if d.is_ascii_digit() => i += 2,
            (Some(d), _) if d.is_ascii_digit() => i += 1,
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// yaml.v2 `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go `strconv.ParseFloat(s, 64)` succeeds, for the inputs yaml.v2 hands it: decimal
/// syntax with Go's underscore rules, and no overflow to infinity. (Hexadecimal floats and
/// the words `inf`/`nan` never reach it: their first byte or the float regex filters them.)
fn go_parse_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let mut saw_digits = false;
    let mut saw_dot = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'_' => {}
            b'.' if !saw_dot => saw_dot = true,
            b'0'..=b'9' => saw_digits = true,
            _ => break,
        }
        i += 1;
    }
    if !saw_digits {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
            i += 1;
        }
    }
    if i != b.len() || (s.contains('_') && !underscore_ok(s)) {
        return false;
    }
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    cleaned.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Go `strconv.underscoreOK`: every underscore sits between two digits (or between a base
/// prefix and a digit).
fn underscore_ok(s: &str) -> bool {
    let b = match s.as_bytes().split_first() {
        Some((b'+' | b'-', rest)) => rest,
        _ => s.as_bytes(),
    };
    let mut skip = 0;
    let mut saw = b'^';
    let mut hex = false;
    if let [b'0', prefix, ..] = b
        && matches!(prefix.to_ascii_lowercase(), b'b' | b'o' | b'x')
    {
        skip = 2;
        saw = b'0';
        hex = prefix.eq_ignore_ascii_case(&b'x');
    }
    for &c in b.iter().skip(skip) {
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
    }
    saw != b'_'
}

/// Go `strconv.ParseUint(s, base, 64)` for base 0 (prefix detection) or an explicit base,
/// on input without underscores.
fn go_parse_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (base, digits) = if base == 0 {
        // `0b`, `0o` or `0x` with digits behind it; else a leading `0` means octal.
        let behind = |prefix: [char; 2]| {
            s.strip_prefix('0')
                .and_then(|r| r.strip_prefix(prefix))
                .filter(|r| !r.is_empty())
        };
        if let Some(r) = behind(['b', 'B']) {
            (2, r)
        } else if let Some(r) = behind(['o', 'O']) {
            (8, r)
        } else if let Some(r) = behind(['x', 'X']) {
            (16, r)
        } else if let Some(r) = s.strip_prefix('0') {
            (8, r)
        } else {
            (10, s)
        }
    } else {
        (base, s)
    };
    let mut n: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(36)?;
        if d >= base {
            return None;
        }
        n = n.checked_mul(u64::from(base))?.checked_add(u64::from(d))?;
    }
    Some(n)
}

/// Go `strconv.ParseInt(s, base, 64)`: an optional sign, then [`go_parse_uint`], within
/// the int64 range.
fn go_parse_int(s: &str, base: u32) -> Option<i64> {
    let (neg, rest) = match (s.strip_prefix('+'), s.strip_prefix('-')) {
        (Some(rest), _) => (false, rest),
        (_, Some(rest)) => (true, rest),
        _ => (false, s),
    };
    let magnitude = go_parse_uint(rest, base)?;
    let cutoff = 1u64 << 63;
    if neg {
        (magnitude <= cutoff).then(|| (magnitude as i128).wrapping_neg() as i64)
    } else {
        (magnitude < cutoff).then_some(magnitude as i64)
    }
}

/// yaml.v2 `parseTimestamp`: four digits and a `-`, then Go's `time.Parse` with one of the
/// layouts `2006-1-2T15:4:5.999999999Z07:00` (also with a lower-case `t`),
/// `2006-1-2 15:4:5.999999999` or `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let Some((year, [b'-', ..])) = b.split_at_checked(4) else {
        return false;
    };
    if !year.iter().all(u8::is_ascii_digit) {
        return false;
    }
    [
        Layout::DateTimeZone(b'T'),
        Layout::DateTimeZone(b't'),
        Layout::DateSpaceTime,
        Layout::Date,
    ]
    .into_iter()
    .any(|layout| parse_with_layout(b, layout).is_some())
}

#[derive(Clone, Copy)]
enum Layout {
    /// `2006-1-2T15:4:5.999999999Z07:00`, with the given separator byte.
    DateTimeZone(u8),
    /// `2006-1-2 15:4:5.999999999`.
    DateSpaceTime,
    /// `2006-1-2`.
    Date,
}

/// A reader over the value mimicking the pieces of Go's `time.Parse` the layouts use.
struct TimeReader<'a> {
    rest: &'a [u8],
}

impl TimeReader<'_> {
    /// A literal layout byte.
    fn literal(&mut self, c: u8) -> Option<()> {
        let (&first, rest) = self.rest.split_first()?;
        (first == c).then(|| self.rest = rest)
    }

    /// A layout space: one or more spaces in the value (Go's `skip`).
    fn spaces(&mut self) -> Option<()> {
        if self.rest.first().is_some_and(|c| *c != b' ') {
            return None;
        }
        while let Some((b' ', rest)) = self.rest.split_first() {
            self.rest = rest;
        }
        Some(())
    }

    /// Go `getnum(value, fixed)`: one or two digits (exactly two when `fixed`).
    fn number(&mut self, fixed: bool) -> Option<u32> {
        let value = |d: &u8| u32::from(d - b'0');
        match self.rest {
            [a, b, rest @ ..] if a.is_ascii_digit() && b.is_ascii_digit() => {
                self.rest = rest;
                Some(value(a) * 10 + value(b))
            }
            [a, rest @ ..] if a.is_ascii_digit() && !fixed => {
                self.rest = rest;
                Some(value(a))
            }
            _ => None,
        }
    }

    /// `.999999999`: an optional fraction, `.` or `,` then any number of digits.
    fn optional_fraction(&mut self) {
        if let [b'.' | b',', tail @ ..] = self.rest
            && tail.first().is_some_and(u8::is_ascii_digit)
        {
            let mut rest = tail;
            while let Some((_, after)) = rest.split_first().filter(|(d, _)| d.is_ascii_digit()) {
                rest = after;
            }
            self.rest = rest;
        }
    }

    /// `Z07:00`: `Z`, or a sign and `hh:mm`.
    fn zone(&mut self) -> Option<()> {
        if let Some(rest) = self.rest.strip_prefix(b"Z") {
            self.rest = rest;
            return Some(());
        }
        let [b'+' | b'-', h1, h2, b':', m1, m2, rest @ ..] = self.rest else {
            return None;
        };
        let fixed2 = |a: &u8, b: &u8| {
            (a.is_ascii_digit() && b.is_ascii_digit())
                .then(|| u32::from(a - b'0') * 10 + u32::from(b - b'0'))
        };
        let hours = fixed2(h1, h2)?;
        let minutes = fixed2(m1, m2)?;
        self.rest = rest;
        (hours <= 24 && minutes <= 60).then_some(())
    }
}

/// Go `time.Parse(layout, value)` succeeds.
fn parse_with_layout(value: &[u8], layout: Layout) -> Option<()> {
    let mut r = TimeReader { rest: value };
    // 2006
    let (year_digits, rest) = r.rest.split_at_checked(4)?;
    if !year_digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let year: u32 = std::str::from_utf8(year_digits).ok()?.parse().ok()?;
    r.rest = rest;
    r.literal(b'-')?;
    let month = r.number(false)?;
    r.literal(b'-')?;
    let day = r.number(false)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
        return None;
    }
    let time = match layout {
        Layout::Date => false,
        Layout::DateTimeZone(sep) => {
            r.literal(sep)?;
            true
        }
        Layout::DateSpaceTime => {
            r.spaces()?;
            true
        }
    };
    if time {
        let hour = r.number(false)?;
        r.literal(b':')?;
        let minute = r.number(false)?;
        r.literal(b':')?;
        let second = r.number(false)?;
        if hour >= 24 || minute >= 60 || second >= 60 {
            return None;
        }
        r.optional_fraction();
        if matches!(layout, Layout::DateTimeZone(_)) {
            r.zone()?;
        }
    }
    r.rest.is_empty().then_some(())
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml11_words_need_quotes() {
        for s in [
            "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "yes", "Yes", "no",
            "NO", "on", "On", "off", "OFF", "y", "Y", "n", "N", ".nan", ".inf", "-.inf", "+.INF",
            // kubegen's departures from yaml.v2 (see `needs_quotes`).
            "<<", "1e400", ".5e999",
        ] {
            assert!(needs_quotes(s), "{s:?} should need quotes");
        }
    }

    #[test]
    fn near_words_stay_plain() {
        for s in [
            "nil", "NUll", "tRue", "yES", "oN", "<", "<<<", "none", "Nope", ".NAn", "-", "+", ".",
            "_",
        ] {
            assert!(!needs_quotes(s), "{s:?} should stay plain");
        }
    }

    #[test]
    fn numbers_need_quotes() {
        for s in [
            "124",
            "0",
            "-1",
            "+1",
            "1_000",
            "0x1F",
            "0o17",
            "017",
            "0b101",
            "0b+1",
            "-0b1",
            "18446744073709551615",
            "99999999999999999999999",
            "1.5",
            "-0.5",
            "1e3",
            "1E+3",
            "1.",
            ".5",
            ".5_5",
            "09",
            "-.5e-3",
        ] {
            assert!(needs_quotes(s), "{s:?} should need quotes");
        }
    }

    #[test]
    fn number_like_text_stays_plain() {
        for s in [
            "1.2.3",
            "v1",
            "1a",
            "0x",
            "0xG",
            "1e",
            "1e+",
            ".5_",
            "._5",
            "..5",
            "0x10000000000000000",
            "+0xFFFFFFFFFFFFFFFF",
            "1-2",
            "10Gi",
            "1/2",
            ".e1",
        ] {
            assert!(!needs_quotes(s), "{s:?} should stay plain");
        }
    }

    #[test]
    fn base60_floats_need_quotes() {
        for s in ["1:20", "190:20:30", "-1:59", "1:20.5", "1_0:5"] {
            assert!(needs_quotes(s), "{s:?} should need quotes");
        }
        for s in ["1:60", "1:", "a:1", "1:2:", "12:345"] {
            assert!(!needs_quotes(s), "{s:?} should stay plain");
        }
    }

    #[test]
    fn timestamps_need_quotes() {
        for s in [
            "2001-12-14",
            "2001-1-2",
            "2001-12-14T21:59:43.10Z",
            "2001-12-14t21:59:43-05:00",
            "2001-12-14 21:59:43.10",
            "2001-12-14  21:59:43",
            "2024-02-29",
        ] {
            assert!(needs_quotes(s), "{s:?} should need quotes");
        }
        for s in [
            "2001-13-01",
            "2023-02-29",
            "2001-12-14T21:59:43",
            "2001-12-14 25:00:00",
            "2001-12-14x",
            "20011-12-14",
            "2001-12-14T21:59:43+0500",
        ] {
            assert!(!needs_quotes(s), "{s:?} should stay plain");
        }
    }
}
