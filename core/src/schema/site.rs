//! Where a schema is being built: the context and location its errors and warnings carry.

use crate::model::{Error, Field, Loc, TypeDef, Variant, Warning};

/// Where a schema is being built, for error messages.
#[derive(Clone, Debug, Default)]
pub struct Site {
    /// Type and field, e.g. `MemcachedSpec.size`.
    pub context: String,
    /// The source location, when known.
    pub loc: Option<Loc>,
}

impl Site {
    /// A site.
    pub fn new(context: impl Into<String>, loc: Option<&Loc>) -> Site {
        Site {
            context: context.into(),
            loc: loc.cloned(),
        }
    }

    /// An error at this site.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::new(self.loc.as_ref(), self.context.clone(), message)
    }

    /// A warning at this site.
    pub fn warning(&self, message: impl Into<String>) -> Warning {
        Warning::warning(self.loc.as_ref(), self.context.clone(), message)
    }
}

/// The site of a field, `Type.field` (or `Type::Variant.field`).
pub(crate) fn field_site(owner: &TypeDef, variant: Option<&Variant>, field: &Field) -> Site {
    let name = field.ident.as_deref().unwrap_or("0");
    let context = match variant {
        Some(v) => format!("{}::{}.{}", owner.name, v.ident, name),
        None => format!("{}.{}", owner.name, name),
    };
    Site::new(context, field.loc.as_ref())
}
