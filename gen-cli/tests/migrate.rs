//! `kubegen migrate`: the README's table of attribute equivalents is the engine's migration
//! table.

use std::path::{Path, PathBuf};

use gen_cli::migrate::table;
use kubegen_core::parse::foreign::{Foreign, ROWS, Site, translate};
use kubegen_core::parse::markers::{self, Place};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn the_readme_holds_the_migration_table() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let fresh = table::refresh(&readme).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        fresh == readme,
        "README.md's migration table is stale: run `cargo run -p gen-cli -- migrate --write-docs README.md`"
    );
    for row in ROWS {
        assert!(
            readme.contains(&format!("`{}`", row.example.0)),
            "{}",
            row.key
        );
    }
}

/// The attribute `src`.
fn attr(src: &str) -> syn::Attribute {
    let item: syn::ItemStruct = syn::parse_str(&format!("{src} struct S;")).unwrap();
    item.attrs.into_iter().next().unwrap()
}

/// Every `#[kube_marker]` the table's examples become is one kubegen's parser takes where the
/// example stands (the spec struct for `#[kube]`, a `String` field otherwise).
#[test]
fn what_the_table_writes_parses_as_kubegens_markers() {
    let ty: syn::Type = syn::parse_quote!(String);
    let mut checked = 0;
    for row in ROWS {
        let attrs = [attr(row.example.0)];
        let site = match row.attribute {
            Foreign::Kube => Site::new(Place::Spec, None, &attrs),
            _ => Site::new(Place::Field, Some(&ty), &attrs),
        };
        let t = translate(&attrs[0], &site);
        for line in t
            .attributes()
            .iter()
            .filter(|l| l.starts_with("#[kube_marker"))
        {
            let (_, errors) =
                markers::parse_all(&[attr(line)], site.place, &quote::quote!(S), &|_| None);
            if let Err(e) = errors.finish() {
                // A lone resource key misses the others, which the example does not give.
                let real: Vec<String> = e
                    .into_iter()
                    .map(|e| e.to_string())
                    .filter(|e| !e.starts_with("missing `"))
                    .collect();
                assert!(real.is_empty(), "{line}: {real:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}

