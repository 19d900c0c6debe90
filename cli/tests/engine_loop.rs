//! `caber engine`, the UCI-style loop, driven as a GUI drives it: through
//! its standard input and output, one process for many searches.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// The engine process with a reader of its output.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
            .args(args)
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("caber runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `word`.
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the engine ended before {word:?}: {lines:?}"
            );
            let line = line.trim_end().to_string();
            let done = line.split_whitespace().next() == Some(word);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

/// The move of a `bestmove` line.
fn best(lines: &[String]) -> &str {
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{lines:?}");
    last.split_whitespace().nth(1).unwrap()
}

#[test]
fn a_gui_session_sets_up_searches_stops_and_quits() {
    let mut e = Engine::start(&["--game", "almatafl"]);
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello[0].starts_with("id name Caber "), "{hello:?}");
    for option in [
        "Game type combo default almatafl",
        "MultiPV type spin",
        "Threads type spin",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option}"))),
            "{option}: {hello:?}"
        );
    }
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    // A fixed-depth search: info lines by depth, then exactly one bestmove,
    // a legal move that the next position command accepts.
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(lines[0].starts_with("info depth 1 "), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    let first = best(&lines).to_string();
    e.send(&format!("position startpos moves {first}"));
    e.send("setoption name MultiPV value 2");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    // An infinite search runs until stop, answering isready on the way;
    // stop gives the best move so far at once.
    e.send("setoption name MultiPV value 1");
    e.send("go infinite");
    e.send("isready");
    let lines = e.until("readyok");
    // The search's first info lines may come before the answer.
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info ")),
        "{lines:?}"
    );
    std::thread::sleep(Duration::from_millis(600));
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth ")),
        "{lines:?}"
    );
    // Errors are said and the loop goes on: an illegal move leaves no
    // position, so go answers at once with (none); so does a finished game.
    e.send("position startpos moves F6-F7-F9-D9");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(
        lines[0].starts_with("info string error: move 1 (F6-F7-F9-D9)"),
        "{lines:?}"
    );
    assert_eq!(best(&lines), "(none)");
    e.send("setoption name Game value tablut");
    e.send("position fen 1k7/9/9/9/9/9/9/9/8b b -");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(
        lines[0].starts_with("info string the game is over"),
        "{lines:?}"
    );
    assert_eq!(best(&lines), "(none)");
    e.send("setoption name Nope value 1");
    e.send("bogus");
    e.send("isready");
    let lines = e.until("readyok");
    assert_eq!(
        lines,
        [
            "info string error: no option \"Nope\"",
            "info string unknown command: bogus",
            "readyok"
        ]
    );
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// A script may send everything at once: the commands after a go wait for
/// its bestmove, and quit ends the loop only after them.
#[test]
fn piped_input_gets_one_bestmove_per_go_in_order() {
    let out = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(["--game", "tartan", "engine"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(
                b"position startpos\ngo depth 2\nposition startpos moves A1\ngo nodes 500\n\
                  setoption name Searcher value mcts\ngo nodes 300\nquit\ngo depth 1\n",
            )?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let bestmoves: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert_eq!(bestmoves.len(), 3, "three go before quit: {text}");
    assert!(bestmoves.iter().all(|l| !l.contains("(none)")), "{text}");
}

/// The table is kept from one `go` of a game to the next (the second search
/// of a position is cheaper), and `ucinewgame` starts with an empty one.
#[test]
fn the_table_is_kept_within_a_game_and_emptied_by_ucinewgame() {
    let mut e = Engine::start(&["--variant", "ashton"]);
    let nodes = |e: &mut Engine| {
        e.send("position startpos");
        e.send("go depth 5");
        let lines = e.until("bestmove");
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 5 "))
            .unwrap();
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "nodes").unwrap();
        words[at + 1].parse::<u64>().unwrap()
    };
    let first = nodes(&mut e);
    let again = nodes(&mut e);
    assert!(again < first / 2, "{again} nodes after {first}");
    e.send("ucinewgame");
    e.send("setoption name Hash value 16");
    assert_eq!(
        nodes(&mut e),
        first,
        "a new game, an empty table of the default size"
    );
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}
