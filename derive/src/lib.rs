//! Derive macros for kubegen: `#[derive(CustomResource)]`, `#[derive(KubeSchema)]`,
//! `#[rbac(...)]`, `#[webhook(...)]` and `#[webhook_configuration(...)]`.
//!
//! This layer is thin: it parses with the engine (`kubegen-core`), runs the engine's checks
//! on what the syntax shows, and emits tokens. Every error is a spanned `compile_error!`.

#![deny(missing_docs)]

// Layers, lowest first: a module uses only modules of the layers before its own
// (`gen-cli/tests/layers.rs` checks this list).
// 1. path, spans: how the generated code names kubegen; where errors point
// 2. apply: apply configurations' tokens
// 3. check, info: the engine's checks on the syntax; what the syntax says of each type
// 4. codegen: a type's `KubeSchema` impl
// 5. resource: `#[derive(CustomResource)]`
#[cfg(feature = "apply")]
mod apply;
mod check;
mod codegen;
mod info;
mod path;
mod resource;
mod spans;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Runs a macro body; a bug that panics becomes a compile error that quotes the panic's
/// message, instead of crashing rustc's expansion.
fn guarded<T: From<proc_macro2::TokenStream>>(
    body: impl FnOnce() -> proc_macro2::TokenStream,
) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(tokens) => tokens.into(),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic without a message");
            let error = format!(
                "kubegen: internal error while expanding this item: {message}; please report it with the item's source"
            );
            quote::quote!(::core::compile_error!(#error);).into()
        }
    }
}

/// Makes a spec struct a custom resource: generates the root type (`metadata`, `spec`,
/// `status`), `kube::Resource`, `kube::CustomResourceExt` and the schema. The keys are listed in
/// `kubegen::markers`. `#[rbac(...)]` and `#[webhook(...)]` may stand on the spec struct as
/// helper attributes (no import needed).
/// With kubegen's `apply` feature, also `<Kind>Apply` (the root's apply configuration, with
/// `new`, `extract` and `extract_status`) and the spec's `<Spec>Apply`. In a crate that uses
/// kubegen through another that re-exports it, `#[kube_marker(crate = "my_sdk::kubegen")]`
/// names it.
// `kube`, `x_kube` and `schemars` are declared so that one left from kube-derive or schemars
// is the engine's error naming its kubegen equivalent, not rustc's "cannot find attribute".
#[proc_macro_derive(
    CustomResource,
    attributes(kube_marker, rbac, webhook, kube, x_kube, schemars)
)]
pub fn derive_custom_resource(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    guarded(|| resource::expand(&input))
}

/// Gives a struct or enum a CRD schema (`kubegen::KubeSchema`), shaped by its
/// `#[kube_marker(...)]`s, its doc comments and its serde attributes.
/// With kubegen's `apply` feature, also its apply configuration `<Type>Apply`
/// (`kubegen::apply`). `#[kube_marker(crate = "...")]` names kubegen as for `CustomResource`.
#[proc_macro_derive(KubeSchema, attributes(kube_marker, kube, x_kube, schemars))]
pub fn derive_kube_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    guarded(|| {
        let mut errors = darling::Error::accumulator();
        let (tokens, checked) = codegen::kube_schema(
            &input,
            kubegen_core::parse::markers::Place::Type,
            &mut errors,
        );
        match errors.finish() {
            Ok(()) => tokens,
            Err(e) => {
                let mut out = compile_errors(e);
                out.extend(codegen::fallback(&input, &checked));
                out
            }
        }
    })
}

/// An RBAC rule the operator needs. It leaves its item unchanged; `gen-cli` collects every
/// one into `config/rbac/role.yaml`. The arguments are checked here, at compile time.
#[proc_macro_attribute]
pub fn rbac(args: TokenStream, item: TokenStream) -> TokenStream {
    let (args, item) = (
        proc_macro2::TokenStream::from(args),
        proc_macro2::TokenStream::from(item),
    );
    guarded(|| checked(kubegen_core::parse::rbac::parse(args), item))
}

/// An admission webhook: one entry of `config/webhook/manifests.yaml`, which `gen-cli`
/// writes from every `#[webhook]` of the crate. Keys are controller-gen's
/// `+kubebuilder:webhook` arguments in snake_case (see docs/markers.md); they are checked here, at
/// compile time, with controller-gen's rules. It leaves its item unchanged; on a free `fn`
/// (the handler) it also emits a module of the same name whose `webhooks()` returns the
/// attributes' models, so the webhook server (`kubegen::webhook::Server`) routes the handler
/// by the same path as the manifest, naming kubegen by `crate = "..."` when it is given (a
/// crate using kubegen through a re-exporting one). The `#[webhook]`s under the first are read
/// with it.
/// (A `fn` in an `impl` without `self` cannot carry it: the module cannot go there.)
#[proc_macro_attribute]
pub fn webhook(args: TokenStream, item: TokenStream) -> TokenStream {
    let (args, item) = (
        proc_macro2::TokenStream::from(args),
        proc_macro2::TokenStream::from(item),
    );
    guarded(|| match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(f) if f.sig.receiver().is_none() => handler(args, f),
        _ => checked(kubegen_core::parse::webhook::parse(args), item),
    })
}

