//! A real Kubernetes API server (`kubegen::testing`'s) calls the operator's webhooks over TLS.
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p memcached-operator --test cluster_webhooks -- --ignored
//! ```
//!
//! The test serves the operator's webhooks on a loopback port and registers them with
//! `ControlPlane::install_webhooks`: a certificate for `127.0.0.1` from a fresh CA, the
//! generated CRD with its conversion webhook pointed at `https://127.0.0.1:<port>/convert`, and
//! the generated webhook configurations (renamed for and limited to the test's namespace), URL
//! client configs with the CA bundle instead of the in-cluster Service. Against an existing
//! cluster (`USE_EXISTING_CLUSTER=true`) the API server must reach the test on loopback: run it
//! on the API server's machine. Everything it created is removed at the end, and the CRD is put
//! back as generated.

mod cluster_env;
mod config_files;

use std::time::Duration;

use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{DeleteParams, PostParams};
use kube::{Api, Client};
use kubegen::testing::LoopbackWebhooks;
use memcached_operator::api::{DEFAULT_IMAGE, v1alpha1, v1beta1};
use memcached_operator::webhook;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use cluster_env::{control_plane, typed};
use config_files::documents;

const CRD: &str = "memcacheds.cache.example.com";
const WAIT: Duration = Duration::from_secs(30);

/// The generated CRD (as `gen-cli` wrote it).
fn generated_crd() -> Value {
    documents("crd/bases/cache.example.com_memcacheds.yaml").remove(0)
}

/// Replaces the cluster's CRD with `crd` (creates it when absent) and waits until it is
/// established. A replace, not an apply: the client config must lose its `service` when it
/// gets a `url`, and the reverse.
async fn put_crd(client: &Client, crd: Value) {
    let mut crd: CustomResourceDefinition = typed(crd);
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    match crds.get_opt(CRD).await.unwrap() {
        Some(current) => {
            crd.metadata.resource_version = current.metadata.resource_version;
            crds.replace(CRD, &PostParams::default(), &crd)
                .await
                .unwrap();
        }
        None => {
            crds.create(&PostParams::default(), &crd).await.unwrap();
        }
    }
    let established = kube::runtime::conditions::is_crd_established();
    tokio::time::timeout(
        WAIT,
        kube::runtime::wait::await_condition(crds, CRD, established),
    )
    .await
    .expect("the CRD is established")
    .unwrap();
}

/// What the test created; removed on drop (also when the test fails).
struct Cleanup {
    client: Client,
    namespace: String,
    webhooks: LoopbackWebhooks,
    shutdown: CancellationToken,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let (client, namespace) = (self.client.clone(), self.namespace.clone());
        let shutdown = self.shutdown.clone();
        let webhooks = &self.webhooks;
        let cleanup = async move {
            let control_plane = control_plane().await;
            let _ = control_plane.uninstall_webhooks(webhooks).await;
            // The objects, while the conversion webhook still answers.
            let dp = DeleteParams::default();
            let memcacheds: Api<v1alpha1::Memcached> = Api::namespaced(client.clone(), &namespace);
            let _ = memcacheds.delete_collection(&dp, &Default::default()).await;
            put_crd(&client, generated_crd()).await;
            shutdown.cancel();
            let _ = Api::<Namespace>::all(client).delete(&namespace, &dp).await;
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            std::thread::scope(|scope| {
                let _ = scope.spawn(move || runtime.block_on(cleanup)).join();
            });
        }
    }
}

/// Retries `attempt` until it returns `Some` (the API server picks up new webhook
/// configurations and CRD changes within a few seconds).
async fn eventually<T, Fut>(what: &str, mut attempt: impl FnMut() -> Fut) -> T
where
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        if let Some(value) = attempt().await {
            return value;
        }
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn beta(name: &str, replicas: i32, image: &str) -> v1beta1::Memcached {
    let spec = v1beta1::MemcachedSpec {
        replicas,
        container_port: 11211,
        image: image.into(),
        resources: None,
    };
    v1beta1::Memcached::new(name, spec)
}

