//! What the compiler can know about a type's JSON form: an associated const of
//! [`KubeSchema`](crate::known::KubeSchema), so the derive can check, at compile time, keys whose
//! meaning depends on another type (a list's item fields for `list_map_keys`, a newtype's JSON
//! type for `min_length`, every step of a printer column's path). The checks are `const fn`s; a
//! failure is a spanned compile error.

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

impl Kind {
    /// The kind a `schema_type = "..."` declares.
    pub fn declared(schema_type: &str) -> Kind {
        match schema_type {
            "string" => Kind::Scalar("string"),
            "integer" => Kind::Scalar("integer"),
            "number" => Kind::Scalar("number"),
            "boolean" => Kind::Scalar("boolean"),
            "array" => Kind::Array,
            "object" => Kind::Object,
            _ => Kind::Unknown,
        }
    }
}

/// A link to an [`Info`]: what [`KubeSchema::INFO`](crate::known::KubeSchema::INFO) is, so
/// that a type's `Info` can lead to its fields' (and a type containing itself leads back to its
/// own). The derive keeps each type's `Info` in a `static` and links to it; constants cannot
/// link to each other in a cycle, a link to a `static` can.
#[derive(Clone, Copy)]
pub struct InfoRef(*const Info);

// SAFETY: an `InfoRef` is made only from a `&'static Info` (`InfoRef::new`), and `Info` holds no
// interior mutability: sharing it between threads is sharing a `&'static Info`.
unsafe impl Sync for InfoRef {}
// SAFETY: as for `Sync`.
unsafe impl Send for InfoRef {}

impl InfoRef {
    /// Nothing known.
    pub const UNKNOWN: InfoRef = InfoRef::new(&Info::UNKNOWN);

    /// A link to `info`.
    pub const fn new(info: &'static Info) -> InfoRef {
        InfoRef(info)
    }

    /// The `Info` linked to.
    pub const fn get(self) -> &'static Info {
        // SAFETY: made from a `&'static Info` (`new`), the only way to make one.
        unsafe { &*self.0 }
    }
}

impl std::fmt::Debug for InfoRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the `Info`: a type containing itself would print forever.
        write!(f, "InfoRef({:?})", self.get().kind)
    }
}

