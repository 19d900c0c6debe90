//! Client-side load balancing over caberd pods with tonic.
//!
//! Resolves every `host:port` target given on the command line to all of its
//! addresses (`tokio::net::lookup_host`: in Kubernetes the headless Service's
//! name, `caberd-headless.NAMESPACE.svc.cluster.local:50051`, answers one
//! address per ready pod), feeds them as endpoints to one
//! [`Channel::balance_channel`], and resolves again every `--resolve-every-ms`
//! to insert the addresses that appeared and remove the ones that went away.
//! Then makes `--calls` `ListGames` calls, each retried on `UNAVAILABLE` (a
//! pod shutting down) up to 4 attempts with backoff, the same policy as the
//! Python example's service config, and prints how many succeeded; exits 1
//! if any failed.
//!
//! tonic's balanced channel picks with "power of two choices" (two endpoints
//! at random, the less loaded one), not strictly in turn: every endpoint
//! gets calls, in proportions close to even.
//!
//! ```sh
//! cargo build --release -p caber-service --example round_robin
//! target/release/examples/round_robin --calls 100 caberd-headless.NAMESPACE.svc.cluster.local:50051
//! target/release/examples/round_robin 127.0.0.1:50051 127.0.0.1:50052
//! ```

use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::proto::ListGamesRequest;
use clap::Parser;
use tokio::sync::mpsc::Sender;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::channel::Change;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};
use tonic::{Code, Request};

/// Attempts per call, as in the recommended retry policy (deploy/README.md).
const MAX_ATTEMPTS: u32 = 4;
/// The first retry's backoff; doubled at each retry, at most 1 s.
const INITIAL_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Balances ListGames calls over every address of the targets.
#[derive(Parser, Debug)]
#[command(name = "round_robin")]
struct Args {
    /// `host:port` targets; each is resolved to all of its addresses.
    #[arg(required = true, value_name = "HOST:PORT")]
    targets: Vec<String>,
    /// ListGames calls to make.
    #[arg(long, default_value_t = 20)]
    calls: u32,
    /// Interval between two resolutions of the targets, in milliseconds.
    #[arg(long, default_value_t = 5000)]
    resolve_every_ms: u64,
    /// Deadline of each call attempt, in milliseconds.
    #[arg(long, default_value_t = 5000)]
    timeout_ms: u64,
    /// PEM certificate(s) to trust: connect with TLS (the production overlay).
    #[arg(long, value_name = "FILE")]
    tls_ca: Option<PathBuf>,
    /// Name to check the server certificate against (default: the first target's host).
    #[arg(long)]
    tls_name: Option<String>,
    /// File holding the bearer token (caberd's CABER_AUTH_TOKEN_FILE).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
}

/// Every address the targets resolve to now (a target that does not resolve
/// is reported and left out).
async fn resolve(targets: &[String]) -> HashSet<SocketAddr> {
    let mut addresses = HashSet::new();
    for target in targets {
        match tokio::net::lookup_host(target.as_str()).await {
            Ok(found) => addresses.extend(found),
            Err(e) => eprintln!("round_robin: cannot resolve {target}: {e}"),
        }
    }
    addresses
}

/// How to reach one address.
fn endpoint(addr: SocketAddr, tls: Option<&ClientTlsConfig>) -> anyhow::Result<Endpoint> {
    let scheme = if tls.is_some() { "https" } else { "http" };
    let mut endpoint = Endpoint::from_shared(format!("{scheme}://{addr}"))?
        .connect_timeout(Duration::from_secs(2))
        .tcp_nodelay(true);
    if let Some(tls) = tls {
        endpoint = endpoint.tls_config(tls.clone())?;
    }
    Ok(endpoint)
}

/// Brings the balanced channel's endpoints in line with `now`; `known` is
/// what it had. An empty resolution (DNS briefly failing) changes nothing.
async fn update(
    known: &mut HashSet<SocketAddr>,
    now: HashSet<SocketAddr>,
    changes: &Sender<Change<SocketAddr, Endpoint>>,
    tls: Option<&ClientTlsConfig>,
) -> anyhow::Result<()> {
    if now.is_empty() {
        return Ok(());
    }
    for gone in known.difference(&now) {
        eprintln!("round_robin: endpoint {gone} removed");
        changes.send(Change::Remove(*gone)).await?;
    }
    for new in now.difference(known) {
        eprintln!("round_robin: endpoint {new} inserted");
        changes
            .send(Change::Insert(*new, endpoint(*new, tls)?))
            .await?;
    }
    *known = now;
    Ok(())
}

/// The TLS configuration of `args`, if it asks for TLS.
fn tls(args: &Args) -> anyhow::Result<Option<ClientTlsConfig>> {
    let Some(path) = &args.tls_ca else {
        return Ok(None);
    };
    let pem = std::fs::read(path)?;
    let name = match &args.tls_name {
        Some(name) => name.clone(),
        None => {
            let first = &args.targets[0];
            first
                .rsplit_once(':')
                .map_or(first.as_str(), |(host, _)| host)
                .to_string()
        }
    };
    Ok(Some(
        ClientTlsConfig::new()
            .ca_certificate(Certificate::from_pem(pem))
            .domain_name(name),
    ))
}

#[tokio::main]
async fn main() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    let tls = tls(&args)?;
    let token: Option<MetadataValue<Ascii>> = match &args.token_file {
        Some(path) => Some(format!("Bearer {}", std::fs::read_to_string(path)?.trim()).parse()?),
        None => None,
    };

    let (channel, changes) = Channel::balance_channel::<SocketAddr>(16);
    let mut known = HashSet::new();
    update(
        &mut known,
        resolve(&args.targets).await,
        &changes,
        tls.as_ref(),
    )
    .await?;
    if known.is_empty() {
        anyhow::bail!("no address found for {:?}", args.targets);
    }
    let targets = args.targets.clone();
    let every = Duration::from_millis(args.resolve_every_ms.max(1));
    let discovery_tls = tls.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let now = resolve(&targets).await;
            if let Err(e) = update(&mut known, now, &changes, discovery_tls.as_ref()).await {
                eprintln!("round_robin: endpoint update failed: {e}");
                return;
            }
        }
    });

    let mut client = GameEngineClient::new(channel);
    let (mut ok, mut failed) = (0u32, 0u32);
    for _ in 0..args.calls {
        let mut backoff = INITIAL_BACKOFF;
        for attempt in 1..=MAX_ATTEMPTS {
            let mut request = Request::new(ListGamesRequest {});
            request.set_timeout(Duration::from_millis(args.timeout_ms));
            if let Some(token) = &token {
                request
                    .metadata_mut()
                    .insert("authorization", token.clone());
            }
            match client.list_games(request).await {
                Ok(reply) if !reply.get_ref().games.is_empty() => {
                    ok += 1;
                    break;
                }
                Ok(_) => {
                    eprintln!("round_robin: ListGames answered no games");
                    failed += 1;
                    break;
                }
                Err(status) if status.code() == Code::Unavailable && attempt < MAX_ATTEMPTS => {
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
                Err(status) => {
                    eprintln!(
                        "round_robin: ListGames failed: {:?}: {}",
                        status.code(),
                        status.message()
                    );
                    failed += 1;
                    break;
                }
            }
        }
    }
    println!(
        "round_robin: {} ListGames calls to {}: {ok} succeeded, {failed} failed",
        args.calls,
        args.targets.join(" ")
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
