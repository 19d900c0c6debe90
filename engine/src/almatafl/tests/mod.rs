//! Tests of AlmaTafl, with positions and expectations worked out by hand,
//! and a cross-check against the slow reference formulation.

mod crosscheck;
mod notation;
mod rules;
mod search;

use super::*;

/// Reads a position, panicking with the problems if it is invalid.
fn pos(text: &str) -> AlmaTafl {
    AlmaTafl::from_notation(Variant::Standard, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves as sorted text.
fn moves(p: &AlmaTafl) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|m| p.move_to_text(m)).collect();
    t.sort();
    t
}

/// The legal moves starting on `cell`, as sorted text.
fn moves_from(p: &AlmaTafl, cell: &str) -> Vec<String> {
    moves(p)
        .into_iter()
        .filter(|m| m.split('-').next() == Some(cell))
        .collect()
}

/// Plays a text move, panicking if it is refused.
fn play(p: &AlmaTafl, mv: &str) -> AlmaTafl {
    let m = p.parse_move(mv).expect("well-formed move");
    p.clone()
        .play(&m)
        .unwrap_or_else(|e| panic!("{mv} refused: {}", e.error))
}

/// The refusal message of a text move that must be illegal.
fn refused(p: &AlmaTafl, mv: &str) -> String {
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
