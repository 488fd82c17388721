//! The functions of the Kubernetes CEL environment as of kube-apiserver 1.36: CEL's standard
//! library, cel-go's extensions Kubernetes enables (strings v2, lists v3, sets, two-variable
//! comprehensions, optionals) and Kubernetes' own libraries (regex, lists, URLs, quantity,
//! IP/CIDR, format, semver). Each overload has cel-go's or Kubernetes' id, which the cost
//! model keys on.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::types::{Opaque, Type};

/// One overload of a function.
#[derive(Debug)]
pub struct Overload {
    pub id: String,
    /// Called as `receiver.name(args)` (the receiver is `params[0]`).
    pub member: bool,
    pub params: Vec<Type>,
    pub result: Type,
}

/// The overloads of every function, by name.
pub fn functions() -> &'static HashMap<String, Vec<Overload>> {
    static FUNCTIONS: OnceLock<HashMap<String, Vec<Overload>>> = OnceLock::new();
    FUNCTIONS.get_or_init(|| {
        let mut map: HashMap<String, Vec<Overload>> = HashMap::new();
        for line in declarations()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            let (name, overload) = parse_declaration(line);
            map.entry(name).or_default().push(overload);
        }
        map
    })
}

/// The types comparable with `<`, sortable, and with a list minimum and maximum.
const COMPARABLE: &[&str] = &[
    "int",
    "uint",
    "double",
    "bool",
    "duration",
    "timestamp",
    "string",
    "bytes",
];

