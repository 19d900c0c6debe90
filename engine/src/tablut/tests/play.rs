//! Tuichi/Raichi, repetition, stalemate and passes, validation, notation, diagram.

use super::rules::{kinds, legal, play, pos, ALL, B, W};
use super::Pos;
use crate::eval::Evaluator;
use crate::game::{Game, GameResult, Player};
use crate::tablut::{Cell, Evaluation, Move, Piece, Setup, Tablut, Variant};

fn result(p: &Pos) -> Option<(GameResult, &'static str)> {
    p.outcome().map(|o| (o.result, o.reason))
}

#[test]
fn tuichi_two_clear_lines_win_for_white() {
    // bga: the king on d4 has no clear line (camps end every line); on d3 both
    // d3-a3 and d3-i3 are clear.
    let p = pos(Variant::Bga, W, "g7 h9", "c8", "d4");
    assert_eq!(p.position().clear_lines(), 0);
    assert_eq!(kinds(&p, "d4-d3"), vec!["tuichi"]);
    let after = play(&p, "d4-d3");
    assert_eq!(after.position().clear_lines(), 2);
    assert_eq!(result(&after), Some((GameResult::Win(W), "tuichi")));
    // With h3 blocked: one clear line, Raichi only.
    let p = pos(Variant::Bga, W, "g7 h3", "c8", "d4");
    assert_eq!(kinds(&p, "d4-d3"), vec!["raichi"]);
    let after = play(&p, "d4-d3");
    assert_eq!(after.position().clear_lines(), 1);
    assert_eq!(after.outcome(), None);
    // (decision) a black move that opens the second line also gives Tuichi.
    assert_eq!(kinds(&after, "h3-h4"), vec!["tuichi"]);
    assert_eq!(
        result(&play(&after, "h3-h4")),
        Some((GameResult::Win(W), "tuichi"))
    );
}

#[test]
fn tuichi_in_bga_corners_runs_along_the_edge() {
    let p = pos(Variant::BgaCorners, W, "g7 h9", "c8", "c5");
    assert_eq!(kinds(&p, "c5-a5"), vec!["tuichi"]);
    let p = pos(Variant::BgaCorners, W, "a8 h9", "c8", "c5");
    assert_eq!(kinds(&p, "c5-a5"), vec!["raichi"]);
    // Two clear lines to the edge do not count in bga-corners.
    let p = pos(Variant::BgaCorners, W, "g7 h9", "c8", "d4");
    assert!(kinds(&p, "d4-d3").is_empty());
}

#[test]
fn no_tuichi_in_ashton_and_linnaeus() {
    for v in [Variant::Ashton, Variant::Linnaeus] {
        let p = pos(v, W, "g7 h9", "c8", "d4");
        assert!(kinds(&p, "d4-d3").is_empty(), "{v:?}");
        assert_eq!(play(&p, "d4-d3").outcome(), None);
    }
}

/// Shuffles a white soldier c8-c7-c8 and a black one g7-g8-g7 from a position
/// with the king on d4; returns the ply at which the game is drawn.
fn repetition_ply(v: Variant) -> usize {
    let first = if v == Variant::Ashton { W } else { B };
    let mut p = pos(v, first, "g7 h9", "c8", "d4");
    let cycle = if first == B {
        ["g7-g8", "c8-c7", "g8-g7", "c7-c8"]
    } else {
        ["c8-c7", "g7-g8", "c7-c8", "g8-g7"]
    };
    for ply in 1..=12 {
        let text = cycle[(ply - 1) % 4];
        let m = p.parse_move(text).unwrap();
        let after = play(&p, text);
        if let Some(o) = after.outcome() {
            assert_eq!((o.result, o.reason), (GameResult::Draw, "repetition"));
            let ev = super::events(&p, &m, &after);
            assert!(ev.iter().any(|e| e.kind == "repetition"));
            return ply;
        }
        p = after;
    }
    panic!("no repetition draw");
}

#[test]
fn repetition_draw_on_the_exact_occurrence() {
    // The position returns every 4 plies: third occurrence at ply 8, second at 4.
    assert_eq!(repetition_ply(Variant::Bga), 8);
    assert_eq!(repetition_ply(Variant::BgaCorners), 8);
    assert_eq!(repetition_ply(Variant::Linnaeus), 8);
    assert_eq!(repetition_ply(Variant::Ashton), 4);
}

