//! Timestamps and durations as the server reads a `date-time`, `date` or `duration` string
//! into CEL: strfmt's `ParseDateTime`, Go's `time.Parse("2006-01-02")` and strfmt's
//! `ParseDuration` (Go's `time.ParseDuration`, then counts of days, weeks and named units);
//! and as cel-go's `timestamp()` and `duration()` read a string (Go's `time.Parse` of RFC 3339
//! and `time.ParseDuration`) and its `string()` writes a timestamp (RFC 3339 with nanoseconds,
//! in the timestamp's own offset).

use chrono::{DateTime, Duration, FixedOffset, NaiveDate, NaiveDateTime};

/// A `date-time`: RFC 3339, or one of strfmt's layouts without a zone (read as UTC).
pub fn date_time(s: &str) -> Option<DateTime<FixedOffset>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t);
    }
    [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
    ]
    .iter()
    .find_map(|layout| NaiveDateTime::parse_from_str(s, layout).ok())
    .map(|t| t.and_utc().fixed_offset())
}

/// `timestamp(s)`: RFC 3339 as Go's `time.Parse` reads it (an upper-case `T` and `Z`).
pub fn rfc3339(s: &str) -> Option<DateTime<FixedOffset>> {
    let upper = s.as_bytes().get(10) == Some(&b'T') && !s.contains('z');
    upper.then(|| DateTime::parse_from_rfc3339(s).ok())?
}

/// A timestamp as Go's `Time.Format(time.RFC3339Nano)` writes it: the fraction without its
/// trailing zeros, `Z` for a zero offset.
pub fn format(t: &DateTime<FixedOffset>) -> String {
    let mut out = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    let nanos = t.timestamp_subsec_nanos();
    if nanos > 0 {
        let fraction = format!("{nanos:09}");
        out.push('.');
        out.push_str(fraction.trim_end_matches('0'));
    }
    match t.offset().local_minus_utc() {
        0 => out.push('Z'),
        _ => out.push_str(&t.format("%:z").to_string()),
    }
    out
}

/// A `date` (`2006-01-02`), at midnight UTC.
pub fn date(s: &str) -> Option<DateTime<FixedOffset>> {
    if s.len() != 10 {
        return None;
    }
    let day = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    Some(day.and_hms_opt(0, 0, 0)?.and_utc().fixed_offset())
}

/// A `duration`: Go's syntax (`1h30m`, `-1.5s`), else every `<count> <unit>` strfmt finds in
/// it (`3d`, `1 week`).
pub fn duration(s: &str) -> Option<Duration> {
    go_duration(s).or_else(|| named_units(s))
}

/// Nanoseconds per unit of Go's `time.ParseDuration`.
const GO_UNITS: &[(&str, i128)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("μs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Go's `time.ParseDuration`: `[-+]` then `<number><unit>` pairs, at most ±2⁶³-1 ns.
pub fn go_duration(s: &str) -> Option<Duration> {
    let (negative, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(Duration::zero());
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(end);
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
            return None;
        }
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_end);
        let scale = GO_UNITS.iter().find(|(u, _)| *u == unit)?.1;
        let whole: i128 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        let mut part = whole.checked_mul(scale)?;
        let mut place = scale;
        for digit in fraction.bytes() {
            place /= 10;
            part += i128::from(digit - b'0') * place;
        }
        total = total.checked_add(part)?;
        if total > i128::from(i64::MAX) {
            return None;
        }
        rest = next;
    }
    let nanos = if negative { -total } else { total };
    Some(Duration::nanoseconds(i64::try_from(nanos).ok()?))
}

/// strfmt's units: a unit's names, the last one also matching as a prefix, and its length.
const NAMED_UNITS: &[(&[&str], i64)] = &[
    (&["ns", "nano"], 1),
    (&["us", "µs", "micro"], 1_000),
    (&["ms", "milli"], 1_000_000),
    (&["s", "sec"], 1_000_000_000),
    (&["m", "min"], 60_000_000_000),
    (&["h", "hr", "hour"], 3_600_000_000_000),
    (&["d", "day"], 86_400_000_000_000),
    (&["w", "wk", "week"], 604_800_000_000_000),
];

/// strfmt's fallback: the sum of every `<digits> <letters>` in `s` whose letters name a unit;
/// none if no unit matched.
fn named_units(s: &str) -> Option<Duration> {
    let mut total: i64 = 0;
    let mut matched = false;
    let mut rest = s;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let from_digits = &rest[start..];
        let digits_end = from_digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(from_digits.len());
        let count: i64 = from_digits[..digits_end].parse().ok()?;
        let after = &from_digits[digits_end..];
        let spaced = after.trim_start();
        let letters_end = spaced
            .find(|c: char| !(c.is_ascii_alphabetic() || c == 'µ'))
            .unwrap_or(spaced.len());
        let unit = spaced[..letters_end].to_lowercase();
        if !unit.is_empty() {
            for (names, nanos) in NAMED_UNITS {
                let last = names.len() - 1;
                for (i, name) in names.iter().enumerate() {
                    if (i == last && unit.starts_with(name)) || unit == *name {
                        matched = true;
                        total = total.wrapping_add(count.wrapping_mul(*nanos));
                    }
                }
            }
            rest = &spaced[letters_end..];
        } else {
            rest = after;
        }
    }
    matched.then(|| Duration::nanoseconds(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_strfmt_reads_them() {
        let ns = |s: &str| duration(s).and_then(|d| d.num_nanoseconds());
        assert_eq!(ns("1h30m"), Some(5_400_000_000_000));
        assert_eq!(ns("-1.5s"), Some(-1_500_000_000));
        assert_eq!(ns(".5ms"), Some(500_000));
        assert_eq!(ns("0"), Some(0));
        assert_eq!(ns("3d"), Some(3 * 86_400_000_000_000));
        assert_eq!(ns("1 week 2 hours"), Some(612_000_000_000_000));
        // Past Go's range, strfmt's count times unit wraps as Go's int64 product does.
        assert_eq!(ns("2562048h"), Some(-9_223_371_273_709_551_616));
        assert_eq!(ns("soon"), None);
        assert_eq!(ns(""), None);
    }

    #[test]
    fn timestamps_keep_their_offset_and_dates_are_utc() {
        let t = date_time("2024-02-29T23:59:59.5+01:00").unwrap();
        assert_eq!(t.offset().local_minus_utc(), 3600);
        assert_eq!(t.timestamp_subsec_millis(), 500);
        assert_eq!(
            date_time("2024-01-02T03:04:05").unwrap().to_rfc3339(),
            "2024-01-02T03:04:05+00:00"
        );
        assert_eq!(
            date("2024-02-29").unwrap().to_rfc3339(),
            "2024-02-29T00:00:00+00:00"
        );
        assert!(date("2023-02-29").is_none() && date("2024-1-2").is_none());
        assert!(date_time("yesterday").is_none());
        let strict = rfc3339("2024-01-01T00:00:00.120+14:00").unwrap();
        assert_eq!(format(&strict), "2024-01-01T00:00:00.12+14:00");
        assert!(
            rfc3339("2024-01-01t00:00:00Z").is_none() && rfc3339("2024-01-01T00:00:00z").is_none()
        );
        assert!(rfc3339("2024-01-01 00:00:00Z").is_none());
    }
}
