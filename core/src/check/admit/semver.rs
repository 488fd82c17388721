//! Kubernetes' semver library for CEL (`semver`, `isSemver`, each with an optional
//! `normalize` flag, and on a version `major`, `minor`, `patch`, `compareTo`,
//! `isGreaterThan`, `isLessThan`): versions as `blang/semver`'s strict `Parse` reads them
//! (`1.2.3-rc.1+build`), ordered by semantic versioning's precedence (build metadata ignored).

use std::cmp::Ordering;
use std::sync::Arc;

use cel::objects::Opaque;
use cel::{ExecutionError, Value};

/// A semantic version.
#[derive(Debug, Clone)]
pub struct Semver {
    core: [u64; 3],
    pre: Vec<Pre>,
}

/// A pre-release identifier: numeric ones order before alphanumeric ones.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Pre {
    Number(u64),
    Text(String),
}

impl Opaque for Semver {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Semver"
    }
}

impl PartialEq for Semver {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Semver {}

impl PartialOrd for Semver {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Semver {
    fn cmp(&self, other: &Self) -> Ordering {
        self.core
            .cmp(&other.core)
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => self.pre.cmp(&other.pre),
            })
    }
}

/// A number of digits only, without leading zeros.
fn number(s: &str) -> Option<u64> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits && !(s.len() > 1 && s.starts_with('0')))
        .then(|| s.parse().ok())
        .flatten()
}

fn identifier_chars(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// `text` as `semver.Parse` reads it: `MAJOR.MINOR.PATCH`, then `-` and dot-separated
/// pre-release identifiers, then `+` and dot-separated build identifiers.
pub fn parse(text: &str) -> Option<Semver> {
    let mut parts = text.splitn(3, '.');
    let (major, minor, rest) = (parts.next()?, parts.next()?, parts.next()?);
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (rest, None),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((p, pre)) => (p, Some(pre)),
        None => (rest, None),
    };
    let core = [number(major)?, number(minor)?, number(patch)?];
    let pre = match pre {
        None => Vec::new(),
        Some(pre) => pre
            .split('.')
            .map(|id| {
                if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
                    number(id).map(Pre::Number)
                } else {
                    identifier_chars(id).then(|| Pre::Text(id.to_string()))
                }
            })
            .collect::<Option<_>>()?,
    };
    if let Some(build) = build
        && !build.split('.').all(identifier_chars)
    {
        return None;
    }
    Some(Semver { core, pre })
}

/// What `normalize` makes of `text` before parsing: no leading `v`, no leading zeros in the
/// version's numbers, a missing minor or patch number as `0`.
fn normalize(text: &str) -> String {
    let text = text.strip_prefix('v').unwrap_or(text);
    let split = text.find(['-', '+']).unwrap_or(text.len());
    let (core, extra) = text.split_at(split);
    let mut parts: Vec<String> = core
        .split('.')
        .map(|p| {
            let trimmed = p.trim_start_matches('0');
            if p.len() > 1
                && (trimmed.is_empty() || !trimmed.starts_with(|c: char| c.is_ascii_digit()))
            {
                format!("0{trimmed}")
            } else if p.len() > 1 {
                trimmed.to_string()
            } else {
                p.to_string()
            }
        })
        .collect();
    while parts.len() < 3 {
        parts.push("0".into());
    }
    parts.join(".") + extra
}

fn fail(f: &str, message: impl ToString) -> ExecutionError {
    ExecutionError::function_error(f, message)
}

/// The string argument and the `normalize` flag of `semver` or `isSemver`.
fn read(f: &str, v: &[Value]) -> Result<Option<Semver>, ExecutionError> {
    let text = match v.first() {
        Some(Value::String(s)) => s.as_str(),
        _ => return Err(fail(f, "no such overload")),
    };
    Ok(match v.get(1) {
        None | Some(Value::Bool(false)) => parse(text),
        Some(Value::Bool(true)) => parse(&normalize(text)),
        Some(_) => return Err(fail(f, "no such overload")),
    })
}

/// `semver(string)`, `semver(string, bool)`.
pub fn semver(v: &[Value]) -> Result<Value, ExecutionError> {
    let version = read("semver", v)?.ok_or_else(|| fail("semver", "could not parse semver"))?;
    Ok(Value::Opaque(Arc::new(version)))
}

/// `isSemver(string)`, `isSemver(string, bool)`.
pub fn is_semver(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(read("isSemver", v)?.is_some()))
}

/// The version `v` is, if it is one.
pub fn of(v: Option<&Value>) -> Option<&Semver> {
    match v {
        Some(Value::Opaque(o)) => o.downcast_ref::<Semver>(),
        _ => None,
    }
}

fn part(f: &str, v: &[Value], i: usize) -> Result<Value, ExecutionError> {
    let version = of(v.first()).ok_or_else(|| fail(f, "no such overload"))?;
    i64::try_from(version.core[i])
        .map(Value::Int)
        .map_err(|_| fail(f, "integer overflow"))
}

/// `v.major()`.
pub fn major(v: &[Value]) -> Result<Value, ExecutionError> {
    part("major", v, 0)
}

/// `v.minor()`.
pub fn minor(v: &[Value]) -> Result<Value, ExecutionError> {
    part("minor", v, 1)
}

/// `v.patch()`.
pub fn patch(v: &[Value]) -> Result<Value, ExecutionError> {
    part("patch", v, 2)
}

/// How version `v[0]` compares with version `v[1]`.
pub fn ordering(f: &str, v: &[Value]) -> Result<Ordering, ExecutionError> {
    match (of(v.first()), of(v.get(1))) {
        (Some(a), Some(b)) => Ok(a.cmp(b)),
        _ => Err(fail(f, "no such overload")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_order_as_semantic_versioning_says() {
        for good in [
            "0.0.0",
            "1.2.3",
            "1.2.3-rc.1",
            "1.2.3-0",
            "1.2.3+b.5",
            "1.2.3-a-b+c",
        ] {
            assert!(parse(good).is_some(), "{good}");
        }
        for bad in [
            "", "1.2", "v1.2.3", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.3+", "1.2.3.4",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
        let order = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.10.0",
        ];
        for pair in order.windows(2) {
            assert!(parse(pair[0]) < parse(pair[1]), "{pair:?}");
        }
        assert_eq!(parse("1.2.3+a"), parse("1.2.3+b"));
        assert_eq!(normalize("v1.02"), "1.2.0");
        assert_eq!(normalize("v1-rc.1"), "1.0.0-rc.1");
    }
}
