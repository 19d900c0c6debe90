//! The `caberd` binary: listens where asked (port 0 = a free port), prints the
//! real address, serves the API there and stops cleanly on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::proto::ListGamesRequest;

mod common;

/// Starts `caberd` on a free port with `args`; returns it and the address it printed.
fn caberd(args: &[&str]) -> (Child, String) {
    common::spawn_caberd(args, false)
}

#[cfg(unix)]
#[tokio::test]
async fn caberd_prints_its_real_address_and_serves_there() {
    let (mut child, addr) = caberd(&["--shutdown-grace-ms", "5000"]);
    let port: u16 = addr.rsplit(':').next().unwrap().parse().unwrap();
    assert_ne!(port, 0, "the real port is printed");
    let result = async {
        let mut client = GameEngineClient::connect(format!("http://{addr}")).await?;
        let games = client.list_games(ListGamesRequest {}).await?.into_inner();
        Ok::<_, Box<dyn std::error::Error>>(games.games.len())
    }
    .await;
    // SIGTERM (what container runtimes send) stops it cleanly.
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = match term {
        // Waited for off the runtime, which must keep serving the client's
        // connection during the graceful shutdown.
        Ok(s) if s.success() => tokio::task::spawn_blocking(move || child.wait())
            .await
            .unwrap()
            .unwrap(),
        _ => {
            child.kill().unwrap();
            panic!("cannot send SIGTERM: {term:?}");
        }
    };
    assert!(result.unwrap() >= 1);
    assert!(status.success(), "caberd exited with {status} on SIGTERM");
}

/// Sends SIGTERM to `child`, at once (no `kill` process to start first).
#[cfg(unix)]
fn sigterm(child: &std::process::Child) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    let sent = unsafe { libc::kill(pid, libc::SIGTERM) };
    assert_eq!(sent, 0, "cannot send SIGTERM");
}

/// A SIGTERM sent as soon as the address is printed is caught as well:
/// caberd shuts down and exits 0. (While it set up its signal handlers only
/// after printing, about one start in three was killed by the signal.)
#[cfg(unix)]
#[test]
fn sigterm_right_after_the_address_still_exits_0() {
    for _ in 0..20 {
        let (mut child, _) = caberd(&[]);
        sigterm(&child);
        let status = child.wait().expect("caberd ends");
        assert!(status.success(), "caberd exited with {status}");
    }
}

/// A Tablut search request with `movetime_ms`.
fn search_request(movetime_ms: u32) -> caber_service::proto::BestMoveRequest {
    use caber_service::proto::{position::State, BestMoveRequest, Limits, Position};
    BestMoveRequest {
        searcher: String::new(),
        table: String::new(),
        search_moves: Vec::new(),
        position: Some(Position {
            game: "tablut".into(),
            variant: "bga".into(),
            state: Some(State::Text(
                "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -".into(),
            )),
        }),
        limits: Some(Limits {
            movetime_ms,
            ..Default::default()
        }),
    }
}

/// A search call running in the background.
type SearchCall = tokio::task::JoinHandle<
    Result<tonic::Response<caber_service::proto::BestMoveResponse>, tonic::Status>,
>;

