//! The runtime's command-line options.

use std::net::SocketAddr;

/// How log lines are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// The options every operator takes; `#[command(flatten)]` them into your `clap::Parser`.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Watch only this namespace (default: all namespaces).
    #[arg(long, env = "WATCH_NAMESPACE")]
    pub namespace: Option<String>,
    /// Address of the HTTP endpoint: /healthz, /readyz and /metrics.
    #[arg(long, default_value = "0.0.0.0:8080")]
    pub http_addr: SocketAddr,
    /// Serve /metrics on this address instead (`0.0.0.0:8443`, say), on its own: over HTTPS
    /// to authorized callers unless `--metrics-secure=false`.
    #[arg(long)]
    pub metrics_bind_address: Option<SocketAddr>,
    /// With `--metrics-bind-address`: serve /metrics over HTTPS, only to callers whose bearer
    /// token the API server authenticates (TokenReview) and authorizes for `get` on
    /// `/metrics` (SubjectAccessReview); `--metrics-secure=false` serves plain HTTP to anyone.
    #[arg(
        long,
        default_value_t = true,
        action = clap::ArgAction::Set,
        num_args = 0..=1,
        default_missing_value = "true"
    )]
    pub metrics_secure: bool,
    /// Folder of the secured metrics server's `tls.crt` and `tls.key` (a mounted
    /// `kubernetes.io/tls` Secret), reloaded when they change (default: a self-signed
    /// certificate made at start).
    #[arg(long)]
    pub metrics_cert_dir: Option<std::path::PathBuf>,
    /// Run the controllers only while holding the leader Lease, so that replicas take turns.
    #[arg(long)]
    pub leader_elect: bool,
    /// Name of the leader Lease, a DNS subdomain (default: the binary's name followed by
    /// `-leader`, made one).
    #[arg(long, value_parser = lease_name)]
    pub leader_election_id: Option<String>,
    /// Namespace of the leader Lease (default: the client's namespace, in a pod its own).
    #[arg(long, env = "POD_NAMESPACE")]
    pub leader_election_namespace: Option<String>,
    /// This replica's name, as leader identity (default: the host name).
    #[arg(long, env = "POD_NAME")]
    pub identity: Option<String>,
    /// Log format.
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Port of the HTTPS webhook server (defaulting, validation, conversion), when the
    /// operator serves webhooks; 0 turns the server off (say, to run locally without a
    /// certificate: the API server's calls then fail).
    #[cfg(feature = "webhook")]
    #[arg(long, env = "WEBHOOK_PORT", default_value_t = 9443)]
    pub webhook_port: u16,
    /// Address the webhook server binds `--webhook-port` on (default: all IPv4 interfaces;
    /// `::` for IPv6 too, `127.0.0.1` for local calls only).
    #[cfg(feature = "webhook")]
    #[arg(long, env = "WEBHOOK_HOST", default_value = "0.0.0.0")]
    pub webhook_host: std::net::IpAddr,
    /// Folder with the webhook server's `tls.crt` and `tls.key` (a mounted
    /// `kubernetes.io/tls` Secret, cert-manager's layout); reloaded when the files change.
    #[cfg(feature = "webhook")]
    #[arg(long, default_value = "/tmp/k8s-webhook-server/serving-certs")]
    pub webhook_cert_dir: std::path::PathBuf,
}

impl Options {
    /// This replica's identity: `--identity`, else the host name, else the binary's name and
    /// the process id.
    pub fn identity(&self) -> String {
        self.identity
            .clone()
            .or_else(|| std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()))
            .unwrap_or_else(|| format!("{}-{}", binary_name(), std::process::id()))
    }

    /// The leader Lease's name: `--leader-election-id`, else `<binary>-leader`, lowercased and
    /// with what a Lease's name cannot hold turned into `-` (`my_operator` leads as
    /// `my-operator-leader`).
    pub fn leader_election_id(&self) -> String {
        self.leader_election_id
            .clone()
            .unwrap_or_else(|| default_lease_name(&binary_name()))
    }

    /// Installs the global `tracing` subscriber: `--log-format`, filtered by `RUST_LOG`
    /// (default `info`), on standard output, in colors only when that is a terminal and
    /// `NO_COLOR` is not set. Call it once, first thing in `main`.
    pub fn init_logging(&self) {
        use std::io::IsTerminal;
        use tracing_subscriber::EnvFilter;
        let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
        let ansi = colors(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR"),
        );
        let logs = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(ansi);
        match self.log_format {
            LogFormat::Json => logs.json().init(),
            LogFormat::Text => logs.init(),
        }
    }
}

/// Whether log lines get ANSI colors: on a terminal, unless `NO_COLOR` is set to anything but
/// the empty string (no-color.org); never in a file or a pipe.
fn colors(terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

/// The running binary's file name, without extension.
fn binary_name() -> String {
    std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "operator".to_string())
}

