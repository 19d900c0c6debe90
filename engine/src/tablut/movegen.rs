//! The fast move generator: a mailbox scan, no allocation, early stop.

use std::ops::ControlFlow;

use super::cells::{has, Cell, SIZE};
use super::variant::THRONE;
use super::{Move, Piece, Tablut};

/// Steps as index offsets with the number of cells to the board edge.
#[inline]
fn room(i: usize, dir: usize) -> usize {
    let (r, c) = (i / SIZE, i % SIZE);
    match dir {
        0 => r,
        1 => SIZE - 1 - r,
        2 => c,
        _ => SIZE - 1 - c,
    }
}

const OFFSETS: [isize; 4] = [-(SIZE as isize), SIZE as isize, -1, 1];

/// Calls `f` with every legal step (no pass) of the side to move, ignoring whether
/// the game is over; stops when `f` breaks.
pub(crate) fn for_each_step<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &Tablut,
    f: &mut F,
) -> ControlFlow<()> {
    let rules = pos.variant.rules();
    let board = &pos.board;
    for from in 0..SIZE * SIZE {
        let Some(piece) = board[from] else { continue };
        if piece.owner() != pos.side {
            continue;
        }
        let king = piece == Piece::King;
        let group = rules.camp_group[from];
        for (dir, &off) in OFFSETS.iter().enumerate() {
            let mut in_camp = group != 0;
            let mut to = from;
            for _ in 0..room(from, dir) {
                to = (to as isize + off) as usize;
                if board[to].is_some() {
                    break;
                }
                let g = rules.camp_group[to];
                if g != 0 {
                    if !(in_camp && g == group) {
                        break;
                    }
                } else {
                    in_camp = false;
                }
                if to == THRONE {
                    if king && rules.king_reenters_throne {
                        f(step(from, to))?;
                        continue;
                    }
                    if !king && rules.soldiers_pass_throne {
                        continue;
                    }
                    break;
                }
                if !king && has(rules.king_only, to) {
                    break;
                }
                f(step(from, to))?;
            }
        }
    }
    ControlFlow::Continue(())
}

fn step(from: usize, to: usize) -> Move {
    Move::Step {
        from: Cell::at(from),
        to: Cell::at(to),
    }
}
