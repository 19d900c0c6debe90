//! Shared by the RPC tests: a real server on an ephemeral port and a client.

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::EngineService;
use tonic::transport::Channel;

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
