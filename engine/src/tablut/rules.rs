//! Playing a move (captures, king capture) and the end of the game.

use super::bits::{rows, NEIGHBOURS, NONE};
use super::cells::{cells, has, Cell, SIZE};
use super::setup::{BLACK_START, WHITE_START};
use super::variant::{ClearLine, KingCapture, THRONE};
use super::{Move, Piece, Tablut};
use crate::game::{Event, Outcome, Player};

/// Outcome reasons.
pub(crate) const KING_CAPTURED: &str = "king captured";
pub(crate) const KING_ESCAPED: &str = "king escaped";
pub(crate) const TUICHI: &str = "tuichi";
pub(crate) const TWO_PASSES: &str = "two passes in a row";
pub(crate) const REPETITION: &str = "repetition";
pub(crate) const NO_MOVES: &str = "no legal move";

const START_BLACK: [u16; SIZE] = rows(cells(&BLACK_START));
const START_WHITE: [u16; SIZE] = rows(cells(&WHITE_START));

/// Plays a move produced by the generator (or a pass) and returns the new position.
pub(crate) fn apply(pos: &Tablut, mv: Move) -> Tablut {
    let mut next = *pos;
    next.side = pos.side.opponent();
    next.hash ^= super::zobrist::WHITE_TO_MOVE;
    match mv {
        Move::Pass => next.passes = pos.passes.saturating_add(1),
        Move::Step { from, to } => {
            next.passes = 0;
            let (from, to) = (from.index(), to.index());
            // The generator's moves start on a piece of the side to move.
            let piece = match pos.side {
                Player::One => Piece::Black,
                Player::Two if usize::from(pos.king) == from => Piece::King,
                Player::Two => Piece::White,
            };
            debug_assert_eq!(pos.at(from), Some(piece));
            next.relocate(from, to, piece);
            // Most moves land next to nothing they could take.
            if prey_next_to(pos, to) {
                capture(&mut next, to, piece);
            }
        }
    }
    next
}

/// Whether `pos` is recorded in the repetition history when a move is played
/// from it: always, except Ashton's start position (the standard start board
/// with the first player to move and nothing recorded yet).
pub(crate) fn recorded(pos: &Tablut, history_empty: bool) -> bool {
    let rules = pos.variant.rules();
    rules.start_counts
        || !(history_empty
            && pos.side == rules.first
            && pos.black == START_BLACK
            && pos.white == START_WHITE
            && usize::from(pos.king) == THRONE)
}

/// Whether a piece the side to move could capture stands next to cell `to`:
/// a quick test that a move there captures nothing when it fails.
pub(crate) fn prey_next_to(pos: &Tablut, to: usize) -> bool {
    let prey = |r: usize| match pos.side {
        Player::One => pos.white[r] | pos.king_in_row(r),
        Player::Two => pos.black[r],
    };
    let (r, c) = (to / SIZE, to % SIZE);
    let beside = prey(r) & ((1 << c) >> 1 | (1 << c) << 1);
    let above = r > 0 && prey(r - 1) >> c & 1 == 1;
    let below = r + 1 < SIZE && prey(r + 1) >> c & 1 == 1;
    beside != 0 || above || below
}

/// Captures made by `piece` arriving on `to`.
#[inline]
fn capture(pos: &mut Tablut, to: usize, piece: Piece) {
    let rules = pos.variant.rules();
    for (d, &n) in NEIGHBOURS[to].iter().enumerate() {
        if n == NONE {
            continue;
        }
        let n = usize::from(n);
        let far = NEIGHBOURS[n][d];
        let taken = match piece {
            Piece::Black if pos.is_white(n) => {
                far != NONE && {
                    let f = usize::from(far);
                    pos.is_black(f) || has(rules.hostile_to_white, f)
                }
            }
            Piece::Black if usize::from(pos.king) == n => king_captured(pos, n, d),
            Piece::White if pos.is_black(n) => anvil_against_black(pos, far),
            Piece::King if rules.king_armed && pos.is_black(n) => anvil_against_black(pos, far),
            _ => false,
        };
        if taken {
            pos.take(n);
        }
    }
}

/// Whether cell `far` (or [`NONE`]) closes the capture of a black soldier.
fn anvil_against_black(pos: &Tablut, far: u8) -> bool {
    if far == NONE {
        return false;
    }
    let rules = pos.variant.rules();
    let f = usize::from(far);
    pos.is_white(f) || has(rules.hostile_to_black, f) || (rules.king_armed && pos.king == far)
}

/// Whether the king on `king` is captured by the black piece that just
/// arrived next to him, coming from direction `d` (the king is its neighbour
/// in direction `d`).
fn king_captured(pos: &Tablut, king: usize, d: usize) -> bool {
    let black = |n: u8| n != NONE && pos.is_black(usize::from(n));
    let neighbours = NEIGHBOURS[king];
    match pos.variant.rules().king_capture {
        KingCapture::Surround { special } => neighbours
            .iter()
            .all(|&n| n == NONE || black(n) || has(special, usize::from(n))),
        KingCapture::ThroneOrCustodial { anvils } => {
            let throne = |n: u8| usize::from(n) == THRONE;
            if king == THRONE || neighbours.iter().any(|&n| throne(n)) {
                neighbours.iter().all(|&n| black(n) || throne(n))
            } else {
                let o = neighbours[d];
                black(o) || (o != NONE && has(anvils, usize::from(o)))
            }
        }
    }
}

