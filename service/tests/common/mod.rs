//! Shared by the RPC tests: a real server on an ephemeral port and a client.

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::{proto, EngineService};
use tonic::transport::Channel;
use tonic::Code;

/// The generated client.
pub type Client = GameEngineClient<Channel>;

/// Serves `service` on 127.0.0.1:0 in the background; a client connected to it.
#[allow(dead_code)] // not every test file serves in process
pub async fn serve(service: EngineService) -> Client {
    let addr = serve_in_background(caber_service::router(service)).await;
    GameEngineClient::connect(format!("http://{addr}"))
        .await
        .unwrap()
}

/// Serves `router` on 127.0.0.1:0 in the background; returns its address.
#[allow(dead_code)] // not every test file serves in process
pub async fn serve_in_background(router: caber_service::ApiRouter) -> std::net::SocketAddr {
    let (listener, addr) = caber_service::bind("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    tokio::spawn(caber_service::serve(
        router,
        listener,
        std::future::pending(),
    ));
    addr
}

/// The `INVALID_ARGUMENT` message of `LegalMoves` refusing `position`.
#[allow(dead_code)] // not every test file refuses positions
pub async fn refused_position(client: &mut Client, position: proto::Position) -> String {
    let request = proto::LegalMovesRequest {
        position: Some(position),
        include_position: false,
    };
    let status = client.legal_moves(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    status.message().to_string()
}

/// Starts the `caberd` binary on a free port with `args` (logging warnings
/// and up, to a pipe when `logs` is set); the child and the address it printed.
#[allow(dead_code)] // not every test file runs the binary
pub fn spawn_caberd(args: &[&str], logs: bool) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_caberd"))
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(if logs { Stdio::piped() } else { Stdio::null() })
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
