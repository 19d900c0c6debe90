//! `caber review`, `puzzle solve|play|generate`, `play` and `render`
//! through the real binary: outputs, files (SVG parsed as XML, records read
//! back), interactive sessions driven through standard input, and bad input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use caber_engine::record::GameRecord;
use serde_json::Value;

fn caber(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(args)
        .output()
        .expect("caber runs")
}

/// `caber args` with `input` on standard input.
fn caber_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("caber runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "caber failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn failed(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// A fresh temporary directory for one test, removed when dropped.
struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("caber-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Red could crown its Cathedral but steps aside; blue crowns its own.
const BLUNDER: &str = "[Game \"tartan\"]\n\
                       [Start \"play C4=r4,F6=b4 D4,G6 0,0 0 r -\"]\n\
                       \n\
                       1. B:D4-D3\n\
                       2. B:G6-F6\n";

#[test]
fn review_judges_every_move_as_text_json_and_a_chart() {
    let dir = temp("review");
    let game = dir.join("blunder.record");
    std::fs::write(&game, BLUNDER).unwrap();
    let chart = dir.join("chart.svg");
    let annotated = dir.join("annotated.record");
    let text = ok(&caber(&[
        "review",
        path(&game),
        "--depth",
        "2",
        "--chart",
        path(&chart),
        "--annotate",
        path(&annotated),
    ]));
    // Lichess' marks, columns as wide as their longest entry; red's view
    // (Tartan's White, its first-listed side): its win probability, a
    // forced win in its moves.
    assert_eq!(
        text,
        "review of tartan (standard): 2 moves, from red's view\n  \
         1. red  B:D4-D3??  red 1.00 -> 0.00  blunder (lost 1.00), best B:D4-C4 (#1)\n  \
         2. blue B:G6-F6    red 0.00 -> 0.00\n\
         red: accuracy 0.0%, 0 inaccuracies, 0 mistakes, 1 blunder\n\
         blue: accuracy 100.0%, 0 inaccuracies, 0 mistakes, 0 blunders\n\
         result: blue won (coronation)\n"
    );
    let svg = std::fs::read_to_string(&chart).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the chart is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .count()
    };
    assert_eq!(class("blunder"), 1);
    assert_eq!(class("mistake") + class("inaccuracy"), 0);
    let line = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("win"))
        .unwrap();
    assert_eq!(line.attribute("points").unwrap().split(' ').count(), 3);
    assert_eq!(class("area"), 1, "the area under the curve is filled");
    let title = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("title"));
    assert_eq!(
        title.and_then(|t| t.text()),
        Some("tartan (standard): red vs blue")
    );
    // The annotated record, in the current format: the judged move's mark
    // and red's evaluation (blue wins in one move) as comments, read again
    // by review (the same judgement) and unchanged by a second annotation.
    let written = std::fs::read_to_string(&annotated).unwrap();
    assert_eq!(
        written,
        "[Game \"tartan\"]\n[Format \"2\"]\n[Start \"play C4=r4,F6=b4 D4,G6 0,0 0 r -\"]\n\n\
         1. B:D4-D3 {?? blunder (lost 1.00), best B:D4-C4} {[%eval #-1]}\n\
         2. B:G6-F6\n"
    );
    let again = dir.join("again.record");
    let text_again = ok(&caber(&[
        "review",
        path(&annotated),
        "--depth",
        "2",
        "--annotate",
        path(&again),
    ]));
    assert_eq!(text_again, text);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), written);
    // With --json, the `Review` stream: one `ReviewUpdate` a line.
    let updates: Vec<Value> = ok(&caber(&["review", path(&game), "--depth", "2", "--json"]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, moves) = updates.split_last().unwrap();
    assert_eq!(moves[0]["move"]["judgement"], "JUDGEMENT_BLUNDER");
    assert_eq!(moves[0]["move"]["best"]["text"], "B:D4-C4");
    assert_eq!(summary["players"][0]["blunders"], 1);
    let outcome = &summary["finalPosition"]["outcome"];
    assert_eq!(
        (&outcome["winnerName"], &outcome["reason"]),
        (&Value::from("blue"), &Value::from("coronation"))
    );
}

