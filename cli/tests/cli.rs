//! The `caber` binary end to end: in-process service, and `--server` against a
//! server started here through the service library.

use std::process::{Command, Output};

use caber_service::EngineService;
use serde_json::Value;

const START_BOARD: &str = "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3";

fn caber(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(args)
        .output()
        .expect("caber runs")
}

/// Runs `caber`, expects success and one JSON object on stdout.
fn caber_json(args: &[&str]) -> Value {
    json_of(&caber(args))
}

/// The `error` object of a failed `--json` run (on standard output).
fn error_of(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    v["error"].clone()
}

/// The one JSON object of a successful run.
fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "caber failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Serves `router` on an ephemeral port in the background; returns its address.
async fn serve(router: caber_service::ApiRouter) -> std::net::SocketAddr {
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

/// A 64-bit integer of a reply: protobuf's JSON mapping writes it as a string.
fn int(value: &Value) -> u64 {
    value
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a 64-bit integer as a string: {value}"))
}

/// The number of moves of a `LegalMoves` reply.
fn count(reply: &Value) -> usize {
    reply["moves"].as_array().expect("moves").len()
}

/// The move texts of a list of `MoveInfo`.
fn texts(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|m| m["text"].as_str().expect("a move's text"))
        .collect()
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string"))
        .collect()
}

#[test]
fn games_json_lists_tablut() {
    let v = caber_json(&["games", "--json"]);
    let tablut = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "tablut")
        .expect("tablut is listed");
    // The `ListGames` reply in protobuf's JSON mapping.
    assert_eq!(tablut["name"], "tablut");
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(&tablut["variants"]),
        ["bga", "bga-corners", "ashton", "linnaeus"]
    );
    assert_eq!(tablut["variants"][0]["isDefault"], true);
    assert_eq!(tablut["variants"][0]["movesFirst"], "SIDE_ONE");
    assert_eq!(strings(&tablut["players"]), ["black", "white"]);
    assert_eq!(names(&tablut["searchers"]), ["alphabeta", "mcts"]);
    assert_eq!(tablut["searchers"][0]["isDefault"], true);
    assert_eq!(tablut["searchers"][1]["aliases"][0], "uct-baseline");
    // The server's maximums: in process, none on time.
    assert!(v["limits"]["maxMovetimeMs"].is_null(), "{}", v["limits"]);
}

#[test]
fn legal_json_lists_the_moves() {
    let v = caber_json(&["legal", "--variant", "ashton", "--json"]);
    let moves = texts(&v["moves"]);
    // Hand count of the ashton start (white first): 4 arms x (8 + 6).
    assert_eq!(moves.len(), 56);
    assert!(moves.contains(&"e4-b4"));
    assert_eq!(v["moves"][0]["move"]["tablut"]["from"], "e3");
    // After --moves, the other side's moves.
    let v = caber_json(&["legal", "--variant", "ashton", "--moves", "e3-b3", "--json"]);
    assert!(texts(&v["moves"]).iter().all(|m| !m.starts_with("e3")));
}

