//! The `caberd` binary: listens where asked (port 0 = a free port), prints the
//! real address, serves the API there and stops cleanly on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::proto::ListGamesRequest;

#[cfg(unix)]
#[tokio::test]
async fn caberd_prints_its_real_address_and_serves_there() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caberd"))
        .args(["--listen", "127.0.0.1:0", "--shutdown-grace-ms", "5000"])
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
