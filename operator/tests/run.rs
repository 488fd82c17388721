//! `operator::run` as the binary runs it: the webhook server starts beside the controller,
//! answers over TLS, and stops with the rest; without its certificate the operator stops with
//! an error; its `/metrics` has every series kubebuilder's Grafana dashboards query. The API
//! server is a fake with no objects: these tests are about the servers.

mod dashboards;
mod https_client;

use std::convert::Infallible;
use std::time::Duration;

use bytes::Bytes;
use clap::Parser;
use http_body::Frame;
use http_body_util::{BodyExt, Full, StreamBody};
use kube::Client;
use kube::client::Body;
use kubegen::runtime::Options;
use memcached_operator::cli::Args;
use memcached_operator::operator::{self, Error};
use rustls::pki_types::CertificateDer;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;

const WAIT: Duration = Duration::from_secs(10);

/// A client of an API server that has no objects: every list is empty, every watch waits.
fn empty_api() -> Client {
    let service = tower::service_fn(|request: http::Request<Body>| async move {
        let watch = request
            .uri()
            .query()
            .is_some_and(|q| q.contains("watch=true"));
        let body = if watch {
            let never = futures::stream::pending::<Result<Frame<Bytes>, Infallible>>();
            StreamBody::new(never).boxed_unsync()
        } else {
            let list = json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": "1"}, "items": []});
            Full::new(Bytes::from(serde_json::to_vec(&list).unwrap())).boxed_unsync()
        };
        Ok::<_, Infallible>(http::Response::new(body))
    });
    Client::new(service, "default")
}

/// A port free on loopback a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn args(http_port: u16, port: u16, cert_dir: &std::path::Path) -> Options {
    Args::try_parse_from([
        "memcached-operator".to_string(),
        format!("--http-addr=127.0.0.1:{http_port}"),
        format!("--webhook-port={port}"),
        format!("--webhook-cert-dir={}", cert_dir.display()),
    ])
    .unwrap()
    .runtime
}

async fn get(port: u16, root: &CertificateDer<'static>, path: &str) -> std::io::Result<String> {
    https_client::get(port, root, path, None).await
}

/// `GET path` over plain HTTP to `127.0.0.1:port`: the response.
async fn plain_get(port: u16, path: &str) -> String {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    tcp.read_to_string(&mut response).await.unwrap();
    response
}

