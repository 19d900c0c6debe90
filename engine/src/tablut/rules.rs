//! Playing a move (captures, king capture) and the end of the game.

use std::sync::LazyLock;

use super::cells::{has, Cell, DIRS};
use super::setup::start_board;
use super::variant::{ClearLine, KingCapture, THRONE};
use super::{zobrist, Move, Piece, Tablut};
use crate::game::{Event, Outcome, Player};

static START_BOARD: LazyLock<[Option<Piece>; 81]> = LazyLock::new(start_board);

/// Outcome reasons.
pub(crate) const KING_CAPTURED: &str = "king captured";
pub(crate) const KING_ESCAPED: &str = "king escaped";
pub(crate) const TUICHI: &str = "tuichi";
pub(crate) const TWO_PASSES: &str = "two passes in a row";
pub(crate) const REPETITION: &str = "repetition";
pub(crate) const NO_MOVES: &str = "no legal move";

/// Plays a move produced by the generator (or a pass) and returns the new position.
pub(crate) fn apply(pos: &Tablut, mv: Move) -> Tablut {
    let mut next = pos.clone();
    next.side = pos.side.opponent();
    next.hash ^= zobrist::WHITE_TO_MOVE;
    match mv {
        Move::Pass => next.passes = pos.passes.saturating_add(1),
        Move::Step { from, to } => {
            next.passes = 0;
            if let Some(piece) = next.board[from.index()].take() {
                next.board[to.index()] = Some(piece);
                next.hash ^=
                    zobrist::piece(from.index(), piece) ^ zobrist::piece(to.index(), piece);
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
    rules.start_counts || !(history_empty && pos.side == rules.first && pos.board == *START_BOARD)
}

fn remove(pos: &mut Tablut, cell: Cell) {
    if let Some(p) = pos.board[cell.index()].take() {
        pos.hash ^= zobrist::piece(cell.index(), p);
        pos.count -= 1;
    }
}

/// Captures made by `piece` arriving on `to`.
fn capture(pos: &mut Tablut, to: Cell, piece: Piece) {
    let rules = pos.variant.rules();
    for (dc, dr) in DIRS {
        let Some(n) = to.step(dc, dr) else { continue };
        let far = n.step(dc, dr);
        let taken = match (piece, pos.board[n.index()]) {
            (Piece::Black, Some(Piece::White)) => far.is_some_and(|f| {
                pos.board[f.index()] == Some(Piece::Black) || has(rules.hostile_to_white, f.index())
            }),
            (Piece::White, Some(Piece::Black)) => anvil_against_black(pos, far),
            (Piece::King, Some(Piece::Black)) => rules.king_armed && anvil_against_black(pos, far),
            (Piece::Black, Some(Piece::King)) => king_captured(pos, n, to),
            _ => false,
        };
        if taken {
            remove(pos, n);
        }
    }
}

fn anvil_against_black(pos: &Tablut, far: Option<Cell>) -> bool {
    let rules = pos.variant.rules();
    far.is_some_and(|f| match pos.board[f.index()] {
        Some(Piece::White) => true,
        Some(Piece::King) if rules.king_armed => true,
        _ => has(rules.hostile_to_black, f.index()),
    })
}

/// Whether the king on `king` is captured by the black piece that just arrived on `mover`.
fn king_captured(pos: &Tablut, king: Cell, mover: Cell) -> bool {
    let black = |c: Cell| pos.board[c.index()] == Some(Piece::Black);
    match pos.variant.rules().king_capture {
        KingCapture::Surround { special } => DIRS.iter().all(|&(dc, dr)| {
            king.step(dc, dr)
                .is_none_or(|n| black(n) || has(special, n.index()))
        }),
        KingCapture::ThroneOrCustodial { anvils } => {
            let near_throne = king.index() == THRONE
                || DIRS
                    .iter()
                    .any(|&(dc, dr)| king.step(dc, dr).is_some_and(|n| n.index() == THRONE));
            if near_throne {
                DIRS.iter().all(|&(dc, dr)| {
                    king.step(dc, dr)
                        .is_some_and(|n| black(n) || n.index() == THRONE)
                })
            } else {
                let dc = king.col() as isize - mover.col() as isize;
                let dr = king.row() as isize - mover.row() as isize;
                king.step(dc, dr)
                    .is_some_and(|o| black(o) || has(anvils, o.index()))
            }
        }
    }
}

/// The king's cell index, if he is on the board.
pub(crate) fn king_index(pos: &Tablut) -> Option<usize> {
    pos.board.iter().position(|&p| p == Some(Piece::King))
}

/// The number of clear lines of the king for Tuichi/Raichi (0 without Tuichi).
pub(crate) fn clear_lines(pos: &Tablut) -> u32 {
    let rules = pos.variant.rules();
    let (Some(kind), Some(k)) = (rules.tuichi, king_index(pos)) else {
        return 0;
    };
    let king = Cell::at(k);
    let mut lines = 0;
    for (dc, dr) in DIRS {
        if kind == ClearLine::EdgeToCorner {
            // Only along the edge the king stands on.
            let on_edge_line = if dc == 0 {
                king.col() == 0 || king.col() == 8
            } else {
                king.row() == 0 || king.row() == 8
            };
            if !on_edge_line {
                continue;
            }
        }
        let mut cell = king;
        let mut clear = false;
        while let Some(n) = cell.step(dc, dr) {
            let i = n.index();
            if pos.board[i].is_some() || has(rules.camps, i) || i == THRONE {
                clear = false;
                break;
            }
            clear = true;
            cell = n;
        }
        if clear {
            lines += 1;
        }
    }
    lines
}

/// The end of the game by the position alone (not by repetition or by a lack of moves).
pub(crate) fn decided(pos: &Tablut) -> Option<Outcome> {
    let rules = pos.variant.rules();
    let Some(k) = king_index(pos) else {
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
                        && matches!(before.board[c.index()], Some(Piece::Black | Piece::White))
                        && after.board[c.index()].is_none()
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
    let king_before = king_index(before).map(Cell::at);
    let king_after = king_index(after).map(Cell::at);
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
