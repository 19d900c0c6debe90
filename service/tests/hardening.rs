//! The server around the API, in-process on ephemeral ports: health checking,
//! the search pool's limits and caps, cancellation, the message size limit,
//! the bearer token, TLS, metrics and draining.

use std::time::{Duration, Instant};

use caber_service::auth::Token;
use caber_service::pool::SearchPool;
use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::proto::{self, position::State};
use caber_service::search_runner::{Caps, SearchRunner};
use caber_service::tonic_health::pb::health_check_response::ServingStatus;
use caber_service::tonic_health::pb::health_client::HealthClient;
use caber_service::tonic_health::pb::HealthCheckRequest;
use caber_service::{Control, EngineService, ServerOptions, API_SERVICE};

mod common;
use common::serve_in_background;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::transport::{Channel, ClientTlsConfig, Endpoint, ServerTlsConfig};
use tonic::Code;

const START: &str = "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -";

/// A running server, a channel to it and its handles.
struct Started {
    channel: Channel,
    service: EngineService,
    runner: SearchRunner,
    control: Control,
}

/// A server with a pool of `threads` threads and `places` places.
async fn start_with(threads: usize, places: usize, caps: Caps, options: ServerOptions) -> Started {
    let runner = SearchRunner::new(SearchPool::new(threads, places), caps);
    let service = EngineService::with_runner(runner.clone());
    let (router, control) = caber_service::build(service.clone(), options).unwrap();
    let addr = serve_in_background(router).await;
    let channel = Endpoint::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    Started {
        channel,
        service,
        runner,
        control,
    }
}

async fn start() -> Started {
    start_with(2, 2, Caps::default(), ServerOptions::default()).await
}

fn position() -> Option<proto::Position> {
    Some(proto::Position {
        game: "tablut".into(),
        variant: "bga".into(),
        state: Some(State::Text(START.into())),
    })
}

/// A `BestMove` of the start position within `limits`.
fn best_move(limits: proto::Limits) -> proto::BestMoveRequest {
    proto::BestMoveRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: position(),
        limits: Some(limits),
    }
}

fn long_search() -> proto::BestMoveRequest {
    best_move(proto::Limits {
        depth: 60,
        ..Default::default()
    })
}

/// Polls `done` every 5 ms for at most 30 s; returns how long it took.
async fn wait_until(what: &str, mut done: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{what}: not after 30 s"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    start.elapsed()
}

/// Starts `call` (work that takes the only pool place), cancels it once it
/// runs, and returns how long the work then took to leave the pool.
async fn cancel_once_running<T: Send + 'static>(
    service: &EngineService,
    call: impl std::future::Future<Output = T> + Send + 'static,
) -> Duration {
    let running = tokio::spawn(call);
    wait_until("the call starts", || service.running_searches() == 1).await;
    running.abort();
    wait_until("the cancelled call stops", || {
        service.running_searches() == 0
    })
    .await
}

async fn health(channel: &Channel, service: &str) -> ServingStatus {
    let request = HealthCheckRequest {
        service: service.into(),
    };
    let status = HealthClient::new(channel.clone())
        .check(request)
        .await
        .unwrap()
        .into_inner()
        .status;
    ServingStatus::try_from(status).unwrap()
}

