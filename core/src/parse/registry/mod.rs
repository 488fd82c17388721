//! The marker registry: every key of kubegen's attributes (`#[kube_marker]`, `#[rbac]`,
//! `#[webhook]`, `#[webhook_configuration]`) with where it goes, its value, the controller-gen
//! marker it mirrors, what it emits and an example, as controller-tools registers each marker
//! with its help. The parsers take their keys from here (unknown and misplaced keys, repeats),
//! `kubegen markers` prints it, and the key tables of docs/markers.md are generated from it.

mod kube_marker;
mod rbac;
mod webhook;

/// Where a `#[kube_marker]` stands; each place accepts its own keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A `#[derive(CustomResource)]` spec struct: resource keys and type keys.
    Spec,
    /// A type deriving `KubeSchema`.
    Type,
    /// A field.
    Field,
}

/// Where a key may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goes {
    /// Any item: the keys of `#[rbac]`, `#[webhook]` and `#[webhook_configuration]`.
    Item,
    /// The spec struct only: a resource key.
    Spec,
    /// A field, a type or the spec struct: a schema key.
    Anywhere,
    /// A field only.
    Field,
    /// The struct whose fields the key names: a type or the spec struct.
    Struct,
    /// The field (or the spec struct) whose change the key accepts.
    FieldOrSpec,
    /// A property of its parent: a field, or the spec struct (the root's `spec`).
    Property,
    /// The item the derive stands on: a type deriving `KubeSchema`, or the spec struct.
    Deriving,
}

impl Goes {
    /// The places of a `#[kube_marker]` key (none for [`Goes::Item`]).
    pub fn places(self) -> &'static [Place] {
        match self {
            Goes::Item => &[],
            Goes::Spec => &[Place::Spec],
            Goes::Anywhere => &[Place::Spec, Place::Type, Place::Field],
            Goes::Field => &[Place::Field],
            Goes::Struct | Goes::Deriving => &[Place::Spec, Place::Type],
            Goes::FieldOrSpec | Goes::Property => &[Place::Spec, Place::Field],
        }
    }

    /// Why `key` cannot stand at `place`, if it cannot.
    pub fn misplaced(self, key: &str, place: Place) -> Option<String> {
        if self.places().contains(&place) {
            return None;
        }
        Some(match self {
            Goes::Spec => format!(
                "`{key}` describes a custom resource: it goes on the spec struct that derives \
                 `CustomResource`"
            ),
            Goes::Field => format!("`{key}` goes on a field"),
            Goes::Struct => format!(
                "`{key}` goes on the struct whose fields it names (on its type, not on this field)"
            ),
            Goes::FieldOrSpec => {
                format!("`{key}` goes on the field (or the spec struct) whose change it accepts")
            }
            Goes::Property => format!(
                "`{key}` goes on a field, or on the spec struct (for the root's `spec` property)"
            ),
            Goes::Deriving => format!(
                "`{key}` goes on the item that derives (the spec struct or a type deriving \
                 `KubeSchema`), not on a field"
            ),
            Goes::Item | Goes::Anywhere => return None,
        })
    }

    /// Whether the key may stand inside `items(...)`, which takes the items' schema.
    pub fn inside_items(self) -> bool {
        matches!(self, Goes::Anywhere | Goes::FieldOrSpec)
    }
}