/// A type's kind, an array's items, a struct's fields (each leading to its type's `Info`) and
/// the types it flattens into itself (`#[serde(flatten)]`).
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// The type's kind.
    pub kind: Kind,
    /// An array's items.
    pub items: Option<InfoRef>,
    /// A struct's own fields, when they are all known.
    pub fields: Option<&'static [FieldInfo]>,
    /// The types whose fields a struct flattens into its own.
    pub flattened: &'static [InfoRef],
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
            flattened: &[],
        }
    }

    /// An array of these items.
    pub const fn array(items: InfoRef) -> Info {
        Info {
            kind: Kind::Array,
            items: Some(items),
            fields: None,
            flattened: &[],
        }
    }

    /// A struct with these fields, and the fields of the types it flattens.
    pub const fn object(fields: &'static [FieldInfo], flattened: &'static [InfoRef]) -> Info {
        Info {
            kind: Kind::Object,
            items: None,
            fields: Some(fields),
            flattened,
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
    /// Its kind: its type's, or what its markers declare.
    pub kind: Kind,
    /// Marked `nullable`.
    pub nullable: bool,
    /// Its type's `Info` ([`InfoRef::UNKNOWN`] where its markers declare the kind).
    pub info: InfoRef,
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
pub const fn map_key(list: InfoRef, key: &str) -> MapKey {
    let Some(items) = list.get().items else {
        return MapKey::Fine;
    };
    let items = items.get();
    match (items.kind, items.fields) {
        (Kind::Object, Some(_)) => {}
        (Kind::Object | Kind::Unknown, _) => return MapKey::Fine,
        _ => return MapKey::NotObjects,
    }
    match field(items, key) {
        Lookup::Found(f) => match f.kind {
            Kind::Array | Kind::Map | Kind::Object => MapKey::NotScalar,
            _ if !f.always => MapKey::Optional,
            _ if f.nullable => MapKey::Nullable,
            _ => MapKey::Fine,
        },
        Lookup::Missing => MapKey::Missing,
        Lookup::Unknown => MapKey::Fine,
    }
}

/// What a struct's [`Info`] says of a field name.
#[derive(Clone, Copy, Debug)]
enum Lookup {
    /// The field, its own or a flattened type's.
    Found(&'static FieldInfo),
    /// It has no such field.
    Missing,
    /// It may have it: it is not a struct whose fields are all known.
    Unknown,
}

/// The field `name` of the struct `info`: among its own, then those of the types it flattens.
const fn field(info: &'static Info, name: &str) -> Lookup {
    let (Kind::Object, Some(fields)) = (info.kind, info.fields) else {
        return Lookup::Unknown;
    };
    let mut i = 0;
    while i < fields.len() {
        // `i` < `fields.len()`: the loop condition.
        if eq(fields[i].name, name) {
            return Lookup::Found(&fields[i]);
        }
        i += 1;
    }
    let (mut unknown, mut t) = (false, 0);
    while t < info.flattened.len() {
        // `t` < `info.flattened.len()`: the loop condition.
        match field(info.flattened[t].get(), name) {
            Lookup::Found(f) => return Lookup::Found(f),
            Lookup::Unknown => unknown = true,
            Lookup::Missing => {}
        }
        t += 1;
    }
    if unknown {
        Lookup::Unknown
    } else {
        Lookup::Missing
    }
}

/// The JSON types a path may lead to, in the order of a deferred path check's messages (see
/// `check::paths::Deferred`).
pub const JSON_TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

/// One step of a path below `.spec` or `.status`: a field's name, and whether the path indexes
/// it (`name[...]`).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The field's JSON name.
    pub name: &'static str,
    /// Whether the path indexes it.
    pub indexed: bool,
}

/// What a path finds, walked step by step through the [`Info`]s of the types it goes through.
#[derive(Clone, Copy, Debug)]
pub enum Walk {
    /// It leads to a field that fits, or somewhere not known at compile time.
    Fine,
    /// The struct (or scalar, or array) `node` at step `step` has no field of that step's name.
    Missing {
        /// The step.
        step: usize,
        /// What the step looks into.
        node: InfoRef,
    },
    /// Step `step` indexes a field that is not an array.
    NotAList {
        /// The step.
        step: usize,
    },
    /// The path ends at a field whose JSON type (this index of [`JSON_TYPES`]) is not one of
    /// those wanted.
    Is(usize),
}

impl Walk {
    /// The step and the node of a [`Walk::Missing`]; step 0 and nothing otherwise.
    pub const fn missing(self) -> (usize, InfoRef) {
        match self {
            Walk::Missing { step, node } => (step, node),
            _ => (0, InfoRef::UNKNOWN),
        }
    }
}

/// Walks `steps` from the type `top` (the spec's or the status's), as the schema resolves a
/// path: a name looks among a struct's fields (own and flattened; a map, an int-or-string, an
/// untyped or an opaque node may have any), an index needs an array, and where the path ends
/// its JSON type must be one of `wants` (none: any).
pub const fn walk(top: InfoRef, steps: &[Step], wants: &[&str]) -> Walk {
    let (mut kind, mut node) = (top.get().kind, top);
    let mut i = 0;
    while i < steps.len() {
        // `i` < `steps.len()`: the loop condition.
        let step = steps[i];
        let found = match kind {
            Kind::Scalar(_) | Kind::Array => Lookup::Missing,
            _ => field(node.get(), step.name),
        };
        match found {
            Lookup::Found(f) => (kind, node) = (f.kind, f.info),
            Lookup::Missing => return Walk::Missing { step: i, node },
            Lookup::Unknown => return Walk::Fine,
        }
        if step.indexed {
            match (kind, node.get().items) {
                (Kind::Array, Some(items)) => (kind, node) = (items.get().kind, items),
                (Kind::Array | Kind::Unknown, _) => return Walk::Fine,
                _ => return Walk::NotAList { step: i },
            }
        }
        i += 1;
    }
    let json = match kind {
        Kind::Scalar(t) => t,
        Kind::Array => "array",
        Kind::Map | Kind::Object => "object",
        Kind::Unknown | Kind::IntOrString => return Walk::Fine,
    };
    if wants.is_empty() || position(wants, json).is_some() {
        return Walk::Fine;
    }
    match position(&JSON_TYPES, json) {
        Some(t) => Walk::Is(t),
        None => Walk::Fine,
    }
}

/// How many field names [`names`] gives.
pub const fn names_len(node: InfoRef) -> usize {
    let (mut n, mut last) = (0, None);
    while let Some(name) = next_name(node.get(), last) {
        n += 1;
        last = Some(name);
    }
    n
}

/// The names of a struct's fields, own and flattened, sorted by bytes (as a schema's properties
/// are), each once; `N` is [`names_len`].
pub const fn names<const N: usize>(node: InfoRef) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut last) = (0, None);
    while i < N {
        let Some(name) = next_name(node.get(), last) else {
            break;
        };
        out[i] = name;
        last = Some(name);
        i += 1;
    }
    out
}