/// Output into a closed pipe (`caber legal | head -1`) ends the command
/// quietly, not with a panic.
#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    use std::process::Stdio;
    for args in [&["legal", "--game", "almatafl"][..], &["legal", "--json"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("caber runs");
        // Close the reading end before caber has started writing.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("caber ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn perft_json_counts_leaves() {
    let v = caber_json(&[
        "perft",
        "--game",
        "tablut",
        "--variant",
        "ashton",
        "--depth",
        "1",
        "--json",
    ]);
    assert_eq!(int(&v["nodes"]), 56);
    let v = caber_json(&["perft", "--variant", "ashton", "--depth", "2", "--json"]);
    let start = caber_engine::Played::<caber_engine::tablut::Tablut>::start(
        caber_engine::tablut::Variant::Ashton,
        0,
    );
    let engine = caber_engine::played::perft(&start, 2);
    assert_eq!(int(&v["nodes"]), engine);
    let v = caber_json(&[
        "perft",
        "--variant",
        "ashton",
        "--depth",
        "2",
        "--divide",
        "--json",
    ]);
    let divide = v["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 56);
    let sum: u64 = divide.iter().map(|d| int(&d["nodes"])).sum();
    assert_eq!(sum, engine);
}

#[test]
fn best_json_reports_a_legal_move_and_its_search() {
    // The `BestMove` reply in protobuf's JSON mapping.
    let v = caber_json(&["best", "--depth", "2", "--json"]);
    let mv = v["bestMove"]["text"].as_str().unwrap();
    let legal = caber_json(&["legal", "--json"]);
    assert!(texts(&legal["moves"]).contains(&mv));
    assert_eq!(v["stats"]["depth"], 2);
    assert_eq!(strings(&v["moves"])[0], mv);
    assert_eq!(v["pv"], v["moves"], "pv: the deprecated name of moves");
    let score = v["score"].as_object().unwrap();
    let kinds: Vec<&str> = score.keys().map(String::as_str).collect();
    assert!(
        matches!(
            kinds[..],
            ["centi" | "matePlies" | "draw", "winProbability"]
        ),
        "{kinds:?}"
    );
    let p = score["winProbability"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    assert!(int(&v["stats"]["nodes"]) > 0);
}

/// A forced result reads as people read it, `#N` in moves of the side that
/// wins (positive: the side to move), in `best` and `analyze`; the JSON
/// keeps the API's plies.
#[test]
fn forced_results_read_in_moves_of_the_winner() {
    let text = |position: &str, command: &str| {
        let out = caber(&[
            "--game",
            "tartan",
            "--position",
            position,
            command,
            "--depth",
            "2",
        ]);
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // Red crowns its Cathedral at once; or cannot stop blue's.
    let wins = "play C4=r4,F6=b4 D4,G6 0,0 0 r -";
    let loses = "play C4=r4,F6=b4 A1,G6 0,0 0 r -";
    assert!(
        text(wins, "best").contains("bestmove B:D4-C4 score #1 win_probability 1.000\n"),
        "{}",
        text(wins, "best")
    );
    assert!(
        text(loses, "best").contains(" score #-1 win_probability 0.000\n"),
        "{}",
        text(loses, "best")
    );
    assert!(
        text(wins, "analyze").contains(" score #1 pv B:D4-C4\n"),
        "{}",
        text(wins, "analyze")
    );
    let v = caber_json(&[
        "--game",
        "tartan",
        "--position",
        wins,
        "best",
        "--depth",
        "2",
        "--json",
    ]);
    // The API's form: plies, from the side to move's view.
    assert_eq!(
        v["score"],
        serde_json::json!({"matePlies": 1, "winProbability": 1.0})
    );
}

#[test]
fn eval_is_static_unless_limits_are_given() {
    let v = caber_json(&["eval", "--json"]);
    assert!(v["stats"].is_null(), "static: no search stats");
    assert!(v["score"]["centi"].is_i64());
    let v = caber_json(&["eval", "--depth", "1", "--json"]);
    assert_eq!(v["stats"]["depth"], 1);
}

#[test]
fn analyze_json_prints_updates_then_one_final() {
    let out = caber(&["analyze", "--depth", "2", "--interval", "50", "--json"]);
    assert!(out.status.success());
    let updates: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (last, progress) = updates.split_last().unwrap();
    assert_eq!(last["final"], true);
    assert_eq!(last["stats"]["depth"], 2);
    assert!(!progress.is_empty());
    // A field at its default (false) is left out, as protobuf's JSON does.
    assert!(progress.iter().all(|u| u["final"].is_null()));
}

#[test]
fn apply_shows_the_move_and_the_new_position() {
    let out = caber(&["apply", "E3-B3", "--variant", "ashton"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("played e3-b3"), "{text}");
    assert!(text.contains("to move: black"), "{text}");
    // A capture, with its event, from a given position.
    let v = caber_json(&[
        "apply",
        "d7-d3",
        "--position",
        "9/9/1bw6/9/4k4/9/3b5/9/9 b -",
        "--json",
    ]);
    assert_eq!(v["move"]["text"], "d7-d3");
    assert_eq!(v["events"][0]["kind"], "capture");
    assert_eq!(strings(&v["events"][0]["cells"]), ["c3"]);
    assert_eq!(v["position"]["text"], "9/9/1b1b5/9/4k4/9/9/9/9 w -");
    assert_eq!(v["position"]["sideToMoveName"], "white");
}

#[test]
fn errors_exit_with_code_2_and_the_server_message() {
    let out = caber(&["apply", "e4-b4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: move: illegal move: e4-b4 is not a legal move here\n"
    );
    let out = caber(&["legal", "--moves", "e2-c2 zz"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: --moves: move 2 (\"zz\"): move.text: bad move notation"),
        "{err}"
    );
    let out = caber(&["legal", "--position", &format!("{START_BOARD} x -")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: position.text: invalid position"),
        "{err}"
    );
}

/// With `--json` an error is one JSON object on standard output, with the
/// status code and the message, and exit code 2.
#[test]
fn json_errors_are_one_object() {
    let out = caber(&["apply", "e4-b4", "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(stderr.is_empty(), "{stderr}");
    let err = error_of(&out);
    assert_eq!(err["code"], "INVALID_ARGUMENT");
    assert_eq!(
        err["message"],
        "move: illegal move: e4-b4 is not a legal move here"
    );
    let out = caber(&["games", "--json", "--server", "http://127.0.0.1:1"]);
    assert_eq!(error_of(&out)["code"], "UNAVAILABLE");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_flag_talks_to_a_running_caberd() {
    let addr = serve(caber_service::router(EngineService::new())).await;
    let url = format!("http://{addr}");
    let v = tokio::task::spawn_blocking(move || {
        caber_json(&["legal", "--server", &url, "--variant", "ashton", "--json"])
    })
    .await
    .unwrap();
    assert_eq!(count(&v), 56);
    // Without a scheme, http is assumed.
    let host = addr.to_string();
    let v =
        tokio::task::spawn_blocking(move || caber_json(&["games", "--server", &host, "--json"]))
            .await
            .unwrap();
    assert!(v["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["name"] == "tablut"));
}

/// A search asked for an hour keeps its hour in-process (the user stops it),
/// while a server lowers it to its maximum (60 s by default) and says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_in_process_engine_has_no_server_maximum() {
    let args = ["best", "--movetime", "3600000", "--depth", "1", "--json"];
    let v = tokio::task::spawn_blocking(move || caber_json(&args))
        .await
        .unwrap();
    assert!(v["stats"]["clamped"].is_null(), "{v}");
    assert_eq!(v["stats"]["depth"], 1);
    let addr = serve(caber_service::router(EngineService::new())).await;
    let url = format!("http://{addr}");
    let v =
        tokio::task::spawn_blocking(move || caber_json(&[&args[..], &["--server", &url]].concat()))
            .await
            .unwrap();
    assert_eq!(
        v["stats"]["clamped"],
        "movetime lowered to the server maximum of 60000 ms"
    );
    assert_eq!(v["stats"]["clamps"][0]["limit"], "LIMIT_MOVETIME_MS");
}

/// Against a server with TLS and a token: `--tls-ca` trusts its self-signed
/// certificate and `--token-file` (or `CABER_TOKEN_FILE`) sends the token;
/// without the token or the certificate the call fails with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_ca_and_token_file_reach_a_secured_caberd() {
    use caber_service::auth::Token;
    use caber_service::ServerOptions;
    use tonic::transport::{Identity, ServerTlsConfig};

    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let identity = Identity::from_pem(cert.cert.pem(), cert.signing_key.serialize_pem());
    let options = ServerOptions {
        token: Token::new("s3cret"),
        tls: Some(ServerTlsConfig::new().identity(identity)),
        ..Default::default()
    };
    let (router, _) = caber_service::build(EngineService::new(), options).unwrap();
    let addr = serve(router).await;
    let dir = std::env::temp_dir().join(format!("caber-cli-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ca, token) = (dir.join("ca.pem"), dir.join("token"));
    std::fs::write(&ca, cert.cert.pem()).unwrap();
    std::fs::write(&token, "s3cret\n").unwrap();
    let url = format!("https://localhost:{}", addr.port());
    let (ca, token) = (ca.to_str().unwrap(), token.to_str().unwrap());
    let run = |args: Vec<String>, env_token: Option<String>| {
        tokio::task::spawn_blocking(move || {
            let mut command = Command::new(env!("CARGO_BIN_EXE_caber"));
            command.args(&args).env_remove("CABER_TOKEN_FILE");
            if let Some(t) = env_token {
                command.env("CABER_TOKEN_FILE", t);
            }
            command.output().expect("caber runs")
        })
    };
    let args = |extra: &[&str]| -> Vec<String> {
        ["legal", "--json", "--server", &url]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let ok = run(args(&["--tls-ca", ca, "--token-file", token]), None)
        .await
        .unwrap();
    assert_eq!(count(&json_of(&ok)), 80);
    // The token from the environment.
    let ok = run(args(&["--tls-ca", ca]), Some(token.to_string()))
        .await
        .unwrap();
    assert_eq!(count(&json_of(&ok)), 80);
    // No token: refused by the server.
    let refused = run(args(&["--tls-ca", ca]), None).await.unwrap();
    let err = error_of(&refused);
    assert_eq!(err["code"], "UNAUTHENTICATED", "{err}");
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("authorization: missing"), "{err}");
    // The certificate not trusted: no connection.
    let untrusted = run(args(&["--token-file", token]), None).await.unwrap();
    let err = error_of(&untrusted);
    assert_eq!(err["code"], "UNAVAILABLE", "{err}");
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("certificate"), "{err}");
    // --tls-ca with a plain http URL is a usage error.
    let plain = run(
        vec![
            "games".into(),
            "--server".into(),
            format!("http://{addr}"),
            "--tls-ca".into(),
            ca.into(),
        ],
        None,
    )
    .await
    .unwrap();
    assert_eq!(plain.status.code(), Some(2));
    let err = String::from_utf8_lossy(&plain.stderr);
    assert!(
        err.contains("--tls-ca needs an https:// server URL"),
        "{err}"
    );
    // Plaintext to the TLS port: the hint says to use https://.
    let plain = run(
        vec![
            "games".into(),
            "--server".into(),
            format!("http://localhost:{}", addr.port()),
        ],
        None,
    )
    .await
    .unwrap();
    assert_eq!(plain.status.code(), Some(2));
    let err = String::from_utf8_lossy(&plain.stderr);
    assert!(
        err.contains("hint: the server at http://localhost:"),
        "{err}"
    );
    assert!(err.contains("use an https:// URL"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A self-signed certificate that is a CA (as `openssl req -x509` makes by
/// default) is refused by rustls as a server's own: the error says which
/// certificate works and how to make it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ca_certificate_as_the_servers_own_gets_a_hint() {
    use tonic::transport::{Identity, ServerTlsConfig};
    let mut params = rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    let identity = Identity::from_pem(cert.pem(), key.serialize_pem());
    let options = caber_service::ServerOptions {
        tls: Some(ServerTlsConfig::new().identity(identity)),
        ..Default::default()
    };
    let (router, _) = caber_service::build(EngineService::new(), options).unwrap();
    let addr = serve(router).await;
    let ca = std::env::temp_dir().join(format!("caber-cli-ca-{}.pem", std::process::id()));
    std::fs::write(&ca, cert.pem()).unwrap();
    let url = format!("https://localhost:{}", addr.port());
    let ca_path = ca.to_str().unwrap().to_string();
    let out = tokio::task::spawn_blocking(move || {
        caber(&["games", "--server", &url, "--tls-ca", &ca_path])
    })
    .await
    .unwrap();
    std::fs::remove_file(&ca).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("hint: the server's certificate is a CA certificate"),
        "{err}"
    );
    assert!(err.contains("basicConstraints=critical,CA:FALSE"), "{err}");
}

/// `--searcher` picks one of the game's searchers; an unknown one is refused
/// naming the known ones.
#[test]
fn best_and_analyze_take_a_searcher() {
    let v = caber_json(&[
        "best",
        "--searcher",
        "mcts",
        "--nodes",
        "300",
        "--seed",
        "1",
        "--json",
    ]);
    let mv = v["bestMove"]["text"].as_str().unwrap().to_string();
    let legal = caber_json(&["legal", "--json"]);
    assert!(texts(&legal["moves"]).contains(&mv.as_str()), "{mv}");
    // Monte Carlo reports its playouts as the iteration count.
    assert_eq!(int(&v["stats"]["nodes"]), 300);
    assert_eq!(int(&v["stats"]["iterations"]), 300);
    let out = caber(&["analyze", "--searcher", "mcts", "--nodes", "200", "--json"]);
    let last = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let last: Value = serde_json::from_str(&last).unwrap();
    assert_eq!(last["final"], true);
    let out = caber(&["best", "--searcher", "minimax", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("searcher: unknown searcher \"minimax\" for tablut (known: alphabeta, mcts)"),
        "{err}"
    );
}

/// Ctrl-C (SIGINT) on a long `analyze` ends it at once with the latest
/// report as the final one: a best move, `stopped`, and why.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_analyze_with_its_final_report() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args([
            "--game",
            "tablut",
            "analyze",
            "--movetime",
            "60000",
            "--interval",
            "50",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("caber runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // Wait for a progress report with a line, then interrupt.
    loop {
        let line = lines.next().expect("a report before the end").unwrap();
        let v: Value = serde_json::from_str(&line).unwrap();
        if v["final"].is_null() && v["lines"].as_array().is_some_and(|l| !l.is_empty()) {
            break;
        }
    }
    // The shell's own kill: no procps binary needed.
    let kill = format!("kill -INT {}", child.id());
    assert!(Command::new("sh")
        .args(["-c", &kill])
        .status()
        .unwrap()
        .success());
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let last: Value = serde_json::from_str(rest.last().expect("a final report")).unwrap();
    assert_eq!(last["final"], true, "{last}");
    assert_eq!(last["stats"]["stopped"], true, "{last}");
    assert!(
        !last["lines"][0]["moves"][0].as_str().unwrap().is_empty(),
        "{last}"
    );
    assert!(last.to_string().contains("stopped by Ctrl-C"), "{last}");
}

/// What a command cannot use is refused, argument errors follow `--json`,
/// a missing file is NOT_FOUND, and the small conveniences hold.
#[test]
fn papercuts_are_gone() {
    let e = error_of(&caber(&["best", "--depth", "abc", "--json"]));
    assert_eq!(e["code"], "INVALID_ARGUMENT", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("'--depth <DEPTH>'"),
        "{e}"
    );
    let e = error_of(&caber(&["review", "/nonexistent/game.record", "--json"]));
    assert_eq!(e["code"], "NOT_FOUND", "{e}");
    for args in [
        &[
            "--game",
            "almatafl",
            "review",
            "docs/examples/ashton.record",
        ][..],
        &["review", "docs/examples/ashton.record", "--moves", "e4-d4"],
        &["engine", "--position", "x"],
    ] {
        let out = caber(args);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains("does not take it"), "{args:?}: {said}");
    }
    // `render --svg -` writes the drawing itself; `new` draws a given position.
    let out = caber(&["render", "--svg", "-"]);
    let svg = String::from_utf8_lossy(&out.stdout);
    assert!(
        svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    let position = format!("{START_BOARD} w -");
    let out = caber(&["--position", &position, "new"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("to move: white"));
    // The connection error names its cause once.
    let out = caber(&["--server", "http://127.0.0.1:1", "games"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(said.matches("tcp connect error").count(), 1, "{said}");
    // Help shows no empty or zero defaults and says what 0 means.
    let help = String::from_utf8_lossy(&caber(&["best", "--help"]).stdout).to_string();
    assert!(
        !help.contains("[default: ]") && !help.contains("[default: 0]"),
        "{help}"
    );
    assert!(help.contains("(0: no depth limit)"), "{help}");
}
