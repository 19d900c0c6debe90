//! `caber bench reliability`: what hostile or careless clients do to a
//! running `caberd`, tried as a platform team would before a release, each
//! scenario with its figures and its checks (docs/SERVICE.md, "Reliability
//! suite"):
//!
//! - `stalled-streams`: HTTP/2 streams that send a message's 5-byte prefix
//!   and nothing more (no token needed: health checks), announcing 4 MB,
//!   then 10 bytes; the server's resident memory before, at the peak and
//!   after the client leaves, and calls on other connections meanwhile;
//! - `connection-flood`: TCP connections that never send a byte, as many
//!   as asked; calls meanwhile, and every one of them closed by the server;
//! - `unread-reviews`: two `Review` streams that are never read, with a 3 s
//!   deadline: a `BestMove` still gets a search place soon after;
//! - `deadlines`: `BestMove` of every game and searcher with 300 ms and 1 s
//!   deadlines, with this machine's cores saturated by busy loops
//!   (`--saturate`; meaningful when the server runs here);
//! - `fuzz`: valid requests of every RPC and game with their bytes mutated:
//!   no call answers `INTERNAL` or `UNKNOWN`, the connection and the server
//!   survive;
//! - `held-connections`, `search-memory`, `kept-tables`, `grpc-web`: what a
//!   client may hold beyond a call ([`holding`]).
//!
//! The attacks speak plaintext HTTP/2 (run the suite against a plaintext
//! port); the resident memory comes from `/proc` (`--server-pid`) or from
//! the server's metrics (`--metrics URL`).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use caber_service::proto;
use caber_service::tonic_health::pb::health_client::HealthClient;
use caber_service::tonic_health::pb::HealthCheckRequest;
use prost::bytes::Bytes;
use prost::Message;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tonic::transport::Channel;

use crate::client;
use crate::output::out;

mod holding;

/// The health check's path, which needs no token.
const HEALTH_CHECK: &str = "/grpc.health.v1.Health/Check";

/// What the suite is asked to do.
#[derive(Debug, Clone)]
pub struct ReliabilitySettings {
    /// The server (a plaintext `http://` URL) and its token, if any.
    pub target: client::Target,
    /// The server's process id on this machine, for its resident memory.
    pub server_pid: Option<u32>,
    /// The server's metrics URL, for its resident memory otherwise.
    pub metrics: Option<String>,
    /// The most resident memory the server may reach, in MB.
    pub max_rss_mb: u64,
    /// The server's `--idle-timeout-ms`.
    pub idle_timeout: Duration,
    /// Stalled streams per attack.
    pub streams: usize,
    /// Silent connections of the flood.
    pub connections: usize,
    /// Busy threads on this machine during `deadlines`.
    pub saturate: usize,
    /// Mutated requests of `fuzz`, per RPC and game.
    pub mutations: usize,
    /// Connections of `held-connections`, each making one call.
    pub held: usize,
    /// The server's `--max-connection-idle-ms`.
    pub max_connection_idle: Duration,
    /// How long each search of `search-memory` runs.
    pub search_time: Duration,
    /// Connections of `kept-tables`, each with a table of its own.
    pub kept_connections: usize,
    /// Seed of the random moves and mutations.
    pub seed: u64,
}

/// One scenario's figures and problems.
struct Scenario {
    name: &'static str,
    figures: Map<String, Value>,
    problems: Vec<String>,
}

impl Scenario {
    fn new(name: &'static str) -> Self {
        Self {
            name,
            figures: Map::new(),
            problems: Vec::new(),
        }
    }

    fn figure(&mut self, key: &str, value: impl Into<Value>) {
        self.figures.insert(key.to_string(), value.into());
    }

    fn check(&mut self, ok: bool, problem: impl FnOnce() -> String) {
        if !ok {
            self.problems.push(problem());
        }
    }
}

