//! `kubegen::testing` against real binaries: `KUBEBUILDER_ASSETS=<dir with etcd and
//! kube-apiserver> cargo test -p kubegen-rs --features testing --test testing -- --ignored`
//! (`setup-envtest use -p path` prints such a folder). The cold start's breakdown is printed
//! with `--nocapture`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Secret};
use kube::Api;
use kube::api::PostParams;
use kubegen::CustomResource;
use kubegen::testing::ControlPlane;
use memcached_operator::api::v1alpha1::Memcached;
use memcached_operator::api::v1beta1;

const NEEDS: &str = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)";

#[tokio::test]
#[ignore = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)"]
async fn a_crd_installed_serves_objects_with_its_schema() {
    let started = Instant::now();
    let cp = ControlPlane::start().await.expect(NEEDS);
    let mut crd =
        kubegen::crd_for(&[Memcached::resource(), v1beta1::Memcached::resource()]).unwrap();
    // No conversion webhook runs here: objects are written and read in the stored version.
    crd.spec.conversion = None;
    let established = cp.install_crds(&[crd]).await.unwrap();
    if let Some(t) = cp.timings() {
        println!(
            "cold start: etcd ready {:?}, apiserver ready {:?}, CRDs established {:?} later; total {:?}",
            t.etcd_ready,
            t.apiserver_ready,
            established,
            started.elapsed()
        );
    }

    let namespace = cp.namespace("memcached").await.unwrap();
    assert!(namespace.starts_with("memcached-"), "{namespace}");
    let out = cp
        .kubectl()
        .args(["get", "namespace", &namespace, "-o", "name"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("namespace/{namespace}"),
        "kubectl reaches the control plane: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let namespaces: Api<Namespace> = Api::all(cp.client());
    namespaces.get(&namespace).await.unwrap();

    let api: Api<Memcached> = Api::namespaced(cp.client(), &namespace);
    let object: Memcached = serde_json::from_value(serde_json::json!({
        "apiVersion": "cache.example.com/v1alpha1",
        "kind": "Memcached",
        "metadata": {"name": "sample"},
        "spec": {"size": 3},
    }))
    .unwrap();
    api.create(&PostParams::default(), &object).await.unwrap();
    let read = api.get("sample").await.unwrap();
    assert_eq!(read.spec.size, 3);

    // The schema is the derived one: the API server refuses what its `maximum` does.
    let mut too_big = object.clone();
    too_big.metadata.name = Some("too-big".into());
    too_big.spec.size = 9;
    let error = api
        .create(&PostParams::default(), &too_big)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("spec.size"), "{error}");

    // As the operator's ServiceAccount, bound to its generated roles: what they grant works,
    // the rest is refused.
    let role = include_str!("../operator/config/rbac/role.yaml");
    let operator = cp
        .client_as(&namespace, "memcached-operator", role)
        .await
        .unwrap();
    let as_operator: Api<Memcached> = Api::namespaced(operator.clone(), &namespace);
    assert_eq!(
        as_operator
            .list(&Default::default())
            .await
            .unwrap()
            .items
            .len(),
        1
    );
    let leases: Api<Lease> = Api::namespaced(operator.clone(), &namespace);
    // The Role (leader election) is bound in the namespace: a `get` is allowed, and finds none.
    match leases.get("memcached-operator").await {
        Err(kube::Error::Api(status)) => assert_eq!(status.code, 404, "{status:?}"),
        other => panic!("expected a 404, got {other:?}"),
    }
    for refused in [
        as_operator.get("sample").await.map(drop),
        Api::<Secret>::namespaced(operator, &namespace)
            .list(&Default::default())
            .await
            .map(drop),
    ] {
        match refused {
            Err(kube::Error::Api(status)) => assert_eq!(status.code, 403, "{status:?}"),
            other => panic!("expected a 403, got {other:?}"),
        }
    }
    // A refusal names the `#[rbac]` attribute that would have allowed it.
    let refused = as_operator.get("sample").await.unwrap_err();
    assert_eq!(
        kubegen::testing::missing_rbac(&refused).as_deref(),
        Some(r#"#[rbac(groups = "cache.example.com", resources = "memcacheds", verbs = "get")]"#),
        "{refused}"
    );
}

#[tokio::test]
#[ignore = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)"]
async fn the_controller_managers_jobs_are_done_on_request() {
    let cp = ControlPlane::shared().await.expect(NEEDS);
    let namespace = cp.namespace("jobs").await.unwrap();

    // A Deployment rolled out: the status its controllers and kubelets would write.
    let deployments: Api<Deployment> = Api::namespaced(cp.client(), &namespace);
    let deployment: Deployment = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "web"},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx"}]},
            },
        },
    }))
    .unwrap();
    deployments
        .create(&PostParams::default(), &deployment)
        .await
        .unwrap();
    let rolled = cp.roll_out(&namespace, "web").await.unwrap();
    // As JSON: which fields are `Option`s depends on the Kubernetes version chosen.
    let rolled = serde_json::to_value(rolled).unwrap();
    let status = &rolled["status"];
    assert_eq!(
        (&status["readyReplicas"], &status["availableReplicas"]),
        (&serde_json::json!(2), &serde_json::json!(2))
    );
    assert_eq!(
        status["observedGeneration"],
        rolled["metadata"]["generation"]
    );
    let available = status["conditions"].as_array().unwrap();
    assert!(
        available
            .iter()
            .any(|c| c["type"] == "Available" && c["status"] == "True"),
        "{available:?}"
    );

    // The garbage collector: a sole owner's dependents go, a shared one loses the reference.
    let config_maps: Api<ConfigMap> = Api::namespaced(cp.client(), &namespace);
    let create = |name: &str, owners: Vec<&ConfigMap>| {
        let references: Vec<_> = owners
            .iter()
            .map(|o| {
                serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap",
                "name": o.metadata.name, "uid": o.metadata.uid})
            })
            .collect();
        serde_json::from_value::<ConfigMap>(serde_json::json!({
            "metadata": {"name": name, "ownerReferences": references},
        }))
        .unwrap()
    };
    let mut made = Vec::new();
    for name in ["owner", "other"] {
        let object = create(name, vec![]);
        made.push(
            config_maps
                .create(&PostParams::default(), &object)
                .await
                .unwrap(),
        );
    }
    let (owner, other) = (&made[0], &made[1]);
    for (name, owners) in [("solely", vec![owner]), ("shared", vec![owner, other])] {
        config_maps
            .create(&PostParams::default(), &create(name, owners))
            .await
            .unwrap();
    }
    config_maps
        .delete("owner", &Default::default())
        .await
        .unwrap();
    let uid = owner.metadata.uid.clone().unwrap();
    let deleted = cp.collect_garbage(&config_maps, &uid).await.unwrap();
    assert_eq!(deleted, ["solely"]);
    let shared = config_maps.get("shared").await.unwrap();
    let left: Vec<_> = shared
        .metadata
        .owner_references
        .unwrap_or_default()
        .into_iter()
        .map(|o| o.name)
        .collect();
    assert_eq!(left, ["other"]);

    // A namespace deleted: emptied, then gone.
    let doomed = cp.namespace("doomed").await.unwrap();
    let in_doomed: Api<ConfigMap> = Api::namespaced(cp.client(), &doomed);
    in_doomed
        .create(&PostParams::default(), &create("kept", vec![]))
        .await
        .unwrap();
    cp.delete_namespace(&doomed).await.unwrap();
    let namespaces: Api<Namespace> = Api::all(cp.client());
    assert!(namespaces.get_opt(&doomed).await.unwrap().is_none());
    assert!(in_doomed.get_opt("kept").await.unwrap().is_none());
}

