//! The `+kubebuilder:webhook` markers of Go webhooks as `#[webhook(...)]` attributes on handler
//! stubs of a generated `webhooks.rs`, so that `kubegen manifests` writes controller-gen's
//! `config/webhook/manifests.yaml`; `+kubebuilder:webhookconfiguration` as
//! `#[webhook_configuration(...)]`. Each stub denies every request until its logic is written.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::controllers::{list, parts};
use super::markers::Marker;

/// Each marker argument and its `#[webhook]` key.
const KEYS: &[(&str, &str)] = &[
    ("mutating", "mutating"),
    ("failurePolicy", "failure_policy"),
    ("matchPolicy", "match_policy"),
    ("sideEffects", "side_effects"),
    ("timeoutSeconds", "timeout_seconds"),
    ("groups", "groups"),
    ("resources", "resources"),
    ("verbs", "verbs"),
    ("versions", "versions"),
    ("name", "name"),
    ("path", "path"),
    ("url", "url"),
    ("serviceName", "service_name"),
    ("serviceNamespace", "service_namespace"),
    ("servicePort", "service_port"),
    ("admissionReviewVersions", "admission_review_versions"),
    ("reinvocationPolicy", "reinvocation_policy"),
    ("patch", "patch"),
];

/// The `webhooks.rs` of the webhook markers of `found` (`None` when there are none): a stub
/// per webhook, and the warnings (an argument kubegen has no key for).
pub fn source(found: &[Marker]) -> (Option<String>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut names = BTreeSet::new();
    let mut items = Vec::new();
    for m in found {
        match m.name.as_str() {
            "kubebuilder:webhook" => {
                let args = arguments(m, &mut warnings);
                items.push(stub(m, args, &mut names));
            }
            "kubebuilder:webhookconfiguration" => {
                let args = m.args.iter().map(|(name, value)| {
                    let key = format_ident!("{name}");
                    let value = literal(value);
                    quote!(#key = #value)
                });
                let doc = format!(" The configuration `+{}` names.", m.text);
                let item = if m.arg("mutating") == Some(&Value::Bool(true)) {
                    format_ident!("MutatingConfiguration")
                } else {
                    format_ident!("ValidatingConfiguration")
                };
                items.push(quote! {
                    #[doc = #doc]
                    #[webhook_configuration(#(#args),*)]
                    pub struct #item;
                });
            }
            _ => {}
        }
    }
    if items.is_empty() {
        return (None, warnings);
    }
    let configuration = found
        .iter()
        .any(|m| m.name == "kubebuilder:webhookconfiguration")
        .then(|| {
            quote!(
                use kubegen::webhook_configuration;
            )
        });
    let file: syn::File = syn::parse_quote! {
        use kubegen::webhook;
        #configuration
        use kubegen::webhook::Denied;

        #(#items)*
    };
    let doc = "//! The Go webhooks' `+kubebuilder:webhook` markers, imported by `kubegen import go\n\
               //! --controllers` onto handler stubs: each denies every request until its logic\n\
               //! (the Go webhook's `Default` or `Validate*`) is written here.\n";
    let text = prettyplease::unparse(&file);
    (
        Some(format!("{}{doc}\n{text}", super::super::write::RUST_HEADER)),
        warnings,
    )
}

/// A marker's arguments as `#[webhook]` keys.
fn arguments(m: &Marker, warnings: &mut Vec<String>) -> Vec<TokenStream> {
    let mutating = m.arg("mutating") == Some(&Value::Bool(true));
    m.args
        .iter()
        .filter_map(|(name, value)| {
            if name == "webhookVersions" && parts(value) == ["v1"] {
                // The only version kubegen (and controller-gen since 0.15) writes.
                return None;
            }
            if name == "reinvocationPolicy" && !mutating {
                warnings.push(format!(
                    "{}: `reinvocationPolicy` on a validating webhook, which controller-gen \
                     ignores and `#[webhook]` refuses; left out",
                    m.loc
                ));
                return None;
            }
            let Some((_, key)) = KEYS.iter().find(|(arg, _)| arg == name) else {
                warnings.push(format!(
                    "{}: `{name}` has no `#[webhook]` key; left out",
                    m.loc
                ));
                return None;
            };
            let key = format_ident!("{key}");
            let value = literal(value);
            Some(quote!(#key = #value))
        })
        .collect()
}

/// A stub handler named after the webhook, carrying `args`.
fn stub(m: &Marker, args: Vec<TokenStream>, names: &mut BTreeSet<String>) -> TokenStream {
    let webhook = m
        .arg("name")
        .map(|v| parts(v).join(";"))
        .unwrap_or_default();
    let base: String = webhook
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let base = match base.trim_matches('_') {
        "" => "webhook".to_string(),
        b if b.starts_with(|c: char| c.is_ascii_digit()) => format!("webhook_{b}"),
        b => b.to_string(),
    };
    let mut name = base.clone();
    let mut n = 2;
    while !names.insert(name.clone()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    let ident = format_ident!("{name}");
    let message = format!("{webhook}: not written yet");
    let from = format!(" Imported from `{}`.", m.loc);
    let mutating = m.arg("mutating") == Some(&Value::Bool(true));
    if mutating {
        quote! {
            /// A defaulting webhook to write: it changes the object in place.
            ///
            #[doc = #from]
            ///
            /// # Panics
            ///
            /// Always, until it is written: the webhook server answers a handler's panic with
            /// a denial.
            #[webhook(#(#args),*)]
            pub fn #ident<K>(_object: &mut K) {
                panic!(#message)
            }
        }
    } else {
        quote! {
            /// A validating webhook to write: `Ok(())` admits the object (and, on update, its
            /// change from `old`).
            ///
            #[doc = #from]
            ///
            /// # Errors
            ///
            /// Always, until it is written.
            #[webhook(#(#args),*)]
            pub fn #ident<K>(_object: &K, _old: Option<&K>) -> Result<(), Denied> {
                Err(Denied::new(#message))
            }
        }
    }
}

/// A value as a Rust literal: a boolean, a whole number, else a string or list.
fn literal(value: &Value) -> TokenStream {
    match value {
        Value::Bool(b) => quote!(#b),
        Value::Number(n) if n.is_i64() => {
            let n = proc_macro2::Literal::i64_unsuffixed(n.as_i64().unwrap_or_default());
            quote!(#n)
        }
        other => list(other),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{markers, parse};
    use super::*;

    fn found(go: &str) -> Vec<Marker> {
        markers::of(&parse::line_comments("w.go", go).0)
    }

    #[test]
    fn each_webhook_marker_is_a_stub_that_denies() {
        let go = "package w\n\n\
            // +kubebuilder:webhook:path=/mutate-v1-pod,mutating=true,failurePolicy=fail,sideEffects=None,groups=\"\",resources=pods,verbs=create;update,versions=v1,name=mpod.kb.io,admissionReviewVersions=v1,webhookVersions=v1\n\
            // +kubebuilder:webhook:mutating=false,failurePolicy=ignore,groups=apps,resources=deployments,verbs=create,versions=v1,name=vdeploy.kb.io,admissionReviewVersions=v1;v1beta1,timeoutSeconds=10,reinvocationPolicy=Never,nope=1\n\
            // +kubebuilder:webhookconfiguration:mutating=true,name=foo\n";
        let (rust, warnings) = source(&found(go));
        let rust = rust.unwrap();
        for line in [
            r#"#[webhook(
    path = "/mutate-v1-pod",
    mutating = true,
    failure_policy = "fail",
    side_effects = "None",
    groups = "",
    resources = "pods",
    verbs = "create;update",
    versions = "v1",
    name = "mpod.kb.io",
    admission_review_versions = "v1"
)]
pub fn mpod_kb_io<K>(_object: &mut K) {
    panic!("mpod.kb.io: not written yet")
}"#,
            r#"timeout_seconds = 10"#,
            r#"admission_review_versions = "v1;v1beta1""#,
            "pub fn vdeploy_kb_io<K>(_object: &K, _old: Option<&K>) -> Result<(), Denied> {",
            "    Err(Denied::new(\"vdeploy.kb.io: not written yet\"))\n",
            "/// Imported from `w.go:4:1`.\n",
            "#[webhook_configuration(mutating = true, name = \"foo\")]\npub struct MutatingConfiguration;",
        ] {
            assert!(rust.contains(line), "{line}\n{rust}");
        }
        assert!(!rust.contains("reinvocation"), "{rust}");
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("w.go:4:1: `reinvocationPolicy`"));
        assert!(warnings[1].contains("w.go:4:1: `nope` has no `#[webhook]` key"));
        assert_eq!(source(&found("package w\n")).0, None);
    }
}
