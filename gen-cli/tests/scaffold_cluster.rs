//! The operator `kubegen init` and `create api` write, against a real API server
//! (`kubegen::testing`'s), as its own ServiceAccount:
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p gen-cli --test scaffold_cluster -- --ignored
//! ```
//!
//! It scaffolds two kinds (one cluster-wide) and the defaulting and validating webhooks of the
//! first, fills the two handlers in as a user would, builds the project offline, and applies
//! its CRDs, its generated role (the ClusterRole renamed and the leader election Role moved to
//! a fresh namespace) bound to a new ServiceAccount, and its webhook configurations (renamed,
//! calling the operator on loopback with a test CA instead of the Service cert-manager would
//! serve). It runs the operator binary with `--leader-elect`, the serving certificate and a
//! kubeconfig holding a token of that ServiceAccount (TokenRequest API, `kubectl create
//! token`); applies the samples (the defaulting webhook must have filled `spec.foo`, the
//! validating one must deny a size above 5); waits for both samples' `Available` condition;
//! deletes the namespaced sample (the finalizer must be removed); stops the operator with
//! SIGTERM (it must exit 0) and fails on any 403 in its log. Everything created is deleted at
//! the end. Needs `kubectl`; a bare API server is enough (no nodes, no controller manager).

mod support {
    pub mod control_plane;
    pub mod scaffold;
}

use std::fs;

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use support::control_plane::{control_plane, kubectl};
use support::scaffold::*;

const WAIT: Duration = Duration::from_secs(90);

/// `kubectl apply`, without kubectl's own validation (it needs the OpenAPI documents of every
/// group); the API server still checks every object.
fn apply(object: &Value) {
    kubectl(
        &["apply", "--validate=false", "-f", "-"],
        Some(&object.to_string()),
    )
    .unwrap();
}

