//! Caber's gRPC service: the `caber.v1.GameEngine` API over the engine.
//!
//! The service holds no game rule: [`games`] has one adapter per game that
//! translates its messages to the engine's typed positions and moves (built
//! only through the engine's validating constructors) and back, and the
//! registry of them; [`convert`] translates the game-independent parts;
//! [`engine_service`] implements the RPCs, [`search_runner`] runs searches
//! on the dedicated [`pool`] within the server's caps, [`review`] judges
//! recorded games move by move, and [`errors`] turns
//! engine errors into gRPC statuses naming the offending field. Around them: [`call_layer`] (per-call logs and [`metrics`], the
//! [`auth`] token check, API calls in flight; [`process_metrics`]), `grpc.health.v1`
//! health checking and server reflection (`v1` and `v1alpha`), and
//! [`transport`]'s bounds on what one client may hold (connections, streams,
//! request bytes and time), and in front of them [`browser`]'s gRPC-Web and CORS; [`updates`] feeds server streams without
//! waiting on a client that stops reading; [`config`] is `caberd`'s command line.

pub mod auth;
pub mod browser;
pub mod call_layer;
pub mod codec;
pub mod config;
pub mod convert;
pub mod engine_service;
pub mod errors;
pub mod games;
pub mod kept_tables;
pub mod metrics;
pub mod pool;
pub mod process_metrics;
pub mod proto;
pub mod review;
pub mod search_runner;
pub mod transport;
pub mod updates;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tonic::transport::server::Router;
use tonic::transport::{Server, ServerTlsConfig};
use tonic_health::server::HealthReporter;
use tonic_health::ServingStatus;
use tower::layer::util::{Identity, Stack};

pub use engine_service::EngineService;
/// The health checking crate, re-exported for clients (its `pb::health_client`).
pub use tonic_health;

use crate::auth::Token;
use crate::browser::{BrowserLayers, Origins};
use crate::call_layer::{CallGate, CallLayer};
use crate::proto::game_engine_server::GameEngineServer;
use crate::transport::connections::{self, Incoming};
use crate::transport::request_body::RequestBodyLayer;
pub use crate::transport::TransportLimits;

/// The full name of the API service, as health checking and reflection know it.
pub const API_SERVICE: &str = "caber.v1.GameEngine";

/// A server with every Caber service added, the call layer around them, the
/// request body limits inside it and the browser layers outside.
pub type ApiRouter =
    Router<Stack<RequestBodyLayer, Stack<CallLayer, Stack<BrowserLayers, Identity>>>>;

/// How the server is put together beyond the engine service.
#[derive(Clone, Debug, Default)]
pub struct ServerOptions {
    /// The bearer token API calls must carry, if any.
    pub token: Option<Token>,
    /// What one client may hold: connections, streams, request bytes and time.
    pub limits: TransportLimits,
    /// TLS, if the server should speak it.
    pub tls: Option<ServerTlsConfig>,
    /// The origins of pages that may call from a browser (CORS).
    pub cors_origins: Origins,
    /// Serve the analysis board at `/` ([`browser::page`]).
    pub web: bool,
}

/// Handles to a built server: its health statuses and its call gate.
#[derive(Clone, Debug)]
pub struct Control {
    health: HealthReporter,
    gate: Arc<CallGate>,
}

impl Control {
    /// Health turns `NOT_SERVING` (for `""` and [`API_SERVICE`]): the first
    /// step of a graceful shutdown, before the [`serve`] shutdown signal
    /// closes the listener and sends every connection an HTTP/2 GOAWAY (the
    /// calls in flight go on; clients open their next calls elsewhere).
    pub async fn stop_serving(&self) {
        for name in ["", API_SERVICE] {
            self.health
                .set_service_status(name, ServingStatus::NotServing)
                .await;
        }
    }

    /// API calls in progress.
    pub fn in_flight(&self) -> usize {
        self.gate.in_flight()
    }

    /// Completes when no API call is in progress.
    pub async fn idle(&self) {
        self.gate.idle().await
    }
}

/// A server with every Caber service added, without TLS or token, ready to serve.
pub fn router(service: EngineService) -> ApiRouter {
    build(service, ServerOptions::default())
        .map(|(router, _)| router)
        .unwrap_or_else(|_| unreachable!("only the TLS configuration can fail"))
}