/// In `bga` black moves first, but a Tablut review takes white's view (its
/// White): the text, the chart and the annotated evaluations. A result the
/// moves do not show (a resignation) is read as the record's format means
/// it: `1-0` white's win in the current one, black's in an older record.
#[test]
fn a_tablut_review_takes_whites_view_whoever_moves_first() {
    let dir = temp("review-white");
    let moves = "[Reason \"resigned\"]\n\n1. d1-d3\n2. e3-h3\n";
    let current = dir.join("current.record");
    std::fs::write(
        &current,
        format!("[Game \"tablut\"]\n[Format \"2\"]\n[Result \"1-0\"]\n{moves}"),
    )
    .unwrap();
    let chart = dir.join("chart.svg");
    let text = ok(&caber(&[
        "review",
        path(&current),
        "--depth",
        "1",
        "--chart",
        path(&chart),
    ]));
    // Black's move took white's chance from 0.54 (after black's best) to
    // 0.63: black lost 0.09 of its own.
    assert_eq!(
        text,
        "review of tablut (bga): 2 moves, from white's view\n  \
         1. black d1-d3  white 0.54 -> 0.63\n  \
         2. white e3-h3  white 0.62 -> 0.54\n\
         black: accuracy 68.3%, 0 inaccuracies, 0 mistakes, 0 blunders\n\
         white: accuracy 70.6%, 0 inaccuracies, 0 mistakes, 0 blunders\n\
         result: white won (resigned)\n"
    );
    // White's curve: its own searches, from its first move (ply 1 of 2,
    // halfway along), not black's.
    let svg = std::fs::read_to_string(&chart).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let attribute = |class: &str, name: &str| {
        doc.descendants()
            .find(|n| n.attribute("class") == Some(class))
            .and_then(|n| n.attribute(name).or(n.text()))
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        attribute("win", "points"),
        "400.0,121.8 400.0,124.0 760.0,141.0"
    );
    assert!(
        attribute("legend", "").starts_with("white's win probability"),
        "{svg}"
    );
    // The same record written before the Format tag: 1-0 was black's win.
    let older = dir.join("older.record");
    std::fs::write(
        &older,
        format!("[Game \"tablut\"]\n[Result \"1-0\"]\n{moves}"),
    )
    .unwrap();
    let annotated = dir.join("annotated.record");
    let text = ok(&caber(&[
        "review",
        path(&older),
        "--depth",
        "1",
        "--annotate",
        path(&annotated),
    ]));
    assert!(text.ends_with("result: black won (resigned)\n"), "{text}");
    // Annotated: the current format, black's win as 0-1, white's evaluations.
    assert_eq!(
        std::fs::read_to_string(&annotated).unwrap(),
        "[Game \"tablut\"]\n[Format \"2\"]\n[Result \"0-1\"]\n[Reason \"resigned\"]\n\n\
         1. d1-d3 {[%eval cp -120]}\n2. e3-h3 {[%eval cp -234]}\n"
    );
}

#[test]
fn review_refuses_bad_files_and_records() {
    let dir = temp("review-bad");
    let err = failed(&caber(&["review", path(&dir.join("missing.record"))]));
    assert!(
        err.starts_with("error: cannot read the game record"),
        "{err}"
    );
    let bad = dir.join("bad.record");
    std::fs::write(&bad, "[Game \"tablut\"]\n\n1. d1-d2\n2. d1-d2\n").unwrap();
    let err = failed(&caber(&["review", path(&bad), "--depth", "1"]));
    assert!(
        err.starts_with("error: record: move 2 (\"d1-d2\"): illegal move"),
        "{err}"
    );
    std::fs::write(&bad, "[Game \"chess\"]\n").unwrap();
    let err = failed(&caber(&["review", path(&bad)]));
    assert!(err.contains("unknown game \"chess\""), "{err}");
}

fn shipped(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(file)
}

