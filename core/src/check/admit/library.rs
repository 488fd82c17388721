//! The Kubernetes CEL libraries, registered on the `cel` crate's environment: lists
//! (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`), regex (`find`, `findAll`),
//! IP addresses (`ip`, `isIP`, `ip.isCanonical`, `family`, `isUnspecified`, `isLoopback`,
//! `isLinkLocalMulticast`, `isLinkLocalUnicast`, `isGlobalUnicast`) and CIDRs (`cidr`,
//! `isCIDR`, `containsIP`, `containsCIDR`, `ip`, `masked`, `prefixLength`) and quantities
//! (`quantity`, `isQuantity` and the methods of `quantity`), semantic versions (`semver`,
//! `isSemver` and the methods of `semver`), URLs (`url`, `isURL` and the getters of `url`)
//! sets (`sets.contains`, `sets.equivalent`, `sets.intersects`) and named formats
//! (`format.named`, `format.<name>()`, `validate`), and the functions `macros`' rewrites call
//! (two-variable comprehensions, timestamps' getters in UTC). What the `cel` crate has itself
//! (the standard library with `matches`, timestamps and durations, cel-go's strings and lists
//! extensions, optionals) is used as it is.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use cel::common::types::DYN_TYPE;
use cel::common::value::{CowVal, Val};
use cel::objects::{Key, Map, Opaque};
use cel::{DeclarationError, Env, ExecutionError, Value};

use chrono::Datelike;

use super::{format_named, macros, quantity, semver, time, url};

/// The environment rules are evaluated in.
pub fn env() -> Result<Env, DeclarationError> {
    let mut env = Env::stdlib();
    env.add_extension(cel::extensions::strings)?;
    env.add_extension(cel::extensions::lists)?;
    macros::add(&mut env)?;
    for (name, arity, f) in MEMBERS {
        env.add_member_overload(
            name,
            &format!("kubegen.{name}.{arity}"),
            DYN_TYPE,
            (0..*arity).map(|_| DYN_TYPE).collect(),
            *f,
        )?;
    }
    for (name, arity, f) in GLOBALS {
        env.add_overload(
            name,
            &format!("kubegen.{name}.{arity}"),
            (0..*arity).map(|_| DYN_TYPE).collect(),
            *f,
        )?;
    }
    Ok(env)
}

type Lifted = for<'b, 'v> fn(Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError>;

/// A function over [`Value`]s as an overload of the environment.
macro_rules! lift {
    ($f:path) => {{
        fn lifted<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
            let values = args
                .iter()
                .map(|a| Value::try_from(a.as_ref()))
                .collect::<Result<Vec<_>, _>>()?;
            let out: Box<dyn Val> = $f(&values)?.try_into()?;
            Ok(CowVal::from(out))
        }
        lifted as Lifted
    }};
}

/// `format.<name>()`, the named format.
macro_rules! named_format {
    ($name:literal) => {{
        fn constant(_: &[Value]) -> Result<Value, ExecutionError> {
            Ok(format_named::constant($name))
        }
        lift!(constant)
    }};
}

/// Member functions: name, arguments after the receiver, implementation.
const MEMBERS: &[(&str, usize, Lifted)] = &[
    ("isSorted", 0, lift!(is_sorted)),
    ("sum", 0, lift!(sum)),
    ("min", 0, lift!(min)),
    ("max", 0, lift!(max)),
    ("indexOf", 1, lift!(index_of)),
    ("lastIndexOf", 1, lift!(last_index_of)),
    ("find", 1, lift!(find)),
    ("findAll", 1, lift!(find_all)),
    ("findAll", 2, lift!(find_all)),
    ("family", 0, lift!(family)),
    ("isUnspecified", 0, lift!(is_unspecified)),
    ("isLoopback", 0, lift!(is_loopback)),
    ("isLinkLocalMulticast", 0, lift!(is_link_local_multicast)),
    ("isLinkLocalUnicast", 0, lift!(is_link_local_unicast)),
    ("isGlobalUnicast", 0, lift!(is_global_unicast)),
    ("containsIP", 1, lift!(contains_ip)),
    ("containsCIDR", 1, lift!(contains_cidr)),
    ("ip", 0, lift!(cidr_ip)),
    ("masked", 0, lift!(masked)),
    ("prefixLength", 0, lift!(prefix_length)),
    ("isInteger", 0, lift!(quantity::is_integer)),
    ("asInteger", 0, lift!(quantity::as_integer)),
    (
        "asApproximateFloat",
        0,
        lift!(quantity::as_approximate_float),
    ),
    ("add", 1, lift!(quantity::add)),
    ("sub", 1, lift!(quantity::sub)),
    ("compareTo", 1, lift!(compare_to)),
    ("isGreaterThan", 1, lift!(is_greater_than)),
    ("isLessThan", 1, lift!(is_less_than)),
    ("major", 0, lift!(semver::major)),
    ("minor", 0, lift!(semver::minor)),
    ("patch", 0, lift!(semver::patch)),
    ("getScheme", 0, lift!(url::get_scheme)),
    ("getHost", 0, lift!(url::get_host)),
    ("getHostname", 0, lift!(url::get_hostname)),
    ("getPort", 0, lift!(url::get_port)),
    ("getEscapedPath", 0, lift!(url::get_escaped_path)),
    ("getQuery", 0, lift!(url::get_query)),
    ("validate", 1, lift!(format_named::validate)),
];

