//! Derive macros for kubegen: `#[derive(CustomResource)]`, `#[derive(KubeSchema)]` and
//! `#[rbac(...)]`.
//!
//! This layer is thin: it parses with the engine (`kubegen-core`), runs the engine's checks
//! on what the syntax shows, and emits tokens. Every error is a spanned `compile_error!`.

mod check;
mod codegen;
mod resource;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Makes a spec struct a custom resource: generates the root type (`metadata`, `spec`,
/// `status`), `kube::Resource`, `kube::CustomResourceExt` and the schema. See MARKERS.md.
#[proc_macro_derive(CustomResource, attributes(kube_marker))]
pub fn derive_custom_resource(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    resource::expand(&input)
        .unwrap_or_else(|e| e.write_errors())
        .into()
}

/// Gives a struct or enum a CRD schema (`kubegen::KubeSchema`), shaped by its
/// `#[kube_marker(...)]`s, its doc comments and its serde attributes.
#[proc_macro_derive(KubeSchema, attributes(kube_marker))]
pub fn derive_kube_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    codegen::kube_schema(&input, kubegen_core::parse::markers::Place::Type)
        .map(|(tokens, _)| tokens)
        .unwrap_or_else(|e| e.write_errors())
        .into()
}

/// An RBAC rule the operator needs. It leaves its item unchanged; `gen-cli` collects every
/// one into `config/rbac/role.yaml`. The arguments are checked here, at compile time.
#[proc_macro_attribute]
pub fn rbac(args: TokenStream, item: TokenStream) -> TokenStream {
    match kubegen_core::parse::rbac::parse(args.into()) {
        Ok(_) => item,
        Err(e) => {
            let mut out: proc_macro2::TokenStream = e.write_errors();
            out.extend(proc_macro2::TokenStream::from(item));
            out.into()
        }
    }
}
