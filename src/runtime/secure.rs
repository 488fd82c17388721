//! The secured metrics endpoint (`--metrics-bind-address` with `--metrics-secure`, as
//! kubebuilder v4 scaffolds it): `/metrics` over HTTPS, answered only to a caller whose bearer
//! token the API server authenticates (a `TokenReview`) and whose user it authorizes for `get`
//! on the non-resource URL `/metrics` (a `SubjectAccessReview`), as controller-runtime's
//! `filters.WithAuthenticationAndAuthorization` does. No token, or one the API server does
//! not authenticate: 401; a user not authorized: 403; a review that fails: 500. With the same
//! caches: a token's review is kept a minute, an access review five minutes when it allows
//! and 30 s when it denies (a scraper costs two API calls at most every few minutes).
//!
//! The certificate is `tls.crt` and `tls.key` of `--metrics-cert-dir` (reloaded when they
//! change), else one signed by its own key made at start, as controller-runtime does.
//!
//! The reviews need `create` on `tokenreviews` (`authentication.k8s.io`) and
//! `subjectaccessreviews` (`authorization.k8s.io`): put those `#[rbac]` on your `main`.

use std::collections::HashMap;
use std::hash::Hash;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use k8s_openapi::api::authentication::v1::{TokenReview, TokenReviewSpec, UserInfo};
use k8s_openapi::api::authorization::v1::{
    NonResourceAttributes, SubjectAccessReview, SubjectAccessReviewSpec,
};
use kube::api::PostParams;
use kube::{Api, Client};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tracing::warn;

use crate::https::{self, CertDir};

/// Serves `app` on `listener` over HTTPS, behind the reviews, until `shutdown` is cancelled;
/// with the certificate of `cert_dir`, else a self-signed one.
pub(crate) async fn serve(
    app: Router,
    client: Client,
    listener: TcpListener,
    cert_dir: Option<&std::path::Path>,
    shutdown: CancellationToken,
) -> io::Result<()> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let (resolver, reloader) = match cert_dir {
        Some(dir) => {
            let (resolver, reloader) = CertDir::new(dir).watch(&provider)?;
            (resolver, Some(reloader))
        }
        None => (https::self_signed(&provider)?, None),
    };
    let reviewer = Arc::new(Reviewer::new(client));
    let app = app.layer(middleware::from_fn_with_state(reviewer, admit));
    let served = https::serve(
        app,
        listener,
        provider,
        resolver,
        shutdown.cancelled_owned(),
    )
    .await;
    if let Some(reloader) = reloader {
        reloader.abort();
    }
    served
}

/// How long a token's review is kept (controller-runtime's `CacheTTL`).
const TOKEN_TTL: Duration = Duration::from_secs(60);
/// How long an access review that allows is kept (`AllowCacheTTL`).
const ALLOW_TTL: Duration = Duration::from_secs(300);
/// How long an access review that denies is kept (`DenyCacheTTL`).
const DENY_TTL: Duration = Duration::from_secs(30);
/// The most answers a cache keeps: past it, it starts over (a flood of made-up tokens).
const CACHE_SIZE: usize = 1024;

/// Answers kept until they expire.
struct Cache<K, V>(Mutex<HashMap<K, (Instant, V)>>);

impl<K: Eq + Hash, V: Clone> Cache<K, V> {
    fn new() -> Self {
        Cache(Mutex::new(HashMap::new()))
    }

    fn get(&self, key: &K) -> Option<V> {
        let entries = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (expires, value) = entries.get(key)?;
        (*expires > Instant::now()).then(|| value.clone())
    }

    fn put(&self, key: K, value: V, ttl: Duration) {
        let mut entries = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        entries.retain(|_, (expires, _)| *expires > now);
        if entries.len() >= CACHE_SIZE {
            entries.clear();
        }
        entries.insert(key, (now + ttl, value));
    }
}

/// Reviews callers with the API server, and remembers the answers a while.
struct Reviewer {
    client: Client,
    tokens: Cache<String, Option<UserInfo>>,
    /// By user (name, uid, groups, extra as JSON), verb and path.
    access: Cache<(String, String, String), bool>,
}

impl Reviewer {
    fn new(client: Client) -> Self {
        Reviewer {
            client,
            tokens: Cache::new(),
            access: Cache::new(),
        }
    }

    /// The user `token` stands for, `None` when the API server does not authenticate it.
    async fn authenticate(&self, token: String) -> kube::Result<Option<UserInfo>> {
        if let Some(user) = self.tokens.get(&token) {
            return Ok(user);
        }
        let user = authenticate(&self.client, token.clone()).await?;
        self.tokens.put(token, user.clone(), TOKEN_TTL);
        Ok(user)
    }

    /// Whether `user` may `verb` the non-resource URL `path`.
    async fn authorize(&self, user: UserInfo, path: String, verb: String) -> kube::Result<bool> {
        let who = serde_json::to_string(&user).unwrap_or_default();
        let key = (who, verb.clone(), path.clone());
        if let Some(allowed) = self.access.get(&key) {
            return Ok(allowed);
        }
        let allowed = authorize(&self.client, user, path, verb).await?;
        let ttl = if allowed { ALLOW_TTL } else { DENY_TTL };
        self.access.put(key, allowed, ttl);
        Ok(allowed)
    }
}

