//! The `caberd` binary: listens where asked (port 0 = a free port), prints the
//! real address, serves the API there and stops cleanly on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::proto::ListGamesRequest;

/// Starts `caberd` on a free port with `args`; returns it and the address it printed.
fn caberd(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caberd"))
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("caberd starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("caberd listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    (child, addr)
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

#[cfg(unix)]
#[tokio::test]
async fn sigterm_turns_health_off_lets_the_call_in_flight_finish_and_exits_0() {
    use caber_service::proto::{position::State, BestMoveRequest, Limits, Position};
    use caber_service::tonic_health::pb::health_check_response::ServingStatus;
    use caber_service::tonic_health::pb::health_client::HealthClient;
    use caber_service::tonic_health::pb::HealthCheckRequest;

    let (mut child, addr) = caberd(&[
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
    let mut health = HealthClient::new(channel.clone());
    let mut watch = health
        .watch(HealthCheckRequest {
            service: "caber.v1.GameEngine".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let serving = watch.message().await.unwrap().unwrap().status;
    assert_eq!(serving, ServingStatus::Serving as i32);
    // A search long enough to be in flight when SIGTERM comes.
    let mut client = GameEngineClient::new(channel.clone());
    let search = |mut searcher: GameEngineClient<tonic::transport::Channel>| {
        tokio::spawn(async move {
            let request = BestMoveRequest {
                searcher: String::new(),
                position: Some(Position {
                    game: "tablut".into(),
                    variant: "bga".into(),
                    state: Some(State::Text(
                        "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -".into(),
                    )),
                }),
                limits: Some(Limits {
                    movetime_ms: 1500,
                    ..Default::default()
                }),
            };
            searcher.best_move(request).await
        })
    };
    let mut call = search(client.clone());
    let probing = std::time::Instant::now();
    // The search holds the only place once a probe (a perft, which also takes
    // a place) is refused.
    loop {
        assert!(
            probing.elapsed() < std::time::Duration::from_secs(30),
            "the search never held the place"
        );
        if call.is_finished() {
            // The search came while a probe held the place: start it again.
            let refused = (&mut call).await.unwrap().unwrap_err();
            assert_eq!(
                refused.code(),
                tonic::Code::ResourceExhausted,
                "{refused:?}"
            );
            call = search(client.clone());
        }
        let busy = client
            .perft(caber_service::proto::PerftRequest {
                position: Some(Position {
                    game: "tablut".into(),
                    variant: "bga".into(),
                    state: Some(State::Text("9/9/9/9/4k4/9/9/9/9 w -".into())),
                }),
                depth: 1,
                divide: false,
            })
            .await;
        if busy.is_err_and(|s| s.code() == tonic::Code::ResourceExhausted) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    sigterm(&child);
    let not_serving = watch.message().await.unwrap().unwrap().status;
    assert_eq!(not_serving, ServingStatus::NotServing as i32);
    let check = health
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner()
        .status;
    assert_eq!(check, ServingStatus::NotServing as i32);
    let refused = client.list_games(ListGamesRequest {}).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unavailable);
    let reply = call.await.unwrap().expect("the call in flight completes");
    assert!(reply.into_inner().best_move.is_some());
    drop((watch, health, client, channel));
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "caberd exited with {status} on SIGTERM");
}
