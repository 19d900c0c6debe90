//! What browsers get, from a plain HTTP/1.1 client: gRPC-Web unary calls in
//! the binary and text forms, a server stream, the same auth, limits,
//! deadlines and metrics as native calls, CORS for the configured origins
//! only, and the analysis board's files only with `--web`. (The page itself
//! is tested in a browser: service/web/test.)

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use base64::Engine as _;
use bytes::Bytes;
use caber_service::auth::Token;
use caber_service::browser::Origins;
use caber_service::proto::game_engine_server::GameEngine as _;
use caber_service::{proto, EngineService, ServerOptions, TransportLimits};
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Version};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use prost::Message;

const BINARY: &str = "application/grpc-web+proto";
const TEXT: &str = "application/grpc-web-text+proto";
const ORIGIN: &str = "https://board.example";

mod common;

/// A caberd in process with `options`, serving on a free port.
async fn start(options: ServerOptions) -> SocketAddr {
    let (router, _) = caber_service::build(EngineService::new(), options).unwrap();
    common::serve_in_background(router).await
}

/// `ListGames` from a page of `origin`.
async fn list_games_from(addr: SocketAddr, origin: &str) -> Answer {
    let request = proto::ListGamesRequest {};
    call(addr, "ListGames", BINARY, &request, &[("origin", origin)]).await
}

/// What came back: the HTTP status and headers, the messages, and the gRPC
/// status and message (from the trailer frame, or the headers of a
/// trailers-only answer).
#[derive(Debug)]
struct Answer {
    http: StatusCode,
    version: Version,
    headers: HeaderMap,
    messages: Vec<Bytes>,
    grpc_status: Option<String>,
    grpc_message: String,
}

impl Answer {
    fn decode<M: Message + Default>(&self, i: usize) -> M {
        M::decode(self.messages[i].clone()).unwrap()
    }
}

/// One request over HTTP/1.1.
async fn send(
    addr: SocketAddr,
    request: Request<Full<Bytes>>,
) -> (StatusCode, Version, HeaderMap, Bytes) {
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let (mut parts, body) = request.into_parts();
    parts.uri = format!("http://{addr}{}", parts.uri).parse().unwrap();
    let response = client
        .request(Request::from_parts(parts, body))
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    let body = body.collect().await.unwrap().to_bytes();
    (parts.status, parts.version, parts.headers, body)
}

/// Calls `method` of caber.v1.GameEngine with `message` in the gRPC-Web form
/// `content_type`, with extra `headers`.
async fn call(
    addr: SocketAddr,
    method: &str,
    content_type: &str,
    message: &impl Message,
    headers: &[(&str, &str)],
) -> Answer {
    let payload = message.encode_to_vec();
    let mut frame = vec![0];
    frame.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    frame.extend_from_slice(&payload);
    let text = content_type == TEXT;
    let body = if text {
        Bytes::from(base64::engine::general_purpose::STANDARD.encode(&frame))
    } else {
        Bytes::from(frame)
    };
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(format!("/caber.v1.GameEngine/{method}"))
        .header("content-type", content_type)
        .header("x-grpc-web", "1");
    if !headers.iter().any(|(name, _)| *name == "accept") {
        request = request.header("accept", content_type);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let answer = send(addr, request.body(Full::new(body)).unwrap()).await;
    read_answer(answer)
}

/// A gRPC-Web answer read in the form its `content-type` says.
fn read_answer((http, version, headers, body): (StatusCode, Version, HeaderMap, Bytes)) -> Answer {
    let text = headers
        .get("content-type")
        .is_some_and(|t| t.as_bytes().starts_with(b"application/grpc-web-text"));
    let body = if text {
        // Each message and the trailers are base64 on their own, each padded.
        let mut bytes = Vec::new();
        for chunk in body.split_inclusive(|&b| b == b'=') {
            let chunk = std::str::from_utf8(chunk).unwrap().trim_start_matches('=');
            if !chunk.is_empty() {
                bytes.extend(base64_padded(chunk));
            }
        }
        Bytes::from(bytes)
    } else {
        body
    };
    let (messages, trailers) = frames(&body);
    let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_string());
    let trailer = |name: &str| {
        trailers.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    };
    Answer {
        http,
        version,
        grpc_status: trailer("grpc-status").or_else(|| header("grpc-status")),
        grpc_message: trailer("grpc-message")
            .or_else(|| header("grpc-message"))
            .unwrap_or_default(),
        headers,
        messages,
    }
}

