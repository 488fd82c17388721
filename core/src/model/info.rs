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
    fn keys_fit_kinds() {
        assert!(fits(Kind::Scalar("string"), Wants::Strings));
        assert!(!fits(Kind::Scalar("string"), Wants::Numbers));
        assert!(fits(Kind::IntOrString, Wants::Strings));
        assert!(fits(Kind::Object, Wants::Objects));
        assert!(fits(Kind::Unknown, Wants::Arrays));
        assert!(!fits(Kind::Array, Wants::Objects));
    }
}
