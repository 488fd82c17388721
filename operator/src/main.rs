//! `memcached-operator`: see `--help`.

use clap::Parser;
use memcached_operator::cli::Args;
use memcached_operator::operator;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    args.runtime.init_logging();
    // A client whose requests `/metrics` counts (`rest_client_requests_total`).
    let client = kubegen::runtime::client(kube::Config::infer().await?)?;
    operator::run(
        client,
        &args.runtime,
        kubegen::runtime::shutdown_on_signal(),
    )
    .await?;
    Ok(())
}
