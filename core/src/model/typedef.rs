//! Type definitions: a struct or enum that derives `KubeSchema` (or `CustomResource`), as data.

use serde::{Deserialize, Serialize};

use super::rename::RenameRule;
use super::{BoxedMarkers, Loc, Shape};

/// One Rust type deriving `KubeSchema`, with its fields' shapes filled in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDef {
    /// Unique key: the module path and the name (`my_crate::api::FooSpec`).
    pub key: String,
    /// The Rust name.
    pub name: String,
    /// The doc comment, processed.
    pub doc: Option<String>,
    /// Type-level schema keys: they apply wherever the type is used.
    pub markers: BoxedMarkers,
    /// Container-level serde attributes.
    pub serde: ContainerAttrs,
    /// Fields or variants.
    pub data: Data,
    /// Where the type is declared.
    pub loc: Option<Loc>,
}

impl TypeDef {
    /// Every field of the type, in declaration order (for enums: variant by variant).
    pub fn fields(&self) -> Box<dyn Iterator<Item = &Field> + '_> {
        match &self.data {
            Data::Struct { fields, .. } => Box::new(fields.iter()),
            Data::Enum(variants) => Box::new(variants.iter().flat_map(|v| v.fields.iter())),
        }
    }

    /// [`TypeDef::fields`], mutably.
    pub fn fields_mut(&mut self) -> Box<dyn Iterator<Item = &mut Field> + '_> {
        match &mut self.data {
            Data::Struct { fields, .. } => Box::new(fields.iter_mut()),
            Data::Enum(variants) => Box::new(variants.iter_mut().flat_map(|v| v.fields.iter_mut())),
        }
    }

    /// Gives the fields their shapes, in the order of [`TypeDef::fields_mut`].
    pub fn with_shapes(mut self, shapes: Vec<Shape>) -> Self {
        for (field, shape) in self.fields_mut().zip(shapes) {
            field.shape = shape;
        }
        self
    }

    /// Whether the schema looks into `field`'s Rust type. It does not for a skipped field, nor
    /// where the field's markers or the type's own markers stop the walk (`schema_type`,
    /// `schemaless`, ...): such a field's type needs no schema, in the derive or the CLI.
    pub fn walks(&self, field: &Field) -> bool {
        !(field.serde.skip || field.markers.stops_walk() || self.markers.stops_walk())
    }

    /// Whether `field` is in its parent's `required`: yes unless it is an `Option`, serde may
    /// leave it out (`default`, `skip_serializing_if`, a container `default`) or it says
    /// `optional`; `required` wins.
    pub fn required(&self, field: &Field) -> bool {
        let m = &field.markers;
        let (_, is_option) = field.shape.peel_optional();
        m.required
            || !(m.optional
                || is_option
                || field.serde.default.is_some()
                || field.serde.skip_serializing_if
                || self.serde.default.is_some())
    }

    /// The JSON name of a struct field (or of a struct variant's field).
    pub fn json_name(&self, variant: Option<&Variant>, field: &Field) -> String {
        if let Some(name) = &field.serde.rename {
            return name.clone();
        }
        let ident = field.ident.as_deref().unwrap_or_default();
        let rule = match variant {
            Some(v) => v.serde.rename_all.or(self.serde.rename_all_fields),
            None => self.serde.rename_all,
        };
        match rule {
            Some(rule) => rule.apply_to_field(ident),
            None => ident.to_string(),
        }
    }

    /// The JSON name of a variant (its tag value).
    pub fn variant_name(&self, variant: &Variant) -> String {
        if let Some(name) = &variant.serde.rename {
            return name.clone();
        }
        match self.serde.rename_all {
            Some(rule) => rule.apply_to_variant(&variant.ident),
            None => variant.ident.clone(),
        }
    }
}

/// What JSON a struct serializes to, by serde's rules: the decision the schema builder and the
/// derive's compile-time `KIND` both follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructForm {
    /// As its one field (serde's `transparent`, or a tuple struct of one field); `single`:
    /// exactly one field is not skipped, as serde requires.
    Transparent {
        /// Exactly one field is not skipped.
        single: bool,
    },
    /// Named fields: an object.
    Object,
    /// A tuple struct of several fields: an array of mixed types.
    Tuple,
    /// A unit struct: `null`.
    Null,
}

/// How an enum's variants are told apart in JSON (serde's enum representations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tagging<'a> {
    /// `#[serde(untagged)]`: by shape alone.
    Untagged,
    /// `tag` and `content`: `{"tag": "Name", "content": value}`.
    Adjacent {
        /// The tag's field.
        tag: &'a str,
        /// The value's field.
        content: &'a str,
    },
    /// `tag` alone: the variant's fields beside the tag.
    Internal {
        /// The tag's field.
        tag: &'a str,
    },
    /// The default: a unit variant is its name (a string), another `{"Name": value}`.
    External,
}

impl TypeDef {
    /// What JSON a struct of this type's attributes, written in `style` with `fields`,
    /// serializes to.
    pub fn struct_form(&self, style: Style, fields: &[Field]) -> StructForm {
        let transparent = self.serde.transparent || (style == Style::Tuple && fields.len() == 1);
        match style {
            _ if transparent => StructForm::Transparent {
                single: fields.iter().filter(|f| !f.serde.skip).count() == 1,
            },
            Style::Named => StructForm::Object,
            Style::Tuple => StructForm::Tuple,
            Style::Unit => StructForm::Null,
        }
    }

