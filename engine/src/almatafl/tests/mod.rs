//! Tests of AlmaTafl, with positions and expectations worked out by hand,
//! and a cross-check against the slow reference formulation.

mod crosscheck;
mod notation;
mod rules;
mod search;
mod svg;

use super::*;

/// Reads a position, panicking with the problems if it is invalid.
fn pos(text: &str) -> Pos {
    Pos::from_notation(Variant::Standard, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves as sorted text.
fn moves(p: &Pos) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|m| p.move_to_text(m)).collect();
    t.sort();
    t
}

/// The legal moves starting on `cell`, as sorted text.
fn moves_from(p: &Pos, cell: &str) -> Vec<String> {
    moves(p)
        .into_iter()
        .filter(|m| m.split('-').next() == Some(cell))
        .collect()
}

/// Plays a text move, panicking if it is refused.
fn play(p: &Pos, mv: &str) -> Pos {
    let m = p.parse_move(mv).expect("well-formed move");
    p.clone()
        .play(&m)
        .unwrap_or_else(|e| panic!("{mv} refused: {}", e.error))
}

/// The refusal message of a text move that must be illegal.
fn refused(p: &Pos, mv: &str) -> String {
    let m = p.parse_move(mv).expect("well-formed move");
    match p.clone().play(&m) {
        Ok(_) => panic!("{mv} was accepted"),
        Err(e) => e.error.to_string(),
    }
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut t: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    t.sort();
    t
}

/// A game of AlmaTafl in progress: what the tests build and play on.
type Pos = crate::Played<AlmaTafl>;

/// The events of move `m` from `p` to `after` (`after` played from `p`).
fn events(p: &Pos, m: &Move, after: &Pos) -> Vec<Event> {
    p.position().move_events(
        m,
        after.position(),
        after.outcome().as_ref(),
        after.repetitions(),
    )
}
