//! Tests of Tartan, with positions and expectations worked out by hand, and a
//! cross-check against the slow reference formulation.

mod crosscheck;
mod notation;
mod rules;
mod search;
mod svg;

use super::*;
use crate::Played;

/// A game of Tartan in progress: what the tests build and play on.
type Pos = Played<Tartan>;

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

/// The legal moves starting with `prefix` (e.g. a unit's cell and `-`), sorted.
fn moves_from(p: &Pos, prefix: &str) -> Vec<String> {
    moves(p)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

/// Plays a text move, panicking if it is refused.
fn play(p: &Pos, mv: &str) -> Pos {
    let m = p.parse_move(mv).expect("well-formed move");
    p.clone()
        .play(&m)
        .unwrap_or_else(|e| panic!("{mv} refused: {}\n{}", e.error, p.diagram()))
}

/// Whether a text move is legal.
fn legal(p: &Pos, mv: &str) -> bool {
    let m = p.parse_move(mv).expect("well-formed move");
    p.clone().play(&m).is_ok()
}

/// The event kinds of a legal move.
fn kinds(p: &Pos, mv: &str) -> Vec<&'static str> {
    let m = p.parse_move(mv).expect("well-formed move");
    let after = play(p, mv);
    p.position()
        .move_events(
            &m,
            after.position(),
            after.outcome().as_ref(),
            after.repetitions(),
        )
        .iter()
        .map(|e| e.kind)
        .collect()
}

/// The stack on a named cell.
fn at(p: &Pos, cell: &str) -> Option<(Player, u8)> {
    p.position().stack(Cell::parse(cell).unwrap())
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut t: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    t.sort();
    t
}

const RED: Player = Player::One;
const BLUE: Player = Player::Two;