/// The form of a key's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// `key`, `key = true`, `key = false`.
    Flag,
    /// `key = true` or `key = false`.
    Bool,
    /// `key`, or `key(...)`.
    FlagOrNested,
    /// `key = "..."`.
    String,
    /// A string naming a Rust type.
    TypePath,
    /// A string holding a Rust path (`my_sdk::kubegen`).
    Path,
    /// A string holding a JSON object.
    JsonObjectText,
    /// A string holding any JSON value.
    JsonText,
    /// An unquoted number.
    Number,
    /// An unquoted whole number of zero or more.
    Count,
    /// A string from a closed set of words.
    Word,
    /// `"a;b"` or `["a", "b"]`.
    List,
    /// A list of `key=value` entries.
    Pairs,
    /// A list of Rust trait paths.
    TraitPaths,
    /// A list of serialized field names.
    FieldNames,
    /// A list of `kubegen diff` rule names.
    RuleNames,
    /// A list of JSON values.
    JsonValues,
    /// A JSON literal or an array of them.
    Json,
    /// `key(...)`, with keys of its own.
    Nested,
    /// `key(...)`, with schema keys.
    Schema,
    /// `key(...)`, a branch of a logical junctor: value validations.
    Branch,
}

impl Value {
    /// The value's name in the reference (the tables' `value` column).
    pub fn name(self) -> &'static str {
        match self {
            Value::Flag => "flag",
            Value::Bool => "flag (`true` or `false`)",
            Value::FlagOrNested => "flag, or nested",
            Value::String => "string",
            Value::TypePath => "string (a type path)",
            Value::Path => "string (a path)",
            Value::JsonObjectText => "string (a JSON object)",
            Value::JsonText => "a string of JSON",
            Value::Number => "number",
            Value::Count => "whole number",
            Value::Word => "word",
            Value::List => "list",
            Value::Pairs => "list of `key=value`",
            Value::TraitPaths => "list of trait paths",
            Value::FieldNames => "list of field names",
            Value::RuleNames => "list of `kubegen diff` rule names",
            Value::JsonValues => "list of JSON values",
            Value::Json => "JSON value",
            Value::Nested => "nested",
            Value::Schema => "nested (schema keys)",
            Value::Branch => "nested (value validations)",
        }
    }
}

/// One key of an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key, as written.
    pub name: &'static str,
    /// The form of its value.
    pub value: Value,
    /// Where it goes.
    pub goes: Goes,
    /// Whether it may be given more than once, each adding an entry.
    pub repeatable: bool,
}

impl Key {
    /// The key, going at `goes`, not repeatable.
    const fn new(name: &'static str, value: Value, goes: Goes) -> Key {
        Key {
            name,
            value,
            goes,
            repeatable: false,
        }
    }

    /// The key, going at `goes` instead.
    const fn on(self, goes: Goes) -> Key {
        Key { goes, ..self }
    }

    /// The key, repeatable.
    const fn repeatable(self) -> Key {
        Key {
            repeatable: true,
            ..self
        }
    }
}

/// A resource key of `#[kube_marker]`.
const fn resource(name: &'static str, value: Value) -> Key {
    Key::new(name, value, Goes::Spec)
}

/// A schema key of `#[kube_marker]`.
const fn schema(name: &'static str, value: Value) -> Key {
    Key::new(name, value, Goes::Anywhere)
}

/// A key of an attribute that goes on any item.
const fn item(name: &'static str, value: Value) -> Key {
    Key::new(name, value, Goes::Item)
}

/// The reference of one or more keys documented together (one row of a key table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The keys.
    pub keys: &'static [Key],
    /// The keys and their form, as written (Markdown).
    pub form: &'static str,
    /// The controller-gen marker the keys mirror (empty for kubegen's own).
    pub marker: &'static str,
    /// What they emit.
    pub emits: &'static str,
    /// What else holds for them (may be empty).
    pub notes: &'static str,
    /// Attribute lines using every key.
    pub examples: &'static [&'static str],
}

impl Entry {
    /// The value column: the first key's value, then each other key's that differs
    /// (`whole number; `pattern`: string`).
    pub fn value(&self) -> String {
        let Some(first) = self.keys.first() else {
            return String::new();
        };
        let mut out = first.value.name().to_string();
        for key in self.keys.iter().filter(|k| k.value != first.value) {
            out += &format!("; `{}`: {}", key.name, key.value.name());
        }
        out
    }

    /// The keys' names.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.keys.iter().map(|k| k.name)
    }
}

