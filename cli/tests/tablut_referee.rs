//! `caber tablut-challenge serve`, the referee, against raw clients that
//! speak the competition's protocol byte for byte (a malformed move, an
//! illegal one forgiven and not, a client that leaves or never answers, a
//! side with no legal move) and against `caber tablut-challenge` itself,
//! from a position and from a record.

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use caber_engine::record::GameRecord;
use caber_engine::tablut::{Tablut, Variant};
use caber_engine::Played;

mod challenge_wire;
use challenge_wire::{state_message, write_frame};

/// A running referee: its process and the two ports it listens on.
struct Referee {
    child: Child,
    white: u16,
    black: u16,
    record: PathBuf,
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("caber-referee-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Starts `caber tablut-challenge serve --json` on free ports with `extra`.
fn referee(name: &str, extra: &[&str]) -> Referee {
    let record = scratch(&format!("{name}.record"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(["tablut-challenge", "serve", "--json", "--host", "127.0.0.1"])
        .args(["--white-port", "0", "--black-port", "0"])
        .args(["--record", record.to_str().unwrap()])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("caber runs");
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let listening: serde_json::Value = serde_json::from_str(&first).expect(&first);
    let port = |side: &str| {
        let at = listening[side].as_str().unwrap();
        at.rsplit(':').next().unwrap().parse().unwrap()
    };
    Referee {
        white: port("white"),
        black: port("black"),
        child,
        record,
    }
}

impl Referee {
    /// Waits for the referee's exit: its output and the record it wrote.
    fn finish(self) -> (Output, GameRecord) {
        let output = self.child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        let text = std::fs::read_to_string(&self.record).unwrap();
        (output, GameRecord::parse(&text).unwrap())
    }
}

/// The next frame, or `None` once the referee has closed the connection.
fn read_frame(stream: &mut TcpStream) -> Option<String> {
    let mut length = [0u8; 4];
    stream.read_exact(&mut length).ok()?;
    let mut body = vec![0u8; u32::from_be_bytes(length) as usize];
    stream.read_exact(&mut body).unwrap();
    Some(String::from_utf8(body).unwrap())
}

/// A raw client of `port` whose name message is `name`.
fn connect(port: u16, name: &str) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut stream = stream;
    write_frame(&mut stream, name);
    stream
}

/// Both raw clients, white first (the referee takes white's name first):
/// white names itself with a JSON string, black with a bare word, as
/// albe873/tablut.cpp does (the server's lenient reader takes both).
fn both(referee: &Referee) -> (TcpStream, TcpStream) {
    let white = connect(referee.white, "\"rawwhite\"");
    let black = connect(referee.black, "rawblack");
    (white, black)
}

/// A state's turn and board (the board's JSON text).
fn turn_of(state: &str) -> (String, String) {
    let value: serde_json::Value = serde_json::from_str(state).unwrap();
    (
        value["turn"].as_str().unwrap().to_string(),
        value["board"].to_string(),
    )
}

/// The server's state message for `game`.
fn state_of(game: &Played<Tablut>, turn: &str) -> String {
    state_message(&game.to_notation(), turn)
}

fn start() -> Played<Tablut> {
    Played::<Tablut>::start(Variant::Ashton, 0)
}

fn mv(from: &str, to: &str) -> String {
    format!(r#"{{"from":"{from}","to":"{to}","turn":"WHITE"}}"#)
}

#[test]
fn states_go_to_both_players_and_an_illegal_move_loses_on_the_same_board() {
    let referee = referee("illegal", &["--timeout", "10"]);
    let (mut white, mut black) = both(&referee);
    let first = start_state();
    assert_eq!(read_frame(&mut white).as_deref(), Some(first.as_str()));
    assert_eq!(read_frame(&mut black).as_deref(), Some(first.as_str()));
    // e4 to e5: the throne.
    write_frame(&mut white, &mv("e4", "e5"));
    let end = state_of(&start(), "BLACKWIN");
    assert_eq!(read_frame(&mut white).as_deref(), Some(end.as_str()));
    assert_eq!(read_frame(&mut black).as_deref(), Some(end.as_str()));
    assert_eq!(read_frame(&mut white), None, "closed after the end");
    let (output, record) = referee.finish();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(r#""name":"rawwhite""#), "{stdout}");
    assert_eq!(record.tag("Result"), Some("0-1"));
    assert_eq!(record.tag("White"), Some("rawwhite"));
    assert_eq!(record.tag("Black"), Some("rawblack"));
    assert!(
        record
            .tag("Reason")
            .unwrap()
            .starts_with("white made an illegal move: e4-e5"),
        "{:?}",
        record.tag("Reason")
    );
    assert!(record.moves.is_empty());
}

fn start_state() -> String {
    state_of(&start(), "WHITE")
}

#[test]
fn a_forgiven_error_sends_the_same_state_again_and_a_client_that_leaves_loses() {
    let referee = referee("forgiven", &["--timeout", "10", "--errors", "1"]);
    let (mut white, mut black) = both(&referee);
    let first = start_state();
    read_frame(&mut white);
    read_frame(&mut black);
    // Not a move at all, then an upper-case column the server reads too.
    write_frame(&mut white, "hello");
    assert_eq!(read_frame(&mut white).as_deref(), Some(first.as_str()));
    assert_eq!(read_frame(&mut black).as_deref(), Some(first.as_str()));
    write_frame(&mut white, &mv("E3", "d3"));
    let after = start()
        .play(&start().parse_move("e3-d3").unwrap())
        .ok()
        .unwrap();
    let second = state_of(&after, "BLACK");
    assert_eq!(read_frame(&mut white).as_deref(), Some(second.as_str()));
    assert_eq!(read_frame(&mut black).as_deref(), Some(second.as_str()));
    // Black leaves on its turn: white wins, told on the same board.
    drop(black);
    let end = state_of(&after, "WHITEWIN");
    assert_eq!(read_frame(&mut white).as_deref(), Some(end.as_str()));
    let (output, record) = referee.finish();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(r#""illegal":"a move message that is not JSON: \"hello\"""#),
        "{stdout}"
    );
    assert_eq!(record.tag("Result"), Some("1-0"));
    assert_eq!(record.tag("Reason"), Some("black left the game"));
    assert_eq!(record.moves.len(), 1);
    assert_eq!(record.moves[0].text, "e3-d3");
}

#[test]
fn a_player_that_does_not_move_in_time_loses_and_no_final_state_is_sent() {
    let referee = referee("timeout", &["--timeout", "1"]);
    let (mut white, mut black) = both(&referee);
    read_frame(&mut white);
    read_frame(&mut black);
    let waited = Instant::now();
    // The server exits: both connections close with no state.
    assert_eq!(read_frame(&mut black), None);
    assert_eq!(read_frame(&mut white), None);
    assert!(
        waited.elapsed() >= Duration::from_millis(900),
        "{:?}",
        waited.elapsed()
    );
    let (_, record) = referee.finish();
    assert_eq!(record.tag("Result"), Some("0-1"));
    assert_eq!(record.tag("Reason"), Some("white did not move within 1 s"));
}

/// A record of an `ashton` game with `moves` in the scratch folder.
fn ashton_record(name: &str, moves: &[&str]) -> PathBuf {
    let path = scratch(name);
    let mut text = "[Game \"tablut\"]\n[Format \"2\"]\n[Variant \"ashton\"]\n\n".to_string();
    for (i, m) in moves.iter().enumerate() {
        text += &format!("{}. {m}\n", i + 1);
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// The `ashton` game after `moves` from the start.
fn after(moves: &[&str]) -> Played<Tablut> {
    let mut game = start();
    for text in moves {
        let m = game.parse_move(text).unwrap();
        game = game.play(&m).ok().unwrap();
    }
    game
}

#[test]
fn a_game_starts_where_a_record_stands_and_keeps_its_moves() {
    let given = ashton_record("given.record", &["e3-d3", "d1-d2", "e4-c4"]);
    let referee = referee(
        "from-record",
        &["--start-record", given.to_str().unwrap(), "--ply", "2"],
    );
    let (mut white, mut black) = both(&referee);
    let game = after(&["e3-d3", "d1-d2"]);
    let first = state_of(&game, "WHITE");
    assert_eq!(read_frame(&mut white).as_deref(), Some(first.as_str()));
    assert_eq!(read_frame(&mut black).as_deref(), Some(first.as_str()));
    // A move of black's piece by white.
    write_frame(&mut white, &mv("d2", "c2"));
    let (turn, _) = turn_of(&read_frame(&mut white).unwrap());
    assert_eq!(turn, "BLACKWIN");
    let (_, record) = referee.finish();
    assert_eq!(record.tag("Opening"), Some("2 plies of given.record"));
    assert_eq!(record.tag("Start"), None);
    let moves: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["e3-d3", "d1-d2"]);
    assert_eq!(record.tag("Result"), Some("0-1"));
}

#[test]
fn max_plies_adjudicates_a_draw_after_the_plies_played_here() {
    let given = ashton_record("adjudicated-start.record", &["e3-d3", "d1-d2"]);
    let referee = referee(
        "adjudicated",
        &[
            "--timeout",
            "10",
            "--start-record",
            given.to_str().unwrap(),
            "--max-plies",
            "2",
        ],
    );
    let (mut white, mut black) = both(&referee);
    let mut game = after(&["e3-d3", "d1-d2"]);
    read_frame(&mut white);
    read_frame(&mut black);
    // White moves, then black: the second ply played here ends the game.
    for (white_moves, from, to, turn) in [(true, "e4", "c4", "BLACK"), (false, "a4", "a3", "DRAW")]
    {
        let player = if white_moves { &mut white } else { &mut black };
        write_frame(player, &mv(from, to));
        let m = game.parse_move(&format!("{from}-{to}")).unwrap();
        game = game.play(&m).ok().unwrap();
        let state = state_of(&game, turn);
        assert_eq!(read_frame(&mut white).as_deref(), Some(state.as_str()));
        assert_eq!(read_frame(&mut black).as_deref(), Some(state.as_str()));
    }
    assert_eq!(read_frame(&mut white), None, "closed after the end");
    let (_, record) = referee.finish();
    assert_eq!(record.tag("Result"), Some("1/2-1/2"));
    assert_eq!(
        record.tag("Reason"),
        Some("adjudicated after 2 plies (--max-plies)")
    );
    assert_eq!(record.moves.len(), 4);
}

#[test]
fn a_start_that_is_no_position_or_a_finished_game_is_refused() {
    for (args, expected) in [
        (&["--position", "9/9 w -"][..], "position"),
        (
            &["--position", "2k6/9/9/9/9/9/9/9/4b4 b -"][..],
            "finished game",
        ),
        (
            &["--start-record", "/nonexistent.record"][..],
            "--start-record",
        ),
        (&["--game", "tablut"][..], "does not take it"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_caber"))
            .args([
                "tablut-challenge",
                "serve",
                "--white-port",
                "0",
                "--black-port",
                "0",
            ])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

fn caber_client(port: u16, color: &str, record: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_caber"))
        .args([
            "tablut-challenge",
            "--color",
            color,
            "--port",
            &port.to_string(),
        ])
        .args(["--timeout", "10", "--movetime", "200"])
        .args(["--record", record.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn done(child: Child) -> String {
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn two_caber_clients_play_through_the_referee_to_the_same_result() {
    // White to move: the king on c3 escapes at once.
    let position = "3bbb3/4b4/2k6/b7b/bb5bb/b7b/9/4b4/3bbb3 w -";
    let referee = referee("clients", &["--timeout", "10", "--position", position]);
    let (white_record, black_record) = (scratch("white.record"), scratch("black.record"));
    let white = caber_client(referee.white, "white", &white_record);
    // The referee takes white's name before it accepts black.
    let black = caber_client(referee.black, "black", &black_record);
    let (white, black) = (done(white), done(black));
    let (_, record) = referee.finish();
    assert_eq!(record.tag("Result"), Some("1-0"));
    assert_eq!(record.tag("Reason"), Some("king escaped"));
    assert_eq!(record.tag("Start"), Some(position));
    assert_eq!(record.tag("White"), Some("caber"));
    assert!(
        white.contains("game over after 1 plies: white won: king escaped"),
        "{white}"
    );
    assert!(
        black.contains("game over after 1 plies: white won: king escaped"),
        "{black}"
    );
    for path in [&white_record, &black_record] {
        let theirs = GameRecord::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(theirs.moves[0].text, record.moves[0].text);
        assert_eq!(theirs.tag("Result"), Some("1-0"));
    }
}

#[test]
fn the_client_takes_the_end_after_the_other_sides_illegal_move_as_the_result() {
    let referee = referee("client-wins", &["--timeout", "10"]);
    let record = scratch("client-wins-white.record");
    let white = caber_client(referee.white, "white", &record);
    // Black connects once white has named itself; it answers nonsense.
    let mut black = loop {
        match TcpStream::connect(("127.0.0.1", referee.black)) {
            Ok(stream) => break stream,
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    write_frame(&mut black, "\"rawblack\"");
    read_frame(&mut black);
    read_frame(&mut black);
    write_frame(&mut black, r#"{"from":"a1","to":"a1","turn":"BLACK"}"#);
    let stdout = done(white);
    let (_, written) = referee.finish();
    assert_eq!(written.tag("Result"), Some("1-0"));
    assert!(
        stdout.contains("the server ended the game: black made an illegal move"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game over after 1 plies: white won: black made an illegal move"),
        "{stdout}"
    );
    let ours = GameRecord::parse(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(ours.tag("Result"), Some("1-0"));
}

#[test]
fn a_side_with_no_legal_move_is_given_the_turn_and_loses_by_the_move_it_cannot_make() {
    // Black's one soldier on a1 is boxed in by white's on b1 and a2 once
    // the king has moved: the server still gives black the turn.
    let position = "bw7/w8/9/9/4k4/9/9/9/9 w -";
    let referee = referee("no-move", &["--timeout", "10", "--position", position]);
    let mut white = connect(referee.white, "\"rawwhite\"");
    let record = scratch("no-move-black.record");
    let black = caber_client(referee.black, "black", &record);
    read_frame(&mut white);
    write_frame(&mut white, &mv("e5", "e7"));
    let (turn, board) = turn_of(&read_frame(&mut white).unwrap());
    assert_eq!(turn, "BLACK");
    // Caber's client sends the empty move; the server's end follows.
    let (turn, same) = turn_of(&read_frame(&mut white).unwrap());
    assert_eq!((turn.as_str(), same), ("WHITEWIN", board));
    let stdout = done(black);
    assert!(
        stdout.contains("no legal move for us: sent an empty move"),
        "{stdout}"
    );
    assert!(
        stdout.contains("white won: black had no legal move"),
        "{stdout}"
    );
    let (_, written) = referee.finish();
    assert_eq!(written.tag("Result"), Some("1-0"));
    assert!(
        written
            .tag("Reason")
            .unwrap()
            .starts_with("black made an illegal move: -:"),
        "{:?}",
        written.tag("Reason")
    );
}

/// A transcript line without what changes from run to run: move times and
/// the players' own ports.
fn steady(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let number = !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
        if number && words.get(i + 1) == Some(&"s") {
            out.push("N".to_string());
        } else if let Some(peer) = w.strip_prefix("(127.0.0.1:") {
            assert!(peer.ends_with(')'), "{line}");
            out.push("(127.0.0.1:PORT)".to_string());
        } else {
            out.push(w.to_string());
        }
    }
    out.join(" ")
}

#[test]
fn the_transcript_in_the_docs_is_what_the_referee_prints() {
    // docs/TABLUT_CHALLENGE.md's ```console block of the referee: its
    // command, then what it printed with Caber at depth 3 on both sides.
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let docs = std::fs::read_to_string(root.join("docs/TABLUT_CHALLENGE.md")).unwrap();
    let block = docs
        .split("```console\n")
        .find(|b| b.starts_with("$ caber tablut-challenge serve "))
        .expect("the referee's console block");
    let block = &block[..block.find("```").unwrap()];
    let mut lines = block.lines();
    let command = lines.next().unwrap().strip_prefix("$ caber ").unwrap();
    let expected: Vec<String> = lines.map(steady).collect();
    let dir = scratch("docs");
    std::fs::create_dir_all(&dir).unwrap();
    let args: Vec<String> = command
        .split(' ')
        .map(|a| match a.starts_with("docs/") {
            true => root.join(a).to_string_lossy().into_owned(),
            false => a.to_string(),
        })
        .collect();
    let mut referee = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(&args)
        .args([
            "--host",
            "127.0.0.1",
            "--white-port",
            "0",
            "--black-port",
            "0",
        ])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(referee.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let port = |side: &str| -> u16 {
        let at = first
            .split(&format!("{side} on 127.0.0.1:"))
            .nth(1)
            .expect(&first);
        at[..at.find([',', ';']).unwrap()].parse().unwrap()
    };
    let (white_port, black_port) = (port("white"), port("black"));
    let player = |color: &str, port: u16| {
        Command::new(env!("CARGO_BIN_EXE_caber"))
            .args(["tablut-challenge", "--color", color, "--depth", "3"])
            .args(["--port", &port.to_string(), "--record", "/dev/null"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap()
    };
    let (mut white, mut black) = (player("white", white_port), player("black", black_port));
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(referee.wait().unwrap().success());
    assert!(white.wait().unwrap().success() && black.wait().unwrap().success());
    let printed = format!("{first}{rest}")
        .replace(&format!("127.0.0.1:{white_port},"), "0.0.0.0:5800,")
        .replace(&format!("127.0.0.1:{black_port};"), "0.0.0.0:5801;");
    let actual: Vec<String> = printed.lines().map(steady).collect();
    assert_eq!(actual, expected, "the referee printed:\n{printed}");
    assert!(dir.join("from-30.record").exists());
}
