//! Installing CRDs and waiting until they are served; per-test namespaces.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};

use super::error::Error;

/// How long a CRD may take to be `Established`.
const ESTABLISHED_TIMEOUT: Duration = Duration::from_secs(30);
/// How often its conditions are read.
pub(crate) const POLL: Duration = Duration::from_millis(50);
/// The field manager the CRDs are applied with.
const MANAGER: &str = "kubegen-testing";

/// Applies `crds` (server-side, so installing them twice is harmless) and waits until each
/// has the condition `Established=True` and lists its objects in every served version (the
/// handlers lag a little behind the condition).
pub(crate) async fn install(
    client: &kube::Client,
    crds: &[CustomResourceDefinition],
) -> Result<(), Error> {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let params = PatchParams::apply(MANAGER).force();
    let mut names = Vec::new();
    for crd in crds {
        let name = crd.metadata.name.clone().unwrap_or_default();
        let mut crd = crd.clone();
        crd.metadata.managed_fields = None;
        crd.metadata.resource_version = None;
        crd.status = None;
        api.patch(&name, &params, &Patch::Apply(&crd)).await?;
        names.push(name);
    }
    for name in names {
        let start = Instant::now();
        loop {
            let crd = api.get(&name).await?;
            if established(&crd) && serves(client, &crd).await {
                break;
            }
            if start.elapsed() > ESTABLISHED_TIMEOUT {
                return Err(Error::Timeout {
                    what: format!("CustomResourceDefinition {name}"),
                    waited: start.elapsed(),
                    last: format!("conditions: {:?}", crd.status.and_then(|s| s.conditions)),
                });
            }
            tokio::time::sleep(POLL).await;
        }
    }
    Ok(())
}

/// Whether every served version of the CRD answers a list request.
async fn serves(client: &kube::Client, crd: &CustomResourceDefinition) -> bool {
    for version in crd.spec.versions.iter().filter(|v| v.served) {
        let path = format!(
            "/apis/{}/{}/{}?limit=1",
            crd.spec.group, version.name, crd.spec.names.plural
        );
        let Ok(request) = http::Request::get(path).body(Vec::new()) else {
            return false;
        };
        if client.request_text(request).await.is_err() {
            return false;
        }
    }
    true
}

/// Whether the CRD's status has `Established=True`.
fn established(crd: &CustomResourceDefinition) -> bool {
    crd.status
        .as_ref()
        .and_then(|status| status.conditions.as_ref())
        .is_some_and(|conditions| {
            conditions
                .iter()
                .any(|c| c.type_ == "Established" && c.status == "True")
        })
}

/// Creates a namespace named `prefix-` and a suffix the API server picks, returning its name.
pub(crate) async fn namespace(client: &kube::Client, prefix: &str) -> Result<String, Error> {
    let api: Api<Namespace> = Api::all(client.clone());
    let namespace = Namespace {
        metadata: ObjectMeta {
            generate_name: Some(format!("{prefix}-")),
            ..ObjectMeta::default()
        },
        ..Namespace::default()
    };
    let created = api.create(&PostParams::default(), &namespace).await?;
    Ok(created.metadata.name.unwrap_or_default())
}
