//! The searchers find Tartan's wins, its defence and a bounce that captures.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::search::{alphabeta, mcts, Info, Limits, Score, Searchable, Searcher};

fn run(p: &Pos, depth: u32) -> Info<Move> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    alphabeta::AlphaBeta::new(alphabeta::DEFAULT_TT_MB, Evaluation::default()).search(
        p,
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

fn best(p: &Pos, depth: u32) -> (String, Score) {
    let info = run(p, depth);
    (
        p.move_to_text(info.best_move().expect("a move")),
        info.score().expect("a score"),
    )
}

#[test]
fn finds_a_coronation_in_one() {
    let p = pos("play C4=r4,G7=b1 D4,I9 0,0 0 r -");
    assert_eq!(best(&p, 1), ("B:D4-C4".to_string(), Score::Mate(1)));
}

/// Red unites its Hordes into a Cathedral on D4, next to its Bishop; blue's
/// Bishop is too far to block it: a coronation in two moves (three plies).
#[test]
fn finds_a_coronation_in_two() {
    let p = pos("play C4=r2,D4=r2,I9=b1 D3,I8 0,0 0 r -");
    assert_eq!(best(&p, 4), ("C4-D4".to_string(), Score::Mate(3)));
}

/// Blue's Bishop is next to blue's Cathedral: red's Bishop must take the
/// Cathedral's cell first (no capture takes a Cathedral).
#[test]
fn blocks_a_coronation_in_one() {
    let p = pos("play F6=b4,A1=r1 E6,G6 0,0 0 r -");
    let (mv, score) = best(&p, 3);
    assert_eq!(mv, "B:E6-F6");
    assert!(!matches!(score, Score::Mate(n) if n < 0), "{score:?}");
    // Any other move loses at once.
    let after = play(&p, "A1-B1");
    assert_eq!(best(&after, 1).1, Score::Mate(1));
}

/// Two red Families unite into a Horde on D4, which bounces over E4 onto
/// blue's Family on F4: the only capture, and the best move.
#[test]
fn uses_a_bounce_to_capture() {
    let p = pos("play C4=r1,D4=r1,F4=b1,I9=b1 A5,I6 0,0 0 r -");
    assert_eq!(best(&p, 2).0, "C4-D4-F4");
}

#[test]
fn every_listed_searcher_plays_a_legal_move() {
    let p = pos("play C4=r1,D4=r1,F4=b1,G8=b2 A5,I6 1,1 0 r -");
    let names: Vec<&str> = Pos::searchers().iter().map(|s| s.name).collect();
    assert_eq!(names, ["alphabeta", "mcts"]);
    let limits = Limits {
        nodes: Some(400),
        seed: 3,
        ..Limits::default()
    };
    for s in Pos::searchers() {
        let info = (s.build)(&[]).search(&p, &limits, &AtomicBool::new(false), &mut |_| {});
        let mv = info.best_move().expect("a move");
        assert!(legal(&p, &p.move_to_text(mv)), "{}", s.name);
    }
    // MCTS alone finds the coronation in one too.
    let win = pos("play C4=r4,G7=b1 D4,I9 0,0 0 r -");
    let info = mcts::Mcts::new(Evaluation::default()).search(
        &win,
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(win.move_to_text(info.best_move().unwrap()), "B:D4-C4");
}
