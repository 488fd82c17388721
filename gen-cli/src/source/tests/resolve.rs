//! Type paths resolved across modules, one rule at a time.

use super::{TempCrate, lib, module};
use crate::source::{Crate, ItemKind, Resolved};

/// What `path`, written in module `from`, resolves to, as text: `local crate::a::Name struct`,
/// `external std::option::Option`, `primitive i32` or `error: <message>`.
fn res(krate: &Crate, from: &str, path: &str) -> String {
    let path: syn::Path = syn::parse_str(path).unwrap();
    match krate.resolve_type(module(krate, from), &path) {
        Ok(Resolved::Local { module, name, kind }) => {
            let kind = match kind {
                ItemKind::Struct(_) => "struct",
                ItemKind::Enum(_) => "enum",
                ItemKind::TypeAlias(_) => "alias",
                ItemKind::Other(_) => "other",
            };
            let mut path = vec!["crate".to_string()];
            path.extend(krate.module(module).path().iter().cloned());
            path.push(name);
            format!("local {} {kind}", path.join("::"))
        }
        Ok(Resolved::External { path }) => format!("external {}", path.join("::")),
        Ok(Resolved::Primitive(name)) => format!("primitive {name}"),
        Err(err) => format!("error: {}", err.message),
    }
}

#[test]
fn items_of_the_current_module() {
    let (_t, k) = lib("
        struct S; enum E { A } type Alias = Vec<S>; trait T {} union U { a: u8 }
        mod m { pub struct Inner; }
    ");
    assert_eq!(res(&k, "", "S"), "local crate::S struct");
    assert_eq!(res(&k, "", "E"), "local crate::E enum");
    assert_eq!(res(&k, "", "Alias"), "local crate::Alias alias");
    assert_eq!(res(&k, "", "T"), "local crate::T other");
    assert_eq!(res(&k, "", "U"), "local crate::U other");
    // Modules do not inherit their parent's names.
    assert!(res(&k, "m", "S").starts_with("error: "));
}

#[test]
fn type_alias_is_returned_not_substituted() {
    let (_t, k) = lib("mod a { pub type Map<V> = std::collections::BTreeMap<String, V>; }");
    let path: syn::Path = syn::parse_str("a::Map<i32>").unwrap();
    match k.resolve_type(k.root(), &path).unwrap() {
        Resolved::Local {
            module,
            name,
            kind: ItemKind::TypeAlias(alias),
        } => {
            assert_eq!(name, "Map");
            assert_eq!(k.module(module).path(), ["a"]);
            assert_eq!(alias.params, ["V"]);
            let ty: syn::Type = alias.ty.parse().unwrap();
            let syn::Type::Path(ty) = &ty else {
                panic!("expected a path type")
            };
            // The caller resolves the aliased type from the alias's module.
            assert_eq!(
                k.resolve_type(module, &ty.path).unwrap(),
                Resolved::External {
                    path: vec!["std".into(), "collections".into(), "BTreeMap".into()]
                }
            );
        }
        other => panic!("expected an alias, got {other:?}"),
    }
}

#[test]
fn crate_self_and_super_paths() {
    let (_t, k) = lib("
        pub struct Top;
        pub mod a { pub struct InA; pub mod b { pub struct InB; pub mod c {} } }
    ");
    assert_eq!(
        res(&k, "a::b::c", "crate::a::b::InB"),
        "local crate::a::b::InB struct"
    );
    assert_eq!(
        res(&k, "a::b", "self::InB"),
        "local crate::a::b::InB struct"
    );
    assert_eq!(res(&k, "a::b", "super::InA"), "local crate::a::InA struct");
    assert_eq!(
        res(&k, "a::b::c", "super::super::InA"),
        "local crate::a::InA struct"
    );
    assert_eq!(
        res(&k, "a::b::c", "super::super::super::Top"),
        "local crate::Top struct"
    );
    assert_eq!(
        res(&k, "a", "super::a::b::InB"),
        "local crate::a::b::InB struct"
    );
    assert!(res(&k, "a", "super::super::Top").contains("goes above the crate root"));
}

#[test]
fn relative_paths_through_child_modules_and_imported_modules() {
    let (_t, k) = lib("
        pub mod api { pub mod v1 { pub struct Spec; } }
        mod user {
            use crate::api::v1;
            use crate::api;
            mod nested {}
        }
    ");
    assert_eq!(
        res(&k, "", "api::v1::Spec"),
        "local crate::api::v1::Spec struct"
    );
    assert_eq!(
        res(&k, "api", "v1::Spec"),
        "local crate::api::v1::Spec struct"
    );
    assert_eq!(
        res(&k, "user", "v1::Spec"),
        "local crate::api::v1::Spec struct"
    );
    assert_eq!(
        res(&k, "user", "api::v1::Spec"),
        "local crate::api::v1::Spec struct"
    );
    // Not visible from the nested module: taken as another crate's path.
    assert_eq!(res(&k, "user::nested", "v1::Spec"), "external v1::Spec");
}

#[test]
fn use_groups_renames_and_self() {
    let (_t, k) = lib("
        pub mod a {
            pub struct X;
            pub mod b { pub struct Y; pub struct Z; }
        }
        mod user {
            use crate::a::{X, b::{Y, Z as Zed}};
            use crate::a::{self as alpha, b::{self}};
        }
    ");
    assert_eq!(res(&k, "user", "X"), "local crate::a::X struct");
    assert_eq!(res(&k, "user", "Y"), "local crate::a::b::Y struct");
    assert_eq!(res(&k, "user", "Zed"), "local crate::a::b::Z struct");
    assert!(res(&k, "user", "Z").starts_with("error: "));
    assert_eq!(res(&k, "user", "alpha::X"), "local crate::a::X struct");
    assert_eq!(res(&k, "user", "b::Z"), "local crate::a::b::Z struct");
}

#[test]
fn leading_colon_paths_in_use() {
    let (_t, k) = lib("use ::serde_json::{Value as Json, self};");
    assert_eq!(res(&k, "", "Json"), "external serde_json::Value");
    assert_eq!(res(&k, "", "serde_json::Map"), "external serde_json::Map");
}

#[test]
fn globs_and_glob_re_exports() {
    let (_t, k) = lib("
        pub mod model {
            pub struct Spec;
            struct Private;
            pub(crate) struct CrateWide;
            pub mod inner { pub struct Deep; }
            pub use self::inner::*;
        }
        pub mod prelude { pub use crate::model::*; }
        mod user { use crate::prelude::*; }
    ");
    assert_eq!(res(&k, "user", "Spec"), "local crate::model::Spec struct");
    assert_eq!(
        res(&k, "user", "CrateWide"),
        "local crate::model::CrateWide struct"
    );
    assert_eq!(
        res(&k, "user", "Deep"),
        "local crate::model::inner::Deep struct"
    );
    assert_eq!(
        res(&k, "user", "inner::Deep"),
        "local crate::model::inner::Deep struct"
    );
    assert_eq!(
        res(&k, "", "prelude::Deep"),
        "local crate::model::inner::Deep struct"
    );
    // A private item is not visible outside its module, so no glob brings it in.
    assert!(res(&k, "user", "Private").starts_with("error: "));
}

#[test]
fn glob_of_the_parent_sees_its_private_items_and_imports() {
    let (_t, k) = lib("
        use std::collections::BTreeMap;
        struct Hidden;
        mod child { use super::*; }
    ");
    assert_eq!(res(&k, "child", "Hidden"), "local crate::Hidden struct");
    assert_eq!(
        res(&k, "child", "BTreeMap"),
        "external std::collections::BTreeMap"
    );
}

#[test]
fn restricted_visibility_limits_globs() {
    let (_t, k) = lib("
        pub mod a {
            pub mod b {
                pub(in crate::a) struct InA;
                pub(super) struct Sup;
                pub(self) struct Own;
                pub(crate) struct Everywhere;
            }
            pub mod user { use super::b::*; }
        }
        mod outside { use crate::a::b::*; }
    ");
    assert_eq!(res(&k, "a::user", "InA"), "local crate::a::b::InA struct");
    assert_eq!(res(&k, "a::user", "Sup"), "local crate::a::b::Sup struct");
    assert!(res(&k, "a::user", "Own").starts_with("error: "));
    assert!(res(&k, "outside", "InA").starts_with("error: "));
    assert!(res(&k, "outside", "Sup").starts_with("error: "));
    assert_eq!(
        res(&k, "outside", "Everywhere"),
        "local crate::a::b::Everywhere struct"
    );
}

#[test]
fn explicit_imports_shadow_globs() {
    let (_t, k) = lib("
        pub mod a { pub struct Thing; pub struct OnlyA; }
        pub mod b { pub struct Thing; }
        mod user { use crate::a::*; use crate::b::Thing; }
        mod own { use crate::a::*; pub enum Thing {} }
    ");
    assert_eq!(res(&k, "user", "Thing"), "local crate::b::Thing struct");
    assert_eq!(res(&k, "user", "OnlyA"), "local crate::a::OnlyA struct");
    assert_eq!(res(&k, "own", "Thing"), "local crate::own::Thing enum");
}

#[test]
fn glob_cycles_end() {
    let (_t, k) = lib("
        pub mod a { pub use crate::b::*; pub struct InA; }
        pub mod b { pub use crate::a::*; pub use crate::c::*; pub struct InB; }
        pub mod c { pub use super::a::*; pub struct InC; }
    ");
    assert_eq!(res(&k, "a", "InB"), "local crate::b::InB struct");
    assert_eq!(res(&k, "a", "InC"), "local crate::c::InC struct");
    assert_eq!(res(&k, "c", "InB"), "local crate::b::InB struct");
    assert_eq!(res(&k, "b", "InA"), "local crate::a::InA struct");
    assert_eq!(res(&k, "a", "Option"), "external std::option::Option");
    let missing = res(&k, "a", "Missing");
    assert!(
        missing.starts_with("error: cannot resolve type `Missing`"),
        "{missing}"
    );
}

#[test]
fn re_export_chains() {
    let (_t, k) = lib("
        pub use api::Spec;
        pub(crate) use api::v1::Status as CurrentStatus;
        pub mod api {
            pub use self::v1::Spec;
            pub mod v1 { pub struct Spec; pub struct Status; }
        }
        mod user { use crate::Spec; use crate::CurrentStatus as S; }
    ");
    assert_eq!(res(&k, "user", "Spec"), "local crate::api::v1::Spec struct");
    assert_eq!(res(&k, "user", "S"), "local crate::api::v1::Status struct");
    assert_eq!(
        res(&k, "api::v1", "crate::Spec"),
        "local crate::api::v1::Spec struct"
    );
}

#[test]
fn external_paths_are_canonical() {
    let (_t, k) = lib("
        use k8s_openapi::api::core::v1 as corev1;
        use std::collections::BTreeMap as Map;
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, ObjectMeta as Meta};
        mod child { use super::corev1; }
    ");
    assert_eq!(
        res(&k, "", "corev1::PodSpec"),
        "external k8s_openapi::api::core::v1::PodSpec"
    );
    assert_eq!(res(&k, "", "Map"), "external std::collections::BTreeMap");
    assert_eq!(
        res(&k, "", "Meta"),
        "external k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta"
    );
    assert_eq!(
        res(&k, "", "Condition"),
        "external k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition"
    );
    assert_eq!(
        res(&k, "", "::serde_json::Value"),
        "external serde_json::Value"
    );
    assert_eq!(
        res(&k, "", "serde_json::Value"),
        "external serde_json::Value"
    );
    assert_eq!(
        res(&k, "child", "corev1::Container"),
        "external k8s_openapi::api::core::v1::Container"
    );
}

#[test]
fn extern_crate_renames() {
    let (_t, k) = lib("
        extern crate k8s_openapi as k8s;
        extern crate self as me;
        pub struct Mine;
        mod child {}
    ");
    assert_eq!(
        res(&k, "", "k8s::api::core::v1::Pod"),
        "external k8s_openapi::api::core::v1::Pod"
    );
    // `extern crate` at the root names the crate everywhere.
    assert_eq!(
        res(&k, "child", "k8s::ByteString"),
        "external k8s_openapi::ByteString"
    );
    assert_eq!(res(&k, "child", "me::Mine"), "local crate::Mine struct");
}

#[test]
fn prelude_and_primitives() {
    let (_t, k) = lib("mod m {}");
    assert_eq!(res(&k, "m", "Option"), "external std::option::Option");
    assert_eq!(res(&k, "m", "Option<i32>"), "external std::option::Option");
    assert_eq!(res(&k, "m", "Vec"), "external std::vec::Vec");
    assert_eq!(res(&k, "m", "String"), "external std::string::String");
    assert_eq!(res(&k, "m", "Box"), "external std::boxed::Box");
    for primitive in ["i32", "bool", "str", "f64", "u8", "char", "usize", "i128"] {
        assert_eq!(res(&k, "m", primitive), format!("primitive {primitive}"));
    }
    // Only a lone name is a primitive.
    assert_eq!(res(&k, "m", "std::i32"), "external std::i32");
}

#[test]
fn local_names_shadow_the_prelude() {
    let (_t, k) = lib("
        pub struct Option;
        type Vec = ();
        pub mod strings { pub struct String; }
        mod user { use crate::strings::String; }
        mod globbed { use crate::strings::*; }
        mod plain {}
    ");
    assert_eq!(res(&k, "", "Option"), "local crate::Option struct");
    assert_eq!(res(&k, "", "Vec"), "local crate::Vec alias");
    assert_eq!(
        res(&k, "user", "String"),
        "local crate::strings::String struct"
    );
    assert_eq!(
        res(&k, "globbed", "String"),
        "local crate::strings::String struct"
    );
    assert_eq!(res(&k, "plain", "Option"), "external std::option::Option");
}

#[test]
fn names_from_a_glob_of_another_crate() {
    let (_t, k) = lib("
        pub mod local { pub struct Local; }
        use k8s_openapi::api::core::v1::*;
        use crate::local::*;
        pub mod reexport { pub use k8s_openapi::api::apps::v1::*; }
        mod two { use a::*; use b::*; }
    ");
    assert_eq!(
        res(&k, "", "PodSpec"),
        "external k8s_openapi::api::core::v1::PodSpec"
    );
    assert_eq!(res(&k, "", "Local"), "local crate::local::Local struct");
    assert_eq!(res(&k, "", "Option"), "external std::option::Option");
    assert_eq!(res(&k, "", "u8"), "primitive u8");
    assert_eq!(
        res(&k, "", "reexport::Deployment"),
        "external k8s_openapi::api::apps::v1::Deployment"
    );
    let two = res(&k, "two", "Thing");
    assert!(two.contains("`a::*`, `b::*`"), "{two}");
}

#[test]
fn generic_arguments_are_ignored() {
    let (_t, k) = lib("pub mod a { pub struct Wrapper<T>(T); }");
    assert_eq!(
        res(&k, "", "a::Wrapper<Vec<u8>>"),
        "local crate::a::Wrapper struct"
    );
    assert_eq!(
        res(&k, "", "crate::a::Wrapper::<u8>"),
        "local crate::a::Wrapper struct"
    );
}

#[test]
fn raw_identifiers() {
    let (_t, k) = lib("pub mod r#type { pub struct r#Match; } use self::r#type::Match;");
    assert_eq!(res(&k, "", "Match"), "local crate::type::Match struct");
    assert_eq!(
        res(&k, "", "r#type::r#Match"),
        "local crate::type::Match struct"
    );
}

#[test]
fn resolution_across_files() {
    let temp = TempCrate::new(&[
        ("src/lib.rs", "pub mod api; pub use api::v1::MemcachedSpec;"),
        ("src/api/mod.rs", "pub mod v1;"),
        (
            "src/api/v1.rs",
            "use super::super::shared::Ports; pub struct MemcachedSpec { pub ports: Ports }",
        ),
    ]);
    // `crate::shared` is missing: the error is at the import, in its file.
    let krate = temp.load().unwrap();
    let v1 = module(&krate, "api::v1");
    assert_eq!(
        res(&krate, "", "MemcachedSpec"),
        "local crate::api::v1::MemcachedSpec struct"
    );
    let err = krate
        .resolve_type(v1, &syn::parse_str("Ports").unwrap())
        .unwrap_err();
    assert_eq!(err.loc.file, temp.file("src/api/v1.rs"));
    assert_eq!((err.loc.line, err.loc.column), (1, 27));
    assert!(
        err.message.contains("import `super::super::shared::Ports`"),
        "{}",
        err.message
    );
}
