//! The operator's command line.

use std::net::SocketAddr;
use std::path::PathBuf;

/// How log lines are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// Runs the memcached operator: reconciles `Memcached` objects into Deployments.
#[derive(clap::Parser, Clone, Debug)]
#[command(version)]
pub struct Args {
    /// Watch only this namespace (default: all namespaces).
    #[arg(long, env = "WATCH_NAMESPACE")]
    pub namespace: Option<String>,
    /// Address of the HTTP endpoint: /healthz, /readyz and /metrics.
    #[arg(long, default_value = "0.0.0.0:8080")]
    pub http_addr: SocketAddr,
    /// Run only while holding the leader Lease, so that replicas take turns.
    #[arg(long)]
    pub leader_elect: bool,
    /// Name of the leader Lease.
    #[arg(long, default_value = "memcached-operator-leader")]
    pub leader_election_id: String,
    /// Namespace of the leader Lease (default: the client's namespace, in a pod its own).
    #[arg(long, env = "POD_NAMESPACE")]
    pub leader_election_namespace: Option<String>,
    /// This replica's name, as leader identity and event reporting instance (default: the
    /// host name).
    #[arg(long, env = "POD_NAME")]
    pub identity: Option<String>,
    /// Port of the HTTPS webhook server (defaulting, validation, conversion), on all
    /// interfaces; 0 turns the server off (the CRD's conversion and the webhook configurations
    /// then fail, so only for running without them installed).
    #[arg(long, default_value_t = 9443)]
    pub webhook_port: u16,
    /// Folder of the webhook server's certificate, `tls.crt` and `tls.key` (a mounted
    /// `kubernetes.io/tls` Secret); reloaded when the files change.
    #[arg(long, default_value = "/tmp/k8s-webhook-server/serving-certs")]
    pub webhook_cert_dir: PathBuf,
    /// Log format.
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
}

impl Args {
    /// This replica's identity: `--identity`, else the host name, else the process id.
    pub fn identity(&self) -> String {
        self.identity
            .clone()
            .or_else(|| std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()))
            .unwrap_or_else(|| format!("memcached-operator-{}", std::process::id()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn parses_the_documented_flags() {
        let args = Args::try_parse_from([
            "memcached-operator",
            "--namespace=team-a",
            "--http-addr=127.0.0.1:9090",
            "--leader-elect",
            "--identity=pod-1",
            "--log-format=json",
            "--webhook-port=0",
            "--webhook-cert-dir=/certs",
        ])
        .unwrap();
        assert_eq!(args.namespace.as_deref(), Some("team-a"));
        assert_eq!(args.http_addr.port(), 9090);
        assert!(args.leader_elect);
        assert_eq!(args.identity(), "pod-1");
        assert_eq!(args.log_format, LogFormat::Json);
        assert_eq!(args.webhook_port, 0);
        assert_eq!(args.webhook_cert_dir, PathBuf::from("/certs"));
    }

    #[test]
    fn webhooks_default_to_kubebuilders_port_and_folder() {
        let args = Args::try_parse_from(["memcached-operator"]).unwrap();
        assert_eq!(args.webhook_port, 9443);
        assert_eq!(
            args.webhook_cert_dir,
            PathBuf::from("/tmp/k8s-webhook-server/serving-certs")
        );
    }
}