/// Global functions.
const GLOBALS: &[(&str, usize, Lifted)] = &[
    (macros::UTC, 1, lift!(utc)),
    (macros::PAIRS, 1, lift!(pairs)),
    (macros::TO_MAP, 1, lift!(to_map)),
    (macros::MERGE, 1, lift!(merge)),
    (macros::TIMESTAMP, 1, lift!(timestamp)),
    (macros::DURATION, 1, lift!(duration)),
    (macros::STRING, 1, lift!(string)),
    (macros::OWN_STRING, 1, lift!(own_string)),
    ("isIP", 1, lift!(is_ip)),
    ("ip", 1, lift!(ip)),
    ("ip.isCanonical", 1, lift!(ip_is_canonical)),
    ("isCIDR", 1, lift!(is_cidr)),
    ("cidr", 1, lift!(cidr)),
    ("quantity", 1, lift!(quantity::quantity)),
    ("isQuantity", 1, lift!(quantity::is_quantity)),
    ("semver", 1, lift!(semver::semver)),
    ("semver", 2, lift!(semver::semver)),
    ("isSemver", 1, lift!(semver::is_semver)),
    ("isSemver", 2, lift!(semver::is_semver)),
    ("url", 1, lift!(url::url)),
    ("isURL", 1, lift!(url::is_url)),
    ("sets.contains", 2, lift!(sets_contains)),
    ("sets.equivalent", 2, lift!(sets_equivalent)),
    ("sets.intersects", 2, lift!(sets_intersects)),
    ("format.named", 1, lift!(format_named::named)),
    ("format.dns1123Label", 0, named_format!("dns1123Label")),
    (
        "format.dns1123Subdomain",
        0,
        named_format!("dns1123Subdomain"),
    ),
    ("format.dns1035Label", 0, named_format!("dns1035Label")),
    ("format.qualifiedName", 0, named_format!("qualifiedName")),
    (
        "format.dns1123LabelPrefix",
        0,
        named_format!("dns1123LabelPrefix"),
    ),
    (
        "format.dns1123SubdomainPrefix",
        0,
        named_format!("dns1123SubdomainPrefix"),
    ),
    (
        "format.dns1035LabelPrefix",
        0,
        named_format!("dns1035LabelPrefix"),
    ),
    ("format.labelValue", 0, named_format!("labelValue")),
    ("format.uri", 0, named_format!("uri")),
    ("format.uuid", 0, named_format!("uuid")),
    ("format.byte", 0, named_format!("byte")),
    ("format.date", 0, named_format!("date")),
    ("format.datetime", 0, named_format!("datetime")),
];

fn fail(function: &str, message: impl ToString) -> ExecutionError {
    ExecutionError::function_error(function, message)
}

fn list<'a>(f: &str, v: &'a [Value]) -> Result<&'a [Value], ExecutionError> {
    match v.first() {
        Some(Value::List(items)) => Ok(items),
        _ => Err(fail(f, "no such overload")),
    }
}

fn text<'a>(f: &str, v: Option<&'a Value>) -> Result<&'a str, ExecutionError> {
    match v {
        Some(Value::String(s)) => Ok(s),
        _ => Err(fail(f, "no such overload")),
    }
}

