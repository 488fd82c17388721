//! The webhook server over real HTTPS on loopback: admission (validating, defaulting, bad
//! input), conversion through a hub, `/healthz` and certificate rotation; under load (ignored:
//! 200 concurrent clients, and the certificate replaced while 50 clients connect). A
//! self-signed certificate is made for each test with rcgen.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use kubegen::webhook::{CertDir, Conversion, Denied, Server};
use kubegen::{CustomResource, webhook};
use rustls::pki_types::{CertificateDer, ServerName};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

mod v1alpha1 {
    use super::*;

    /// A widget, first version: a size.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "test.kubegen.io", version = "v1alpha1", kind = "Widget")]
    #[kube_marker(conversion(webhook(path = "/convert-widgets")))]
    #[serde(rename_all = "camelCase")]
    pub struct WidgetSpec {
        /// Size.
        pub size: i32,
    }
}

mod v1beta1 {
    use super::*;

    /// A widget, second version (the hub): replicas and a mode.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(
        group = "test.kubegen.io",
        version = "v1beta1",
        kind = "Widget",
        storage_version
    )]
    #[serde(rename_all = "camelCase")]
    pub struct WidgetSpec {
        /// Replicas.
        pub replicas: i32,
        /// Mode.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        pub mode: String,
    }
}

impl From<v1alpha1::Widget> for v1beta1::Widget {
    fn from(w: v1alpha1::Widget) -> Self {
        let spec = v1beta1::WidgetSpec {
            replicas: w.spec.size,
            mode: String::new(),
        };
        v1beta1::Widget {
            metadata: w.metadata,
            spec,
        }
    }
}

impl TryFrom<v1beta1::Widget> for v1alpha1::Widget {
    type Error = String;

    fn try_from(w: v1beta1::Widget) -> Result<Self, String> {
        if w.spec.replicas < 0 {
            return Err(format!("replicas {} has no size", w.spec.replicas));
        }
        Ok(v1alpha1::Widget {
            metadata: w.metadata,
            spec: v1alpha1::WidgetSpec {
                size: w.spec.replicas,
            },
        })
    }
}

#[webhook(
    mutating = false,
    failure_policy = "fail",
    side_effects = "None",
    groups = "test.kubegen.io",
    resources = "widgets",
    verbs = "create;update",
    versions = "v1beta1",
    name = "vwidget.test.kubegen.io",
    admission_review_versions = "v1"
)]
fn validate_widget(new: &v1beta1::Widget, old: Option<&v1beta1::Widget>) -> Result<(), Denied> {
    if new.spec.mode == "panic" {
        panic!("the handler broke");
    }
    if new.spec.mode == "slow" {
        std::thread::sleep(SLOW);
    }
    if new.spec.replicas > 10 {
        return Err(Denied::new("replicas must be at most 10"));
    }
    if let Some(old) = old
        && old.spec.mode != new.spec.mode
    {
        return Err(Denied::new("mode is immutable").with_code(422));
    }
    Ok(())
}

#[webhook(
    mutating = true,
    failure_policy = "fail",
    side_effects = "None",
    groups = "test.kubegen.io",
    resources = "widgets",
    verbs = "create",
    versions = "v1beta1",
    name = "mwidget.test.kubegen.io",
    admission_review_versions = "v1"
)]
#[webhook(
    mutating = true,
    failure_policy = "fail",
    side_effects = "None",
    groups = "test.kubegen.io",
    resources = "widgets",
    verbs = "update",
    path = "/default-widget-updates",
    versions = "v1beta1",
    name = "mwidget2.test.kubegen.io",
    admission_review_versions = "v1"
)]
fn default_widget(w: &mut v1beta1::Widget) {
    if w.spec.mode.is_empty() {
        w.spec.mode = "standard".into();
    }
    w.metadata
        .labels
        .get_or_insert_default()
        .insert("example.com/defaulted".into(), "true".into());
}

/// How long the handlers take in mode `slow`.
const SLOW: Duration = Duration::from_millis(600);