/// Starts a search of `movetime_ms` on caberd (one search thread, one place)
/// and waits until it runs: a perft probe, which needs a place too, is then
/// refused. A search that came while a probe held the place is started again.
async fn start_search(
    client: &mut GameEngineClient<tonic::transport::Channel>,
    movetime_ms: u32,
) -> SearchCall {
    use caber_service::proto::{position::State, PerftRequest, Position};
    let search = |mut searcher: GameEngineClient<tonic::transport::Channel>| {
        tokio::spawn(async move { searcher.best_move(search_request(movetime_ms)).await })
    };
    let mut call = search(client.clone());
    let probing = std::time::Instant::now();
    loop {
        assert!(
            probing.elapsed() < std::time::Duration::from_secs(30),
            "the search never held the place"
        );
        if call.is_finished() {
            let refused = (&mut call).await.unwrap().unwrap_err();
            assert_eq!(
                refused.code(),
                tonic::Code::ResourceExhausted,
                "{refused:?}"
            );
            call = search(client.clone());
        }
        let probe = client
            .perft(PerftRequest {
                position: Some(Position {
                    game: "tablut".into(),
                    variant: "bga".into(),
                    state: Some(State::Text("9/9/9/9/4k4/9/9/9/9 w -".into())),
                }),
                depth: 1,
                divide: false,
            })
            .await;
        if probe.is_err_and(|s| s.code() == tonic::Code::ResourceExhausted) {
            return call;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// Waits for `child` off the runtime, which must keep serving the client's
/// connections meanwhile.
async fn exit_status(mut child: Child) -> std::process::ExitStatus {
    tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap()
}

/// On SIGTERM: health turns NOT_SERVING on a watcher's stream, every
/// connection gets an HTTP/2 GOAWAY (a client opens its next call
/// elsewhere: here the listener is closed, so it cannot connect at all;
/// the server refuses no call), the call in flight finishes, and caberd
/// exits 0.
#[cfg(unix)]
#[tokio::test]
async fn sigterm_turns_health_off_sends_goaway_lets_the_call_in_flight_finish_and_exits_0() {
    use caber_service::tonic_health::pb::health_check_response::ServingStatus;
    use caber_service::tonic_health::pb::health_client::HealthClient;
    use caber_service::tonic_health::pb::HealthCheckRequest;

    let (child, addr) = caberd(&[
        "--shutdown-grace-ms",
        "20000",
        "--search-threads",
        "1",
        "--max-searches",
        "1",
    ]);
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut watch = HealthClient::new(channel.clone())
        .watch(HealthCheckRequest {
            service: "caber.v1.GameEngine".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let serving = watch.message().await.unwrap().unwrap().status;
    assert_eq!(serving, ServingStatus::Serving as i32);
    // A bare HTTP/2 connection with no call on it, to see the GOAWAY.
    let tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let (bare, connection) = h2::client::handshake(tcp).await.unwrap();
    let bare_connection = tokio::spawn(connection);
    let mut client = GameEngineClient::new(channel.clone());
    let call = start_search(&mut client, 1500).await;
    sigterm(&child);
    let not_serving = watch.message().await.unwrap().unwrap().status;
    assert_eq!(not_serving, ServingStatus::NotServing as i32);
    let closed = tokio::time::timeout(std::time::Duration::from_secs(5), bare_connection)
        .await
        .expect("the idle connection is closed at once")
        .unwrap();
    assert!(closed.is_ok(), "closed by a GOAWAY, not broken: {closed:?}");
    let next = bare
        .ready()
        .await
        .expect_err("no new stream after a GOAWAY");
    assert!(next.is_go_away() && next.is_remote(), "{next:?}");
    // A call sent before the client saw the GOAWAY is served; after it, the
    // client does not send it on this connection and cannot connect again
    // (the listener is closed): the error is the client transport's own
    // (a status with a transport error as its source), never a status the
    // server sent.
    match client.list_games(ListGamesRequest {}).await {
        Ok(games) => assert!(!games.into_inner().games.is_empty()),
        Err(e) => {
            let transport = std::error::Error::source(&e)
                .is_some_and(|s| s.downcast_ref::<tonic::transport::Error>().is_some());
            assert!(transport, "a status from the server: {e:?}");
        }
    }
    let reply = call.await.unwrap().expect("the call in flight completes");
    let reply = reply.into_inner();
    assert!(reply.best_move.is_some());
    assert_eq!(reply.stats.unwrap().interrupted, "");
    drop((watch, client, channel));
    let status = exit_status(child).await;
    assert!(status.success(), "caberd exited with {status} on SIGTERM");
}

/// A search longer than the grace period is stopped before the grace period
/// ends (its last fifth is kept for the answers and for closing): it answers
/// with its best move so far, noted as interrupted, and caberd exits 0
/// within the grace period.
#[cfg(unix)]
#[tokio::test]
async fn at_the_end_of_the_grace_period_searches_answer_with_their_best_so_far() {
    let (child, addr) = caberd(&[
        "--shutdown-grace-ms",
        "300",
        "--search-threads",
        "1",
        "--max-searches",
        "1",
    ]);
    let mut client = GameEngineClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let call = start_search(&mut client, 20_000).await;
    let signalled = std::time::Instant::now();
    sigterm(&child);
    let reply = call
        .await
        .unwrap()
        .expect("the search answers instead of being dropped")
        .into_inner();
    let waited = signalled.elapsed();
    assert!(reply.best_move.is_some());
    let stats = reply.stats.unwrap();
    assert!(stats.stopped);
    assert_eq!(stats.interrupted, caber_service::search_runner::INTERRUPTED);
    assert!(
        waited >= std::time::Duration::from_millis(240)
            && waited < std::time::Duration::from_millis(300 + 100),
        "answered {waited:?} after SIGTERM"
    );
    drop(client);
    let status = exit_status(child).await;
    assert!(status.success(), "caberd exited with {status} on SIGTERM");
    assert!(
        signalled.elapsed() < std::time::Duration::from_millis(300 + 300),
        "exited {:?} after SIGTERM",
        signalled.elapsed()
    );
}

/// Log lines on a pipe have no colours, and a call with a 100 KB game name
/// logs a line of normal size (the name quoted by a prefix, in the log line
/// as in the status).
#[cfg(unix)]
#[tokio::test]
async fn log_lines_are_plain_and_bounded() {
    use caber_service::proto::{LegalMovesRequest, Position};
    let mut child = Command::new(env!("CARGO_BIN_EXE_caberd"))
        .args(["--listen", "127.0.0.1:0", "--log-format", "text"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("caberd starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("caberd listening on ")
        .unwrap()
        .to_string();
    let mut client = GameEngineClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let long = "g".repeat(100_000);
    let refused = client
        .legal_moves(LegalMovesRequest {
            position: Some(Position {
                game: long.clone(),
                ..Default::default()
            }),
            include_position: false,
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert!(refused.message().len() < 300, "{}", refused.message());
    // A review is logged with its record's game.
    let review = caber_service::proto::ReviewRequest {
        record: "[Game \"tablut\"]\n\n1. e2-g2\n".into(),
        limits: Some(caber_service::proto::Limits {
            depth: 1,
            ..Default::default()
        }),
        searcher: String::new(),
    };
    let mut updates = client.review(review).await.unwrap().into_inner();
    while updates.message().await.unwrap().is_some() {}
    drop(client);
    sigterm(&child);
    let stderr = child.stderr.take().unwrap();
    let logs = tokio::task::spawn_blocking(move || std::io::read_to_string(stderr).unwrap())
        .await
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert!(!logs.contains('\x1b'), "colour codes on a pipe:\n{logs}");
    let call = logs
        .lines()
        .find(|l| l.contains("INVALID_ARGUMENT"))
        .unwrap_or_else(|| panic!("no line for the call in\n{logs}"));
    assert!(call.len() < 1024, "a {}-byte log line", call.len());
    assert!(call.contains("... (100000 bytes)"), "{call}");
    let review = logs
        .lines()
        .find(|l| l.contains("/caber.v1.GameEngine/Review"))
        .unwrap_or_else(|| panic!("no line for the review in\n{logs}"));
    assert!(
        review.contains("game=\"tablut\"") || review.contains("game=tablut"),
        "{review}"
    );
}

/// An encrypted TLS key stops caberd at start with a message that says so.
#[cfg(unix)]
#[test]
fn an_encrypted_tls_key_is_refused_at_start_as_such() {
    let dir = std::env::temp_dir().join(format!("caberd-key-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert_path, key_path) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert_path, cert.cert.pem()).unwrap();
    std::fs::write(
        &key_path,
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_caberd"))
        .args(["--listen", "127.0.0.1:0", "--tls-cert"])
        .arg(&cert_path)
        .arg("--tls-key")
        .arg(&key_path)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("key.pem is encrypted"), "{stderr}");
    assert!(output.stdout.is_empty(), "it never listened");
}
