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

/// The end of the grace period kept for closing connections once the calls
/// are done (a health `Watch` stream never ends by itself); at most a tenth
/// of the grace period.
const CLOSE_RESERVE: Duration = Duration::from_millis(500);

/// The end of the grace period kept, before [`CLOSE_RESERVE`], for searches
/// stopped then to send their best result so far; at most a tenth of it.
const INTERRUPT_RESERVE: Duration = Duration::from_secs(1);

/// mimalloc: a reply is many small strings, which glibc's malloc serves
/// slowly under load (docs/MEASUREMENTS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    std::thread::Builder::new()
        .name("caber-memory".into())
        .spawn(|| loop {
            std::thread::sleep(Duration::from_secs(1));
            // SAFETY: mi_collect takes no pointer; it purges freed memory.
            unsafe { libmimalloc_sys::mi_collect(false) };
        })
        .context("cannot start a thread")?;
    let config = Config::parse();
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.workers())
        .enable_all()
        .on_thread_park(release_free_memory)
        .build()
        .context("cannot start the async runtime")?
        .block_on(serve(config))
}

/// Gives the memory this thread freed back to mimalloc's shared arenas:
/// called when a runtime thread has nothing to do. mimalloc keeps a thread's
/// freed pages for its next allocations, so a thread that goes idle after a
/// burst (a flood of connections or streams) would keep them for good; the
/// thread started in `main` then purges the arenas once a second (mimalloc
/// purges them only when some thread calls into it). Together they take the
/// RSS back from 108 MB after 1,000 connections to about 20 MB; either alone
/// keeps about 65 MB. The cheap collection runs at every park, the full one
/// at most once a second (at every park it costs 60% more CPU per call);
/// docs/MEASUREMENTS.md.
fn release_free_memory() {
    use std::cell::Cell;
    use std::time::Instant;
    thread_local!(static LAST_FULL: Cell<Option<Instant>> = const { Cell::new(None) });
    // SAFETY: mi_collect takes no pointer; it collects the calling thread's heap.
    unsafe { libmimalloc_sys::mi_collect(false) };
    LAST_FULL.with(|last| {
        if last
            .get()
            .is_none_or(|t| t.elapsed() >= Duration::from_secs(1))
        {
            last.set(Some(Instant::now()));
            // SAFETY: as above.
            unsafe { libmimalloc_sys::mi_collect(true) };
        }
    });
}

async fn serve(config: Config) -> anyhow::Result<()> {
    init_logs(config.log_format);
    tracing::info!(config = %config.summary(), "caberd starting");
    let options = ServerOptions {
        token: config
            .auth_token_file
            .as_deref()
            .map(Token::from_file)
            .transpose()?,
        limits: config.transport(),
        tls: tls(&config)?,
        cors_origins: config.origins(),
        web: config.web,
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
    if config.web {
        let scheme = if config.tls_cert.is_some() {
            "https"
        } else {
            "http"
        };
        println!("caberd analysis board on {scheme}://{addr}/");
    }
    tracing::info!(%addr, "serving caber.v1.GameEngine, grpc.health.v1.Health and reflection");

    let (close_tx, close) = oneshot::channel::<()>();
    let limits = config.transport();
    let mut server = tokio::spawn(async move {
        caber_service::serve_with(router, listener, &limits, async {
            let _ = close.await;
        })
        .await
    });
    tokio::select! {
        result = &mut server => return Ok(result??),
        () = shutdown => {}
    }
    // Health first (a watcher learns it on its stream), then the listener
    // closes and every connection gets a GOAWAY: clients send their next
    // calls elsewhere while the calls in flight go on.
    control.stop_serving().await;
    let _ = close_tx.send(());
    // Everything below ends within the grace period: the calls in progress
    // get it all but the reserves, searches still running are then stopped
    // (they answer with their best result so far), and the process exits at
    // its end whatever a client still holds.
    let grace = Duration::from_millis(config.shutdown_grace_ms);
    let started = tokio::time::Instant::now();
    let left = || grace.saturating_sub(started.elapsed());
    tracing::info!(
        in_flight = control.in_flight(),
        "shutting down: NOT_SERVING, GOAWAY sent, finishing the calls in progress"
    );
    let close_reserve = CLOSE_RESERVE.min(grace / 10);
    let interrupt_after = grace
        .saturating_sub(INTERRUPT_RESERVE.min(grace / 10))
        .saturating_sub(close_reserve);
    if tokio::time::timeout(interrupt_after, control.idle())
        .await
        .is_err()
    {
        tracing::warn!(
            in_flight = control.in_flight(),
            "calls still in progress {} ms into the {} ms grace period: stopping their \
             searches, which answer with their best result so far",
            started.elapsed().as_millis(),
            grace.as_millis()
        );
        runner.interrupt();
        let wait = left().saturating_sub(close_reserve);
        if tokio::time::timeout(wait, control.idle()).await.is_err() {
            tracing::warn!(
                in_flight = control.in_flight(),
                "calls still in progress at the end of the grace period: exiting"
            );
        }
    }
    if let Ok(Ok(Err(e))) = tokio::time::timeout(left(), server).await {
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
    let key_pem = read(key)?;
    caber_service::config::check_tls_key(key, &key_pem)?;
    let identity = Identity::from_pem(read(cert)?, key_pem);
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