/// What the test created, deleted when it ends (passed or not).
struct Cleanup {
    namespace: String,
    webhook_configurations: Vec<String>,
    cluster_objects: Vec<String>,
    operator: Option<Child>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Some(mut operator) = self.operator.take() {
            let _ = operator.kill();
            let _ = operator.wait();
        }
        // Without the operator its webhooks fail every request: they go first.
        for object in &self.webhook_configurations {
            let _ = kubectl(&["delete", object, "--ignore-not-found"], None);
        }
        // The operator is gone: drop the samples' finalizers, so that deleting them (with
        // their CRDs and the namespace) does not wait for it.
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
        // Without kube-controller-manager a deleted namespace keeps its objects (and stays
        // Terminating): they are deleted first.
        let _ = kubectl(
            &[
                "delete",
                "-n",
                &self.namespace,
                "serviceaccounts,roles,rolebindings,leases.coordination.k8s.io",
                "--all",
            ],
            None,
        );
        let _ = kubectl(
            &["delete", "namespace", &self.namespace, "--wait=false"],
            None,
        );
        // ... and stays Terminating until its `kubernetes` finalizer goes, which the namespace
        // controller would remove now that it is empty.
        let finalize = format!("/api/v1/namespaces/{}/finalize", self.namespace);
        let empty = json!({"apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": self.namespace}, "spec": {"finalizers": []}});
        let _ = kubectl(
            &["replace", "--raw", &finalize, "-f", "-"],
            Some(&empty.to_string()),
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
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
fn the_scaffolded_operator_serves_its_webhooks_and_sets_conditions_as_its_service_account() {
    let admin_kubeconfig = control_plane()
        .kubeconfig()
        .map_or("the usual kubeconfig".into(), |p| p.display().to_string());
    let tmp = temp_dir("cluster");
    let dir = tmp.path();
    let project = two_kinds(dir);
    ok(
        &project,
        &words(
            "create webhook --group webapp --version v1 --kind Guestbook --defaulting --programmatic-validation",
        ),
    );
    fill_in_the_handlers(&project.join("src/webhook/webapp_v1_guestbook.rs"));
    cargo(&project, &["build"]);
    // The reconcile tests `create api` wrote (one per kind) pass unchanged, on a control plane
    // of their own.
    let out = cargo_output(&project, &["test", "--", "--ignored"]);
    let (stdout, _) = texts(&out);
    assert!(out.status.success(), "the reconcile tests failed");
    let passed = stdout
        .lines()
        .filter(|l| l.contains("_is_reconciled_and_deleted_as_the_service_account ... ok"))
        .count();
    assert_eq!(passed, 2, "{stdout}");

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
        webhook_configurations: Vec::new(),
        operator: None,
    };
    kubectl(&["create", "namespace", &namespace], None).unwrap();
    for plural in ["guestbooks", "guestbookpolicies"] {
        let crd = project.join(format!("config/crd/bases/webapp.my.domain_{plural}.yaml"));
        kubectl(
            &["apply", "--validate=false", "-f", crd.to_str().unwrap()],
            None,
        )
        .unwrap();
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
    // The webhook configurations, calling the operator on loopback.
    let certs = dir.join("certs");
    let ca = serving_certificate(&certs);
    let webhook_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    for mut configuration in documents(&project.join("config/webhook/manifests.yaml")) {
        let name = format!(
            "{namespace}-{}",
            configuration["metadata"]["name"].as_str().unwrap()
        );
        configuration["metadata"]["name"] = json!(name);
        for webhook in configuration["webhooks"].as_array_mut().unwrap() {
            let path = webhook["clientConfig"]["service"]["path"].as_str().unwrap();
            webhook["clientConfig"] = json!({
                "url": format!("https://127.0.0.1:{webhook_port}{path}"),
                "caBundle": base64::engine::general_purpose::STANDARD.encode(&ca),
            });
        }
        let kind = configuration["kind"].as_str().unwrap().to_lowercase();
        cleanup
            .webhook_configurations
            .push(format!("{kind}/{name}"));
        apply(&configuration);
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
    let metrics_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let operator = Command::new(binary("guestbook-operator"))
        .args([
            "--leader-elect",
            "--leader-election-namespace",
            &namespace,
            "--http-addr=127.0.0.1:0",
            // Secured (the default): HTTPS with a self-signed certificate, reviewed callers.
            &format!("--metrics-bind-address=127.0.0.1:{metrics_port}"),
            &format!("--webhook-port={webhook_port}"),
            &format!("--webhook-cert-dir={}", certs.display()),
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

    // The samples go through the webhooks, which answer once the operator is up.
    let samples = project.join("config/samples");
    for sample in [
        "webapp_v1_guestbook.yaml",
        "webapp_v1_guestbook_policy.yaml",
    ] {
        let path = samples.join(sample);
        let args = [
            "apply",
            "--validate=false",
            "-n",
            &namespace,
            "-f",
            path.to_str().unwrap(),
        ];
        wait_for(&format!("{sample} admitted"), &operator_log, || {
            kubectl(&args, None).ok()
        });
    }
    let defaulted = kubectl(
        &[
            "get",
            "guestbooks.webapp.my.domain/guestbook-sample",
            "-n",
            &namespace,
            "-o",
            "json",
        ],
        None,
    )
    .unwrap();
    let defaulted: Value = serde_json::from_str(&defaulted).unwrap();
    assert_eq!(
        defaulted["spec"]["foo"], "defaulted",
        "the defaulting webhook ran"
    );
    let too_big = fs::read_to_string(samples.join("webapp_v1_guestbook.yaml"))
        .unwrap()
        .replace("guestbook-sample", "guestbook-too-big")
        .replace("size: 1", "size: 7");
    let denied = kubectl(
        &["apply", "--validate=false", "-n", &namespace, "-f", "-"],
        Some(&too_big),
    )
    .unwrap_err();
    assert!(denied.contains("size must be at most 5"), "{denied}");

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

    // The secured metrics: the operator reviews each caller with its generated role. Without a
    // token: 401; the ServiceAccount's own token: 403 until it is bound to the scaffold's
    // metrics-reader ClusterRole; then 200 (once the denial, kept 30 s, expires), with the
    // controller's reconciles counted.
    assert_eq!(scrape(metrics_port, None).0, "401", "{}", operator_log());
    assert_eq!(scrape(metrics_port, Some(token.trim())).0, "403");
    let reader = format!("{namespace}-metrics-reader");
    cleanup.cluster_objects.extend([
        format!("clusterrolebinding/{reader}"),
        format!("clusterrole/{reader}"),
    ]);
    let mut role = documents(&project.join("config/rbac/metrics_reader_role.yaml")).remove(0);
    role["metadata"]["name"] = json!(reader);
    apply(&role);
    apply(
        &json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": reader},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": reader},
        "subjects": subjects}),
    );
    let metrics = wait_for("metrics for the metrics reader", &operator_log, || {
        let (status, body) = scrape(metrics_port, Some(token.trim()));
        (status == "200").then_some(body)
    });
    let success = r#"controller_runtime_reconcile_total{controller="guestbook",result="success"} "#;
    let count: f64 = metrics
        .lines()
        .find_map(|line| line.strip_prefix(success))
        .unwrap_or_else(|| panic!("no {success} in {metrics}"))
        .parse()
        .unwrap();
    assert!(count >= 1.0, "{metrics}");

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
    // A refusal reads `... is forbidden: User ...`, reason `Forbidden`, `code: 403` (a bare
    // "403" also matches timestamps).
    for refused in ["forbidden", "Forbidden", "code: 403"] {
        assert!(
            !log_text.contains(refused),
            "a request was refused:\n{log_text}"
        );
    }
    eprintln!("ran against {admin_kubeconfig} ({server})");
    drop(cleanup);
}

/// `GET /metrics` of the operator on `port` with curl (HTTPS, its certificate is self-signed),
/// with `token` as bearer if given: the status code and the body.
fn scrape(port: u16, token: Option<&str>) -> (String, String) {
    let url = format!("https://127.0.0.1:{port}/metrics");
    let mut args = vec!["-sk", "-w", "\n%{http_code}", url.as_str()];
    let header = token.map(|t| format!("Authorization: Bearer {t}"));
    if let Some(header) = &header {
        args.extend(["-H", header]);
    }
    let out = Command::new("curl").args(&args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let (body, status) = text.rsplit_once('\n').unwrap_or(("", &text));
    (status.to_string(), body.to_string())
}

/// What a user writes in the handlers `create webhook` stubs out: a default for `spec.foo`
/// and a bound on `spec.size` the schema does not have.
fn fill_in_the_handlers(file: &Path) {
    let stubs = fs::read_to_string(file).unwrap();
    let filled = stubs
        .replace(
            "    let _ = object;\n",
            "    object.spec.foo.get_or_insert_with(|| \"defaulted\".to_string());\n",
        )
        .replace(
            "    let _ = (object, old);\n",
            "    let _ = old;\n    if object.spec.size > 5 {\n        \
             return Err(Denied::new(\"size must be at most 5\"));\n    }\n",
        );
    assert_ne!(filled, stubs, "the stubs are where the test expects them");
    fs::write(file, filled).unwrap();
}

/// A CA and a certificate for 127.0.0.1 it signs, written as `tls.crt` and `tls.key` in
/// `dir`; the CA's PEM.
fn serving_certificate(dir: &Path) -> String {
    fs::create_dir_all(dir).unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = rcgen::CertifiedIssuer::self_signed(ca, rcgen::KeyPair::generate().unwrap()).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    fs::write(dir.join("tls.key"), key.serialize_pem()).unwrap();
    fs::write(dir.join("tls.crt"), cert.pem()).unwrap();
    ca.pem()
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
