//! Malformed attribute arguments are errors at the offending token, never a panic: regression
//! tests for what fuzzing (`fuzz/`) and the token-mutation property tests found.

#![cfg(feature = "parse")]

use kubegen_core::parse::markers::{self, Place};
use kubegen_core::parse::{rbac, webhook};
use proc_macro2::TokenStream;

/// The (message, line, column) of each error, columns counted from 0 as proc-macro2 does.
fn located(error: darling::Error) -> Vec<(String, usize, usize)> {
    error
        .into_iter()
        .map(|e| {
            let start = e.span().start();
            (e.to_string(), start.line, start.column)
        })
        .collect()
}

fn tokens(src: &str) -> TokenStream {
    src.parse().expect("the test input is a token stream")
}

/// The first finding: `kubegen manifests` panicked with "darling::error::Accumulator dropped
/// without being finished" when `#[rbac]`'s arguments did not parse.
#[test]
fn a_missing_equals_sign_in_rbac_is_an_error_at_the_token() {
    let src = r#"groups walk "apps", resources = "deployments", verbs = "get""#;
    let error = rbac::parse(tokens(src)).expect_err("a missing `=` is an error");
    assert_eq!(
        located(error),
        [("expected `=` after `groups`".to_string(), 1, 7)]
    );
}

/// An attribute's parser, its result dropped.
type Parser = fn(TokenStream) -> darling::Result<()>;

#[test]
fn every_attribute_reports_a_missing_equals_sign() {
    let cases: [(&str, Parser); 3] = [
        ("rbac", |t| rbac::parse(t).map(drop)),
        ("webhook", |t| webhook::parse(t).map(drop)),
        ("webhook_configuration", |t| {
            webhook::parse_configuration(t).map(drop)
        }),
    ];
    for (attribute, parse) in cases {
        for (src, key, column) in [
            (r#"verbs "get""#, "verbs", 6),
            (r#"name = "a", mutating true"#, "mutating", 21),
            (r#"a::b c"#, "a::b", 5),
        ] {
            let error = parse(tokens(src)).expect_err(src);
            assert_eq!(
                located(error),
                [(format!("expected `=` after `{key}`"), 1, column)],
                "#[{attribute}({src})]"
            );
        }
    }
}

#[test]
fn kube_marker_reports_a_missing_equals_sign() {
    let item: syn::DeriveInput = syn::parse_quote! {
        #[kube_marker(group = "g", version "v1", kind = "K")]
        struct KSpec {}
    };
    let error = markers::parse(&item.attrs, Place::Spec, &item.ident).expect_err("an error");
    let messages: Vec<String> = located(error).into_iter().map(|(m, ..)| m).collect();
    assert_eq!(messages, ["expected `=` after `version`"]);
}

/// Other syntax errors keep syn's message, at a token of the attribute, and the problems found
/// before the syntax error stay reported.
#[test]
fn other_syntax_errors_are_reported_without_panicking() {
    for src in [
        r#"groups = "#,
        r#"= "apps""#,
        r#"groups = "apps" "core""#,
        r#"groups = "apps",, verbs = "get""#,
        r#"groups = (), verbs = "get""#,
        r#"groups = "apps", resources = "pods", verbs = "get", verbs"#,
        r#"groups = 1, resources = "pods", verbs = "get""#,
    ] {
        for result in [
            rbac::parse(tokens(src)).map(drop),
            webhook::parse(tokens(src)).map(drop),
            webhook::parse_configuration(tokens(src)).map(drop),
        ] {
            let error = result.expect_err(src);
            assert!(!located(error).is_empty(), "{src}");
        }
    }
}

/// Found by `no_panic.rs`: darling's "Missing field" errors had no span.
#[test]
fn missing_webhook_configuration_keys_are_at_the_arguments() {
    let error = webhook::parse_configuration(tokens(r#"name = "a.b.c""#)).expect_err("mutating");
    assert_eq!(
        located(error),
        [("Missing field `mutating`".to_string(), 1, 0)]
    );
}
