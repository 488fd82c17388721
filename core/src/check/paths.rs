//! JSON paths in resource keys (printer columns, scale, selectable fields) must name fields
//! that exist in the version's schema.

use crate::model::info::JSON_TYPES;
use crate::model::{Error, Errors, Loc, PathKey, PrintColumn, ResourceDef, Schema, Shape, TypeDef};
use crate::names::{self, SUGGESTION};

/// The schema node `path` (`.spec.size`, `.status.conditions[?(@.type=="Ready")].status`)
/// leads to, or why it leads nowhere. `None` when the path goes where the schema does not
/// say: under `.metadata` (the apiserver knows `ObjectMeta`), or into a node that keeps
/// unknown fields or is untyped.
pub fn resolve<'a>(root: &'a Schema, path: &str) -> Result<Option<&'a Schema>, String> {
    let Some(rest) = path.strip_prefix('.') else {
        return Err(format!("`{path}` must start with `.`"));
    };
    let mut node = root;
    for (i, segment) in split(rest).into_iter().enumerate() {
        let (name, indexed) = match segment.split_once('[') {
            Some((name, _)) => (name, true),
            None => (segment, false),
        };
        if i == 0 && name == "metadata" {
            return Ok(None);
        }
        node = match node.properties.get(name) {
            Some(child) => child,
            None if node.x_preserve_unknown_fields
                || node.additional_properties.is_some()
                || (node.type_str().is_empty() && node.properties.is_empty()) =>
            {
                return Ok(None);
            }
            None => {
                let known: Vec<&str> = node.properties.keys().map(String::as_str).collect();
                let [before, after] = not_a_field(path, name);
                let near = names::did_you_mean(name, &known);
                return Err(format!("{before}{}{after}{near}", known.join(", ")));
            }
        };
        if indexed {
            match &node.items {
                Some(items) => node = items,
                None => return Err(not_a_list(path, name)),
            }
        }
    }
    Ok(Some(node))
}

/// What [`resolve`] says of a path that names a field the node does not have, before and
/// after the list of the node's fields.
fn not_a_field(path: &str, name: &str) -> [String; 2] {
    [
        format!("`{path}` names `{name}`, which is not a field there (fields: "),
        ")".to_string(),
    ]
}

fn not_a_list(path: &str, name: &str) -> String {
    format!("`{path}` indexes `{name}`, which is not a list")
}

fn wrong_type(path: &str, is: &str, types: &[&str]) -> String {
    format!("`{path}` is {is}, but it must be {}", types.join(" or "))
}

/// A printer column's `type`: as given, or inferred from what `json_path` leads to (a
/// `date-time` string is a `date`; `ObjectMeta`'s timestamps and `generation` are known);
/// `string` where the schema does not say.
pub fn column_type(root: &Schema, column: &PrintColumn) -> String {
    if let Some(t) = &column.type_ {
        return t.clone();
    }
    let inferred = match resolve(root, &column.json_path) {
        Ok(Some(node)) => match (node.type_str(), node.format.as_deref()) {
            ("string", Some("date-time")) => "date",
            ("integer" | "number" | "boolean", _) => node.type_str(),
            _ => "string",
        },
        _ => match column.json_path.as_str() {
            ".metadata.creationTimestamp" | ".metadata.deletionTimestamp" => "date",
            ".metadata.generation" => "integer",
            _ => "string",
        },
    };
    inferred.to_string()
}

/// How much of the schema the caller sees.
#[derive(Clone, Copy, Debug)]
pub enum View<'a> {
    /// Every type is built (`crd()`, `gen-cli`): an untyped node is untyped.
    Whole,
    /// Types behind other types are not visible yet (the derive, which passes the spec's type
    /// with the shapes its syntax shows): a path the visible schema cannot settle (it goes into
    /// such a type, or names a field the spec may flatten from one) is returned as a
    /// [`Deferred`] check.
    Partial(&'a TypeDef),
}

/// A path the partial view cannot settle, below `.spec` or `.status`. The derive settles it at
/// compile time, walking its steps through the types' [`Info`](crate::model::info::Info) (see
/// [`walk`](crate::model::info::walk)), with the whole view's messages.
#[derive(Clone, Debug)]
pub struct Deferred {
    /// Where the path is written.
    pub loc: Option<Loc>,
    /// Whether it goes into the status (else the spec).
    pub status: bool,
    /// Its steps below `.spec` or `.status`: each field's name, and whether it is indexed.
    pub steps: Vec<(String, bool)>,
    /// The JSON types the path must lead to (none: any).
    pub types: Vec<&'static str>,
    /// The message when the field of a step is not there, per step: before and after the list
    /// of the fields that are.
    pub missing: Vec<[String; 2]>,
    /// What comes before and after the near name, when one is ("did you mean").
    pub help: [String; 2],
    /// The message when a step indexes a field that is not a list, per step.
    pub not_a_list: Vec<String>,
    /// The message when the path leads to the JSON type of the same index in [`JSON_TYPES`],
    /// which is not one of `types`.
    pub wrong_type: Vec<String>,
}

