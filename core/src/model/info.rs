//! What the compiler can know about a type's JSON form: an associated const of
//! [`KubeSchema`](crate::known::KubeSchema), so the derive can check, at compile time, keys whose
//! meaning depends on another type (a list's item fields for `list_map_keys`, a newtype's JSON
//! type for `min_length`). The checks are `const fn`s; a failure is a spanned compile error.

/// The JSON type of a type, as far as constants can tell. It never looks into other types'
/// fields, so it is defined even for types that contain themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Not known at compile time (checked at run time and by `gen-cli`).
    Unknown,
    /// A scalar of this OpenAPI type: `string`, `integer`, `number` or `boolean`.
    Scalar(&'static str),
    /// An integer or a string.
    IntOrString,
    /// An array.
    Array,
    /// A map with string keys.
    Map,
    /// A struct.
    Object,
}

/// A type's kind, and one level more: an array's items, a struct's fields (by kind).
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// The type's kind.
    pub kind: Kind,
    /// An array's items.
    pub items: Option<&'static Info>,
    /// A struct's fields, when they are all known.
    pub fields: Option<&'static [FieldInfo]>,
}

impl Info {
    /// Nothing known.
    pub const UNKNOWN: Info = Info::of(Kind::Unknown);

    /// A type known only by its kind.
    pub const fn of(kind: Kind) -> Info {
        Info {
            kind,
            items: None,
            fields: None,
        }
    }

    /// An array of these items.
    pub const fn array(items: &'static Info) -> Info {
        Info {
            kind: Kind::Array,
            items: Some(items),
            fields: None,
        }
    }

    /// A struct with these fields.
    pub const fn object(fields: &'static [FieldInfo]) -> Info {
        Info {
            kind: Kind::Object,
            items: None,
            fields: Some(fields),
        }
    }
}

/// A field of a struct's [`Info`].
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    /// Its JSON name.
    pub name: &'static str,
    /// Required or defaulted: always present once the apiserver has defaulted the object.
    pub always: bool,
    /// Its type's kind.
    pub kind: Kind,
    /// Marked `nullable`.
    pub nullable: bool,
}

/// The JSON types a key applies to (see the schema builder's checks, which use the same
/// classes at run time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wants {
    /// `integer` or `number`.
    Numbers,
    /// `string`, or int-or-string.
    Strings,
    /// `array`.
    Arrays,
    /// `object` (structs and maps).
    Objects,
}

/// Whether a type of this kind takes a key that `wants` this; `true` when unknown.
pub const fn fits(kind: Kind, wants: Wants) -> bool {
    match (kind, wants) {
        (Kind::Unknown, _) => true,
        (Kind::Scalar(t), Wants::Numbers) => eq(t, "integer") || eq(t, "number"),
        (Kind::Scalar(t), Wants::Strings) => eq(t, "string"),
        (Kind::IntOrString, Wants::Strings) => true,
        (Kind::Array, Wants::Arrays) => true,
        (Kind::Map | Kind::Object, Wants::Objects) => true,
        _ => false,
    }
}

/// What a list map key is in the items of a list of form `list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKey {
    /// A required (or defaulted) scalar field, or not known at compile time.
    Fine,
    /// The items are not structs.
    NotObjects,
    /// No field of the items has this name.
    Missing,
    /// The field is optional and has no default.
    Optional,
    /// The field is not a scalar.
    NotScalar,
    /// The field is `nullable`.
    Nullable,
}

/// Checks one `list_map_keys` entry against the list's form.
pub const fn map_key(list: &Info, key: &str) -> MapKey {
    let Some(items) = list.items else {
        return MapKey::Fine;
    };
    let fields = match (items.kind, items.fields) {
        (Kind::Object, Some(fields)) => fields,
        (Kind::Object | Kind::Unknown, _) => return MapKey::Fine,
        _ => return MapKey::NotObjects,
    };
    let mut i = 0;
    while i < fields.len() {
        // `i` < `fields.len()`: the loop condition.
        let f = &fields[i];
        if eq(f.name, key) {
            return match f.kind {
                Kind::Array | Kind::Map | Kind::Object => MapKey::NotScalar,
                _ if !f.always => MapKey::Optional,
                _ if f.nullable => MapKey::Nullable,
                _ => MapKey::Fine,
            };
        }
        i += 1;
    }
    MapKey::Missing
}

/// The JSON types a path may lead to, in the order of a deferred path check's messages (see
/// `check::paths::Deferred`).
pub const JSON_TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