#[test]
fn ashton_does_not_record_the_start_position() {
    let start = Pos::start(Variant::Ashton, 0);
    assert!(play(&start, "e3-d3").history().is_empty());
    let custom = pos(Variant::Ashton, W, "g7 h9", "c8", "d4");
    assert_eq!(play(&custom, "c8-c7").history(), &[custom.hash()]);
    let bga = Pos::start(Variant::Bga, 0);
    assert_eq!(play(&bga, "e2-d2").history(), &[bga.hash()]);
}

#[test]
fn a_side_without_moves_loses_in_bga_and_ashton() {
    for v in [Variant::Bga, Variant::Ashton] {
        let p = pos(v, W, "a1", "a2 c1", "d4");
        assert_eq!(kinds(&p, "c1-b1"), vec!["no-moves"], "{v:?}");
        let after = play(&p, "c1-b1");
        assert_eq!(result(&after), Some((GameResult::Win(W), "no legal move")));
        let mut moves = Vec::new();
        after.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }
    let p = pos(Variant::BgaCorners, W, "a2", "a3 c2", "d4");
    let after = play(&p, "c2-b2");
    assert_eq!(result(&after), Some((GameResult::Win(W), "no legal move")));
}

#[test]
fn linnaeus_passes_and_two_passes_draw() {
    let p = pos(Variant::Linnaeus, B, "a1", "a2 b1", "d4");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves, vec![Move::Pass]);
    assert_eq!(kinds(&p, "pass"), vec!["pass"]);
    let after = play(&p, "pass");
    assert_eq!(after.position().passes(), 1);
    assert_eq!(after.outcome(), None);
    assert!(!legal(&after, "pass"), "white has moves, so no pass");
    let after = play(&after, "d4-d3");
    assert_eq!(after.position().passes(), 0);
    // White passed just before (p1) and black is stuck again: two passes draw.
    let text = format!(
        "{} p1",
        pos(Variant::Linnaeus, B, "a1", "a2 b1", "d4")
            .to_notation()
            .trim_end_matches(" p0")
    );
    let p = Pos::from_notation(Variant::Linnaeus, &text).unwrap();
    assert_eq!(p.position().passes(), 1);
    let after = play(&p, "pass");
    assert_eq!(
        result(&after),
        Some((GameResult::Draw, "two passes in a row"))
    );
    assert_eq!(kinds(&p, "pass"), vec!["pass", "no-moves"]);
    assert!(Pos::start(Variant::Bga, 0).parse_move("pass").is_err());
}

#[test]
fn start_notation_per_variant() {
    let board = "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3";
    for (v, text) in [
        (Variant::Bga, format!("{board} b -")),
        (Variant::BgaCorners, format!("{board} b -")),
        (Variant::Ashton, format!("{board} w -")),
        (Variant::Linnaeus, format!("{board} b - p0")),
    ] {
        let start = Pos::start(v, 0);
        assert_eq!(start.to_notation(), text);
        assert_eq!(Pos::from_notation(v, &text), Ok(start.clone()));
        let after = play(
            &start,
            if v == Variant::Ashton {
                "e3-d3"
            } else {
                "e2-d2"
            },
        );
        let back = Pos::from_notation(v, &after.to_notation()).unwrap();
        assert_eq!(back, after);
    }
    let after = play(&Pos::start(Variant::Bga, 0), "e2-d2");
    assert_eq!(
        after.to_notation(),
        format!(
            "3bbb3/3b5/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 w {:016x}",
            Pos::start(Variant::Bga, 0).hash()
        )
    );
}

#[test]
fn notation_errors_name_the_problem() {
    let bad = |text: &str| {
        Pos::from_notation(Variant::Bga, text)
            .unwrap_err()
            .problems
            .join("; ")
    };
    assert!(bad("3bbb3/4b4 b -").contains("9 rows"));
    assert!(bad("3bbb3/4b4/4w4/b3w3b/bbwwkwwbx/b3w3b/4w4/4b4/3bbb3 b -").contains("'x'"));
    assert!(bad("3bbb3/4b4/4w4/b3w3b/bbwwkwwb/b3w3b/4w4/4b4/3bbb3 b -").contains("8 cells"));
    assert!(bad("3bbb3/4b4/4w4/b3w3b/bbwwkwwbbb/b3w3b/4w4/4b4/3bbb3 b -").contains("more than 9"));
    assert!(bad("9/9/9/9/4k4/9/9/9/9 x -").contains("side to move"));
    assert!(bad("9/9/9/9/4k4/9/9/9/9 b 12ab").contains("16 hex"));
    assert!(bad("9/9/9/9/4k4/9/9/9/9 b - p1").contains("only in linnaeus"));
    assert!(bad("9/9/9/9/4k4/9/9/9/9").contains("fields"));
    assert!(bad("").contains("fields"));
    let err = Pos::from_notation(Variant::Linnaeus, "9/9/9/9/4k4/9/9/9/9 b - p7").unwrap_err();
    assert!(err.problems[0].contains("p0, p1 or p2"));
}