fn compare(f: &str, a: &Value, b: &Value) -> Result<Ordering, ExecutionError> {
    a.partial_cmp(b)
        .ok_or_else(|| fail(f, "values are not comparable"))
}

fn is_sorted(v: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("isSorted", v)?;
    for pair in items.windows(2) {
        if compare("isSorted", &pair[0], &pair[1])? == Ordering::Greater {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

fn sum(v: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("sum", v)?;
    let mut ints: i64 = 0;
    let mut floats = 0.0;
    let mut is_float = false;
    for x in items {
        match x {
            Value::Int(i) => {
                ints = ints
                    .checked_add(*i)
                    .ok_or_else(|| fail("sum", "integer overflow"))?
            }
            Value::UInt(u) => ints = ints.saturating_add(*u as i64),
            Value::Float(f) => {
                is_float = true;
                floats += f
            }
            _ => return Err(fail("sum", "no such overload")),
        }
    }
    Ok(if is_float {
        Value::Float(floats + ints as f64)
    } else {
        Value::Int(ints)
    })
}

fn extreme(f: &str, v: &[Value], want: Ordering) -> Result<Value, ExecutionError> {
    let items = list(f, v)?;
    let mut best = items
        .first()
        .ok_or_else(|| fail(f, format!("{f}(list) called on an empty list")))?;
    for x in &items[1..] {
        if compare(f, x, best)? == want {
            best = x;
        }
    }
    Ok(best.clone())
}

fn min(v: &[Value]) -> Result<Value, ExecutionError> {
    extreme("min", v, Ordering::Less)
}

fn max(v: &[Value]) -> Result<Value, ExecutionError> {
    extreme("max", v, Ordering::Greater)
}

fn index_of(v: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("indexOf", v)?;
    let i = items.iter().position(|x| Some(x) == v.get(1));
    Ok(Value::Int(i.map_or(-1, |i| i as i64)))
}

fn last_index_of(v: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("lastIndexOf", v)?;
    let i = items.iter().rposition(|x| Some(x) == v.get(1));
    Ok(Value::Int(i.map_or(-1, |i| i as i64)))
}

/// How `v[0]` compares with `v[1]`: two versions, or two quantities.
fn ordering(f: &str, v: &[Value]) -> Result<Ordering, ExecutionError> {
    match semver::of(v.first()) {
        Some(_) => semver::ordering(f, v),
        None => quantity::ordering(f, v),
    }
}

fn compare_to(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Int(ordering("compareTo", v)? as i64))
}

fn is_greater_than(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        ordering("isGreaterThan", v)? == Ordering::Greater,
    ))
}

fn is_less_than(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(ordering("isLessThan", v)? == Ordering::Less))
}

/// The two lists of a `sets` function.
fn two_lists<'a>(f: &str, v: &'a [Value]) -> Result<(&'a [Value], &'a [Value]), ExecutionError> {
    match (v.first(), v.get(1)) {
        (Some(Value::List(a)), Some(Value::List(b))) => Ok((a, b)),
        _ => Err(fail(f, "no such overload")),
    }
}

/// `sets.contains(a, b)`: every element of `b` is in `a`.
fn sets_contains(v: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = two_lists("sets.contains", v)?;
    Ok(Value::Bool(b.iter().all(|x| a.contains(x))))
}

/// `sets.equivalent(a, b)`: each contains the other.
fn sets_equivalent(v: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = two_lists("sets.equivalent", v)?;
    Ok(Value::Bool(
        b.iter().all(|x| a.contains(x)) && a.iter().all(|x| b.contains(x)),
    ))
}

/// `sets.intersects(a, b)`: an element in both.
fn sets_intersects(v: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = two_lists("sets.intersects", v)?;
    Ok(Value::Bool(b.iter().any(|x| a.contains(x))))
}

/// A timestamp in UTC (for its getters); any other value as it is.
fn utc(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(match v.first() {
        Some(Value::Timestamp(t)) => Value::Timestamp(t.to_utc().fixed_offset()),
        Some(other) => other.clone(),
        None => Value::Null,
    })
}

