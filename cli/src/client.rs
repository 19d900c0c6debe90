//! The gRPC client: connected to a running `caberd`, or to the same service
//! started in this process behind an in-memory transport.

use std::io;

use anyhow::Context;
use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::EngineService;
use hyper_util::rt::TokioIo;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Channel, Endpoint, Uri};
use tower::service_fn;

/// The generated client, whatever the transport.
pub type Client = GameEngineClient<Channel>;

/// Connects to `server` (a URL such as `http://127.0.0.1:50051`; the scheme
/// may be left out), or without one to an in-process service.
pub async fn connect(server: Option<&str>) -> anyhow::Result<Client> {
    Ok(GameEngineClient::new(channel(server).await?))
}

/// A connection to `server`, or without one to an in-process service (for
/// clients of other services too, such as health checking).
pub async fn channel(server: Option<&str>) -> anyhow::Result<Channel> {
    match server {
        Some(url) => remote(url).await,
        None => in_process().await,
    }
}

async fn remote(url: &str) -> anyhow::Result<Channel> {
    let full = if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    };
    let endpoint = Endpoint::from_shared(full).with_context(|| format!("--server {url}"))?;
    let channel = endpoint
        .connect()
        .await
        .with_context(|| format!("cannot connect to {url}"))?;
    Ok(channel)
}

/// Starts the service in this process; each connection is an in-memory pipe.
async fn in_process() -> anyhow::Result<Channel> {
    let (connections, incoming) = mpsc::channel::<io::Result<tokio::io::DuplexStream>>(1);
    tokio::spawn(
        caber_service::router(EngineService::new())
            .serve_with_incoming(ReceiverStream::new(incoming)),
    );
    let channel = Endpoint::from_static("http://in-process.caber")
        .connect_with_connector(service_fn(move |_: Uri| {
            let connections = connections.clone();
            async move {
                let (client, server) = tokio::io::duplex(64 * 1024);
                connections
                    .send(Ok(server))
                    .await
                    .map_err(|_| io::Error::other("the in-process service stopped"))?;
                Ok::<_, io::Error>(TokioIo::new(client))
            }
        }))
        .await
        .context("cannot start the in-process service")?;
    Ok(channel)
}
