//! Caber's gRPC service: the `caber.v1.GameEngine` API over the engine's catalog.
//!
//! The service holds no game rule: [`convert`] translates between messages and
//! the engine's positions (built only through the engine's validating
//! constructors), [`engine_service`] implements the RPCs, [`search_runner`]
//! runs searches off the async runtime and [`errors`] turns engine errors into
//! gRPC statuses naming the offending field.

pub mod convert;
pub mod engine_service;
pub mod errors;
pub mod proto;
pub mod search_runner;

use std::future::Future;
use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::transport::server::Router;
use tonic::transport::Server;

pub use engine_service::EngineService;

/// A server with every Caber service added, ready to serve (more services may be added).
pub fn router(service: EngineService) -> Router {
    Server::builder().add_service(service.into_server())
}

/// Binds a TCP listener (port 0 picks a free port); returns it with the real address.
pub async fn bind(addr: SocketAddr) -> std::io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}

/// Serves `router` on `listener` until `shutdown` completes.
pub async fn serve(
    router: Router,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> Result<(), tonic::transport::Error> {
    router
        .serve_with_incoming_shutdown(TcpListenerStream::new(listener), shutdown)
        .await
}
