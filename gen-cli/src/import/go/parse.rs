//! Go source into the declarations `import go` reads, with tree-sitter's Go grammar: the
//! package clause, imports, type declarations (structs with their fields and tags, named and
//! alias types), string constants and method names, each with the comments controller-tools
//! attaches to it (see `docs`).

use std::collections::BTreeMap;
use std::fmt;

use tree_sitter::{Node, Parser};

/// A place in a Go file, 1-based as Go's `token.Position` (columns in bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// The file as named in messages.
    pub file: String,
    /// The line.
    pub line: usize,
    /// The column.
    pub col: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// One comment: its text with the `//` or `/* */`, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Comment {
    /// The whole comment.
    pub text: String,
    /// Its first line (0-based).
    pub start: usize,
    /// Its last line (0-based).
    pub end: usize,
    /// Where it starts.
    pub loc: Loc,
}

/// The comments controller-tools associates with a declaration or field.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Attached {
    /// The doc comment: the group ending on the line above.
    pub doc: Vec<Comment>,
    /// The closest group before the doc comment, whose marker lines count too.
    pub before: Vec<Comment>,
}

/// A Go type expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// A name of this package or a predeclared one (`string`, `int32`, `LongerString`).
    Name(String),
    /// `pkg.Name`.
    Qualified(String, String),
    /// `*T`.
    Pointer(Box<Type>),
    /// `[]T`.
    Slice(Box<Type>),
    /// `[N]T`.
    Array(Box<Type>),
    /// `map[K]V`.
    Map(Box<Type>, Box<Type>),
    /// `struct { ... }`.
    Struct(Vec<Field>),
    /// Anything else (interfaces, functions, channels, generics), as written.
    Other(String),
}

/// A struct field.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Its name; none for an embedded field.
    pub name: Option<String>,
    /// Its type (an embedded `*T` is `Pointer`).
    pub ty: Type,
    /// Its tag's text, without the quotes.
    pub tag: Option<String>,
    /// Its comments.
    pub comments: Attached,
    /// Where it is.
    pub loc: Loc,
}

/// A type declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDecl {
    /// Its name.
    pub name: String,
    /// `type A = B`.
    pub alias: bool,
    /// The type it declares.
    pub ty: Type,
    /// Its comments.
    pub comments: Attached,
    /// Where its name is.
    pub loc: Loc,
}

/// What one Go file declares.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct File {
    /// The package name.
    pub package: String,
    /// The package clause's comments.
    pub package_comments: Attached,
    /// Comments that belong to no declaration (package-level markers).
    pub free: Vec<Comment>,
    /// The imports: name (or the path's last element) to path.
    pub imports: BTreeMap<String, String>,
    /// The type declarations, in order.
    pub types: Vec<TypeDecl>,
    /// Typed string constants: (type, value).
    pub constants: Vec<(String, String)>,
    /// Methods: (receiver type, method name, where).
    pub methods: Vec<(String, String, Loc)>,
}

/// A file that does not parse: where, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    /// Where the first error is.
    pub loc: Loc,
    /// What tree-sitter found there.
    pub message: String,
}

/// The declarations of a Go file named `name`.
pub fn file(name: &str, source: &str) -> Result<File, SyntaxError> {
    let tree = tree(source).ok_or_else(|| SyntaxError {
        loc: loc(name, 0, 0),
        message: "the parser gave up".into(),
    })?;
    let root = tree.root_node();
    if root.has_error() {
        return Err(first_error(name, source, root));
    }
    let mut reader = Reader {
        name,
        src: source.as_bytes(),
        file: File::default(),
    };
    reader.top(root);
    Ok(reader.file)
}

/// tree-sitter's tree of a Go source (`None` only if the parser gives up).
fn tree(source: &str) -> Option<tree_sitter::Tree> {
    let mut parser = Parser::new();
    let language = tree_sitter::Language::new(tree_sitter_go::LANGUAGE);
    parser
        .set_language(&language)
        .expect("the Go grammar matches the tree-sitter library");
    parser.parse(source, None)
}

/// The comments of a Go file that start a line (package-level ones, in gofmt's layout), found
/// even where the file does not parse (tree-sitter's grammar lags Go: `new(expr)` of Go 1.26);
/// and the first syntax error, if any.
pub fn line_comments(name: &str, source: &str) -> (Vec<Comment>, Option<SyntaxError>) {
    let Some(tree) = tree(source) else {
        return (Vec::new(), None);
    };
    let root = tree.root_node();
    let error = root.has_error().then(|| first_error(name, source, root));
    let mut nodes = Vec::new();
    collect(root, "comment", &mut nodes);
    let comments = nodes
        .into_iter()
        .filter(|n| n.start_position().column == 0)
        .map(|n| Comment {
            text: n
                .utf8_text(source.as_bytes())
                .unwrap_or_default()
                .to_string(),
            start: n.start_position().row,
            end: n.end_position().row,
            loc: loc(name, n.start_position().row, 0),
        })
        .collect();
    (comments, error)
}

