//! `memcached-operator`: see `--help`.

use clap::Parser;
use memcached_operator::cli::{Args, LogFormat};
use memcached_operator::operator;
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt().with_env_filter(filter);
    match args.log_format {
        LogFormat::Json => logs.json().init(),
        LogFormat::Text => logs.init(),
    }
    let client = kube::Client::try_default().await?;
    let shutdown = CancellationToken::new();
    let on_signal = shutdown.clone();
    tokio::spawn(async move {
        operator::signal().await;
        on_signal.cancel();
    });
    operator::run(client, &args, shutdown).await?;
    Ok(())
}