/// Decodes base64 that may lack its padding.
fn base64_padded(chunk: &str) -> Vec<u8> {
    let mut chunk = chunk.to_string();
    while !chunk.len().is_multiple_of(4) {
        chunk.push('=');
    }
    base64::engine::general_purpose::STANDARD
        .decode(chunk)
        .unwrap()
}

/// Splits a gRPC-Web body into its messages and its trailer block.
fn frames(mut body: &[u8]) -> (Vec<Bytes>, String) {
    let mut messages = Vec::new();
    let mut trailers = String::new();
    while body.len() >= 5 {
        let len = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        let data = &body[5..5 + len];
        if body[0] & 0x80 != 0 {
            trailers.push_str(std::str::from_utf8(data).unwrap());
        } else {
            messages.push(Bytes::copy_from_slice(data));
        }
        body = &body[5 + len..];
    }
    assert!(body.is_empty(), "a truncated frame: {body:?}");
    (messages, trailers)
}

fn tablut(text: &str) -> Option<proto::Position> {
    Some(proto::Position {
        game: "tablut".into(),
        state: Some(proto::position::State::Text(text.into())),
        ..Default::default()
    })
}

#[tokio::test]
async fn binary_and_text_grpc_web_answer_over_http1() {
    let addr = start(ServerOptions::default()).await;
    let games = call(addr, "ListGames", BINARY, &proto::ListGamesRequest {}, &[]).await;
    assert_eq!(
        (games.http, games.version),
        (StatusCode::OK, Version::HTTP_11)
    );
    assert_eq!(games.headers["content-type"], BINARY);
    assert_eq!(games.grpc_status.as_deref(), Some("0"), "{games:?}");
    let names: Vec<String> = games
        .decode::<proto::ListGamesResponse>(0)
        .games
        .into_iter()
        .map(|g| g.name)
        .collect();
    // The games the service registers, asked natively.
    let native: Vec<String> = EngineService::new()
        .list_games(tonic::Request::new(proto::ListGamesRequest {}))
        .await
        .expect("ListGames answers")
        .into_inner()
        .games
        .into_iter()
        .map(|g| g.name)
        .collect();
    assert!(names.len() >= 4, "{names:?}");
    assert_eq!(names, native);

    let request = proto::NewGameRequest {
        game: "tablut".into(),
        ..Default::default()
    };
    let new = call(addr, "NewGame", TEXT, &request, &[]).await;
    assert_eq!(new.headers["content-type"], TEXT);
    assert_eq!(new.grpc_status.as_deref(), Some("0"), "{new:?}");
    let position = new.decode::<proto::NewGameResponse>(0).position.unwrap();
    assert_eq!(
        position.text,
        "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -"
    );
}

/// A text call is answered as text when its `Accept` names no gRPC-Web
/// form (tonic-web alone answered it as binary), and a body that is not
/// base64 is the client's error (it was `INTERNAL`, "Invalid symbol 33").
#[tokio::test]
async fn text_calls_are_answered_as_text_and_bad_base64_is_invalid() {
    let addr = start(ServerOptions::default()).await;
    for accept in ["*/*", "application/json"] {
        let games = call(
            addr,
            "ListGames",
            TEXT,
            &proto::ListGamesRequest {},
            &[("accept", accept)],
        )
        .await;
        assert_eq!(games.headers["content-type"], TEXT, "accept {accept}");
        assert_eq!(games.grpc_status.as_deref(), Some("0"), "{games:?}");
        assert!(!games.decode::<proto::ListGamesResponse>(0).games.is_empty());
    }
    let bad = Request::builder()
        .method(Method::POST)
        .uri("/caber.v1.GameEngine/ListGames")
        .header("content-type", "application/grpc-web-text")
        .header("x-grpc-web", "1")
        .body(Full::new(Bytes::from_static(b"!!!!????")))
        .unwrap();
    let answer = read_answer(send(addr, bad).await);
    assert_eq!(answer.headers["content-type"], TEXT);
    assert_eq!(answer.grpc_status.as_deref(), Some("3"), "{answer:?}");
    assert!(
        answer
            .grpc_message
            .starts_with("request:%20not%20valid%20gRPC-Web%20(tonic-web:%20Invalid%20symbol%2033"),
        "{answer:?}"
    );
}