#[tokio::test]
async fn health_serves_the_server_and_the_api() {
    let s = start().await;
    assert_eq!(health(&s.channel, "").await, ServingStatus::Serving);
    assert_eq!(
        health(&s.channel, API_SERVICE).await,
        ServingStatus::Serving
    );
    let unknown = HealthClient::new(s.channel.clone())
        .check(HealthCheckRequest {
            service: "no.Such".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
}

#[tokio::test]
async fn a_full_pool_refuses_and_a_cancelled_search_stops() {
    let s = start_with(1, 1, Caps::default(), ServerOptions::default()).await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let mut first = client.clone();
    let running = tokio::spawn(async move { first.best_move(long_search()).await });
    let service = s.service.clone();
    wait_until("the first search starts", || {
        service.running_searches() == 1
    })
    .await;
    let refused = client.best_move(long_search()).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert!(
        refused
            .message()
            .starts_with("server busy: 1 searches already running"),
        "{refused:?}"
    );
    // Perft shares the pool.
    let perft = client
        .perft(proto::PerftRequest {
            position: position(),
            depth: 1,
            divide: false,
        })
        .await
        .unwrap_err();
    assert_eq!(perft.code(), Code::ResourceExhausted);
    // Cancelling the call (dropping its future) stops the search.
    running.abort();
    let took = wait_until("the cancelled search stops", || {
        service.running_searches() == 0
    })
    .await;
    println!("cancelled BestMove: search stopped {took:?} after the cancel");
    let reply = client
        .perft(proto::PerftRequest {
            position: position(),
            depth: 1,
            divide: false,
        })
        .await
        .unwrap();
    assert_eq!(reply.into_inner().nodes, 80, "bga start: 80 black moves");
}

/// A perft far too long to finish (depth 6 of the Tablut start) stops when
/// the client's deadline passes, and when the client cancels the call.
#[tokio::test]
async fn a_long_perft_stops_at_the_deadline_and_when_cancelled() {
    let s = start_with(1, 1, Caps::default(), ServerOptions::default()).await;
    let client = GameEngineClient::new(s.channel.clone());
    let deep = || proto::PerftRequest {
        position: position(),
        depth: 6,
        divide: true,
    };
    let service = s.service.clone();
    // The deadline: 300 ms.
    let mut request = tonic::Request::new(deep());
    request.set_timeout(Duration::from_millis(300));
    let asked = Instant::now();
    let late = client.clone().perft(request).await.unwrap_err();
    assert!(
        matches!(late.code(), Code::DeadlineExceeded | Code::Cancelled),
        "{late:?}"
    );
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    let took = wait_until("the perft past its deadline stops", || {
        service.running_searches() == 0
    })
    .await;
    println!("Perft past its deadline: stopped {took:?} after the reply");
    // Cancelled by the client.
    let mut first = client.clone();
    let took = cancel_once_running(&service, async move { first.perft(deep()).await }).await;
    println!("cancelled Perft: stopped {took:?} after the cancel");
}

/// A perft longer than the server's maximum movetime is stopped there and refused.
#[tokio::test]
async fn a_perft_above_the_time_cap_is_stopped_and_refused() {
    let caps = Caps {
        max_movetime: Duration::from_millis(200),
        ..Caps::default()
    };
    let s = start_with(1, 1, caps, ServerOptions::default()).await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let request = proto::PerftRequest {
        position: position(),
        depth: 6,
        divide: false,
    };
    let refused = client.perft(request).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(
        refused.message(),
        "depth: perft not done within the server's maximum of 200 ms (--max-movetime-ms); ask for a smaller depth"
    );
    let service = s.service.clone();
    wait_until("the perft stops", || service.running_searches() == 0).await;
}

/// `Playouts` asked for longer than the server's maximum movetime plays for
/// that maximum and says so; a client that goes away stops it; a player's
/// view (its other hand unknown) is refused.
#[tokio::test]
async fn playouts_keep_to_the_time_cap_and_stop_when_cancelled() {
    let caps = Caps {
        max_movetime: Duration::from_millis(200),
        ..Caps::default()
    };
    let s = start_with(1, 1, caps, ServerOptions::default()).await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let long = || proto::PlayoutsRequest {
        position: position(),
        seed: 1,
        movetime_ms: 60_000,
    };
    let asked = Instant::now();
    let reply = client.playouts(long()).await.unwrap().into_inner();
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    assert!(reply.games >= 1 && reply.plies > reply.games, "{reply:?}");
    assert!((0.2..1.0).contains(&reply.seconds), "{reply:?}");
    assert_eq!(
        reply.note,
        "movetime lowered to the server maximum of 200 ms"
    );
    // Cancelled by the client: the run stops between two games.
    let uncapped = start_with(1, 1, Caps::default(), ServerOptions::default()).await;
    let mut other = GameEngineClient::new(uncapped.channel.clone());
    let took = cancel_once_running(
        &uncapped.service,
        async move { other.playouts(long()).await },
    )
    .await;
    assert!(took < Duration::from_secs(5), "{took:?}");
    // A player's view.
    let deal = client
        .new_game(proto::NewGameRequest {
            game: "schotten-totten".into(),
            variant: String::new(),
            seed: 3,
        })
        .await
        .unwrap()
        .into_inner();
    let full = deal.position.unwrap().position;
    let view = client
        .view(proto::ViewRequest {
            position: full.clone(),
            player: 0,
        })
        .await
        .unwrap()
        .into_inner();
    let refused = client
        .playouts(proto::PlayoutsRequest {
            position: view.position.unwrap().position,
            seed: 1,
            movetime_ms: 10,
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(
        refused.message(),
        "position: a player's view hides the other player's cards: play random games from the referee's full state"
    );
    let dealt = client
        .playouts(proto::PlayoutsRequest {
            position: full,
            seed: 1,
            movetime_ms: 10,
        })
        .await
        .unwrap()
        .into_inner();
    assert!(dealt.games >= 1, "{dealt:?}");
}

#[tokio::test]
async fn a_dropped_analyze_stream_stops_its_search() {
    let s = start().await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let request = proto::AnalyzeRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: position(),
        limits: long_search().limits,
        multipv: 1,
        report_interval_ms: 20,
    };
    let mut stream = client.analyze(request).await.unwrap().into_inner();
    assert!(!stream.message().await.unwrap().unwrap().r#final);
    assert_eq!(s.service.running_searches(), 1);
    drop(stream);
    let service = s.service.clone();
    let took = wait_until("the search stops", || service.running_searches() == 0).await;
    println!("dropped Analyze stream: search stopped {took:?} after the drop");
}

#[tokio::test]
async fn requests_above_the_caps_are_clamped_and_say_so() {
    let caps = Caps {
        max_movetime: Duration::from_millis(50),
        max_nodes: 2000,
        max_threads: 2,
        ..Caps::default()
    };
    let s = start_with(1, 1, caps, ServerOptions::default()).await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let request = best_move(proto::Limits {
        movetime_ms: 3_600_000,
        nodes: 1 << 40,
        threads: 64,
        ..Default::default()
    });
    let stats = client
        .best_move(request)
        .await
        .unwrap()
        .into_inner()
        .stats
        .unwrap();
    assert_eq!(
        stats.clamped,
        "movetime lowered to the server maximum of 50 ms; nodes lowered to the server maximum of 2000; \
         threads lowered to the server maximum of 2"
    );
    // The helper thread adds its nodes 256 at a time.
    assert!(stats.nodes <= 2000 + 256 + 64, "{} nodes", stats.nodes);
}

#[tokio::test]
async fn a_message_above_the_size_limit_is_refused() {
    let options = ServerOptions {
        limits: caber_service::TransportLimits {
            max_message_bytes: 1024,
            ..Default::default()
        },
        ..Default::default()
    };
    let s = start_with(1, 1, Caps::default(), options).await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let request = proto::LegalMovesRequest {
        position: Some(proto::Position {
            game: "tablut".into(),
            variant: "bga".into(),
            state: Some(State::Text("x".repeat(4096))),
        }),
        include_position: false,
    };
    let status = client.legal_moves(request).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("at most 1024"), "{status:?}");
    // A small one still passes.
    let ok = client
        .legal_moves(proto::LegalMovesRequest {
            position: position(),
            include_position: false,
        })
        .await
        .unwrap();
    assert_eq!(ok.into_inner().moves.len(), 80);
}

#[tokio::test]
async fn with_a_token_api_calls_need_it_and_health_stays_open() {
    let options = ServerOptions {
        token: Token::new("t0ken"),
        ..Default::default()
    };
    let s = start_with(1, 1, Caps::default(), options).await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let denied = client
        .list_games(proto::ListGamesRequest {})
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::Unauthenticated);
    assert!(
        denied.message().contains("authorization: missing"),
        "{denied:?}"
    );
    let mut wrong = tonic::Request::new(proto::ListGamesRequest {});
    wrong
        .metadata_mut()
        .insert("authorization", "Bearer nope".parse().unwrap());
    let wrong = client.list_games(wrong).await.unwrap_err();
    assert_eq!(wrong.code(), Code::Unauthenticated);
    let mut right = tonic::Request::new(proto::ListGamesRequest {});
    right
        .metadata_mut()
        .insert("authorization", "Bearer t0ken".parse().unwrap());
    assert!(!client
        .list_games(right)
        .await
        .unwrap()
        .into_inner()
        .games
        .is_empty());
    assert_eq!(health(&s.channel, "").await, ServingStatus::Serving);
}

#[tokio::test]
async fn tls_with_a_self_signed_certificate() {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert_pem, key_pem) = (cert.cert.pem(), cert.signing_key.serialize_pem());
    let identity = tonic::transport::Identity::from_pem(&cert_pem, &key_pem);
    let service = EngineService::new();
    let options = ServerOptions {
        tls: Some(ServerTlsConfig::new().identity(identity)),
        ..Default::default()
    };
    let (router, _) = caber_service::build(service, options).unwrap();
    let addr = serve_in_background(router).await;
    let url = format!("https://localhost:{}", addr.port());
    let tls = ClientTlsConfig::new()
        .ca_certificate(tonic::transport::Certificate::from_pem(&cert_pem))
        .domain_name("localhost");
    let channel = Endpoint::from_shared(url.clone())
        .unwrap()
        .tls_config(tls)
        .unwrap()
        .connect()
        .await
        .unwrap();
    let games = GameEngineClient::new(channel)
        .list_games(proto::ListGamesRequest {})
        .await
        .unwrap();
    assert!(!games.into_inner().games.is_empty());
    // A plaintext client gets no answer from the TLS port.
    let plain = Endpoint::from_shared(format!("http://127.0.0.1:{}", addr.port()))
        .unwrap()
        .connect()
        .await;
    if let Ok(channel) = plain {
        let result = GameEngineClient::new(channel)
            .list_games(proto::ListGamesRequest {})
            .await;
        assert!(result.is_err(), "plaintext call answered over TLS port");
    }
}

/// `GET path` on `addr`; the whole response.
async fn http_get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response
}