/// Runs every scenario, prints the report, and fails if a check failed.
pub async fn run(plan: &ReliabilitySettings, json_output: bool) -> anyhow::Result<()> {
    let server = Server::new(plan).await?;
    let mut scenarios = Vec::new();
    for scenario in [
        "stalled-streams",
        "connection-flood",
        "held-connections",
        "unread-reviews",
        "deadlines",
        "search-memory",
        "kept-tables",
        "grpc-web",
        "fuzz",
    ] {
        let started = Instant::now();
        let mut s = match scenario {
            "stalled-streams" => stalled_streams(&server, plan).await,
            "connection-flood" => connection_flood(&server, plan).await,
            "held-connections" => holding::held_connections(&server, plan).await,
            "unread-reviews" => unread_reviews(&server, plan).await,
            "deadlines" => deadlines(&server, plan).await,
            "search-memory" => holding::search_memory(&server, plan).await,
            "kept-tables" => holding::kept_tables(&server, plan).await,
            "grpc-web" => holding::grpc_web(&server).await,
            _ => fuzz(&server, plan).await,
        };
        s.figure("seconds", round(started.elapsed().as_secs_f64()));
        if !json_output {
            print_scenario(&s);
        }
        scenarios.push(s);
    }
    let failed: usize = scenarios.iter().map(|s| s.problems.len()).sum();
    if json_output {
        let list: Vec<Value> = scenarios
            .iter()
            .map(|s| {
                json!({
                    "name": s.name,
                    "passed": s.problems.is_empty(),
                    "figures": s.figures,
                    "problems": s.problems,
                })
            })
            .collect();
        out!("{}", json!({"passed": failed == 0, "scenarios": list}));
    }
    if failed > 0 {
        bail!("reliability: {failed} checks failed");
    }
    Ok(())
}

fn print_scenario(s: &Scenario) {
    let verdict = if s.problems.is_empty() {
        "passed"
    } else {
        "FAILED"
    };
    out!("{:<17} {verdict}", s.name);
    for (k, v) in &s.figures {
        out!("    {k}: {v}");
    }
    for p in &s.problems {
        out!("    problem: {p}");
    }
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The server under test: its address, a channel for normal calls, and
/// where its memory is read.
struct Server {
    addr: SocketAddr,
    authority: String,
    target: client::Target,
    auth: client::Auth,
    pid: Option<u32>,
    metrics: Option<String>,
}

impl Server {
    async fn new(plan: &ReliabilitySettings) -> anyhow::Result<Self> {
        let Some(url) = plan.target.server.as_deref() else {
            bail!("bench reliability needs --server URL: it tests a running caberd");
        };
        if url.starts_with("https://") {
            bail!(
                "bench reliability speaks plaintext HTTP/2: give the http:// URL of a \
                 plaintext port (a caberd started without --tls-cert for the test)"
            );
        }
        let authority = url.trim_start_matches("http://").trim_end_matches('/');
        let addr = tokio::net::lookup_host(authority)
            .await
            .with_context(|| format!("--server {url}"))?
            .next()
            .with_context(|| format!("--server {url}: no address"))?;
        Ok(Self {
            addr,
            authority: authority.to_string(),
            target: plan.target.clone(),
            auth: client::Auth::of(&plan.target)?,
            pid: plan.server_pid,
            metrics: plan.metrics.clone(),
        })
    }

    /// The server's resident memory in MB, if it can be read.
    async fn rss_mb(&self) -> Option<u64> {
        if let Some(pid) = self.pid {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
            let kb: u64 = status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))?
                .split_whitespace()
                .next()?
                .parse()
                .ok()?;
            return Some(kb / 1024);
        }
        let url = self.metrics.as_deref()?;
        let text = http_get(url).await.ok()?;
        let bytes: f64 = text
            .lines()
            .find_map(|l| l.strip_prefix("process_resident_memory_bytes "))?
            .trim()
            .parse()
            .ok()?;
        Some((bytes / 1e6) as u64)
    }

    /// A health check and `ListGames` on a new connection, each within 5 s.
    async fn probe(&self) -> Result<Duration, String> {
        let start = Instant::now();
        let within = Duration::from_secs(5);
        let channel = tokio::time::timeout(within, client::channel(&self.target))
            .await
            .map_err(|_| "no connection within 5 s".to_string())?
            .map_err(|e| format!("cannot connect: {e:#}"))?;
        let mut health = HealthClient::new(channel.clone());
        let check = health.check(HealthCheckRequest::default());
        match tokio::time::timeout(within, check).await {
            Ok(Ok(_)) => {}
            Ok(Err(s)) => return Err(format!("health check: {:?} {}", s.code(), s.message())),
            Err(_) => return Err("health check: no answer within 5 s".into()),
        }
        let mut api = client::api(channel, self.auth.clone());
        match tokio::time::timeout(within, api.list_games(proto::ListGamesRequest {})).await {
            Ok(Ok(_)) => Ok(start.elapsed()),
            Ok(Err(s)) => Err(format!("ListGames: {:?} {}", s.code(), s.message())),
            Err(_) => Err("ListGames: no answer within 5 s".into()),
        }
    }

    async fn channel(&self) -> anyhow::Result<Channel> {
        client::channel(&self.target).await
    }

    /// An API client and the games the server lists.
    async fn api_and_games(&self) -> anyhow::Result<(client::Client, Vec<proto::GameInfo>)> {
        let mut api = client::api(self.channel().await?, self.auth.clone());
        let games = api
            .list_games(proto::ListGamesRequest {})
            .await
            .map_err(|e| anyhow::anyhow!("ListGames: {}", e.message()))?
            .into_inner()
            .games;
        Ok((api, games))
    }

    /// A raw HTTP/2 connection whose receive window is `window` bytes.
    async fn h2(&self, window: u32) -> anyhow::Result<h2::client::SendRequest<Bytes>> {
        let tcp = TcpStream::connect(self.addr).await?;
        let (send, connection) = h2::client::Builder::new()
            .initial_window_size(window)
            .handshake(tcp)
            .await?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(send)
    }

    /// A gRPC request's head for `path` (with the token, and a deadline if given).
    fn request(&self, path: &str, timeout: Option<Duration>) -> http::Request<()> {
        let mut builder = http::Request::builder()
            .method("POST")
            .uri(format!("http://{}{path}", self.authority))
            .header("content-type", "application/grpc")
            .header("te", "trailers");
        if let Some(t) = timeout {
            builder = builder.header("grpc-timeout", format!("{}m", t.as_millis()));
        }
        if let Some(value) = self.auth.header() {
            builder = builder.header("authorization", value);
        }
        builder.body(()).expect("a valid request head")
    }
}