#[test]
fn puzzle_solve_agrees_with_a_shipped_set_and_names_disagreements() {
    let text = ok(&caber(&["puzzle", "solve", path(&shipped("tartan.jsonl"))]));
    assert!(text.starts_with("solved 30 of 30 in "), "{text}");
    // A puzzle whose solution is not the winning move.
    let dir = temp("solve");
    let wrong = dir.join("wrong.jsonl");
    std::fs::write(
        &wrong,
        "{\"id\":\"w\",\"game\":\"tartan\",\"variant\":\"standard\",\
         \"position\":\"play C4=r4,G7=b1 D4,I9 0,0 0 r -\",\"goal\":\"win in 1\",\
         \"solution\":[\"B:D4-D5\"],\"rating\":700,\"tags\":[]}\n",
    )
    .unwrap();
    let out = caber(&["puzzle", "solve", path(&wrong)]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("w: winning first moves [\"B:D4-C4\"], the file says [\"B:D4-D5\"]"),
        "{stdout}"
    );
    assert!(stdout.contains("solved 0 of 1"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the engine disagrees with 1 puzzle"));
    let err = failed(&caber(&["puzzle", "solve", path(&dir.join("none.jsonl"))]));
    assert!(err.contains("cannot read the puzzle file"), "{err}");
}

/// Two puzzles driven through standard input: a wrong move, a hint, the
/// solution; then a move that is no move, an undo, and the win in two.
#[test]
fn puzzle_play_reads_moves_hints_and_undo_from_standard_input() {
    let dir = temp("play-puzzles");
    let file = dir.join("two.jsonl");
    std::fs::write(
        &file,
        "{\"id\":\"one\",\"game\":\"tartan\",\"variant\":\"standard\",\
         \"position\":\"play C4=r4,G7=b1 D4,I9 0,0 0 r -\",\"goal\":\"win in 1\",\
         \"solution\":[\"B:D4-C4\"],\"rating\":700,\"tags\":[\"win-in-1\"]}\n\
         {\"id\":\"two\",\"game\":\"tartan\",\"variant\":\"standard\",\
         \"position\":\"play E1=b1,F2=r1,E4=r2,G4=r2,A5=b1,C5=r1,I5=r1,B6=b1,D7=r1,D8=b1,F9=b1,I9=r1 \
         E5,E6 0,1 3 r 55f372596ca1fd02,a6d8c3b103c2438d,acdd04e70b0c5f19\",\"goal\":\"win in 2\",\
         \"solution\":[\"G4-E4\",\"E1-D1\",\"B:E5-E4\"],\"rating\":1341,\"tags\":[]}\n",
    )
    .unwrap();
    let out = caber_with_input(
        &["puzzle", "play", path(&file)],
        "B:D4-D5\nhint\nB:D4-C4\nZZ\nG4-E4\nundo\nG4-E4\nB:E5-E4\n",
    );
    let text = ok(&out);
    for expected in [
        // No theme before it is over: it would give the answer away.
        "puzzle 1 of 2: one (rating 700, win in 1)\n",
        "your move> B:D4-D5 is not the solution: try again",
        "your move> hint: the Bishop on D4",
        "your move> B:D4-C4: correct",
        "game over: red won (coronation)\nsolved!\nthemes: win-in-1\n",
        "move.text: bad move notation: \"ZZ\" is not a cell of the Tartan board: try again",
        "the opponent plays E1-D1",
        "score: 1 solved first try, 1 solved with help, 0 failed (2 played of 2)",
    ] {
        assert!(text.contains(expected), "{expected:?} missing in\n{text}");
    }
    assert_eq!(text.matches("solved!").count(), 2);
    // Chosen by id, theme or rating; none matching is an error.
    let only = ok(&caber_with_input(
        &[
            "puzzle",
            "play",
            path(&file),
            "--theme",
            "win-in-1",
            "--max-rating",
            "900",
        ],
        "solution\n",
    ));
    assert!(only.contains("puzzle 1 of 1: one "), "{only}");
    assert!(
        only.contains("score: 0 solved first try, 0 solved with help, 1 failed (1 played of 1)"),
        "{only}"
    );
    let by_id = ok(&caber_with_input(
        &["puzzle", "play", path(&file), "--id", "two"],
        "quit\n",
    ));
    assert!(by_id.contains("puzzle 1 of 1: two "), "{by_id}");
    let err = failed(&caber(&[
        "puzzle",
        "play",
        path(&file),
        "--min-rating",
        "3000",
    ]));
    assert!(err.contains("matches the selection"), "{err}");
}

#[test]
fn puzzle_generate_mines_games_for_unique_wins() {
    let dir = temp("generate");
    let out = dir.join("p.jsonl");
    let text = ok(&caber(&[
        "--game",
        "tablut",
        "--variant",
        "ashton",
        "puzzle",
        "generate",
        "--count",
        "3",
        "--out",
        path(&out),
    ]));
    assert!(text.starts_with("3 puzzles written to "), "{text}");
    let lines = std::fs::read_to_string(&out).unwrap();
    let puzzles: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(puzzles.len(), 3);
    for p in &puzzles {
        assert_eq!(
            (p["game"].as_str(), p["variant"].as_str()),
            (Some("tablut"), Some("ashton"))
        );
        let n: usize = p["goal"].as_str().unwrap()[7..].parse().unwrap();
        assert_eq!(p["solution"].as_array().unwrap().len(), 2 * n - 1);
        assert!(p["tags"][0].as_str().unwrap().starts_with("win-in-"));
    }
    // The engine agrees with what it wrote.
    let solved = ok(&caber(&["puzzle", "solve", path(&out)]));
    assert!(solved.starts_with("solved 3 of 3"), "{solved}");
    // Fewer than asked: how many, and why.
    let few = caber(&[
        "--game",
        "tablut",
        "--variant",
        "ashton",
        "puzzle",
        "generate",
        "--count",
        "50",
        "--games",
        "1",
        "--out",
        path(&out),
    ]);
    let said = String::from_utf8_lossy(&few.stderr);
    assert!(few.status.success(), "{said}");
    assert!(
        said.contains(" of the 50 asked for: --games 1 played out (raise it)"),
        "{said}"
    );
    // From a record without a puzzle in it: nothing useful, exit 2.
    let record = dir.join("short.record");
    std::fs::write(&record, "[Game \"tablut\"]\n\n1. d1-d2\n").unwrap();
    let err = failed(&caber(&["puzzle", "generate", "--from", path(&record)]));
    assert!(err.starts_with("error: no puzzle found in 1 game"), "{err}");
}

/// The SVG of every game's start, parsed as XML, with the pieces, stacks or
/// cards of the position.
#[test]
fn render_draws_every_game_as_svg() {
    let dir = temp("render");
    for (game, moves, class, count) in [
        ("tablut", "d1-d2", "piece black", 16),
        ("almatafl", "", "piece king", 1),
        ("tartan", "C4", "stack red h1", 1),
        ("schotten-totten", "", "card hand first", 6),
    ] {
        let file = dir.join(format!("{game}.svg"));
        let text = ok(&caber(&[
            "--game",
            game,
            "--moves",
            moves,
            "render",
            "--svg",
            path(&file),
        ]));
        assert!(
            text.starts_with(&format!("{} written (", file.display())),
            "{text}"
        );
        let svg = std::fs::read_to_string(&file).unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(doc.root_element().attribute("viewBox").is_some());
        let found = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with(class)))
            .count();
        assert_eq!(found, count, "{game}: {class}");
        let marked = doc.descendants().any(|n| {
            n.attribute("class")
                .is_some_and(|c| c.contains("last-move"))
        });
        assert_eq!(marked, !moves.is_empty(), "{game}");
    }
    let err = failed(&caber(&[
        "render",
        "--svg",
        path(&dir.join("x.svg")),
        "--last",
        "z9",
    ]));
    assert!(err.contains("last_move: bad move notation"), "{err}");
}