/// `#[webhook]` on a handler fn: the fn without its other `#[webhook]`s (read here), and
/// `mod <fn> { pub fn webhooks() }` with every model, naming kubegen by the `crate = "..."`
/// they give ([`one_crate`](kubegen_core::parse::webhook::one_crate)).
fn handler(args: proc_macro2::TokenStream, mut f: syn::ItemFn) -> proc_macro2::TokenStream {
    let is_webhook = |a: &syn::Attribute| {
        a.path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "webhook")
            && matches!(a.meta, syn::Meta::List(_))
    };
    let mut errors = darling::Error::accumulator();
    let mut models = Vec::new();
    let mut given = Vec::new();
    let mut push = |tokens: proc_macro2::TokenStream| {
        let parsed = kubegen_core::parse::webhook::parse_with_crate(tokens);
        if let Some((w, path)) = errors.handle(parsed) {
            models.push(serde_json::to_string(&w).expect("a webhook serializes"));
            given.push(path);
        }
    };
    push(args);
    for attr in f.attrs.iter().filter(|a| is_webhook(a)) {
        if let syn::Meta::List(list) = &attr.meta {
            push(list.tokens.clone());
        }
    }
    let given = errors
        .handle(kubegen_core::parse::webhook::one_crate(given))
        .flatten();
    let kubegen = path::Kubegen::new(given.as_ref());
    f.attrs.retain(|a| !is_webhook(a));
    let (vis, name) = (&f.vis, &f.sig.ident);
    let doc = format!("The `#[webhook]`s of the handler `{name}`, for the webhook server.");
    let same_version = kubegen.same_version();
    let module = quote::quote! {
        #[doc = #doc]
        #[allow(dead_code)]
        #vis mod #name {
            /// The models of the `#[webhook]` attributes, in source order.
            pub fn webhooks() -> ::std::vec::Vec<#kubegen::__private::Webhook> {
                #same_version
                #kubegen::__private::webhooks(&[#(#models),*])
            }
        }
    };
    // The module is there even with errors, so that its uses add none.
    let mut out = errors
        .finish()
        .err()
        .map(compile_errors)
        .unwrap_or_default();
    out.extend(quote::quote!(#f #module));
    out
}

/// Names the mutating (`mutating = true`) or the validating webhook configuration instead of
/// `mutating-webhook-configuration` / `validating-webhook-configuration`. At most one of each
/// per crate (`gen-cli` checks). It leaves its item unchanged.
#[proc_macro_attribute]
pub fn webhook_configuration(args: TokenStream, item: TokenStream) -> TokenStream {
    let (args, item) = (
        proc_macro2::TokenStream::from(args),
        proc_macro2::TokenStream::from(item),
    );
    guarded(|| {
        checked(
            kubegen_core::parse::webhook::parse_configuration(args),
            item,
        )
    })
}

/// One `compile_error!` per problem, at its span, worded as the engine words it for both front
/// ends (notes and help on their own lines).
pub(crate) fn compile_errors(e: darling::Error) -> proc_macro2::TokenStream {
    kubegen_core::parse::diagnostics::from_darling(e, &spans::locate)
        .into_iter()
        .map(|(span, d)| syn::Error::new(span, d.one_message()).to_compile_error())
        .collect()
}

/// `item`, preceded by the errors of `parsed` if it failed.
fn checked<T>(
    parsed: darling::Result<T>,
    item: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    match parsed {
        Ok(_) => item,
        Err(e) => {
            let mut out = compile_errors(e);
            out.extend(item);
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::guarded;

    #[test]
    fn a_panic_becomes_a_compile_error_with_its_message() {
        let tokens: proc_macro2::TokenStream = guarded(|| panic!("no schema for {}", "Foo"));
        assert_eq!(
            tokens.to_string(),
            quote::quote!(::core::compile_error!(
                "kubegen: internal error while expanding this item: no schema for Foo; please report it with the item's source"
            );)
            .to_string()
        );
        let tokens: proc_macro2::TokenStream = guarded(|| std::panic::panic_any(7));
        assert!(
            tokens.to_string().contains("a panic without a message"),
            "{tokens}"
        );
    }

    #[test]
    fn the_body_s_tokens_pass_through() {
        let tokens: proc_macro2::TokenStream = guarded(|| {
            quote::quote!(
                struct A;
            )
        });
        assert_eq!(tokens.to_string(), "struct A ;");
    }
}