/// A server with every Caber service added: the engine API, health checking
/// (both [`API_SERVICE`] and `""` serving) and reflection `v1` and `v1alpha`,
/// behind the [`CallLayer`] and the [`RequestBodyLayer`], gRPC-Web and CORS
/// in front of them (HTTP/1.1 accepted for gRPC-Web) and the analysis board
/// if `options.web`, with the HTTP/2
/// settings of `options.limits` (streams per connection, flow-control
/// windows, keepalive pings). Fails only on a bad TLS configuration.
pub fn build(
    service: EngineService,
    options: ServerOptions,
) -> Result<(ApiRouter, Control), tonic::transport::Error> {
    let (health, health_service) = tonic_health::server::health_reporter();
    set_now(&health, API_SERVICE, ServingStatus::Serving);
    let gate = Arc::new(CallGate::default());
    let limits = &options.limits;
    let api = GameEngineServer::new(service).max_decoding_message_size(limits.max_message_bytes);
    let reflection = || {
        // Both reflection versions list (and describe) both reflection services.
        tonic_reflection::server::Builder::configure()
            .include_reflection_service(false)
            .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            )
    };
    let reflection_v1 = reflection()
        .build_v1()
        .expect("the compiled-in descriptor sets are valid");
    let reflection_v1alpha = reflection()
        .build_v1alpha()
        .expect("the compiled-in descriptor sets are valid");
    let mut server = Server::builder()
        .accept_http1(true)
        .max_concurrent_streams(limits.max_streams_per_connection)
        .initial_stream_window_size(transport::STREAM_WINDOW)
        .initial_connection_window_size(transport::CONNECTION_WINDOW)
        .http2_keepalive_interval(Some(limits.keepalive_interval))
        .http2_keepalive_timeout(Some(limits.keepalive_timeout));
    if let Some(tls) = options.tls {
        server = server.tls_config(tls)?;
    }
    let router = server
        .layer(browser::layers(&options.cors_origins, options.web))
        .layer(CallLayer::new(
            gate.clone(),
            options.token,
            limits.max_calls,
        ))
        .layer(RequestBodyLayer::new(limits))
        .add_service(api)
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha);
    Ok((router, Control { health, gate }))
}

/// Sets a health status of a reporter nobody else holds yet: its lock is free,
/// so the update completes on its first poll.
fn set_now(health: &HealthReporter, name: &str, status: ServingStatus) {
    let mut update = std::pin::pin!(health.set_service_status(name, status));
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let done = update.as_mut().poll(&mut cx).is_ready();
    debug_assert!(done, "a fresh health reporter is never locked");
}

/// Binds a TCP listener (port 0 picks a free port); returns it with the real address.
pub async fn bind(addr: SocketAddr) -> std::io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}

/// Serves `router` on `listener` until `shutdown` completes, with the
/// default connection limits: see [`serve_with`].
pub async fn serve(
    router: ApiRouter,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> Result<(), tonic::transport::Error> {
    serve_with(router, listener, &TransportLimits::default(), shutdown).await
}

/// Serves `router` on `listener` until `shutdown` completes: at most
/// `limits.max_connections` connections (within the process's file limit)
/// and [`TransportLimits::per_address`] from one address, each closed when
/// idle (no call within `limits.idle_timeout` of its start, or
/// `limits.max_connection_idle` after its last call), with
/// `TCP_NODELAY` (without it, small responses wait for delayed ACKs, ~40 ms).
pub async fn serve_with(
    router: ApiRouter,
    listener: TcpListener,
    limits: &TransportLimits,
    shutdown: impl Future<Output = ()>,
) -> Result<(), tonic::transport::Error> {
    let max = connections::connections_within_file_limit(limits.max_connections);
    if max < limits.max_connections {
        tracing::warn!(
            max_connections = max,
            "--max-connections {} lowered to {max} to fit the open-files limit \
             (raise it with ulimit -n, or the container's nofile limit)",
            limits.max_connections
        );
    }
    let idle = connections::Idle {
        first_call: limits.idle_timeout,
        between_calls: limits.max_connection_idle,
    };
    let incoming = Incoming::new(listener, max, limits.per_address(max), idle);
    router
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await
}
