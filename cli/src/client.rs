//! The gRPC client: connected to a running `caberd`, or to the same service
//! started in this process behind an in-memory transport.

use std::io;
use std::path::PathBuf;

use anyhow::Context;
use caber_service::auth::Token;
use caber_service::pool::SearchPool;
use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::search_runner::{Caps, SearchRunner};
use caber_service::EngineService;
use hyper_util::rt::TokioIo;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::interceptor::InterceptedService;
use tonic::service::Interceptor;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Uri};
use tonic::{Request, Status};
use tower::service_fn;

/// The generated client, whatever the transport, sending the token if any.
pub type Client = GameEngineClient<InterceptedService<Channel, Auth>>;

/// Where the service is and how to reach it.
#[derive(Clone, Debug, Default)]
pub struct Target {
    /// URL of a running caberd (`http://` or `https://`; the scheme may be
    /// left out for `http`); `None`: the service in this process.
    pub server: Option<String>,
    /// PEM certificate(s) to trust for TLS instead of the system's roots.
    pub tls_ca: Option<PathBuf>,
    /// File holding the bearer token of the API.
    pub token_file: Option<PathBuf>,
}

/// Adds `authorization: Bearer <token>` to every call when a token is set.
#[derive(Clone, Debug, Default)]
pub struct Auth(Option<MetadataValue<Ascii>>);

impl Auth {
    /// The token of `target`, read from its file.
    pub fn of(target: &Target) -> anyhow::Result<Self> {
        let Some(path) = &target.token_file else {
            return Ok(Self(None));
        };
        let token = Token::from_file(path)?;
        let value = token
            .header_value()
            .parse()
            .map_err(|_| anyhow::anyhow!("the token in {} is not ASCII text", path.display()))?;
        Ok(Self(Some(value)))
    }

    /// The `authorization` header value, if a token is set.
    pub fn header(&self) -> Option<&str> {
        self.0.as_ref().and_then(|v| v.to_str().ok())
    }
}

impl Interceptor for Auth {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        if let Some(value) = &self.0 {
            request
                .metadata_mut()
                .insert("authorization", value.clone());
        }
        Ok(request)
    }
}

/// The API client of `target`.
pub async fn connect(target: &Target) -> anyhow::Result<Client> {
    Ok(api(channel(target).await?, Auth::of(target)?))
}

/// The API client over `channel`, sending `auth`.
pub fn api(channel: Channel, auth: Auth) -> Client {
    GameEngineClient::with_interceptor(channel, auth)
}

/// A connection to `target` (for clients of other services too, such as
/// health checking).
pub async fn channel(target: &Target) -> anyhow::Result<Channel> {
    match &target.server {
        Some(url) => remote(url, target).await,
        None => in_process().await,
    }
}

async fn remote(url: &str, target: &Target) -> anyhow::Result<Channel> {
    let full = if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    };
    let mut endpoint =
        Endpoint::from_shared(full.clone()).with_context(|| format!("--server {url}"))?;
    if full.starts_with("https://") {
        let tls = match &target.tls_ca {
            Some(path) => {
                let pem = std::fs::read(path)
                    .with_context(|| format!("cannot read --tls-ca {}", path.display()))?;
                ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem))
            }
            None => ClientTlsConfig::new().with_native_roots(),
        };
        endpoint = endpoint.tls_config(tls).context("TLS configuration")?;
    } else if target.tls_ca.is_some() {
        anyhow::bail!("--tls-ca needs an https:// server URL, not {url}");
    }
    let channel = endpoint
        .connect()
        .await
        .with_context(|| format!("cannot connect to {url}"))?;
    Ok(channel)
}

/// Starts the service in this process; each connection is an in-memory pipe.
/// Its searches have no server maximum of time (`Caps::in_process`): the
/// user of this process asks for the search and stops it.
async fn in_process() -> anyhow::Result<Channel> {
    let (connections, incoming) = mpsc::channel::<io::Result<tokio::io::DuplexStream>>(1);
    let runner = SearchRunner::new(SearchPool::for_this_machine(), Caps::in_process());
    tokio::spawn(
        caber_service::router(EngineService::with_runner(runner))
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

/// How to fix a connection failure the transport explains badly, if `error`
/// is one: a self-signed CA certificate (rustls accepts no CA certificate as
/// a server's own), or plaintext sent to a TLS port.
pub fn hint(error: &anyhow::Error, target: &Target) -> Option<String> {
    let text = format!("{error:#} {error:?}");
    if text.contains("CaUsedAsEndEntity") {
        return Some(
            "the server's certificate is a CA certificate (CA:TRUE, as `openssl req -x509` \
             makes by default); caber trusts a self-signed server certificate given with \
             --tls-ca only if it is not a CA: make one with `openssl req -x509 -newkey ec \
             -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout key.pem -out cert.pem -days 365 \
             -subj /CN=HOST -addext subjectAltName=DNS:HOST \
             -addext basicConstraints=critical,CA:FALSE` (docs/SERVICE.md, TLS)"
                .to_string(),
        );
    }
    let plaintext = target
        .server
        .as_deref()
        .is_some_and(|url| !url.starts_with("https://"));
    let broken = [
        "h2 protocol error",
        "operation was canceled",
        "connection closed",
        "frame with invalid size",
        "broken pipe",
    ];
    if plaintext && broken.iter().any(|b| text.contains(b)) {
        return Some(format!(
            "the server at {} did not answer plaintext HTTP/2: if it serves TLS, use an \
             https:// URL (and --tls-ca FILE for a self-signed certificate)",
            target.server.as_deref().unwrap_or_default()
        ));
    }
    None
}