/// Cancels `shutdown` and waits for the operator `running` to stop without an error.
async fn stop(shutdown: CancellationToken, running: tokio::task::JoinHandle<Result<(), Error>>) {
    shutdown.cancel();
    let result = tokio::time::timeout(WAIT, running)
        .await
        .expect("the operator stops")
        .unwrap();
    result.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_webhook_server_runs_beside_the_controller_and_stops_with_it() {
    let dir = std::env::temp_dir().join(format!("memcached-run-{}", std::process::id()));
    let root = https_client::write_certificate(&dir);

    let (http_port, port) = (free_port(), free_port());
    let args = args(http_port, port, &dir);
    let shutdown = CancellationToken::new();
    let running = tokio::spawn({
        let shutdown = shutdown.clone();
        async move { operator::run(empty_api(), &args, shutdown).await }
    });
    let deadline = tokio::time::Instant::now() + WAIT;
    let response = loop {
        match get(port, &root, "/healthz").await {
            Ok(response) => break response,
            Err(e) => assert!(tokio::time::Instant::now() < deadline, "{e}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.ends_with("ok"), "{response}");

    // The controller's metrics, under controller-runtime's names, beside the operator's own.
    let series = r#"controller_runtime_reconcile_total{controller="memcached",result="success"} 0"#;
    let metrics = loop {
        let metrics = plain_get(http_port, "/metrics").await;
        if metrics.contains(series) {
            break metrics;
        }
        assert!(tokio::time::Instant::now() < deadline, "{metrics}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    for expected in [
        r#"controller_runtime_max_concurrent_reconciles{controller="memcached"} 1"#,
        r#"workqueue_depth{name="memcached",controller="memcached",priority=""} 0"#,
        "memcached_operator_reconciles_total 0",
    ] {
        assert!(metrics.contains(expected), "{expected} in {metrics}");
    }

    // Each webhook's requests, under controller-runtime's names and labels: a `GET` (the
    // API server only posts) is answered 405, measured; `/healthz` is not a webhook.
    let paths: Vec<String> = memcached_operator::webhook::server()
        .paths()
        .filter(|path| *path != "/healthz")
        .map(str::to_string)
        .collect();
    assert!(!paths.is_empty());
    let webhook = &paths[0];
    let answer = get(port, &root, webhook).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    let metrics = plain_get(http_port, "/metrics").await;
    for path in &paths {
        let asked = if path == webhook { 1 } else { 0 };
        for expected in [
            format!(
                r#"controller_runtime_webhook_requests_total{{webhook="{path}",code="200"}} 0"#
            ),
            format!(
                r#"controller_runtime_webhook_requests_total{{webhook="{path}",code="500"}} 0"#
            ),
            format!(
                r#"controller_runtime_webhook_latency_seconds_count{{webhook="{path}"}} {asked}"#
            ),
            format!(r#"controller_runtime_webhook_requests_in_flight{{webhook="{path}"}} 0"#),
        ] {
            assert!(metrics.contains(&expected), "{expected} in {metrics}");
        }
    }
    for expected in [
        format!(r#"controller_runtime_webhook_requests_total{{webhook="{webhook}",code="405"}} 1"#),
        format!(
            r#"controller_runtime_webhook_latency_seconds_bucket{{le="+Inf",webhook="{webhook}"}} 1"#
        ),
        "# TYPE controller_runtime_webhook_requests counter".to_string(),
        "# TYPE controller_runtime_webhook_latency_seconds histogram".to_string(),
        "# TYPE controller_runtime_webhook_requests_in_flight gauge".to_string(),
    ] {
        assert!(metrics.contains(&expected), "{expected} in {metrics}");
    }
    assert!(!metrics.contains(r#"webhook="/healthz""#), "{metrics}");

    stop(shutdown, running).await;
    assert!(
        get(port, &root, "/healthz").await.is_err(),
        "the webhook port is closed"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn without_its_certificate_the_operator_stops_with_an_error() {
    let missing = std::env::temp_dir().join(format!("memcached-no-certs-{}", std::process::id()));
    let args = args(free_port(), free_port(), &missing);
    let result = tokio::time::timeout(
        WAIT,
        operator::run(empty_api(), &args, CancellationToken::new()),
    )
    .await
    .expect("the operator stops by itself");
    let error = result.unwrap_err();
    assert!(matches!(error, Error::Webhook(_)), "{error:?}");
    assert!(error.to_string().contains("tls.crt"), "{error}");
}

/// An API server on loopback (plain HTTP) with no objects: every list is empty, every watch
/// waits, a `get` of `missing` is 404. Its `host:port`.
async fn empty_api_server() -> String {
    async fn answer(request: axum::extract::Request) -> axum::response::Response {
        use axum::response::IntoResponse;
        let watch = request
            .uri()
            .query()
            .is_some_and(|q| q.contains("watch=true"));
        if watch {
            let never = futures::stream::pending::<Result<Bytes, Infallible>>();
            return axum::body::Body::from_stream(never).into_response();
        }
        let json = [(http::header::CONTENT_TYPE, "application/json")];
        if request.uri().path().ends_with("/missing") {
            let status = json!({"apiVersion": "v1", "kind": "Status", "status": "Failure", "reason": "NotFound", "code": 404});
            return (http::StatusCode::NOT_FOUND, json, status.to_string()).into_response();
        }
        let list = json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": "1"}, "items": []});
        (json, list.to_string()).into_response()
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let host = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        axum::serve(listener, axum::Router::new().fallback(answer))
            .await
            .unwrap()
    });
    host
}

/// `rest_client_requests_total{code,method,host}` counts every request of the client
/// `kubegen::runtime::client` builds, as client-go does: by status code (`<error>` when no
/// answer came), HTTP method and the API server's `host:port`; `/metrics` serves it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_api_request_is_counted_by_code_method_and_host() {
    let host = empty_api_server().await;
    let config = |host: &str| kube::Config::new(format!("http://{host}").parse().unwrap());
    let client = kubegen::runtime::client(config(&host)).unwrap();
    let configmaps: kube::Api<k8s_openapi::api::core::v1::ConfigMap> =
        kube::Api::namespaced(client.clone(), "default");
    let missing = configmaps.get("missing").await.unwrap_err();
    assert!(
        matches!(missing, kube::Error::Api(ref s) if s.code == 404),
        "{missing}"
    );
    // Nothing listens there.
    let closed = format!("127.0.0.1:{}", free_port());
    let nowhere: kube::Api<k8s_openapi::api::core::v1::ConfigMap> = kube::Api::namespaced(
        kubegen::runtime::client(config(&closed)).unwrap(),
        "default",
    );
    assert!(nowhere.list(&Default::default()).await.is_err());

    let http_port = free_port();
    let no_certs = std::env::temp_dir().join("memcached-rest-client-no-certs");
    let args = args(http_port, 0, &no_certs);
    let shutdown = CancellationToken::new();
    let running = tokio::spawn({
        let shutdown = shutdown.clone();
        async move { operator::run(client, &args, shutdown).await }
    });
    // The controller's list of memcacheds, counted once answered.
    let listed = format!(r#"rest_client_requests_total{{code="200",method="GET",host="{host}"}}"#);
    let deadline = tokio::time::Instant::now() + WAIT;
    let text = loop {
        let text = match TcpStream::connect(("127.0.0.1", http_port)).await {
            Ok(_) => plain_get(http_port, "/metrics").await,
            Err(_) => String::new(),
        };
        if text.contains(&listed) {
            break text;
        }
        assert!(tokio::time::Instant::now() < deadline, "{text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        text.contains("# TYPE rest_client_requests counter"),
        "{text}"
    );
    for series in [
        format!(r#"rest_client_requests_total{{code="404",method="GET",host="{host}"}} 1"#),
        format!(r#"rest_client_requests_total{{code="<error>",method="GET",host="{closed}"}} 1"#),
    ] {
        assert!(text.contains(&series), "{series} in {text}");
    }
    let scraped = dashboards::series(text.split("\r\n\r\n").nth(1).unwrap());
    for series in scraped
        .iter()
        .filter(|s| s.name == "rest_client_requests_total")
    {
        let labels: Vec<&str> = series.labels.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(labels, ["code", "method", "host"], "{series:?}");
    }

    stop(shutdown, running).await;
}

#[test]
fn a_querys_selectors_are_its_names_matchers_and_grouping() {
    let query =
        r#"histogram_quantile(0.5, sum(rate(a_bucket{job="$job", x="1"}[5m])) by (pod, le)) * 100"#;
    assert_eq!(
        dashboards::selectors(query),
        [dashboards::Selector {
            name: "a_bucket".into(),
            matchers: vec![("job".into(), "$job".into()), ("x".into(), "1".into())],
            by: vec!["pod".into(), "le".into()],
        }]
    );
    let sum = dashboards::selectors("sum(b) by (name) + c");
    let names: Vec<&str> = sum.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["b", "c"]);
    assert_eq!(
        dashboards::legend_labels("P50 {{name}} {{ instance }} "),
        ["name", "instance"]
    );
}

/// Every query of kubebuilder's dashboards (and its e2e test) finds its series on `/metrics`
/// from the moment the controller starts, with every label the query matches, groups by or
/// shows in its legend, except those Prometheus adds from the scrape target.
#[tokio::test]
async fn every_dashboard_query_finds_its_series_with_its_labels() {
    let http_port = free_port();
    let no_certs = std::env::temp_dir().join("memcached-dashboards-no-certs");
    let args = args(http_port, 0, &no_certs); // no webhook server
    let shutdown = CancellationToken::new();
    let running = tokio::spawn({
        let shutdown = shutdown.clone();
        async move { operator::run(empty_api(), &args, shutdown).await }
    });
    let deadline = tokio::time::Instant::now() + WAIT;
    let text = loop {
        let response = match TcpStream::connect(("127.0.0.1", http_port)).await {
            Ok(_) => plain_get(http_port, "/metrics").await,
            Err(_) => String::new(),
        };
        if response.contains(r#"workqueue_depth{name="memcached""#) {
            break response;
        }
        assert!(tokio::time::Instant::now() < deadline, "{response}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let scraped = dashboards::series(text.split("\r\n\r\n").nth(1).unwrap());
    let e2e = dashboards::E2E.replace("$controller", "memcached");
    let queries = dashboards::DASHBOARDS
        .iter()
        .map(|(query, legend)| (query.to_string(), dashboards::legend_labels(legend)))
        .chain([(e2e, Vec::new())]);
    let mut names = std::collections::BTreeSet::new();
    let mut labels = std::collections::BTreeSet::new();
    for (query, shown) in queries {
        let selectors = dashboards::selectors(&query);
        assert_eq!(selectors.len(), 1, "{query}");
        let own = |label: &String| !dashboards::TARGET_LABELS.contains(&label.as_str());
        for selector in selectors {
            let matched: Vec<&(String, String)> =
                selector.matchers.iter().filter(|(l, _)| own(l)).collect();
            let needed: Vec<&String> = selector
                .by
                .iter()
                .chain(&shown)
                .chain(matched.iter().map(|(l, _)| l))
                .filter(|l| own(l))
                .collect();
            let found = scraped.iter().any(|series| {
                series.name == selector.name
                    && needed
                        .iter()
                        .all(|l| series.labels.iter().any(|(k, _)| k == *l))
                    && matched.iter().all(|m| series.labels.contains(m))
            });
            assert!(
                found,
                "{query}: no `{}` with the labels {needed:?} and {matched:?} in\n{text}",
                selector.name
            );
            labels.extend(needed.into_iter().cloned());
            names.insert(selector.name);
        }
    }
    assert_eq!(
        labels.into_iter().collect::<Vec<_>>(),
        ["controller", "le", "name", "result"],
        "the labels the queries need of /metrics"
    );
    assert_eq!(names.len(), 11, "{names:?}");
    for name in [
        "workqueue_queue_duration_seconds_bucket",
        "workqueue_work_duration_seconds_bucket",
        "workqueue_unfinished_work_seconds",
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
    ] {
        assert!(names.contains(name), "{name} in {names:?}");
    }

    stop(shutdown, running).await;
}