/// A game against the engine through standard input: a bad move, the
/// legal moves, a move, undo, a move, resignation; the record is saved and
/// reads back.
#[test]
fn play_takes_moves_from_standard_input_and_saves_the_record() {
    let dir = temp("play");
    let record = dir.join("game.record");
    let out = caber_with_input(
        &["play", "--depth", "1", "--record", path(&record)],
        "e4-e9\nmoves\nd1-d2\nundo\na4-a3\nhistory\neval\nresign\n",
    );
    let text = ok(&out);
    assert!(
        text.contains("move: illegal move: e4-e9 is not a legal move here: try again"),
        "{text}"
    );
    assert!(text.contains("a4-a3 a4-a2 a4-a1"), "{text}");
    assert_eq!(text.matches("caber plays ").count(), 2, "{text}");
    // The move list, the last move under the diagram, the evaluation.
    let reply = text
        .split("caber plays ")
        .last()
        .unwrap()
        .lines()
        .next()
        .unwrap();
    assert!(text.contains(&format!("last move: {reply}")), "{text}");
    assert!(text.contains(&format!("1. a4-a3 2. {reply}\n")), "{text}");
    assert!(text.contains("evaluation for you: "), "{text}");
    assert!(
        text.contains(&format!(
            "your move> black resigns: white wins\nrecord saved to {}\n",
            record.display()
        )),
        "{text}"
    );
    let saved = GameRecord::parse(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(saved.game(), "tablut");
    assert!(
        text.starts_with("you play black\n"),
        "the side to move: {text}"
    );
    assert_eq!(saved.tag("Black"), Some("you"));
    assert_eq!(saved.tag("White"), Some("caber default searcher depth 1"));
    // Black resigned: white won, 1-0 as any PGN tool reads it.
    assert_eq!(saved.tag("Format"), Some("2"));
    assert_eq!(saved.tag("Result"), Some("1-0"));
    assert_eq!(saved.tag("Reason"), Some("resigned"));
    let moves: Vec<&str> = saved.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves.len(), 2, "a4-a3 and the engine's reply: {moves:?}");
    assert_eq!(moves[0], "a4-a3");
    // The record is a valid game: the review replays it, naming who played.
    let review = ok(&caber(&["review", path(&record), "--depth", "1", "--json"]));
    // One `ReviewUpdate` a line, the summary last.
    let summary: serde_json::Value =
        serde_json::from_str(review.trim().lines().last().unwrap()).unwrap();
    assert_eq!(summary["final"], true, "{summary}");
    assert_eq!(summary["players"][0]["player"], "you", "{summary}");
    assert_eq!(summary["players"][0]["sideName"], "black", "{summary}");
    // The game ended by resignation, which the moves do not show: the
    // text report says so from the record's tags.
    let text = ok(&caber(&["review", path(&record), "--depth", "1"]));
    assert!(text.contains("white won (resigned)"), "{text}");
    // In ashton white starts: `--side black` lets the engine (white) move
    // first; sides are named as the game names them, never "first".
    let ashton = dir.join("ashton.record");
    let out = caber_with_input(
        &[
            "--variant",
            "ashton",
            "play",
            "--side",
            "Black",
            "--depth",
            "1",
            "--record",
            path(&ashton),
        ],
        "resign\n",
    );
    let text = ok(&out);
    assert!(text.starts_with("you play black\ncaber plays "), "{text}");
    let saved = GameRecord::parse(&std::fs::read_to_string(&ashton).unwrap()).unwrap();
    assert_eq!(saved.tag("White"), Some("caber default searcher depth 1"));
    assert_eq!((saved.moves.len(), saved.tag("Result")), (1, Some("1-0")));
    let out = caber(&["play", "--json"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("--json: `caber play` does not take it"),
        "{said}"
    );
    let err = failed(&caber(&["play", "--side", "first"]));
    assert!(
        err.contains("--side: \"first\" is not a side of this game (black or white)"),
        "{err}"
    );
    let err = failed(&caber(&["--game", "chess", "play"]));
    assert!(err.contains("unknown game \"chess\""), "{err}");
}

/// `quit`, `exit` and the end of the input leave the game, saved as
/// unfinished; a game played to its end says who won, its last diagram
/// saying no one is to move.
#[test]
fn play_leaves_on_quit_and_exit_and_says_who_won() {
    let dir = temp("play-quit");
    for (word, input) in [("quit", "quit\n"), ("exit", "exit\n"), ("eof", "")] {
        let record = dir.join(format!("{word}.record"));
        let text = ok(&caber_with_input(
            &["play", "--depth", "1", "--record", path(&record)],
            input,
        ));
        assert!(
            text.ends_with(&format!(
                "game left unfinished (*)\nrecord saved to {}\n",
                record.display()
            )),
            "{word}: {text}"
        );
        assert!(!text.contains("bad move notation"), "{word}: {text}");
        let saved = GameRecord::parse(&std::fs::read_to_string(&record).unwrap()).unwrap();
        assert_eq!(saved.tag("Result"), Some("*"), "{word}");
        assert_eq!(saved.tag("Reason"), Some("the game was left"), "{word}");
    }
    // White's king escapes on c1 (the only way out: b2 and c5 are black's).
    let record = dir.join("escape.record");
    let text = ok(&caber_with_input(
        &[
            "--position",
            "3bbb3/1bk1b4/9/b7b/bbb6/b7b/9/9/3bbb3 w -",
            "play",
            "--side",
            "white",
            "--depth",
            "1",
            "--record",
            path(&record),
        ],
        "c2-c1\n",
    ));
    let end = text.split("your move> ").last().unwrap();
    assert!(
        end.starts_with("  escape: the king escapes on c1\n"),
        "{end}"
    );
    assert!(!end.contains("to move"), "{end}");
    assert!(
        end.ends_with(&format!(
            " 9 o o o B B B o o o\ngame over: king escaped  (* throne, + camp, o escape)\nlast move: c2-c1\n\
             game over: white won (king escaped)\nrecord saved to {}\n",
            record.display()
        )),
        "{end}"
    );
    let saved = GameRecord::parse(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(saved.tag("Result"), Some("1-0"), "white won: 1-0");
}

/// In Schotten Totten the person is told the card they drew, never the
/// engine's.
#[test]
fn play_names_the_drawn_card_to_the_person_alone() {
    let dir = temp("play-drawn");
    let record = dir.join("game.record");
    let text = ok(&caber_with_input(
        &[
            "--game",
            "schotten-totten",
            "--seed",
            "1",
            "play",
            "--side",
            "first",
            "--nodes",
            "100",
            "--record",
            path(&record),
        ],
        "p:G3@1/d:clan\nquit\n",
    ));
    let drawn = text
        .split("  drawn-card: first draws ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("{text}"));
    let hand = text
        .lines()
        .rfind(|l| l.starts_with("first (viewer) hand: "))
        .unwrap();
    assert_eq!(
        (hand.split(' ').filter(|c| *c == drawn).count(), drawn.len()),
        (1, 2),
        "{text}"
    );
    assert!(
        text.contains("  draw-card: second draws from the clan deck\n"),
        "{text}"
    );
    assert!(!text.contains("drawn-card: second"), "{text}");
}

/// On a terminal (a pseudo-terminal made by `script`) a long command shows
/// a spinner; piped, it shows nothing but its results.
#[test]
fn progress_is_drawn_only_on_a_terminal() {
    let piped = caber(&["analyze", "--depth", "3"]);
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    let command = format!("{} perft --depth 4", env!("CARGO_BIN_EXE_caber"));
    let tty = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script runs");
    let shown = String::from_utf8_lossy(&tty.stdout);
    assert!(shown.contains("perft 4"), "{shown}");
    assert!(shown.contains("nodes 18540960"), "{shown}");
}

/// A person's lines from a pipe are read with a bound: a line of 100 KB is
/// said and ignored, bytes that are not UTF-8 make a bad move (not the end
/// of the game), and the game goes on to the resignation.
#[test]
fn play_reads_bounded_lines_of_any_bytes() {
    let dir = temp("play-bounded");
    let record = dir.join("game.record");
    let mut input = vec![b'x'; 100_000];
    input.extend_from_slice(b"\n\xff\xfe\nresign\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(["play", "--depth", "1", "--record", path(&record)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let text = ok(&out);
    assert!(
        text.contains(&format!(
            "a line of more than 65536 bytes, ignored: \"{}\"... (100000 bytes)",
            "x".repeat(64)
        )),
        "{text}"
    );
    assert!(
        text.contains("bad move notation: move \"\u{fffd}\u{fffd}\""),
        "{text}"
    );
    let saved = GameRecord::parse(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(saved.tag("Reason"), Some("resigned"), "{text}");
}

/// The sets ship inside the binary: `puzzle list` names them, and `puzzle
/// play` and `solve` find them by name, or by --game and --variant, from
/// any directory (as after `cargo install`).
#[test]
fn shipped_puzzles_are_listed_and_played_without_a_file() {
    let elsewhere = temp("shipped");
    let run = |args: &[&str], input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_caber"))
            .args(args)
            .current_dir(&elsewhere.0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let list = ok(&run(&["puzzle", "list"], ""));
    assert_eq!(list.lines().count(), 9, "{list}");
    assert!(
        list.lines()
            .any(|l| l.starts_with("tartan: tartan (standard), 30 puzzles rated ")),
        "{list}"
    );
    let listed: Value = serde_json::from_str(&ok(&run(&["puzzle", "list", "--json"], ""))).unwrap();
    let sets = listed["sets"].as_array().unwrap();
    assert_eq!(sets.len(), 9);
    assert_eq!(sets[0]["name"], "tablut-bga");
    assert_eq!(sets[0]["puzzles"], 30);
    assert!(sets[0]["themes"]["win-in-1"].as_u64().unwrap() > 0);
    let solved = ok(&run(&["puzzle", "solve", "tartan"], ""));
    assert!(solved.starts_with("solved 30 of 30 in "), "{solved}");
    // By the game: the default variant's set (Tablut: bga).
    let played = ok(&run(&["--game", "tablut", "puzzle", "play"], "quit\n"));
    assert!(
        played.starts_with("puzzle 1 of 30: tablut-bga-"),
        "{played}"
    );
    let played = ok(&run(
        &["--game", "tablut", "--variant", "ashton", "puzzle", "play"],
        "quit\n",
    ));
    assert!(
        played.starts_with("puzzle 1 of 30: tablut-ashton-"),
        "{played}"
    );
    let err = failed(&run(&["puzzle", "play", "nosuch"], ""));
    assert!(
        err.contains("\"nosuch\" is neither a shipped set (tablut-bga, "),
        "{err}"
    );
}
