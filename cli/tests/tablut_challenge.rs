//! `caber tablut-challenge` against a fake Tablut Challenge server that
//! speaks the protocol of the competition's `Server.java` byte for byte
//! (a 4-byte big-endian length and UTF-8 JSON; the name as a JSON string;
//! states to the client after every move, the moves read from the side to
//! move) and referees with Caber's own `ashton` rules: whole games in both
//! colours, a position the server chooses, a malformed state, a state that
//! does not follow, a closed connection and a silent server.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::thread;
use std::time::{Duration, Instant};

use caber_engine::game::{GameResult, Player};
use caber_engine::record::GameRecord;
use caber_engine::tablut::{Tablut, Variant};
use caber_engine::Played;

mod challenge_wire;
use challenge_wire::{state_message, write_frame};

fn read_frame(stream: &mut TcpStream) -> Vec<u8> {
    let mut length = [0u8; 4];
    stream.read_exact(&mut length).unwrap();
    let mut body = vec![0u8; i32::from_be_bytes(length) as usize];
    stream.read_exact(&mut body).unwrap();
    body
}

/// The server's turn after a position: who moves, or how it ended.
fn turn(game: &Played<Tablut>) -> &'static str {
    match game.outcome().map(|o| o.result) {
        None if game.side_to_move() == Player::Two => "WHITE",
        None => "BLACK",
        Some(GameResult::Win(Player::Two)) => "WHITEWIN",
        Some(GameResult::Win(Player::One)) => "BLACKWIN",
        Some(GameResult::Draw) => "DRAW",
    }
}

/// A fake server on a free port; `serve` gets the client's connection
/// once its name frame has been read and checked.
fn fake_server(serve: impl FnOnce(TcpStream) + Send + 'static) -> (u16, thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        // The name as the reference client sends it: a JSON string.
        assert_eq!(read_frame(&mut stream), b"\"tester\"");
        serve(stream);
    });
    (port, server)
}

