//! The operator `kubegen init` and `create api` write, against a real API server
//! (`KUBECONFIG`, admin rights), as its own ServiceAccount:
//!
//! ```sh
//! KUBECONFIG=~/.kube/config cargo test -p gen-cli --test scaffold_cluster -- --ignored
//! ```
//!
//! It scaffolds two kinds (one cluster-wide), builds the project offline, applies its CRDs,
//! its generated role (the ClusterRole renamed and the leader election Role moved to a fresh
//! namespace) bound to a new ServiceAccount, and the samples; then runs the operator binary
//! with `--leader-elect` and a kubeconfig holding a token of that ServiceAccount (TokenRequest
//! API, `kubectl create token`), waits for both samples' `Available` condition, deletes the
//! namespaced sample (the finalizer must be removed), stops the operator with SIGTERM (it
//! must exit 0) and fails on any 403 in its log. Everything created is deleted at the end.
//! Needs `kubectl`; a bare API server is enough (no nodes, no controller manager).

mod support {
    pub mod scaffold;
}

use std::fs;
use std::io::Write;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::scaffold::*;

const WAIT: Duration = Duration::from_secs(90);

/// `kubectl` as the admin of `KUBECONFIG`. `apply` skips kubectl's own validation (it needs
/// the OpenAPI documents of every group); the API server still checks every object.
fn kubectl(args: &[&str], stdin: Option<&str>) -> Result<String, String> {
    let mut child = Command::new("kubectl")
        .args(args)
        .args(if args[0] == "apply" {
            &["--validate=false"][..]
        } else {
            &[]
        })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("kubectl: {e}"))?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.unwrap_or("").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = texts(&out);
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!("kubectl {args:?}: {stderr}"))
    }
}

fn apply(object: &Value) {
    kubectl(&["apply", "-f", "-"], Some(&object.to_string())).unwrap();
}