/// What a path below `.spec` finds among the fields of the types the spec flattens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flattened {
    /// A field of one of them that fits, or not known at compile time.
    Fine,
    /// None of them has the field.
    Missing,
    /// The path indexes the field, which is not an array.
    NotAList,
    /// The path ends at the field, whose JSON type (this index of [`JSON_TYPES`]) is not one
    /// of those wanted.
    Is(usize),
}

/// Checks the field `name` of a path below `.spec` against the types the spec flattens:
/// `indexed` when the path indexes it, `last` when the path ends there, `wants` the JSON types
/// it must then be (none: any). Past that field the path is not checked here.
pub const fn flattened(
    types: &[&Info],
    name: &str,
    indexed: bool,
    last: bool,
    wants: &[&str],
) -> Flattened {
    let mut unknown = false;
    let mut t = 0;
    while t < types.len() {
        // `t` < `types.len()`: the loop condition.
        match types[t].fields {
            None => unknown = true,
            Some(fields) => {
                let mut i = 0;
                while i < fields.len() {
                    // `i` < `fields.len()`: the loop condition.
                    if eq(fields[i].name, name) {
                        return step(fields[i].kind, indexed, last, wants);
                    }
                    i += 1;
                }
            }
        }
        t += 1;
    }
    if unknown {
        Flattened::Fine
    } else {
        Flattened::Missing
    }
}

/// Whether a field of this kind fits a path step (see [`flattened`]).
const fn step(kind: Kind, indexed: bool, last: bool, wants: &[&str]) -> Flattened {
    let json = match kind {
        Kind::Scalar(t) => t,
        Kind::Array => "array",
        Kind::Map | Kind::Object => "object",
        Kind::Unknown | Kind::IntOrString => return Flattened::Fine,
    };
    if indexed {
        return if eq(json, "array") {
            Flattened::Fine
        } else {
            Flattened::NotAList
        };
    }
    if !last || wants.is_empty() || position(wants, json).is_some() {
        return Flattened::Fine;
    }
    match position(&JSON_TYPES, json) {
        Some(i) => Flattened::Is(i),
        None => Flattened::Fine,
    }
}

/// The length of [`listing`]'s text.
pub const fn listing_len(before: &str, own: &[&str], types: &[&Info], after: &str) -> usize {
    let mut len = before.len() + after.len();
    let mut last = None;
    while let Some(name) = next_name(own, types, last) {
        if last.is_some() {
            len += 2;
        }
        len += name.len();
        last = Some(name);
    }
    len
}

/// `before`, the names of `own` and of the fields of `types` (sorted by bytes, as a schema's
/// properties are, each once, `, ` between them), then `after`, as UTF-8 of length `N`
/// ([`listing_len`]).
pub const fn listing<const N: usize>(
    before: &str,
    own: &[&str],
    types: &[&Info],
    after: &str,
) -> [u8; N] {
    let mut out = [0; N];
    let mut at = put(&mut out, 0, before);
    let mut last = None;
    while let Some(name) = next_name(own, types, last) {
        if last.is_some() {
            at = put(&mut out, at, ", ");
        }
        at = put(&mut out, at, name);
        last = Some(name);
    }
    put(&mut out, at, after);
    out
}

/// Writes `text` into `out` at `at` (as far as it fits); where it ends.
const fn put<const N: usize>(out: &mut [u8; N], at: usize, text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() && at + i < N {
        // Both indexes are checked by the loop condition.
        out[at + i] = bytes[i];
        i += 1;
    }
    at + i
}