/// `timestamp(x)`: a string in RFC 3339, seconds since the epoch, or a timestamp, within
/// CEL's years 1 to 9999.
fn timestamp(v: &[Value]) -> Result<Value, ExecutionError> {
    let t = match v.first() {
        Some(Value::String(s)) => time::rfc3339(s),
        Some(Value::Int(secs)) => {
            chrono::DateTime::from_timestamp(*secs, 0).map(|t| t.fixed_offset())
        }
        Some(Value::Timestamp(t)) => Some(*t),
        _ => return Err(fail("timestamp", "no such overload")),
    };
    let in_range =
        |t: &chrono::DateTime<chrono::FixedOffset>| (1..=9999).contains(&t.to_utc().year());
    t.filter(in_range)
        .map(Value::Timestamp)
        .ok_or_else(|| fail("timestamp", "type conversion error"))
}

/// `duration(x)`: a string in Go's syntax, or a duration.
fn duration(v: &[Value]) -> Result<Value, ExecutionError> {
    match v.first() {
        Some(Value::String(s)) => time::go_duration(s)
            .map(Value::Duration)
            .ok_or_else(|| fail("duration", "type conversion error")),
        Some(Value::Duration(d)) => Ok(Value::Duration(*d)),
        _ => Err(fail("duration", "no such overload")),
    }
}

/// Whether `string(x)` is kubegen's to write: a timestamp, an IP address or a CIDR.
fn own_string(v: &[Value]) -> Result<Value, ExecutionError> {
    let own = matches!(v.first(), Some(Value::Timestamp(_)))
        || opaque::<Ip>(v.first()).is_some()
        || opaque::<Cidr>(v.first()).is_some();
    Ok(Value::Bool(own))
}

/// `string(x)` of what [`own_string`] accepts: a timestamp in its own offset, an address and a
/// CIDR as Go's `netip` writes them.
fn string(v: &[Value]) -> Result<Value, ExecutionError> {
    let text = match v.first() {
        Some(Value::Timestamp(t)) => time::format(t),
        other => match (opaque::<Ip>(other), opaque::<Cidr>(other)) {
            (Some(ip), _) => ip.0.to_string(),
            (_, Some(c)) => format!("{}/{}", c.0, c.1),
            _ => return Err(fail("string", "no such overload")),
        },
    };
    Ok(Value::String(Arc::new(text)))
}

/// The `[index, item]` pairs of a list, or the `[key, value]` pairs of a map (by key).
fn pairs(v: &[Value]) -> Result<Value, ExecutionError> {
    let pair = |k: Value, x: &Value| Value::List(Arc::new(vec![k, x.clone()]));
    let out = match v.first() {
        Some(Value::List(items)) => items
            .iter()
            .enumerate()
            .map(|(i, x)| pair(Value::Int(i as i64), x))
            .collect(),
        Some(Value::Map(m)) => {
            let mut entries: Vec<_> = m.map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            entries
                .into_iter()
                .map(|(k, x)| pair(Value::from(k.clone()), x))
                .collect()
        }
        _ => return Err(fail("comprehension", "no such overload")),
    };
    Ok(Value::List(Arc::new(out)))
}

/// A map key from a value.
fn key(v: &Value) -> Result<Key, ExecutionError> {
    match v {
        Value::Int(i) => Ok(Key::Int(*i)),
        Value::UInt(u) => Ok(Key::Uint(*u)),
        Value::Bool(b) => Ok(Key::Bool(*b)),
        Value::String(s) => Ok(Key::String(s.clone())),
        other => Err(fail(
            "transformMap",
            format!("unsupported key type: {other:?}"),
        )),
    }
}

/// A map key as cel-go prints it.
fn key_text(k: &Key) -> String {
    match k {
        Key::String(s) => s.to_string(),
        Key::Int(i) => i.to_string(),
        Key::Uint(u) => u.to_string(),
        Key::Bool(b) => b.to_string(),
    }
}

/// `transformMap`'s result: the map of `[key, value]` pairs.
fn to_map(v: &[Value]) -> Result<Value, ExecutionError> {
    let mut out = HashMap::new();
    for pair in list("transformMap", v)? {
        if let Value::List(kv) = pair
            && let [k, x] = kv.as_slice()
        {
            out.insert(key(k)?, x.clone());
        }
    }
    Ok(Value::Map(Map { map: Arc::new(out) }))
}

