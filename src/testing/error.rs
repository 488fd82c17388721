//! What can go wrong starting or using a test control plane.

use std::fmt;
use std::process::ExitStatus;
use std::time::Duration;

/// A control plane that did not start, or a request made through it that failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// `etcd` or `kube-apiserver` is not in the assets folder (or no folder is set).
    NoAssets(String),
    /// A file or process operation failed.
    Io {
        /// What was being done.
        what: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// Generating the certificates or keys failed.
    Certs(rcgen::Error),
    /// The kubeconfig (generated, or of an existing cluster) could not be loaded.
    Config(String),
    /// A control-plane process exited while it was starting or serving.
    Exited {
        /// `etcd` or `kube-apiserver`.
        component: &'static str,
        /// How it exited.
        status: ExitStatus,
        /// The last lines of its log.
        log_tail: String,
    },
    /// Something did not become ready in time.
    Timeout {
        /// What was awaited.
        what: String,
        /// How long.
        waited: Duration,
        /// The last error seen while polling.
        last: String,
    },
    /// A request to the API server failed.
    Kube(kube::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoAssets(message) | Error::Config(message) => f.write_str(message),
            Error::Io { what, source } => write!(f, "{what}: {source}"),
            Error::Certs(error) => {
                write!(f, "generating the control plane's certificates: {error}")
            }
            Error::Exited {
                component,
                status,
                log_tail,
            } => write!(
                f,
                "{component} exited ({status}); the end of its log:\n{log_tail}"
            ),
            Error::Timeout { what, waited, last } => {
                write!(f, "{what} not ready after {waited:?} (last: {last})")
            }
            Error::Kube(error) => write!(f, "API request failed: {error}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Certs(error) => Some(error),
            Error::Kube(error) => Some(error),
            _ => None,
        }
    }
}

impl From<kube::Error> for Error {
    fn from(error: kube::Error) -> Self {
        Error::Kube(error)
    }
}

impl From<rcgen::Error> for Error {
    fn from(error: rcgen::Error) -> Self {
        Error::Certs(error)
    }
}

/// An [`Error::Io`] saying what was being done.
pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
    let what = what.into();
    move |source| Error::Io { what, source }
}
