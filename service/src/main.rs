//! `caberd`: Caber's gRPC game engine server.

use std::time::Duration;

use anyhow::Context;
use caber_service::auth::Token;
use caber_service::config::{Config, LogFormat};
use caber_service::pool::SearchPool;
use caber_service::search_runner::SearchRunner;
use caber_service::{metrics, EngineService, ServerOptions};
use clap::Parser;
use tokio::sync::oneshot;
use tonic::transport::{Identity, ServerTlsConfig};
use tracing_subscriber::EnvFilter;

/// How long the transport gets to close connections once the calls are done
/// (a health `Watch` stream never ends by itself).
const CLOSE_TIMEOUT: Duration = Duration::from_millis(500);

/// How long the searches stopped at the end of the grace period get to send
/// their best result so far.
const INTERRUPT_TIMEOUT: Duration = Duration::from_secs(2);

/// mimalloc: a reply is many small strings, which glibc's malloc serves
/// slowly under load (docs/MEASUREMENTS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    init_logs(config.log_format);
    tracing::info!(config = %config.summary(), "caberd starting");
    let options = ServerOptions {
        token: config
            .auth_token_file
            .as_deref()
            .map(Token::from_file)
            .transpose()?,
        max_message_bytes: config.max_message_bytes,
        tls: tls(&config)?,
    };
    let pool = SearchPool::new(config.threads(), config.searches());
    let runner = SearchRunner::new(pool, config.caps());
    let service = EngineService::with_runner(runner.clone());
    let (router, control) = caber_service::build(service, options).context("cannot set up TLS")?;
    let shutdown = shutdown_signal()?;
    let (listener, addr) = caber_service::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    println!("caberd listening on {addr}");
    if let Some(metrics_addr) = config.metrics_listen {
        let (listener, addr) = caber_service::bind(metrics_addr)
            .await
            .with_context(|| format!("cannot listen for metrics on {metrics_addr}"))?;
        println!("caberd metrics on http://{addr}/metrics");
        tokio::spawn(metrics::serve(listener));
    }
    tracing::info!(%addr, "serving caber.v1.GameEngine, grpc.health.v1.Health and reflection");

    let (close_tx, close) = oneshot::channel::<()>();
    let mut server = tokio::spawn(caber_service::serve(router, listener, async {
        let _ = close.await;
    }));
    tokio::select! {
        result = &mut server => return Ok(result??),
        () = shutdown => {}
    }
    // Health first (a watcher learns it on its stream), then the listener
    // closes and every connection gets a GOAWAY: clients send their next
    // calls elsewhere while the calls in flight go on.
    control.stop_serving().await;
    let _ = close_tx.send(());
    let grace = Duration::from_millis(config.shutdown_grace_ms);
    tracing::info!(
        in_flight = control.in_flight(),
        "shutting down: NOT_SERVING, GOAWAY sent, finishing the calls in progress"
    );
    if tokio::time::timeout(grace, control.idle()).await.is_err() {
        tracing::warn!(
            in_flight = control.in_flight(),
            "calls still in progress after {} ms: stopping their searches, \
             which answer with their best result so far",
            grace.as_millis()
        );
        runner.interrupt();
        if tokio::time::timeout(INTERRUPT_TIMEOUT, control.idle())
            .await
            .is_err()
        {
            tracing::warn!(
                in_flight = control.in_flight(),
                "calls still in progress: exiting"
            );
        }
    }
    if let Ok(Ok(Err(e))) = tokio::time::timeout(CLOSE_TIMEOUT, server).await {
        tracing::warn!("transport error while closing: {e}");
    }
    tracing::info!("stopped");
    Ok(())
}

/// Logs to standard error in `format`, filtered by `RUST_LOG` (default
/// `info`); colours only when standard error is a terminal.
fn init_logs(format: LogFormat) {
    use std::io::IsTerminal;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().flatten_event(true).init(),
    }
}

/// The TLS configuration from `--tls-cert` and `--tls-key`, if given.
fn tls(config: &Config) -> anyhow::Result<Option<ServerTlsConfig>> {
    let (Some(cert), Some(key)) = (&config.tls_cert, &config.tls_key) else {
        return Ok(None);
    };
    let read = |p: &std::path::Path| {
        std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))
    };
    let identity = Identity::from_pem(read(cert)?, read(key)?);
    Ok(Some(ServerTlsConfig::new().identity(identity)))
}

/// A future that completes on SIGTERM (what container runtimes send) or
/// SIGINT (Ctrl-C; the only one off Unix). Both are caught from this call on:
/// it is made before the address is printed, so that a signal sent by anyone
/// who saw the address starts a graceful shutdown instead of killing the
/// process (which a signal sent at once after the address did, about one
/// time in three, while the handlers were set up only after it).
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut terminate = signal(SignalKind::terminate()).context("cannot catch SIGTERM")?;
        let mut interrupt = signal(SignalKind::interrupt()).context("cannot catch SIGINT")?;
        Ok(async move {
            tokio::select! {
                _ = terminate.recv() => {}
                _ = interrupt.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}
