//! The server's certificate: read from a folder, reloaded when its files change.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

/// The folder of the server's certificate: `tls.crt` (PEM, the chain, leaf first) and
/// `tls.key` (PEM), the files cert-manager mounts from a `kubernetes.io/tls` Secret. The files
/// are read every [`poll`](CertDir::poll) interval (5 s by default); a changed, valid pair is
/// served to new connections, an invalid one is logged and the previous pair kept.
#[derive(Clone, Debug)]
pub struct CertDir {
    dir: PathBuf,
    poll: Duration,
}

// Public through `kubegen::webhook`; the runtime alone reads a folder and nothing more.
#[cfg_attr(not(feature = "webhook"), allow(dead_code))]
impl CertDir {
    /// The certificate in `dir`, checked for changes every 5 s.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        CertDir {
            dir: dir.into(),
            poll: Duration::from_secs(5),
        }
    }

    /// The same folder, checked every `interval`.
    #[must_use]
    pub fn poll(mut self, interval: Duration) -> Self {
        self.poll = interval;
        self
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The two files' bytes.
    fn read(&self) -> io::Result<(Vec<u8>, Vec<u8>)> {
        let read = |name: &str| {
            let path = self.dir.join(name);
            std::fs::read(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
        };
        Ok((read("tls.crt")?, read("tls.key")?))
    }

    /// Reads the certificate, then watches it; the resolver serves the newest valid pair.
    pub(crate) fn watch(
        &self,
        provider: &Arc<CryptoProvider>,
    ) -> io::Result<(Arc<Reloading>, tokio::task::JoinHandle<()>)> {
        let mut seen = self.read()?;
        let first = certified(&seen, provider)?;
        let resolver = Arc::new(Reloading(RwLock::new(first)));
        let (dir, provider, shared) = (self.clone(), provider.clone(), resolver.clone());
        let task = tokio::spawn(async move {
            let mut ticks = tokio::time::interval(dir.poll);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Ok(files) = dir.read() else { continue };
                if files == seen {
                    continue;
                }
                match certified(&files, &provider) {
                    Ok(key) => {
                        *shared.0.write().unwrap_or_else(|e| e.into_inner()) = key;
                        tracing::info!(dir = %dir.dir.display(), "certificate reloaded");
                        seen = files;
                    }
                    // A rotation may be half written: try again at the next tick.
                    Err(e) => {
                        tracing::warn!(dir = %dir.dir.display(), "certificate not reloaded: {e}")
                    }
                }
            }
        });
        Ok((resolver, task))
    }
}

/// A certificate and key from PEM bytes.
fn certified(
    (crt, key): &(Vec<u8>, Vec<u8>),
    provider: &CryptoProvider,
) -> io::Result<Arc<CertifiedKey>> {
    let invalid = |what: &str, e: &dyn std::fmt::Display| {
        io::Error::new(io::ErrorKind::InvalidData, format!("{what}: {e}"))
    };
    let chain = CertificateDer::pem_slice_iter(crt)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid("tls.crt", &e))?;
    if chain.is_empty() {
        return Err(invalid("tls.crt", &"no certificate"));
    }
    let key = PrivateKeyDer::from_pem_slice(key).map_err(|e| invalid("tls.key", &e))?;
    CertifiedKey::from_der(chain, key, provider)
        .map(Arc::new)
        .map_err(|e| invalid("tls.crt and tls.key", &e))
}

/// A certificate for `localhost` signed by its own key, made now (the metrics server's when
/// it is given no folder, as controller-runtime's).
#[cfg(feature = "runtime")]
pub(crate) fn self_signed(provider: &CryptoProvider) -> io::Result<Arc<Reloading>> {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()])
        .map_err(io::Error::other)?;
    let pem = (
        made.cert.pem().into_bytes(),
        made.signing_key.serialize_pem().into_bytes(),
    );
    Ok(Arc::new(Reloading(RwLock::new(certified(&pem, provider)?))))
}

/// The certificate served to new connections.
#[derive(Debug)]
pub(crate) struct Reloading(RwLock<Arc<CertifiedKey>>);

impl ResolvesServerCert for Reloading {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.read().unwrap_or_else(|e| e.into_inner()).clone())
    }
}
