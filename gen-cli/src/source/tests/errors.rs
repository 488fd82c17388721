//! Errors: each at the right `file:line:col`, with a message that says what to fix.

use super::{TempCrate, lib, lib_with, module};
use crate::source::{Cfg, Crate, ModuleId, Origin, SourceError, Visitor};
use syn::Item;

#[test]
fn parse_error_location() {
    let temp = TempCrate::new(&[
        ("src/lib.rs", "mod api;"),
        (
            "src/api.rs",
            "pub struct A;\npub struct B {\n    x: u8\n    y: u8,\n}\n",
        ),
    ]);
    let err = temp.load().unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/api.rs"));
    assert_eq!((err.loc.line, err.loc.column), (4, 5));
    assert!(err.message.starts_with("syntax error: "), "{}", err.message);
    assert_eq!(
        err.to_string(),
        format!("{}:4:5: {}", temp.file("src/api.rs"), err.message)
    );
}

#[test]
fn parse_error_at_end_of_file() {
    let temp = TempCrate::new(&[("src/lib.rs", "pub struct A;\nstruct B")]);
    let err = temp.load().unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/lib.rs"));
    assert_eq!((err.loc.line, err.loc.column), (2, 9));
    assert!(
        err.message.contains("unexpected end of input"),
        "{}",
        err.message
    );
}

#[test]
fn unbalanced_delimiter() {
    let temp = TempCrate::new(&[("src/lib.rs", "pub struct A;\nfn f() {\n  let x = 1;")]);
    let err = temp.load().unwrap_err();
    assert_eq!((err.loc.line, err.loc.column), (2, 8));
    assert_eq!(
        err.message,
        "syntax error: unbalanced delimiter or unterminated literal"
    );
}

#[test]
fn missing_module_file_lists_the_paths_tried() {
    let temp = TempCrate::new(&[
        ("src/lib.rs", "mod a;"),
        (
            "src/a.rs",
            "\n/// Docs.\n#[allow(unused)]\n  pub mod missing;\n",
        ),
    ]);
    let err = temp.load().unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/a.rs"));
    assert_eq!((err.loc.line, err.loc.column), (4, 3));
    assert_eq!(
        err.message,
        format!(
            "file not found for module `missing`: tried `{}` and `{}`",
            temp.path("src/a/missing.rs").display(),
            temp.path("src/a/missing/mod.rs").display()
        )
    );
}

#[test]
fn missing_path_attribute_file() {
    let temp = TempCrate::new(&[("src/lib.rs", "#[path = \"gone.rs\"]\nmod x;")]);
    let err = temp.load().unwrap_err();
    assert_eq!((err.loc.line, err.loc.column), (2, 1));
    assert_eq!(
        err.message,
        format!(
            "file not found for module `x`: tried `{}`",
            temp.path("src/gone.rs").display()
        )
    );
}

#[test]
fn malformed_path_attribute() {
    let temp = TempCrate::new(&[("src/lib.rs", "#[path(\"x.rs\")]\nmod x;")]);
    let err = temp.load().unwrap_err();
    assert_eq!((err.loc.line, err.loc.column), (1, 1));
    assert!(
        err.message.contains("#[path = \\\"file.rs\\\"]")
            || err.message.contains("#[path = \"file.rs\"]")
    );
}

#[test]
fn both_module_files_exist() {
    let temp = TempCrate::new(&[
        ("src/lib.rs", "mod x;"),
        ("src/x.rs", ""),
        ("src/x/mod.rs", ""),
    ]);
    let err = temp.load().unwrap_err();
    assert!(
        err.message.starts_with("file for module `x` found at both"),
        "{}",
        err.message
    );
}

#[test]
fn circular_path_attributes() {
    let temp = TempCrate::new(&[
        ("src/lib.rs", "mod a;"),
        ("src/a.rs", "#[path = \"../src/a.rs\"] mod again;"),
    ]);
    let err = temp.load().unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/a.rs"));
    assert_eq!(
        err.message,
        format!(
            "circular modules: {} -> {}",
            temp.file("src/a.rs"),
            temp.path("src/../src/a.rs").display()
        )
    );
}

#[test]
fn unreadable_root_file() {
    let temp = TempCrate::new(&[]);
    let root = temp.path("src/lib.rs");
    let err = Crate::load("demo", &root, &Cfg::default()).unwrap_err();
    assert_eq!(err.loc.file, root.display().to_string());
    assert_eq!((err.loc.line, err.loc.column), (1, 1));
    assert!(
        err.message
            .starts_with(&format!("cannot read `{}`: ", root.display())),
        "{}",
        err.message
    );
}

/// Resolves the type of each field of each struct in a module, on the thread that parsed it.
struct FieldTypes;

impl Visitor for FieldTypes {
    type Read = Vec<(String, syn::Path)>;
    type Output = Vec<(String, Result<(), SourceError>)>;

    fn read(&self, _: &Origin, items: &mut [Item]) -> Self::Read {
        let mut paths = Vec::new();
        for item in items.iter() {
            let Item::Struct(s) = item else { continue };
            for field in &s.fields {
                if let (Some(ident), syn::Type::Path(ty)) = (&field.ident, &field.ty) {
                    paths.push((format!("{}.{ident}", s.ident), ty.path.clone()));
                }
            }
        }
        paths
    }

    fn finish(&self, krate: &Crate, id: ModuleId, read: Self::Read) -> Self::Output {
        read.into_iter()
            .map(|(field, path)| (field, krate.resolve_type(id, &path).map(|_| ())))
            .collect()
    }
}