fn client(port: u16, color: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(["tablut-challenge", "--color", color, "--name", "tester"])
        .args(["--port", &port.to_string()])
        .args(extra)
        .output()
        .expect("caber runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Referees a game from `start`: sends the state, reads the client's move
/// (checking its JSON and its time), plays the opponent's moves from
/// `theirs` in turn (the first legal move once they run out), and ends with
/// the rules' result or, after `plies`, a draw the server declares. Returns
/// the moves played, as text.
fn referee(
    mut stream: TcpStream,
    start: Played<Tablut>,
    ours: Player,
    mut theirs: Vec<&'static str>,
    plies: usize,
    timeout: Duration,
) -> Vec<String> {
    let mut game = start;
    let mut played = Vec::new();
    write_frame(
        &mut stream,
        &state_message(&game.to_notation(), turn(&game)),
    );
    loop {
        if game.outcome().is_some() {
            return played;
        }
        let mv = if game.side_to_move() == ours {
            let asked = Instant::now();
            let frame = read_frame(&mut stream);
            assert!(
                asked.elapsed() < timeout,
                "a move after {:?}",
                asked.elapsed()
            );
            let message: serde_json::Value = serde_json::from_slice(&frame).unwrap();
            let mover = if ours == Player::Two {
                "WHITE"
            } else {
                "BLACK"
            };
            assert_eq!(message["turn"], mover, "{message}");
            let text = format!(
                "{}-{}",
                message["from"].as_str().unwrap(),
                message["to"].as_str().unwrap()
            );
            game.parse_move(&text).expect("a legal move")
        } else if theirs.is_empty() {
            let mut legal = Vec::new();
            game.legal_moves(&mut legal);
            legal[0]
        } else {
            game.parse_move(theirs.remove(0)).unwrap()
        };
        played.push(game.move_to_text(&mv));
        game = game.play(&mv).map_err(|_| "legal").unwrap();
        let over = played.len() >= plies && game.outcome().is_none();
        let next = if over { "DRAW" } else { turn(&game) };
        write_frame(&mut stream, &state_message(&game.to_notation(), next));
        if over {
            return played;
        }
    }
}

#[test]
fn plays_a_game_as_black_within_the_servers_time_and_records_it() {
    let dir = std::env::temp_dir().join(format!("caber-tc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("black.record");
    let (port, server) = fake_server(|stream| {
        let start = Played::<Tablut>::start(Variant::Ashton, 0);
        let theirs = vec!["e3-h3", "e7-b7", "d5-d7"];
        let moves = referee(
            stream,
            start,
            Player::One,
            theirs,
            6,
            Duration::from_secs(2),
        );
        assert_eq!(moves.len(), 6);
    });
    // No --movetime: each move takes the server's 2 s less the margin.
    let output = client(
        port,
        "black",
        &["--timeout", "2", "--record", record.to_str().unwrap()],
    );
    server.join().unwrap();
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("   1. white  e3-h3\n"), "{stdout}");
    assert!(stdout.contains("game over after 6 plies: draw"), "{stdout}");
    let record = GameRecord::parse(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record.tag("Variant"), Some("ashton"));
    assert_eq!(record.tag("Black"), Some("tester (caber)"));
    assert_eq!(record.tag("Result"), Some("1/2-1/2"));
    assert_eq!(record.tag("Start"), None, "the standard start");
    assert_eq!(record.moves.len(), 6);
    assert_eq!(record.moves[0].text, "e3-h3");
    // Our moves carry the search's evaluation; the scores shown are white's.
    assert!(record.moves[1].eval.is_some());
    assert!(stdout.contains("   2. black  "), "{stdout}");
    assert!(stdout.contains(", white: "), "{stdout}");
    // The record replays by Caber's rules.
    let review = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args([
            "review",
            dir.join("black.record").to_str().unwrap(),
            "--depth",
            "1",
        ])
        .output()
        .unwrap();
    assert!(review.status.success(), "{}", text(&review.stderr));
    assert!(
        text(&review.stdout).contains("result: draw"),
        "{}",
        text(&review.stdout)
    );
}

#[test]
fn plays_from_the_position_the_server_sends_to_the_end() {
    // White to move: the king on c3 escapes to c1 or a3 (a win in one);
    // black's soldiers only where they cannot stop it.
    let position = "3bbb3/4b4/2k6/b7b/bb5bb/b7b/9/4b4/3bbb3 w -";
    let record = std::env::temp_dir().join(format!("caber-tc-white-{}.record", std::process::id()));
    let (port, server) = fake_server(move |stream| {
        let start = Played::<Tablut>::from_notation(Variant::Ashton, position).unwrap();
        let moves = referee(
            stream,
            start,
            Player::Two,
            vec![],
            10,
            Duration::from_secs(3),
        );
        assert_eq!(moves.len(), 1);
        // Four moves escape: c3-c1, c3-a3, c3-i3, c3-c9.
        assert!(
            ["c3-c1", "c3-a3", "c3-i3", "c3-c9"].contains(&moves[0].as_str()),
            "{moves:?}"
        );
    });
    let output = client(
        port,
        "white",
        &[
            "--timeout",
            "3",
            "--movetime",
            "300",
            "--record",
            record.to_str().unwrap(),
        ],
    );
    server.join().unwrap();
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("white won: king escaped"), "{stdout}");
    // The win in one move, as white's: `#1`.
    assert!(
        stdout.contains(", white: #1, win probability 1.00\n"),
        "{stdout}"
    );
    let record = GameRecord::parse(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record.tag("Start"), Some(position));
    // White won: 1-0, as any PGN tool reads it; the winning move ends the
    // game, so it has no evaluation.
    assert_eq!(record.tag("Format"), Some("2"));
    assert_eq!(record.tag("Result"), Some("1-0"));
    assert_eq!(record.moves[0].eval, None);
}

/// Runs the client as black against a server that sends the start and
/// then does `then`; returns the exit code and standard error.
fn failing(then: fn(&mut TcpStream), timeout: &str) -> (Option<i32>, String) {
    let (port, server) = fake_server(move |mut stream| {
        let start = Played::<Tablut>::start(Variant::Ashton, 0);
        write_frame(&mut stream, &state_message(&start.to_notation(), "WHITE"));
        then(&mut stream);
    });
    let record = std::env::temp_dir().join(format!(
        "caber-tc-fail-{}-{port}.record",
        std::process::id()
    ));
    let output = client(
        port,
        "black",
        &["--timeout", timeout, "--record", record.to_str().unwrap()],
    );
    server.join().unwrap();
    (output.status.code(), text(&output.stderr))
}

#[test]
fn a_malformed_state_is_a_protocol_error() {
    let (code, stderr) = failing(
        |s| {
            let start = Played::<Tablut>::start(Variant::Ashton, 0).to_notation();
            // Row 1 one cell short.
            let short = state_message(&start, "BLACK").replacen("[\"EMPTY\",", "[", 1);
            write_frame(s, &short);
        },
        "5",
    );
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains("protocol error: a state message has a row 1 that is not 9 cells"),
        "{stderr}"
    );
    let (code, stderr) = failing(|s| s.write_all(&[0xff, 0xff, 0xff, 0xff]).unwrap(), "5");
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("a frame length of -1 bytes"), "{stderr}");
}

#[test]
fn a_state_that_no_move_explains_is_a_protocol_error() {
    let (code, stderr) = failing(
        |s| {
            // Two white soldiers moved at once.
            let two = "3bbb3/4b4/4w4/b3w3b/bbwwk1wbb/b3w3b/5w3/4b4/3bbb3 b -";
            write_frame(s, &state_message(two, "BLACK"));
        },
        "5",
    );
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains("state 2 does not follow from the position before by one move"),
        "{stderr}"
    );
}