/// `--leader-election-id`: a Lease's name is a DNS subdomain, or the API server refuses it.
fn lease_name(name: &str) -> Result<String, String> {
    match kubegen_core::names::is_dns_subdomain(name) {
        true => Ok(name.to_string()),
        false => Err(format!(
            "`{name}` cannot name a Lease: use lowercase letters, digits, `-` and `.`, \
             starting and ending with a letter or digit, at most 253 characters"
        )),
    }
}

/// `<binary>-leader` as a DNS subdomain: [`dashed`](kubegen_core::names::dashed), at most 253
/// characters.
fn default_lease_name(binary: &str) -> String {
    const SUFFIX: &str = "-leader";
    let mut name = kubegen_core::names::dashed(binary);
    name.truncate(253 - SUFFIX.len());
    let name = name.trim_end_matches('-');
    match name.is_empty() {
        true => format!("operator{SUFFIX}"),
        false => format!("{name}{SUFFIX}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Args {
        #[command(flatten)]
        runtime: Options,
        #[arg(long)]
        mine: bool,
    }

    #[test]
    fn flattens_into_a_parser_with_the_documented_flags() {
        let args = Args::try_parse_from([
            "op",
            "--namespace=team-a",
            "--http-addr=127.0.0.1:9090",
            "--leader-elect",
            "--leader-election-id=op-lock",
            "--identity=pod-1",
            "--log-format=json",
            "--metrics-bind-address=0.0.0.0:8443",
            "--metrics-secure=false",
            "--metrics-cert-dir=/certs",
            "--mine",
        ])
        .unwrap();
        let o = &args.runtime;
        assert_eq!(o.namespace.as_deref(), Some("team-a"));
        assert_eq!(o.http_addr.port(), 9090);
        assert!(o.leader_elect && args.mine);
        assert_eq!(o.leader_election_id(), "op-lock");
        assert_eq!(o.identity(), "pod-1");
        assert_eq!(o.log_format, LogFormat::Json);
        assert_eq!(o.metrics_bind_address.unwrap().port(), 8443);
        assert!(!o.metrics_secure);
        assert_eq!(o.metrics_cert_dir.as_deref(), Some("/certs".as_ref()));
        let bare = Args::try_parse_from(["op", "--metrics-secure"]).unwrap();
        assert!(bare.runtime.metrics_secure, "a bare flag turns it on");
    }

    #[test]
    fn defaults() {
        let o = Args::try_parse_from(["op"]).unwrap().runtime;
        assert_eq!(o.http_addr.to_string(), "0.0.0.0:8080");
        assert!(!o.leader_elect);
        assert!(o.leader_election_id().ends_with("-leader"));
        assert!(kubegen_core::names::is_dns_subdomain(
            &o.leader_election_id()
        ));
        assert_eq!(o.log_format, LogFormat::Text);
        assert_eq!(
            o.metrics_bind_address, None,
            "/metrics beside the health endpoints"
        );
        assert!(o.metrics_secure);
    }

    /// The default Lease name is one the API server accepts, whatever the binary is called
    /// (a test binary is `cluster_restart-<hash>`).
    #[test]
    fn the_default_lease_name_is_a_dns_subdomain() {
        for (binary, lease) in [
            ("memcached-operator", "memcached-operator-leader"),
            (
                "cluster_restart-86398e1125f1e63e",
                "cluster-restart-86398e1125f1e63e-leader",
            ),
            ("My__Operator.", "my-operator-leader"),
            ("_", "operator-leader"),
            ("Ölmotor", "lmotor-leader"),
        ] {
            assert_eq!(default_lease_name(binary), lease);
            assert!(kubegen_core::names::is_dns_subdomain(lease));
        }
        let long = default_lease_name(&"x".repeat(400));
        assert_eq!(long.len(), 253);
        assert!(kubegen_core::names::is_dns_subdomain(&long));
    }

    #[test]
    fn colors_only_on_a_terminal_without_no_color() {
        assert!(colors(true, None));
        assert!(!colors(false, None), "a file or a pipe");
        assert!(!colors(true, Some("1".into())));
        assert!(colors(true, Some("".into())), "an empty NO_COLOR is unset");
    }

    #[test]
    fn a_lease_name_the_api_server_refuses_is_a_usage_error() {
        let refused = Args::try_parse_from(["op", "--leader-election-id", "My_Lock"])
            .err()
            .expect("refused");
        assert!(
            refused.to_string().contains("cannot name a Lease"),
            "{refused}"
        );
        let ok = Args::try_parse_from(["op", "--leader-election-id", "op-lock.example"]).unwrap();
        assert_eq!(ok.runtime.leader_election_id(), "op-lock.example");
    }
}
