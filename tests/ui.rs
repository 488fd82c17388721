//! Compile errors for every class of user mistake, shown by committed `.stderr` files
//! (regenerate them with `TRYBUILD=overwrite cargo test --test ui --all-features`, then read
//! the diff). The slow tier: trybuild builds every case in a cargo project of its own.

#[test]
fn slow_compile_errors_match_their_snapshots() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    // CEL rules are parsed at compile time only with the `cel` feature.
    #[cfg(feature = "cel")]
    t.compile_fail("tests/ui-cel/*.rs");
    // The derive's CEL warnings, denied (`#![deny(deprecated)]`) so that they show.
    #[cfg(feature = "cel")]
    t.compile_fail("tests/ui-cel-warn/*.rs");
    // Apply configurations: the shapes they support compile and serialize; the others are
    // errors with the fix.
    #[cfg(feature = "apply")]
    {
        t.pass("tests/ui-apply/pass/*.rs");
        t.compile_fail("tests/ui-apply/fail/*.rs");
    }
}