fn alpha(name: &str, size: i32, image: &str) -> v1alpha1::Memcached {
    let spec = v1alpha1::MemcachedSpec {
        size,
        container_port: 11211,
        image: image.into(),
        resources: None,
    };
    v1alpha1::Memcached::new(name, spec)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn the_api_server_calls_the_webhooks_over_tls() {
    let control_plane = control_plane().await;
    let client = control_plane.client();
    let namespace = control_plane.namespace("mc-webhooks").await.unwrap();

    // The operator's webhook server on loopback; the generated CRD (its conversion webhook)
    // and webhook configurations (for this namespace only) calling it, with the CA bundle of
    // the certificate the harness made for it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let crd: CustomResourceDefinition = typed(generated_crd());
    assert_eq!(
        crd.spec.conversion.as_ref().map(|c| c.strategy.as_str()),
        Some("Webhook")
    );
    let manifests = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/webhook/manifests.yaml"),
    )
    .unwrap();
    let webhooks = control_plane
        .install_webhooks(port, &manifests, &[crd], &namespace)
        .await
        .unwrap();
    assert_eq!(
        webhooks.configurations().count(),
        2,
        "a mutating and a validating configuration"
    );
    let shutdown = CancellationToken::new();
    let server = tokio::spawn(webhook::serve(
        listener,
        webhooks.cert_dir().to_path_buf(),
        shutdown.clone(),
    ));
    let cleanup = Cleanup {
        client: client.clone(),
        namespace: namespace.clone(),
        webhooks,
        shutdown: shutdown.clone(),
    };
    let pp = PostParams::default();
    let betas: Api<v1beta1::Memcached> = Api::namespaced(client.clone(), &namespace);
    let alphas: Api<v1alpha1::Memcached> = Api::namespaced(client.clone(), &namespace);

    // An invalid object is denied with the handler's message (once the API server has the
    // configuration: a dry run until then).
    let untagged = "registry.example.com/memcached";
    let dry_run = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    let denied = eventually("the validating webhook denies", || async {
        betas
            .create(&dry_run, &beta("bad", 1, untagged))
            .await
            .err()
    })
    .await;
    let kube::Error::Api(status) = &denied else {
        panic!("{denied}")
    };
    assert_eq!(status.code, 422, "{status:?}");
    let message = format!(
        "spec.image \"{untagged}\" has no tag: name the version to run, as in \"{untagged}:1.6\", or a digest"
    );
    assert!(status.message.ends_with(&message), "{}", status.message);
    assert!(
        status.message.contains("vmemcached-v1beta1.kb.io"),
        "{}",
        status.message
    );
    assert!(
        betas.get_opt("bad").await.unwrap().is_none(),
        "nothing was stored"
    );

    // A create is defaulted: the official image gets its tag.
    eventually("the defaulting webhook defaults", || async {
        let created = betas
            .create(&dry_run, &beta("probe", 1, "memcached"))
            .await
            .unwrap();
        (created.spec.image == DEFAULT_IMAGE).then_some(())
    })
    .await;
    let created = betas
        .create(&pp, &beta("beta", 2, "memcached"))
        .await
        .unwrap();
    assert_eq!(created.spec.image, DEFAULT_IMAGE);
    // Through v1alpha1 too: converted to v1beta1 for the webhooks and back.
    let created = alphas
        .create(&pp, &alpha("alpha", 3, "memcached"))
        .await
        .unwrap();
    assert_eq!(created.spec.image, DEFAULT_IMAGE);
    let error = alphas
        .create(&pp, &alpha("alpha-bad", 1, untagged))
        .await
        .unwrap_err();
    assert!(error.to_string().contains(&message), "{error}");

    // A v1alpha1 object read as v1beta1, and a v1beta1 object read as v1alpha1.
    let read = betas.get("alpha").await.unwrap();
    assert_eq!(
        (read.spec.replicas, read.spec.image.as_str()),
        (3, DEFAULT_IMAGE)
    );
    let read = alphas.get("beta").await.unwrap();
    assert_eq!(
        (read.spec.size, read.spec.image.as_str()),
        (2, DEFAULT_IMAGE)
    );
    // A list converts every object.
    let mut replicas: Vec<_> = betas
        .list(&Default::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|m| (m.metadata.name.unwrap(), m.spec.replicas))
        .collect();
    replicas.sort();
    assert_eq!(replicas, [("alpha".into(), 3), ("beta".into(), 2)]);

    drop(cleanup);
    tokio::time::timeout(WAIT, server)
        .await
        .expect("the webhook server stops")
        .unwrap()
        .unwrap();
}