#[tokio::test]
#[ignore = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)"]
async fn dropping_the_control_plane_stops_its_processes_and_removes_its_folder() {
    let cp = ControlPlane::start().await.expect(NEEDS);
    let pids = cp.pids().unwrap();
    let folder = cp.kubeconfig().unwrap().parent().unwrap().to_path_buf();
    assert!(pids.iter().all(|pid| alive(*pid)) && folder.is_dir());
    drop(cp);
    for pid in pids {
        assert!(!alive(pid), "process {pid} survived the drop");
    }
    assert!(!folder.exists(), "{} survived the drop", folder.display());
}

#[test]
#[ignore = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)"]
fn the_shared_control_plane_serves_tests_on_runtimes_of_their_own() {
    // As `#[tokio::test]` runs each test: a runtime of its own, gone when the test ends.
    let in_a_test = |prefix: &'static str| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let cp = ControlPlane::shared().await.expect(NEEDS);
            let namespace = cp.namespace(prefix).await.unwrap();
            Api::<Namespace>::all(cp.client())
                .get(&namespace)
                .await
                .unwrap();
            cp.pids().unwrap()
        })
    };
    let first = in_a_test("first");
    let second = std::thread::spawn(move || in_a_test("second"))
        .join()
        .unwrap();
    assert_eq!(first, second, "one control plane");
}