/// The keys of one attribute documented together: a key table of docs/markers.md.
#[derive(Debug, PartialEq, Eq)]
pub struct Section {
    /// The heading of its part of docs/markers.md.
    pub heading: &'static str,
    /// The attribute's name (`kube_marker`, `rbac`, ...).
    pub attribute: &'static str,
    /// Where the attribute goes.
    pub goes_on: &'static str,
    /// The heading of the `emits` column.
    pub emits: &'static str,
    /// Whether the table has a `notes` column.
    pub notes: bool,
    /// The keys' references, in the table's order.
    pub entries: &'static [Entry],
    /// What holds between the keys (Markdown paragraphs).
    pub rules: &'static [&'static str],
}

impl Section {
    /// Every key of the section, in order.
    pub fn keys(&'static self) -> impl Iterator<Item = &'static Key> {
        self.entries.iter().flat_map(|e| e.keys)
    }

    /// Every key's name, in order.
    pub fn names(&'static self) -> Vec<&'static str> {
        self.keys().map(|k| k.name).collect()
    }

    /// The key named `name`, if the section has it.
    pub fn key(&'static self, name: &str) -> Option<&'static Key> {
        self.keys().find(|k| k.name == name)
    }
}

/// The resource keys of `#[kube_marker]`: on the spec struct only.
pub static RESOURCE: Section = Section {
    heading: "Resource keys",
    attribute: "kube_marker",
    goes_on: "the spec struct (`#[derive(CustomResource)]`)",
    emits: "emits in the CRD",
    notes: true,
    entries: kube_marker::RESOURCE,
    rules: kube_marker::RESOURCE_RULES,
};

/// The schema keys of `#[kube_marker]`: on a field, a type or the spec struct (some only one
/// or two of them: [`Goes`]).
pub static SCHEMA: Section = Section {
    heading: "Schema keys",
    attribute: "kube_marker",
    goes_on: "a field, a type deriving `KubeSchema`, or the spec struct",
    emits: "emits",
    notes: false,
    entries: kube_marker::SCHEMA,
    rules: kube_marker::SCHEMA_RULES,
};

/// The keys of `#[rbac]`.
pub static RBAC: Section = Section {
    heading: "RBAC keys",
    attribute: "rbac",
    goes_on: "any item (fn, struct, enum, impl, mod, ...), as often as needed",
    emits: "emits",
    notes: true,
    entries: rbac::ENTRIES,
    rules: rbac::RULES,
};

/// The keys of `#[webhook]`.
pub static WEBHOOK: Section = Section {
    heading: "Webhook keys",
    attribute: "webhook",
    goes_on: "any item (the handler, or a `CustomResource` spec struct), as often as needed",
    emits: "emits",
    notes: true,
    entries: webhook::ENTRIES,
    rules: webhook::RULES,
};

/// The keys of `#[webhook_configuration]`.
pub static WEBHOOK_CONFIGURATION: Section = Section {
    heading: "Webhook configuration keys",
    attribute: "webhook_configuration",
    goes_on: "any item, once per configuration",
    emits: "emits",
    notes: true,
    entries: webhook::CONFIGURATION_ENTRIES,
    rules: &[],
};

/// Every section, in the reference's order.
pub static SECTIONS: [&Section; 5] = [&RESOURCE, &SCHEMA, &RBAC, &WEBHOOK, &WEBHOOK_CONFIGURATION];

/// Every key of `#[kube_marker]`: the [resource](RESOURCE) keys, then the [schema](SCHEMA)
/// keys.
pub fn kube_marker_keys() -> impl Iterator<Item = &'static Key> {
    RESOURCE.keys().chain(SCHEMA.keys())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys the fields of the struct `name` in the Rust file `source` read (a field's
    /// name, or its `#[darling(rename = "...")]`), sorted.
    fn fields(source: &str, name: &str) -> Vec<String> {
        let file = syn::parse_file(source).unwrap();
        let mut fields: Vec<String> = file
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Struct(s) if s.ident == name => Some(&s.fields),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no struct {name}"))
            .iter()
            .map(|f| renamed(&f.attrs).unwrap_or_else(|| f.ident.as_ref().unwrap().to_string()))
            .collect();
        fields.sort_unstable();
        fields
    }

    /// The name `#[darling(rename = "...")]` gives a field, if any.
    fn renamed(attrs: &[syn::Attribute]) -> Option<String> {
        let mut name = None;
        for attr in attrs.iter().filter(|a| a.path().is_ident("darling")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    name = Some(meta.value()?.parse::<syn::LitStr>()?.value());
                }
                Ok(())
            })
            .unwrap();
        }
        name
    }