fn loc(file: &str, row: usize, column: usize) -> Loc {
    Loc {
        file: file.to_string(),
        line: row + 1,
        col: column + 1,
    }
}

/// The first `ERROR` or missing node, depth first.
fn first_error(name: &str, source: &str, node: Node) -> SyntaxError {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.has_error() || child.is_missing() {
            return first_error(name, source, child);
        }
    }
    if node.is_missing() {
        let p = node.start_position();
        return SyntaxError {
            loc: loc(name, p.row, p.column),
            message: format!("expected `{}`", node.kind()),
        };
    }
    // An `ERROR` node holds what parsed before the error, then the tokens that did not: the
    // error is at a quote left open, else at the first token after the last whole construct.
    let mut c = node.walk();
    let children: Vec<Node> = node.children(&mut c).collect();
    let (at, message) = match children.iter().find(|n| matches!(n.kind(), "`" | "\"")) {
        Some(quote) => (
            *quote,
            "a string literal that is not terminated".to_string(),
        ),
        None => {
            let after = children.iter().rposition(|n| n.child_count() > 0);
            let at = after
                .and_then(|i| children.get(i + 1))
                .copied()
                .unwrap_or(node);
            let text = at.utf8_text(source.as_bytes()).unwrap_or_default();
            let token: String = text.chars().take(24).collect();
            (at, format!("syntax error at `{}`", token.trim()))
        }
    };
    let p = at.start_position();
    SyntaxError {
        loc: loc(name, p.row, p.column),
        message,
    }
}

struct Reader<'a> {
    name: &'a str,
    src: &'a [u8],
    file: File,
}

