//! A slow, obviously-correct move generator written straight from RULES.md,
//! independent of the fast generator's tables; used only by tests.

use super::cells::Cell;
use super::{Move, Piece, Tablut, Variant};
use crate::Game;

const GROUPS: [[&str; 4]; 4] = [
    ["d1", "e1", "f1", "e2"],
    ["a4", "a5", "a6", "b5"],
    ["i4", "i5", "i6", "h5"],
    ["d9", "e9", "f9", "e8"],
];

fn named(c: Cell, names: &[&str]) -> bool {
    names.iter().any(|n| Cell::parse(n).ok() == Some(c))
}

fn camp_group(variant: Variant, c: Cell) -> Option<usize> {
    match variant {
        Variant::Bga | Variant::Ashton => GROUPS.iter().position(|g| named(c, g)),
        Variant::BgaCorners | Variant::Linnaeus => None,
    }
}

fn is_throne(c: Cell) -> bool {
    named(c, &["e5"])
}

fn is_corner(c: Cell) -> bool {
    named(c, &["a1", "i1", "a9", "i9"])
}

/// The cells from `from` (excluded) to `to` (included), in order, if on one line.
fn path(from: Cell, to: Cell) -> Option<Vec<Cell>> {
    if from == to || (from.row() != to.row() && from.col() != to.col()) {
        return None;
    }
    let mut cells: Vec<Cell> = Cell::all()
        .filter(|&c| {
            let between_rows = |a: usize, b: usize, x: usize| a.min(b) <= x && x <= a.max(b);
            c != from
                && ((from.row() == to.row()
                    && c.row() == from.row()
                    && between_rows(from.col(), to.col(), c.col()))
                    || (from.col() == to.col()
                        && c.col() == from.col()
                        && between_rows(from.row(), to.row(), c.row())))
        })
        .collect();
    let dist = |c: &Cell| c.row().abs_diff(from.row()) + c.col().abs_diff(from.col());
    cells.sort_by_key(dist);
    Some(cells)
}

/// Whether `piece` may slide from `from` to `to` on this board.
fn legal(pos: &Tablut, piece: Piece, from: Cell, to: Cell) -> bool {
    let variant = pos.variant();
    let Some(cells) = path(from, to) else {
        return false;
    };
    if cells.iter().any(|&c| pos.piece_at(c).is_some()) {
        return false;
    }
    let king = piece == Piece::King;
    for (n, &c) in cells.iter().enumerate() {
        let last = n + 1 == cells.len();
        if let Some(g) = camp_group(variant, c) {
            let ok = camp_group(variant, from) == Some(g)
                && cells[..n].iter().all(|&p| camp_group(variant, p).is_some());
            if !ok {
                return false;
            }
        }
        if is_throne(c) {
            // The king passes and stops in the bga variants; soldiers pass the
            // empty throne in bga-corners only; nobody else.
            let allowed = matches!(
                (variant, king, last),
                (Variant::Bga | Variant::BgaCorners, true, _) | (Variant::BgaCorners, false, false)
            );
            if !allowed {
                return false;
            }
        }
        if variant == Variant::BgaCorners && is_corner(c) && !king {
            return false;
        }
    }
    true
}

/// Every legal move, sorted, ignoring whether the game is over (pass included in
/// linnaeus when nothing else is legal).
pub(crate) fn moves(pos: &Tablut) -> Vec<Move> {
    let mut out = Vec::new();
    for (from, piece) in pos.pieces() {
        if piece.owner() != pos.side_to_move() {
            continue;
        }
        for to in Cell::all() {
            if legal(pos, piece, from, to) {
                out.push(Move::Step { from, to });
            }
        }
    }
    if out.is_empty() && pos.variant() == Variant::Linnaeus {
        out.push(Move::Pass);
    }
    out.sort_by_key(|m| match *m {
        Move::Step { from, to } => (from.index(), to.index()),
        Move::Pass => (usize::MAX, 0),
    });
    out
}
