//! Two replicas of the operator binary with `--leader-elect` against a real API server
//! (`kubegen::testing`'s), each as the operator's ServiceAccount: a token from the TokenRequest API in a
//! kubeconfig of its own, with the generated role (`config/rbac/role.yaml`: the ClusterRole and
//! the leader-election Role) bound as `config/rbac/` binds it. While Memcacheds are created and
//! changed, exactly one replica reconciles, as each replica's `/metrics` shows
//! (`controller_runtime_reconcile_total`); when the leader is killed with SIGKILL the other holds
//! the Lease within the lease duration and reconciles the changes made after.
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p memcached-operator --test cluster_leader -- --ignored
//! ```

mod cluster_env;
mod config_files;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Patch, PatchParams, PostParams};
use kube::config::Kubeconfig;
use kube::{Api, Client};
use memcached_operator::api::v1alpha1::Memcached;
use serde_json::json;

use cluster_env::{SERVICE_ACCOUNT, TestEnv, WAIT, admin_kubeconfig, service_account_token, typed};

/// The runtime's lease duration (`kubegen::runtime`'s leader election), in seconds.
const LEASE_DURATION: u64 = 15;
/// The Lease the replicas compete for (`--leader-election-id`'s default).
const LEASE: &str = "memcached-operator-leader";

/// A replica: its process, its plain-HTTP metrics port and the lines it logged.
struct Replica {
    identity: String,
    child: Child,
    metrics_port: u16,
    log: Arc<Mutex<Vec<String>>>,
}

/// What a replica's `/metrics` says about the Memcached controller.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Seen {
    /// `controller_runtime_reconcile_total`, all results (0 before the controller starts).
    reconciles: u64,
    /// `controller_runtime_reconcile_errors_total`.
    errors: u64,
    /// `leader_election_master_status` is 1.
    leads: bool,
}

