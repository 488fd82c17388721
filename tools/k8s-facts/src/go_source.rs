//! A small reader of the Go sources of `k8s.io/api` and `k8s.io/apimachinery`: struct type
//! declarations, their fields' JSON tags, doc comments and `+markers`, read from a git
//! directory at a tag (`git show`, `git ls-tree`), so nothing is checked out or copied.
//!
//! A hand parser rather than a Go grammar: the API packages are `gofmt`ed, and only top-level
//! `type X struct { ... }` declarations with one field per line are needed (what controller-gen
//! reads of them: names, types, tags, comments). Anything else in a file is skipped.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// One struct field.
#[derive(Clone, Debug)]
pub(crate) struct GoField {
    /// The Go type as written (`*metav1.Time`, `[]Container`).
    pub ty: String,
    /// The JSON name; empty for an inline (embedded or `,inline`) field.
    pub json: String,
    /// `omitempty` or `omitzero` in the JSON tag.
    pub omit: bool,
    /// The marker lines (without `+`), godoc and the closest group above it.
    pub markers: Vec<String>,
    /// The godoc's lines, each the text after `//`, markers kept.
    pub doc: Vec<String>,
}

/// One struct type.
#[derive(Clone, Debug)]
pub(crate) struct GoStruct {
    /// Its fields, in source order (`json:"-"` fields left out).
    pub fields: Vec<GoField>,
    /// The type's marker lines (without `+`).
    pub markers: Vec<String>,
    /// The godoc's lines.
    pub doc: Vec<String>,
    /// Import aliases of its file: alias → import path.
    pub imports: BTreeMap<String, String>,
    /// For `type X = Y` and `type X Y` (no fields of its own): the type expression `Y`.
    pub alias_of: Option<String>,
}

/// Every struct of one repository at one tag, by (import path, type name).
pub(crate) type Structs = BTreeMap<(String, String), GoStruct>;

/// Reads every struct of the Go packages of a git directory at `tag`, `module` being the
/// repository's import path (`k8s.io/api`).
pub(crate) fn read_repo(git_dir: &Path, tag: &str, module: &str, into: &mut Structs) {
    let files = git(git_dir, &["ls-tree", "-r", "--name-only", tag]);
    for file in files.lines() {
        let Some((dir, name)) = file.rsplit_once('/') else {
            continue;
        };
        if !name.ends_with(".go")
            || name.ends_with("_test.go")
            || name.contains("generated")
            || name.starts_with("zz_")
            || dir.contains("testdata")
        {
            continue;
        }
        let text = git(git_dir, &["show", &format!("{tag}:{file}")]);
        let package = format!("{module}/{dir}");
        for (name, go) in parse_file(&text) {
            into.insert((package.clone(), name), go);
        }
    }
}

/// The commit a tag or branch names (its first 12 hex digits).
pub(crate) fn commit(git_dir: &Path, tag: &str) -> String {
    let full = git(git_dir, &["rev-parse", &format!("{tag}^{{commit}}")]);
    full.trim().chars().take(12).collect()
}

/// Runs git on a git directory and returns its output.
fn git(git_dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("--git-dir")
        .arg(git_dir)
        .args(args)
        .output()
        .expect("cannot run git");
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 Go source")
}

/// A comment line's text after `//`, as Go's parser holds it.
fn comment(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("//")
}

/// The marker of a comment line's text (without `+`), if it is one.
fn marker(text: &str) -> Option<&str> {
    text.trim_start().strip_prefix('+').map(str::trim)
}

/// Comment groups seen above a declaration: the godoc (directly above) and the group before
/// it when a blank line separates them.
#[derive(Default)]
struct Comments {
    /// The group being read, or the last one if a blank line followed it.
    current: Vec<String>,
    /// The group above `current`.
    upper: Vec<String>,
    /// A blank line followed `current`.
    detached: bool,
}

impl Comments {
    /// Takes a comment line's text.
    fn push(&mut self, text: &str) {
        if self.detached {
            self.upper = std::mem::take(&mut self.current);
            self.detached = false;
        }
        self.current.push(text.to_string());
    }

    /// A blank line.
    fn blank(&mut self) {
        if !self.current.is_empty() {
            self.detached = true;
        }
    }

    /// The (doc, markers) of a declaration on this line; resets.
    fn take(&mut self) -> (Vec<String>, Vec<String>) {
        let (doc, upper) = if self.detached {
            (Vec::new(), std::mem::take(&mut self.current))
        } else {
            (
                std::mem::take(&mut self.current),
                std::mem::take(&mut self.upper),
            )
        };
        *self = Comments::default();
        let markers = upper
            .iter()
            .chain(&doc)
            .filter_map(|line| marker(line).map(str::to_string))
            .collect();
        (doc, markers)
    }
}

