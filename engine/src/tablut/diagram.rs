//! The terminal drawing of a position.

use std::fmt::Write;

use super::cells::{has, SIZE};
use super::variant::THRONE;
use super::{Piece, Tablut};
use crate::game::{Outcome, Player};

/// See [`Played::diagram`](crate::Played): the board, then whose turn it is
/// (or, once `outcome` is decided, how the game ended) and the legend.
pub(crate) fn diagram(pos: &Tablut, outcome: Option<Outcome>) -> String {
    let rules = pos.variant.rules();
    let mut out = String::from("   a b c d e f g h i\n");
    for r in 0..SIZE {
        let _ = write!(out, "{:>2}", r + 1);
        for c in 0..SIZE {
            let i = r * SIZE + c;
            let ch = match pos.at(i) {
                Some(Piece::Black) => 'B',
                Some(Piece::White) => 'W',
                Some(Piece::King) => 'K',
                None if i == THRONE => '*',
                None if has(rules.camps, i) => '+',
                None if has(rules.escapes, i) => 'o',
                None => '.',
            };
            out.push(' ');
            out.push(ch);
        }
        out.push('\n');
    }
    let turn = match outcome {
        Some(over) => format!("game over: {}", over.reason),
        None if pos.side == Player::One => "black to move".to_string(),
        None => "white to move".to_string(),
    };
    let _ = writeln!(out, "{turn}  (* throne, + camp, o escape)");
    out
}
