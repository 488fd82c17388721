//! Where `mod` items find their files, and which modules and items are kept.

use super::{TempCrate, layout};
use crate::source::Cfg;

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(path, file)| (path.to_string(), file.to_string()))
        .collect()
}

#[test]
fn mod_rs_and_non_mod_rs_files() {
    let temp = TempCrate::new(&[
        ("src/lib.rs", "mod a; pub mod b;"),
        ("src/a.rs", "mod c;"),
        ("src/a/c.rs", "pub struct C;"),
        ("src/b/mod.rs", "mod d;"),
        ("src/b/d.rs", "mod e;"),
        ("src/b/d/e/mod.rs", ""),
    ]);
    let krate = temp.load().unwrap();
    assert_eq!(
        layout(&temp, &krate),
        pairs(&[
            ("", "src/lib.rs"),
            ("a", "src/a.rs"),
            ("a::c", "src/a/c.rs"),
            ("b", "src/b/mod.rs"),
            ("b::d", "src/b/d.rs"),
            ("b::d::e", "src/b/d/e/mod.rs"),
        ])
    );
    assert_eq!(krate.name(), "demo");
    assert!(krate.module(krate.root()).path().is_empty());
}

#[test]
fn main_rs_is_a_root_like_lib_rs() {
    let temp = TempCrate::new(&[("src/main.rs", "mod cli; fn main() {}"), ("src/cli.rs", "")]);
    let krate = super::Crate::load("demo", &temp.path("src/main.rs"), &Cfg::default()).unwrap();
    assert_eq!(
        layout(&temp, &krate),
        pairs(&[("", "src/main.rs"), ("cli", "src/cli.rs")])
    );
}

#[test]
fn path_attribute_is_relative_to_the_current_file() {
    let temp = TempCrate::new(&[
        ("src/lib.rs", "#[path = \"other/x_impl.rs\"] mod x; mod a;"),
        // A `#[path]` file is like a `mod.rs`: its children are its siblings.
        ("src/other/x_impl.rs", "mod y;"),
        ("src/other/y.rs", ""),
        // In a non-mod.rs file, `#[path]` is still relative to the file's own directory.
        ("src/a.rs", "#[path = \"foo.rs\"] mod c;"),
        ("src/foo.rs", ""),
    ]);
    let krate = temp.load().unwrap();
    assert_eq!(
        layout(&temp, &krate),
        pairs(&[
            ("", "src/lib.rs"),
            ("x", "src/other/x_impl.rs"),
            ("x::y", "src/other/y.rs"),
            ("a", "src/a.rs"),
            ("a::c", "src/foo.rs"),
        ])
    );
}

#[test]
fn inline_modules() {
    let temp = TempCrate::new(&[
        (
            "src/lib.rs",
            "mod x { pub mod y; mod z { mod w; } }
             #[path = \"pdir\"] mod p { mod q; }
             mod a;",
        ),
        ("src/x/y.rs", "pub struct Y;"),
        ("src/x/z/w.rs", ""),
        ("src/pdir/q.rs", ""),
        // Inline modules in `a.rs` put their children under `a/`.
        (
            "src/a.rs",
            "mod inl { mod k; #[path = \"other.rs\"] mod inside; }
             #[path = \"adir\"] mod p2 { mod q2; }",
        ),
        ("src/a/inl/k.rs", ""),
        ("src/a/inl/other.rs", ""),
        // rustc: `#[path]` on an inline module is relative to the file's directory, even in
        // a non-mod.rs file.
        ("src/adir/q2.rs", ""),
    ]);
    let krate = temp.load().unwrap();
    assert_eq!(
        layout(&temp, &krate),
        pairs(&[
            ("", "src/lib.rs"),
            ("x", "src/lib.rs"),
            ("x::y", "src/x/y.rs"),
            ("x::z", "src/lib.rs"),
            ("x::z::w", "src/x/z/w.rs"),
            ("p", "src/lib.rs"),
            ("p::q", "src/pdir/q.rs"),
            ("a", "src/a.rs"),
            ("a::inl", "src/a.rs"),
            ("a::inl::k", "src/a/inl/k.rs"),
            ("a::inl::inside", "src/a/inl/other.rs"),
            ("a::p2", "src/a.rs"),
            ("a::p2::q2", "src/adir/q2.rs"),
        ])
    );
}

#[test]
fn inline_module_items_move_to_the_inline_module() {
    let count = super::Each(|_: &_, items: &mut [syn::Item]| items.len());
    let (_temp, krate, items) =
        super::lib_with("mod x { pub struct A; pub struct B; } struct C;", &count);
    // The root has its `mod` item and `C`; `x` has `A` and `B`.
    assert_eq!(items, [2, 2]);
    let names = |id| -> Vec<&str> {
        let types = krate.module(id).types().iter();
        types.map(|t| t.name.as_str()).collect()
    };
    assert_eq!(names(krate.root()), ["C"]);
    assert_eq!(names(super::module(&krate, "x")), ["A", "B"]);
}

#[test]
fn raw_identifier_module() {
    let temp = TempCrate::new(&[("src/lib.rs", "mod r#type;"), ("src/type.rs", "")]);
    let krate = temp.load().unwrap();
    assert_eq!(
        layout(&temp, &krate),
        pairs(&[("", "src/lib.rs"), ("type", "src/type.rs")])
    );
}

#[test]
fn modules_and_items_whose_cfg_does_not_hold_are_skipped() {
    let temp = TempCrate::new(&[
        (
            "src/lib.rs",
            "#[cfg(test)] mod tests;
             #[cfg(all(test, feature = \"slow\"))] mod slow_tests { mod missing; }
             mod inner_cfg;
             #[cfg(feature = \"extra\")] mod extra;
             #[cfg_attr(not(feature = \"extra\"), cfg(doc))] mod extra_too;
             #[cfg(test)] struct OnlyInTests;
             #[cfg(not(test))] struct NotInTests;
             #[cfg(any(feature = \"extra\", doc))] struct Extra;
             struct Always;",
        ),
        ("src/inner_cfg.rs", "#![cfg(test)]\nstruct Hidden;"),
        ("src/extra.rs", ""),
        (
            "src/extra_too.rs",
            "#![cfg_attr(feature = \"extra\", cfg(all()))]",
        ),
    ]);
    let load = |features: &[&str]| {
        let cfg = Cfg::new(features.iter().map(|f| f.to_string()));
        let krate = super::Crate::load("demo", &temp.path("src/lib.rs"), &cfg).unwrap();
        let names: Vec<String> = krate
            .modules()
            .flat_map(|(_, m)| m.types().iter().map(|t| t.name.clone()))
            .collect();
        (layout(&temp, &krate), names)
    };
    assert_eq!(
        load(&[]),
        (
            pairs(&[("", "src/lib.rs")]),
            vec!["NotInTests".into(), "Always".into()]
        )
    );
    assert_eq!(
        load(&["extra"]),
        (
            pairs(&[
                ("", "src/lib.rs"),
                ("extra", "src/extra.rs"),
                ("extra_too", "src/extra_too.rs")
            ]),
            vec!["NotInTests".into(), "Extra".into(), "Always".into()]
        )
    );
}
