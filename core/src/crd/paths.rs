//! JSON paths in resource keys (printer columns, scale, selectable fields) must name fields
//! that exist in the version's schema.

use crate::schema::Schema;

/// The schema node `path` (`.spec.size`, `.status.conditions[?(@.type=="Ready")].status`)
/// leads to, or why it leads nowhere. Paths under `.metadata` are accepted as they are: the
/// apiserver knows `ObjectMeta`.
pub fn resolve<'a>(root: &'a Schema, path: &str) -> Result<Option<&'a Schema>, String> {
    let Some(rest) = path.strip_prefix('.') else {
        return Err(format!("`{path}` must start with `.`"));
    };
    let mut node = root;
    for (i, segment) in split(rest).into_iter().enumerate() {
        let (name, indexed) = match segment.find('[') {
            Some(at) => (&segment[..at], true),
            None => (segment, false),
        };
        if i == 0 && name == "metadata" {
            return Ok(None);
        }
        node = match node.properties.get(name) {
            Some(child) => child,
            None if node.x_preserve_unknown_fields || node.additional_properties.is_some() => {
                return Ok(None);
            }
            None => {
                let known: Vec<&str> = node.properties.keys().map(String::as_str).collect();
                return Err(format!(
                    "`{path}` names `{name}`, which is not a field there (fields: {})",
                    known.join(", ")
                ));
            }
        };
        if indexed {
            match &node.items {
                Some(items) => node = items,
                None => return Err(format!("`{path}` indexes `{name}`, which is not a list")),
            }
        }
    }
    Ok(Some(node))
}

/// Splits at dots outside brackets.
fn split(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in path.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '.' if depth == 0 => {
                out.push(&path[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&path[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> Schema {
        let mut cond = Schema::typed("object");
        cond.properties.insert("status".into(), Schema::typed("string"));
        let mut status = Schema::typed("object");
        status.properties.insert(
            "conditions".into(),
            Schema { items: Some(Box::new(cond)), ..Schema::typed("array") },
        );
        let mut spec = Schema::typed("object");
        spec.properties.insert("size".into(), Schema::typed("integer"));
        let mut root = Schema::typed("object");
        root.properties.insert("spec".into(), spec);
        root.properties.insert("status".into(), status);
        root
    }

    #[test]
    fn paths_resolve_through_the_schema() {
        let r = root();
        assert_eq!(resolve(&r, ".spec.size").unwrap().unwrap().type_str(), "integer");
        let ready = ".status.conditions[?(@.type==\"Ready\")].status";
        assert_eq!(resolve(&r, ready).unwrap().unwrap().type_str(), "string");
        assert_eq!(resolve(&r, ".metadata.creationTimestamp").unwrap(), None);
        assert!(resolve(&r, ".spec.sise").unwrap_err().contains("fields: size"));
        assert!(resolve(&r, "spec.size").is_err());
        assert!(resolve(&r, ".spec[0]").unwrap_err().contains("not a list"));
    }
}
