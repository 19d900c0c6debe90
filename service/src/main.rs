//! `caberd`: Caber's gRPC game engine server.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use caber_service::EngineService;
use clap::Parser;
use tokio::sync::oneshot;
use tracing_subscriber::EnvFilter;

/// Caber's gRPC game engine server (caber.v1.GameEngine).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, env = "CABER_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Time in milliseconds that calls in progress get to finish after SIGTERM or Ctrl-C.
    #[arg(long, default_value_t = 10_000)]
    shutdown_grace_ms: u64,
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
    let (stopping_tx, stopping) = oneshot::channel();
    let signal = async {
        shutdown_signal().await;
        let _ = stopping_tx.send(());
    };
    let serve = caber_service::serve(
        caber_service::router(EngineService::new()),
        listener,
        signal,
    );
    let grace = Duration::from_millis(args.shutdown_grace_ms);
    let grace_over = async {
        match stopping.await {
            Ok(()) => tokio::time::sleep(grace).await,
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        result = serve => result?,
        () = grace_over => tracing::warn!("calls still in progress after {grace:?}: stopping anyway"),
    }
    tracing::info!("stopped");
    Ok(())
}

/// Completes on Ctrl-C or (on Unix) SIGTERM, as container runtimes send.
async fn shutdown_signal() {
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing the calls in progress");
}
