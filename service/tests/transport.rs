//! The real `caberd` process under hostile clients, at the transport:
//! streams that announce a message and stall, connections that never call,
//! a flood of connections past the cap, a `Review` nobody reads, and a
//! SIGTERM while one is in progress. Memory is read from `/proc`.

#![cfg(target_os = "linux")]

mod common;

use std::io::Read;
use std::net::SocketAddr;
use std::process::Child;
use std::time::{Duration, Instant};

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::proto::{self, position::State};
use caber_service::tonic_health::pb::health_client::HealthClient;
use caber_service::tonic_health::pb::HealthCheckRequest;
use h2::client::{ResponseFuture, SendRequest};
use prost::bytes::Bytes;
use prost::Message;
use tokio::net::TcpStream;
use tonic::transport::{Channel, Endpoint};

/// A `caberd` started for one test, killed when dropped.
struct Caberd {
    child: Child,
    addr: SocketAddr,
}

impl Caberd {
    /// Starts `caberd` on a free port with `args`, its logs (warnings and
    /// up) kept in a pipe when `logs` is set.
    fn start(args: &[&str], logs: bool) -> Self {
        let (child, addr) = common::spawn_caberd(args, logs);
        Self {
            child,
            addr: addr.parse().unwrap(),
        }
    }

    /// Resident memory in MB.
    fn rss_mb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmRSS");
        kb / 1024
    }

    async fn channel(&self) -> Channel {
        Endpoint::from_shared(format!("http://{}", self.addr))
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    /// Stops the server and returns what it logged.
    fn logs(mut self) -> String {
        let _ = self.child.kill();
        let mut text = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut text);
        }
        text
    }
}

impl Drop for Caberd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP/2 connection of a raw client, driven in the background.
async fn h2_connection(addr: SocketAddr, window: u32) -> SendRequest<Bytes> {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (send, connection) = h2::client::Builder::new()
        .initial_window_size(window)
        .handshake(tcp)
        .await
        .unwrap();
    tokio::spawn(async move {
        let _ = connection.await;
    });
    send
}

