//! `caber engine`, the UCI-style loop, driven as a GUI drives it: through
//! its standard input and output, one process for many searches, every
//! answer awaited with a timeout (a guard: a hung loop fails the test).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use proptest::prelude::*;

/// How long any one answer may take (searches here are short).
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

/// The engine process with its output lines, read on a thread of their own.
struct Engine {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Drop for Engine {
    /// A test that fails leaves no engine searching.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `word`,
    /// all within [`ANSWER_WITHIN`].
    fn until(&mut self, word: &str) -> Vec<String> {
        let asked = Instant::now();
        let mut lines = Vec::new();
        loop {
            let left = ANSWER_WITHIN.saturating_sub(asked.elapsed());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|e| {
                panic!("no {word:?} within {ANSWER_WITHIN:?} ({e}): {lines:?}")
            });
            let done = line.split_whitespace().next() == Some(word);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// `quit`, and the process's end within [`ANSWER_WITHIN`]: the lines it
    /// printed after the last ones read.
    fn quit(mut self) -> Vec<String> {
        self.send("quit");
        self.end_input()
    }

    /// Closes the engine's input, and awaits its end within
    /// [`ANSWER_WITHIN`]: the lines it printed after the last ones read.
    fn end_input(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let asked = Instant::now();
        let mut rest = Vec::new();
        loop {
            match self
                .lines
                .recv_timeout(ANSWER_WITHIN.saturating_sub(asked.elapsed()))
            {
                Ok(line) => rest.push(line),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(e) => panic!("no end within {ANSWER_WITHIN:?} ({e}): {rest:?}"),
            }
        }
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        rest
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
        lines[0].starts_with("info string error: move 1 (\"F6-F7-F9-D9\")"),
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
            "info string unknown command: \"bogus\"",
            "readyok"
        ]
    );
    assert_eq!(e.quit(), Vec::<String>::new());
}

/// A script may send everything at once: the commands after a go wait for
/// its bestmove; quit stops the searches before it, each still answered
/// once, and what follows it is not read.
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
    e.quit();
}

/// The `info depth` lines of an answer, and whether the `bestmove` names
/// the first move of the last one's line: a move of a finished iteration.
fn searched_move(lines: &[String]) -> bool {
    let Some(info) = lines.iter().rev().find(|l| l.starts_with("info depth ")) else {
        return false;
    };
    let depth: u32 = info.split_whitespace().nth(2).unwrap().parse().unwrap();
    let pv = info
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split(' ').next());
    depth >= 1 && pv == Some(best(lines))
}

/// As cutechess-cli or another tournament manager drives an engine: set up,
/// a new game, moves on clocks, pondering with `ponderhit` and with `stop`,
/// an infinite analysis stopped at once, `quit`; every answer awaited with
/// a timeout, every `go` answered by exactly one `bestmove` that the next
/// `position` accepts.
#[test]
fn a_tournament_manager_session_gets_one_searched_bestmove_per_go() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("setoption name Game value tablut");
    e.send("setoption name Variant value ashton");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    e.send("ucinewgame");
    e.send("isready");
    e.until("readyok");
    let mut moves: Vec<String> = Vec::new();
    let position = |moves: &[String]| {
        if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        }
    };
    for _ in 0..4 {
        e.send(&position(&moves));
        e.send("go wtime 3000 btime 3000 winc 100 binc 100");
        let lines = e.until("bestmove");
        assert!(searched_move(&lines), "{lines:?}");
        moves.push(best(&lines).to_string());
    }
    // Pondering on the predicted reply: the search goes on past its
    // movetime until `ponderhit`, then keeps its limits from there.
    let lines = {
        e.send(&position(&moves));
        e.send("go depth 2");
        e.until("bestmove")
    };
    let last = lines.last().unwrap().clone();
    let ponder: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(ponder.get(2), Some(&"ponder"), "{last}");
    moves.push(ponder[1].to_string());
    moves.push(ponder[3].to_string());
    e.send(&position(&moves));
    e.send("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let early = e.until("readyok");
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "no bestmove while pondering: {early:?}"
    );
    e.send("ponderhit");
    let lines = e.until("bestmove");
    assert!(searched_move(&[early, lines.clone()].concat()), "{lines:?}");
    // A ponder miss: `stop` ends the pondering search with its bestmove.
    e.send("go ponder movetime 100");
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(searched_move(&lines), "{lines:?}");
    // Analysis: `go infinite` and `stop` at once still name a searched move.
    e.send("go infinite");
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(searched_move(&lines), "{lines:?}");
    // The next search at once: searched in full, though the one just
    // stopped may still hold its place on the server for a moment.
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    // Every move the engine named is legal: the position reads.
    e.send(&position(&moves));
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    assert_eq!(e.quit(), Vec::<String>::new());
}