/// The formats `format.<name>()` returns.
pub(crate) const FORMATS: &[&str] = &[
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

/// `id: [receiver.]name(params) -> result`, one a line.
/// A timestamp's getters (`x.getHours()`, or with a time zone `x.getHours('UTC')`).
pub(crate) const TIMESTAMP_GETTERS: &[&str] = &[
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
];

fn declarations() -> String {
    let mut d = String::from(STATIC);
    let numeric = [("int64", "int"), ("uint64", "uint"), ("double", "double")];
    for (op, name) in [
        ("_<_", "less"),
        ("_<=_", "less_equals"),
        ("_>_", "greater"),
        ("_>=_", "greater_equals"),
    ] {
        for t in COMPARABLE {
            let id = match *t {
                "int" => "int64",
                "uint" => "uint64",
                other => other,
            };
            d += &format!("{name}_{id}: {op}({t}, {t}) -> bool\n");
        }
        for (a, at) in numeric {
            for (b, bt) in numeric {
                if a != b {
                    d += &format!("{name}_{a}_{b}: {op}({at}, {bt}) -> bool\n");
                }
            }
        }
    }
    for t in COMPARABLE {
        d += &format!("list_{t}_is_sorted_bool: list({t}).isSorted() -> bool\n");
        d += &format!("list_{t}_min: list({t}).min() -> {t}\n");
        d += &format!("list_{t}_max: list({t}).max() -> {t}\n");
        d += &format!("list_{t}_sort: list({t}).sort() -> list({t})\n");
        d += &format!(
            "list_{t}_sortByAssociatedKeys: list(A).@sortByAssociatedKeys(list({t})) -> list(A)\n"
        );
    }
    for t in ["int", "uint", "double", "duration"] {
        d += &format!("list_{t}_sum: list({t}).sum() -> {t}\n");
    }
    for f in FORMATS {
        d += &format!("format_{f}: format.{f}() -> Format\n");
    }
    for getter in TIMESTAMP_GETTERS {
        d += &format!("timestamp_{getter}: timestamp.{getter}() -> int\n");
        d += &format!("timestamp_{getter}_with_tz: timestamp.{getter}(string) -> int\n");
    }
    for getter in ["getHours", "getMinutes", "getSeconds", "getMilliseconds"] {
        d += &format!("duration_{getter}: duration.{getter}() -> int\n");
    }
    for (t, id) in [
        ("int", "int64"),
        ("uint", "uint64"),
        ("double", "double"),
        ("bool", "bool"),
        ("string", "string"),
        ("bytes", "bytes"),
        ("timestamp", "timestamp"),
        ("duration", "duration"),
        ("IP", "ip"),
        ("CIDR", "cidr"),
    ] {
        d += &format!("{id}_to_string: string({t}) -> string\n");
    }
    d
}

const STATIC: &str = "
logical_not: !_(bool) -> bool
not_strictly_false: @not_strictly_false(bool) -> bool
logical_and: _&&_(bool, bool) -> bool
logical_or: _||_(bool, bool) -> bool
conditional: _?_:_(bool, A, A) -> A
negate_int64: -_(int) -> int
negate_double: -_(double) -> double
equals: _==_(A, A) -> bool
not_equals: _!=_(A, A) -> bool
add_int64: _+_(int, int) -> int
add_uint64: _+_(uint, uint) -> uint
add_double: _+_(double, double) -> double
add_string: _+_(string, string) -> string
add_bytes: _+_(bytes, bytes) -> bytes
add_list: _+_(list(A), list(A)) -> list(A)
add_timestamp_duration: _+_(timestamp, duration) -> timestamp
add_duration_timestamp: _+_(duration, timestamp) -> timestamp
add_duration_duration: _+_(duration, duration) -> duration
subtract_int64: _-_(int, int) -> int
subtract_uint64: _-_(uint, uint) -> uint
subtract_double: _-_(double, double) -> double
subtract_timestamp_timestamp: _-_(timestamp, timestamp) -> duration
subtract_timestamp_duration: _-_(timestamp, duration) -> timestamp
subtract_duration_duration: _-_(duration, duration) -> duration
multiply_int64: _*_(int, int) -> int
multiply_uint64: _*_(uint, uint) -> uint
multiply_double: _*_(double, double) -> double
divide_int64: _/_(int, int) -> int
divide_uint64: _/_(uint, uint) -> uint
divide_double: _/_(double, double) -> double
modulo_int64: _%_(int, int) -> int
modulo_uint64: _%_(uint, uint) -> uint
in_list: @in(A, list(A)) -> bool
in_map: @in(A, map(A, B)) -> bool
index_list: _[_](list(A), int) -> A
index_map: _[_](map(A, B), A) -> B
size_string: size(string) -> int
size_bytes: size(bytes) -> int
size_list: size(list(A)) -> int
size_map: size(map(A, B)) -> int
string_size: string.size() -> int
bytes_size: bytes.size() -> int
list_size: list(A).size() -> int
map_size: map(A, B).size() -> int
int64_to_int64: int(int) -> int
uint64_to_int64: int(uint) -> int
double_to_int64: int(double) -> int
string_to_int64: int(string) -> int
timestamp_to_int64: int(timestamp) -> int
int64_to_uint64: uint(int) -> uint
uint64_to_uint64: uint(uint) -> uint
double_to_uint64: uint(double) -> uint
string_to_uint64: uint(string) -> uint
int64_to_double: double(int) -> double
uint64_to_double: double(uint) -> double
double_to_double: double(double) -> double
string_to_double: double(string) -> double
string_to_bytes: bytes(string) -> bytes
bytes_to_bytes: bytes(bytes) -> bytes
string_to_bool: bool(string) -> bool
bool_to_bool: bool(bool) -> bool
string_to_duration: duration(string) -> duration
duration_to_duration: duration(duration) -> duration
string_to_timestamp: timestamp(string) -> timestamp
int64_to_timestamp: timestamp(int) -> timestamp
timestamp_to_timestamp: timestamp(timestamp) -> timestamp
to_dyn: dyn(A) -> dyn
type: type(A) -> type(A)
contains_string: string.contains(string) -> bool
starts_with_string: string.startsWith(string) -> bool
ends_with_string: string.endsWith(string) -> bool
matches_string: string.matches(string) -> bool
matches: matches(string, string) -> bool
string_char_at_int: string.charAt(int) -> string
string_index_of_string: string.indexOf(string) -> int
string_index_of_string_int: string.indexOf(string, int) -> int
string_last_index_of_string: string.lastIndexOf(string) -> int
string_last_index_of_string_int: string.lastIndexOf(string, int) -> int
string_lower_ascii: string.lowerAscii() -> string
string_upper_ascii: string.upperAscii() -> string
string_replace_string_string: string.replace(string, string) -> string
string_replace_string_string_int: string.replace(string, string, int) -> string
string_split_string: string.split(string) -> list(string)
string_split_string_int: string.split(string, int) -> list(string)
string_substring_int: string.substring(int) -> string
string_substring_int_int: string.substring(int, int) -> string
string_trim: string.trim() -> string
list_join: list(string).join() -> string
list_join_string: list(string).join(string) -> string
string_format: string.format(list(dyn)) -> string
strings_quote: strings.quote(string) -> string
string_find: string.find(string) -> string
string_find_all: string.findAll(string) -> list(string)
string_find_all_n: string.findAll(string, int) -> list(string)
list_index_of: list(A).indexOf(A) -> int
list_last_index_of: list(A).lastIndexOf(A) -> int
list_slice: list(A).slice(int, int) -> list(A)
list_flatten: list(list(A)).flatten() -> list(A)
list_flatten_int: list(dyn).flatten(int) -> list(dyn)
lists_range: lists.range(int) -> list(int)
list_reverse: list(A).reverse() -> list(A)
list_distinct: list(A).distinct() -> list(A)
list_sets_contains_list: sets.contains(list(A), list(A)) -> bool
list_sets_intersects_list: sets.intersects(list(A), list(A)) -> bool
list_sets_equivalent_list: sets.equivalent(list(A), list(A)) -> bool
string_to_url: url(string) -> URL
is_url_string: isURL(string) -> bool
url_get_scheme: URL.getScheme() -> string
url_get_host: URL.getHost() -> string
url_get_hostname: URL.getHostname() -> string
url_get_port: URL.getPort() -> string
url_get_escaped_path: URL.getEscapedPath() -> string
url_get_query: URL.getQuery() -> map(string, list(string))
string_to_quantity: quantity(string) -> Quantity
is_quantity_string: isQuantity(string) -> bool
quantity_sign: sign(Quantity) -> int
quantity_is_integer: Quantity.isInteger() -> bool
quantity_get_int: Quantity.asInteger() -> int
quantity_get_float: Quantity.asApproximateFloat() -> double
quantity_less: Quantity.isLessThan(Quantity) -> bool
quantity_greater: Quantity.isGreaterThan(Quantity) -> bool
quantity_compare: Quantity.compareTo(Quantity) -> int
quantity_add: Quantity.add(Quantity) -> Quantity
quantity_add_int: Quantity.add(int) -> Quantity
quantity_sub: Quantity.sub(Quantity) -> Quantity
quantity_sub_int: Quantity.sub(int) -> Quantity
string_to_ip: ip(string) -> IP
is_ip: isIP(string) -> bool
ip_is_canonical: ip.isCanonical(string) -> bool
ip_family: IP.family() -> int
ip_is_unspecified: IP.isUnspecified() -> bool
ip_is_loopback: IP.isLoopback() -> bool
ip_is_link_local_multicast: IP.isLinkLocalMulticast() -> bool
ip_is_link_local_unicast: IP.isLinkLocalUnicast() -> bool
ip_is_global_unicast: IP.isGlobalUnicast() -> bool
string_to_cidr: cidr(string) -> CIDR
is_cidr: isCIDR(string) -> bool
cidr_contains_ip_string: CIDR.containsIP(string) -> bool
cidr_contains_ip_ip: CIDR.containsIP(IP) -> bool
cidr_contains_cidr_string: CIDR.containsCIDR(string) -> bool
cidr_contains_cidr: CIDR.containsCIDR(CIDR) -> bool
cidr_ip: CIDR.ip() -> IP
cidr_masked: CIDR.masked() -> CIDR
cidr_prefix_length: CIDR.prefixLength() -> int
format_named: format.named(string) -> optional(Format)
format_validate: Format.validate(string) -> optional(list(string))
string_to_semver: semver(string) -> Semver
string_bool_to_semver: semver(string, bool) -> Semver
is_semver: isSemver(string) -> bool
is_semver_bool: isSemver(string, bool) -> bool
semver_major: Semver.major() -> int
semver_minor: Semver.minor() -> int
semver_patch: Semver.patch() -> int
semver_is_greater_than: Semver.isGreaterThan(Semver) -> bool
semver_is_less_than: Semver.isLessThan(Semver) -> bool
semver_compare_to: Semver.compareTo(Semver) -> int
map_insert_key_value: cel.@mapInsert(map(A, B), A, B) -> map(A, B)
map_insert_map: cel.@mapInsert(map(A, B), map(A, B)) -> map(A, B)
optional_of: optional.of(A) -> optional(A)
optional_ofNonZeroValue: optional.ofNonZeroValue(A) -> optional(A)
optional_none: optional.none() -> optional(A)
optional_hasValue: optional(A).hasValue() -> bool
optional_value: optional(A).value() -> A
optional_or_optional: optional(A).or(optional(A)) -> optional(A)
optional_orValue_value: optional(A).orValue(A) -> A
list_optindex_optional_int: _[?_](list(A), int) -> optional(A)
map_optindex_optional_value: _[?_](map(A, B), A) -> optional(B)
";

// The `expect`s, `panic!`s and slices from here to `parse_type` read only `declarations()`, the
// table kubegen ships, never user input; `declarations_parse` parses all of it. In it every
// call has `(...)` at its end (so `open` is a boundary and the last byte is `)`), every
// type is known, and the cuts are at `char_indices` positions of ASCII `(`, `)`, `,`.
fn parse_declaration(line: &str) -> (String, Overload) {
    let (id, rest) = line.split_once(": ").expect("id: signature");
    let (call, result) = rest.split_once(" -> ").expect("-> result");
    let open = args_open(call);
    let head = &call[..open];
    let args = &call[open + 1..call.len() - 1];
    let mut params: Vec<Type> = split_top(args).iter().map(|t| parse_type(t)).collect();
    // A receiver is a type before the last dot of the head, unless it names a namespace
    // (`sets.contains`, `format.named`).
    let namespaced = |recv: &str, name: &str| {
        matches!(
            recv,
            "cel" | "sets" | "lists" | "strings" | "optional" | "format"
        ) || (recv, name) == ("ip", "isCanonical")
    };
    let (member, name) = match head.rsplit_once('.') {
        Some((recv, name)) if !namespaced(recv, name) => {
            params.insert(0, parse_type(recv));
            (true, name.to_string())
        }
        _ => (false, head.to_string()),
    };
    let overload = Overload {
        id: id.to_string(),
        member,
        params,
        result: parse_type(result),
    };
    (name, overload)
}

/// Where the argument list of `call` opens (its last top-level parenthesis).
fn args_open(call: &str) -> usize {
    let mut depth = 0;
    for (i, c) in call.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("no argument list in {call}")
}

/// `a, list(b), map(c, d)` split at its top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        parts.push(s[start..].trim());
    }
    parts
}