#[tokio::test]
#[ignore = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)"]
async fn a_restarted_api_server_serves_what_was_stored_before_on_the_same_port() {
    let cp = ControlPlane::start().await.expect(NEEDS);
    let namespace = cp.namespace("before").await.unwrap();
    let [etcd, before] = cp.pids().unwrap();
    let client = cp.client();
    cp.restart_apiserver(Duration::from_secs(1)).await.unwrap();
    let [same_etcd, after] = cp.pids().unwrap();
    assert_eq!(etcd, same_etcd);
    assert!(
        before != after && !alive(before),
        "a new API server process"
    );
    // The client made before the restart reaches the new process, which has the namespace.
    Api::<Namespace>::all(client).get(&namespace).await.unwrap();
    cp.check_running().unwrap();
}

#[test]
#[ignore = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)"]
fn kubegen_test_logs_copies_the_control_planes_output_to_standard_error() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "dropping_the_control_plane_stops_its_processes_and_removes_its_folder",
        ])
        .env("KUBEGEN_TEST_LOGS", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for component in ["etcd", "kube-apiserver"] {
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with(&format!("[{component}] "))),
            "no line of {component}'s in:\n{stderr}"
        );
    }
}

/// Set in the child process of the SIGKILL test.
const CHILD: &str = "KUBEGEN_TESTING_SIGKILL_CHILD";

#[tokio::test]
#[ignore = "needs KUBEBUILDER_ASSETS (etcd, kube-apiserver)"]
async fn a_test_process_killed_with_sigkill_leaves_no_control_plane_and_its_folder_is_reclaimed() {
    if std::env::var_os(CHILD).is_some() {
        // The child: start, say which processes run, and wait to be killed.
        let cp = ControlPlane::start().await.expect(NEEDS);
        let [etcd, apiserver] = cp.pids().unwrap();
        let folder = cp.kubeconfig().unwrap().parent().unwrap().to_path_buf();
        println!("pids {etcd} {apiserver} {}", folder.display());
        tokio::time::sleep(Duration::from_secs(600)).await;
        unreachable!("the parent kills this process");
    }
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "--nocapture",
            "a_test_process_killed_with_sigkill_leaves_no_control_plane_and_its_folder_is_reclaimed",
        ])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let line = stdout
        .lines()
        .map(Result::unwrap)
        .find(|line| line.starts_with("pids "))
        .expect("the child printed its control plane's pids");
    let words: Vec<&str> = line.split(' ').collect();
    let pids: Vec<u32> = words[1..3].iter().map(|p| p.parse().unwrap()).collect();
    let folder = std::path::PathBuf::from(words[3]);
    assert!(pids.iter().all(|pid| alive(*pid)));
    child.kill().unwrap(); // SIGKILL: no destructor runs.
    child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|pid| alive(*pid)) {
        assert!(
            Instant::now() < deadline,
            "{pids:?} outlived their test process"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Its folder outlived it, until the next control plane of the machine starts.
    assert!(folder.is_dir());
    let _next = ControlPlane::start().await.expect(NEEDS);
    assert!(
        !folder.exists(),
        "{} outlived the next start",
        folder.display()
    );
}

/// Whether a process with this id runs (a zombie, dead but not reaped, does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}