impl Replica {
    fn start(namespace: &str, identity: &str, kubeconfig: &Path) -> Replica {
        let metrics_port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_memcached-operator"))
            .args([
                format!("--namespace={namespace}"),
                "--http-addr=127.0.0.1:0".into(),
                format!("--metrics-bind-address=127.0.0.1:{metrics_port}"),
                "--metrics-secure=false".into(),
                "--leader-elect".into(),
                format!("--leader-election-namespace={namespace}"),
                format!("--identity={identity}"),
                "--webhook-port=0".into(),
                "--log-format=json".into(),
            ])
            .env("KUBECONFIG", kubeconfig)
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
            metrics_port,
            log,
        }
    }

    /// The replica's `/metrics` (plain HTTP), or `None` while it does not answer.
    fn seen(&self) -> Option<Seen> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.metrics_port)).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .ok()?;
        let mut response = String::new();
        stream.read_to_string(&mut response).ok()?;
        if !response.starts_with("HTTP/1.1 200") {
            return None;
        }
        let value = |line: &str| -> u64 {
            let number = line.rsplit(' ').next().unwrap_or_default();
            number.parse::<f64>().map_or(0, |n| n as u64)
        };
        let memcached = r#"controller="memcached""#;
        let mut seen = Seen::default();
        for line in response.lines() {
            if line.starts_with("controller_runtime_reconcile_total{") && line.contains(memcached) {
                seen.reconciles += value(line);
            } else if line.starts_with("controller_runtime_reconcile_errors_total{")
                && line.contains(memcached)
            {
                seen.errors += value(line);
            } else if line.starts_with("leader_election_master_status{") {
                seen.leads = value(line) == 1;
            }
        }
        Some(seen)
    }

    /// The lines it logged that are warnings or errors.
    fn warnings(&self) -> Vec<String> {
        let log = self.log.lock().unwrap();
        log.iter()
            .filter(|l| l.contains(r#""level":"WARN""#) || l.contains(r#""level":"ERROR""#))
            .cloned()
            .collect()
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A kubeconfig at `path` with the cluster of `admin`'s current context and the operator's
/// ServiceAccount token as its only credential.
fn token_kubeconfig(admin: &Kubeconfig, path: &Path, token: &str, namespace: &str) {
    let current = admin.current_context.clone().expect("a current context");
    let context = admin
        .contexts
        .iter()
        .find(|c| c.name == current)
        .and_then(|c| c.context.clone())
        .expect("the current context is defined");
    let cluster = admin
        .clusters
        .iter()
        .find(|c| c.name == context.cluster)
        .expect("the context's cluster is defined");
    let config = json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [cluster],
        "users": [{"name": "operator", "user": {"token": token}}],
        "contexts": [{"name": "operator", "context": {
            "cluster": cluster.name, "user": "operator", "namespace": namespace,
        }}],
        "current-context": "operator",
    });
    // JSON is YAML.
    std::fs::write(path, config.to_string()).expect("the kubeconfig is written");
}

async fn holder(leases: &Api<Lease>) -> Option<String> {
    let lease = leases.get_opt(LEASE).await.ok()??;
    lease.spec?.holder_identity
}

fn memcached(name: &str, size: i32) -> Memcached {
    typed(json!({
        "apiVersion": "cache.example.com/v1alpha1",
        "kind": "Memcached",
        "metadata": {"name": name},
        "spec": {"size": size, "containerPort": 11211, "image": "memcached:1.6.26-alpine3.19"},
    }))
}

/// Samples both replicas' metrics every 200 ms while `changes` runs, then for 2 s more;
/// returns the samples (`None` for a replica that did not answer).
async fn watch_while<F: std::future::Future<Output = ()>>(
    replicas: &[Replica; 2],
    changes: F,
) -> Vec<[Option<Seen>; 2]> {
    let samples = Mutex::new(Vec::new());
    let done = std::sync::atomic::AtomicBool::new(false);
    let sampling = async {
        let mut after_done = 0;
        while after_done < 10 {
            samples
                .lock()
                .unwrap()
                .push([replicas[0].seen(), replicas[1].seen()]);
            if done.load(std::sync::atomic::Ordering::Relaxed) {
                after_done += 1;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let changing = async {
        changes.await;
        done.store(true, std::sync::atomic::Ordering::Relaxed);
    };
    tokio::join!(sampling, changing);
    samples.into_inner().unwrap()
}

/// Creates `names` and changes each one's size twice, a second apart.
async fn make_changes(memcacheds: &Api<Memcached>, names: &[&str]) -> usize {
    let mut changes = 0;
    for name in names {
        memcacheds
            .create(&PostParams::default(), &memcached(name, 1))
            .await
            .unwrap();
        changes += 1;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    for size in [2, 3] {
        for name in names {
            let patch = Patch::Merge(json!({"spec": {"size": size}}));
            memcacheds
                .patch(name, &PatchParams::default(), &patch)
                .await
                .unwrap();
            changes += 1;
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
    changes
}

/// Waits until the Deployment `name` has `replicas`.
async fn deployment_follows(deployments: &Api<Deployment>, name: &str, replicas: i32) {
    let deadline = Instant::now() + WAIT;
    loop {
        let current = deployments.get_opt(name).await.unwrap();
        if current.and_then(|d| d.spec.replicas) == Some(replicas) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the Deployment {name} never had {replicas} replicas"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn exactly_one_replica_reconciles_and_the_other_takes_over_when_it_is_killed() {
    let env = TestEnv::new("leader").await;
    let namespace = env.namespace.clone();
    let token = service_account_token(&env.admin, &namespace, SERVICE_ACCOUNT).await;
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    token_kubeconfig(&admin_kubeconfig().await, &kubeconfig, &token, &namespace);
    // The replicas' credentials are the ServiceAccount's, not the admin's.
    let operator = Client::try_from(
        kube::Config::from_custom_kubeconfig(
            Kubeconfig::read_from(&kubeconfig).unwrap(),
            &Default::default(),
        )
        .await
        .unwrap(),
    )
    .unwrap();
    let forbidden = Api::<k8s_openapi::api::core::v1::Secret>::namespaced(operator, &namespace)
        .list(&Default::default())
        .await;
    assert!(
        matches!(forbidden, Err(kube::Error::Api(ref s)) if s.code == 403),
        "the token is the ServiceAccount's, which may not list Secrets: {forbidden:?}"
    );

    let mut replicas = [
        Replica::start(&namespace, "replica-a", &kubeconfig),
        Replica::start(&namespace, "replica-b", &kubeconfig),
    ];
    let leases: Api<Lease> = Api::namespaced(env.admin.clone(), &namespace);
    let deadline = Instant::now() + WAIT;
    let first = loop {
        if let Some(h) = holder(&leases).await {
            break h;
        }
        assert!(Instant::now() < deadline, "no replica became the leader");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let (leader, follower) = match replicas.iter().position(|r| r.identity == first) {
        Some(0) => (0, 1),
        Some(_) => (1, 0),
        None => panic!("the Lease holder {first} is no replica"),
    };
    while !replicas[leader].seen().is_some_and(|s| s.leads) {
        assert!(
            Instant::now() < deadline,
            "{first} holds the Lease but does not say it leads"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Memcacheds created and changed for about 9 s: only the leader reconciles, the other's
    // controller never runs, and the Lease keeps its holder.
    let memcacheds: Api<Memcached> = Api::namespaced(env.admin.clone(), &namespace);
    let deployments: Api<Deployment> = Api::namespaced(env.admin.clone(), &namespace);
    let names = ["cache-0", "cache-1", "cache-2"];
    let changes = std::sync::atomic::AtomicUsize::new(0);
    let samples = watch_while(&replicas, async {
        let made = make_changes(&memcacheds, &names).await;
        changes.store(made, std::sync::atomic::Ordering::Relaxed);
    })
    .await;
    let changes = changes.into_inner();
    assert_eq!(holder(&leases).await.as_deref(), Some(first.as_str()));
    for sample in &samples {
        let follower_seen = sample[follower].unwrap_or_default();
        assert_eq!(
            (follower_seen.reconciles, follower_seen.leads),
            (0, false),
            "the follower reconciled or led: {sample:?}"
        );
        if let Some(seen) = sample[leader] {
            assert!(
                seen.leads,
                "the Lease holder says it does not lead: {sample:?}"
            );
        }
    }
    let answered: Vec<Seen> = samples.iter().filter_map(|s| s[leader]).collect();
    let (before, after) = (answered[0], answered[answered.len() - 1]);
    eprintln!(
        "{} samples; the leader {first} reconciled {} times for {changes} changes, the follower 0 times",
        samples.len(),
        after.reconciles - before.reconciles
    );
    assert!(
        after.reconciles - before.reconciles >= changes as u64,
        "{changes} changes, but the leader's reconciles went from {} to {}",
        before.reconciles,
        after.reconciles
    );
    assert_eq!(
        after.errors,
        0,
        "reconciles failed (RBAC?): {:?}",
        replicas[leader].warnings()
    );
    for name in names {
        deployment_follows(&deployments, name, 3).await;
    }

    // SIGKILL the leader: the other holds the Lease and says it leads within the lease
    // duration.
    replicas[leader].child.kill().unwrap();
    let killed_at = Instant::now();
    let second = replicas[follower].identity.clone();
    loop {
        let leads = replicas[follower].seen().is_some_and(|s| s.leads);
        if leads && holder(&leases).await.as_ref() == Some(&second) {
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

    // The new leader reconciles what changes after the takeover.
    let before = replicas[follower].seen().expect("the new leader's metrics");
    memcacheds
        .create(&PostParams::default(), &memcached("cache-3", 2))
        .await
        .unwrap();
    let patch = Patch::Merge(json!({"spec": {"size": 1}}));
    memcacheds
        .patch("cache-0", &PatchParams::default(), &patch)
        .await
        .unwrap();
    deployment_follows(&deployments, "cache-3", 2).await;
    deployment_follows(&deployments, "cache-0", 1).await;
    let after = replicas[follower].seen().expect("the new leader's metrics");
    eprintln!(
        "the new leader reconciled {} times after the takeover",
        after.reconciles - before.reconciles
    );
    assert!(
        after.reconciles >= before.reconciles + 2,
        "{before:?} → {after:?}"
    );
    assert_eq!(after.errors, 0, "{:?}", replicas[follower].warnings());

    // The replicas go first; TestEnv's drop removes the objects and the namespace.
    drop(replicas);
    let _ = std::fs::remove_file(kubeconfig);
}
