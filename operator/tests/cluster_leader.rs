//! Two replicas of the operator binary with `--leader-elect` against a real API server
//! (`KUBECONFIG`, whose credentials the replicas use): one leads at a time, and when the leader
//! is killed with SIGKILL the other takes over within the lease's duration.
//!
//! ```sh
//! KUBECONFIG=/path/to/kubeconfig cargo test -p memcached-operator --test cluster_leader -- --ignored
//! ```

mod config_files;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{DeleteParams, Patch, PatchParams, PostParams};
use kube::{Api, Client};
use memcached_operator::api::v1alpha1::Memcached;
use serde_json::json;

use config_files::documents;

/// The runtime's lease duration (`kubegen::runtime`'s leader election), in seconds.
const LEASE_DURATION: u64 = 15;

/// A replica: its process and the lines it logged (on standard output).
struct Replica {
    identity: String,
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
}

impl Replica {
    fn start(namespace: &str, identity: &str) -> Replica {
        let mut child = Command::new(env!("CARGO_BIN_EXE_memcached-operator"))
            .args([
                format!("--namespace={namespace}"),
                "--http-addr=127.0.0.1:0".into(),
                "--leader-elect".into(),
                format!("--leader-election-namespace={namespace}"),
                format!("--identity={identity}"),
                "--webhook-port=0".into(),
            ])
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the operator binary starts");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stdout = child.stdout.take().expect("piped stdout");
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        Replica {
            identity: identity.to_string(),
            child,
            log,
        }
    }

    fn became_leader(&self) -> bool {
        self.log
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("became the leader"))
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn holder(leases: &Api<Lease>) -> Option<String> {
    let lease = leases.get_opt("memcached-operator-leader").await.ok()??;
    lease.spec?.holder_identity
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a cluster: KUBECONFIG"]
async fn the_other_replica_takes_over_when_the_leader_is_killed() {
    let admin = Client::try_default()
        .await
        .expect("a cluster in KUBECONFIG");
    let suffix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        % 1_000_000;
    let namespace = format!("mc-leader-{suffix}");
    let namespaces: Api<Namespace> = Api::all(admin.clone());
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}});
    let ns = serde_json::from_value(ns).unwrap();
    namespaces
        .create(&PostParams::default(), &ns)
        .await
        .unwrap();
    let crds: Api<CustomResourceDefinition> = Api::all(admin.clone());
    for doc in documents("crd/bases/cache.example.com_memcacheds.yaml") {
        let crd: CustomResourceDefinition = serde_json::from_value(doc).unwrap();
        let params = PatchParams::apply("cluster-test").force();
        let name = crd.metadata.name.clone().unwrap();
        crds.patch(&name, &params, &Patch::Apply(&crd))
            .await
            .unwrap();
    }

    let mut replicas = [
        Replica::start(&namespace, "replica-a"),
        Replica::start(&namespace, "replica-b"),
    ];
    let leases: Api<Lease> = Api::namespaced(admin.clone(), &namespace);
    let deadline = Instant::now() + Duration::from_secs(60);
    let first = loop {
        if let Some(h) = holder(&leases).await {
            break h;
        }
        assert!(Instant::now() < deadline, "no replica became the leader");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    // For 10 s, one leader: the Lease keeps its holder, and one replica says it leads.
    for _ in 0..40 {
        assert_eq!(holder(&leases).await.as_ref(), Some(&first));
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let leading: Vec<&str> = replicas
        .iter()
        .filter(|r| r.became_leader())
        .map(|r| r.identity.as_str())
        .collect();
    assert_eq!(leading, [first.as_str()]);

    // SIGKILL the leader: the other holds the Lease within the lease duration.
    let (killed, other) = if replicas[0].identity == first {
        (0, 1)
    } else {
        (1, 0)
    };
    replicas[killed].child.kill().unwrap();
    let killed_at = Instant::now();
    let second = replicas[other].identity.clone();
    loop {
        if holder(&leases).await.as_ref() == Some(&second) && replicas[other].became_leader() {
            break;
        }
        assert!(
            killed_at.elapsed() < Duration::from_secs(LEASE_DURATION + 5),
            "no takeover within the lease duration"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let takeover = killed_at.elapsed();
    eprintln!("{second} took over {takeover:?} after {first} was killed");
    assert!(
        takeover <= Duration::from_secs(LEASE_DURATION + 1),
        "{takeover:?}"
    );

    // The new leader reconciles.
    let memcacheds: Api<Memcached> = Api::namespaced(admin.clone(), &namespace);
    let deployments: Api<Deployment> = Api::namespaced(admin.clone(), &namespace);
    let cache: Memcached = serde_json::from_value(json!({
        "apiVersion": "cache.example.com/v1alpha1",
        "kind": "Memcached",
        "metadata": {"name": "cache"},
        "spec": {"size": 1, "containerPort": 11211, "image": "memcached:1.6.26-alpine3.19"},
    }))
    .unwrap();
    memcacheds
        .create(&PostParams::default(), &cache)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while deployments.get_opt("cache").await.unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the new leader made no Deployment"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }

    // Cleanup: the replica goes, then the objects (no kube-controller-manager to collect them).
    drop(replicas);
    let no_finalizers = Patch::Merge(json!({"metadata": {"finalizers": null}}));
    let _ = memcacheds
        .patch("cache", &PatchParams::default(), &no_finalizers)
        .await;
    let _ = memcacheds.delete("cache", &DeleteParams::default()).await;
    let _ = deployments.delete("cache", &DeleteParams::default()).await;
    let _ = namespaces
        .delete(&namespace, &DeleteParams::default())
        .await;
}