/// `text` (`i` of `texts`), or nothing when there is no `i`.
pub const fn pick(texts: &[&'static str], i: usize) -> &'static str {
    if i < texts.len() { texts[i] } else { "" }
}

/// The length of [`missing`]'s text.
pub const fn missing_len(
    [before, after]: [&str; 2],
    names: &[&str],
    help: [&str; 2],
    near: Option<&str>,
) -> usize {
    let mut len = before.len() + after.len();
    let mut i = 0;
    while i < names.len() {
        // `i` < `names.len()`: the loop condition.
        len += names[i].len() + if i > 0 { 2 } else { 0 };
        i += 1;
    }
    match near {
        Some(near) => len + help[0].len() + near.len() + help[1].len(),
        None => len,
    }
}

/// The message of a [`Walk::Missing`] as UTF-8 of length `N` ([`missing_len`]): `before`, the
/// node's field names (`, ` between them), `after`, then, when a name is near the one looked
/// for, `help[0]`, it, `help[1]`.
pub const fn missing<const N: usize>(
    [before, after]: [&str; 2],
    names: &[&str],
    help: [&str; 2],
    near: Option<&str>,
) -> [u8; N] {
    let mut out = [0; N];
    let mut at = put(&mut out, 0, before);
    let mut i = 0;
    while i < names.len() {
        // `i` < `names.len()`: the loop condition.
        if i > 0 {
            at = put(&mut out, at, ", ");
        }
        at = put(&mut out, at, names[i]);
        i += 1;
    }
    at = put(&mut out, at, after);
    if let Some(near) = near {
        at = put(&mut out, at, help[0]);
        at = put(&mut out, at, near);
        put(&mut out, at, help[1]);
    }
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

/// The smallest field name of the struct `info` (own or flattened) after `last` (the first:
/// after none).
const fn next_name(info: &'static Info, last: Option<&str>) -> Option<&'static str> {
    let mut best: Option<&'static str> = None;
    if let Some(fields) = info.fields {
        let mut i = 0;
        while i < fields.len() {
            // `i` < `fields.len()`: the loop condition.
            best = better(best, fields[i].name, last);
            i += 1;
        }
    }
    let mut t = 0;
    while t < info.flattened.len() {
        // `t` < `info.flattened.len()`: the loop condition.
        if let Some(name) = next_name(info.flattened[t].get(), last) {
            best = better(best, name, last);
        }
        t += 1;
    }
    best
}

/// `name` instead of `best` when it comes after `last` and before `best`.
const fn better(
    best: Option<&'static str>,
    name: &'static str,
    last: Option<&str>,
) -> Option<&'static str> {
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

/// Whether two strings are equal, in a `const` (where `==` on `str` is not available).
pub const fn eq(a: &str, b: &str) -> bool {
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

    const fn field(name: &'static str, kind: Kind, info: InfoRef) -> FieldInfo {
        FieldInfo {
            name,
            always: true,
            kind,
            nullable: false,
            info,
        }
    }
    const STRING: InfoRef = InfoRef::new(&Info::of(Kind::Scalar("string")));
    const STRINGS: InfoRef = InfoRef::new(&Info::array(STRING));
    static ITEM: Info = Info::object(
        &[
            field("name", Kind::Scalar("string"), STRING),
            FieldInfo {
                always: false,
                ..field("port", Kind::Scalar("integer"), InfoRef::UNKNOWN)
            },
            field("tags", Kind::Array, STRINGS),
            FieldInfo {
                nullable: true,
                ..field("zone", Kind::Scalar("string"), STRING)
            },
            // Back to itself, as a type containing itself does.
            field("next", Kind::Object, InfoRef::new(&ITEM)),
        ],
        &[],
    );
    static LIST_INFO: Info = Info::array(InfoRef::new(&ITEM));
    const LIST: InfoRef = InfoRef::new(&LIST_INFO);
    /// A struct flattening `ITEM` beside a field of its own.
    static FLAT: Info = Info::object(
        &[
            field("items", Kind::Array, LIST),
            // An object its markers declare: its fields are not known.
            field("extra", Kind::Object, InfoRef::UNKNOWN),
        ],
        &[InfoRef::new(&ITEM)],
    );

    #[test]
    fn map_keys_are_checked_against_item_fields() {
        assert_eq!(map_key(LIST, "name"), MapKey::Fine);
        assert_eq!(map_key(LIST, "port"), MapKey::Optional);
        assert_eq!(map_key(LIST, "tags"), MapKey::NotScalar);
        assert_eq!(map_key(LIST, "nope"), MapKey::Missing);
        assert_eq!(map_key(LIST, "zone"), MapKey::Nullable);
        assert_eq!(map_key(STRINGS, "x"), MapKey::NotObjects);
        const OPAQUE: InfoRef = InfoRef::new(&Info::array(InfoRef::new(&Info::of(Kind::Object))));
        assert_eq!(map_key(OPAQUE, "x"), MapKey::Fine);
        static FLATTENING: Info = Info::array(InfoRef::new(&FLAT));
        let flattening = InfoRef::new(&FLATTENING);
        assert_eq!(map_key(flattening, "port"), MapKey::Optional);
        assert_eq!(map_key(flattening, "nope"), MapKey::Missing);
    }

    fn steps(path: &[(&'static str, bool)]) -> Vec<Step> {
        path.iter()
            .map(|&(name, indexed)| Step { name, indexed })
            .collect()
    }

    #[test]
    fn paths_are_walked_through_every_step() {
        let top = InfoRef::new(&FLAT);
        let walk = |path: &[(&'static str, bool)], wants: &[&str]| walk(top, &steps(path), wants);
        let scalars: &[&str] = &["string", "integer", "boolean"];
        assert!(matches!(walk(&[("name", false)], scalars), Walk::Fine));
        // Deep, through lists, flattened fields and the type's own recursion.
        let deep = [
            ("items", true),
            ("next", false),
            ("next", false),
            ("tags", true),
        ];
        assert!(matches!(walk(&deep, scalars), Walk::Fine));
        let typo = [("items", true), ("next", false), ("nmae", false)];
        let Walk::Missing { step: 2, node } = walk(&typo, &[]) else {
            panic!("{:?}", walk(&typo, &[]));
        };
        const N: usize = names_len(InfoRef::new(&ITEM));
        assert_eq!(names_len(node), N);
        let names: [&str; N] = names(node);
        assert_eq!(names, ["name", "next", "port", "tags", "zone"]);
        assert!(matches!(
            walk(&[("name", false), ("x", false)], &[]),
            Walk::Missing { step: 1, .. }
        ));
        assert!(matches!(
            walk(&[("items", true), ("port", true)], &[]),
            Walk::NotAList { step: 1 }
        ));
        assert!(matches!(walk(&[("tags", false)], scalars), Walk::Is(4)));
        assert!(matches!(walk(&[("next", false)], scalars), Walk::Is(5)));
        // A scalar has no fields; past what is known (`extra`'s fields), anything goes.
        assert!(matches!(
            walk(&[("port", false), ("x", false)], &[]),
            Walk::Missing { step: 1, .. }
        ));
        assert!(matches!(
            walk(&[("extra", false), ("x", false)], &[]),
            Walk::Fine
        ));
    }

    #[test]
    fn a_missing_field_is_told_with_the_names_and_the_near_one() {
        const NODE: InfoRef = InfoRef::new(&FLAT);
        const N: usize = names_len(NODE);
        const NAMES: [&str; N] = names(NODE);
        const NEAR: Option<&str> = crate::names::nearest("nmae", &NAMES);
        const PARTS: [&str; 2] = ["(fields: ", ")"];
        const HELP: [&str; 2] = ["; did you mean `", "`?"];
        const LEN: usize = missing_len(PARTS, &NAMES, HELP, NEAR);
        const TEXT: [u8; LEN] = missing(PARTS, &NAMES, HELP, NEAR);
        assert_eq!(
            std::str::from_utf8(&TEXT).unwrap(),
            "(fields: extra, items, name, next, port, tags, zone); did you mean `name`?"
        );
        const NONE: usize = missing_len(PARTS, &NAMES, HELP, None);
        assert_eq!(
            std::str::from_utf8(&missing::<NONE>(PARTS, &NAMES, HELP, None)).unwrap(),
            "(fields: extra, items, name, next, port, tags, zone)"
        );
        assert_eq!(pick(&["a"], 0), "a");
        assert_eq!(pick(&[], 0), "");
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