/// The help under a misspelled field's error.
fn near_help(near: &str) -> String {
    format!("a field with a similar name exists: `{near}`")
}

/// Printer columns, scale paths and selectable fields must name fields of the schema; each
/// problem is reported at its key. The partial view returns the checks it leaves to the
/// compiler.
pub fn check(def: &ResourceDef, root: &Schema, view: View) -> Result<Vec<Deferred>, Errors> {
    let mut errors = Errors::default();
    let mut deferred = Vec::new();
    let m = &def.markers;
    let context = format!("{} {}", m.kind, m.version);
    let mut check = |key: &dyn PathKey,
                     what: &str,
                     (path, loc): (&str, Option<&Loc>),
                     under: &[&str],
                     types: &[&'static str]| {
        let loc = loc.or(m.loc.as_ref());
        let say = |problem: &str| format!("{} {what}: {problem}", key.site());
        let problem = if !under.is_empty() && !under.iter().any(|p| path.starts_with(p)) {
            let places: Vec<String> = under.iter().map(|p| format!("`{p}`")).collect();
            Some(format!("`{path}` must be under {}", places.join(" or ")))
        } else {
            let resolved = resolve(root, path);
            let settled = match (&resolved, view) {
                (_, View::Whole) => true,
                (Err(_), View::Partial(spec)) => {
                    !(path.starts_with(".spec.") && flattens_unseen(spec))
                }
                (Ok(None), View::Partial(_)) => path.starts_with(".metadata"),
                (Ok(Some(node)), View::Partial(_)) => !node.type_str().is_empty(),
            };
            match (resolved, deferrable(path)) {
                (_, Some((status, steps))) if !settled => {
                    deferred.push(defer(say, loc, status, steps, path, types));
                    None
                }
                (Err(e), _) => Some(e),
                (Ok(Some(node)), _) if !types.is_empty() && !types.contains(&node.type_str()) => {
                    let is = match node.type_str() {
                        "" => "untyped",
                        t => t,
                    };
                    Some(wrong_type(path, is, types))
                }
                (Ok(_), _) => None,
            }
        };
        if let Some(p) = problem {
            let (p, near) = match p.split_once(SUGGESTION) {
                Some((p, near)) => (p.to_string(), near.strip_suffix("`?")),
                None => (p, None),
            };
            let mut e = Error::new(loc, &context, say(&p));
            if let Some(near) = near {
                e = e.with_help(near_help(near), None);
            }
            errors.push(e);
        }
    };
    for c in &m.printcolumns {
        check(c, "json_path", (&c.json_path, c.loc.as_ref()), &[], &[]);
    }
    if let Some(s) = &m.scale {
        let spec = (s.spec_path.as_str(), s.spec_path_loc.as_ref());
        check(s, "spec_path", spec, &[".spec."], &["integer"]);
        check(
            s,
            "status_path",
            (&s.status_path, s.status_path_loc.as_ref()),
            &[".status."],
            &["integer"],
        );
        if let Some(sel) = &s.selector_path {
            check(
                s,
                "selector_path",
                (sel, s.selector_path_loc.as_ref()),
                &[".spec.", ".status."],
                &["string"],
            );
        }
    }
    for f in &m.selectable_fields {
        let path = (f.json_path.as_str(), f.loc.as_ref());
        check(f, "json_path", path, &[], &["string", "integer", "boolean"]);
    }
    errors.into_result(deferred)
}

/// Whether the spec flattens a type the partial view does not show.
fn flattens_unseen(spec: &TypeDef) -> bool {
    spec.fields().any(|f| {
        let (shape, _) = f.shape.peel_optional();
        f.serde.flatten && spec.walks(f) && matches!(shape, Shape::Opaque(_))
    })
}

/// A path below `.spec` or `.status` (`true`), as its steps below that.
fn deferrable(path: &str) -> Option<(bool, Vec<(String, bool)>)> {
    let segments = split(path.strip_prefix('.')?);
    let status = match segments.first() {
        Some(&"spec") => false,
        Some(&"status") => true,
        _ => return None,
    };
    let steps = segments[1..]
        .iter()
        .map(|segment| match segment.split_once('[') {
            Some((name, _)) => (name.to_string(), true),
            None => (segment.to_string(), false),
        })
        .collect();
    Some((status, steps))
}