#[tokio::test]
async fn metrics_count_calls_by_method_and_code() {
    let s = start().await;
    let (listener, metrics_addr) = caber_service::bind("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    tokio::spawn(caber_service::metrics::serve(listener));
    let mut client = GameEngineClient::new(s.channel.clone());
    client
        .legal_moves(proto::LegalMovesRequest {
            position: position(),
            include_position: false,
        })
        .await
        .unwrap();
    client
        .legal_moves(proto::LegalMovesRequest {
            position: None,
            include_position: false,
        })
        .await
        .unwrap_err();
    client
        .best_move(best_move(proto::Limits {
            depth: 1,
            ..Default::default()
        }))
        .await
        .unwrap();
    // A path the client made up is counted, but not by its name.
    let mut grpc = tonic::client::Grpc::new(s.channel.clone());
    grpc.ready().await.unwrap();
    let made_up = http::uri::PathAndQuery::from_static("/caber.v1.GameEngine/MadeUp");
    let status = grpc
        .unary(tonic::Request::new(Vec::new()), made_up, RawCodec)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unimplemented);
    let response = http_get(metrics_addr, "/metrics").await;
    assert!(!response.contains("MadeUp"), "{response}");
    assert!(response.contains("caber_grpc_calls_total{method=\"unknown\",code=\"UNIMPLEMENTED\"}"));
    // The process and the build.
    for name in [
        "process_cpu_seconds_total ",
        "process_resident_memory_bytes ",
        "process_open_fds ",
    ] {
        assert!(
            response.lines().any(|l| l.starts_with(name)),
            "{name}in\n{response}"
        );
    }
    assert!(response.contains(&format!(
        "caber_build_info{{version=\"{}\"}} 1",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    let value = |prefix: &str| -> u64 {
        response
            .lines()
            .find_map(|l| l.strip_prefix(prefix)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("{prefix} missing in\n{response}"))
    };
    let method = "/caber.v1.GameEngine/LegalMoves";
    assert!(
        value(&format!(
            "caber_grpc_calls_total{{method=\"{method}\",code=\"OK\"}}"
        )) >= 1
    );
    assert!(
        value(&format!(
            "caber_grpc_calls_total{{method=\"{method}\",code=\"INVALID_ARGUMENT\"}}"
        )) >= 1
    );
    assert!(value(&format!("caber_grpc_errors_total{{method=\"{method}\"}}")) >= 1);
    assert!(
        value(&format!(
            "caber_grpc_call_duration_seconds_count{{method=\"{method}\"}}"
        )) >= 2
    );
    assert!(
        value("caber_search_nodes_total") >= 80,
        "a depth-1 search visits every move"
    );
    let missing = http_get(metrics_addr, "/other").await;
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
}

/// Stopping turns health off at once; the server itself refuses no call
/// (the transport's GOAWAY sends clients elsewhere: tests/caberd.rs), and
/// the call in flight finishes.
#[tokio::test]
async fn stopping_turns_health_off_and_lets_calls_finish() {
    let s = start().await;
    let mut watch = HealthClient::new(s.channel.clone())
        .watch(HealthCheckRequest {
            service: API_SERVICE.into(),
        })
        .await
        .unwrap()
        .into_inner();
    let first = watch.message().await.unwrap().unwrap().status;
    assert_eq!(first, ServingStatus::Serving as i32);
    let mut client = GameEngineClient::new(s.channel.clone());
    let mut in_flight = client.clone();
    let call = tokio::spawn(async move {
        in_flight
            .best_move(best_move(proto::Limits {
                movetime_ms: 300,
                ..Default::default()
            }))
            .await
    });
    let service = s.service.clone();
    wait_until("the search starts", || service.running_searches() == 1).await;
    assert_eq!(s.control.in_flight(), 1);
    s.control.stop_serving().await;
    let next = watch.message().await.unwrap().unwrap().status;
    assert_eq!(next, ServingStatus::NotServing as i32);
    assert_eq!(health(&s.channel, "").await, ServingStatus::NotServing);
    client
        .list_games(proto::ListGamesRequest {})
        .await
        .expect("a call that reaches the server is served");
    let reply = call.await.unwrap().expect("the call in flight finishes");
    assert!(reply.into_inner().best_move.is_some());
    tokio::time::timeout(Duration::from_secs(30), s.control.idle())
        .await
        .expect("idle once the call ended");
}

/// At the end of the grace period the runner is interrupted: searches
/// answer with their best move so far, noted as interrupted (the final
/// `Analyze` update too), and new searches are refused.
#[tokio::test]
async fn interrupted_searches_answer_with_their_best_so_far() {
    let s = start_with(2, 2, Caps::default(), ServerOptions::default()).await;
    let mut client = GameEngineClient::new(s.channel.clone());
    let mut searcher = client.clone();
    let best = tokio::spawn(async move { searcher.best_move(long_search()).await });
    let mut analyzer = client.clone();
    let analysis = tokio::spawn(async move {
        let request = proto::AnalyzeRequest {
            searcher: String::new(),
            table: String::new(),
            search_moves: Vec::new(),
            position: position(),
            limits: Some(proto::Limits {
                depth: 60,
                ..Default::default()
            }),
            multipv: 1,
            report_interval_ms: 0,
        };
        let mut stream = analyzer.analyze(request).await.unwrap().into_inner();
        let mut last = None;
        while let Some(update) = stream.message().await.unwrap() {
            last = Some(update);
        }
        last
    });
    let service = s.service.clone();
    wait_until("both searches run", || service.running_searches() == 2).await;
    s.runner.interrupt();
    let reply = best.await.unwrap().expect("an answer").into_inner();
    assert!(reply.best_move.is_some());
    let stats = reply.stats.unwrap();
    assert!(stats.stopped);
    assert_eq!(stats.interrupted, caber_service::search_runner::INTERRUPTED);
    let last = analysis.await.unwrap().expect("a final update");
    assert!(last.r#final);
    assert!(!last.lines.is_empty());
    assert_eq!(
        last.stats.unwrap().interrupted,
        caber_service::search_runner::INTERRUPTED
    );
    let refused = client.best_move(long_search()).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unavailable, "{refused:?}");
}

/// `BestMove` of the start position with a gRPC deadline.
fn with_deadline(
    limits: proto::Limits,
    deadline: Duration,
) -> tonic::Request<proto::BestMoveRequest> {
    let mut request = tonic::Request::new(best_move(limits));
    request.set_timeout(deadline);
    request
}

/// One search thread and two places: two searches with a 1 s deadline at
/// once. The second is admitted only if it can answer in time: it is refused
/// at once with RESOURCE_EXHAUSTED, or answers before its deadline; it never
/// runs into it.
#[tokio::test]
async fn a_search_that_cannot_start_in_time_is_refused_at_once() {
    let s = start_with(1, 2, Caps::default(), ServerOptions::default()).await;
    for _ in 0..3 {
        let calls: Vec<_> = (0..2)
            .map(|_| {
                let mut client = GameEngineClient::new(s.channel.clone());
                tokio::spawn(async move {
                    let sent = Instant::now();
                    let limits = proto::Limits::default();
                    let reply = client
                        .best_move(with_deadline(limits, Duration::from_secs(1)))
                        .await;
                    (reply, sent.elapsed())
                })
            })
            .collect();
        let mut answered = 0;
        for call in calls {
            let (reply, took) = call.await.unwrap();
            match reply {
                Ok(reply) => {
                    assert!(took < Duration::from_secs(1), "answered after {took:?}");
                    assert!(reply.into_inner().best_move.is_some());
                    answered += 1;
                }
                Err(status) => {
                    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                    assert!(took < Duration::from_millis(300), "refused after {took:?}");
                    assert!(status.message().contains("deadline"), "{status:?}");
                }
            }
        }
        assert!(answered >= 1);
    }
}

/// A search that waited for the thread gets what is left of its budget and
/// answers before its deadline, and says so.
#[tokio::test]
async fn a_search_that_waited_for_a_thread_answers_before_its_deadline() {
    let s = start_with(1, 2, Caps::default(), ServerOptions::default()).await;
    let mut first = GameEngineClient::new(s.channel.clone());
    let running = tokio::spawn(async move {
        first
            .best_move(best_move(proto::Limits {
                movetime_ms: 400,
                ..Default::default()
            }))
            .await
    });
    let service = s.service.clone();
    wait_until("the first search runs", || service.running_searches() == 1).await;
    let mut second = GameEngineClient::new(s.channel.clone());
    let sent = Instant::now();
    let limits = proto::Limits {
        movetime_ms: 10_000,
        ..Default::default()
    };
    let reply = second
        .best_move(with_deadline(limits, Duration::from_millis(1500)))
        .await
        .expect("admitted: the thread is free in time")
        .into_inner();
    let took = sent.elapsed();
    assert!(
        took < Duration::from_millis(1500),
        "answered after {took:?}"
    );
    assert!(reply.best_move.is_some());
    let stats = reply.stats.unwrap();
    assert_eq!(stats.clamped, "", "the server lowered nothing to its caps");
    assert!(
        stats.budget.contains("to end before the call's deadline")
            && stats.budget.contains("waited"),
        "{stats:?}"
    );
    running.await.unwrap().unwrap();
}

/// A codec that sends and receives message bytes as they are.
#[derive(Clone, Copy, Debug, Default)]
struct RawCodec;

impl tonic::codec::Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> RawCodec {
        RawCodec
    }

    fn decoder(&mut self) -> RawCodec {
        RawCodec
    }
}

impl tonic::codec::Encoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;

    fn encode(
        &mut self,
        item: Vec<u8>,
        buf: &mut tonic::codec::EncodeBuf<'_>,
    ) -> Result<(), tonic::Status> {
        prost::bytes::BufMut::put_slice(buf, &item);
        Ok(())
    }
}

impl tonic::codec::Decoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;

    fn decode(
        &mut self,
        buf: &mut tonic::codec::DecodeBuf<'_>,
    ) -> Result<Option<Vec<u8>>, tonic::Status> {
        use prost::bytes::Buf;
        Ok(Some(buf.copy_to_bytes(buf.remaining()).to_vec()))
    }
}