/// `transformMapEntry`'s result: the entries of every map, a key given twice an error.
fn merge(v: &[Value]) -> Result<Value, ExecutionError> {
    let mut out = HashMap::new();
    for entry in list("transformMapEntry", v)? {
        let Value::Map(m) = entry else {
            return Err(fail("transformMapEntry", "no such overload"));
        };
        for (k, x) in m.map.iter() {
            if out.insert(k.clone(), x.clone()).is_some() {
                return Err(fail(
                    "transformMapEntry",
                    format!("insert failed: key {} already exists", key_text(k)),
                ));
            }
        }
    }
    Ok(Value::Map(Map { map: Arc::new(out) }))
}

fn regex(f: &str, pattern: &str) -> Result<regex::Regex, ExecutionError> {
    regex::Regex::new(pattern).map_err(|e| fail(f, e))
}

fn find(v: &[Value]) -> Result<Value, ExecutionError> {
    let s = text("find", v.first())?;
    let re = regex("find", text("find", v.get(1))?)?;
    let found = re.find(s).map_or("", |m| m.as_str());
    Ok(Value::String(Arc::new(found.to_string())))
}

fn find_all(v: &[Value]) -> Result<Value, ExecutionError> {
    let s = text("findAll", v.first())?;
    let re = regex("findAll", text("findAll", v.get(1))?)?;
    let limit = match v.get(2) {
        Some(Value::Int(n)) if *n >= 0 => *n as usize,
        _ => usize::MAX,
    };
    let all = re
        .find_iter(s)
        .take(limit)
        .map(|m| Value::String(Arc::new(m.as_str().to_string())))
        .collect();
    Ok(Value::List(Arc::new(all)))
}

/// A Kubernetes `net.IP`.
#[derive(Debug, PartialEq, Eq)]
struct Ip(IpAddr);

impl Opaque for Ip {
    fn runtime_type_name(&self) -> &str {
        "net.IP"
    }
}

/// A Kubernetes `net.CIDR`: an address and a prefix length.
#[derive(Debug, PartialEq, Eq)]
struct Cidr(IpAddr, u8);

impl Opaque for Cidr {
    fn runtime_type_name(&self) -> &str {
        "net.CIDR"
    }
}

/// An address as Kubernetes' `ip()` parses it: no zone, no IPv4-mapped IPv6 address.
fn parse_ip(s: &str) -> Option<IpAddr> {
    let ip: IpAddr = s.parse().ok()?;
    match ip {
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some() => None,
        _ => Some(ip),
    }
}

fn parse_cidr(s: &str) -> Option<Cidr> {
    let (ip, bits) = s.split_once('/')?;
    let ip = parse_ip(ip)?;
    if bits.len() > 1 && bits.starts_with('0') || !bits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let bits: u8 = bits.parse().ok()?;
    let max = if ip.is_ipv4() { 32 } else { 128 };
    (bits <= max).then_some(Cidr(ip, bits))
}

fn opaque<T: 'static>(v: Option<&Value>) -> Option<&T> {
    match v {
        Some(Value::Opaque(o)) => o.downcast_ref::<T>(),
        _ => None,
    }
}

fn this_ip(f: &str, v: &[Value]) -> Result<IpAddr, ExecutionError> {
    opaque::<Ip>(v.first())
        .map(|ip| ip.0)
        .ok_or_else(|| fail(f, "no such overload"))
}

fn is_ip(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(parse_ip(text("isIP", v.first())?).is_some()))
}

fn ip(v: &[Value]) -> Result<Value, ExecutionError> {
    let s = text("ip", v.first())?;
    let ip = parse_ip(s).ok_or_else(|| fail("ip", format!("IP Address {s:?} parse error")))?;
    Ok(Value::Opaque(Arc::new(Ip(ip))))
}

fn ip_is_canonical(v: &[Value]) -> Result<Value, ExecutionError> {
    let s = text("ip.isCanonical", v.first())?;
    let ip = parse_ip(s)
        .ok_or_else(|| fail("ip.isCanonical", format!("IP Address {s:?} parse error")))?;
    Ok(Value::Bool(ip.to_string() == s))
}

fn family(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Int(if this_ip("family", v)?.is_ipv4() {
        4
    } else {
        6
    }))
}

fn is_unspecified(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(this_ip("isUnspecified", v)?.is_unspecified()))
}

fn is_loopback(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(this_ip("isLoopback", v)?.is_loopback()))
}

fn is_link_local_multicast(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(match this_ip("isLinkLocalMulticast", v)? {
        IpAddr::V4(a) => a.octets()[..3] == [224, 0, 0],
        IpAddr::V6(a) => a.segments()[0] & 0xff0f == 0xff02,
    }))
}