#[test]
fn setup_lists_every_problem() {
    let cell = |n: &str| Cell::parse(n).unwrap();
    let mut pieces = vec![
        (cell("e5"), Piece::King),
        (cell("c3"), Piece::King),
        (cell("d1"), Piece::White),
        (cell("c1"), Piece::Black),
        (cell("c1"), Piece::White),
    ];
    // 16 more black soldiers: 17 in all.
    for name in [
        "a2", "a3", "a7", "a8", "b2", "b3", "b4", "b6", "b7", "b8", "c2", "c4", "c6", "c7", "c8",
        "c9",
    ] {
        pieces.push((cell(name), Piece::Black));
    }
    let setup = Setup {
        pieces,
        side_to_move: B,
        history: Vec::new(),
        passes: 1,
    };
    let err = Tablut::from_setup(Variant::Bga, &setup).unwrap_err();
    let all = err.problems.join("\n");
    for needle in [
        "2 kings",
        "17 black soldiers",
        "white soldier can never stand on the camp d1",
        "c1 holds more than one piece",
        "pass count",
    ] {
        assert!(all.contains(needle), "missing {needle:?} in\n{all}");
    }
    assert_eq!(err.problems.len(), 5);
    // Per-variant forbidden cells.
    let one = |v: Variant, pieces: Vec<(Cell, Piece)>, side: Player| {
        Tablut::from_setup(
            v,
            &Setup {
                pieces,
                side_to_move: side,
                history: Vec::new(),
                passes: 0,
            },
        )
    };
    let king = (cell("e5"), Piece::King);
    assert!(one(
        Variant::BgaCorners,
        vec![king, (cell("a1"), Piece::Black)],
        B
    )
    .is_err());
    assert!(one(Variant::Bga, vec![king, (cell("a1"), Piece::Black)], B).is_ok());
    assert!(one(
        Variant::Linnaeus,
        vec![(cell("d5"), Piece::King), (cell("e5"), Piece::White)],
        B
    )
    .is_err());
    assert!(one(Variant::Ashton, vec![(cell("a4"), Piece::King)], W).is_err());
    assert!(one(Variant::Linnaeus, vec![(cell("a4"), Piece::King)], W).is_ok());
    let nine: Vec<_> = ["a2", "a3", "b2", "b3", "c2", "c3", "c4", "c6", "c7"]
        .iter()
        .map(|n| (cell(n), Piece::White))
        .chain([king])
        .collect();
    assert!(one(Variant::Linnaeus, nine, B).unwrap_err().problems[0].contains("9 white"));
    // Finished positions are accepted and reported.
    let escaped = one(Variant::BgaCorners, vec![(cell("a1"), Piece::King)], B).unwrap();
    assert_eq!(result(&escaped), Some((GameResult::Win(W), "king escaped")));
    let captured = one(Variant::Bga, vec![(cell("a2"), Piece::Black)], W).unwrap();
    assert_eq!(
        result(&captured),
        Some((GameResult::Win(B), "king captured"))
    );
    assert!(one(Variant::Bga, vec![(cell("a2"), Piece::Black)], B).is_err());
}

#[test]
fn move_text() {
    let p = Pos::start(Variant::Bga, 0);
    let m = p.parse_move("E2-D2").unwrap();
    assert_eq!(
        m,
        Move::Step {
            from: Cell::parse("e2").unwrap(),
            to: Cell::parse("d2").unwrap()
        }
    );
    assert_eq!(p.move_to_text(&m), "e2-d2");
    let mut out = "moves: ".to_string();
    p.position().push_move_text(&m, &mut out);
    p.position().push_move_text(&Move::Pass, &mut out);
    assert_eq!(out, "moves: e2-d2pass");
    for (bad, why) in [
        ("e2d2", "joined by '-'"),
        ("e2-f3", "row or a column"),
        ("e2-e2", "same cell"),
        ("j2-e2", "column"),
        ("e0-e2", "row"),
        ("", "joined"),
        ("pass", "linnaeus"),
    ] {
        let err = p.parse_move(bad).unwrap_err();
        assert!(err.message.contains(why), "{bad}: {}", err.message);
    }
    let l = Pos::start(Variant::Linnaeus, 0);
    assert_eq!(l.parse_move("PASS"), Ok(Move::Pass));
    assert_eq!(l.move_to_text(&Move::Pass), "pass");
    assert!(!legal(&l, "pass"), "no pass while moves exist");
}