/// A gRPC request's head for `path`.
fn grpc_request(path: &str) -> http::Request<()> {
    http::Request::builder()
        .method("POST")
        .uri(format!("http://caber{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap()
}

/// What a stalled stream's client holds: dropping it resets the stream.
type Held = (ResponseFuture, h2::SendStream<Bytes>);

/// Opens `streams` streams to `path`, 100 a connection, each sending only
/// the 5-byte prefix of a message of `announced` bytes and then nothing.
async fn stall(addr: SocketAddr, streams: usize, path: &str, announced: u32) -> Vec<Held> {
    let mut prefix = vec![0u8];
    prefix.extend_from_slice(&announced.to_be_bytes());
    let prefix = Bytes::from(prefix);
    let mut held = Vec::new();
    for chunk in 0..streams.div_ceil(100) {
        let mut send = h2_connection(addr, 65_535).await;
        for _ in 0..(streams - chunk * 100).min(100) {
            send = send.ready().await.unwrap();
            let (response, mut body) = send.send_request(grpc_request(path), false).unwrap();
            body.send_data(prefix.clone(), false).unwrap();
            held.push((response, body));
        }
    }
    held
}

/// A health check and a `LegalMoves` on a fresh connection answer, each
/// within a second.
async fn normal_calls_answer(server: &Caberd) {
    let within = Duration::from_secs(5);
    let channel = tokio::time::timeout(within, server.channel())
        .await
        .expect("connects");
    let mut health_client = HealthClient::new(channel.clone());
    let health = health_client.check(HealthCheckRequest {
        service: String::new(),
    });
    let health = tokio::time::timeout(within, health).await;
    assert!(matches!(health, Ok(Ok(_))), "health: {health:?}");
    let mut client = GameEngineClient::new(channel);
    let legal = client.legal_moves(proto::LegalMovesRequest {
        position: Some(proto::Position {
            game: "tablut".into(),
            ..Default::default()
        }),
        include_position: false,
    });
    let legal = tokio::time::timeout(within, legal).await;
    assert!(matches!(legal, Ok(Ok(_))), "LegalMoves: {legal:?}");
}

/// Waits (at most `within`) for the resident memory to fall under `mb`.
async fn rss_falls_under(server: &Caberd, mb: u64, within: Duration) -> u64 {
    let start = Instant::now();
    loop {
        let rss = server.rss_mb();
        if rss < mb || start.elapsed() > within {
            return rss;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Streams that send only a message's prefix and stall, without a token:
/// 500 and 2,000 announcing 4 MB to the health service (each refused at
/// once: a health check takes at most 1 KiB), 2,000 announcing 256 KiB to
/// the API (as much as the request budget holds, the rest refused) and
/// 2,000 announcing 10 bytes (each held until the request timeout). caberd
/// stays under 200 MB, calls on other connections answer meanwhile, and the
/// memory is given back once the client has gone. (Before the transport's
/// bounds, 500 streams took caberd from 17 MB to over 1 GB.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_streams_pin_little_memory_which_comes_back() {
    let server = Caberd::start(&[], false);
    normal_calls_answer(&server).await;
    let base = server.rss_mb();
    for (streams, path, announced) in [
        (500, "/grpc.health.v1.Health/Check", 4 << 20),
        (2000, "/grpc.health.v1.Health/Check", 4 << 20),
        (2000, "/caber.v1.GameEngine/LegalMoves", 256 << 10),
        (2000, "/grpc.health.v1.Health/Check", 10),
    ] {
        let held = stall(server.addr, streams, path, announced).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        normal_calls_answer(&server).await;
        let peak = server.rss_mb();
        eprintln!(
            "{streams} streams to {path} announcing {announced} bytes: {base} MB, then {peak} MB"
        );
        assert!(peak < 200, "{streams} stalled streams: {peak} MB");
        drop(held);
        let after = rss_falls_under(&server, base + 20, Duration::from_secs(10)).await;
        eprintln!("  after the client left: {after} MB");
        assert!(
            after < base + 20,
            "the memory stays: {after} MB, {base} MB before"
        );
    }
}

/// Connections that never call are closed after the idle timeout, those
/// that send the HTTP/2 preface and no stream as well; at the cap a client
/// that calls still gets in (an idle connection makes room), and the log
/// says the cap was reached. (Before, 2,200 idle connections were all open
/// after 21 s.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_never_call_are_closed_and_make_room_at_the_cap() {
    let server = Caberd::start(
        &[
            "--idle-timeout-ms",
            "1000",
            "--max-connections",
            "40",
            "--max-connections-per-address",
            "40",
        ],
        true,
    );
    let mut silent = Vec::new();
    for _ in 0..60 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut prefaced = Vec::new();
    for _ in 0..5 {
        prefaced.push(h2_connection(server.addr, 65_535).await);
    }
    let opened = Instant::now();
    normal_calls_answer(&server).await;
    // Every silent connection is closed by the server: reading ends.
    for mut tcp in silent {
        let mut buf = [0u8; 256];
        let closed = tokio::time::timeout(Duration::from_secs(5), async {
            use tokio::io::AsyncReadExt;
            loop {
                match tcp.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => continue,
                }
            }
        })
        .await;
        assert!(closed.is_ok(), "a silent connection still open after 5 s");
    }
    assert!(opened.elapsed() < Duration::from_secs(5));
    // The prefaced ones too: a new stream on them fails.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for send in prefaced {
        let closed = match send.ready().await {
            Err(_) => true,
            Ok(mut send) => send
                .send_request(grpc_request("/grpc.health.v1.Health/Check"), true)
                .is_err(),
        };
        assert!(closed, "a connection with no stream still open");
    }
    let logs = server.logs();
    assert!(
        logs.contains("connection limit reached: 40 connections open"),
        "{logs}"
    );
}

/// An HTTP/2 connection from `source` (a loopback address of this
/// machine) that makes one health check and then keeps answering PINGs.
async fn used_connection(addr: SocketAddr, source: &str) -> SendRequest<Bytes> {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    let tcp = socket.connect(addr).await.unwrap();
    let (send, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut send = send.ready().await.unwrap();
    let (response, mut body) = send
        .send_request(grpc_request("/grpc.health.v1.Health/Check"), false)
        .unwrap();
    let mut message = vec![0u8, 0, 0, 0, 0];
    HealthCheckRequest::default().encode(&mut message).unwrap();
    body.send_data(Bytes::from(message), true).unwrap();
    let response = response.await.unwrap();
    assert_eq!(response.status(), 200);
    let mut body = response.into_body();
    while body.data().await.is_some() {}
    send
}

/// Whether the server has closed the connection of `send` (a new stream fails).
async fn closed(send: SendRequest<Bytes>) -> bool {
    match tokio::time::timeout(Duration::from_secs(1), send.ready()).await {
        Ok(Err(_)) => true,
        Ok(Ok(mut send)) => send
            .send_request(grpc_request("/grpc.health.v1.Health/Check"), true)
            .is_err(),
        Err(_) => false,
    }
}

/// Connections that made a call and then only answer the server's PINGs
/// are closed once idle for --max-connection-idle-ms, and at the cap a
/// client that calls takes the place of the one idle longest; a call in
/// progress keeps its connection past that time. (Before, 1,000 such
/// connections kept every legitimate call out for good.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_idle_after_a_call_make_room_and_are_closed() {
    let server = Caberd::start(
        &[
            "--max-connections",
            "30",
            "--max-connections-per-address",
            "30",
            "--max-connection-idle-ms",
            "2000",
            "--keepalive-interval-ms",
            "200",
        ],
        false,
    );
    let mut used = Vec::new();
    for _ in 0..30 {
        used.push(used_connection(server.addr, "127.0.0.1").await);
    }
    let start = Instant::now();
    normal_calls_answer(&server).await;
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // A search longer than the idle time keeps its connection.
    let channel = server.channel().await;
    let mut client = GameEngineClient::new(channel);
    let search = client.best_move(proto::BestMoveRequest {
        position: Some(proto::Position {
            game: "tablut".into(),
            ..Default::default()
        }),
        limits: Some(proto::Limits {
            movetime_ms: 3000,
            ..Default::default()
        }),
        ..Default::default()
    });
    let searched = tokio::time::timeout(Duration::from_secs(10), search).await;
    assert!(matches!(searched, Ok(Ok(_))), "{searched:?}");
    // By now (3 s) every connection idle since its health check is closed,
    // though each answered the server's PINGs.
    let mut open = 0;
    for send in used {
        if !closed(send).await {
            open += 1;
        }
    }
    assert_eq!(open, 0, "connections idle for 3 s still open");
}

/// One address may hold at most --max-connections-per-address connections:
/// beyond, its own connection idle longest makes room, or the new one is
/// closed when each has a call in progress; other addresses are not
/// affected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_share_of_connections() {
    let server = Caberd::start(
        &[
            "--max-connections",
            "100",
            "--max-connections-per-address",
            "4",
            "--request-timeout-ms",
            "20000",
        ],
        true,
    );
    // Four connections from 127.0.0.2, each with a call in progress (a
    // request that never ends).
    let mut busy = Vec::new();
    for _ in 0..4 {
        let send = used_connection(server.addr, "127.0.0.2").await;
        let mut send = send.ready().await.unwrap();
        let (response, mut body) = send
            .send_request(grpc_request("/grpc.health.v1.Health/Check"), false)
            .unwrap();
        body.send_data(Bytes::from_static(&[0, 0, 0, 0, 2]), false)
            .unwrap();
        busy.push((send, response, body));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A fifth from the same address is closed at once.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let mut tcp = socket.connect(server.addr).await.unwrap();
    let mut buf = [0u8; 64];
    use tokio::io::AsyncReadExt;
    let read = tokio::time::timeout(Duration::from_secs(2), tcp.read(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(0) | Err(_))), "{read:?}");
    // Another address still gets in.
    normal_calls_answer(&server).await;
    // Once one of 127.0.0.2's calls ends, a new connection from it replaces
    // that idle one.
    let (send, _response, _body) = busy.pop().unwrap();
    drop((_response, _body));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let fresh = used_connection(server.addr, "127.0.0.2").await;
    assert!(closed(send).await, "the idle one made room");
    assert!(!closed(fresh).await);
    let logs = server.logs();
    assert!(
        logs.contains("connection limit of one address reached: 4 connections open"),
        "{logs}"
    );
}