/// The compile-time check of `path`, with the messages the whole view gives.
fn defer(
    say: impl Fn(&str) -> String,
    loc: Option<&Loc>,
    status: bool,
    steps: Vec<(String, bool)>,
    path: &str,
    types: &[&'static str],
) -> Deferred {
    // The help as the derive shows it (after the message), around a mark for the near name.
    let mark = "\u{0}";
    let shown = Error::new(None, "", "")
        .with_help(near_help(mark), None)
        .one_message();
    let help = match shown.split_once(mark) {
        Some((before, after)) => [before.to_string(), after.to_string()],
        None => [shown, String::new()],
    };
    Deferred {
        loc: loc.cloned(),
        status,
        missing: steps
            .iter()
            .map(|(name, _)| {
                let [before, after] = not_a_field(path, name);
                [say(&before), after]
            })
            .collect(),
        not_a_list: steps
            .iter()
            .map(|(name, _)| say(&not_a_list(path, name)))
            .collect(),
        steps,
        types: types.to_vec(),
        help,
        wrong_type: JSON_TYPES
            .iter()
            .map(|t| say(&wrong_type(path, t, types)))
            .collect(),
    }
}

/// Splits at dots outside brackets.
fn split(path: &str) -> Vec<&str> {
    // Cuts are at `char_indices` positions of `.` and one byte after: character boundaries.
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
        cond.properties
            .insert("status".into(), Schema::typed("string"));
        let mut status = Schema::typed("object");
        status.properties.insert(
            "conditions".into(),
            Schema {
                items: Some(Box::new(cond)),
                ..Schema::typed("array")
            },
        );
        let mut spec = Schema::typed("object");
        spec.properties
            .insert("size".into(), Schema::typed("integer"));
        let mut root = Schema::typed("object");
        root.properties.insert("spec".into(), spec);
        root.properties.insert("status".into(), status);
        root
    }

    #[test]
    fn column_types_are_inferred_from_the_schema() {
        let mut r = root();
        r.properties
            .get_mut("spec")
            .unwrap()
            .properties
            .insert("since".into(), Schema::formatted("string", "date-time"));
        let column = |path: &str, t: Option<&str>| PrintColumn {
            name: "c".into(),
            type_: t.map(str::to_string),
            json_path: path.into(),
            description: None,
            format: None,
            priority: None,
            loc: None,
        };
        assert_eq!(column_type(&r, &column(".spec.size", None)), "integer");
        assert_eq!(column_type(&r, &column(".spec.since", None)), "date");
        assert_eq!(
            column_type(&r, &column(".metadata.creationTimestamp", None)),
            "date"
        );
        assert_eq!(
            column_type(&r, &column(".status.conditions[0].status", None)),
            "string"
        );
        assert_eq!(
            column_type(&r, &column(".spec.size", Some("string"))),
            "string"
        );
    }

    #[test]
    fn paths_resolve_through_the_schema() {
        let r = root();
        assert_eq!(
            resolve(&r, ".spec.size").unwrap().unwrap().type_str(),
            "integer"
        );
        let ready = ".status.conditions[?(@.type==\"Ready\")].status";
        assert_eq!(resolve(&r, ready).unwrap().unwrap().type_str(), "string");
        assert_eq!(resolve(&r, ".metadata.creationTimestamp").unwrap(), None);
        assert!(
            resolve(&r, ".spec.sise")
                .unwrap_err()
                .contains("fields: size")
        );
        assert!(resolve(&r, "spec.size").is_err());
        assert!(resolve(&r, ".spec[0]").unwrap_err().contains("not a list"));
    }

    #[test]
    fn a_misspelled_field_gets_a_help_with_the_near_one() {
        let column = |json_path: &str| PrintColumn {
            name: "Size".into(),
            type_: None,
            json_path: json_path.into(),
            description: None,
            format: None,
            priority: None,
            loc: None,
        };
        let def = |path: &str| ResourceDef {
            markers: crate::model::ResourceMarkers {
                printcolumns: vec![column(path)],
                ..Default::default()
            },
            spec: crate::model::Shape::Opaque(String::new()),
            status: None,
        };
        let Err(Errors(found)) = check(&def(".spec.sise"), &root(), View::Whole) else {
            panic!("a path to no field is an error");
        };
        let [e] = found.as_slice() else {
            panic!("one error: {found:?}")
        };
        assert!(e.message.ends_with("(fields: size)"), "{}", e.message);
        assert_eq!(
            e.help.as_ref().map(|h| h.message.as_str()),
            Some("a field with a similar name exists: `size`")
        );
        let Err(Errors(found)) = check(&def(".spec.other"), &root(), View::Whole) else {
            panic!("a path to no field is an error");
        };
        assert_eq!(found[0].help, None, "nothing near `other`");
    }
}