#[test]
fn diagram_marks_cells() {
    let d = Pos::start(Variant::Bga, 0).diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[0], "   a b c d e f g h i");
    assert_eq!(lines[1], " 1 o o o B B B o o o");
    assert_eq!(lines[2], " 2 o . . . B . . . o");
    assert_eq!(lines[5], " 5 B B W W K W W B B");
    assert!(lines[10].starts_with("black to move"));
    let p = pos(Variant::Bga, B, "h9", "", "d4");
    let lines: Vec<String> = p.diagram().lines().map(String::from).collect();
    assert_eq!(lines[5], " 5 + + . . * . . + +");
    let c = Pos::start(Variant::BgaCorners, 0).diagram();
    assert_eq!(c.lines().nth(1), Some(" 1 o . . B B B . . o"));
    // Once the king has escaped no one is to move: the line says so.
    let won = Pos::from_notation(
        Variant::Ashton,
        "3bbb3/4b4/2k6/b7b/bb5bb/b7b/9/4b4/3bbb3 w -",
    )
    .unwrap();
    let escape = won.parse_move("c3-c1").unwrap();
    let won = won.play(&escape).ok().unwrap();
    assert_eq!(
        won.diagram().lines().nth(10),
        Some("game over: king escaped  (* throne, + camp, o escape)")
    );
}

#[test]
fn variants_and_players() {
    let names: Vec<&str> = Tablut::variants().iter().map(|(_, n)| *n).collect();
    assert_eq!(names, ["bga", "bga-corners", "ashton", "linnaeus"]);
    assert_eq!(Tablut::NAME, "tablut");
    assert_eq!(Tablut::player_name(B), "black");
    assert_eq!(Tablut::player_name(W), "white");
    for v in ALL {
        let first = if v == Variant::Ashton { W } else { B };
        assert_eq!(Pos::start(v, 0).side_to_move(), first);
    }
}

#[test]
fn evaluation_follows_material_routes_and_pressure() {
    for v in ALL {
        // White to move in both; the only difference is where one black piece stands.
        let open = pos(v, W, "c8 g2 g7", "e3", "d6");
        let closed = pos(v, W, "c8 g2 d7", "e3", "d6");
        assert!(
            Evaluation::default().evaluate(closed.position())
                < Evaluation::default().evaluate(open.position()),
            "{v:?}: a black piece next to the king is bad for white"
        );
        // Material: one white soldier more is better for white, worse for black.
        let more = pos(v, W, "c8 g2 g7", "e3 f3", "d6");
        assert!(
            Evaluation::default().evaluate(more.position())
                > Evaluation::default().evaluate(open.position()),
            "{v:?}"
        );
        let black_view = pos(v, B, "c8 g2 g7", "e3 f3", "d6");
        assert!(
            Evaluation::default().evaluate(black_view.position()) < 0,
            "{v:?}: {}",
            Evaluation::default().evaluate(black_view.position())
        );
        assert_eq!(
            Evaluation::default().evaluate(black_view.position()),
            -Evaluation::default().evaluate(more.position())
        );
    }
    // bga: a clear line for the king (g4: g3 g2 g1) is worth more than none.
    let route = pos(Variant::Bga, W, "c8 b2 g7", "e3", "g4");
    let blocked = pos(Variant::Bga, W, "c8 g2 g7", "e3", "g4");
    assert_eq!(route.position().clear_lines(), 1);
    assert_eq!(blocked.position().clear_lines(), 0);
    assert!(
        Evaluation::default().evaluate(route.position())
            > Evaluation::default().evaluate(blocked.position()) + 100
    );
}

/// A repetition history is refused where the game would already have ended:
/// in `ashton` a position may not occur twice before (the second occurrence
/// draws), in `bga` not three times (the third does); the same rule that
/// ends games in play.
#[test]
fn a_history_past_the_repetition_rule_is_refused() {
    let board = "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b";
    let h = "0123456789abcdef";
    let read = |v: Variant, copies: usize| {
        let history = vec![h; copies].join(",");
        crate::Played::<Tablut>::from_notation(v, &format!("{board} {history}"))
    };
    assert!(read(Variant::Bga, 2).is_ok());
    let e = read(Variant::Bga, 3).unwrap_err();
    assert_eq!(
        e.problems,
        [format!(
            "position {h} occurs 3 times in the history; the game ends at the third"
        )]
    );
    assert!(read(Variant::Ashton, 1).is_ok());
    let e = read(Variant::Ashton, 2).unwrap_err();
    assert_eq!(
        e.problems,
        [format!(
            "position {h} occurs 2 times in the history; the game ends at the second"
        )]
    );
}
