//! `kubegen migrate`: the README's table of attribute equivalents is the engine's migration
//! table.

use std::path::Path;

use gen_cli::migrate::table;

/// The repository's root.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn the_readme_holds_the_migration_table() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let fresh = table::refresh(&readme).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        fresh == readme,
        "README.md's migration table is stale: run `cargo run -p gen-cli -- migrate --write-docs README.md`"
    );
    for row in kubegen_core::parse::foreign::ROWS {
        assert!(
            readme.contains(&format!("`{}`", row.example.0)),
            "{}",
            row.key
        );
    }
}
