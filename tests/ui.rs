//! Compile errors for every class of user mistake, shown by committed `.stderr` files
//! (regenerate them with `TRYBUILD=overwrite cargo test --test ui --all-features`, then read
//! the diff). The slow tier: trybuild builds every case in a cargo project of its own.

#[test]
fn slow_compile_errors_match_their_snapshots() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    // What only the compiler can see (gen-cli, which resolves no crate, has no verdict on it): a
    // `crate = "..."` path that does not resolve, a `kubegen-derive` of another version than
    // the kubegen its expansion names.
    t.compile_fail("tests/ui-resolve/*.rs");
    // CEL rules are parsed at compile time only with the `cel` feature.
    #[cfg(feature = "cel")]
    t.compile_fail("tests/ui-cel/*.rs");
    // The derive's CEL warnings, denied (`#![deny(deprecated)]`) so that they show.
    #[cfg(feature = "cel")]
    t.compile_fail("tests/ui-cel-warn/*.rs");
    // Apply configurations: the shapes they do not support are errors with the fix (those they
    // support are `tests/apply_shapes.rs`). Only compile errors here, so trybuild checks the
    // cases (`cargo check`) without building the dependencies' code.
    #[cfg(feature = "apply")]
    t.compile_fail("tests/ui-apply/fail/*.rs");
}
