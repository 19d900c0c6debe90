//! The searcher finds AlmaTafl's wins and defences at small depths.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::eval::Evaluator;
use crate::search::{
    alphabeta::{AlphaBeta, DEFAULT_TT_MB},
    Info, Limits, Score,
};

fn run(p: &Pos, depth: u32) -> Info<Move> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    AlphaBeta::new(DEFAULT_TT_MB, Evaluation::default()).search(
        p,
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

fn escapes(p: &Pos) -> bool {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    v.iter()
        .any(|m| p.play_unchecked(m).outcome().map(|o| o.reason) == Some("king escaped"))
}

#[test]
fn finds_a_king_escape_in_one() {
    let p = pos("G3=k,C7=d,D8=d,J10=i d");
    let info = run(&p, 1);
    assert_eq!(info.score(), Some(Score::Mate(1)));
    assert_eq!(p.move_to_text(info.best_move().unwrap()), "G3-H3");
}

#[test]
fn finds_a_king_escape_in_two() {
    // From F3 no escape spot is one step away; from G3 (H3) or E2 (D1) one
    // is, and the invaders far away on I10 and J10 cannot reach the King.
    let p = pos("F3=k,E5=d,D8=d,I10=i,J10=i d");
    assert!(!escapes(&p));
    let info = run(&p, 3);
    assert_eq!(info.score(), Some(Score::Mate(3)));
    // The invaders facing an escape in one may not stand pat at the horizon,
    // so depth 1 already sees it.
    assert_eq!(run(&p, 1).score(), Some(Score::Mate(3)));
    let after = p.play_unchecked(info.best_move().unwrap());
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    assert!(!replies.is_empty());
    for r in &replies {
        assert!(escapes(&after.play_unchecked(r)), "{r:?} stops the escape");
    }
}

#[test]
fn finds_an_invader_burying_the_king_in_one() {
    let p = pos("D4=i,E5=k,B6=d,J8=d,J10=i i");
    let info = run(&p, 1);
    assert_eq!(info.score(), Some(Score::Mate(1)));
    assert_eq!(p.move_to_text(info.best_move().unwrap()), "D4-E5");
}

#[test]
fn prevents_a_king_escape_in_one() {
    // The King on F4 threatens F4-G4-D1 (a bounce on the two invaders of G4
    // sends him three cells); moving G4's top invader away still leaves
    // F4-G4-I4. Only filling G4 up to height 3 (H4-G4) stops both.
    let p = pos("F4=k,G4=ii,H4=i,C7=d,D8=d i");
    let info = run(&p, 2);
    let best = info.best_move().unwrap();
    assert_eq!(p.move_to_text(best), "H4-G4");
    assert!(!matches!(info.score(), Some(Score::Mate(_))));
    assert!(!escapes(&p.play_unchecked(best)));
}

/// The winning moves are hinted (an escape above a burial), and only the
/// invaders facing an escape in one must answer it.
#[test]
fn winning_moves_are_hinted_and_an_escape_threat_must_be_answered() {
    let threat = pos("F4=k,G4=ii,H4=i,C7=d,D8=d i");
    assert!(Evaluation::default().must_answer(threat.position()));
    let defenders = pos("F4=k,G4=ii,H4=i,C7=d,D8=d d");
    assert!(!Evaluation::default().must_answer(defenders.position()));
    let hint =
        |p: &Pos, m: &str| Evaluation::default().move_hint(p.position(), &p.parse_move(m).unwrap());
    assert_eq!(hint(&defenders, "F4-G4-D1"), 1000);
    assert_eq!(hint(&defenders, "C7-C6"), 0);
    let bury = pos("D4=i,E5=k,B6=d,J8=d,J10=i i");
    assert_eq!(hint(&bury, "D4-E5"), 500);
    assert_eq!(hint(&bury, "J10-J9"), 0);
    assert!(!Evaluation::default().must_answer(bury.position()));
}