fn parse_type(s: &str) -> Type {
    if let Some(inner) = s.strip_suffix(')') {
        let (head, args) = inner.split_once('(').expect("type(args)");
        let mut args = split_top(args).into_iter().map(parse_type);
        let mut next = || Box::new(args.next().expect("type argument"));
        return match head {
            "list" => Type::List(next()),
            "map" => Type::Map(next(), next()),
            "optional" => Type::Optional(next()),
            "type" => Type::Meta(next()),
            other => panic!("unknown type constructor {other}"),
        };
    }
    match s {
        "bool" => Type::Bool,
        "int" => Type::Int,
        "uint" => Type::Uint,
        "double" => Type::Double,
        "string" => Type::String,
        "bytes" => Type::Bytes,
        "duration" => Type::Duration,
        "timestamp" => Type::Timestamp,
        "dyn" => Type::Dyn,
        // `s` is `A` or `B`: one byte.
        "A" | "B" => Type::Param(s.as_bytes()[0]),
        "Quantity" => Type::Opaque(Opaque::Quantity),
        "IP" => Type::Opaque(Opaque::Ip),
        "CIDR" => Type::Opaque(Opaque::Cidr),
        "URL" => Type::Opaque(Opaque::Url),
        "Semver" => Type::Opaque(Opaque::Semver),
        "Format" => Type::Opaque(Opaque::Format),
        other => panic!("unknown type {other}"),
    }
}

/// The type an identifier names as a value (`int`, `string`), if it names one.
pub fn type_ident(name: &str) -> Option<Type> {
    let t = match name {
        "bool" => Type::Bool,
        "int" => Type::Int,
        "uint" => Type::Uint,
        "double" => Type::Double,
        "string" => Type::String,
        "bytes" => Type::Bytes,
        "null_type" => Type::Null,
        "list" => Type::List(Box::new(Type::Dyn)),
        "map" => Type::Map(Box::new(Type::Dyn), Box::new(Type::Dyn)),
        "type" => Type::Meta(Box::new(Type::Dyn)),
        "google.protobuf.Duration" => Type::Duration,
        "google.protobuf.Timestamp" => Type::Timestamp,
        _ => return None,
    };
    Some(Type::Meta(Box::new(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_parse() {
        let f = functions();
        let contains = &f["contains"][0];
        assert!(contains.member);
        assert_eq!(contains.params, vec![Type::String, Type::String]);
        assert!(!f["sets.contains"][0].member);
        assert!(!f["format.dns1123Label"][0].member);
        assert!(f["validate"][0].member);
        assert!(!f["ip.isCanonical"][0].member);
        assert!(f["_<_"].iter().any(|o| o.id == "less_int64_double"));
    }
}
