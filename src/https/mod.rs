//! Serving an axum `Router` over HTTPS (HTTP/1.1 and HTTP/2), shared by the webhook server
//! and the runtime's secured metrics endpoint.

mod certs;

pub use certs::CertDir;
#[cfg(feature = "runtime")]
pub(crate) use certs::self_signed;

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use rustls::crypto::CryptoProvider;
use rustls::server::ResolvesServerCert;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// How long a client has to finish the TLS handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long requests in flight at shutdown may take to finish: the longest timeout a webhook
/// configuration can give the API server.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves `app` over TLS on `listener`, with the certificate `resolver` gives, until
/// `shutdown` completes; then stops accepting, closes idle connections (HTTP/2: `GOAWAY`) and
/// returns once the requests in flight are answered (at most 30 s). Connections that fail are
/// dropped and logged.
pub(crate) async fn serve(
    app: Router,
    listener: TcpListener,
    provider: Arc<CryptoProvider>,
    resolver: Arc<dyn ResolvesServerCert>,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(io::Error::other)?
        .with_no_client_auth()
        .with_cert_resolver(resolver);
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let connections = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!("HTTPS server: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let (acceptor, router) = (acceptor.clone(), app.clone());
        let watcher = connections.watcher();
        tokio::spawn(async move {
            let tls = match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                Ok(Ok(tls)) => tls,
                Ok(Err(e)) => return tracing::debug!(%peer, "TLS handshake failed: {e}"),
                Err(_) => return tracing::debug!(%peer, "TLS handshake timed out"),
            };
            let service = TowerToHyperService::new(router);
            let builder = auto::Builder::new(TokioExecutor::new());
            let connection = builder.serve_connection(TokioIo::new(tls), service);
            if let Err(e) = watcher.watch(connection).await {
                tracing::debug!(%peer, "HTTPS connection failed: {e}");
            }
        });
    }
    if tokio::time::timeout(DRAIN_TIMEOUT, connections.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("HTTPS server: requests still in flight after {DRAIN_TIMEOUT:?}");
    }
    Ok(())
}
