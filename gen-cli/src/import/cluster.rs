//! CRDs read from a cluster by name (`--kubeconfig`, `--context`), through kube's client, as
//! inputs named `<context>/<name>`.

use std::path::Path;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Api, Client, Config};

use super::read::Input;

/// What the API server writes into a CRD's annotations that is no part of the API.
const SERVER_ANNOTATIONS: &[&str] = &["kubectl.kubernetes.io/last-applied-configuration"];

/// The CRDs `names` of the cluster `kubeconfig` (else kubectl's: `KUBECONFIG`, then
/// `~/.kube/config`) and `context` (else its current one) name, each an input; an error per
/// CRD the server does not give.
pub fn inputs(
    kubeconfig: Option<&Path>,
    context: Option<&str>,
    names: &[String],
) -> Result<Vec<Input>, Vec<String>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            vec![format!(
                "cannot start a runtime for the cluster's client: {e}"
            )]
        })?;
    runtime.block_on(read(kubeconfig, context, names))
}

async fn read(
    kubeconfig: Option<&Path>,
    context: Option<&str>,
    names: &[String],
) -> Result<Vec<Input>, Vec<String>> {
    let options = KubeConfigOptions {
        context: context.map(str::to_string),
        ..KubeConfigOptions::default()
    };
    let config = match kubeconfig {
        Some(path) => match Kubeconfig::read_from(path) {
            Ok(file) => Config::from_custom_kubeconfig(file, &options).await,
            Err(e) => return Err(vec![format!("{}: {e}", path.display())]),
        },
        None => Config::from_kubeconfig(&options).await,
    }
    .map_err(|e| vec![format!("no cluster to read CRDs from: {e}")])?;
    let client = Client::try_from(config)
        .map_err(|e| vec![format!("cannot make a client for the cluster: {e}")])?;
    let api: Api<CustomResourceDefinition> = Api::all(client);
    let at = context.unwrap_or("cluster");
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for name in names {
        match api.get(name).await {
            Ok(mut crd) => {
                if let Some(a) = crd.metadata.annotations.as_mut() {
                    a.retain(|k, _| !SERVER_ANNOTATIONS.contains(&k.as_str()));
                }
                inputs.push(Input {
                    name: format!("{at}/{name}"),
                    text: serde_json::to_string(&crd).unwrap_or_default(),
                    in_folder: false,
                });
            }
            Err(e) => errors.push(format!("{at}/{name}: {e}")),
        }
    }
    if errors.is_empty() {
        Ok(inputs)
    } else {
        Err(errors)
    }
}
