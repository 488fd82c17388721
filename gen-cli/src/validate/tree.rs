//! YAML (or JSON) documents read with where each value is, to point at it: a tree of values
//! with their line and column, and the keys written twice in a mapping.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use serde_saphyr::Spanned;
use serde_saphyr::options::DuplicateKeyPolicy;

use kubegen_core::check::admit::{Path, Step};

/// A value with its place in the source.
#[derive(Debug, Clone)]
pub struct Tree {
    /// 1-based line and column of the value.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The value and its children.
    pub node: Node,
}

/// A value's content.
#[derive(Debug, Clone)]
pub enum Node {
    /// A scalar (or null).
    Scalar(Value),
    /// A mapping, its entries in order; a key written twice is there twice.
    Map(Vec<(String, Tree)>),
    /// A sequence.
    List(Vec<Tree>),
}

impl Tree {
    /// The value, a repeated key's last value kept (as the API server's JSON decoding keeps it).
    pub fn value(&self) -> Value {
        match &self.node {
            Node::Scalar(v) => v.clone(),
            Node::Map(entries) => {
                let mut map = Map::new();
                for (k, t) in entries {
                    map.insert(k.clone(), t.value());
                }
                Value::Object(map)
            }
            Node::List(items) => Value::Array(items.iter().map(Tree::value).collect()),
        }
    }

    /// The deepest value on `path` that is in the source, with the line and column of it.
    pub fn locate(&self, path: &Path) -> (usize, usize) {
        let mut here = self;
        for step in path.steps() {
            let next = match (step, &here.node) {
                (Step::Field(k) | Step::Key(k), Node::Map(entries)) => entries
                    .iter()
                    .rev()
                    .find(|(name, _)| name == k)
                    .map(|(_, t)| t),
                (Step::Index(i), Node::List(items)) => items.get(*i),
                _ => None,
            };
            match next {
                Some(t) => here = t,
                None => break,
            }
        }
        (here.line, here.column)
    }

    /// Each key written twice in one mapping: its path (`spec.a`) and the repeat's place.
    pub fn duplicates(&self) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        self.collect_duplicates("", &mut out);
        out
    }

    fn collect_duplicates(&self, at: &str, out: &mut Vec<(String, usize, usize)>) {
        match &self.node {
            Node::Map(entries) => {
                for (i, (k, t)) in entries.iter().enumerate() {
                    let path = if at.is_empty() {
                        k.clone()
                    } else {
                        format!("{at}.{k}")
                    };
                    if entries[..i].iter().any(|(earlier, _)| earlier == k) {
                        out.push((path.clone(), t.line, t.column));
                    }
                    t.collect_duplicates(&path, out);
                }
            }
            Node::List(items) => {
                for (i, t) in items.iter().enumerate() {
                    t.collect_duplicates(&format!("{at}[{i}]"), out);
                }
            }
            Node::Scalar(_) => {}
        }
    }
}

/// Every document of `text`, empty ones skipped.
pub fn documents(text: &str) -> Result<Vec<Tree>, String> {
    let mut options = serde_saphyr::options::Options::default();
    options.duplicate_keys = DuplicateKeyPolicy::PassThrough;
    let docs: Vec<Spanned<Node>> =
        serde_saphyr::from_multiple_with_options(text, options).map_err(|e| e.to_string())?;
    Ok(docs.into_iter().map(tree).collect())
}

fn tree(s: Spanned<Node>) -> Tree {
    Tree {
        line: s.referenced.line() as usize,
        column: s.referenced.column() as usize,
        node: s.value,
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Scalar(Value::String(v.to_string())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(tree(item));
        }
        Ok(Node::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = map.next_entry::<KeyText, Spanned<Node>>()? {
            entries.push((k.0, tree(v)));
        }
        Ok(Node::Map(entries))
    }
}

/// A mapping key as JSON has it: a string (a number or boolean key as its text).
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyText, D::Error> {
        match Node::deserialize(d)? {
            Node::Scalar(Value::String(s)) => Ok(KeyText(s)),
            Node::Scalar(v) => Ok(KeyText(v.to_string())),
            _ => Err(de::Error::custom("a mapping key must be a scalar")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_know_where_they_are() {
        let docs = documents("a: 1\nb:\n  c: [x, y]\n  c: [z]\n---\n{\"k\": true}\n").unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(
            docs[0].value(),
            serde_json::json!({"a": 1, "b": {"c": ["z"]}})
        );
        let path = Path::default()
            .child(Step::Field("b".into()))
            .child(Step::Field("c".into()))
            .child(Step::Index(0));
        assert_eq!(docs[0].locate(&path), (4, 7));
        let missing = Path::default()
            .child(Step::Field("b".into()))
            .child(Step::Field("d".into()));
        assert_eq!(docs[0].locate(&missing), (3, 3));
        assert_eq!(docs[0].duplicates(), vec![("b.c".to_string(), 4, 6)]);
        assert_eq!(docs[1].value(), serde_json::json!({"k": true}));
    }
}
