//! The string `format`s kube-apiserver checks in custom resources (kube-openapi's format
//! registry as apiextensions uses it). A format it does not know is not checked.

use std::net::{IpAddr, Ipv6Addr};

/// Whether `s` is a valid `format`, `None` when the server does not check that format.
pub fn valid(format: &str, s: &str) -> Option<bool> {
    Some(match format {
        "byte" => base64(s),
        "date" => date(s),
        "date-time" | "datetime" => date_time(s),
        "duration" => duration(s),
        "uuid" => uuid(s, None),
        "uuid3" => uuid(s, Some(b'3')),
        "uuid4" => uuid(s, Some(b'4')),
        "uuid5" => uuid(s, Some(b'5')),
        "ipv4" => ipv4(s),
        "ipv6" => s.parse::<Ipv6Addr>().is_ok() || ipv4_in_ipv6(s),
        "cidr" => cidr(s),
        "mac" => mac(s),
        "hostname" => hostname(s),
        "email" => email(s),
        "uri" => uri(s),
        "hexcolor" => hex_color(s),
        "rgbcolor" => rgb_color(s),
        "ssn" => ssn(s),
        "isbn" => isbn10(s) || isbn13(s),
        "isbn10" => isbn10(s),
        "isbn13" => isbn13(s),
        "bsonobjectid" => s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
        "password" => true,
        _ => return None,
    })
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Standard base64 with padding, as Go's `base64.StdEncoding` decodes it, not empty.
fn base64(s: &str) -> bool {
    if s.is_empty() {
        return false;
    }
    let body = s.trim_end_matches('=');
    let pad = s.len() - body.len();
    s.len().is_multiple_of(4)
        && pad <= 2
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// `2006-01-02`.
fn date(s: &str) -> bool {
    let mut parts = s.splitn(3, '-');
    let (Some(y), Some(m), Some(d)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// RFC 3339: `2006-01-02T15:04:05[.frac](Z|±hh:mm)`, `T` or `t` between date and time.
fn date_time(s: &str) -> bool {
    if s.len() < 20 || !s.is_char_boundary(10) {
        return false;
    }
    let (day, rest) = s.split_at(10);
    if !date(day) || !matches!(rest.as_bytes()[0], b'T' | b't') {
        return false;
    }
    let rest = &rest[1..];
    let zone_at = rest.find(['Z', 'z', '+', '-']).unwrap_or(rest.len());
    let (clock, zone) = rest.split_at(zone_at);
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, "0"));
    let hms: Vec<&str> = hms.split(':').collect();
    let time_ok = matches!(hms.as_slice(), [h, m, s]
        if digits(h, 2).is_some_and(|h| h < 24)
            && digits(m, 2).is_some_and(|m| m < 60)
            && digits(s, 2).is_some_and(|s| s < 60))
        && !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit());
    let zone_ok = matches!(zone, "Z" | "z")
        || (zone.len() == 6
            && zone.as_bytes()[3] == b':'
            && digits(&zone[1..3], 2).is_some_and(|h| h < 24)
            && digits(&zone[4..6], 2).is_some_and(|m| m < 60));
    time_ok && zone_ok
}

/// Go's `time.ParseDuration` syntax (`1h30m`, `-1.5s`), and strfmt's longer forms with days and
/// weeks (`3d`, `1 w`).
fn duration(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    let units = [
        "ns", "us", "µs", "μs", "ms", "s", "m", "h", "d", "w", "hours", "hour", "minutes",
        "minute", "seconds", "second", "days", "day", "weeks", "week",
    ];
    let mut rest = s.trim();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let number = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let (n, tail) = rest.split_at(number);
        if n.is_empty() || n == "." || n.matches('.').count() > 1 {
            return false;
        }
        let tail = tail.trim_start();
        let unit = tail
            .find(|c: char| c.is_ascii_digit() || c.is_whitespace())
            .unwrap_or(tail.len());
        if !units.contains(&&tail[..unit]) {
            return false;
        }
        rest = tail[unit..].trim_start();
    }
    true
}

