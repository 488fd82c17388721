//! The webhook server (feature `webhook`): admission and conversion webhooks over HTTPS.
//!
//! A [`Server`] routes each handler by the path `kubegen_core::webhook::route` gives its
//! `#[webhook]` attributes, the function `gen-cli` writes `config/webhook/manifests.yaml`
//! with, so the two cannot drift. `#[webhook]` on a free `fn` emits a module of the same name
//! whose `webhooks()` returns the models.
//!
//! - [`Server::validate`]: `Fn(&K, Option<&K>) -> Result<(), Denied>`, the new object and,
//!   on update, the old one.
//! - [`Server::mutate`]: `Fn(&mut K)`; the JSON patch from the object received to the object
//!   returned is computed for you ([`patch`]).
//! - [`Server::convert`]: a [`Conversion`] through a hub version, with `From`/`TryFrom`
//!   between the version types.
//! - `/healthz` answers `ok`.
//!
//! [`Server::serve`] listens with the certificate of a folder ([`CertDir`]: `tls.crt` and
//! `tls.key`, as cert-manager mounts a Secret) and reloads it when the files change. A
//! malformed review is a `400`; an object of another kind, one that does not deserialize or
//! a handler that panics is a denial (a failed conversion), never a crash.
//!
//! The book's "Webhooks and conversion" (`docs/book/src/guides/webhooks.md`) shows the bundled
//! operator's server; `tests/webhook_server.rs` runs
//! one over HTTPS.

mod admission;
mod conversion;
pub mod patch;
mod server;

pub use crate::https::CertDir;
pub use conversion::Conversion;
pub use kubegen_core::webhook::Webhook;
pub use server::Server;

use std::fmt;

/// Why a validating handler rejects an object: the message the API server shows the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denied {
    /// The message.
    pub message: String,
    /// The HTTP code in the response's status; default 403 (Forbidden).
    pub code: u16,
}

impl Denied {
    /// A denial with this message and code 403.
    pub fn new(message: impl Into<String>) -> Self {
        Denied {
            message: message.into(),
            code: 403,
        }
    }

    /// The same denial with another HTTP code (such as 422).
    #[must_use]
    pub fn with_code(mut self, code: u16) -> Self {
        self.code = code;
        self
    }
}

impl fmt::Display for Denied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Denied {}

impl From<String> for Denied {
    fn from(message: String) -> Self {
        Denied::new(message)
    }
}

impl From<&str> for Denied {
    fn from(message: &str) -> Self {
        Denied::new(message)
    }
}
