//! What the visitor sees of each module, and what the crate keeps of its items.

use super::{Each, lib, lib_with, module};
use crate::source::{AssocItem, Cfg, TypeKind, item_attrs};
use syn::Item;

fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

#[test]
fn items_come_with_their_module() {
    let count_rbac = Each(|_: &_, items: &mut [Item]| {
        items
            .iter()
            .filter(|item| has_attr(item_attrs(item), "rbac"))
            .count()
    });
    let (_temp, krate, rbac) = lib_with(
        "
        #[derive(CustomResource)] pub struct RootSpec;
        pub mod api { pub mod v1 {
            #[derive(KubeSchema)] pub enum Phase { A }
            pub struct Plain;
        } }
        #[rbac(groups = \"apps\")] async fn reconcile() {}
        #[rbac(groups = \"\")] const C: u8 = 1;
        #[rbac(groups = \"x\")] mod m {}
    ",
        &count_rbac,
    );
    let derived: Vec<(Vec<String>, String, Vec<String>)> = krate
        .modules()
        .flat_map(|(_, m)| m.types().iter().map(move |t| (m, t)))
        .filter(|(_, t)| !t.derives.is_empty())
        .map(|(m, t)| (m.path().to_vec(), t.name.clone(), t.derives.clone()))
        .collect();
    assert_eq!(
        derived,
        [
            (
                vec![],
                "RootSpec".to_string(),
                vec!["CustomResource".to_string()]
            ),
            (
                vec!["api".to_string(), "v1".to_string()],
                "Phase".to_string(),
                vec!["KubeSchema".to_string()]
            ),
        ]
    );
    // One output per module, in module order: the root holds the three.
    assert_eq!(rbac, [3, 0, 0, 0]);
    let v1 = module(&krate, "api::v1");
    assert_eq!(krate.module(v1).types().len(), 2);
}