/// `xxxxxxxx-xxxx-Vxxx-Rxxx-xxxxxxxxxxxx` in hex, each `-` optional, of version `V` (and, for
/// versions 4 and 5, of variant `R` 8, 9, a or b) when given.
fn uuid(s: &str, version: Option<u8>) -> bool {
    let mut rest = s.as_bytes();
    let mut hex = Vec::with_capacity(32);
    for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 && rest.first() == Some(&b'-') {
            rest = &rest[1..];
        }
        if rest.len() < n || !rest[..n].iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        hex.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
    }
    let variant = || matches!(hex[16].to_ascii_lowercase(), b'8' | b'9' | b'a' | b'b');
    rest.is_empty() && version.is_none_or(|v| hex[12] == v && (v == b'3' || variant()))
}

/// A dotted IPv4 address as Kubernetes' `ParseIPSloppy` reads it: leading zeros allowed.
fn ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u32>().is_ok_and(|n| n <= 255)
        })
}

/// ISBN-10 (digits, or `X` last, summing to a multiple of 11), spaces and dashes ignored.
fn isbn10(s: &str) -> bool {
    let d: Vec<char> = s.chars().filter(|c| !matches!(c, '-' | ' ')).collect();
    d.len() == 10
        && d[..9].iter().all(char::is_ascii_digit)
        && (d[9].is_ascii_digit() || d[9] == 'X')
        && d.iter()
            .enumerate()
            .map(|(i, c)| (i as u32 + 1) * c.to_digit(10).unwrap_or(10))
            .sum::<u32>()
            % 11
            == 0
}

/// ISBN-13 (digits weighted 1 and 3 summing to a multiple of 10), spaces and dashes ignored.
fn isbn13(s: &str) -> bool {
    let d: Vec<u32> = s
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| c.to_digit(10).unwrap_or(99))
        .collect();
    d.len() == 13
        && d.iter().all(|&x| x < 10)
        && d.iter()
            .enumerate()
            .map(|(i, x)| if i % 2 == 0 { *x } else { 3 * x })
            .sum::<u32>()
            % 10
            == 0
}

fn ipv4_in_ipv6(s: &str) -> bool {
    s.contains(':') && s.parse::<IpAddr>().is_ok()
}

/// Go's `net.ParseCIDR`: an address, `/`, a prefix length within its size.
fn cidr(s: &str) -> bool {
    let Some((ip, bits)) = s.split_once('/') else {
        return false;
    };
    let max = match ip.parse::<IpAddr>() {
        Ok(IpAddr::V4(_)) => 32,
        Ok(IpAddr::V6(_)) => 128,
        Err(_) => return false,
    };
    !bits.is_empty()
        && bits.len() <= 3
        && bits.bytes().all(|b| b.is_ascii_digit())
        && bits.parse::<u32>().is_ok_and(|n| n <= max)
}

/// Go's `net.ParseMAC`: 6, 8 or 20 bytes as `xx:xx:..`, `xx-xx-..` or `xxxx.xxxx...`.
fn mac(s: &str) -> bool {
    let sizes = [6, 8, 20];
    let hex = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_hexdigit());
    for sep in [':', '-'] {
        let parts: Vec<&str> = s.split(sep).collect();
        if parts.len() > 1 {
            return sizes.contains(&parts.len()) && parts.iter().all(|p| hex(p, 2));
        }
    }
    let parts: Vec<&str> = s.split('.').collect();
    sizes.contains(&(parts.len() * 2)) && parts.iter().all(|p| hex(p, 4))
}

