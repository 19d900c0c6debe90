//! A terminal drawing of the hex board, rows offset so that neighbours touch.

use super::board::NONE;
use super::{Cell, Phase, Tartan};
use crate::game::{Game, Outcome, Player};

/// Draws the board. Each cell is three characters: a stack as its owner (`r`
/// red, `b` blue) and height (1 Family, 2 Horde, 3 Army, 4 Cathedral), `..`
/// an empty cell, `~~` a Loch, then `R` or `B` when red's or blue's Bishop
/// stands there (on a unit: blessing it), `*` for both (the central Loch).
/// Row numbers on the left, the row's first and last cell on the right.
pub(crate) fn draw(pos: &Tartan, outcome: Option<Outcome>) -> String {
    let geo = pos.variant.geometry();
    let mut out = String::new();
    // Cell (c, r) sits at half-cell offset 2c - r, shifted to start at 0.
    let shift = geo
        .coords
        .iter()
        .map(|&(c, r)| r as i32 - 2 * c as i32)
        .max()
        .unwrap_or(0);
    let x_of = |c: usize, r: usize| ((2 * c as i32 - r as i32 + shift) * 2) as usize;
    let width = geo
        .coords
        .iter()
        .map(|&(c, r)| x_of(c as usize, r as usize))
        .max()
        .unwrap_or(0)
        + 3;
    for (r, row) in geo.index.iter().enumerate() {
        let mut line = vec![b' '; width];
        let mut first = None;
        let mut last = None;
        for (c, &cell) in row.iter().enumerate() {
            if cell == NONE {
                continue;
            }
            first.get_or_insert(cell);
            last = Some(cell);
            let i = cell as usize;
            let base = match pos.stack(Cell(cell)) {
                Some((owner, h)) => {
                    let o = if owner == Player::One { 'r' } else { 'b' };
                    format!("{o}{h}")
                }
                None if geo.lochs & (1 << i) != 0 => "~~".to_string(),
                None => "..".to_string(),
            };
            let mark = match (pos.bishops[0] == cell, pos.bishops[1] == cell) {
                (true, true) => '*',
                (true, false) => 'R',
                (false, true) => 'B',
                (false, false) => ' ',
            };
            let x = x_of(c, r);
            line[x..x + 2].copy_from_slice(base.as_bytes());
            line[x + 2] = mark as u8;
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let (Some(a), Some(b)) = (first, last) else {
            continue;
        };
        out.push_str(&format!(
            "{:>2}  {text:<w$}  {}-{}\n",
            r + 1,
            Cell(a),
            Cell(b),
            w = width
        ));
    }
    out.push_str(
        "r/b red/blue + height (1 Family, 2 Horde, 3 Army, 4 Cathedral); ~~ Loch; \
         R/B a Bishop (on a unit: blessed)\n",
    );
    // Whose turn it is, or once the game is decided how it ended.
    let side = Tartan::player_name(pos.side);
    let turn = match (outcome, pos.phase) {
        (Some(o), _) => format!("game over: {}", o.reason),
        (None, Phase::Placement) => format!("{side} to place"),
        (None, Phase::Play) => format!("{side} to move"),
    };
    match pos.phase {
        Phase::Placement => out.push_str(&format!(
            "placement: red {} and blue {} tokens to place; {turn}",
            pos.tokens[0], pos.tokens[1]
        )),
        Phase::Play => out.push_str(&format!(
            "reserves: red {}, blue {}; {} quiet turns; {turn}",
            pos.tokens[0], pos.tokens[1], pos.counter
        )),
    }
    out.push('\n');
    out
}
