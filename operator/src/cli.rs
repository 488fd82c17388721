//! The operator's command line: kubegen's runtime options (namespace, HTTP endpoint, leader
//! election, log format, webhook server).

use kubegen::runtime::Options;

/// Runs the memcached operator: reconciles `Memcached` objects into Deployments, and serves
/// their defaulting, validating and conversion webhooks.
#[derive(clap::Parser, Clone, Debug)]
#[command(version)]
pub struct Args {
    /// The runtime's options.
    #[command(flatten)]
    pub runtime: Options,
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use clap::Parser;
    use kubegen::runtime::LogFormat;

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
        .unwrap()
        .runtime;
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
        let args = Args::try_parse_from(["memcached-operator"])
            .unwrap()
            .runtime;
        assert_eq!(args.webhook_port, 9443);
        assert_eq!(
            args.webhook_cert_dir,
            PathBuf::from("/tmp/k8s-webhook-server/serving-certs")
        );
    }
}
