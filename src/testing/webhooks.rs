//! A test's webhook server on loopback, registered with the API server: the generated webhook
//! configurations and CRD conversions, their Service client configs turned into URLs of the
//! loopback port with the CA bundle of a certificate made for it.

use base64::Engine as _;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use serde_json::{Value, json};

use super::certs;
use super::control_plane::TempDir;
use super::error::Error;

/// The field manager the configurations are applied with.
const MANAGER: &str = "kubegen-testing";

/// Webhook configurations installed for a server a test runs on loopback; the certificate its
/// server serves is in [`cert_dir`](Self::cert_dir), removed when this is dropped.
pub struct LoopbackWebhooks {
    cert_dir: TempDir,
    /// The kind and name of each configuration installed.
    configurations: Vec<(String, String)>,
}

impl LoopbackWebhooks {
    /// The folder holding `tls.crt` and `tls.key` (for `127.0.0.1`), what a webhook server's
    /// `--webhook-cert-dir` names.
    pub fn cert_dir(&self) -> &std::path::Path {
        self.cert_dir.path()
    }

    /// The names of the configurations installed, `<generated name>-<namespace>`.
    pub fn configurations(&self) -> impl Iterator<Item = &str> {
        self.configurations.iter().map(|(_, name)| name.as_str())
    }
}

/// Makes the certificate, then applies `crds` and the configurations of `manifests`, each Service
/// client config calling `https://127.0.0.1:<port><path>`; the configurations renamed for and
/// limited to `namespace`.
pub(crate) async fn install(
    client: &kube::Client,
    port: u16,
    manifests: &str,
    crds: &[CustomResourceDefinition],
    namespace: &str,
) -> Result<(LoopbackWebhooks, Vec<CustomResourceDefinition>), Error> {
    let cert_dir = TempDir::new()?;
    let ca = certs::webhook_serving(cert_dir.path())?;
    let bundle = base64::engine::general_purpose::STANDARD.encode(ca);
    let to_url = |config: &mut Value| -> Result<(), Error> {
        let Some(service) = config.get("service") else {
            return Err(Error::Config(format!(
                "a webhook client config without a Service: {config}"
            )));
        };
        let path = service["path"].as_str().unwrap_or("/").to_string();
        *config = json!({"url": format!("https://127.0.0.1:{port}{path}"), "caBundle": bundle});
        Ok(())
    };

    let mut converted = Vec::new();
    for crd in crds {
        let mut value = serde_json::to_value(crd).map_err(|e| Error::Config(e.to_string()))?;
        if let Some(config) = value.pointer_mut("/spec/conversion/webhook/clientConfig") {
            to_url(config)?;
        }
        converted.push(serde_json::from_value(value).map_err(|e| Error::Config(e.to_string()))?);
    }

    let docs: Vec<Value> = serde_saphyr::from_multiple(manifests)
        .map_err(|e| Error::Config(format!("reading the webhook manifests: {e}")))?;
    let mut configurations = Vec::new();
    for mut doc in docs.into_iter().filter(|doc| !doc.is_null()) {
        let kind = doc["kind"].as_str().unwrap_or_default().to_string();
        let name = format!(
            "{}-{namespace}",
            doc["metadata"]["name"].as_str().unwrap_or("webhooks")
        );
        doc["metadata"]["name"] = json!(name);
        for webhook in doc["webhooks"].as_array_mut().into_iter().flatten() {
            to_url(&mut webhook["clientConfig"])?;
            webhook["namespaceSelector"] =
                json!({"matchLabels": {"kubernetes.io/metadata.name": namespace}});
        }
        match kind.as_str() {
            "MutatingWebhookConfiguration" => {
                apply::<MutatingWebhookConfiguration>(client, &name, doc).await?
            }
            "ValidatingWebhookConfiguration" => {
                apply::<ValidatingWebhookConfiguration>(client, &name, doc).await?
            }
            other => {
                return Err(Error::Config(format!(
                    "a {other} among the webhook manifests: only webhook configurations go there"
                )));
            }
        }
        configurations.push((kind, name));
    }
    Ok((
        LoopbackWebhooks {
            cert_dir,
            configurations,
        },
        converted,
    ))
}

/// Applies `doc`, a `K` named `name`.
async fn apply<K>(client: &kube::Client, name: &str, doc: Value) -> Result<(), Error>
where
    K: kube::Resource<Scope = kube::core::ClusterResourceScope, DynamicType = ()>
        + Clone
        + std::fmt::Debug
        + serde::Serialize
        + serde::de::DeserializeOwned,
{
    let object: K = serde_json::from_value(doc)
        .map_err(|e| Error::Config(format!("a {}: {e}", K::kind(&()))))?;
    Api::<K>::all(client.clone())
        .patch(
            name,
            &PatchParams::apply(MANAGER).force(),
            &Patch::Apply(&object),
        )
        .await?;
    Ok(())
}

/// Deletes the configurations `install` made.
pub(crate) async fn uninstall(
    client: &kube::Client,
    webhooks: &LoopbackWebhooks,
) -> Result<(), Error> {
    let params = DeleteParams::default();
    for (kind, name) in &webhooks.configurations {
        let deleted = if kind == "MutatingWebhookConfiguration" {
            Api::<MutatingWebhookConfiguration>::all(client.clone())
                .delete(name, &params)
                .await
                .map(drop)
        } else {
            Api::<ValidatingWebhookConfiguration>::all(client.clone())
                .delete(name, &params)
                .await
                .map(drop)
        };
        match deleted {
            Err(kube::Error::Api(status)) if status.code == 404 => {}
            other => other?,
        }
    }
    Ok(())
}