fn server() -> Server {
    Server::new()
        .validate(validate_widget::webhooks(), validate_widget)
        .mutate(default_widget::webhooks(), default_widget)
        .convert(Conversion::<v1beta1::Widget>::through().version::<v1alpha1::Widget>())
}

/// A fresh folder with a new self-signed certificate for `localhost`; its DER.
fn cert_dir(name: &str) -> (PathBuf, CertificateDer<'static>) {
    let dir = std::env::temp_dir().join(format!("kubegen-webhook-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let der = write_cert(&dir);
    (dir, der)
}

fn write_cert(dir: &Path) -> CertificateDer<'static> {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    install(dir, &cert);
    cert.cert.der().clone()
}

/// Writes `cert` and its key into `dir`, as cert-manager updates a mounted Secret.
fn install(dir: &Path, cert: &rcgen::CertifiedKey<rcgen::KeyPair>) {
    // The key first: a reload that sees the new key with the old certificate must wait.
    std::fs::write(dir.join("tls.key"), cert.signing_key.serialize_pem()).unwrap();
    std::fs::write(dir.join("tls.crt"), cert.cert.pem()).unwrap();
}

struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Running {
    async fn start(server: Server, dir: &Path) -> Running {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let certs = CertDir::new(dir).poll(Duration::from_millis(50));
        let task = tokio::spawn(server.serve(listener, certs, async {
            let _ = stopped.await;
        }));
        Running {
            addr,
            stop: Some(stop),
            task,
        }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.task.await.unwrap().unwrap();
    }
}

/// A TLS connection to `localhost` at `addr` trusting `roots`, offering `alpn`.
async fn connect(
    addr: SocketAddr,
    roots: &[CertificateDer<'static>],
    alpn: Vec<Vec<u8>>,
) -> tokio_rustls::client::TlsStream<TcpStream> {
    let mut store = rustls::RootCertStore::empty();
    for root in roots {
        store.add(root.clone()).unwrap();
    }
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(store)
    .with_no_client_auth();
    config.alpn_protocols = alpn;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = TcpStream::connect(addr).await.unwrap();
    let name = ServerName::try_from("localhost").unwrap();
    connector.connect(name, tcp).await.unwrap()
}

/// One HTTPS request trusting `roots`: the status code, the body and the server's certificate.
async fn request(
    addr: SocketAddr,
    roots: &[CertificateDer<'static>],
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String, CertificateDer<'static>) {
    let mut tls = connect(addr, roots, Vec::new()).await;
    let peer = tls.get_ref().1.peer_certificates().unwrap()[0].clone();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tls.write_all(head.as_bytes()).await.unwrap();
    tls.write_all(body.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let _ = tls.read_to_end(&mut response).await;
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string(), peer)
}

/// `POST path` with `body` over HTTP/2 (ALPN `h2`, what the API server's Go client picks when
/// offered): the negotiated protocol, the status code and the JSON body.
async fn post_h2(
    addr: SocketAddr,
    root: &CertificateDer<'static>,
    path: &str,
    body: &Value,
) -> (Option<Vec<u8>>, u16, Value) {
    use http_body_util::{BodyExt, Full};
    let (protocol, mut sender) = h2_sender(addr, root).await;
    let request = hyper::Request::post(format!("https://localhost{path}"))
        .header("content-type", "application/json")
        .body(Full::new(bytes_of(body)))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (protocol, status, serde_json::from_slice(&bytes).unwrap())
}

/// An HTTP/2 connection (ALPN `h2` offered) trusting `root`: the negotiated protocol, and the
/// connection's request sender.
async fn h2_sender(
    addr: SocketAddr,
    root: &CertificateDer<'static>,
) -> (
    Option<Vec<u8>>,
    hyper::client::conn::http2::SendRequest<http_body_util::Full<hyper::body::Bytes>>,
) {
    let tls = connect(addr, std::slice::from_ref(root), vec![b"h2".to_vec()]).await;
    let protocol = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
    let (sender, connection) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(tls),
    )
    .await
    .unwrap();
    tokio::spawn(connection);
    (protocol, sender)
}

/// A JSON value's bytes.
fn bytes_of(value: &Value) -> hyper::body::Bytes {
    hyper::body::Bytes::from(value.to_string())
}

async fn post(
    addr: SocketAddr,
    root: &CertificateDer<'static>,
    path: &str,
    body: &Value,
) -> (u16, Value) {
    let (status, body, _) = request(
        addr,
        std::slice::from_ref(root),
        "POST",
        path,
        &body.to_string(),
    )
    .await;
    let json = serde_json::from_str(&body).unwrap_or(Value::String(body));
    (status, json)
}

fn widget(version: &str, spec: Value) -> Value {
    json!({
        "apiVersion": format!("test.kubegen.io/{version}"),
        "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default", "uid": "u-1"},
        "spec": spec
    })
}

fn admission(operation: &str, kind: &str, object: Value, old: Option<Value>) -> Value {
    json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": "req-1",
            "kind": {"group": "test.kubegen.io", "version": "v1beta1", "kind": kind},
            "resource": {"group": "test.kubegen.io", "version": "v1beta1", "resource": "widgets"},
            "operation": operation,
            "userInfo": {"username": "alice"},
            "object": object,
            "oldObject": old,
        }
    })
}