/// `stop` at once, or the end of the input, after `go infinite`: one
/// `bestmove`, of a finished iteration (its `info` line printed), never an
/// unsearched first legal move.
#[test]
fn an_infinite_search_stopped_at_once_answers_a_searched_move() {
    for _ in 0..3 {
        let mut e = Engine::start(&["--variant", "ashton"]);
        e.send("position startpos");
        e.send("go infinite");
        e.send("stop");
        let lines = e.until("bestmove");
        assert!(searched_move(&lines), "{lines:?}");
        assert_eq!(e.quit(), Vec::<String>::new());
    }
    let text = piped(
        &["--variant", "ashton"],
        b"position startpos\ngo infinite\n",
    );
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{text}"
    );
    assert!(searched_move(&lines), "{text}");
}

/// Runs `caber engine` on `input` (all of it at once) to its end, within
/// [`ANSWER_WITHIN`]; its output.
fn piped(args: &[&str], input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(args)
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written on a thread: the engine may answer before it has read it all.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let asked = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if asked.elapsed() > ANSWER_WITHIN {
            let _ = child.kill();
            panic!("no end within {ANSWER_WITHIN:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    writer.join().unwrap().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// `stop` and `quit` leave at once whatever is queued: 20 searches of a
/// second each, then `stop` (or `quit` alone), answered within 5 s, each
/// `go` by one `bestmove` of a (minimal) search.
#[test]
fn stop_and_quit_leave_at_once_with_one_bestmove_per_queued_go() {
    for ending in ["stop\nquit\n", "quit\n"] {
        let mut input = String::from("position startpos\n");
        input.push_str(&"go movetime 1000\n".repeat(20));
        input.push_str(ending);
        let started = Instant::now();
        let text = piped(&[], input.as_bytes());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{ending:?}: {:?}",
            started.elapsed()
        );
        let bestmoves: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(bestmoves.len(), 20, "{text}");
        assert!(bestmoves.iter().all(|l| !l.contains("(none)")), "{text}");
    }
}

/// `go` words it cannot use are said and the rest obeyed; a search that
/// cannot run answers `bestmove (none)`; `setoption` refuses a bad value at
/// once and keeps the old one.
#[test]
fn bad_go_words_bad_options_and_refused_searches_are_answered() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go depth abc nodes 300");
    let lines = e.until("bestmove");
    assert_eq!(
        lines[0],
        "info string go: depth \"abc\" is not a number, ignored"
    );
    assert!(searched_move(&lines), "{lines:?}");
    e.send("go movetime -5 depth 1");
    let lines = e.until("bestmove");
    assert_eq!(
        lines[0],
        "info string go: movetime \"-5\" is not a number, ignored"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
    // searchmoves: only the listed legal moves are answered (the best
    // move here is e2-c2), an illegal one is said.
    e.send("go searchmoves a4-a3 zz d1-d2 depth 2");
    let lines = e.until("bestmove");
    assert_eq!(
        lines[0],
        "info string go: searchmoves: \"zz\" is not a legal move, ignored"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    for line in &lines[1..lines.len() - 1] {
        let first = line
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(["a4-a3", "d1-d2"].contains(&first), "{lines:?}");
    }
    assert!(searched_move(&lines), "{lines:?}");
    // MCTS does not search by depth: the search is refused, nothing played.
    e.send("setoption name Searcher value mcts");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines[0].starts_with("info string error: limits.depth"),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(best(&lines), "(none)");
    // Refused values, each at once; the options keep their values.
    e.send("setoption name Searcher value bogus");
    e.send("setoption name Variant value ashton");
    e.send("setoption name Variant value nosuch");
    e.send("setoption name Game value nosuch");
    e.send("setoption name MultiPV value 0");
    e.send("isready");
    let lines = e.until("readyok");
    assert_eq!(
        lines,
        [
            "info string error: Searcher \"bogus\" refused (the searchers of tablut are alphabeta, mcts, uct-baseline)",
            "info string error: Variant \"nosuch\" refused (the variants of tablut are bga, bga-corners, ashton, linnaeus)",
            "info string error: Game \"nosuch\" refused (the games are tablut, almatafl, schotten-totten, tartan)",
            "info string error: MultiPV \"0\" refused (not 1 to 64)",
            "readyok"
        ]
    );
    e.send("position startpos");
    e.send("d");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines.contains(&"game: tablut (ashton)".to_string()),
        "{lines:?}"
    );
    // Still mcts: a search by nodes runs.
    e.send("go nodes 50");
    let lines = e.until("bestmove");
    assert!(searched_move(&lines), "{lines:?}");
    // A game without the searcher set: back to the game's default.
    e.send("setoption name Game value Schotten-Totten");
    e.send("setoption name Searcher value mcts");
    e.send("isready");
    assert_eq!(
        e.until("readyok"),
        [
            "info string schotten-totten has no searcher \"mcts\": the Searcher option is now its default",
            "info string error: Searcher \"mcts\" refused (the searchers of schotten-totten are ismcts, greedy)",
            "readyok"
        ]
    );
    e.quit();
}

/// `debug on` says what each search asks for; `d` prints the diagram;
/// `ponderhit` with nothing pondering is nothing, and one for a `go ponder`
/// that waits makes it a normal search.
#[test]
fn debug_d_and_ponderhit_before_its_search() {
    let mut e = Engine::start(&["--game", "tartan"]);
    e.send("d");
    e.send("ponderhit");
    e.send("debug on");
    e.send("position startpos moves A1");
    e.send("d");
    e.send("isready");
    let lines = e.until("readyok");
    assert_eq!(
        lines[0],
        "info string error: no position (send `position startpos` or `position fen ...`)"
    );
    let at = lines
        .iter()
        .position(|l| l.starts_with("position: "))
        .unwrap();
    assert_eq!(lines[at - 1], "game: tartan (standard)");
    assert!(lines[at + 1].starts_with("to move: "), "{lines:?}");
    assert!(at >= 3, "a diagram before: {lines:?}");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert_eq!(
        lines[0],
        "info string debug: Analyze searcher \"\" depth 1 nodes 0 movetime 0 threads 1 hash 0 multipv 1 table uci-0"
    );
    e.send("debug off");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    // A `ponderhit` that comes while its `go ponder` still waits behind
    // another search: that search starts as a normal one.
    e.send("go depth 2");
    e.send("go ponder depth 1");
    e.send("ponderhit");
    e.until("bestmove");
    let lines = e.until("bestmove");
    assert!(searched_move(&lines), "{lines:?}");
    e.send("debug maybe");
    e.send("isready");
    assert_eq!(
        e.until("readyok"),
        ["info string error: debug takes on or off", "readyok"]
    );
    e.quit();
}

/// Bytes that are not UTF-8 make an unknown command, not an exit; a long
/// line is answered with its start and size, a line past the bound is
/// counted and skipped, not kept.
#[test]
fn any_bytes_make_a_bounded_answer() {
    let mut input = b"\xff\xfe go\n".to_vec();
    input.extend_from_slice(&[b'y'; 500_000]);
    input.push(b'\n');
    input.extend_from_slice(&vec![b'x'; 10 << 20]);
    input.extend_from_slice(b"\nisready\n");
    // A move of 100 KB: the error repeats its start and size.
    input
        .extend_from_slice(format!("position startpos moves {}\n", "q".repeat(100_000)).as_bytes());
    let text = piped(&[], &input);
    let mut lines: Vec<&str> = text.lines().collect();
    let error = lines.pop().unwrap();
    assert!(
        error.starts_with(&format!(
            "info string error: move 1 (\"{}\"... (100000 bytes)): ",
            "q".repeat(64)
        )),
        "{error}"
    );
    assert!(error.len() < 1000, "{error}");
    assert_eq!(
        lines,
        [
            "info string unknown command: \"\u{fffd}\u{fffd} go\"",
            &format!(
                "info string unknown command: \"{}\"... (500000 bytes)",
                "y".repeat(64)
            ),
            &format!(
                "info string error: a line of more than 1048576 bytes, ignored: \"{}\"... (10485760 bytes)",
                "x".repeat(64)
            ),
            "readyok"
        ]
    );
}

/// A command of the property test, or a pause between two.
#[derive(Clone, Debug)]
enum Step {
    Line(&'static str),
    Pause(u64),
}

const COMMANDS: &[&str] = &[
    "position startpos",
    "position startpos moves e2-c2",
    "position startpos moves zz",
    "position fen nonsense",
    "go depth 1",
    "go depth 2",
    "go nodes 300",
    "go movetime 30",
    "go infinite",
    "go ponder movetime 30",
    "go ponder depth 2",
    "go depth abc nodes 200",
    "go searchmoves e2-c2 depth 1",
    "go searchmoves d1-d2 e4-f4 nodes 300",
    "go wtime 500 btime 500",
    "go",
    "stop",
    "ponderhit",
    "isready",
    "ucinewgame",
    "setoption name MultiPV value 2",
    "setoption name Searcher value mcts",
    "setoption name Searcher value alphabeta",
    "setoption name Variant value nosuch",
    "setoption name Game value tartan",
    "debug on",
    "d",
    "bogus words",
    "",
];

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => proptest::sample::select(COMMANDS).prop_map(Step::Line),
        1 => (0u64..60).prop_map(Step::Pause),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random command lines, at random pauses, ended by `quit` or by the
    /// end of the input: every `go` before the end gets exactly one
    /// `bestmove`, and the loop ends.
    #[test]
    fn every_go_is_answered_once(steps in proptest::collection::vec(step(), 1..14), quit in any::<bool>()) {
        let mut e = Engine::start(&["--variant", "ashton"]);
        let mut gos = 0;
        for s in &steps {
            match s {
                Step::Line(line) => {
                    gos += usize::from(line.starts_with("go"));
                    e.send(line);
                }
                Step::Pause(ms) => std::thread::sleep(Duration::from_millis(*ms)),
            }
        }
        let printed = if quit { e.quit() } else { e.end_input() };
        let bestmoves = printed.iter().filter(|l| l.starts_with("bestmove")).count();
        prop_assert_eq!(bestmoves, gos, "{:?} -> {:?}", steps, printed);
    }
}

/// `Hash` offers the server's maximum (in process, half this machine's
/// memory) and refuses more at once, keeping its value: a size the machine
/// cannot hold never reaches a search (it aborted the process before).
#[test]
fn hash_is_offered_and_refused_within_the_servers_maximum() {
    let text = piped(&[], b"uci\nquit\n");
    let option = text
        .lines()
        .find(|l| l.starts_with("option name Hash "))
        .expect("a Hash option");
    let max: u64 = option
        .rsplit(' ')
        .next()
        .and_then(|m| m.parse().ok())
        .expect("a maximum");
    assert!((1..=65_536).contains(&max), "{option}");
    let input = format!(
        "setoption name Hash value {}\nsetoption name Hash value 8\nposition startpos\ndebug on\ngo depth 1\nquit\n",
        max + 1
    );
    let text = piped(&[], input.as_bytes());
    assert!(
        text.contains(&format!(
            "info string error: Hash \"{}\" refused (not 1 to {max}, the server's maximum)",
            max + 1
        )),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("info string debug: Analyze ") && l.contains(" hash 8 ")),
        "the old value kept: {text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    // The table is made when Hash is set, before `isready` is answered, so
    // that no `go` spends its time on it.
    let text = piped(
        &[],
        b"debug on\nsetoption name Hash value 64\nisready\nucinewgame\nisready\nquit\n",
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "info string debug: making the table: 64 MB",
            "readyok",
            "info string debug: making the table: 64 MB",
            "readyok"
        ],
        "{text}"
    );
}