fn is_link_local_unicast(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(match this_ip("isLinkLocalUnicast", v)? {
        IpAddr::V4(a) => a.is_link_local(),
        IpAddr::V6(a) => a.segments()[0] & 0xffc0 == 0xfe80,
    }))
}

/// Go's `IP.IsGlobalUnicast`: not unspecified, loopback, multicast, link-local or broadcast.
fn is_global_unicast(v: &[Value]) -> Result<Value, ExecutionError> {
    let ip = this_ip("isGlobalUnicast", v)?;
    let local = is_link_local_unicast(v)? == Value::Bool(true);
    let broadcast = matches!(ip, IpAddr::V4(a) if a.is_broadcast());
    Ok(Value::Bool(
        !(ip.is_unspecified() || ip.is_loopback() || ip.is_multicast() || local || broadcast),
    ))
}

fn is_cidr(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        parse_cidr(text("isCIDR", v.first())?).is_some(),
    ))
}

fn cidr(v: &[Value]) -> Result<Value, ExecutionError> {
    let s = text("cidr", v.first())?;
    let c =
        parse_cidr(s).ok_or_else(|| fail("cidr", format!("network address {s:?} parse error")))?;
    Ok(Value::Opaque(Arc::new(c)))
}

fn this_cidr<'a>(f: &str, v: &'a [Value]) -> Result<&'a Cidr, ExecutionError> {
    opaque::<Cidr>(v.first()).ok_or_else(|| fail(f, "no such overload"))
}

/// The bits of `ip` kept by a prefix of `bits`.
fn mask(ip: IpAddr, bits: u8) -> u128 {
    let (n, width) = match ip {
        IpAddr::V4(a) => (u32::from(a) as u128, 32),
        IpAddr::V6(a) => (u128::from(a), 128),
    };
    let keep = width - u32::from(bits);
    if keep >= 128 { 0 } else { (n >> keep) << keep }
}

fn contains_ip(v: &[Value]) -> Result<Value, ExecutionError> {
    let c = this_cidr("containsIP", v)?;
    let ip = match v.get(1) {
        Some(Value::String(s)) => parse_ip(s)
            .ok_or_else(|| fail("containsIP", format!("IP Address {s:?} parse error")))?,
        other => opaque::<Ip>(other)
            .map(|ip| ip.0)
            .ok_or_else(|| fail("containsIP", "no such overload"))?,
    };
    let same_family = ip.is_ipv4() == c.0.is_ipv4();
    Ok(Value::Bool(same_family && mask(ip, c.1) == mask(c.0, c.1)))
}

fn contains_cidr(v: &[Value]) -> Result<Value, ExecutionError> {
    let c = this_cidr("containsCIDR", v)?;
    let other = match v.get(1) {
        Some(Value::String(s)) => parse_cidr(s)
            .ok_or_else(|| fail("containsCIDR", format!("network address {s:?} parse error")))?,
        other => {
            let o =
                opaque::<Cidr>(other).ok_or_else(|| fail("containsCIDR", "no such overload"))?;
            Cidr(o.0, o.1)
        }
    };
    let same_family = other.0.is_ipv4() == c.0.is_ipv4();
    Ok(Value::Bool(
        same_family && other.1 >= c.1 && mask(other.0, c.1) == mask(c.0, c.1),
    ))
}

fn cidr_ip(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Opaque(Arc::new(Ip(this_cidr("ip", v)?.0))))
}

fn masked(v: &[Value]) -> Result<Value, ExecutionError> {
    let c = this_cidr("masked", v)?;
    let n = mask(c.0, c.1);
    let ip = match c.0 {
        IpAddr::V4(_) => IpAddr::V4((n as u32).into()),
        IpAddr::V6(_) => IpAddr::V6(n.into()),
    };
    Ok(Value::Opaque(Arc::new(Cidr(ip, c.1))))
}