    /// How the type's variants are told apart, when it is an enum.
    pub fn tagging(&self) -> Tagging<'_> {
        let s = &self.serde;
        match (s.tag.as_deref(), s.content.as_deref(), s.untagged) {
            (_, _, true) => Tagging::Untagged,
            (Some(tag), Some(content), _) => Tagging::Adjacent { tag, content },
            (Some(tag), None, _) => Tagging::Internal { tag },
            (None, _, _) => Tagging::External,
        }
    }
}

/// The body of a type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Data {
    /// A struct: named, tuple or unit.
    Struct {
        /// How the fields are written.
        style: Style,
        /// The fields.
        fields: Vec<Field>,
    },
    /// An enum.
    Enum(Vec<Variant>),
}

/// How the fields of a struct or variant are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Style {
    /// `{ a: A }`
    Named,
    /// `(A, B)`
    Tuple,
    /// no fields
    Unit,
}

/// A field of a struct or of an enum variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// The Rust name (without `r#`), `None` in tuples.
    pub ident: Option<String>,
    /// The Rust type as written, for messages.
    pub ty: String,
    /// The doc comment, processed.
    pub doc: Option<String>,
    /// Field-level schema keys.
    pub markers: BoxedMarkers,
    /// Field-level serde attributes.
    pub serde: FieldAttrs,
    /// Where the field is declared.
    pub loc: Option<Loc>,
    /// What the field's type is; filled in by the front end (trait dispatch or source walk).
    #[serde(skip)]
    pub shape: Shape,
}

/// An enum variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// The Rust name.
    pub ident: String,
    /// The doc comment, processed.
    pub doc: Option<String>,
    /// Variant-level serde attributes.
    pub serde: VariantAttrs,
    /// How the fields are written.
    pub style: Style,
    /// The fields.
    pub fields: Vec<Field>,
    /// Where the variant is declared.
    pub loc: Option<Loc>,
}

/// The serde attributes of a struct or enum that change its JSON form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContainerAttrs {
    /// `rename_all` (the serialize side).
    pub rename_all: Option<RenameRule>,
    /// `rename_all_fields` (enums: fields of struct variants).
    pub rename_all_fields: Option<RenameRule>,
    /// `tag = "..."`
    pub tag: Option<String>,
    /// `content = "..."`
    pub content: Option<String>,
    /// `untagged`
    pub untagged: bool,
    /// `transparent`
    pub transparent: bool,
    /// `default` on the container: every field is optional, missing ones come from it.
    pub default: Option<SerdeDefault>,
    /// `into = "T"`: the type serializes as `T` (the front ends model it as a transparent
    /// wrapper of `T`).
    pub into: Option<String>,
}

/// The serde attributes of a field that change its JSON form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FieldAttrs {
    /// `rename` (the serialize side).
    pub rename: Option<String>,
    /// `skip` or `skip_serializing`: the field is never written.
    pub skip: bool,
    /// `default`: the field may be absent, and where its value then comes from.
    pub default: Option<SerdeDefault>,
    /// `skip_serializing_if`: the field may be absent.
    pub skip_serializing_if: bool,
    /// `flatten`
    pub flatten: bool,
    /// `with` / `serialize_with`: a function writes the field, so its type does not tell its
    /// JSON form.
    pub custom: bool,
}

/// Where serde takes the value of a missing field from (`#[serde(default ...)]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SerdeDefault {
    /// `default`: `Default::default()`.
    Trait,
    /// `default = "path"`: the function at `path`.
    Function(String),
}

/// The serde attributes of a variant that change its JSON form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VariantAttrs {
    /// `rename` (the serialize side).
    pub rename: Option<String>,
    /// `rename_all` for the variant's fields.
    pub rename_all: Option<RenameRule>,
    /// `skip` or `skip_serializing`.
    pub skip: bool,
    /// `untagged` on the variant.
    pub untagged: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SchemaMarkers;

    fn field(markers: SchemaMarkers, skip: bool) -> Field {
        Field {
            ident: Some("f".into()),
            ty: "T".into(),
            doc: None,
            markers: markers.into(),
            serde: FieldAttrs {
                skip,
                ..FieldAttrs::default()
            },
            loc: None,
            shape: Shape::default(),
        }
    }

    #[test]
    fn markers_that_stop_the_walk_spare_the_fields_types() {
        let plain = field(SchemaMarkers::default(), false);
        let schemaless = field(
            SchemaMarkers {
                schemaless: true,
                ..SchemaMarkers::default()
            },
            false,
        );
        let skipped = field(SchemaMarkers::default(), true);
        let mut def = TypeDef {
            key: "k::Url".into(),
            name: "Url".into(),
            doc: None,
            markers: BoxedMarkers::default(),
            serde: ContainerAttrs::default(),
            data: Data::Struct {
                style: Style::Named,
                fields: Vec::new(),
            },
            loc: None,
        };
        assert!(def.walks(&plain));
        assert!(!def.walks(&schemaless));
        assert!(!def.walks(&skipped));
        // `schema_type` on the type: its JSON form is not its fields', whatever they are.
        def.markers.schema_type = Some("string".into());
        assert!(!def.walks(&plain));
    }
}