/// A long Tablut game's record, played through the API (random moves).
async fn long_record(channel: &Channel, plies: usize) -> String {
    let mut client = GameEngineClient::new(channel.clone());
    let mut seed = 12345u64;
    loop {
        let mut position = client
            .new_game(proto::NewGameRequest {
                game: "tablut".into(),
                variant: "bga".into(),
                seed: 0,
            })
            .await
            .unwrap()
            .into_inner()
            .position
            .unwrap()
            .position
            .unwrap();
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = client
                .legal_moves(proto::LegalMovesRequest {
                    position: Some(position.clone()),
                    include_position: false,
                })
                .await
                .unwrap()
                .into_inner()
                .moves;
            if legal.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let chosen = &legal[(seed >> 33) as usize % legal.len()];
            moves.push(chosen.text.clone());
            let applied = client
                .apply(proto::ApplyRequest {
                    position: Some(position),
                    r#move: chosen.r#move.clone(),
                })
                .await
                .unwrap()
                .into_inner();
            position = applied.position.unwrap().position.unwrap();
        }
        if moves.len() == plies {
            let lines: Vec<String> = moves
                .iter()
                .enumerate()
                .map(|(i, m)| format!("{}. {m}", i + 1))
                .collect();
            return format!(
                "[Game \"tablut\"]\n[Variant \"bga\"]\n\n{}\n",
                lines.join("\n")
            );
        }
    }
}

/// Starts a `Review` of `record` on a raw connection whose window lets the
/// server send almost nothing, and never reads it.
async fn unread_review(
    addr: SocketAddr,
    record: &str,
    movetime_ms: u32,
) -> (SendRequest<Bytes>, Held) {
    let mut send = h2_connection(addr, 1024).await;
    let request = proto::ReviewRequest {
        record: record.to_string(),
        limits: Some(proto::Limits {
            movetime_ms,
            ..Default::default()
        }),
        searcher: String::new(),
    };
    let encoded = request.encode_to_vec();
    let mut message = vec![0u8];
    message.extend_from_slice(&(encoded.len() as u32).to_be_bytes());
    message.extend_from_slice(&encoded);
    send = send.ready().await.unwrap();
    let (response, mut body) = send
        .send_request(grpc_request("/caber.v1.GameEngine/Review"), false)
        .unwrap();
    body.send_data(Bytes::from(message), true).unwrap();
    (send, (response, body))
}

