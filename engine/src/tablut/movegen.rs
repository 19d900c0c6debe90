//! The fast move generator: one table lookup per piece and line on bitboards
//! (`bits.rs`), no allocation, early stop. The moves come piece by piece in
//! cell order, each piece's up, down, left and right, nearest cell first.

use std::ops::ControlFlow;

use super::bits::{line, SLIDE};
use super::cells::{Cell, SIZE};
use super::{Move, Tablut};

/// Where the piece on `from` can go: the columns of its row and the rows of
/// its column it reaches, as two 9-bit lines.
#[inline(always)]
fn destinations(pos: &Tablut, occupied: u128, from: usize) -> (u16, u16) {
    let rules = pos.variant.rules();
    let masks = &rules.masks;
    let (r, c) = (from / SIZE, from % SIZE);
    let (blocks, no_stop) = if usize::from(pos.king) == from {
        (masks.king_blocks, None)
    } else {
        (
            masks.soldier_blocks[usize::from(rules.camp_group[from])],
            Some(masks.soldier_no_stop),
        )
    };
    let mut row = SLIDE[c][usize::from(line(occupied | blocks.rows, r))];
    let mut col = SLIDE[r][usize::from(line(pos.occupied_t | blocks.cols, c))];
    if let Some(no_stop) = no_stop {
        row &= !line(no_stop.rows, r);
        col &= !line(no_stop.cols, c);
    }
    (row, col)
}

/// Calls `f` with every legal step (no pass) of the side to move, ignoring whether
/// the game is over; stops when `f` breaks.
pub(crate) fn for_each_step<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &Tablut,
    f: &mut F,
) -> ControlFlow<()> {
    let occupied = pos.occupied();
    let mut own = pos.own();
    while own != 0 {
        let from = own.trailing_zeros() as usize;
        own &= own - 1;
        let (row, col) = destinations(pos, occupied, from);
        let (r, c) = (from / SIZE, from % SIZE);
        let below = |p: usize| (1u16 << p) - 1;
        // Up and left: the places below `r` or `c`, nearest (highest) first.
        let mut up = col & below(r);
        while up != 0 {
            let q = 15 - up.leading_zeros() as usize;
            up ^= 1 << q;
            f(step(from, q * SIZE + c))?;
        }
        let mut down = col & !below(r + 1);
        while down != 0 {
            let q = down.trailing_zeros() as usize;
            down &= down - 1;
            f(step(from, q * SIZE + c))?;
        }
        let mut left = row & below(c);
        while left != 0 {
            let q = 15 - left.leading_zeros() as usize;
            left ^= 1 << q;
            f(step(from, r * SIZE + q))?;
        }
        let mut right = row & !below(c + 1);
        while right != 0 {
            let q = right.trailing_zeros() as usize;
            right &= right - 1;
            f(step(from, r * SIZE + q))?;
        }
    }
    ControlFlow::Continue(())
}

/// The number of steps [`for_each_step`] gives.
pub(crate) fn count_steps(pos: &Tablut) -> usize {
    let occupied = pos.occupied();
    let mut own = pos.own();
    let mut n = 0;
    while own != 0 {
        let from = own.trailing_zeros() as usize;
        own &= own - 1;
        let (row, col) = destinations(pos, occupied, from);
        n += (row.count_ones() + col.count_ones()) as usize;
    }
    n
}

/// The step [`for_each_step`] gives at index `n`, if there are more than `n`.
pub(crate) fn nth_step(pos: &Tablut, mut n: usize) -> Option<Move> {
    let occupied = pos.occupied();
    let mut own = pos.own();
    while own != 0 {
        let from = own.trailing_zeros() as usize;
        own &= own - 1;
        let (row, col) = destinations(pos, occupied, from);
        let (r, c) = (from / SIZE, from % SIZE);
        let below = |p: usize| (1u16 << p) - 1;
        // The four directions in generation order: nearest first means the
        // highest place first below the piece, the lowest first above it.
        let rays = [
            (col & below(r), true, true),
            (col & !below(r + 1), false, true),
            (row & below(c), true, false),
            (row & !below(c + 1), false, false),
        ];
        for (mut ray, downwards, vertical) in rays {
            let len = ray.count_ones() as usize;
            if n >= len {
                n -= len;
                continue;
            }
            let k = if downwards { len - 1 - n } else { n };
            for _ in 0..k {
                ray &= ray - 1;
            }
            let q = ray.trailing_zeros() as usize;
            let to = if vertical { q * SIZE + c } else { r * SIZE + q };
            return Some(step(from, to));
        }
    }
    None
}

fn step(from: usize, to: usize) -> Move {
    Move::Step {
        from: Cell::at(from),
        to: Cell::at(to),
    }
}