/// The smallest name of `own` and of the fields of `types` after `last` (the first: after
/// none).
const fn next_name<'a>(own: &[&'a str], types: &[&'a Info], last: Option<&str>) -> Option<&'a str> {
    let mut best: Option<&'a str> = None;
    let mut i = 0;
    while i < own.len() {
        // `i` < `own.len()`: the loop condition.
        best = better(best, own[i], last);
        i += 1;
    }
    let mut t = 0;
    while t < types.len() {
        // `t` < `types.len()`: the loop condition.
        if let Some(fields) = types[t].fields {
            let mut i = 0;
            while i < fields.len() {
                // `i` < `fields.len()`: the loop condition.
                best = better(best, fields[i].name, last);
                i += 1;
            }
        }
        t += 1;
    }
    best
}

/// `name` instead of `best` when it comes after `last` and before `best`.
const fn better<'a>(best: Option<&'a str>, name: &'a str, last: Option<&str>) -> Option<&'a str> {
    let after_last = match last {
        Some(l) => less(l, name),
        None => true,
    };
    let before_best = match best {
        Some(b) => less(name, b),
        None => true,
    };
    if after_last && before_best {
        Some(name)
    } else {
        best
    }
}

/// Whether `a` sorts before `b` by bytes.
const fn less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        // Both indexes are checked by the loop condition.
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// Where `name` is in `list`.
const fn position(list: &[&str], name: &str) -> Option<usize> {
    let mut i = 0;
    while i < list.len() {
        // `i` < `list.len()`: the loop condition.
        if eq(list[i], name) {
            return Some(i);
        }
        i += 1;
    }
    None
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        // `i` < `a.len()` = `b.len()`: the loop condition and the check above.
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const ITEM: Info = Info::object(&[
        FieldInfo {
            name: "name",
            always: true,
            kind: Kind::Scalar("string"),
            nullable: false,
        },
        FieldInfo {
            name: "port",
            always: false,
            kind: Kind::Scalar("integer"),
            nullable: false,
        },
        FieldInfo {
            name: "tags",
            always: true,
            kind: Kind::Array,
            nullable: false,
        },
        FieldInfo {
            name: "zone",
            always: true,
            kind: Kind::Scalar("string"),
            nullable: true,
        },
    ]);
    const LIST: Info = Info::array(&ITEM);
    const STRINGS: Info = Info::array(&Info::of(Kind::Scalar("string")));
    const OPAQUE_ITEMS: Info = Info::array(&Info::of(Kind::Object));

    #[test]
    fn map_keys_are_checked_against_item_fields() {
        assert_eq!(map_key(&LIST, "name"), MapKey::Fine);
        assert_eq!(map_key(&LIST, "port"), MapKey::Optional);
        assert_eq!(map_key(&LIST, "tags"), MapKey::NotScalar);
        assert_eq!(map_key(&LIST, "nope"), MapKey::Missing);
        assert_eq!(map_key(&LIST, "zone"), MapKey::Nullable);
        assert_eq!(map_key(&STRINGS, "x"), MapKey::NotObjects);
        assert_eq!(map_key(&Info::array(&Info::UNKNOWN), "x"), MapKey::Fine);
        assert_eq!(map_key(&OPAQUE_ITEMS, "x"), MapKey::Fine);
    }

    #[test]
    fn paths_into_flattened_types_are_checked_against_their_fields() {
        const OPAQUE: Info = Info::of(Kind::Object);
        let types: &[&Info] = &[&ITEM];
        let strings: &[&str] = &["string"];
        assert_eq!(
            flattened(types, "name", false, true, strings),
            Flattened::Fine
        );
        assert_eq!(
            flattened(types, "nope", false, true, &[]),
            Flattened::Missing
        );
        assert_eq!(
            flattened(types, "port", false, true, strings),
            Flattened::Is(1)
        );
        assert_eq!(
            flattened(types, "port", true, false, &[]),
            Flattened::NotAList
        );
        assert_eq!(
            flattened(types, "tags", true, true, strings),
            Flattened::Fine
        );
        assert_eq!(
            flattened(types, "port", false, false, strings),
            Flattened::Fine
        );
        assert_eq!(
            flattened(&[&ITEM, &OPAQUE], "nope", false, true, &[]),
            Flattened::Fine
        );
    }

    #[test]
    fn the_listing_sorts_and_merges_the_names() {
        const OWN: &[&str] = &["zone", "alpha"];
        const TYPES: &[&Info] = &[&ITEM];
        const LEN: usize = listing_len("(", OWN, TYPES, ")");
        const TEXT: [u8; LEN] = listing("(", OWN, TYPES, ")");
        assert_eq!(
            std::str::from_utf8(&TEXT).unwrap(),
            "(alpha, name, port, tags, zone)"
        );
    }

    #[test]
    fn keys_fit_kinds() {
        assert!(fits(Kind::Scalar("string"), Wants::Strings));
        assert!(!fits(Kind::Scalar("string"), Wants::Numbers));
        assert!(fits(Kind::IntOrString, Wants::Strings));
        assert!(fits(Kind::Object, Wants::Objects));
        assert!(fits(Kind::Unknown, Wants::Arrays));
        assert!(!fits(Kind::Array, Wants::Objects));
    }
}
