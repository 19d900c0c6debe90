//! `caberd`: Caber's gRPC game engine server.

use std::net::SocketAddr;

use anyhow::Context;
use caber_service::EngineService;
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// Caber's gRPC game engine server (caber.v1.GameEngine).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, env = "CABER_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    let (listener, addr) = caber_service::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    println!("caberd listening on {addr}");
    tracing::info!(%addr, "serving caber.v1.GameEngine");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
    };
    caber_service::serve(
        caber_service::router(EngineService::new()),
        listener,
        shutdown,
    )
    .await?;
    Ok(())
}
