//! Throughput of the operator: N = 1,000 `Memcached` objects are created in an in-memory fake
//! of the Kubernetes API (an HTTP-level tower service, the seam the mock tests use, with list
//! and watch), then the real controller (`controller::run`: watches, queue, finalizer,
//! Deployment apply, events, status) runs until every object has its Deployment and status.
//! Prints reconciles per second and the process's peak RSS.
//!
//! `cargo bench -p memcached-operator --bench throughput` (`N=5000` in the environment changes
//! the number of objects).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bytes::Bytes;
use futures::stream;
use http::{Method, Request, Response, StatusCode};
use http_body::Frame;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use kube::api::PostParams;
use kube::client::Body;
use kube::{Api, Client};
use kubegen::runtime::{ControllerMetrics, Scope};
use memcached_operator::api::v1alpha1::{Memcached, MemcachedSpec};
use memcached_operator::controller::{self, Context};
use memcached_operator::metrics::Metrics;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;

const NAMESPACE: &str = "bench";

type ResponseBody = UnsyncBoxBody<Bytes, Infallible>;

/// The fake API's objects by path, and the watch streams of each collection.
#[derive(Default)]
struct State {
    objects: BTreeMap<String, Value>,
    resource_version: u64,
    watchers: HashMap<String, Vec<mpsc::UnboundedSender<Bytes>>>,
    /// Watch streams opened by a list, taken by the watch that follows it (no gap between).
    listed: HashMap<(String, String), mpsc::UnboundedReceiver<Bytes>>,
    with_status: HashSet<String>,
}

impl State {
    /// A new watch stream of `collection`'s changes.
    fn subscribe(&mut self, collection: &str) -> mpsc::UnboundedReceiver<Bytes> {
        let (sender, receiver) = mpsc::unbounded_channel();
        self.watchers
            .entry(collection.to_string())
            .or_default()
            .push(sender);
        receiver
    }
}

#[derive(Default)]
struct FakeApi {
    state: Mutex<State>,
    target: usize,
    all_have_status: Notify,
}

fn collection_of(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(parent, _)| parent)
}

fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

fn json_response(status: StatusCode, value: &Value) -> Response<ResponseBody> {
    let body = Full::new(Bytes::from(serde_json::to_vec(value).unwrap())).boxed_unsync();
    Response::builder().status(status).body(body).unwrap()
}

impl FakeApi {
    /// Stores a written object, stamps the server's fields and tells the watchers.
    fn write(&self, path: &str, mut object: Value) -> Value {
        let mut state = self.state.lock().unwrap();
        state.resource_version += 1;
        let rv = state.resource_version;
        let created = !state.objects.contains_key(path);
        let metadata = &mut object["metadata"];
        metadata["resourceVersion"] = json!(rv.to_string());
        metadata["namespace"] = json!(NAMESPACE);
        if created {
            metadata["uid"] = json!(format!("uid-{rv}"));
            metadata["generation"] = json!(1);
        }
        state.objects.insert(path.to_string(), object.clone());
        if object["status"]["conditions"].is_array()
            && state.with_status.insert(path.to_string())
            && state.with_status.len() == self.target
        {
            self.all_have_status.notify_one();
        }
        if let Some(watchers) = state.watchers.get_mut(collection_of(path)) {
            let event =
                json!({"type": if created { "ADDED" } else { "MODIFIED" }, "object": object});
            let mut line = serde_json::to_vec(&event).unwrap();
            line.push(b'\n');
            let line = Bytes::from(line);
            watchers.retain(|watcher| watcher.send(line.clone()).is_ok());
        }
        object
    }

    fn list(&self, collection: &str) -> Value {
        let mut state = self.state.lock().unwrap();
        let prefix = format!("{collection}/");
        let items: Vec<Value> = state
            .objects
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .filter(|(k, _)| !k[prefix.len()..].contains('/'))
            .map(|(_, v)| v.clone())
            .collect();
        let rv = state.resource_version.to_string();
        let receiver = state.subscribe(collection);
        state
            .listed
            .insert((collection.to_string(), rv.clone()), receiver);
        json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": rv}, "items": items})
    }

    fn watch(&self, collection: &str, rv: &str) -> Response<ResponseBody> {
        let mut state = self.state.lock().unwrap();
        let receiver = match state
            .listed
            .remove(&(collection.to_string(), rv.to_string()))
        {
            Some(receiver) => receiver,
            None => state.subscribe(collection),
        };
        let events = stream::unfold(receiver, |mut receiver| async move {
            let line = receiver.recv().await?;
            Some((Ok(Frame::data(line)), receiver))
        });
        Response::builder()
            .status(StatusCode::OK)
            .body(StreamBody::new(events).boxed_unsync())
            .unwrap()
    }

