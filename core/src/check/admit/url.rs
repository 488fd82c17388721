//! Kubernetes' URL library for CEL (`url`, `isURL`, and on a URL `getScheme`, `getHost`,
//! `getHostname`, `getPort`, `getEscapedPath`, `getQuery`): a URL is what Go's
//! `url.ParseRequestURI` accepts (an absolute URL or an absolute path), read again as
//! `url.Parse` reads it (a fragment split off, `//host` an authority), the getters as
//! `url.URL`'s methods answer.

use std::collections::BTreeMap;
use std::sync::Arc;

use cel::objects::{Key, Map, Opaque};
use cel::{ExecutionError, Value};

/// A parsed URL: the parts the getters return.
#[derive(Debug, PartialEq, Eq)]
pub struct Url {
    scheme: String,
    /// `host[:port]`, an IPv6 address in brackets, its zone unescaped.
    host: String,
    /// The path, unescaped.
    path: String,
    /// The path as written, when escaping `path` does not give it back.
    raw_path: String,
    /// What follows a scheme without `/` (`mailto:a@b`).
    opaque: String,
    query: String,
}

impl Opaque for Url {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.URL"
    }
}

/// Which part of a URL a byte is escaped for (Go's `encoding` modes).
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Path,
    Host,
    Zone,
    Query,
}

/// Whether Go's `shouldEscape` escapes `c` in `part`.
fn should_escape(c: u8, part: Part) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(part, Part::Host | Part::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match part {
            Part::Path => c == b'?',
            Part::Query => true,
            Part::Host | Part::Zone => true,
        },
        _ => true,
    }
}

fn unhex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Go's `unescape`: `%XX` decoded (`+` as a space in a query), `None` on a bad escape or,
/// in a host, a byte the host may not hold.
fn unescape(s: &str, part: Part) -> Option<String> {
    unescaped(s, part).ok()
}

/// [`unescape`], with Go's error.
fn unescaped(s: &str, part: Part) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let escape = || {
                    format!(
                        "invalid URL escape {:?}",
                        s.get(i..(i + 3).min(s.len())).unwrap_or(&s[i..])
                    )
                };
                let digit = |at: usize| b.get(at).copied().and_then(unhex).ok_or_else(escape);
                let (h, l) = (digit(i + 1)?, digit(i + 2)?);
                if part == Part::Host && h < 8 && &s[i..i + 3] != "%25" {
                    return Err(escape());
                }
                out.push((h << 4) | l);
                i += 3;
            }
            b'+' if part == Part::Query => {
                out.push(b' ');
                i += 1;
            }
            c => {
                if matches!(part, Part::Host | Part::Zone) && c < 0x80 && should_escape(c, part) {
                    return Err(format!(
                        "invalid character {:?} in host name",
                        (c as char).to_string()
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// Go's `escape` for a path.
fn escape_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if should_escape(c, Part::Path) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(c as char);
        }
    }
    out
}

/// `:digits` or nothing.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// Go's `parseHost`.
fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let end = host.rfind(']').ok_or("missing ']' in host")?;
        let port = &host[end + 1..];
        if !valid_optional_port(port) {
            return Err(format!("invalid port {port:?} after host"));
        }
        if let Some(zone) = host[..end].find("%25") {
            return Ok(unescaped(&host[..zone], Part::Host)?
                + &unescaped(&host[zone..end], Part::Zone)?
                + &unescaped(&host[end..], Part::Host)?);
        }
    } else if let Some(colon) = host.rfind(':')
        && !valid_optional_port(&host[colon..])
    {
        return Err(format!("invalid port {:?} after host", &host[colon..]));
    }
    unescaped(host, Part::Host)
}

fn valid_userinfo(s: &str) -> bool {
    s.bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&c))
}

/// `text` as `url.ParseRequestURI` reads it.
pub fn parse(text: &str) -> Option<Url> {
    parsed(text).ok()
}

/// [`parse`], with Go's error (`parse "x": invalid URI for request`).
pub fn parsed(text: &str) -> Result<Url, String> {
    read(text, true).map_err(|e| format!("parse {text:?}: {e}"))?;
    let before_fragment = text.split('#').next().unwrap_or_default();
    read(before_fragment, false).map_err(|e| format!("parse {text:?}: {e}"))
}

/// Go's `url.parse`: as a request's URI (`ParseRequestURI`), or as `url.Parse` reads what
/// precedes a fragment.
fn read(text: &str, via_request: bool) -> Result<Url, String> {
    if text.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if text.is_empty() {
        return Err("empty url".into());
    }
    let mut url = Url {
        scheme: String::new(),
        host: String::new(),
        path: String::new(),
        raw_path: String::new(),
        opaque: String::new(),
        query: String::new(),
    };
    if text == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let mut rest = text;
    for (i, c) in text.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => {
                url.scheme = text[..i].to_ascii_lowercase();
                rest = &text[i + 1..];
                break;
            }
            _ => break,
        }
    }
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        url.query = q.to_string();
        rest = r;
    }
    if !rest.starts_with('/') {
        if url.scheme.is_empty() {
            return Err("invalid URI for request".into());
        }
        url.opaque = rest.to_string();
        return Ok(url);
    }
    let authority = !url.scheme.is_empty() || !via_request && !rest.starts_with("///");
    if authority && let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        let authority = &after[..end];
        rest = &after[end..];
        let host = match authority.rfind('@') {
            Some(at) => {
                if !valid_userinfo(&authority[..at]) {
                    return Err("net/url: invalid userinfo".into());
                }
                &authority[at + 1..]
            }
            None => authority,
        };
        url.host = parse_host(host)?;
    }
    url.path = unescaped(rest, Part::Path)?;
    if escape_path(&url.path) != rest {
        url.raw_path = rest.to_string();
    }
    Ok(url)
}

