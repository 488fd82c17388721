//! The HTTPS server: routes, TLS and the accept loop.

use std::collections::BTreeSet;
use std::future::Future;
use std::io;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use kube::Resource;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::net::TcpListener;

use super::admission::{self, Reply};
use super::{CertDir, Conversion, Denied, Webhook};
use crate::CustomResource;
use crate::https;

/// A route's handler: a request body in, a reply out.
type Handler = Arc<dyn Fn(&[u8]) -> Reply + Send + Sync>;

/// The largest review read: an update carries two objects of up to 1.5 MiB each.
const MAX_BODY: usize = 8 << 20;

/// The webhook server: handlers routed by their `#[webhook]` attributes, a conversion
/// webhook, `/healthz`.
///
/// ```no_run
/// # use kubegen::webhook::{CertDir, Denied, Server, Webhook};
/// # fn run<K>(webhooks: Vec<Webhook>, check: fn(&K, Option<&K>) -> Result<(), Denied>)
/// # where K: kube::Resource<DynamicType = ()> + serde::de::DeserializeOwned + Send + Sync + 'static {
/// # async {
/// let server = Server::new().validate(webhooks, check);
/// let listener = tokio::net::TcpListener::bind("0.0.0.0:9443").await?;
/// server
///     .serve(listener, CertDir::new("/tmp/k8s-webhook-server/serving-certs"), std::future::pending())
///     .await?;
/// # std::io::Result::Ok(()) };
/// # }
/// ```
#[derive(Clone)]
pub struct Server {
    router: Router,
    paths: BTreeSet<String>,
}

impl Default for Server {
    fn default() -> Self {
        Server::new()
    }
}

impl Server {
    /// A server answering `/healthz` only.
    pub fn new() -> Self {
        Server {
            router: Router::new().route("/healthz", get(|| async { "ok" })),
            paths: BTreeSet::from(["/healthz".to_string()]),
        }
    }

    /// Serves `handler` as the validating webhooks `webhooks` (the `webhooks()` that
    /// `#[webhook]` emits next to the handler), on the path `route` gives each. The handler
    /// gets the new object and, on update, the old one; `Err` denies the request with its
    /// message. Requests without an object (`DELETE`) are allowed.
    ///
    /// # Panics
    ///
    /// When a webhook is mutating, or its path is already served: mistakes in the wiring.
    #[must_use]
    pub fn validate<K, F>(self, webhooks: impl IntoIterator<Item = Webhook>, handler: F) -> Self
    where
        K: Resource<DynamicType = ()> + DeserializeOwned + 'static,
        F: Fn(&K, Option<&K>) -> Result<(), Denied> + Send + Sync + 'static,
    {
        let handler = Arc::new(move |body: &[u8]| admission::validate::<K, F>(body, &handler));
        self.admission(webhooks, false, handler)
    }

    /// Serves `handler` as the mutating (defaulting) webhooks `webhooks`: it changes the
    /// object, and the response carries the JSON patch from the object received to the one it
    /// leaves.
    ///
    /// # Panics
    ///
    /// When a webhook is validating, or its path is already served.
    #[must_use]
    pub fn mutate<K, F>(self, webhooks: impl IntoIterator<Item = Webhook>, handler: F) -> Self
    where
        K: Resource<DynamicType = ()> + DeserializeOwned + Serialize + 'static,
        F: Fn(&mut K) + Send + Sync + 'static,
    {
        let handler = Arc::new(move |body: &[u8]| admission::mutate::<K, F>(body, &handler));
        self.admission(webhooks, true, handler)
    }

    /// Serves the conversion webhook `conversion` on its path ([`Conversion::path`]).
    ///
    /// # Panics
    ///
    /// When the path is already served.
    #[must_use]
    pub fn convert<H>(self, conversion: Conversion<H>) -> Self
    where
        H: CustomResource + Resource<DynamicType = ()> + DeserializeOwned + Serialize,
        H: Send + Sync + 'static,
    {
        let path = conversion.path();
        let conversion = Arc::new(conversion);
        self.route(path, Arc::new(move |body: &[u8]| conversion.review(body)))
    }

    /// The paths served, `/healthz` included.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.paths.iter().map(String::as_str)
    }

    /// The server with `f` applied to its router (the runtime's metrics layer).
    #[cfg(feature = "runtime")]
    pub(crate) fn map_router(mut self, f: impl FnOnce(Router) -> Router) -> Self {
        self.router = f(self.router);
        self
    }

    /// The routes as a plain (HTTP) axum router, to embed or test without TLS.
    pub fn router(&self) -> Router {
        self.router
            .clone()
            .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
    }

    fn admission(
        self,
        webhooks: impl IntoIterator<Item = Webhook>,
        mutating: bool,
        handler: Handler,
    ) -> Self {
        let mut server = self;
        for webhook in webhooks {
            assert!(
                webhook.mutating == mutating,
                "webhook `{}` is {}: serve it with Server::{}",
                webhook.name,
                if webhook.mutating {
                    "mutating"
                } else {
                    "validating"
                },
                if webhook.mutating {
                    "mutate"
                } else {
                    "validate"
                },
            );
            let path = kubegen_core::webhook::route(&webhook)
                .unwrap_or_else(|| url_path(webhook.url.as_deref().unwrap_or_default()));
            server = server.route(path, handler.clone());
        }
        server
    }

    fn route(mut self, path: String, handler: Handler) -> Self {
        assert!(
            self.paths.insert(path.clone()),
            "two webhooks are served on {path}"
        );
        let serve = move |body: Bytes| {
            let handler = handler.clone();
            async move { respond(handler(&body)) }
        };
        self.router = self.router.route(&path, post(serve));
        self
    }

    /// Serves HTTPS on `listener` with the certificate in `certs` until `shutdown` completes,
    /// then stops accepting, closes idle connections (HTTP/2: `GOAWAY`) and returns once the
    /// requests in flight are answered (at most 30 s). Fails at once when the certificate
    /// cannot be read; connections that fail are dropped and logged.
    pub async fn serve(
        self,
        listener: TcpListener,
        certs: CertDir,
        shutdown: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let (resolver, reloader) = certs.watch(&provider)?;
        let served = https::serve(self.router(), listener, provider, resolver, shutdown).await;
        reloader.abort();
        served
    }
}

/// The HTTP response of a reply.
fn respond(reply: Reply) -> Response {
    match reply {
        Reply::Review(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Reply::BadRequest(message) => (StatusCode::BAD_REQUEST, message).into_response(),
    }
}

/// The path of a URL (`https://host:8443/p?q` → `/p`), `/` when it has none.
pub(super) fn url_path(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    path.split(['?', '#']).next().unwrap_or("/").to_string()
}

#[cfg(test)]
mod tests {
    use super::url_path;

    #[test]
    fn url_paths() {
        assert_eq!(url_path("https://h:8443/convert?x=1"), "/convert");
        assert_eq!(url_path("https://h"), "/");
        assert_eq!(url_path("https://h/a/b"), "/a/b");
    }
}
