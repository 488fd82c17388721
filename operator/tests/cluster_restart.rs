//! The operator against a real API server that goes away for 10 s: `kubegen::testing`'s,
//! restarted by the harness; with `USE_EXISTING_CLUSTER=true`, the command in
//! `KUBEGEN_APISERVER_RESTART` must stop the cluster's API server for about 10 s and start it
//! again. A test binary of its own, since it restarts the server its other tests would share.
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p memcached-operator --test cluster_restart -- --ignored
//! ```

mod cluster_env;
mod config_files;
mod in_process;

use cluster_env::control_plane;

use std::time::Duration;

use kube::ResourceExt;
use kube::api::{ListParams, Patch, PatchParams, PostParams};
use serde_json::json;

use in_process::{
    cache, delete_and_wait, deployment_with_replicas, eventually_within, operator_in,
    settled_status,
};

/// Stops the API server for 10 s and starts it again: the harness's, or, on an existing
/// cluster, with the command `KUBEGEN_APISERVER_RESTART` names.
async fn restart_the_api_server() {
    let control_plane = control_plane().await;
    if control_plane.pids().is_some() {
        return control_plane
            .restart_apiserver(Duration::from_secs(10))
            .await
            .unwrap();
    }
    let command = std::env::var("KUBEGEN_APISERVER_RESTART").expect(
        "on an existing cluster, set KUBEGEN_APISERVER_RESTART to a command that stops the API \
         server for 10 s and starts it again",
    );
    let restart = tokio::task::spawn_blocking(move || {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .status()
            .unwrap()
    });
    let status = tokio::time::timeout(Duration::from_secs(120), restart)
        .await
        .expect("the API server restarts within 2 minutes")
        .unwrap();
    assert!(status.success(), "the restart command failed: {status}");
}

/// The API server goes away for 10 s while the operator runs, and comes back: the operator's
/// watches resume (a later change converges) without a restart of its own, it never makes a
/// second Deployment, and the finalizer stays and still works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true with KUBEGEN_APISERVER_RESTART"]
async fn the_operator_survives_an_api_server_restart() {
    let (_env, operator, memcacheds, deployments) = operator_in("restart").await;
    let name = "cache";
    memcacheds
        .create(&PostParams::default(), &cache(name))
        .await
        .unwrap();
    deployment_with_replicas(&operator, &deployments, name, 1).await;

    assert_eq!(
        operator.forbidden.take(),
        Vec::<String>::new(),
        "403s before the restart"
    );
    restart_the_api_server().await;
    // A starting kube-apiserver serves requests before `/readyz` says ok, and refuses them (403)
    // until its RBAC authorizer's cache holds the bindings; a cluster's load balancer holds
    // traffic until then, the loopback port does not. Refusals from that window are forgiven,
    // none after it.
    let while_starting = operator.forbidden.take();
    eprintln!(
        "refused while the API server was starting: {}",
        while_starting.len()
    );
    assert!(
        !operator.task.is_finished(),
        "the operator stopped during the outage"
    );

    // Watches resumed: a change made after the outage converges. The API server's own watch
    // cache may take a while to come back (a shared CRD's conversion webhook can be
    // unreachable): three minutes.
    let patch = Patch::Merge(json!({"spec": {"size": 2}}));
    memcacheds
        .patch(name, &PatchParams::default(), &patch)
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    eventually_within(
        Duration::from_secs(180),
        &operator.forbidden,
        "the Deployment to follow the change made after the outage",
        || async {
            let d = deployments.get_opt(name).await.ok().flatten()?;
            (d.spec.replicas == Some(2)).then_some(())
        },
    )
    .await;
    eprintln!(
        "converged {:?} after the API server came back",
        started.elapsed()
    );
    settled_status(&operator, &memcacheds, &deployments, name, 2).await;
    let all = deployments.list(&ListParams::default()).await.unwrap();
    assert_eq!(all.items.len(), 1, "one Deployment, not a duplicate");
    let mc = memcacheds.get(name).await.unwrap();
    assert_eq!(mc.finalizers(), ["cache.example.com/finalizer"]);

    // The finalizer still works.
    delete_and_wait(&operator, &memcacheds, name).await;
    assert!(!operator.task.is_finished(), "the operator still runs");
    operator.stop().await;
}
