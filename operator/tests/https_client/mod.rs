//! A one-request HTTPS client for the tests: `GET` over TLS to a loopback port.

use std::sync::Arc;

use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `GET path` over TLS to `127.0.0.1:port` as `localhost`, trusting `root`, with `token` as
/// bearer token if given: the whole response, status line first.
pub async fn get(
    port: u16,
    root: &CertificateDer<'static>,
    path: &str,
    token: Option<&str>,
) -> std::io::Result<String> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(root.clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = TcpStream::connect(("127.0.0.1", port)).await?;
    let name = ServerName::try_from("localhost").unwrap();
    let mut tls = connector.connect(name, tcp).await?;
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n{auth}Connection: close\r\n\r\n");
    tls.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    let _ = tls.read_to_string(&mut response).await;
    Ok(response)
}

/// A self-signed certificate for `localhost` written as `tls.crt` and `tls.key` in `dir`:
/// the certificate to trust.
pub fn write_certificate(dir: &std::path::Path) -> CertificateDer<'static> {
    std::fs::create_dir_all(dir).unwrap();
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    std::fs::write(dir.join("tls.key"), cert.signing_key.serialize_pem()).unwrap();
    std::fs::write(dir.join("tls.crt"), cert.cert.pem()).unwrap();
    cert.cert.der().clone()
}