/// Passes the request on once its token is authenticated and its user authorized.
async fn admit(State(reviewer): State<Arc<Reviewer>>, request: Request, next: Next) -> Response {
    let Some(token) = bearer_token(&request) else {
        return (StatusCode::UNAUTHORIZED, "Unauthorized").into_response();
    };
    let user = match reviewer.authenticate(token).await {
        Ok(Some(user)) => user,
        Ok(None) => return (StatusCode::UNAUTHORIZED, "Unauthorized").into_response(),
        Err(error) => {
            warn!(%error, "metrics: the TokenReview failed");
            return (StatusCode::INTERNAL_SERVER_ERROR, "Authentication failed").into_response();
        }
    };
    let verb = request.method().as_str().to_lowercase();
    let path = request.uri().path().to_string();
    let name = user.username.clone().unwrap_or_default();
    match reviewer.authorize(user, path, verb).await {
        Ok(true) => next.run(request).await,
        Ok(false) => (
            StatusCode::FORBIDDEN,
            format!("Authorization denied for user {name}"),
        )
            .into_response(),
        Err(error) => {
            warn!(%error, "metrics: the SubjectAccessReview failed");
            let message = format!("Authorization for user {name} failed");
            (StatusCode::INTERNAL_SERVER_ERROR, message).into_response()
        }
    }
}

/// The token of an `Authorization: Bearer <token>` header.
fn bearer_token(request: &Request) -> Option<String> {
    let value = request
        .headers()
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then(|| token.to_string())
}

/// The user `token` stands for, `None` when the API server does not authenticate it.
async fn authenticate(client: &Client, token: String) -> kube::Result<Option<UserInfo>> {
    let review = TokenReview {
        spec: TokenReviewSpec {
            token,
            audiences: None,
        },
        ..TokenReview::default()
    };
    let reviewed = Api::<TokenReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await?;
    Ok(reviewed
        .status
        .filter(|status| status.authenticated == Some(true))
        .and_then(|status| status.user))
}

