//! A mocked Kubernetes API at the HTTP level (kube's tower-test pattern): a scenario is the
//! list of requests the reconciler must make, in order, each with the response to give.
//! Anything else (another method, path, query or body, or one request too many) fails the test.

use std::sync::Arc;
use std::time::Duration;

use http::{Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use k8s_openapi::jiff::Timestamp;
use kube::client::Body;
use kube::{Client, Resource};
use memcached_operator::api::v1alpha1::{Memcached, MemcachedSpec};
use memcached_operator::controller::{Context, deployment};
use memcached_operator::metrics::Metrics;
use serde_json::{Value, json};

pub const NS: &str = "shop";
pub const NAME: &str = "cache";
pub const UID: &str = "0d4c1e1e-0000-4000-8000-000000000001";
pub const FINALIZER: &str = "cache.example.com/finalizer";

/// How the body of a request is checked.
pub enum BodyCheck {
    /// No body (GET, DELETE without options).
    Empty,
    /// Exactly this JSON.
    Exact(Value),
    /// This JSON, where objects may have more keys than given (timestamps, generated names).
    Includes(Value),
}

/// One expected request and its answer.
pub struct Step {
    pub method: Method,
    pub uri: String,
    pub body: BodyCheck,
    pub status: StatusCode,
    /// The response body; `None` answers with the request's body (as a write would).
    pub response: Option<Value>,
}

impl Step {
    pub fn new(method: Method, uri: impl Into<String>, body: BodyCheck) -> Self {
        Self {
            method,
            uri: uri.into(),
            body,
            status: StatusCode::OK,
            response: Some(json!({})),
        }
    }

    pub fn respond(mut self, status: StatusCode, response: Value) -> Self {
        self.status = status;
        self.response = Some(response);
        self
    }

    /// Answers `status` with the request's own body, as the apiserver does for a write.
    pub fn echo(mut self, status: StatusCode) -> Self {
        self.status = status;
        self.response = None;
        self
    }
}

/// Runs `steps` against the mock's handle; resolves once all happened and the client is gone.
pub struct ApiServerVerifier(tokio::task::JoinHandle<()>);

impl ApiServerVerifier {
    /// Waits (at most a few seconds) for the scenario to finish, re-raising its assertion.
    pub async fn verify(self) {
        match tokio::time::timeout(Duration::from_secs(5), self.0).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => std::panic::resume_unwind(e.into_panic()),
            Err(_) => panic!(
                "the scenario did not finish: a request was not made, or the client was not dropped"
            ),
        }
    }
}

/// A client wired to a mock API that expects exactly `steps`.
pub fn mock_client(steps: Vec<Step>) -> (Client, ApiServerVerifier) {
    let (service, mut handle) = tower_test::mock::pair::<Request<Body>, Response<Body>>();
    let task = tokio::spawn(async move {
        let count = steps.len();
        for (i, step) in steps.into_iter().enumerate() {
            let (request, send) = handle.next_request().await.unwrap_or_else(|| {
                panic!(
                    "request {} of {count} ({} {}) was never made",
                    i + 1,
                    step.method,
                    step.uri
                )
            });
            let (parts, body) = request.into_parts();
            let bytes = body.collect().await.expect("request body").to_bytes();
            let what = format!("request {} of {count}", i + 1);
            assert_eq!(
                (&parts.method, parts.uri.to_string()),
                (&step.method, step.uri.clone()),
                "{what}"
            );
            let actual: Option<Value> =
                (!bytes.is_empty()).then(|| serde_json::from_slice(&bytes).expect("a JSON body"));
            match (&step.body, &actual) {
                (BodyCheck::Empty, None) => {}
                (BodyCheck::Exact(expected), Some(actual)) => {
                    assert_eq!(actual, expected, "{what}: body")
                }
                (BodyCheck::Includes(expected), Some(actual)) => {
                    assert_includes(actual, expected, &what)
                }
                (_, actual) => panic!("{what}: unexpected body {actual:?}"),
            }
            let response = Response::builder()
                .status(step.status)
                .body(Body::from(match &step.response {
                    Some(value) => serde_json::to_vec(value).unwrap(),
                    None => bytes.to_vec(),
                }))
                .unwrap();
            send.send_response(response);
        }
        if let Some((request, _)) = handle.next_request().await {
            panic!(
                "unexpected request after the scenario: {} {}",
                request.method(),
                request.uri()
            );
        }
    });
    (Client::new(service, "default"), ApiServerVerifier(task))
}

/// A reconcile context on `client`, with fresh metrics.
pub fn context(client: Client) -> Arc<Context> {
    Arc::new(Context::new(
        client,
        Arc::new(Metrics::default()),
        Some("test".into()),
    ))
}

/// Asserts that `actual` has everything in `expected`: the same scalars, arrays of the same
/// length whose items include the expected ones, objects with at least the expected keys.
pub fn assert_includes(actual: &Value, expected: &Value, at: &str) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            for (key, value) in e {
                let inner = format!("{at}.{key}");
                let found = a
                    .get(key)
                    .unwrap_or_else(|| panic!("{inner}: missing in {actual}"));
                assert_includes(found, value, &inner);
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            assert_eq!(a.len(), e.len(), "{at}: length of {actual}");
            for (i, (a, e)) in a.iter().zip(e).enumerate() {
                assert_includes(a, e, &format!("{at}[{i}]"));
            }
        }
        _ => assert_eq!(actual, expected, "{at}"),
    }
}

/// A `Memcached` as the apiserver returns it: named, with uid, generation and finalizer.
pub fn memcached(size: i32) -> Memcached {
    let mut mc = Memcached::new(
        NAME,
        MemcachedSpec {
            size,
            container_port: 11211,
            image: "memcached:1.6.26-alpine3.19".into(),
            resources: None,
        },
    );
    mc.metadata = ObjectMeta {
        name: Some(NAME.into()),
        namespace: Some(NS.into()),
        uid: Some(UID.into()),
        generation: Some(1),
        resource_version: Some("100".into()),
        finalizers: Some(vec![FINALIZER.into()]),
        ..ObjectMeta::default()
    };
    mc
}

/// `mc` being deleted.
pub fn deleting(mut mc: Memcached) -> Memcached {
    mc.metadata.deletion_timestamp = Some(Time(Timestamp::now()));
    mc
}

/// The Deployment of `mc` as stored: what the operator applies, with the server's fields.
pub fn stored_deployment(mc: &Memcached, generation: i64) -> Deployment {
    let mut d = deployment::desired(mc).unwrap();
    d.metadata.uid = Some("dep-uid".into());
    d.metadata.generation = Some(generation);
    d.metadata.resource_version = Some("200".into());
    d
}

pub fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

/// The path of `mc`'s API objects.
pub fn memcached_path() -> String {
    format!("/apis/cache.example.com/v1alpha1/namespaces/{NS}/memcacheds/{NAME}")
}

pub fn deployment_path() -> String {
    format!("/apis/apps/v1/namespaces/{NS}/deployments/{NAME}")
}

/// The object reference events point at.
pub fn regarding(mc: &Memcached) -> Value {
    to_json(&mc.object_ref(&()))
}

/// A Kubernetes `Status` error body.
pub fn status_error(code: u16, reason: &str, message: &str) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": code, "reason": reason, "message": message})
}