#[test]
fn unresolved_path_with_suggestion() {
    let (temp, _krate, found) = lib_with(
        "pub struct MemcachedSpec;\nstruct Root {\n    spec: MemcachedSpc,\n    other: Strng,\n    far: Zzzzzz,\n}\n",
        &FieldTypes,
    );
    let error = |field: &str| {
        found[0]
            .iter()
            .find(|(f, _)| f == field)
            .and_then(|(_, r)| r.clone().err())
            .unwrap_or_else(|| panic!("{field} does not resolve"))
    };
    assert_eq!(
        error("Root.spec").to_string(),
        format!(
            "{}:3:11: cannot resolve type `MemcachedSpc`: no `MemcachedSpc` in module `crate` \
             nor in the prelude; did you mean `MemcachedSpec`?",
            temp.file("src/lib.rs")
        )
    );
    let err = error("Root.other");
    assert!(
        err.message.ends_with("did you mean `String`?"),
        "{}",
        err.message
    );
    let err = error("Root.far");
    assert!(!err.message.contains("did you mean"), "{}", err.message);
}

#[test]
fn unresolved_segment_in_a_module() {
    let (_temp, krate) = lib("pub mod api { pub mod v1 { pub struct Spec; } }");
    let path = syn::parse_str("crate::api::v1::Spce").unwrap();
    let err = krate.resolve_type(krate.root(), &path).unwrap_err();
    assert_eq!(
        err.message,
        "cannot resolve type `crate::api::v1::Spce`: no `Spce` in module `crate::api::v1`; \
         did you mean `Spec`?"
    );
    let path = syn::parse_str("crate::apx::v1::Spec").unwrap();
    let err = krate.resolve_type(krate.root(), &path).unwrap_err();
    assert_eq!(
        err.message,
        "cannot resolve type `crate::apx::v1::Spec`: no `apx` in module `crate`; did you mean `api`?"
    );
}

#[test]
fn suggestion_from_a_glob_import() {
    let (_temp, krate) =
        lib("pub mod model { pub struct Status; } mod user { use crate::model::*; }");
    let path = syn::parse_str("Statuss").unwrap();
    let err = krate
        .resolve_type(module(&krate, "user"), &path)
        .unwrap_err();
    assert!(
        err.message.ends_with("did you mean `Status`?"),
        "{}",
        err.message
    );
}

#[test]
fn path_to_a_module_or_through_an_item() {
    let (_temp, krate) = lib("pub mod api {} pub struct S; pub enum E { A }");
    let err = krate
        .resolve_type(krate.root(), &syn::parse_str("api").unwrap())
        .unwrap_err();
    assert_eq!(err.message, "expected a type, found module `crate::api`");
    let err = krate
        .resolve_type(krate.root(), &syn::parse_str("E::A").unwrap())
        .unwrap_err();
    assert_eq!(
        err.message,
        "cannot resolve type `E::A`: `E` is not a module"
    );
    let err = krate
        .resolve_type(krate.root(), &syn::parse_str("Self").unwrap())
        .unwrap_err();
    assert!(
        err.message
            .contains("`Self` depends on the surrounding `impl`")
    );
}

#[test]
fn import_cycle_is_an_error_at_the_import() {
    let (temp, krate) =
        lib("mod a {\n    pub use crate::b::X;\n}\nmod b {\n    pub use crate::a::X;\n}\n");
    let err = krate
        .resolve_type(module(&krate, "a"), &syn::parse_str("X").unwrap())
        .unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/lib.rs"));
    assert_eq!((err.loc.line, err.loc.column), (5, 23));
    assert_eq!(
        err.message,
        "cannot resolve import `crate::a::X`: no `X` in module `crate::a`"
    );
}

#[test]
fn ambiguous_local_globs() {
    let (_temp, krate) = lib("
        pub mod a { pub struct Thing; }
        pub mod b { pub struct Thing; }
        mod user { use crate::a::*; use crate::b::*; }
        mod same { use crate::a::*; use crate::a::Thing as _; use super::a::*; }
    ");
    let err = krate
        .resolve_type(module(&krate, "user"), &syn::parse_str("Thing").unwrap())
        .unwrap_err();
    assert_eq!(
        err.message,
        "`Thing` is ambiguous: the glob imports `crate::a::*` and `crate::b::*` both bring one in"
    );
    // Two globs that bring in the same item are fine.
    assert!(
        krate
            .resolve_type(module(&krate, "same"), &syn::parse_str("Thing").unwrap())
            .is_ok()
    );
}

#[test]
fn the_first_error_in_module_order_is_reported_however_the_files_are_read() {
    // `a` (read on some thread) fails inside its own child; `b` and a later `#[path]` fail too.
    let temp = TempCrate::new(&[
        (
            "src/lib.rs",
            "mod a;\nmod b;\nmod inline { mod c; }\n#[path = 5] mod d;\n",
        ),
        ("src/a.rs", "pub struct A;\nmod deep;\n"),
        ("src/a/deep.rs", "mod missing;\n"),
        ("src/b.rs", "pub struct B {\n"),
        ("src/inline/c.rs", "fn (\n"),
    ]);
    for _ in 0..20 {
        let err = temp.load().unwrap_err();
        assert_eq!(err.loc.file, temp.file("src/a/deep.rs"));
        assert!(
            err.message
                .starts_with("file not found for module `missing`"),
            "{}",
            err.message
        );
    }
    // Without it, the next one in order: `b`'s syntax error.
    std::fs::write(temp.path("src/a/deep.rs"), "").unwrap();
    let err = temp.load().unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/b.rs"));
    std::fs::write(temp.path("src/b.rs"), "").unwrap();
    let err = temp.load().unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/inline/c.rs"));
    std::fs::write(temp.path("src/inline/c.rs"), "").unwrap();
    let err = temp.load().unwrap_err();
    assert_eq!(
        (err.loc.line, err.message.as_str()),
        (4, "expected a string literal: `#[path = \"file.rs\"]`")
    );
}