impl Reader<'_> {
    fn text(&self, node: Node) -> String {
        node.utf8_text(self.src).unwrap_or_default().to_string()
    }

    fn loc(&self, node: Node) -> Loc {
        let p = node.start_position();
        loc(self.name, p.row, p.column)
    }

    /// The file's top level.
    fn top(&mut self, root: Node) {
        let mut cursor = root.walk();
        let children: Vec<Node> = root.named_children(&mut cursor).collect();
        for (node, attached, free) in self.attach(&children) {
            self.file.free.extend(free);
            match node.kind() {
                "package_clause" => {
                    let mut c = node.walk();
                    if let Some(id) = node.named_children(&mut c).next() {
                        self.file.package = self.text(id);
                    }
                    self.file.package_comments = attached;
                }
                "import_declaration" => self.imports(node),
                "type_declaration" => self.types(node, attached),
                "const_declaration" => self.constants(node),
                "method_declaration" => {
                    // A method's comments may hold package markers (RBAC on `Reconcile`).
                    self.file.free.extend(attached.before);
                    self.file.free.extend(attached.doc);
                    self.method(node);
                }
                // Comments on functions and variables may hold package markers (RBAC).
                _ => {
                    self.file.free.extend(attached.before);
                    self.file.free.extend(attached.doc);
                }
            }
        }
    }

    /// Each non-comment node of `nodes` with its comments, and the comment groups before it
    /// that are neither (controller-tools' package-level ones).
    fn attach<'t>(&self, nodes: &[Node<'t>]) -> Vec<(Node<'t>, Attached, Vec<Comment>)> {
        let mut out = Vec::new();
        let mut groups: Vec<Vec<Comment>> = Vec::new();
        let mut last_end: Option<usize> = None;
        for &node in nodes {
            let start = node.start_position().row;
            if node.kind() == "comment" {
                // A comment on the line a node ends on trails it: no one's.
                if last_end == Some(start) && groups.is_empty() {
                    continue;
                }
                let comment = Comment {
                    text: self.text(node),
                    start,
                    end: node.end_position().row,
                    loc: self.loc(node),
                };
                match groups.last_mut() {
                    Some(g) if g.last().is_some_and(|c| c.end + 1 == start) => g.push(comment),
                    _ => groups.push(vec![comment]),
                }
                continue;
            }
            let mut attached = Attached::default();
            if groups
                .last()
                .and_then(|g| g.last())
                .is_some_and(|c| c.end + 1 == start)
            {
                attached.doc = groups.pop().unwrap_or_default();
            }
            if let Some(g) = groups.pop() {
                attached.before = g;
            }
            let free = groups.drain(..).flatten().collect();
            out.push((node, attached, free));
            last_end = Some(node.end_position().row);
        }
        self.file_tail(groups, &mut out);
        out
    }

    /// Comment groups after the last node: free comments of the file (at the top level).
    fn file_tail<'t>(
        &self,
        groups: Vec<Vec<Comment>>,
        out: &mut [(Node<'t>, Attached, Vec<Comment>)],
    ) {
        if let Some(last) = out.last_mut() {
            last.2.extend(groups.into_iter().flatten());
        }
    }

    fn imports(&mut self, node: Node) {
        let mut specs = Vec::new();
        collect(node, "import_spec", &mut specs);
        for spec in specs {
            let Some(path) = spec.child_by_field_name("path") else {
                continue;
            };
            let path = self.text(path).trim_matches(['"', '`']).to_string();
            let name = match spec.child_by_field_name("name") {
                Some(n) => self.text(n),
                None => path.rsplit('/').next().unwrap_or_default().to_string(),
            };
            self.file.imports.insert(name, path);
        }
    }

    fn types(&mut self, node: Node, attached: Attached) {
        let mut cursor = node.walk();
        let specs: Vec<Node> = node.named_children(&mut cursor).collect();
        let grouped = specs.iter().filter(|s| s.kind() != "comment").count() > 1
            || node.child(1).is_some_and(|c| c.kind() == "(");
        if grouped {
            // `type ( ... )`: the declaration's comments are free, each spec has its own.
            self.file.free.extend(attached.before);
            self.file.free.extend(attached.doc);
            for (spec, attached, free) in self.attach(&specs) {
                self.file.free.extend(free);
                self.type_spec(spec, attached);
            }
        } else if let Some(spec) = specs.into_iter().find(|s| s.kind() != "comment") {
            self.type_spec(spec, attached);
        }
    }

    fn type_spec(&mut self, spec: Node, comments: Attached) {
        let (Some(name), Some(ty)) = (
            spec.child_by_field_name("name"),
            spec.child_by_field_name("type"),
        ) else {
            return;
        };
        let decl = TypeDecl {
            name: self.text(name),
            alias: spec.kind() == "type_alias",
            ty: self.ty(ty),
            comments,
            loc: self.loc(name),
        };
        self.file.types.push(decl);
    }

    fn ty(&self, node: Node) -> Type {
        let child = |field: &str| node.child_by_field_name(field).map(|n| self.ty(n));
        let boxed = |t: Option<Type>| Box::new(t.unwrap_or_else(|| Type::Other(String::new())));
        match node.kind() {
            "type_identifier" => Type::Name(self.text(node)),
            "qualified_type" => Type::Qualified(
                node.child_by_field_name("package")
                    .map(|n| self.text(n))
                    .unwrap_or_default(),
                node.child_by_field_name("name")
                    .map(|n| self.text(n))
                    .unwrap_or_default(),
            ),
            "pointer_type" => {
                let mut c = node.walk();
                let inner = node.named_children(&mut c).next().map(|n| self.ty(n));
                Type::Pointer(boxed(inner))
            }
            "slice_type" => Type::Slice(boxed(child("element"))),
            "array_type" => Type::Array(boxed(child("element"))),
            "map_type" => Type::Map(boxed(child("key")), boxed(child("value"))),
            "parenthesized_type" => {
                let mut c = node.walk();
                let inner = node.named_children(&mut c).next();
                inner.map_or_else(|| Type::Other(self.text(node)), |n| self.ty(n))
            }
            "struct_type" => {
                let mut c = node.walk();
                let list = node.named_children(&mut c).next();
                Type::Struct(list.map(|l| self.fields(l)).unwrap_or_default())
            }
            _ => Type::Other(self.text(node)),
        }
    }

    fn fields(&self, list: Node) -> Vec<Field> {
        let mut cursor = list.walk();
        let nodes: Vec<Node> = list.named_children(&mut cursor).collect();
        let mut out = Vec::new();
        for (node, comments, _) in self.attach(&nodes) {
            if node.kind() != "field_declaration" {
                continue;
            }
            let tag = node
                .child_by_field_name("tag")
                .map(|t| self.text(t))
                .map(|t| unquote(&t));
            let ty = node
                .child_by_field_name("type")
                .map(|t| self.ty(t))
                .unwrap_or_else(|| Type::Other(String::new()));
            let mut c = node.walk();
            let names: Vec<Node> = node
                .children_by_field_name("name", &mut c)
                .collect::<Vec<_>>();
            if names.is_empty() {
                let pointer = node.child(0).is_some_and(|c| c.kind() == "*");
                out.push(Field {
                    name: None,
                    ty: if pointer {
                        Type::Pointer(Box::new(ty))
                    } else {
                        ty
                    },
                    tag,
                    comments,
                    loc: self.loc(node),
                });
                continue;
            }
            for name in names {
                out.push(Field {
                    name: Some(self.text(name)),
                    ty: ty.clone(),
                    tag: tag.clone(),
                    comments: comments.clone(),
                    loc: self.loc(name),
                });
            }
        }
        out
    }

    fn constants(&mut self, node: Node) {
        let mut specs = Vec::new();
        collect(node, "const_spec", &mut specs);
        for spec in specs {
            let (Some(ty), Some(value)) = (
                spec.child_by_field_name("type"),
                spec.child_by_field_name("value"),
            ) else {
                continue;
            };
            let mut c = value.walk();
            let Some(lit) = value.named_children(&mut c).next() else {
                continue;
            };
            if matches!(
                lit.kind(),
                "interpreted_string_literal" | "raw_string_literal"
            ) {
                let text = unquote(&self.text(lit));
                self.file.constants.push((self.text(ty), text));
            }
        }
    }

    fn method(&mut self, node: Node) {
        let (Some(receiver), Some(name)) = (
            node.child_by_field_name("receiver"),
            node.child_by_field_name("name"),
        ) else {
            return;
        };
        let mut ids = Vec::new();
        collect(receiver, "type_identifier", &mut ids);
        if let Some(ty) = ids.first() {
            let entry = (self.text(*ty), self.text(name), self.loc(name));
            self.file.methods.push(entry);
        }
    }
}

