//! The scenarios of what one client may hold of the server beyond a call:
//! connections kept after a call, Monte Carlo trees, kept tables, and
//! gRPC-Web requests that are not valid gRPC-Web.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use caber_service::proto;
use caber_service::tonic_health::pb::HealthCheckRequest;
use prost::Message;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use super::{framed, round, ReliabilitySettings, Scenario, Server, HEALTH_CHECK};
use crate::client;

/// Loopback addresses the held connections come from when the server is on
/// this machine's loopback: several clients, so that both the server's cap
/// per address and its cap on all connections are reached.
const SOURCES: usize = 8;

/// A connection from `source` (if given) to the server.
async fn connect(server: &Server, source: Option<IpAddr>) -> std::io::Result<TcpStream> {
    let Some(source) = source else {
        return TcpStream::connect(server.addr).await;
    };
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    socket.connect(server.addr).await
}

/// An HTTP/2 connection that makes one health check and then only answers
/// the server's PINGs (its driver runs until the server closes it, and
/// returns when).
async fn held_h2(
    server: &Server,
    source: Option<IpAddr>,
) -> anyhow::Result<tokio::task::JoinHandle<Instant>> {
    let tcp = connect(server, source).await?;
    let (send, connection) = h2::client::handshake(tcp).await?;
    let driver = tokio::spawn(async move {
        let _ = connection.await;
        Instant::now()
    });
    let mut send = send.ready().await?;
    let (response, mut body) = send.send_request(server.request(HEALTH_CHECK, None), false)?;
    body.send_data(framed(&HealthCheckRequest::default().encode_to_vec()), true)?;
    let mut body = response.await?.into_body();
    while let Some(data) = body.data().await {
        let data = data?;
        let _ = body.flow_control().release_capacity(data.len());
    }
    Ok(driver)
}

/// An HTTP/1.1 connection that makes one gRPC-Web health check, keeps the
/// connection alive and waits; returns when the server closes it.
async fn held_http1(
    server: &Server,
    source: Option<IpAddr>,
) -> anyhow::Result<tokio::task::JoinHandle<Instant>> {
    let mut tcp = connect(server, source).await?;
    let body = framed(&HealthCheckRequest::default().encode_to_vec());
    let head = format!(
        "POST {HEALTH_CHECK} HTTP/1.1\r\nHost: {}\r\ncontent-type: application/grpc-web+proto\r\n\
         x-grpc-web: 1\r\ncontent-length: {}\r\n\r\n",
        server.authority,
        body.len()
    );
    tcp.write_all(head.as_bytes()).await?;
    tcp.write_all(&body).await?;
    Ok(tokio::spawn(async move {
        let mut buf = [0u8; 1024];
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return Instant::now(),
                Ok(_) => continue,
            }
        }
    }))
}

/// `--held` connections (a tenth of them gRPC-Web over HTTP/1.1) that each
/// make one call and then stay idle, answering PINGs: a call on a new
/// connection still gets in at once, and every one of them is closed within
/// the server's --max-connection-idle-ms (and 5 s).
pub async fn held_connections(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("held-connections");
    let loopback = server.addr.ip().is_loopback() && server.addr.is_ipv4();
    let started = Instant::now();
    let mut held = Vec::new();
    let mut failed = 0;
    for i in 0..plan.held.min(super::file_limit().saturating_sub(100)) {
        // 127.0.0.2 .. 127.0.0.9: not the address of the probes below.
        let source =
            loopback.then(|| IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (i % SOURCES) as u8)));
        let connection = match i % 10 {
            0 => held_http1(server, source).await,
            _ => held_h2(server, source).await,
        };
        match connection {
            Ok(driver) => held.push(driver),
            Err(_) => failed += 1,
        }
    }
    s.figure("connections", held.len());
    s.figure("refusedOrFailed", failed);
    s.figure("rssHeldMb", server.rss_mb().await);
    s.figure("openedInS", round(started.elapsed().as_secs_f64()));
    let probe = server.probe().await;
    s.figure(
        "callMeanwhileMs",
        probe.as_ref().ok().map(|d| d.as_millis() as u64),
    );
    s.check(probe.is_ok(), || {
        format!("a call among the held connections failed: {probe:?}")
    });
    let opened = Instant::now();
    let within = plan.max_connection_idle + Duration::from_secs(5);
    let mut open = 0;
    let mut last = Duration::ZERO;
    for driver in held {
        let left = within.saturating_sub(opened.elapsed());
        match tokio::time::timeout(left, driver).await {
            Ok(Ok(at)) => last = last.max(at.saturating_duration_since(opened)),
            _ => open += 1,
        }
    }
    s.figure("lastClosedAfterS", round(last.as_secs_f64()));
    s.figure("stillOpen", open);
    s.check(open == 0, || {
        format!(
            "{open} connections idle after their call still open {} s later",
            within.as_secs()
        )
    });
    s
}

/// The resident memory's peak while `work` runs, sampled every 100 ms.
async fn peak_while<T>(
    server: &Server,
    work: impl std::future::Future<Output = T>,
) -> (T, Option<u64>) {
    let mut work = std::pin::pin!(work);
    let mut peak = server.rss_mb().await;
    loop {
        tokio::select! {
            done = &mut work => return (done, peak),
            _ = tokio::time::sleep(Duration::from_millis(100)) => {
                peak = peak.max(server.rss_mb().await);
            }
        }
    }
}