impl Url {
    /// Go's `EscapedPath`: the path as written when that is a valid encoding of it.
    fn escaped_path(&self) -> String {
        let valid = |s: &str| {
            s.bytes()
                .all(|c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, Part::Path))
        };
        if !self.raw_path.is_empty()
            && valid(&self.raw_path)
            && unescape(&self.raw_path, Part::Path).as_deref() == Some(self.path.as_str())
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".into();
        }
        escape_path(&self.path)
    }

    /// Go's `splitHostPort` of the host: the name without brackets, and the port.
    fn host_port(&self) -> (&str, &str) {
        let (mut host, mut port) = (self.host.as_str(), "");
        if let Some(colon) = host.rfind(':')
            && valid_optional_port(&host[colon..])
        {
            (host, port) = (&self.host[..colon], &self.host[colon + 1..]);
        }
        if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            host = inner;
        }
        (host, port)
    }

    /// Go's `Query`: `&`-separated pairs, a pair with `;` or a bad escape left out.
    fn query(&self) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for pair in self.query.split('&') {
            if pair.is_empty() || pair.contains(';') {
                continue;
            }
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            if let (Some(k), Some(v)) = (unescape(k, Part::Query), unescape(v, Part::Query)) {
                out.entry(k).or_default().push(v);
            }
        }
        out
    }
}

fn fail(f: &str, message: impl ToString) -> ExecutionError {
    ExecutionError::function_error(f, message)
}

fn text<'a>(f: &str, v: &'a [Value]) -> Result<&'a str, ExecutionError> {
    match v.first() {
        Some(Value::String(s)) => Ok(s),
        _ => Err(fail(f, "no such overload")),
    }
}

fn this<'a>(f: &str, v: &'a [Value]) -> Result<&'a Url, ExecutionError> {
    match v.first() {
        Some(Value::Opaque(o)) => o.downcast_ref::<Url>(),
        _ => None,
    }
    .ok_or_else(|| fail(f, "no such overload"))
}

fn string(s: &str) -> Value {
    Value::String(Arc::new(s.to_string()))
}

/// `url(string)`.
pub fn url(v: &[Value]) -> Result<Value, ExecutionError> {
    let s = text("url", v)?;
    let url = parsed(s).map_err(|e| {
        fail(
            "url",
            format!("URL parse error during conversion from string: {e}"),
        )
    })?;
    Ok(Value::Opaque(Arc::new(url)))
}

/// `isURL(string)`.
pub fn is_url(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(parse(text("isURL", v)?).is_some()))
}

/// `u.getScheme()`.
pub fn get_scheme(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(string(&this("getScheme", v)?.scheme))
}

/// `u.getHost()`.
pub fn get_host(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(string(&this("getHost", v)?.host))
}

/// `u.getHostname()`.
pub fn get_hostname(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(string(this("getHostname", v)?.host_port().0))
}

/// `u.getPort()`.
pub fn get_port(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(string(this("getPort", v)?.host_port().1))
}

/// `u.getEscapedPath()`.
pub fn get_escaped_path(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(string(&this("getEscapedPath", v)?.escaped_path()))
}

/// `u.getQuery()`: each key's values.
pub fn get_query(v: &[Value]) -> Result<Value, ExecutionError> {
    let query = this("getQuery", v)?.query();
    let map: std::collections::HashMap<Key, Value> = query
        .into_iter()
        .map(|(k, vs)| {
            let list = vs.iter().map(|s| string(s)).collect();
            (Key::String(Arc::new(k)), Value::List(Arc::new(list)))
        })
        .collect();
    Ok(Value::Map(Map { map: Arc::new(map) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_parse_as_go_parses_request_uris() {
        let u = parse("https://user@example.com:8443/a%20b?x=1&x=2&y").unwrap();
        assert_eq!(
            (u.scheme.as_str(), u.host.as_str()),
            ("https", "example.com:8443")
        );
        assert_eq!(u.host_port(), ("example.com", "8443"));
        assert_eq!(u.escaped_path(), "/a%20b");
        assert_eq!(u.query()["x"], ["1", "2"]);
        assert_eq!(
            parse("http://[::1]:80/").unwrap().host_port(),
            ("::1", "80")
        );
        assert_eq!(parse("https://h/a b").unwrap().escaped_path(), "/a%20b");
        assert_eq!(parse("mailto:a@b").unwrap().opaque, "a@b");
        assert!(parse("/path").is_some() && parse("*").is_some());
        for bad in [
            "",
            "example.com",
            "rel/path",
            ":x",
            "http://h:port/",
            "https://a b/",
            "/%zz",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }
}
