//! Finding items and their attributes across modules.

use super::{lib, module};
use crate::source::{AssocItem, item_attrs};
use syn::Item;

fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

#[test]
fn items_come_with_their_module() {
    let (_temp, krate) = lib("
        #[derive(CustomResource)] pub struct RootSpec;
        pub mod api { pub mod v1 {
            #[derive(KubeSchema)] pub enum Phase { A }
            pub struct Plain;
        } }
        #[rbac(groups = \"apps\")] async fn reconcile() {}
        #[rbac(groups = \"\")] const C: u8 = 1;
        #[rbac(groups = \"x\")] mod m {}
    ");
    let derived: Vec<(Vec<String>, String)> = krate
        .items()
        .filter_map(|(id, item)| match item {
            Item::Struct(s) if has_attr(&s.attrs, "derive") => Some((id, s.ident.to_string())),
            Item::Enum(e) if has_attr(&e.attrs, "derive") => Some((id, e.ident.to_string())),
            _ => None,
        })
        .map(|(id, name)| (krate.module(id).path().to_vec(), name))
        .collect();
    assert_eq!(
        derived,
        [
            (vec![], "RootSpec".to_string()),
            (
                vec!["api".to_string(), "v1".to_string()],
                "Phase".to_string()
            ),
        ]
    );
    let rbac = krate
        .items()
        .filter(|(_, item)| has_attr(item_attrs(item), "rbac"))
        .count();
    assert_eq!(rbac, 3);
    let v1 = module(&krate, "api::v1");
    assert_eq!(krate.items().filter(|(id, _)| *id == v1).count(), 2);
}

#[test]
fn associated_items_of_impls_and_traits() {
    let (_temp, krate) = lib("
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
    ");
    let found: Vec<(Vec<String>, String)> = krate
        .associated_items()
        .filter(|(_, assoc)| has_attr(assoc.attrs(), "rbac"))
        .map(|(id, assoc)| {
            let what = match assoc {
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
            };
            (krate.module(id).path().to_vec(), what)
        })
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
    let (temp, krate) = lib("struct A;\n\n  /// doc\n  pub struct B;\n");
    let root = krate.module(krate.root());
    let Item::Struct(b) = &root.items()[1] else {
        panic!("expected a struct")
    };
    let loc = root.loc(b.ident.span());
    assert_eq!(loc.to_string(), format!("{}:4:14", temp.file("src/lib.rs")));
}

#[test]
fn the_visitor_sees_each_module_once_children_first_and_what_it_leaves_stays() {
    let temp = super::TempCrate::new(&[
        (
            "src/lib.rs",
            "pub mod a; pub mod b { pub struct InB { pub x: u8 } } pub struct Root { pub y: u8 }",
        ),
        ("src/a.rs", "pub struct InA { pub z: u8 }"),
    ]);
    let mut seen = Vec::new();
    let krate = super::Crate::load_with("demo", &temp.path("src/lib.rs"), &mut |id, m, items| {
        seen.push((id, m.path().join("::"), items.len()));
        // Shrink every struct, as a visitor that has read them may.
        for item in items {
            if let Item::Struct(s) = item {
                s.fields = syn::Fields::Unit;
            }
        }
    })
    .unwrap();
    let paths: Vec<(&str, usize)> = seen.iter().map(|(_, p, n)| (p.as_str(), *n)).collect();
    assert_eq!(paths, [("a", 1), ("b", 1), ("", 3)]);
    for (id, path, _) in &seen {
        assert_eq!(krate.module(*id).path().join("::"), *path);
    }
    let fields: usize = krate
        .items()
        .map(|(_, item)| match item {
            Item::Struct(s) => s.fields.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(
        fields, 0,
        "the crate keeps the items as the visitor left them"
    );
    assert_eq!(module(&krate, "b"), seen[1].0);
}