/// What the test created, deleted when it ends (passed or not).
struct Cleanup {
    namespace: String,
    cluster_objects: Vec<String>,
    operator: Option<Child>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Some(mut operator) = self.operator.take() {
            let _ = operator.kill();
            let _ = operator.wait();
        }
        // Cluster-wide samples first, while the CRD and their finalizer's operator... are gone:
        // drop the finalizers so that nothing waits for an operator that no longer runs.
        for object in [
            "guestbookpolicies.webapp.my.domain/guestbook-policy-sample".to_string(),
            format!(
                "guestbooks.webapp.my.domain/guestbook-sample -n {}",
                self.namespace
            ),
        ] {
            let mut args: Vec<&str> = vec!["patch"];
            args.extend(object.split(' '));
            args.extend(["--type=merge", "-p", r#"{"metadata":{"finalizers":null}}"#]);
            let _ = kubectl(&args, None);
        }
        let _ = kubectl(
            &["delete", "namespace", &self.namespace, "--wait=false"],
            None,
        );
        for object in &self.cluster_objects {
            let _ = kubectl(
                &["delete", object, "--ignore-not-found", "--wait=false"],
                None,
            );
        }
    }
}

#[test]
#[ignore = "needs a cluster: KUBECONFIG"]
fn the_scaffolded_operator_sets_the_samples_conditions_as_its_service_account() {
    let admin_kubeconfig = std::env::var("KUBECONFIG").expect("KUBECONFIG names a cluster");
    let dir = temp_dir("cluster");
    let project = two_kinds(&dir);
    cargo(&project, &["build"]);

    let namespace = format!("kubegen-scaffold-{}", std::process::id());
    let cluster_role = format!("{namespace}-manager-role");
    let mut cleanup = Cleanup {
        namespace: namespace.clone(),
        cluster_objects: vec![
            format!("clusterrolebinding/{cluster_role}"),
            format!("clusterrole/{cluster_role}"),
            "crd/guestbookpolicies.webapp.my.domain".to_string(),
            "crd/guestbooks.webapp.my.domain".to_string(),
        ],
        operator: None,
    };
    kubectl(&["create", "namespace", &namespace], None).unwrap();
    for plural in ["guestbooks", "guestbookpolicies"] {
        let crd = project.join(format!("config/crd/bases/webapp.my.domain_{plural}.yaml"));
        kubectl(&["apply", "-f", crd.to_str().unwrap()], None).unwrap();
        let name = format!("crd/{plural}.webapp.my.domain");
        kubectl(
            &[
                "wait",
                "--for=condition=established",
                &name,
                "--timeout=60s",
            ],
            None,
        )
        .unwrap();
    }

    // The generated role, as kustomize would place it; bound to a new ServiceAccount.
    let account = "controller-manager";
    apply(&json!({"apiVersion": "v1", "kind": "ServiceAccount",
        "metadata": {"name": account, "namespace": namespace}}));
    let subjects = json!([{"kind": "ServiceAccount", "name": account, "namespace": namespace}]);
    for mut role in documents(&project.join("config/rbac/role.yaml")) {
        let kind = role["kind"].as_str().unwrap().to_string();
        let binding = if kind == "ClusterRole" {
            role["metadata"]["name"] = json!(cluster_role);
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                "metadata": {"name": cluster_role},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                    "name": cluster_role},
                "subjects": subjects})
        } else {
            assert_eq!(role["metadata"]["namespace"], "guestbook-operator-system");
            role["metadata"]["namespace"] = json!(namespace);
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
                "metadata": {"name": "leader-election", "namespace": namespace},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role",
                    "name": role["metadata"]["name"]},
                "subjects": subjects})
        };
        apply(&role);
        apply(&binding);
    }
    for sample in [
        "webapp_v1_guestbook.yaml",
        "webapp_v1_guestbook_policy.yaml",
    ] {
        let path = project.join("config/samples").join(sample);
        kubectl(
            &["apply", "-n", &namespace, "-f", path.to_str().unwrap()],
            None,
        )
        .unwrap();
    }

    // The operator, with a kubeconfig of the ServiceAccount's token.
    let token = kubectl(
        &[
            "create",
            "token",
            account,
            "-n",
            &namespace,
            "--duration=1h",
        ],
        None,
    )
    .unwrap();
    let server = kubectl(
        &[
            "config",
            "view",
            "--minify",
            "-o",
            "jsonpath={.clusters[0].cluster.server}",
        ],
        None,
    )
    .unwrap();
    let sa_kubeconfig = dir.join("operator.kubeconfig");
    fs::write(
        &sa_kubeconfig,
        operator_kubeconfig(&server, token.trim(), &namespace),
    )
    .unwrap();
    let log = dir.join("operator.log");
    let operator = Command::new(binary("guestbook-operator"))
        .args([
            "--leader-elect",
            "--leader-election-namespace",
            &namespace,
            "--http-addr=127.0.0.1:0",
        ])
        .env("KUBECONFIG", &sa_kubeconfig)
        .env("RUST_LOG", "info")
        .stdout(fs::File::create(&log).unwrap())
        .stderr(fs::File::create(dir.join("operator.stderr")).unwrap())
        .spawn()
        .unwrap();
    let pid = operator.id().to_string();
    cleanup.operator = Some(operator);
    let operator_log = || {
        fs::read_to_string(&log).unwrap_or_default()
            + &fs::read_to_string(dir.join("operator.stderr")).unwrap_or_default()
    };

    let ns_args = ["-n", namespace.as_str()];
    for (object, namespaced) in [
        ("guestbooks.webapp.my.domain/guestbook-sample", true),
        (
            "guestbookpolicies.webapp.my.domain/guestbook-policy-sample",
            false,
        ),
    ] {
        let mut args = vec!["get", object, "-o", "json"];
        if namespaced {
            args.extend(ns_args);
        }
        let got = wait_for(&format!("{object} Available"), &operator_log, || {
            let object: Value = serde_json::from_str(&kubectl(&args, None).ok()?).ok()?;
            let conditions = object["status"]["conditions"].as_array()?.clone();
            conditions
                .iter()
                .any(|c| c["type"] == "Available" && c["status"] == "True")
                .then_some(object)
        });
        assert_eq!(
            got["metadata"]["finalizers"],
            json!(["webapp.my.domain/finalizer"])
        );
        assert_eq!(got["status"]["conditions"][0]["reason"], "Reconciled");
    }

    // Deleting waits for the operator's cleanup, which removes the finalizer.
    kubectl(
        &[
            "delete",
            "guestbooks.webapp.my.domain/guestbook-sample",
            "-n",
            &namespace,
            "--timeout=60s",
        ],
        None,
    )
    .unwrap_or_else(|e| panic!("{e}\n{}", operator_log()));

    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let status = cleanup.operator.take().unwrap().wait().unwrap();
    let log_text = operator_log();
    assert!(
        status.success(),
        "the operator stops cleanly on SIGTERM:\n{log_text}"
    );
    assert!(log_text.contains("became the leader"), "{log_text}");
    for refused in ["403", "forbidden", "Forbidden"] {
        assert!(
            !log_text.contains(refused),
            "a request was refused:\n{log_text}"
        );
    }
    eprintln!("ran against {admin_kubeconfig} ({server})");
    drop(cleanup);
    let _ = fs::remove_dir_all(&dir);
}

/// Polls `probe` until it gives a value, or panics after [`WAIT`] with the operator's log.
fn wait_for<T>(what: &str, log: &dyn Fn() -> String, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(
            start.elapsed() < WAIT,
            "timed out waiting for {what}:\n{}",
            log()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// A kubeconfig for `server` with a bearer token (and the admin kubeconfig's TLS choice:
/// the test server's certificate is not verified).
fn operator_kubeconfig(server: &str, token: &str, namespace: &str) -> String {
    let insecure = kubectl(
        &[
            "config",
            "view",
            "--minify",
            "--raw",
            "-o",
            "jsonpath={.clusters[0].cluster.insecure-skip-tls-verify}",
        ],
        None,
    )
    .unwrap_or_default();
    let ca = kubectl(
        &[
            "config",
            "view",
            "--minify",
            "--raw",
            "-o",
            "jsonpath={.clusters[0].cluster.certificate-authority-data}",
        ],
        None,
    )
    .unwrap_or_default();
    let tls = if insecure.trim() == "true" || ca.trim().is_empty() {
        "insecure-skip-tls-verify: true".to_string()
    } else {
        format!("certificate-authority-data: {}", ca.trim())
    };
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: {server}\n    \
         {tls}\nusers:\n- name: u\n  user:\n    token: {token}\ncontexts:\n- name: x\n  context:\n    \
         cluster: c\n    user: u\n    namespace: {namespace}\ncurrent-context: x\n"
    )
}
