//! Where a change is in a version's schema.

use std::fmt;

/// One step down a schema.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Segment {
    /// A property: `.name`.
    Field(String),
    /// A list's items: `[*]`.
    Items,
    /// A map's values (`additionalProperties`): `{*}`.
    Values,
    /// A branch of `allOf`, `anyOf` or `oneOf`, or `not` (index 0).
    Branch(&'static str, usize),
}

/// A path from a version's root schema, written as `.spec.ports[*].name`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SchemaPath(pub Vec<Segment>);

impl SchemaPath {
    /// The root schema.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// This path, one step further.
    pub fn child(&self, segment: Segment) -> SchemaPath {
        let mut next = self.0.clone();
        next.push(segment);
        SchemaPath(next)
    }

    /// The property names along the path, when it goes through properties, items and map
    /// values only (what a Rust field can be found for).
    pub fn fields(&self) -> Option<Vec<&str>> {
        let mut names = Vec::new();
        for segment in &self.0 {
            match segment {
                Segment::Field(name) => names.push(name.as_str()),
                Segment::Items | Segment::Values => {}
                Segment::Branch(..) => return None,
            }
        }
        Some(names)
    }
}

impl fmt::Display for SchemaPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str(".");
        }
        for segment in &self.0 {
            match segment {
                Segment::Field(name) => write!(f, ".{name}")?,
                Segment::Items => f.write_str("[*]")?,
                Segment::Values => f.write_str("{*}")?,
                Segment::Branch("not", _) => f.write_str(".not")?,
                Segment::Branch(kind, i) => write!(f, ".{kind}[{i}]")?,
            }
        }
        Ok(())
    }
}