fn prefix_length(v: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Int(i64::from(this_cidr("prefixLength", v)?.1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(expr: &str) -> Result<Value, ExecutionError> {
        let env = Arc::new(env().unwrap());
        let program = env.compile(expr).unwrap();
        program.execute(&cel::Context::with_env(env))
    }

    #[test]
    fn the_kubernetes_libraries_evaluate() {
        let truths = [
            "[1, 2, 2].isSorted() && ![2, 1].isSorted()",
            "[1, 2, 3].sum() == 6 && [1.5, 2.0].sum() == 3.5",
            "[3, 1, 2].min() == 1 && ['b', 'c', 'a'].max() == 'c'",
            "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1",
            "'abc'.indexOf('c') == 2",
            "'a1b22'.find('[0-9]+') == '1' && 'a1b22'.findAll('[0-9]+') == ['1', '22']",
            "'a1b22c3'.findAll('[0-9]+', 2) == ['1', '22']",
            "'abc'.matches('^a')",
            "isIP('10.0.0.1') && !isIP('10.0.0.300') && !isIP('::ffff:1.2.3.4')",
            "ip('10.0.0.1').family() == 4 && ip('::1').isLoopback() && ip('::1').family() == 6",
            "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')",
            "ip('8.8.8.8').isGlobalUnicast() && !ip('127.0.0.1').isGlobalUnicast()",
            "cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))",
            "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')",
            "cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8') && cidr('10.1.2.3/8').prefixLength() == 8",
            "cidr('10.1.2.3/8').ip() == ip('10.1.2.3') && isCIDR('::/0') && !isCIDR('10.0.0.0/40')",
            "['a', 'b'].join('-') == 'a-b' && 'ABC'.lowerAscii() == 'abc'",
            "quantity('1Gi') == quantity('1024Mi') && isQuantity('500m') && !isQuantity('5 m')",
            "quantity('1.5').isGreaterThan(quantity('1')) && quantity('1').isLessThan(quantity('2k'))",
            "quantity('2').asInteger() == 2 && quantity('500m').asApproximateFloat() == 0.5",
            "!quantity('500m').isInteger() && quantity('1').add(quantity('500m')) == quantity('1500m')",
            "quantity('1').sub(1) == quantity('0') && quantity('1k').compareTo(quantity('1')) == 1",
            "sets.contains([1, 2], [2]) && sets.equivalent([1, 2, 2], [2, 1]) && !sets.intersects([1], [2])",
            "semver('1.2.3').isLessThan(semver('1.10.0')) && semver('v1.2', true).minor() == 2",
            "isSemver('1.0.0-rc.1') && !isSemver('1.0') && semver('2.0.0').compareTo(semver('2.0.0+b')) == 0",
            "url('https://a.b:8/p?x=1').getPort() == '8' && url('https://a.b/#f').getEscapedPath() == '/'",
            "isURL('/p') && !isURL('p') && url('https://a.b/?x=1&x=2').getQuery()['x'] == ['1', '2']",
            "!format.dns1123Label().validate('ok').hasValue() && format.dns1123Label().validate('a.b') == optional.of(['must not contain dots'])",
            "format.named('uuid').hasValue() && !format.named('nope').hasValue()",
            "timestamp('2024-02-29T23:59:59+01:00').getHours() == 22 && duration('90m').getHours() == 1",
            "timestamp('2024-01-01T00:00:00Z').getHours('+05:30') == 5 && timestamp('2024-01-01T00:00:00Z') + duration('1h') > timestamp('2024-01-01T00:30:00Z')",
            "[1, 2].all(i, v, v == i + 1) && !{'a': 1}.exists(k, v, k == 'a' && v == 2) && [0, 0].existsOne(i, v, i == 0)",
            "[3, 4].transformList(i, v, v * i) == [0, 4] && [3, 4].transformList(i, v, i > 0, v + 1) == [5]",
            "{'a': 1}.transformMap(k, v, v + 1) == {'a': 2} && [7, 0].transformMap(i, v, v > 0, v * 2) == {0: 14}",
            "{'a': 1, 'b': 2}.transformMapEntry(k, v, {k + k: v}) == {'aa': 1, 'bb': 2}",
            "string(ip('2001:DB8::1')) == '2001:db8::1' && string(cidr('10.1.2.3/8').masked()) == '10.0.0.0/8'",
            "string(timestamp('2024-01-01T00:00:00.5+01:00')) == '2024-01-01T00:00:00.5+01:00' && string(1) == '1'",
        ];
        for expr in truths {
            assert_eq!(eval(expr), Ok(Value::Bool(true)), "{expr}");
        }
        assert!(eval("[].min()").is_err());
        assert!(eval("ip('nope')").is_err());
        assert!(eval("[1, 2].transformMapEntry(i, v, {'k': v})").is_err());
    }
}