/// Request bytes that are not the request are refused with `INVALID_ARGUMENT`
/// naming the message and the problem, and the server goes on; well-formed
/// bytes sent the same way get the full reply.
#[tokio::test]
async fn bytes_that_are_no_request_are_refused_and_the_server_goes_on() {
    use prost::Message;
    let started = start().await;
    let mut grpc = tonic::client::Grpc::new(started.channel.clone());
    let path = http::uri::PathAndQuery::from_static("/caber.v1.GameEngine/LegalMoves");
    let mut messages = Vec::new();
    // Field 1 (position) announced with 100 bytes, only 2 sent.
    for bytes in [vec![0x0a, 100, 1, 2], vec![0xff; 7], vec![0x08]] {
        grpc.ready().await.unwrap();
        let status = grpc
            .unary(tonic::Request::new(bytes.clone()), path.clone(), RawCodec)
            .await
            .unwrap_err();
        assert_eq!(
            status.code(),
            Code::InvalidArgument,
            "{bytes:?}: {status:?}"
        );
        let message = status.message();
        assert!(
            message.starts_with("caber.v1.LegalMovesRequest: failed to decode Protobuf message: "),
            "{status:?}"
        );
        messages.push(message.to_string());
    }
    // The field is named where prost knows it, by its proto name.
    assert!(
        messages[0].ends_with("LegalMovesRequest.position: buffer underflow"),
        "{messages:?}"
    );
    grpc.ready().await.unwrap();
    let apply = http::uri::PathAndQuery::from_static("/caber.v1.GameEngine/Apply");
    let status = grpc
        .unary(tonic::Request::new(vec![0x12, 100, 1]), apply, RawCodec)
        .await
        .unwrap_err();
    assert!(
        status
            .message()
            .ends_with("ApplyRequest.move: buffer underflow"),
        "{status:?}"
    );
    let request = proto::LegalMovesRequest {
        position: position(),
        include_position: false,
    };
    grpc.ready().await.unwrap();
    let reply = grpc
        .unary(tonic::Request::new(request.encode_to_vec()), path, RawCodec)
        .await
        .unwrap()
        .into_inner();
    let reply = proto::LegalMovesResponse::decode(reply.as_slice()).unwrap();
    assert_eq!(reply.moves.len(), 80);
}