    /// The darling structs the parsers read an attribute with have a field for each key of the
    /// registry, and no other.
    #[test]
    fn the_grammars_read_exactly_the_registrys_keys() {
        let webhook = include_str!("../webhook.rs");
        for (source, name, sections) in [
            (
                include_str!("../markers/raw.rs"),
                "Raw",
                &[&RESOURCE, &SCHEMA][..],
            ),
            (include_str!("../rbac.rs"), "Raw", &[&RBAC]),
            (webhook, "Raw", &[&WEBHOOK]),
            (webhook, "RawConfiguration", &[&WEBHOOK_CONFIGURATION]),
        ] {
            let mut keys: Vec<&str> = sections.iter().flat_map(|s| s.names()).collect();
            keys.sort_unstable();
            assert_eq!(fields(source, name), keys, "{}", sections[0].heading);
        }
    }

    #[test]
    fn keys_are_unique_within_an_attribute() {
        for attribute in ["kube_marker", "rbac", "webhook", "webhook_configuration"] {
            let mut names: Vec<&str> = SECTIONS
                .iter()
                .filter(|s| s.attribute == attribute)
                .flat_map(|s| s.names())
                .collect();
            let count = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), count, "{attribute}: a key given twice");
        }
    }

    #[test]
    fn every_entry_is_whole() {
        for section in SECTIONS {
            for entry in section.entries {
                let names: Vec<&str> = entry.names().collect();
                assert!(
                    !names.is_empty(),
                    "{}: an entry without keys",
                    section.heading
                );
                assert!(!entry.examples.is_empty(), "{names:?}: no example");
                assert!(!entry.emits.is_empty(), "{names:?}: emits nothing");
                assert!(section.notes || entry.notes.is_empty(), "{names:?}");
                for key in entry.keys {
                    assert!(
                        entry.form.contains(&format!("`{}", key.name)),
                        "{}: not in its form {}",
                        key.name,
                        entry.form
                    );
                    let kube_marker = section.attribute == "kube_marker";
                    assert_eq!(key.goes == Goes::Item, !kube_marker, "{}", key.name);
                }
            }
        }
    }

    #[test]
    fn the_value_column_names_each_keys_value() {
        assert_eq!(SCHEMA.entries[2].value(), "whole number; `pattern`: string");
        assert_eq!(RESOURCE.entries[0].value(), "string");
    }

    #[test]
    fn misplaced_keys_say_where_they_go() {
        assert_eq!(Goes::Anywhere.misplaced("minimum", Place::Field), None);
        assert_eq!(
            Goes::Field.misplaced("optional", Place::Type).as_deref(),
            Some("`optional` goes on a field")
        );
        for goes in [
            Goes::Spec,
            Goes::Field,
            Goes::Struct,
            Goes::FieldOrSpec,
            Goes::Property,
            Goes::Deriving,
        ] {
            for place in [Place::Spec, Place::Type, Place::Field] {
                let misplaced = goes.misplaced("k", place);
                assert_eq!(
                    misplaced.is_none(),
                    goes.places().contains(&place),
                    "{goes:?}"
                );
            }
        }
    }
}