/// How long until a short `BestMove` gets a search place (asked every 100
/// ms), and whether the first was refused (every place was taken).
async fn time_to_a_search_place(channel: &Channel, within: Duration) -> (bool, Option<Duration>) {
    let mut client = GameEngineClient::new(channel.clone());
    let start = Instant::now();
    let mut refused = false;
    while start.elapsed() < within {
        let reply = client
            .best_move(proto::BestMoveRequest {
                table: String::new(),
                search_moves: Vec::new(),
                position: Some(proto::Position {
                    game: "tablut".into(),
                    variant: "bga".into(),
                    state: Some(State::Text(
                        "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -".into(),
                    )),
                }),
                limits: Some(proto::Limits {
                    movetime_ms: 20,
                    ..Default::default()
                }),
                searcher: String::new(),
            })
            .await;
        match reply {
            Ok(_) => return (refused, Some(start.elapsed())),
            Err(s) if s.code() == tonic::Code::ResourceExhausted => refused = true,
            Err(s) => panic!("BestMove: {s:?}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (refused, None)
}

/// Two clients start reviews they never read, on a server with two search
/// places: one asks 1 s a search for 120 moves (about 4 minutes before),
/// the other 5 ms a search for 600 moves, whose updates far exceed what the
/// connection lets the server send. Both reviews end within the server's
/// `--max-review-ms` (2 s) whatever the client reads, so a `BestMove` gets a
/// place within a few seconds, not after minutes. (Before, the first held
/// its place for 2 x 121 x 1 s, the second until its client went away.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_nobody_reads_give_their_search_places_back_in_time() {
    let server = Caberd::start(
        &[
            "--search-threads",
            "2",
            "--max-searches",
            "2",
            "--max-review-ms",
            "2000",
        ],
        false,
    );
    let channel = server.channel().await;
    let long = long_record(&channel, 600).await;
    let short: String = long.lines().take(3 + 120).collect::<Vec<_>>().join("\n");
    let _first = unread_review(server.addr, &short, 1000).await;
    let _second = unread_review(server.addr, &long, 5).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (refused, waited) = time_to_a_search_place(&channel, Duration::from_secs(20)).await;
    eprintln!("a BestMove got a place after {waited:?}");
    assert!(refused, "the reviews held no search place");
    assert!(
        waited.is_some_and(|w| w < Duration::from_secs(6)),
        "no search place for 20 s: {waited:?}"
    );
}

/// A review whose call has a 1.5 s deadline ends before it, its searches
/// shortened to fit, and says so in its summary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_ends_before_its_deadline_and_says_how() {
    let server = Caberd::start(&[], false);
    let channel = server.channel().await;
    let record = long_record(&channel, 60).await;
    let mut request = tonic::Request::new(proto::ReviewRequest {
        record,
        limits: Some(proto::Limits {
            movetime_ms: 1000,
            ..Default::default()
        }),
        searcher: String::new(),
    });
    request.set_timeout(Duration::from_millis(1500));
    let start = Instant::now();
    let mut stream = GameEngineClient::new(channel)
        .review(request)
        .await
        .unwrap()
        .into_inner();
    let mut last = None;
    while let Some(update) = stream.message().await.unwrap() {
        last = Some(update);
    }
    let last = last.unwrap();
    assert!(last.r#final);
    assert!(start.elapsed() < Duration::from_millis(1500));
    assert!(
        last.budget.contains("to review 61 positions within")
            && last.budget.contains("the call's deadline"),
        "{}",
        last.budget
    );
}

/// SIGTERM while a client holds a review it does not read: caberd still
/// exits 0 within the grace period.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_with_an_unread_review_exits_within_the_grace_period() {
    let mut server = Caberd::start(&["--shutdown-grace-ms", "1500"], false);
    let channel = server.channel().await;
    let record = long_record(&channel, 300).await;
    let _held = unread_review(server.addr, &record, 50).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = libc::pid_t::try_from(server.child.id()).unwrap();
    let signalled = Instant::now();
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = tokio::task::spawn_blocking(move || {
        let status = server.child.wait();
        (status, server)
    })
    .await
    .unwrap()
    .0
    .unwrap();
    let took = signalled.elapsed();
    assert!(status.success(), "{status}");
    assert!(
        took < Duration::from_millis(1500 + 300),
        "exited {took:?} after SIGTERM"
    );
}