    fn handle(
        &self,
        method: &Method,
        path: &str,
        query: &str,
        body: Option<Value>,
    ) -> Response<ResponseBody> {
        let not_found = json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 404, "reason": "NotFound"});
        let is_collection = path.ends_with("/memcacheds") || path.ends_with("/deployments");
        let stored = self.state.lock().unwrap().objects.get(path).cloned();
        match (method, body) {
            (&Method::GET, _) if is_collection && query_value(query, "watch") == Some("true") => {
                self.watch(
                    path,
                    query_value(query, "resourceVersion").unwrap_or_default(),
                )
            }
            (&Method::GET, _) if is_collection => json_response(StatusCode::OK, &self.list(path)),
            (&Method::GET, _) => match stored {
                Some(object) => json_response(StatusCode::OK, &object),
                None => json_response(StatusCode::NOT_FOUND, &not_found),
            },
            (&Method::POST, Some(object)) if path.ends_with("/memcacheds") => {
                let name = object["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                json_response(
                    StatusCode::CREATED,
                    &self.write(&format!("{path}/{name}"), object),
                )
            }
            (&Method::POST, Some(event)) => json_response(StatusCode::CREATED, &event),
            (&Method::PATCH, Some(event)) if path.contains("/events/") => {
                json_response(StatusCode::OK, &event)
            }
            // the status subresource (the operator applies it)
            (&Method::PATCH, Some(object)) if path.ends_with("/status") => {
                let path = path.trim_end_matches("/status");
                let current = self.state.lock().unwrap().objects.get(path).cloned();
                let mut current = current.unwrap_or_else(|| object.clone());
                current["status"] = object["status"].clone();
                json_response(StatusCode::OK, &self.write(path, current))
            }
            // the finalizer's JSON patch
            (&Method::PATCH, Some(Value::Array(ops))) => {
                let Some(mut object) = stored else {
                    return json_response(StatusCode::NOT_FOUND, &not_found);
                };
                for op in ops.iter().filter(|op| op["op"] == "add") {
                    match (op["path"].as_str(), &mut object["metadata"]["finalizers"]) {
                        (Some("/metadata/finalizers"), finalizers) => {
                            *finalizers = op["value"].clone()
                        }
                        (Some("/metadata/finalizers/-"), Value::Array(finalizers)) => {
                            finalizers.push(op["value"].clone())
                        }
                        _ => {}
                    }
                }
                json_response(StatusCode::OK, &self.write(path, object))
            }
            // server-side apply (the fake keeps the applied object as is)
            (&Method::PATCH, Some(mut object)) => {
                if let Some(stored) = stored {
                    object["metadata"]["uid"] = stored["metadata"]["uid"].clone();
                }
                json_response(StatusCode::OK, &self.write(path, object))
            }
            _ => json_response(
                StatusCode::METHOD_NOT_ALLOWED,
                &json!({"kind": "Status", "code": 405}),
            ),
        }
    }

    async fn serve(
        self: Arc<Self>,
        request: Request<Body>,
    ) -> Result<Response<ResponseBody>, Infallible> {
        let (parts, body) = request.into_parts();
        let bytes = body
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        let body =
            (!bytes.is_empty()).then(|| serde_json::from_slice(&bytes).expect("JSON request body"));
        Ok(self.handle(
            &parts.method,
            parts.uri.path(),
            parts.uri.query().unwrap_or_default(),
            body,
        ))
    }
}

/// The peak resident set size of this process, from /proc/self/status (Linux).
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let fake = Arc::new(FakeApi {
        target: n,
        ..FakeApi::default()
    });
    let service = tower::service_fn({
        let fake = fake.clone();
        move |request| fake.clone().serve(request)
    });
    let client = Client::new(service, "default");

    let api: Api<Memcached> = Api::namespaced(client.clone(), NAMESPACE);
    for i in 0..n {
        let spec = MemcachedSpec {
            size: 1 + (i % 5) as i32,
            container_port: 11211,
            image: "memcached:1.6.26-alpine3.19".into(),
            resources: None,
        };
        api.create(
            &PostParams::default(),
            &Memcached::new(&format!("mc-{i:04}"), spec),
        )
        .await
        .unwrap();
    }
    let rss_before = peak_rss();

    let metrics = Arc::new(Metrics::default());
    let ctx = Arc::new(Context::new(
        client.clone(),
        metrics.clone(),
        Some("bench".into()),
    ));
    let shutdown = CancellationToken::new();
    let scope = Scope {
        client,
        namespace: Some(NAMESPACE.into()),
        identity: "bench".into(),
        shutdown: shutdown.clone(),
        metrics: ControllerMetrics::default(),
    };
    let started = Instant::now();
    let operator = tokio::spawn(controller::run(scope, ctx));
    fake.all_have_status.notified().await;
    let elapsed = started.elapsed();
    let reconciles = metrics.reconciles.get();
    shutdown.cancel();
    operator.await.unwrap();

    let state = fake.state.lock().unwrap();
    let deployments = state
        .objects
        .keys()
        .filter(|k| k.contains("/deployments/"))
        .count();
    assert_eq!(deployments, n, "every Memcached has its Deployment");
    println!("memcached-operator throughput: the controller against a fake API (in-process)");
    println!("  objects:              {n}");
    println!("  until all have status: {:.3} s", elapsed.as_secs_f64());
    println!("  reconciles:           {reconciles}");
    println!(
        "  reconciles/s:         {:.0}",
        reconciles as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  objects/s:            {:.0}",
        n as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  peak RSS (VmHWM):     {} ({} after creating the objects, before the controller)",
        peak_rss(),
        rss_before
    );
}
