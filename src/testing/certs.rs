//! The control plane's credentials: a CA, the API server's serving certificate, the
//! service-account signing key and an admin token, written into its folder; and the serving
//! certificate of a test's webhook server.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair, KeyUsagePurpose};

use super::error::{Error, io};

/// The files the API server is started with, and what its clients need.
pub(crate) struct Credentials {
    pub ca_cert: PathBuf,
    pub serving_cert: PathBuf,
    pub serving_key: PathBuf,
    pub sa_public: PathBuf,
    pub sa_private: PathBuf,
    pub token_file: PathBuf,
    /// The bearer token of the admin user (group `system:masters`).
    pub admin_token: String,
}

/// The names the serving certificate is valid for: loopback, and the in-cluster names of the
/// `kubernetes` Service (its ClusterIP is the first of `10.0.0.0/24`).
const SERVING_NAMES: [&str; 6] = [
    "127.0.0.1",
    "localhost",
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
    "10.0.0.1",
];

/// A new CA named `name`.
fn ca(name: &str) -> Result<CertifiedIssuer<'static, KeyPair>, Error> {
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    Ok(CertifiedIssuer::self_signed(params, KeyPair::generate()?)?)
}

/// A serving certificate for `names` signed by `ca`, and its key, both PEM.
fn serving(names: &[&str], ca: &CertifiedIssuer<'_, KeyPair>) -> Result<(String, String), Error> {
    let key = KeyPair::generate()?;
    let params = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())?;
    Ok((params.signed_by(&key, ca)?.pem(), key.serialize_pem()))
}

/// Writes `tls.crt` and `tls.key` for `127.0.0.1`, signed by a new CA, into `dir` (what a
/// webhook server's `--webhook-cert-dir` holds); returns the CA's PEM.
pub(crate) fn webhook_serving(dir: &Path) -> Result<String, Error> {
    let ca = ca("kubegen-testing-webhook-ca")?;
    let (cert, key) = serving(&["127.0.0.1"], &ca)?;
    for (name, contents) in [("tls.crt", &cert), ("tls.key", &key)] {
        let path = dir.join(name);
        std::fs::write(&path, contents).map_err(io(format!("writing {}", path.display())))?;
    }
    Ok(ca.pem())
}

/// Generates the credentials and writes them into `dir`.
pub(crate) fn write(dir: &Path) -> Result<Credentials, Error> {
    let ca = ca("kubegen-testing-ca")?;
    let (serving_cert, serving_key) = serving(&SERVING_NAMES, &ca)?;

    let sa_key = KeyPair::generate()?;
    let admin_token = token();

    let file = |name: &str, contents: &str| {
        let path = dir.join(name);
        std::fs::write(&path, contents).map_err(io(format!("writing {}", path.display())))?;
        Ok::<_, Error>(path)
    };
    Ok(Credentials {
        ca_cert: file("ca.crt", &ca.pem())?,
        serving_cert: file("apiserver.crt", &serving_cert)?,
        serving_key: file("apiserver.key", &serving_key)?,
        sa_public: file("sa.pub", &sa_key.public_key_pem())?,
        sa_private: file("sa.key", &sa_key.serialize_pem())?,
        // The static token file's columns: token, user name, uid, groups.
        token_file: file(
            "tokens.csv",
            &format!("{admin_token},kubegen-admin,kubegen-admin,\"system:masters\"\n"),
        )?,
        admin_token,
    })
}

/// A random bearer token: 128 bits from the standard library's randomly seeded hasher, which
/// is enough for a server that listens on loopback for one test process.
fn token() -> String {
    (0..2)
        .map(|_| format!("{:016x}", RandomState::new().build_hasher().finish()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ() {
        assert_ne!(token(), token());
        assert_eq!(token().len(), 32);
    }
}
