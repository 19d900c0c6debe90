//! A terminal drawing of the star, rows offset so that hex neighbours touch.

use super::board::{geometry, ROWS};
use super::stack::{height, top, DEFENDER, INVADER};
use super::{AlmaTafl, Cell};
use crate::game::{Game, Outcome};

/// Draws the board: each cell as top piece and height (`i1`, `d2`, `K3`),
/// `..` empty, `<>` an empty escape spot, `##` the empty throne; row numbers
/// on the left, the row's first and last cell names on the right.
pub(crate) fn draw(pos: &AlmaTafl, outcome: Option<Outcome>) -> String {
    let geo = geometry();
    let mut out = String::new();
    // Cell (c, r) sits at half-cell offset 2c - r, which ranges over -3..=13.
    const WIDTH: usize = 17 * 2;
    for (r, &(first, len)) in ROWS.iter().enumerate() {
        let mut line = vec![b' '; WIDTH];
        for k in 0..len {
            let c = (first - b'A' + k) as usize;
            let cell = Cell::from_coords(c, r).expect("row table cells are on the board");
            let s = pos.board[cell.index()];
            let token = if s == 0 {
                if geo.escape[cell.index()] {
                    "<>".to_string()
                } else if cell.is_throne() {
                    "##".to_string()
                } else {
                    "..".to_string()
                }
            } else {
                let letter = match top(s) {
                    INVADER => 'i',
                    DEFENDER => 'd',
                    _ => 'K',
                };
                format!("{letter}{}", height(s))
            };
            let x = (2 * c + 3 - r) * 2;
            line[x..x + 2].copy_from_slice(token.as_bytes());
        }
        let last = (first + len - 1) as char;
        out.push_str(&format!(
            "{:>2}  {}  {}{}-{}{}\n",
            r + 1,
            String::from_utf8_lossy(&line),
            first as char,
            r + 1,
            last,
            r + 1
        ));
    }
    out.push_str("i invader, d defender, K King + stack height; <> escape, ## throne\n");
    match outcome {
        Some(o) => out.push_str(&format!("game over: {}", o.reason)),
        None => out.push_str(&format!("{} to move", AlmaTafl::player_name(pos.side))),
    }
    out.push('\n');
    out
}