const VALIDATE: &str = "/validate-test-kubegen-io-v1beta1-widget";
const MUTATE: &str = "/mutate-test-kubegen-io-v1beta1-widget";

#[test]
fn routes_are_the_manifests_paths() {
    let paths: Vec<_> = server().paths().map(str::to_string).collect();
    let mut expected: Vec<String> = validate_widget::webhooks()
        .iter()
        .chain(&default_widget::webhooks())
        .map(|w| kubegen_core::webhook::route(w).unwrap())
        .collect();
    expected.extend(["/convert-widgets".into(), "/healthz".into()]);
    expected.sort();
    assert_eq!(paths, expected);
    assert!(paths.iter().any(|p| p == VALIDATE));
    assert!(paths.iter().any(|p| p == MUTATE));
    assert!(paths.iter().any(|p| p == "/default-widget-updates"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_over_http2() {
    let (dir, root) = cert_dir("http2");
    let running = Running::start(server(), &dir).await;
    let review = admission(
        "CREATE",
        "Widget",
        widget("v1beta1", json!({"replicas": 11})),
        None,
    );
    let (protocol, status, body) = post_h2(running.addr, &root, VALIDATE, &review).await;
    assert_eq!(protocol.as_deref(), Some(&b"h2"[..]));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["response"]["uid"], "req-1");
    assert_eq!(body["response"]["allowed"], false);
    assert_eq!(
        body["response"]["status"]["message"],
        "replicas must be at most 10"
    );
    running.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admission_reviews() {
    let (dir, root) = cert_dir("admission");
    let running = Running::start(server(), &dir).await;
    let addr = running.addr;

    // Valid: allowed, the uid echoed.
    let review = admission(
        "CREATE",
        "Widget",
        widget("v1beta1", json!({"replicas": 3})),
        None,
    );
    let (status, body) = post(addr, &root, VALIDATE, &review).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["apiVersion"], "admission.k8s.io/v1");
    assert_eq!(body["response"]["uid"], "req-1");
    assert_eq!(body["response"]["allowed"], true);

    // Invalid: denied with the handler's message and code.
    let review = admission(
        "CREATE",
        "Widget",
        widget("v1beta1", json!({"replicas": 11})),
        None,
    );
    let (_, body) = post(addr, &root, VALIDATE, &review).await;
    assert_eq!(body["response"]["allowed"], false);
    assert_eq!(
        body["response"]["status"]["message"],
        "replicas must be at most 10"
    );
    assert_eq!(body["response"]["status"]["code"], 403);

    // Update: the old object reaches the handler.
    let review = admission(
        "UPDATE",
        "Widget",
        widget("v1beta1", json!({"replicas": 1, "mode": "fast"})),
        Some(widget("v1beta1", json!({"replicas": 1, "mode": "slow"}))),
    );
    let (_, body) = post(addr, &root, VALIDATE, &review).await;
    assert_eq!(body["response"]["allowed"], false);
    assert_eq!(body["response"]["status"]["message"], "mode is immutable");
    assert_eq!(body["response"]["status"]["code"], 422);

    // Defaulting: a base64 JSONPatch that, applied, gives the defaulted object.
    let object = widget("v1beta1", json!({"replicas": 2}));
    let review = admission("CREATE", "Widget", object.clone(), None);
    let (status, body) = post(addr, &root, MUTATE, &review).await;
    assert_eq!(status, 200, "{body}");
    let response = &body["response"];
    assert_eq!(response["allowed"], true);
    assert_eq!(response["patchType"], "JSONPatch");
    let patch = response["patch"].as_str().expect("a base64 string");
    let patch = base64::engine::general_purpose::STANDARD
        .decode(patch)
        .unwrap();
    let patch: json_patch::Patch = serde_json::from_slice(&patch).unwrap();
    let mut patched = object.clone();
    json_patch::patch(&mut patched, &patch).unwrap();
    assert_eq!(patched["spec"], json!({"replicas": 2, "mode": "standard"}));
    assert_eq!(
        patched["metadata"]["labels"],
        json!({"example.com/defaulted": "true"})
    );
    assert_eq!(patched["metadata"]["uid"], "u-1");
    // The second #[webhook] on the same handler is served on its own path.
    let (_, body) = post(addr, &root, "/default-widget-updates", &review).await;
    assert_eq!(body["response"]["patchType"], "JSONPatch");
    // An object already defaulted needs no patch.
    let review = admission("CREATE", "Widget", patched, None);
    let (_, body) = post(addr, &root, MUTATE, &review).await;
    assert_eq!(body["response"]["allowed"], true);
    assert!(body["response"].get("patch").is_none(), "{body}");

    // Malformed JSON and a review without a request: 400.
    let (status, _, _) = request(
        addr,
        std::slice::from_ref(&root),
        "POST",
        VALIDATE,
        "{not json",
    )
    .await;
    assert_eq!(status, 400);
    let no_request = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"});
    let (status, body) = post(addr, &root, MUTATE, &no_request).await;
    assert_eq!(status, 400, "{body}");

    // Another kind: denied, naming both.
    let review = admission(
        "CREATE",
        "Gadget",
        widget("v1beta1", json!({"replicas": 1})),
        None,
    );
    let (_, body) = post(addr, &root, VALIDATE, &review).await;
    assert_eq!(body["response"]["allowed"], false);
    let message = body["response"]["status"]["message"].as_str().unwrap();
    assert!(
        message.contains("Widget") && message.contains("Gadget"),
        "{message}"
    );

    // An object that is not a valid Widget: denied.
    let review = admission(
        "CREATE",
        "Widget",
        widget("v1beta1", json!({"replicas": "x"})),
        None,
    );
    let (_, body) = post(addr, &root, MUTATE, &review).await;
    assert_eq!(body["response"]["allowed"], false);
    assert!(
        body["response"]["status"]["message"]
            .as_str()
            .unwrap()
            .contains("not a valid Widget")
    );

    // A handler panic: a denial with code 500, and the server goes on.
    let review = admission(
        "CREATE",
        "Widget",
        widget("v1beta1", json!({"replicas": 1, "mode": "panic"})),
        None,
    );
    let (status, body) = post(addr, &root, VALIDATE, &review).await;
    assert_eq!(status, 200);
    assert_eq!(body["response"]["allowed"], false);
    assert_eq!(body["response"]["status"]["code"], 500);
    assert!(
        body["response"]["status"]["message"]
            .as_str()
            .unwrap()
            .contains("the handler broke")
    );

    // DELETE carries no object: allowed.
    let review = admission(
        "DELETE",
        "Widget",
        Value::Null,
        Some(widget("v1beta1", json!({"replicas": 1}))),
    );
    let (_, body) = post(addr, &root, VALIDATE, &review).await;
    assert_eq!(body["response"]["allowed"], true, "{body}");

    // A large review (an update of two 2 MiB objects) is read.
    let mut big = widget("v1beta1", json!({"replicas": 1}));
    big["metadata"]["annotations"] = json!({"big": "x".repeat(2 << 20)});
    let review = admission("UPDATE", "Widget", big.clone(), Some(big));
    let (status, body) = post(addr, &root, VALIDATE, &review).await;
    assert_eq!((status, &body["response"]["allowed"]), (200, &json!(true)));

    // Health, and an unknown path.
    let (status, body, _) = request(addr, std::slice::from_ref(&root), "GET", "/healthz", "").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    let (status, _, _) = request(addr, std::slice::from_ref(&root), "POST", "/nowhere", "{}").await;
    assert_eq!(status, 404);

    running.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

fn conversion(desired: &str, objects: Vec<Value>) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "ConversionReview",
        "request": {"uid": "conv-1", "desiredAPIVersion": desired, "objects": objects}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conversion_reviews() {
    let (dir, root) = cert_dir("conversion");
    let running = Running::start(server(), &dir).await;
    let addr = running.addr;
    let path = "/convert-widgets";

    // v1alpha1 → v1beta1, metadata kept.
    let mut alpha = widget("v1alpha1", json!({"size": 4}));
    alpha["metadata"]["labels"] = json!({"a": "b"});
    let review = conversion("test.kubegen.io/v1beta1", vec![alpha.clone()]);
    let (status, body) = post(addr, &root, path, &review).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["kind"], "ConversionReview");
    let response = &body["response"];
    assert_eq!(response["uid"], "conv-1");
    assert_eq!(response["result"]["status"], "Success");
    let beta = &response["convertedObjects"][0];
    assert_eq!(beta["apiVersion"], "test.kubegen.io/v1beta1");
    assert_eq!(beta["kind"], "Widget");
    assert_eq!(beta["spec"], json!({"replicas": 4}));
    assert_eq!(beta["metadata"], alpha["metadata"]);

    // And back: the original object.
    let review = conversion("test.kubegen.io/v1alpha1", vec![beta.clone()]);
    let (_, body) = post(addr, &root, path, &review).await;
    assert_eq!(body["response"]["convertedObjects"][0], alpha);

    // Same version: unchanged.
    let review = conversion("test.kubegen.io/v1alpha1", vec![alpha.clone()]);
    let (_, body) = post(addr, &root, path, &review).await;
    assert_eq!(body["response"]["convertedObjects"][0], alpha);

    // TryFrom fails: a failed review with its message, nothing converted.
    let bad = widget("v1beta1", json!({"replicas": -1}));
    let review = conversion("test.kubegen.io/v1alpha1", vec![alpha.clone(), bad]);
    let (status, body) = post(addr, &root, path, &review).await;
    assert_eq!(status, 200);
    let response = &body["response"];
    assert_eq!(response["uid"], "conv-1");
    assert_eq!(response["result"]["status"], "Failure");
    assert_eq!(response["result"]["message"], "replicas -1 has no size");
    assert_eq!(response["convertedObjects"], json!([]));

    // An unknown version, and an object of another kind: failed reviews.
    let review = conversion("test.kubegen.io/v9", vec![alpha.clone()]);
    let (_, body) = post(addr, &root, path, &review).await;
    assert_eq!(body["response"]["result"]["status"], "Failure");
    assert!(
        body["response"]["result"]["message"]
            .as_str()
            .unwrap()
            .contains("no version test.kubegen.io/v9")
    );
    let mut gadget = alpha.clone();
    gadget["kind"] = json!("Gadget");
    let review = conversion("test.kubegen.io/v1beta1", vec![gadget]);
    let (_, body) = post(addr, &root, path, &review).await;
    assert_eq!(body["response"]["result"]["status"], "Failure");

    // Not a ConversionReview: 400.
    let (status, _, _) = request(addr, std::slice::from_ref(&root), "POST", path, "[]").await;
    assert_eq!(status, 400);

    running.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn certificate_rotation() {
    let (dir, first) = cert_dir("rotation");
    let running = Running::start(Server::new(), &dir).await;
    let addr = running.addr;
    let (_, _, served) = request(addr, std::slice::from_ref(&first), "GET", "/healthz", "").await;
    assert_eq!(served, first);

    let second = write_cert(&dir);
    let both = [first.clone(), second.clone()];
    let mut served = first.clone();
    for _ in 0..100 {
        (_, _, served) = request(addr, &both, "GET", "/healthz", "").await;
        if served == second {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(served, second, "new connections get the new certificate");

    // A broken pair is not loaded: the last good certificate stays.
    std::fs::write(dir.join("tls.crt"), "not a certificate").unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _, served) = request(addr, &both, "GET", "/healthz", "").await;
    assert_eq!((status, served), (200, second));

    running.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_missing_certificate_fails_at_start() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let dir = std::env::temp_dir().join("kubegen-webhook-no-such-dir");
    let error = Server::new()
        .serve(listener, CertDir::new(&dir), std::future::pending())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("tls.crt"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_waits_for_the_requests_in_flight() {
    let (dir, root) = cert_dir("drain");
    let running = Running::start(server(), &dir).await;
    let addr = running.addr;
    let review = admission(
        "CREATE",
        "Widget",
        widget("v1beta1", json!({"replicas": 1, "mode": "slow"})),
        None,
    );
    let started = tokio::time::Instant::now();
    let in_flight = tokio::spawn(async move { post(addr, &root, VALIDATE, &review).await });
    tokio::time::sleep(SLOW / 4).await;
    running.stop().await;
    // `serve` returned only once the slow handler had answered.
    assert!(started.elapsed() >= SLOW, "{:?}", started.elapsed());
    let (status, body) = in_flight.await.unwrap();
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["response"]["allowed"], true);
    let _ = std::fs::remove_dir_all(dir);
}

/// How long the load tests run: `KUBEGEN_LOAD_SECONDS`, 30 by default.
fn load_duration() -> Duration {
    let seconds = std::env::var("KUBEGEN_LOAD_SECONDS").ok();
    Duration::from_secs(seconds.and_then(|s| s.parse().ok()).unwrap_or(30))
}

/// The latency at quantile `q` of sorted `latencies`.
fn quantile(latencies: &[Duration], q: f64) -> Duration {
    let i = ((latencies.len() as f64 - 1.0) * q).round() as usize;
    latencies.get(i).copied().unwrap_or_default()
}

/// One client as the API server is: an HTTP/2 connection sending, until `until`, a
/// validating admission review and a conversion review in turn. The latency of each answered
/// review, and what failed.
async fn review_client(
    addr: SocketAddr,
    root: CertificateDer<'static>,
    until: tokio::time::Instant,
) -> (Vec<Duration>, Vec<String>) {
    use http_body_util::{BodyExt, Full};
    let (_, mut sender) = h2_sender(addr, &root).await;
    let admit = admission(
        "CREATE",
        "Widget",
        widget("v1beta1", json!({"replicas": 1})),
        None,
    );
    let convert = conversion(
        "test.kubegen.io/v1beta1",
        vec![widget("v1alpha1", json!({"size": 4}))],
    );
    let (mut latencies, mut failures) = (Vec::new(), Vec::new());
    for n in 0.. {
        if tokio::time::Instant::now() >= until {
            break;
        }
        let (path, body) = if n % 2 == 0 {
            (VALIDATE, &admit)
        } else {
            ("/convert-widgets", &convert)
        };
        let request = hyper::Request::post(format!("https://localhost{path}"))
            .header("content-type", "application/json")
            .body(Full::new(bytes_of(body)))
            .unwrap();
        let start = tokio::time::Instant::now();
        let answer = async {
            let response = sender
                .send_request(request)
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status().as_u16();
            let bytes = response
                .into_body()
                .collect()
                .await
                .map_err(|e| e.to_string())?;
            let body: Value =
                serde_json::from_slice(&bytes.to_bytes()).map_err(|e| e.to_string())?;
            let ok = status == 200
                && (body["response"]["allowed"] == true
                    || body["response"]["result"]["status"] == "Success");
            if ok {
                Ok(())
            } else {
                Err(format!("{path}: {status} {body}"))
            }
        };
        match answer.await {
            Ok(()) => latencies.push(start.elapsed()),
            Err(e) => failures.push(e),
        }
    }
    (latencies, failures)
}

/// 200 API-server-like clients send admission and conversion reviews for 30 s: none fails;
/// the latency percentiles are printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a 30 s load test: cargo test --features webhook --test webhook_server -- --ignored"]
async fn two_hundred_concurrent_clients() {
    let (dir, root) = cert_dir("load");
    let running = Running::start(server(), &dir).await;
    let until = tokio::time::Instant::now() + load_duration();
    let clients: Vec<_> = (0..200)
        .map(|_| tokio::spawn(review_client(running.addr, root.clone(), until)))
        .collect();
    let (mut latencies, mut failures) = (Vec::new(), Vec::new());
    for client in clients {
        let (l, f) = client.await.unwrap();
        latencies.extend(l);
        failures.extend(f);
    }
    latencies.sort();
    eprintln!(
        "{} reviews in {:?} from 200 clients, {} failed; latency p50 {:?}, p90 {:?}, p99 {:?}, \
         max {:?}",
        latencies.len(),
        load_duration(),
        failures.len(),
        quantile(&latencies, 0.5),
        quantile(&latencies, 0.9),
        quantile(&latencies, 0.99),
        quantile(&latencies, 1.0),
    );
    assert!(
        failures.is_empty(),
        "{:?}",
        &failures[..failures.len().min(5)]
    );
    assert!(latencies.len() >= 200, "{} reviews", latencies.len());
    running.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The serving certificate is replaced while 50 clients open a new connection for every
/// request: none fails, and once the new certificate is loaded every new connection gets it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a 30 s load test: cargo test --features webhook --test webhook_server -- --ignored"]
async fn certificate_replaced_while_serving() {
    let (dir, first) = cert_dir("rotation-load");
    let running = Running::start(server(), &dir).await;
    let second = write_cert_later(&dir, load_duration() / 3);
    let both = [first.clone(), second.clone()];
    let until = tokio::time::Instant::now() + load_duration();
    let clients: Vec<_> = (0..50)
        .map(|_| {
            let (addr, both) = (running.addr, both.clone());
            tokio::spawn(async move {
                let mut served = Vec::new();
                while tokio::time::Instant::now() < until {
                    let (status, _, cert) = request(addr, &both, "GET", "/healthz", "").await;
                    served.push((status, cert));
                }
                served
            })
        })
        .collect();
    let mut all = Vec::new();
    for client in clients {
        all.push(client.await.expect("no connection failed"));
    }
    let count =
        |cert: &CertificateDer<'static>| all.iter().flatten().filter(|(_, c)| c == cert).count();
    let (old, new) = (count(&first), count(&second));
    eprintln!(
        "{} connections: {old} got the first certificate, {new} the second",
        old + new
    );
    assert!(all.iter().flatten().all(|(status, _)| *status == 200));
    assert!(old > 0 && new > 0, "{old} / {new}");
    // After the switch, no connection gets the old certificate again.
    for served in &all {
        let switched = served.iter().position(|(_, c)| *c == second);
        let after = switched.map_or(&[][..], |i| &served[i..]);
        assert!(after.iter().all(|(_, c)| *c == second));
        assert_eq!(served.last().map(|(_, c)| c), Some(&second));
    }
    running.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Writes a new certificate into `dir` after `delay` (in the background); its DER, known now.
fn write_cert_later(dir: &Path, delay: Duration) -> CertificateDer<'static> {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let der = cert.cert.der().clone();
    let dir = dir.to_path_buf();
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        install(&dir, &cert);
    });
    der
}