/// Whether `user` may `verb` the non-resource URL `path`.
async fn authorize(
    client: &Client,
    user: UserInfo,
    path: String,
    verb: String,
) -> kube::Result<bool> {
    let review = SubjectAccessReview {
        spec: SubjectAccessReviewSpec {
            user: user.username,
            groups: user.groups,
            uid: user.uid,
            extra: user.extra,
            non_resource_attributes: Some(NonResourceAttributes {
                path: Some(path),
                verb: Some(verb),
            }),
            ..SubjectAccessReviewSpec::default()
        },
        ..SubjectAccessReview::default()
    };
    let reviewed = Api::<SubjectAccessReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await?;
    Ok(reviewed.status.is_some_and(|status| status.allowed))
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use clap::Parser;
    use http_body_util::BodyExt;
    use rustls::pki_types::{CertificateDer, ServerName};
    use serde_json::{Value, json};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;
    use crate::runtime::http::tests::http_get;
    use crate::runtime::{Manager, Options};

    /// An API server that knows the tokens `reader` (allowed to get `/metrics`) and `other`
    /// (not allowed).
    fn reviewing_api(reviews: Arc<std::sync::atomic::AtomicUsize>) -> Client {
        let service = tower::service_fn(move |request: hyper::Request<kube::client::Body>| {
            reviews.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async move {
                let path = request.uri().path().to_string();
                let body = request.into_body().collect().await.unwrap().to_bytes();
                let review: Value = serde_json::from_slice(&body).unwrap();
                let status = if path.ends_with("/tokenreviews") {
                    match review["spec"]["token"].as_str() {
                        Some(token @ ("reader" | "other")) => json!({
                            "authenticated": true,
                            "user": {"username": format!("system:serviceaccount:ns:{token}"), "groups": ["system:serviceaccounts"]},
                        }),
                        _ => json!({"authenticated": false}),
                    }
                } else {
                    let spec = &review["spec"];
                    let asks = &spec["nonResourceAttributes"];
                    let allowed = spec["user"] == "system:serviceaccount:ns:reader"
                        && spec["groups"] == json!(["system:serviceaccounts"])
                        && asks == &json!({"path": "/metrics", "verb": "get"});
                    json!({"allowed": allowed})
                };
                let mut answer = review;
                answer["status"] = status;
                let bytes = serde_json::to_vec(&answer).unwrap();
                Ok::<_, Infallible>(hyper::Response::new(kube::client::Body::from(bytes)))
            }
        });
        Client::new(service, "ns")
    }

    /// `GET /metrics` over TLS, trusting `root`, with `token` as bearer: the response.
    async fn get_metrics(port: u16, root: &CertificateDer<'static>, token: Option<&str>) -> String {
        let mut roots = rustls::RootCertStore::empty();
        roots.add(root.clone()).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let name = ServerName::try_from("localhost").unwrap();
        let mut tls = connector.connect(name, tcp).await.unwrap();
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        let request =
            format!("GET /metrics HTTP/1.1\r\nHost: localhost\r\n{auth}Connection: close\r\n\r\n");
        tls.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        let _ = tls.read_to_string(&mut response).await;
        response
    }

    #[tokio::test]
    async fn metrics_only_for_callers_the_api_server_authorizes() {
        let dir =
            std::env::temp_dir().join(format!("kubegen-metrics-certs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
        std::fs::write(dir.join("tls.key"), cert.signing_key.serialize_pem()).unwrap();
        std::fs::write(dir.join("tls.crt"), cert.cert.pem()).unwrap();
        let root = cert.cert.der().clone();

        #[derive(clap::Parser)]
        struct Args {
            #[command(flatten)]
            runtime: Options,
        }
        let flag = format!("--metrics-cert-dir={}", dir.display());
        let options = Args::parse_from(["op", flag.as_str()]).runtime;
        let health = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let metrics = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let (health_addr, port) = (
            health.local_addr().unwrap(),
            metrics.local_addr().unwrap().port(),
        );
        let shutdown = CancellationToken::new();
        let reviews = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let manager = Manager::new(reviewing_api(reviews.clone()), options)
            .shutdown(shutdown.clone())
            .http_listener(health)
            .metrics_listener(metrics);
        let running = tokio::spawn(manager.run());
        while !http_get(health_addr, "/readyz")
            .await
            .starts_with("HTTP/1.1 200")
        {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }

        let status = |response: String| response.lines().next().unwrap_or_default().to_string();
        assert_eq!(
            status(get_metrics(port, &root, None).await),
            "HTTP/1.1 401 Unauthorized"
        );
        assert_eq!(
            status(get_metrics(port, &root, Some("bogus")).await),
            "HTTP/1.1 401 Unauthorized"
        );
        let denied = get_metrics(port, &root, Some("other")).await;
        assert_eq!(status(denied.clone()), "HTTP/1.1 403 Forbidden");
        assert!(
            denied.ends_with("Authorization denied for user system:serviceaccount:ns:other"),
            "{denied}"
        );
        let allowed = get_metrics(port, &root, Some("reader")).await;
        assert_eq!(status(allowed.clone()), "HTTP/1.1 200 OK");
        assert!(allowed.contains("# EOF"), "{allowed}");
        let count = || reviews.load(std::sync::atomic::Ordering::SeqCst);
        assert_eq!(count(), 5, "bogus, other (twice), reader (twice)");
        for token in ["bogus", "other", "reader"] {
            get_metrics(port, &root, Some(token)).await;
        }
        assert_eq!(count(), 5, "the answers are kept");
        assert!(
            http_get(health_addr, "/metrics")
                .await
                .starts_with("HTTP/1.1 404"),
            "the plain endpoint no longer serves /metrics"
        );

        shutdown.cancel();
        running.await.unwrap().unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Accepts any server certificate, and keeps the last one.
    #[derive(Debug)]
    struct FirstUse(
        Arc<rustls::crypto::CryptoProvider>,
        std::sync::Mutex<Option<CertificateDer<'static>>>,
    );

    impl rustls::client::danger::ServerCertVerifier for FirstUse {
        fn verify_server_cert(
            &self,
            end_entity: &CertificateDer<'_>,
            _: &[CertificateDer<'_>],
            _: &ServerName<'_>,
            _: &[u8],
            _: rustls::pki_types::UnixTime,
        ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
            *self.1.lock().unwrap() = Some(end_entity.clone().into_owned());
            Ok(rustls::client::danger::ServerCertVerified::assertion())
        }

        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &rustls::DigitallySignedStruct,
        ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            let algorithms = &self.0.signature_verification_algorithms;
            rustls::crypto::verify_tls12_signature(message, cert, dss, algorithms)
        }

        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &rustls::DigitallySignedStruct,
        ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            let algorithms = &self.0.signature_verification_algorithms;
            rustls::crypto::verify_tls13_signature(message, cert, dss, algorithms)
        }

        fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
            self.0.signature_verification_algorithms.supported_schemes()
        }
    }

    #[tokio::test]
    async fn without_a_certificate_folder_the_certificate_is_self_signed_for_localhost() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let shutdown = CancellationToken::new();
        let app = Router::new().route("/metrics", axum::routing::get(|| async { "m" }));
        let server = tokio::spawn(serve(
            app,
            reviewing_api(Default::default()),
            listener,
            None,
            shutdown.clone(),
        ));

        // Learn the certificate, then check that it verifies as `localhost`'s by itself.
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let first_use = Arc::new(FirstUse(provider.clone(), Default::default()));
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .dangerous()
            .with_custom_certificate_verifier(first_use.clone())
            .with_no_client_auth();
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let name = ServerName::try_from("localhost").unwrap();
        drop(connector.connect(name, tcp).await.unwrap());
        let root = first_use.1.lock().unwrap().clone().expect("a certificate");
        let response = get_metrics(port, &root, None).await;
        assert!(response.starts_with("HTTP/1.1 401"), "{response}");

        shutdown.cancel();
        server.await.unwrap().unwrap();
    }
}