#[tokio::test]
async fn a_server_stream_arrives_message_by_message_then_its_status() {
    let addr = start(ServerOptions::default()).await;
    let request = proto::AnalyzeRequest {
        position: Some(proto::Position {
            game: "tablut".into(),
            ..Default::default()
        }),
        limits: Some(proto::Limits {
            depth: 4,
            ..Default::default()
        }),
        multipv: 2,
        report_interval_ms: 50,
        ..Default::default()
    };
    let analysis = call(addr, "Analyze", BINARY, &request, &[]).await;
    assert_eq!(analysis.grpc_status.as_deref(), Some("0"), "{analysis:?}");
    let updates: Vec<proto::AnalysisUpdate> = (0..analysis.messages.len())
        .map(|i| analysis.decode(i))
        .collect();
    let last = updates.last().unwrap();
    assert!(last.r#final, "the last update is the final one");
    assert_eq!(updates.iter().filter(|u| u.r#final).count(), 1);
    assert_eq!(last.stats.as_ref().unwrap().depth, 4);
    assert_eq!(last.lines.len(), 2, "two principal variations");
}

#[tokio::test]
async fn auth_limits_deadlines_and_metrics_are_those_of_native_calls() {
    let options = ServerOptions {
        token: Token::new("t0ken"),
        limits: TransportLimits {
            max_message_bytes: 1024,
            ..Default::default()
        },
        ..Default::default()
    };
    let addr = start(options).await;
    let bearer = [("authorization", "Bearer t0ken")];

    let denied = call(addr, "ListGames", BINARY, &proto::ListGamesRequest {}, &[]).await;
    assert_eq!(
        denied.grpc_status.as_deref(),
        Some("16"),
        "UNAUTHENTICATED: {denied:?}"
    );
    assert!(denied.messages.is_empty());

    let request = proto::LegalMovesRequest {
        position: tablut("not a position"),
        include_position: false,
    };
    let refused = call(addr, "LegalMoves", BINARY, &request, &bearer).await;
    assert_eq!(
        refused.grpc_status.as_deref(),
        Some("3"),
        "INVALID_ARGUMENT: {refused:?}"
    );
    assert!(
        refused.grpc_message.contains("position"),
        "{}",
        refused.grpc_message
    );

    let request = proto::ReplayRequest {
        record: "x".repeat(2000),
    };
    let too_long = call(addr, "Replay", BINARY, &request, &bearer).await;
    assert_eq!(
        too_long.grpc_status.as_deref(),
        Some("8"),
        "RESOURCE_EXHAUSTED: {too_long:?}"
    );

    // A search asked for a minute under a 300 ms deadline ends with it, as
    // a native call's does: its movetime set to end before the deadline.
    let request = proto::AnalyzeRequest {
        position: tablut("3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -"),
        limits: Some(proto::Limits {
            movetime_ms: 60_000,
            ..Default::default()
        }),
        ..Default::default()
    };
    let started = Instant::now();
    let mut headers = bearer.to_vec();
    headers.push(("grpc-timeout", "300m"));
    let analysis = call(addr, "Analyze", BINARY, &request, &headers).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(analysis.grpc_status.as_deref(), Some("0"), "{analysis:?}");
    let last: proto::AnalysisUpdate = analysis.decode(analysis.messages.len() - 1);
    let reasons: Vec<i32> = last
        .stats
        .unwrap()
        .budget_changes
        .iter()
        .map(|b| b.reason)
        .collect();
    // (A wait for a search thread, on a loaded machine, may shorten it more.)
    assert_eq!(
        reasons.first(),
        Some(&(proto::BudgetReason::Deadline as i32))
    );

    let metrics = caber_service::metrics::global().render();
    // (Counted in this process, with the other tests' calls.)
    for (method, code) in [
        ("ListGames", "UNAUTHENTICATED"),
        ("LegalMoves", "INVALID_ARGUMENT"),
        ("Replay", "RESOURCE_EXHAUSTED"),
        ("Analyze", "OK"),
    ] {
        let counter = format!(
            r#"caber_grpc_calls_total{{method="/caber.v1.GameEngine/{method}",code="{code}"}} "#
        );
        assert!(
            metrics.lines().any(|l| l.starts_with(&counter)),
            "no {counter} in\n{metrics}"
        );
    }
}

/// A CORS preflight from `origin` for a gRPC-Web call with a token.
async fn preflight(addr: SocketAddr, origin: &str) -> (StatusCode, HeaderMap) {
    let request = Request::builder()
        .method(Method::OPTIONS)
        .uri("/caber.v1.GameEngine/ListGames")
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization,content-type,x-grpc-web,x-user-agent,grpc-timeout",
        )
        .body(Full::new(Bytes::new()))
        .unwrap();
    let (status, _, headers, _) = send(addr, request).await;
    (status, headers)
}

#[tokio::test]
async fn cors_allows_the_configured_origins_and_no_other() {
    let options = ServerOptions {
        cors_origins: Origins::parse(&[ORIGIN.to_string()]).unwrap(),
        ..Default::default()
    };
    let addr = start(options).await;
    let (status, headers) = preflight(addr, ORIGIN).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["access-control-allow-origin"], ORIGIN);
    assert_eq!(headers["access-control-allow-methods"], "POST");
    let allowed = headers["access-control-allow-headers"].to_str().unwrap();
    for name in [
        "authorization",
        "content-type",
        "x-grpc-web",
        "grpc-timeout",
    ] {
        assert!(allowed.contains(name), "{name} not in {allowed}");
    }
    let games = list_games_from(addr, ORIGIN).await;
    assert_eq!(games.grpc_status.as_deref(), Some("0"));
    assert_eq!(games.headers["access-control-allow-origin"], ORIGIN);
    let exposed = games.headers["access-control-expose-headers"]
        .to_str()
        .unwrap();
    assert!(
        exposed.contains("grpc-status") && exposed.contains("grpc-message"),
        "{exposed}"
    );

    let (_, headers) = preflight(addr, "https://elsewhere.example").await;
    assert!(
        !headers.contains_key("access-control-allow-origin"),
        "{headers:?}"
    );

    // None by default: no page elsewhere may call.
    let addr = start(ServerOptions::default()).await;
    let (_, headers) = preflight(addr, ORIGIN).await;
    assert!(
        !headers.contains_key("access-control-allow-origin"),
        "{headers:?}"
    );
    let games = list_games_from(addr, ORIGIN).await;
    assert_eq!(games.grpc_status.as_deref(), Some("0"));
    assert!(!games.headers.contains_key("access-control-allow-origin"));
}

/// A GET of `path`: status, headers, body.
async fn get(addr: SocketAddr, path: &str) -> (StatusCode, HeaderMap, Bytes) {
    let request = Request::builder()
        .uri(path)
        .body(Full::new(Bytes::new()))
        .unwrap();
    let (status, _, headers, body) = send(addr, request).await;
    (status, headers, body)
}

#[tokio::test]
async fn the_board_is_served_with_web_and_only_then() {
    let addr = start(ServerOptions {
        web: true,
        ..Default::default()
    })
    .await;
    let (status, headers, page) = get(addr, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    let page = String::from_utf8(page.to_vec()).unwrap();
    assert!(
        page.contains(r#"<script type="module" src="app.js"></script>"#),
        "{page}"
    );
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .starts_with("default-src 'self'"));
    let (status, headers, script) = get(addr, "/app.js").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(headers["content-length"], script.len().to_string().as_str());
    assert!(
        script.len() > 10_000,
        "the bundled client: {} bytes",
        script.len()
    );
    let (status, headers, _) = get(addr, "/app.css").await;
    assert_eq!(
        (status, &headers["content-type"]),
        (
            StatusCode::OK,
            &HeaderValue::from_static("text/css; charset=utf-8")
        )
    );
    // Anything else is not the page's, and gRPC-Web still answers.
    let (status, _, body) = get(addr, "/secret").await;
    assert_eq!((status, body.len()), (StatusCode::BAD_REQUEST, 0));
    let games = call(addr, "ListGames", BINARY, &proto::ListGamesRequest {}, &[]).await;
    assert_eq!(games.grpc_status.as_deref(), Some("0"));

    // Without --web: no HTML at all.
    let addr = start(ServerOptions::default()).await;
    for path in ["/", "/index.html", "/app.js"] {
        let (status, headers, body) = get(addr, path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        assert!(
            body.is_empty() && !headers.contains_key("content-type"),
            "{path}: {headers:?}"
        );
    }
}
