//! Shared by the RPC tests: a real server on an ephemeral port and a client.

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::{proto, EngineService};
use tonic::transport::Channel;
use tonic::Code;

/// The generated client.
pub type Client = GameEngineClient<Channel>;

/// Serves `service` on 127.0.0.1:0 in the background; a client connected to it.
pub async fn serve(service: EngineService) -> Client {
    let (listener, addr) = caber_service::bind("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    tokio::spawn(caber_service::serve(
        caber_service::router(service),
        listener,
        std::future::pending(),
    ));
    GameEngineClient::connect(format!("http://{addr}"))
        .await
        .unwrap()
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