/// The body of `GET url` (plain HTTP/1.1, for the metrics endpoint).
async fn http_get(url: &str) -> anyhow::Result<String> {
    use tokio::io::AsyncWriteExt;
    let rest = url.trim_start_matches("http://");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut tcp = TcpStream::connect(host).await?;
    tcp.write_all(
        format!("GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await?;
    let mut text = String::new();
    tokio::time::timeout(Duration::from_secs(5), tcp.read_to_string(&mut text)).await??;
    Ok(text
        .split_once("\r\n\r\n")
        .map_or(text.clone(), |(_, b)| b.to_string()))
}

/// A gRPC message: the 5-byte prefix and `bytes`.
fn framed(bytes: &[u8]) -> Bytes {
    let mut message = Vec::with_capacity(bytes.len() + 5);
    message.push(0);
    message.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
    message.extend_from_slice(bytes);
    Bytes::from(message)
}

/// Streams held open by the client: dropping them resets the streams.
type Held = Vec<(h2::client::ResponseFuture, h2::SendStream<Bytes>)>;

/// Opens `streams` streams to `path` (a connection every 100, or sooner if
/// the server allows fewer), each sending only a prefix announcing
/// `announced` bytes.
async fn stall(
    server: &Server,
    streams: usize,
    path: &str,
    announced: u32,
) -> anyhow::Result<Held> {
    let mut prefix = vec![0u8];
    prefix.extend_from_slice(&announced.to_be_bytes());
    let prefix = Bytes::from(prefix);
    let mut held = Vec::new();
    let mut send = server.h2(65_535).await?;
    let mut on_this = 0;
    while held.len() < streams {
        let ready = tokio::time::timeout(Duration::from_secs(1), send.clone().ready()).await;
        let mut ready = match ready {
            Ok(Ok(s)) if on_this < 100 => s,
            _ => {
                send = server.h2(65_535).await?;
                on_this = 0;
                continue;
            }
        };
        let (response, mut body) = ready.send_request(server.request(path, None), false)?;
        body.send_data(prefix.clone(), false)?;
        held.push((response, body));
        on_this += 1;
    }
    Ok(held)
}

async fn stalled_streams(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("stalled-streams");
    let base = server.rss_mb().await;
    s.figure("rssBeforeMb", base);
    for (key, announced) in [("announcing4mb", 4u32 << 20), ("announcing10b", 10)] {
        let held = match stall(server, plan.streams, HEALTH_CHECK, announced).await {
            Ok(h) => h,
            Err(e) => {
                s.problems
                    .push(format!("{key}: cannot open the streams: {e:#}"));
                continue;
            }
        };
        tokio::time::sleep(Duration::from_millis(500)).await;
        let probe = server.probe().await;
        let peak = server.rss_mb().await;
        drop(held);
        let after = memory_settles(server, base).await;
        s.figure(
            key,
            json!({"streams": plan.streams, "rssPeakMb": peak, "rssAfterMb": after,
                   "callMeanwhileMs": probe.as_ref().ok().map(|d| d.as_millis() as u64)}),
        );
        s.check(probe.is_ok(), || {
            format!("{key}: a call meanwhile failed: {probe:?}")
        });
        if let Some(peak) = peak {
            s.check(peak <= plan.max_rss_mb, || {
                format!("{key}: {peak} MB resident, above {} MB", plan.max_rss_mb)
            });
        }
        if let (Some(base), Some(after)) = (base, after) {
            s.check(after <= base + 20, || {
                format!("{key}: {after} MB 15 s after the client left, {base} MB before")
            });
        }
    }
    s
}

/// The server's memory once it has come back within 20 MB of `base`, or
/// after 15 s.
async fn memory_settles(server: &Server, base: Option<u64>) -> Option<u64> {
    let start = Instant::now();
    loop {
        let rss = server.rss_mb().await;
        let settled = matches!((rss, base), (Some(r), Some(b)) if r <= b + 20);
        if settled || rss.is_none() || start.elapsed() > Duration::from_secs(15) {
            return rss;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn connection_flood(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("connection-flood");
    let wanted = plan.connections.min(file_limit().saturating_sub(100));
    let started = Instant::now();
    let mut closed = Vec::new();
    let mut opened = 0;
    for _ in 0..wanted {
        let Ok(mut tcp) = TcpStream::connect(server.addr).await else {
            break;
        };
        opened += 1;
        closed.push(tokio::spawn(async move {
            let mut buf = [0u8; 512];
            loop {
                match tcp.read(&mut buf).await {
                    Ok(0) | Err(_) => return Instant::now(),
                    Ok(_) => continue,
                }
            }
        }));
    }
    s.figure("connections", opened);
    let probe = server.probe().await;
    s.figure(
        "callMeanwhileMs",
        probe.as_ref().ok().map(|d| d.as_millis() as u64),
    );
    s.check(probe.is_ok(), || {
        format!("a call during the flood failed: {probe:?}")
    });
    let within = plan.idle_timeout + Duration::from_secs(5);
    let mut at_once = 0;
    let mut open = 0;
    let mut last = Duration::ZERO;
    for task in closed {
        let left = within.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, task).await {
            Ok(Ok(at)) => {
                let after = at.duration_since(started);
                last = last.max(after);
                if after < Duration::from_secs(1) {
                    at_once += 1;
                }
            }
            _ => open += 1,
        }
    }
    s.figure("closedWithin1s", at_once);
    s.figure("lastClosedAfterS", round(last.as_secs_f64()));
    s.figure("stillOpen", open);
    s.check(open == 0, || {
        format!(
            "{open} silent connections still open {} s after the flood",
            within.as_secs()
        )
    });
    let after = server.probe().await;
    s.check(after.is_ok(), || {
        format!("a call after the flood failed: {after:?}")
    });
    s
}

/// The process's limit on open files, raised to its hard limit.
fn file_limit() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct we own.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
            libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        }
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}

/// The record of a game of random legal moves (through the API) of up to
/// `plies` moves.
async fn random_record(server: &Server, plies: usize, seed: u64) -> anyhow::Result<String> {
    let mut api = client::api(server.channel().await?, server.auth.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = api
        .new_game(proto::NewGameRequest {
            game: "tablut".into(),
            variant: "bga".into(),
            seed: 0,
        })
        .await?
        .into_inner();
    let mut position = start
        .position
        .and_then(|p| p.position)
        .context("a position")?;
    let mut lines = Vec::new();
    while lines.len() < plies {
        let legal = api
            .legal_moves(proto::LegalMovesRequest {
                position: Some(position.clone()),
                include_position: false,
            })
            .await?
            .into_inner()
            .moves;
        if legal.is_empty() {
            break;
        }
        let chosen = &legal[rng.random_range(0..legal.len())];
        lines.push(format!("{}. {}", lines.len() + 1, chosen.text));
        let applied = api
            .apply(proto::ApplyRequest {
                position: Some(position),
                r#move: chosen.r#move.clone(),
            })
            .await?
            .into_inner();
        position = applied
            .position
            .and_then(|p| p.position)
            .context("a position")?;
    }
    Ok(format!(
        "[Game \"tablut\"]\n[Variant \"bga\"]\n\n{}\n",
        lines.join("\n")
    ))
}

async fn unread_reviews(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("unread-reviews");
    let record = match random_record(server, 300, plan.seed).await {
        Ok(r) => r,
        Err(e) => {
            s.problems.push(format!("cannot make a record: {e:#}"));
            return s;
        }
    };
    let deadline = Duration::from_secs(3);
    let request = proto::ReviewRequest {
        record,
        limits: Some(proto::Limits {
            movetime_ms: 50,
            ..Default::default()
        }),
        searcher: String::new(),
    };
    let message = framed(&request.encode_to_vec());
    let mut held = Vec::new();
    for _ in 0..2 {
        let opened = async {
            let send = server.h2(1024).await?.ready().await?;
            let mut send = send;
            let (response, mut body) = send.send_request(
                server.request("/caber.v1.GameEngine/Review", Some(deadline)),
                false,
            )?;
            body.send_data(message.clone(), true)?;
            anyhow::Ok((send, response, body))
        };
        match opened.await {
            Ok(h) => held.push(h),
            Err(e) => s.problems.push(format!("cannot start a review: {e:#}")),
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let mut api = match server.channel().await {
        Ok(c) => client::api(c, server.auth.clone()),
        Err(e) => {
            s.problems.push(format!("cannot connect: {e:#}"));
            return s;
        }
    };
    let mut refused = 0;
    let mut got = None;
    while started.elapsed() < Duration::from_secs(15) {
        let reply = api
            .best_move(proto::BestMoveRequest {
                position: Some(proto::Position {
                    game: "tablut".into(),
                    ..Default::default()
                }),
                limits: Some(proto::Limits {
                    movetime_ms: 20,
                    ..Default::default()
                }),
                searcher: String::new(),
                table: String::new(),
                search_moves: Vec::new(),
            })
            .await;
        match reply {
            Ok(_) => {
                got = Some(started.elapsed());
                break;
            }
            Err(st) if st.code() == tonic::Code::ResourceExhausted => refused += 1,
            Err(st) => {
                s.problems
                    .push(format!("BestMove: {:?} {}", st.code(), st.message()));
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(held);
    s.figure("reviews", 2);
    s.figure("reviewDeadlineMs", deadline.as_millis() as u64);
    s.figure("bestMoveRefusedFirst", refused);
    s.figure(
        "bestMoveGotAPlaceAfterS",
        got.map(|g| round(g.as_secs_f64())),
    );
    s.check(
        got.is_some_and(|g| g < deadline + Duration::from_secs(3)),
        || format!("no search place for a BestMove within 6 s of two unread reviews: {got:?}"),
    );
    s
}

/// Busy loops on `n` threads of this machine until dropped.
struct Busy(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Busy {
    fn start(n: usize) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                })
            })
            .collect();
        Self(stop, threads)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for t in self.1.drain(..) {
            let _ = t.join();
        }
    }
}

async fn deadlines(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("deadlines");
    let (mut api, games) = match server.api_and_games().await {
        Ok(found) => found,
        Err(e) => {
            s.problems.push(format!("{e:#}"));
            return s;
        }
    };
    let busy = Busy::start(plan.saturate);
    let (mut calls, mut met) = (0, 0);
    let mut slowest: Map<String, Value> = Map::new();
    for deadline_ms in [300u64, 1000] {
        for game in &games {
            for searcher in &game.searchers {
                let mut worst = Duration::ZERO;
                for seed in 0..2 {
                    let mut request = tonic::Request::new(proto::BestMoveRequest {
                        position: Some(proto::Position {
                            game: game.name.clone(),
                            ..Default::default()
                        }),
                        limits: Some(proto::Limits {
                            seed,
                            ..Default::default()
                        }),
                        searcher: searcher.name.clone(),
                        table: String::new(),
                        search_moves: Vec::new(),
                    });
                    request.set_timeout(Duration::from_millis(deadline_ms));
                    let start = Instant::now();
                    let reply = api.best_move(request).await;
                    let took = start.elapsed();
                    worst = worst.max(took);
                    calls += 1;
                    match reply {
                        Ok(_) => met += 1,
                        Err(st) => s.problems.push(format!(
                            "{} {} with a {deadline_ms} ms deadline: {:?} after {} ms",
                            game.name,
                            searcher.name,
                            st.code(),
                            took.as_millis()
                        )),
                    }
                }
                slowest.insert(
                    format!("{} {} {deadline_ms} ms", game.name, searcher.name),
                    json!(worst.as_millis() as u64),
                );
            }
        }
    }
    drop(busy);
    s.figure("busyThreadsHere", plan.saturate);
    s.figure("calls", calls);
    s.figure("deadlinesMet", met);
    s.figure("slowestAnswerMs", Value::Object(slowest));
    s
}

/// Valid requests of every RPC for one position of `game`: (path, bytes).
fn valid_requests(
    game: &proto::GameInfo,
    report: &proto::PositionReport,
    mv: Option<&proto::MoveInfo>,
) -> Vec<(&'static str, Vec<u8>)> {
    let position = report.position.clone();
    let limits = Some(proto::Limits {
        movetime_ms: 20,
        ..Default::default()
    });
    let text = |m: Option<&proto::MoveInfo>| m.map(|m| m.text.clone()).unwrap_or_default();
    let record = format!("[Game \"{}\"]\n\n1. {}\n", game.name, text(mv));
    vec![
        (
            "/caber.v1.GameEngine/ListGames",
            proto::ListGamesRequest {}.encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/NewGame",
            proto::NewGameRequest {
                game: game.name.clone(),
                variant: String::new(),
                seed: 3,
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/LegalMoves",
            proto::LegalMovesRequest {
                position: position.clone(),
                include_position: true,
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Apply",
            proto::ApplyRequest {
                position: position.clone(),
                r#move: mv.and_then(|m| m.r#move.clone()),
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Evaluate",
            proto::EvaluateRequest {
                position: position.clone(),
                limits: None,
                searcher: String::new(),
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/BestMove",
            proto::BestMoveRequest {
                position: position.clone(),
                limits: limits.clone(),
                searcher: String::new(),
                table: String::new(),
                search_moves: Vec::new(),
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Analyze",
            proto::AnalyzeRequest {
                position: position.clone(),
                limits: limits.clone(),
                searcher: String::new(),
                table: String::new(),
                search_moves: Vec::new(),
                multipv: 2,
                report_interval_ms: 50,
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Perft",
            proto::PerftRequest {
                position: position.clone(),
                depth: 1,
                divide: true,
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Playouts",
            proto::PlayoutsRequest {
                position: position.clone(),
                seed: 5,
                movetime_ms: 5,
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/View",
            proto::ViewRequest {
                position: position.clone(),
                player: 1,
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Render",
            proto::RenderRequest {
                position: position.clone(),
                last_move: text(mv),
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Solve",
            proto::SolveRequest {
                position,
                max_moves: 1,
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Replay",
            proto::ReplayRequest {
                record: record.clone(),
            }
            .encode_to_vec(),
        ),
        (
            "/caber.v1.GameEngine/Review",
            proto::ReviewRequest {
                record,
                limits,
                searcher: String::new(),
            }
            .encode_to_vec(),
        ),
    ]
}

/// `bytes` with a few random edits: a byte changed, inserted or removed,
/// or the end cut off.
fn mutate(bytes: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let len = b.len();
        match rng.random_range(0..4) {
            0 if len > 0 => {
                let i = rng.random_range(0..len);
                b[i] ^= rng.random_range(1..=255u8);
            }
            1 => {
                let i = rng.random_range(0..=len);
                b.insert(i, rng.random());
            }
            2 if len > 0 => {
                b.remove(rng.random_range(0..len));
            }
            _ => b.truncate(rng.random_range(0..=len)),
        }
    }
    b
}

/// Sends one request's `bytes` to `path` on `send` and reads its status
/// code (the grpc-status of the headers or the trailers); draining the body.
async fn raw_call(
    server: &Server,
    send: &mut h2::client::SendRequest<Bytes>,
    path: &str,
    bytes: &[u8],
) -> Result<i32, String> {
    let ready = send
        .clone()
        .ready()
        .await
        .map_err(|e| format!("connection: {e}"))?;
    *send = ready;
    let (response, mut body) = send
        .send_request(server.request(path, Some(Duration::from_secs(2))), false)
        .map_err(|e| format!("send: {e}"))?;
    body.send_data(framed(bytes), true)
        .map_err(|e| format!("send: {e}"))?;
    let response = tokio::time::timeout(Duration::from_secs(10), response)
        .await
        .map_err(|_| "no answer within 10 s".to_string())?
        .map_err(|e| format!("response: {e}"))?;
    let status = |h: &http::HeaderMap| {
        h.get("grpc-status")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<i32>().ok())
    };
    if let Some(code) = status(response.headers()) {
        return Ok(code);
    }
    let mut recv = response.into_body();
    while let Some(chunk) = recv.data().await {
        let chunk = chunk.map_err(|e| format!("body: {e}"))?;
        let _ = recv.flow_control().release_capacity(chunk.len());
    }
    let trailers = recv
        .trailers()
        .await
        .map_err(|e| format!("trailers: {e}"))?
        .ok_or("no trailers")?;
    status(&trailers).ok_or_else(|| "no grpc-status".to_string())
}

async fn fuzz(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("fuzz");
    let (mut api, games) = match server.api_and_games().await {
        Ok(found) => found,
        Err(e) => {
            s.problems.push(format!("{e:#}"));
            return s;
        }
    };
    let mut send = match server.h2(1 << 20).await {
        Ok(c) => c,
        Err(e) => {
            s.problems.push(format!("cannot connect: {e:#}"));
            return s;
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let mut codes: std::collections::BTreeMap<String, u64> = Default::default();
    let mut calls = 0u64;
    for game in &games {
        let report = api
            .new_game(proto::NewGameRequest {
                game: game.name.clone(),
                variant: String::new(),
                seed: 1,
            })
            .await
            .ok()
            .and_then(|r| r.into_inner().position);
        let Some(report) = report else {
            s.problems.push(format!("NewGame {} failed", game.name));
            continue;
        };
        let legal = api
            .legal_moves(proto::LegalMovesRequest {
                position: report.position.clone(),
                include_position: false,
            })
            .await
            .map(|r| r.into_inner().moves)
            .unwrap_or_default();
        for (path, bytes) in valid_requests(game, &report, legal.first()) {
            for i in 0..=plan.mutations {
                let request = if i == 0 {
                    bytes.clone()
                } else {
                    mutate(&bytes, &mut rng)
                };
                calls += 1;
                match raw_call(server, &mut send, path, &request).await {
                    Ok(code) => {
                        let name = format!("{:?}", tonic::Code::from_i32(code));
                        *codes.entry(name).or_default() += 1;
                        if matches!(code, 2 | 13) {
                            s.problems.push(format!(
                                "{path} ({}) answered {:?}",
                                game.name,
                                tonic::Code::from_i32(code)
                            ));
                        }
                    }
                    Err(e) => {
                        s.problems.push(format!("{path} ({}): {e}", game.name));
                        match server.h2(1 << 20).await {
                            Ok(c) => send = c,
                            Err(_) => break,
                        }
                    }
                }
            }
        }
    }
    s.figure("calls", calls);
    s.figure("codes", json!(codes));
    let probe = server.probe().await;
    s.check(probe.is_ok(), || {
        format!("the server after the barrage: {probe:?}")
    });
    s
}