#[test]
fn a_closed_connection_ends_with_its_own_code() {
    let (code, stderr) = failing(|s| s.shutdown(std::net::Shutdown::Both).unwrap(), "5");
    assert_eq!(code, Some(4), "{stderr}");
    assert!(
        stderr.contains("the server closed the connection before the game ended"),
        "{stderr}"
    );
}

#[test]
fn a_silent_server_is_given_up_after_the_opponents_time_and_slack() {
    let started = Instant::now();
    let (code, stderr) = failing(|_| thread::sleep(Duration::from_secs(8)), "1");
    assert_eq!(code, Some(4), "{stderr}");
    assert!(
        stderr.contains("no message from the server in 6 s"),
        "{stderr}"
    );
    assert!(started.elapsed() >= Duration::from_secs(6));
}

/// A line with the seconds a move took (`0.01 s,`) made a placeholder.
fn timeless(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let number = !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
        let seconds = words.get(i + 1).is_some_and(|n| *n == "s,");
        out.push(if number && seconds { "N" } else { w });
    }
    out.join(" ")
}

#[test]
fn the_transcript_in_the_docs_is_what_caber_prints() {
    // The ```console block of docs/TABLUT_CHALLENGE.md: its command, then
    // what caber printed against this fake server (the opponent plays its
    // first legal move; the server declares a draw after 8 plies).
    let docs = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/TABLUT_CHALLENGE.md"
    ))
    .unwrap();
    let block = docs.split("```console\n").nth(1).expect("a console block");
    let block = &block[..block.find("```").unwrap()];
    let mut lines = block.lines();
    let command = lines
        .next()
        .unwrap()
        .strip_prefix("$ caber ")
        .expect("a caber command");
    let expected: Vec<String> = lines.map(timeless).collect();
    let dir = std::env::temp_dir().join(format!("caber-tc-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (port, server) = fake_server(|stream| {
        let start = Played::<Tablut>::start(Variant::Ashton, 0);
        referee(
            stream,
            start,
            Player::Two,
            vec![],
            8,
            Duration::from_secs(60),
        );
    });
    let output = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(command.split(' '))
        .args(["--name", "tester", "--port", &port.to_string()])
        .current_dir(&dir)
        .output()
        .unwrap();
    server.join().unwrap();
    let printed = text(&output.stdout)
        .replace(&format!(":{port} "), ":5800 ")
        .replace("(tester)", "(caber)");
    let actual: Vec<String> = printed.lines().map(timeless).collect();
    assert_eq!(
        actual,
        expected,
        "caber printed:\n{printed}{}",
        text(&output.stderr)
    );
    assert!(dir.join("game.record").exists());
}

#[test]
fn a_board_without_the_king_is_a_protocol_error() {
    // The server leaves even a captured king on the board: a board with
    // none is not one of its states.
    let (port, server) = fake_server(|mut stream| {
        let start = Played::<Tablut>::start(Variant::Ashton, 0).to_notation();
        let kingless = state_message(&start, "WHITE").replacen("\"KING\"", "\"THRONE\"", 1);
        write_frame(&mut stream, &kingless);
        // Whatever the client does, it has no more to read.
        let _ = stream.read(&mut [0u8; 64]);
    });
    let output = client(port, "white", &["--timeout", "5", "--record", "/dev/null"]);
    server.join().unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("protocol error: a state message has no \"KING\""),
        "{stderr}"
    );
}

#[test]
fn what_the_server_sent_is_quoted_short_with_its_size() {
    // A 60 KB cell name: the error repeats its start and its size.
    let (code, stderr) = failing(
        |s| {
            let start = Played::<Tablut>::start(Variant::Ashton, 0).to_notation();
            let long = format!("\"{}\"", "Q".repeat(60_000));
            let state = state_message(&start, "BLACK").replacen("\"EMPTY\"", &long, 1);
            write_frame(s, &state);
        },
        "5",
    );
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "has \"{}\"... (60000 bytes) on a1",
            "Q".repeat(64)
        )),
        "{stderr}"
    );
    assert!(stderr.len() < 1000, "{} bytes of errors", stderr.len());
}

#[test]
fn a_turn_in_a_game_caber_calls_over_is_a_protocol_error() {
    // Black to move after the king reached the edge: by Caber's rules the
    // game is over. (A side with no legal move is another matter: the
    // server gives it the turn; tests/tablut_referee.rs.)
    let (port, server) = fake_server(|mut stream| {
        write_frame(
            &mut stream,
            &state_message("2k6/9/9/9/9/9/9/9/4b4 b -", "BLACK"),
        );
        let _ = stream.read(&mut [0u8; 64]);
    });
    let output = client(port, "black", &["--timeout", "5", "--record", "/dev/null"]);
    server.join().unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("the server's first state gives BLACK the move, but by Caber's ashton rules the game is over"),
        "{stderr}"
    );
}