/// The number of clear lines of the king for Tuichi/Raichi (0 without Tuichi).
pub(crate) fn clear_lines(pos: &Tablut) -> u32 {
    let rules = pos.variant.rules();
    let (Some(kind), Some(k)) = (rules.tuichi, pos.king_index()) else {
        return 0;
    };
    let (r, c) = (k / SIZE, k % SIZE);
    let blocks = &rules.masks.clear_line_blocks;
    let row = pos.row(r) | blocks.rows[r];
    let col = pos.column(c) | blocks.cols[c];
    // Whether the places of a line before `p` (or after it) are all free.
    let before = |l: u16, p: usize| p > 0 && l & ((1 << p) - 1) == 0;
    let after = |l: u16, p: usize| p + 1 < SIZE && l >> (p + 1) == 0;
    let (vertical, horizontal) = match kind {
        ClearLine::ToEdge => (true, true),
        // Only along the edge the king stands on.
        ClearLine::EdgeToCorner => (c == 0 || c == SIZE - 1, r == 0 || r == SIZE - 1),
    };
    let mut lines = 0;
    if vertical {
        lines += u32::from(before(col, r)) + u32::from(after(col, r));
    }
    if horizontal {
        lines += u32::from(before(row, c)) + u32::from(after(row, c));
    }
    lines
}

/// The end of the game by the position alone (not by repetition or by a lack of moves).
#[inline]
pub(crate) fn decided(pos: &Tablut) -> Option<Outcome> {
    let rules = pos.variant.rules();
    let Some(k) = pos.king_index() else {
        return Some(Outcome::win(Player::One, KING_CAPTURED));
    };
    if has(rules.escapes, k) {
        return Some(Outcome::win(Player::Two, KING_ESCAPED));
    }
    if rules.tuichi.is_some() && clear_lines(pos) >= 2 {
        return Some(Outcome::win(Player::Two, TUICHI));
    }
    if pos.passes >= 2 {
        return Some(Outcome::draw(TWO_PASSES));
    }
    None
}

/// What a legal move did, for reporting; `outcome` is the end it led to, if any.
pub(crate) fn events(
    before: &Tablut,
    mv: &Move,
    after: &Tablut,
    outcome: Option<&Outcome>,
) -> Vec<Event> {
    let mut events = Vec::new();
    let mover = if before.side == Player::One {
        "black"
    } else {
        "white"
    };
    match *mv {
        Move::Pass => events.push(Event {
            kind: "pass",
            cells: Vec::new(),
            text: format!("{mover} has no legal move and passes"),
        }),
        Move::Step { from, .. } => {
            let taken: Vec<String> = Cell::all()
                .filter(|&c| {
                    c != from
                        && matches!(before.at(c.index()), Some(Piece::Black | Piece::White))
                        && after.at(c.index()).is_none()
                })
                .map(|c| c.name())
                .collect();
            if !taken.is_empty() {
                events.push(Event {
                    kind: "capture",
                    text: format!("{mover} captures {}", taken.join(", ")),
                    cells: taken,
                });
            }
        }
    }
    let king_before = before.king();
    let king_after = after.king();
    if let (Some(k), None) = (king_before, king_after) {
        events.push(Event {
            kind: "king-captured",
            cells: vec![k.name()],
            text: format!("the king is captured on {k}"),
        });
    }
    if let Some(k) = king_after {
        match outcome.map(|o| o.reason) {
            Some(KING_ESCAPED) => events.push(Event {
                kind: "escape",
                cells: vec![k.name()],
                text: format!("the king escapes on {k}"),
            }),
            Some(TUICHI) => events.push(Event {
                kind: "tuichi",
                cells: vec![k.name()],
                text: format!(
                    "Tuichi: the king on {k} has {} clear lines, white wins",
                    clear_lines(after)
                ),
            }),
            _ => {}
        }
        if outcome.is_none() && after.variant.rules().tuichi.is_some() && clear_lines(after) == 1 {
            events.push(Event {
                kind: "raichi",
                cells: vec![k.name()],
                text: format!("Raichi: the king on {k} has a clear line"),
            });
        }
    }
    match outcome.map(|o| (o.reason, o.result)) {
        Some((REPETITION, _)) => events.push(Event {
            kind: "repetition",
            cells: Vec::new(),
            text: "the position repeats: draw".to_string(),
        }),
        Some((TWO_PASSES, _)) => events.push(Event {
            kind: "no-moves",
            cells: Vec::new(),
            text: "two passes in a row: draw".to_string(),
        }),
        Some((NO_MOVES, _)) => events.push(Event {
            kind: "no-moves",
            cells: Vec::new(),
            text: format!(
                "{} has no legal move and loses",
                if after.side == Player::One {
                    "black"
                } else {
                    "white"
                }
            ),
        }),
        _ => {}
    }
    events
}