#[test]
fn the_crate_keeps_each_type_item_with_what_it_is() {
    let (_temp, krate) = lib("
        pub struct S; enum E { A } pub(crate) type Map<V> = std::collections::BTreeMap<String, V>;
        trait T {} union U { a: u8 } mod m {} use std::fmt::Debug; fn f() {}
        #[cfg(test)] struct OnlyInTests;
    ");
    let types: Vec<String> = krate
        .module(krate.root())
        .types()
        .iter()
        .map(|t| match &t.kind {
            TypeKind::Struct => format!("struct {}", t.name),
            TypeKind::Enum => format!("enum {}", t.name),
            TypeKind::Alias(alias) => format!(
                "alias {}<{}> = {}",
                t.name,
                alias.params.join(", "),
                quote::ToTokens::to_token_stream(&alias.ty.parse::<syn::Type>().unwrap())
            ),
            TypeKind::Other => format!("other {}", t.name),
        })
        .collect();
    assert_eq!(
        types,
        [
            "struct S",
            "enum E",
            "alias Map<V> = std :: collections :: BTreeMap < String , V >",
            "other T",
            "other U",
        ]
    );
}

#[test]
fn associated_items_of_impls_and_traits() {
    let describe = Each(|_: &_, items: &mut [Item]| {
        crate::source::associated_items(items)
            .into_iter()
            .filter(|assoc| has_attr(assoc.attrs(), "rbac"))
            .map(|assoc| match assoc {
                AssocItem::Impl { block, item } => match item {
                    syn::ImplItem::Fn(f) => {
                        format!("impl {:?} fn {}", block.trait_.is_some(), f.sig.ident)
                    }
                    _ => "impl other".to_string(),
                },
                AssocItem::Trait { block, item } => match item {
                    syn::TraitItem::Fn(f) => format!("trait {} fn {}", block.ident, f.sig.ident),
                    syn::TraitItem::Const(c) => format!("trait {} const {}", block.ident, c.ident),
                    _ => "trait other".to_string(),
                },
            })
            .collect::<Vec<_>>()
    });
    let (_temp, krate, found) = lib_with(
        "
        struct R;
        impl R {
            #[rbac(groups = \"apps\")] fn reconcile(&self) {}
            fn plain(&self) {}
            #[cfg(test)] #[rbac(groups = \"test\")] fn only_in_tests(&self) {}
        }
        mod t {
            trait Reconciler {
                #[rbac(groups = \"\")] fn run(&self);
                #[rbac(groups = \"x\")] const N: u8;
            }
        }
    ",
        &describe,
    );
    let found: Vec<(Vec<String>, String)> = krate
        .modules()
        .zip(found)
        .flat_map(|((_, m), found)| found.into_iter().map(|f| (m.path().to_vec(), f)))
        .collect();
    assert_eq!(
        found,
        [
            (vec![], "impl false fn reconcile".to_string()),
            (vec!["t".to_string()], "trait Reconciler fn run".to_string()),
            (
                vec!["t".to_string()],
                "trait Reconciler const N".to_string()
            ),
        ]
    );
}

#[test]
fn locations_of_items() {
    let loc_of_b = Each(|origin: &crate::source::Origin, items: &mut [Item]| {
        items.iter().find_map(|item| match item {
            Item::Struct(s) if s.ident == "B" => Some(origin.loc(s.ident.span())),
            _ => None,
        })
    });
    let (temp, _krate, found) = lib_with("struct A;\n\n  /// doc\n  pub struct B;\n", &loc_of_b);
    let loc = found[0].clone().expect("struct B is in the root");
    assert_eq!(loc.to_string(), format!("{}:4:14", temp.file("src/lib.rs")));
}

#[test]
fn the_visitor_sees_each_module_once_and_its_outputs_come_in_module_order() {
    let temp = super::TempCrate::new(&[
        (
            "src/lib.rs",
            "pub mod a; pub mod b { pub struct InB { pub x: u8 } mod c; } pub struct Root { pub y: u8 }",
        ),
        ("src/a.rs", "pub struct InA { pub z: u8 } pub mod d { }"),
        ("src/b/c.rs", "pub struct InC;"),
    ]);
    let seen = std::sync::Mutex::new(Vec::new());
    let visitor = Each(|origin: &crate::source::Origin, items: &mut [Item]| {
        let path = origin.path().join("::");
        seen.lock().unwrap().push(path.clone());
        (path, items.len())
    });
    let (krate, outputs) =
        super::Crate::load_with("demo", &temp.path("src/lib.rs"), &Cfg::default(), &visitor)
            .unwrap();
    let mut seen = seen.into_inner().unwrap();
    seen.sort();
    assert_eq!(seen, ["", "a", "a::d", "b", "b::c"], "each module once");
    // Module ids as rustc meets the modules: depth first, in source order.
    assert_eq!(
        outputs,
        [
            (String::new(), 3),
            ("a".to_string(), 2),
            ("a::d".to_string(), 0),
            ("b".to_string(), 2),
            ("b::c".to_string(), 1),
        ]
    );
    for ((_, module), (path, _)) in krate.modules().zip(&outputs) {
        assert_eq!(module.path().join("::"), *path);
    }
}

#[test]
#[should_panic(expected = "a visitor that panics")]
fn a_panic_while_reading_reaches_the_caller_instead_of_hanging() {
    let temp = super::TempCrate::new(&[
        ("src/lib.rs", "mod a; mod b; mod c;"),
        ("src/a.rs", ""),
        ("src/b.rs", "struct Boom;"),
        ("src/c.rs", ""),
    ]);
    let visitor = Each(|_: &crate::source::Origin, items: &mut [Item]| {
        let boom = items
            .iter()
            .any(|item| matches!(item, Item::Struct(s) if s.ident == "Boom"));
        assert!(!boom, "a visitor that panics");
    });
    let _ = super::Crate::load_with("demo", &temp.path("src/lib.rs"), &Cfg::default(), &visitor);
}