/// A channel of its own to the server at `addr` (its own connection).
async fn own_channel(addr: &str) -> Channel {
    Endpoint::from_shared(addr.to_string())
        .unwrap()
        .connect()
        .await
        .unwrap()
}

/// Kept tables belong to their connection: dropped when it closes, and a
/// connection cannot take another's place when the store is full.
#[tokio::test]
async fn kept_tables_go_with_their_connection_and_no_one_takes_anothers() {
    let caps = Caps {
        kept_tables: 1,
        ..Caps::default()
    };
    let runner = SearchRunner::new(SearchPool::new(1, 1), caps);
    let service = EngineService::with_runner(runner);
    let addr = serve_in_background(caber_service::router(service.clone())).await;
    let addr = format!("http://{addr}");
    let search = |table: &str| proto::BestMoveRequest {
        table: table.into(),
        ..best_move(proto::Limits {
            depth: 2,
            ..Default::default()
        })
    };
    let first = own_channel(&addr).await;
    GameEngineClient::new(first.clone())
        .best_move(search("mine"))
        .await
        .unwrap();
    assert_eq!(service.kept().len(), 1);
    // Another connection searches with a table of its own: the store is
    // full with the first's, so its searcher is not kept.
    let second = own_channel(&addr).await;
    GameEngineClient::new(second.clone())
        .best_move(search("theirs"))
        .await
        .unwrap();
    assert_eq!(service.kept().len(), 1);
    drop(second);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(service.kept().len(), 1, "the first's table stays");
    drop(first);
    wait_until("the table goes with its connection", || {
        service.kept().is_empty()
    })
    .await;
}