/// Every node of `kind` below `node`.
fn collect<'t>(node: Node<'t>, kind: &str, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if child.kind() == kind {
            out.push(child);
        } else {
            collect(child, kind, out);
        }
    }
}

/// A Go string literal's value: raw (backquoted) as written, interpreted with its escapes.
pub fn unquote(literal: &str) -> String {
    if let Some(raw) = literal.strip_prefix('`').and_then(|s| s.strip_suffix('`')) {
        return raw.to_string();
    }
    let inner = literal
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(literal);
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"// +groupName=example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +kubebuilder:object:root=true

// Widget is a thing.
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta `json:",inline"`
	// Size counts.
	// +optional
	Size *int32 `json:"size,omitempty"` // trailing
	A, B string
	*Inner `json:",inline"`
}

type Mode string

const (
	Fast Mode = "fast"
)

func (w *Widget) MarshalJSON() ([]byte, error) { return nil, nil }
"#;

    #[test]
    fn reads_declarations_with_their_comment_groups() {
        let f = file("w.go", SOURCE).unwrap();
        assert_eq!(f.package, "v1");
        assert_eq!(f.package_comments.doc[0].text, "// +groupName=example.com");
        assert_eq!(f.imports["metav1"], "k8s.io/apimachinery/pkg/apis/meta/v1");
        assert_eq!(f.imports["intstr"], "k8s.io/apimachinery/pkg/util/intstr");
        let w = &f.types[0];
        assert_eq!(w.name, "Widget");
        assert_eq!(
            w.comments.before[0].text,
            "// +kubebuilder:object:root=true"
        );
        assert_eq!(w.comments.doc.len(), 2);
        let Type::Struct(fields) = &w.ty else {
            panic!("{:?}", w.ty)
        };
        let names: Vec<_> = fields.iter().map(|f| f.name.clone()).collect();
        assert_eq!(
            names,
            [
                None,
                Some("Size".into()),
                Some("A".into()),
                Some("B".into()),
                None
            ]
        );
        assert_eq!(
            fields[1].ty,
            Type::Pointer(Box::new(Type::Name("int32".into())))
        );
        assert_eq!(fields[1].tag.as_deref(), Some(r#"json:"size,omitempty""#));
        assert_eq!(fields[1].comments.doc.len(), 2);
        assert!(
            fields[2].comments.doc.is_empty(),
            "a trailing comment is no doc"
        );
        assert_eq!(
            fields[4].ty,
            Type::Pointer(Box::new(Type::Name("Inner".into())))
        );
        assert_eq!(fields[1].loc.to_string(), "w.go:17:2");
        assert_eq!(f.constants, [("Mode".to_string(), "fast".to_string())]);
        assert_eq!(f.methods[0].0, "Widget");
        assert_eq!(f.methods[0].1, "MarshalJSON");
    }

    #[test]
    fn a_syntax_error_is_located() {
        let e = file(
            "bad.go",
            "package v1\n\ntype A struct {\n\tX int `json:\"x\"\n}\n",
        )
        .unwrap_err();
        assert_eq!(e.loc.to_string(), "bad.go:4:8");
        assert_eq!(e.message, "a string literal that is not terminated");
        let e = file(
            "bad.go",
            "package v1\n\ntype A struct {\n\tX int\n\tY map[string\n}\n",
        )
        .unwrap_err();
        assert_eq!(e.loc.line, 5, "{e:?}");
    }
}