/// Two Monte Carlo searches at once, AlmaTafl and Tartan, each for
/// `--search-seconds`: the server's resident memory stays under
/// `--max-rss-mb` (their trees stop growing at their memory limit).
pub async fn search_memory(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("search-memory");
    let base = server.rss_mb().await;
    s.figure("rssBeforeMb", base);
    let movetime_ms = u32::try_from(plan.search_time.as_millis()).unwrap_or(u32::MAX);
    let search = |game: &'static str| async move {
        let mut api = client::api(server.channel().await?, server.auth.clone());
        let reply = api
            .best_move(proto::BestMoveRequest {
                position: Some(proto::Position {
                    game: game.into(),
                    ..Default::default()
                }),
                searcher: "mcts".into(),
                limits: Some(proto::Limits {
                    movetime_ms,
                    ..Default::default()
                }),
                ..Default::default()
            })
            .await
            .map_err(|e| anyhow::anyhow!("{game}: {:?} {}", e.code(), e.message()))?
            .into_inner();
        let stats = reply.stats.unwrap_or_default();
        anyhow::Ok(json!({"game": game, "iterations": stats.iterations, "clamped": stats.clamped}))
    };
    let both = async { tokio::join!(search("almatafl"), search("tartan")) };
    let (results, peak) = peak_while(server, both).await;
    s.figure("searchesS", plan.search_time.as_secs());
    s.figure("rssPeakMb", peak);
    for result in [results.0, results.1] {
        match result {
            Ok(figures) => {
                let game = figures["game"].as_str().unwrap_or("").to_string();
                s.figure(&game, figures);
            }
            Err(e) => s.problems.push(format!("search failed: {e:#}")),
        }
    }
    if let Some(peak) = peak {
        s.check(peak <= plan.max_rss_mb, || {
            format!(
                "{peak} MB resident during the searches, above {} MB",
                plan.max_rss_mb
            )
        });
    }
    s
}

/// `--kept-connections` connections, each searching with a kept table
/// of its own at the server's largest size (asked: 64 MB), two at a time:
/// the server keeps at most its --max-kept-tables of them, and once the
/// clients are gone their memory comes back within 20 MB of where it was.
pub async fn kept_tables(server: &Server, plan: &ReliabilitySettings) -> Scenario {
    let mut s = Scenario::new("kept-tables");
    let base = server.rss_mb().await;
    s.figure("rssBeforeMb", base);
    let one = |i: usize| async move {
        let mut api = client::api(server.channel().await?, server.auth.clone());
        api.best_move(proto::BestMoveRequest {
            position: Some(proto::Position {
                game: "tablut".into(),
                ..Default::default()
            }),
            table: format!("kept-{i}"),
            limits: Some(proto::Limits {
                movetime_ms: 300,
                hash_mb: 64,
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .map_err(|e| anyhow::anyhow!("{:?} {}", e.code(), e.message()))?;
        // The connection stays open a while, holding its table, then goes.
        tokio::time::sleep(Duration::from_millis(500)).await;
        anyhow::Ok(())
    };
    let work = async {
        let mut failed = Vec::new();
        for pair in (0..plan.kept_connections).collect::<Vec<_>>().chunks(2) {
            let (a, b) = tokio::join!(one(pair[0]), async {
                match pair.get(1) {
                    Some(&i) => one(i).await,
                    None => Ok(()),
                }
            });
            failed.extend(a.err());
            failed.extend(b.err());
        }
        failed
    };
    let (failed, peak) = peak_while(server, work).await;
    s.figure("connections", plan.kept_connections);
    s.figure("rssPeakMb", peak);
    for e in failed.iter().take(3) {
        s.problems.push(format!("a search failed: {e:#}"));
    }
    let after = super::memory_settles(server, base).await;
    s.figure("rssAfterMb", after);
    if let (Some(base), Some(after)) = (base, after) {
        s.check(after <= base + 20, || {
            format!("{after} MB 15 s after the clients left, {base} MB before")
        });
    }
    s
}

/// gRPC-Web text whose body is not base64, with no token: answered
/// `INVALID_ARGUMENT` in the text form, and the server goes on serving.
pub async fn grpc_web(server: &Server) -> Scenario {
    let mut s = Scenario::new("grpc-web");
    let answer = async {
        let mut tcp = TcpStream::connect(server.addr).await?;
        let body = "!!!!????";
        let head = format!(
            "POST {HEALTH_CHECK} HTTP/1.1\r\nHost: {}\r\ncontent-type: application/grpc-web-text\r\n\
             x-grpc-web: 1\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            server.authority,
            body.len()
        );
        tcp.write_all(head.as_bytes()).await?;
        let mut text = String::new();
        tcp.read_to_string(&mut text).await?;
        anyhow::Ok(text)
    };
    let text = match tokio::time::timeout(Duration::from_secs(5), answer).await {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => {
            s.problems.push(format!("no answer: {e:#}"));
            return s;
        }
        Err(_) => {
            s.problems.push("no answer within 5 s".into());
            return s;
        }
    };
    let header = |name: &str| {
        text.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    };
    let status = header("grpc-status");
    let kind = header("content-type");
    s.figure("grpcStatus", status.clone());
    s.figure("contentType", kind.clone());
    s.check(status.as_deref() == Some("3"), || {
        format!("bad base64 answered grpc-status {status:?}, not 3 (INVALID_ARGUMENT)")
    });
    s.check(
        kind.as_deref()
            .is_some_and(|k| k.starts_with("application/grpc-web-text")),
        || format!("a text call answered as {kind:?}"),
    );
    let after = server.probe().await;
    s.check(after.is_ok(), || {
        format!("a call afterwards failed: {after:?}")
    });
    s
}