/// The structs of one file.
pub(crate) fn parse_file(text: &str) -> Vec<(String, GoStruct)> {
    let imports = imports(text);
    let mut structs = Vec::new();
    let mut comments = Comments::default();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(text) = comment(line) {
            comments.push(text);
            continue;
        }
        if line.trim().is_empty() {
            comments.blank();
            continue;
        }
        let (doc, markers) = comments.take();
        let Some(rest) = line.strip_prefix("type ") else {
            continue;
        };
        let (name, fields, alias_of) = if let Some(name) = rest.strip_suffix(" struct {") {
            (name, parse_fields(&mut lines), None)
        } else if let Some(name) = rest.strip_suffix(" struct{}") {
            (name, Vec::new(), None)
        } else {
            let mut words = rest.split_whitespace().filter(|w| *w != "=");
            let (Some(name), Some(target), None) = (words.next(), words.next(), words.next())
            else {
                continue;
            };
            (name, Vec::new(), Some(target.to_string()))
        };
        structs.push((
            name.trim().to_string(),
            GoStruct {
                fields,
                markers,
                doc,
                imports: imports.clone(),
                alias_of,
            },
        ));
    }
    structs
}

/// The import aliases of a file: alias (or last path segment) → path.
fn imports(text: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut in_block = false;
    for line in text.lines() {
        let spec = if in_block {
            if line.trim() == ")" {
                in_block = false;
                continue;
            }
            line.trim()
        } else if line.trim() == "import (" {
            in_block = true;
            continue;
        } else if let Some(rest) = line.strip_prefix("import ") {
            rest.trim()
        } else {
            continue;
        };
        let mut parts = spec.split_whitespace();
        let (alias, path) = match (parts.next(), parts.next()) {
            (Some(alias), Some(path)) if !alias.starts_with('"') => (Some(alias), path),
            (Some(path), _) => (None, path),
            _ => continue,
        };
        let path = path.trim_matches('"');
        let alias = alias.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path));
        found.insert(alias.to_string(), path.to_string());
    }
    found
}

/// The fields of a struct body, up to its closing `}`.
fn parse_fields<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Vec<GoField> {
    let mut fields = Vec::new();
    let mut comments = Comments::default();
    let mut depth = 0usize;
    for line in lines.by_ref() {
        let trimmed = line.trim();
        if trimmed == "}" && depth == 0 {
            break;
        }
        if let Some(text) = comment(line) {
            comments.push(text);
            continue;
        }
        if trimmed.is_empty() {
            comments.blank();
            continue;
        }
        let (doc, markers) = comments.take();
        // An inline struct literal type (not in API types; skipped whole).
        if trimmed.ends_with('{') {
            depth += 1;
            continue;
        }
        if trimmed.starts_with('}') {
            depth = depth.saturating_sub(1);
            continue;
        }
        if depth > 0 {
            continue;
        }
        let (decl, tag) = match trimmed.split_once('`') {
            Some((decl, tag)) => (decl.trim(), tag.trim_end_matches('`')),
            None => (trimmed, ""),
        };
        let decl = decl.split("//").next().unwrap_or(decl).trim();
        let words: Vec<&str> = decl.split_whitespace().collect();
        let (ty, embedded) = match words.as_slice() {
            [ty] => (ty.to_string(), true),
            [_, ty @ ..] => (ty.join(" "), false),
            [] => continue,
        };
        let json_tag = tag_value(tag, "json");
        let mut options = json_tag.as_deref().unwrap_or("").split(',');
        let json = options.next().unwrap_or("").to_string();
        let options: Vec<&str> = options.collect();
        if json == "-" && options.is_empty() {
            continue;
        }
        if json_tag.is_none() && !embedded {
            continue;
        }
        let inline = options.contains(&"inline") || (embedded && json.is_empty());
        fields.push(GoField {
            ty,
            json: if inline { String::new() } else { json },
            omit: options.contains(&"omitempty") || options.contains(&"omitzero"),
            markers,
            doc,
        });
    }
    fields
}

/// The value of `key:"value"` in a struct tag.
fn tag_value(tag: &str, key: &str) -> Option<String> {
    let start = tag.find(&format!("{key}:\""))? + key.len() + 2;
    let end = tag[start..].find('"')? + start;
    Some(tag[start..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_tags_docs_and_markers() {
        let text = "package v1\n\nimport (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n)\n\n\
                    // +genclient\n\n// Thing is a thing.\n// +structType=atomic\ntype Thing struct {\n\
                    \tmetav1.TypeMeta `json:\",inline\"`\n\n\t// Name of it.\n\t// +optional\n\
                    \t// +default=\"\"\n\tName string `json:\"name,omitempty\" protobuf:\"x\"`\n\
                    \tSkip int `json:\"-\"`\n\tCount *int32 `json:\"count\"`\n}\n";
        let structs = parse_file(text);
        let [(name, thing)] = structs.as_slice() else {
            panic!("one struct expected: {structs:?}")
        };
        assert_eq!(name, "Thing");
        assert_eq!(thing.markers, ["genclient", "structType=atomic"]);
        assert_eq!(thing.doc, [" Thing is a thing.", " +structType=atomic"]);
        assert_eq!(
            thing.imports["metav1"],
            "k8s.io/apimachinery/pkg/apis/meta/v1"
        );
        let fields: Vec<_> = thing
            .fields
            .iter()
            .map(|f| (f.json.as_str(), f.ty.as_str(), f.omit))
            .collect();
        assert_eq!(
            fields,
            [
                ("", "metav1.TypeMeta", false),
                ("name", "string", true),
                ("count", "*int32", false)
            ]
        );
        assert_eq!(thing.fields[1].markers, ["optional", "default=\"\""]);
        assert_eq!(thing.fields[1].doc[0], " Name of it.");
    }
}
