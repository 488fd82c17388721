//! The `+kubebuilder:rbac` markers of Go controllers as `#[rbac(...)]` attributes of a
//! generated `rbac.rs`, so that `kubegen manifests` writes controller-gen's `role.yaml`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::controllers::list;
use super::markers;

/// The `rbac.rs` of the RBAC markers of `found`: one `#[rbac(...)]` each, on one item; and
/// the warnings (an argument kubegen has no key for).
pub fn source(found: &[markers::Marker]) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    let attrs: Vec<TokenStream> = found
        .iter()
        .filter(|m| m.name == "kubebuilder:rbac")
        .map(|m| {
            let args = m.args.iter().filter_map(|(name, value)| {
                let key = match name.as_str() {
                    "groups" => "groups",
                    "resources" => "resources",
                    "resourceNames" => "resource_names",
                    "verbs" => "verbs",
                    "urls" => "urls",
                    "namespace" => "namespace",
                    "roleName" => "role_name",
                    other => {
                        warnings.push(format!(
                            "{}: `{other}` has no `#[rbac]` key; left out",
                            m.loc
                        ));
                        return None;
                    }
                };
                let key = format_ident!("{key}");
                let value = list(value);
                Some(quote!(#key = #value))
            });
            quote!(#[rbac(#(#args),*)])
        })
        .collect();
    let file: syn::File = syn::parse_quote! {
        use kubegen::rbac;

        /// What the Go controllers' `+kubebuilder:rbac` markers ask for.
        #(#attrs)*
        pub struct Permissions;
    };
    let text = prettyplease::unparse(&file);
    let doc = "//! The RBAC rules of the Go controllers, imported from their `+kubebuilder:rbac` \
               markers by `kubegen import go --controllers`.\n";
    (
        format!("{}{doc}\n{text}", super::super::write::RUST_HEADER),
        warnings,
    )
}