/// strfmt's host names: one label, or labels and a top-level name of 2 to 63 letters; letters
/// may be any script's, each label at most 63 bytes, 255 in all.
fn hostname(s: &str) -> bool {
    let x = |c: char| c.is_ascii_alphanumeric() || (!c.is_ascii() && !c.is_whitespace());
    let label = |l: &str| {
        let c: Vec<char> = l.chars().collect();
        !c.is_empty() && x(c[0]) && x(c[c.len() - 1]) && c.iter().all(|&ch| x(ch) || ch == '-')
    };
    let labels: Vec<&str> = s.split('.').collect();
    let shaped = match labels.as_slice() {
        [one] => {
            let rest = one
                .get(one.chars().next().map_or(0, char::len_utf8)..)
                .unwrap_or("");
            let rest = rest.strip_prefix('-').unwrap_or(rest);
            one.starts_with(x) && rest.chars().all(x) && rest.chars().count() <= 62
        }
        [inner @ .., top] => {
            inner.iter().all(|l| label(l))
                && (2..=63).contains(&top.chars().count())
                && top.chars().all(char::is_alphabetic)
        }
        [] => false,
    };
    shaped && s.len() <= 255 && labels.iter().all(|l| l.len() <= 63)
}

/// An address `local@domain`, alone or in angle brackets after a name, as `net/mail`
/// parses one.
fn email(s: &str) -> bool {
    let s = match s.strip_suffix('>').and_then(|r| r.rsplit_once('<')) {
        Some((_, inner)) => inner,
        None => s,
    };
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let atom = |p: &str| {
        !p.is_empty()
            && p.split('.').all(|a| {
                !a.is_empty()
                    && a.chars().all(|c| {
                        c.is_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || !c.is_ascii()
                    })
            })
    };
    atom(local) && atom(domain)
}

/// Go's `url.ParseRequestURI`: an absolute URL (`scheme:...`) or an absolute path.
fn uri(s: &str) -> bool {
    if s.contains(|c: char| c.is_ascii_control() || c == ' ') {
        return false;
    }
    if s.starts_with('/') {
        return true;
    }
    match s.split_once(':') {
        Some((scheme, _)) => {
            scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

fn hex_color(s: &str) -> bool {
    let h = s.strip_prefix('#').unwrap_or(s);
    (h.len() == 3 || h.len() == 6) && h.bytes().all(|b| b.is_ascii_hexdigit())
}

fn rgb_color(s: &str) -> bool {
    let Some(inner) = s.strip_prefix("rgb(").and_then(|r| r.strip_suffix(')')) else {
        return false;
    };
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u32>().is_ok_and(|n| n <= 255)
        })
}

/// `ddd-dd-dddd`, a dash or a space between the groups.
fn ssn(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 11
        && b.iter().enumerate().all(|(i, c)| match i {
            3 | 6 => matches!(c, b'-' | b' '),
            _ => c.is_ascii_digit(),
        })
}

#[cfg(test)]
mod tests {
    use super::valid;

    #[test]
    fn formats_accept_and_refuse_as_the_server_does() {
        let cases = [
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
            ("uuid", "123e4567", false),
            ("uuid4", "123e4567-e89b-42d3-a456-426614174000", true),
            ("uuid4", "123e4567-e89b-12d3-a456-426614174000", false),
            ("ipv4", "10.0.0.1", true),
            ("ipv4", "10.0.0.256", false),
            ("ipv6", "::1", true),
            ("ipv6", "10.0.0.1", false),
            ("cidr", "10.0.0.0/8", true),
            ("cidr", "10.0.0.0/33", false),
            ("mac", "00:1a:2b:3c:4d:5e", true),
            ("mac", "00:1a:2b", false),
            ("hostname", "a.example-1.com", true),
            ("hostname", "-a.com", false),
            ("email", "a@b.c", true),
            ("email", "ab.c", false),
            ("uri", "https://example.com/x", true),
            ("uri", "example.com", false),
            ("byte", "aGVsbG8=", true),
            ("byte", "aGVsbG8", false),
            ("date", "2024-02-29", true),
            ("date", "2023-02-29", false),
            ("date-time", "2024-01-02T03:04:05.5+01:00", true),
            ("date-time", "2024-01-02 03:04", false),
            ("duration", "1h30m", true),
            ("duration", "3 days", true),
            ("duration", "soon", false),
            ("hexcolor", "#ff00AA", true),
            ("rgbcolor", "rgb(1, 2, 256)", false),
        ];
        for (format, value, ok) in cases {
            assert_eq!(valid(format, value), Some(ok), "{format} {value}");
        }
        assert_eq!(valid("int-or-anything", "x"), None);
    }
}
