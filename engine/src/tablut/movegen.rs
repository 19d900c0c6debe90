//! The fast move generator: one table lookup per piece and line (`bits.rs`),
//! no allocation, early stop. The moves come piece by piece in cell order,
//! each piece's up, down, left and right, nearest cell first.

use std::ops::ControlFlow;

use rand::Rng;

use super::bits::{self, ones, select, slide, Bits, NONE};
use super::cells::{Cell, SIZE};
use super::variant::Masks;
use super::{Move, Tablut};
use crate::game::Player;

/// Where one piece can go: the places of its row and of its column it reaches.
#[derive(Clone, Copy, Default)]
struct Reach {
    from: u8,
    row: u16,
    col: u16,
}

/// The places below `p` of a line.
#[inline(always)]
fn below(p: usize) -> u16 {
    (1 << p) - 1
}

impl Reach {
    fn count(self) -> usize {
        ones(self.row) + ones(self.col)
    }

    /// The four directions in generation order, each as (places, whether the
    /// nearest is the highest place, whether it runs along the column).
    #[inline(always)]
    fn rays(self) -> [(u16, bool, bool); 4] {
        let from = usize::from(self.from);
        let (r, c) = (from / SIZE, from % SIZE);
        [
            (self.col & below(r), true, true),
            (self.col & !below(r + 1), false, true),
            (self.row & below(c), true, false),
            (self.row & !below(c + 1), false, false),
        ]
    }

    /// The step to place `q` of a ray.
    #[inline(always)]
    fn step(self, q: usize, vertical: bool) -> Move {
        let from = usize::from(self.from);
        let to = if vertical {
            q * SIZE + from % SIZE
        } else {
            from - from % SIZE + q
        };
        Move::Step {
            from: Cell::at(from),
            to: Cell::at(to),
        }
    }

    /// This piece's `n`-th step, or `Err` with `n` less its count. The
    /// column's steps come first: in bit order its places above the piece
    /// (nearest first, so reversed), then those below; then the row's alike.
    #[inline(always)]
    fn nth(self, n: usize) -> Result<Move, usize> {
        let from = usize::from(self.from);
        let vertical = ones(self.col);
        let (line, m, p) = if n < vertical {
            (self.col, n, from / SIZE)
        } else {
            (self.row, n - vertical, from % SIZE)
        };
        let len = ones(line);
        if m >= len {
            return Err(m - len);
        }
        let nearer = ones(line & below(p));
        let k = if m < nearer { nearer - 1 - m } else { m };
        Ok(self.step(select(line, k), n < vertical))
    }
}

/// Calls `f` with the reach of each piece of the side to move, in cell order.
#[inline(always)]
fn for_each_piece<F: FnMut(Reach) -> ControlFlow<()>>(pos: &Tablut, f: F) -> ControlFlow<()> {
    for_each_piece_of(pos, pos.side, f)
}

/// What the reach of `player`'s pieces is read from: the board's rows with
/// the king in them, and the player's own pieces.
struct Board<'a> {
    pos: &'a Tablut,
    masks: &'a Masks,
    occupied: [u16; SIZE],
    own: Bits,
}

impl<'a> Board<'a> {
    #[inline(always)]
    fn of(pos: &'a Tablut, player: Player) -> Self {
        let king = usize::from(pos.king);
        let mut occupied: [u16; SIZE] = std::array::from_fn(|r| pos.black[r] | pos.white[r]);
        let mine = if player == Player::One {
            &pos.black
        } else {
            &pos.white
        };
        let mut own = bits::from_rows(mine);
        if pos.king != NONE {
            occupied[king / SIZE] |= 1 << (king % SIZE);
            if player == Player::Two {
                own |= 1 << king;
            }
        }
        Board {
            pos,
            masks: &pos.variant.rules().masks,
            occupied,
            own,
        }
    }

    /// The reach of the piece on `from`.
    #[inline(always)]
    fn reach(&self, from: usize) -> Reach {
        reach_in_row(self.pos, self.masks, from, self.occupied[from / SIZE])
    }
}

/// The reach of the piece on `from`, the pieces of its row being `row`.
#[inline(always)]
fn reach_in_row(pos: &Tablut, masks: &Masks, from: usize, row: u16) -> Reach {
    let (r, c) = (from / SIZE, from % SIZE);
    let m = &masks.slides[usize::from(from == usize::from(pos.king))][from];
    Reach {
        from: from as u8,
        row: slide(c, row | m.row_blocks) & !m.row_no_stop,
        col: slide(r, pos.column(c) | m.col_blocks) & !m.col_no_stop,
    }
}

/// Calls `f` with the reach of each piece of `player`, in cell order.
#[inline(always)]
fn for_each_piece_of<F: FnMut(Reach) -> ControlFlow<()>>(
    pos: &Tablut,
    player: Player,
    mut f: F,
) -> ControlFlow<()> {
    let board = Board::of(pos, player);
    let mut own = board.own;
    while own != 0 {
        let from = own.trailing_zeros() as usize;
        own &= own - 1;
        f(board.reach(from))?;
    }
    ControlFlow::Continue(())
}

/// Calls `f` with every legal step (no pass) of the side to move, ignoring whether
/// the game is over; stops when `f` breaks.
pub(crate) fn for_each_step<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &Tablut,
    f: &mut F,
) -> ControlFlow<()> {
    for_each_piece(pos, |reach| steps_of(reach, f))
}

/// The steps of [`for_each_step`] that end on a cell of `targets`, in the
/// same order.
pub(crate) fn for_each_step_to<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &Tablut,
    targets: Bits,
    f: &mut F,
) -> ControlFlow<()> {
    let (rows, columns) = (bits::rows(targets), bits::columns(targets));
    for_each_piece(pos, |reach| {
        let from = usize::from(reach.from);
        let only = Reach {
            row: reach.row & rows[from / SIZE],
            col: reach.col & columns[from % SIZE],
            ..reach
        };
        steps_of(only, f)
    })
}

/// Calls `f` with the steps of one piece, in generation order.
#[inline(always)]
fn steps_of<F: FnMut(Move) -> ControlFlow<()>>(reach: Reach, f: &mut F) -> ControlFlow<()> {
    for (mut ray, highest_first, vertical) in reach.rays() {
        while ray != 0 {
            let q = if highest_first {
                15 - ray.leading_zeros() as usize
            } else {
                ray.trailing_zeros() as usize
            };
            ray ^= 1 << q;
            f(reach.step(q, vertical))?;
        }
    }
    ControlFlow::Continue(())
}

/// The number of steps [`for_each_step`] gives.
pub(crate) fn count_steps(pos: &Tablut) -> usize {
    let mut n = 0;
    let _ = for_each_piece(pos, |reach| {
        n += reach.count();
        ControlFlow::Continue(())
    });
    n
}

/// The step [`for_each_step`] gives at index `n`, if there are more than `n`.
pub(crate) fn nth_step(pos: &Tablut, mut n: usize) -> Option<Move> {
    let mut found = None;
    let _ = for_each_piece(pos, |reach| match reach.nth(n) {
        Ok(m) => {
            found = Some(m);
            ControlFlow::Break(())
        }
        Err(rest) => {
            n = rest;
            ControlFlow::Continue(())
        }
    });
    found
}

/// The step at the index `pick` chooses given the number of steps, found in
/// one pass over the pieces; `None` (and `pick` not called) without steps.
pub(crate) fn pick_step(pos: &Tablut, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
    // At most 16 black soldiers, or 8 white soldiers and the king; `ends[k]`
    // is the number of steps of the pieces up to the `k`-th.
    let mut reaches = [Reach::default(); 16];
    let mut ends = [u16::MAX; 16];
    let (mut pieces, mut total) = (0, 0);
    let _ = for_each_piece(pos, |reach| {
        total += reach.count();
        if pieces < reaches.len() {
            reaches[pieces] = reach;
            ends[pieces] = total as u16;
            pieces += 1;
        }
        ControlFlow::Continue(())
    });
    if total == 0 {
        return None;
    }
    let n = pick(total);
    // The piece of step `n`: the first whose end lies above `n` (a binary
    // search over the 16 ends, the unused ones above any `n`).
    let mut k = 0;
    for half in [8, 4, 2, 1] {
        if usize::from(ends[k + half - 1]) <= n {
            k += half;
        }
    }
    let start = if k == 0 { 0 } else { usize::from(ends[k - 1]) };
    reaches.get(k)?.nth(n - start).ok()
}

/// Rounds [`random_step`] draws before it counts the steps.
const ROUNDS: usize = 64;

/// A uniformly random step of the side to move, drawn without listing the
/// steps. Each round draws one of the side's pieces and one of the 16
/// places of its column (8) and its row (8) alike, and takes the piece's
/// `m`-th reachable place of that line when it has an `m`-th: every step
/// then has the same chance in a round (1 in 16 times the pieces), and a
/// round that hits no step is drawn again. After [`ROUNDS`] misses (a side
/// with few steps or none) the step is drawn from the counted steps
/// ([`pick_step`]), uniform too, so the step drawn is exactly uniform.
pub(crate) fn random_step<R: Rng + ?Sized>(pos: &Tablut, rng: &mut R) -> Option<Move> {
    let masks = &pos.variant.rules().masks;
    let mut cells = [0u8; SIZE * SIZE + 16];
    let pieces = own_cells(pos, &mut cells);
    // More than 16 pieces (never in a valid position) go to the counted draw.
    if pieces > 0 && pieces <= 16 {
        for _ in 0..ROUNDS {
            let slot = uniform_below(rng, 16 * pieces as u32);
            // Only the drawn piece's row is read: no board set up first.
            let from = usize::from(cells[slot / 16]);
            let reach = reach_in_row(pos, masks, from, pos.row(from / SIZE));
            let (vertical, m) = (slot % 16 < 8, slot % 8);
            let line = if vertical { reach.col } else { reach.row };
            if m < ones(line) {
                return Some(reach.step(select(line, m), vertical));
            }
        }
    }
    pick_step(pos, |n| rng.random_range(0..n))
}

/// The cells of the side to move's pieces (the king's too) in index order
/// into `cells`; returns how many. Row by row, each row's places copied
/// from a table 16 bytes at a time: no branch per piece, as a loop over the
/// set bits would take.
#[inline]
fn own_cells(pos: &Tablut, cells: &mut [u8; SIZE * SIZE + 16]) -> usize {
    let king = usize::from(pos.king);
    let (mine, king_row) = if pos.side == Player::Two {
        (&pos.white, king / SIZE)
    } else {
        (&pos.black, SIZE)
    };
    // (A captured king's row, 255 / 9, is past the board.)
    let king_bit = 1u16 << (king % SIZE);
    let mut n = 0;
    for (r, &line) in mine.iter().enumerate() {
        let line = line | if r == king_row { king_bit } else { 0 };
        // Places are at most 8 and bases at most 72: no byte carries.
        let base = u128::from((r * SIZE) as u8) * u128::from_le_bytes([1; 16]);
        let row = u128::from_le_bytes(*bits::places(line)) + base;
        // n <= 9 r before row r: the last byte written is at most 87.
        cells[n..n + 16].copy_from_slice(&row.to_le_bytes());
        n += ones(line);
    }
    n
}

/// A uniform number below `n` (at least 1), exactly: Lemire's multiply and
/// shift of one 32-bit draw, drawn again in the rare case that would favour
/// some results (a division only then). `random_range`'s default method is
/// close to uniform, not exact, and slower; the rounds above draw often.
#[inline]
fn uniform_below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> usize {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        // 2^32 mod n: the low parts below it would map one too many draws.
        let floor = n.wrapping_neg() % n;
        while (m as u32) < floor {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as usize
}

/// Every cell a piece of `player` could move to if it were `player`'s turn,
/// the king's moves only if `with_king` (the evaluation's threats).
pub(crate) fn reach(pos: &Tablut, player: Player, with_king: bool) -> Bits {
    // Row by row: a row's reach is gathered in 9 bits and placed once, the
    // columns' reaches placed once at the end.
    let masks = &pos.variant.rules().masks;
    let king = usize::from(pos.king);
    let mine = if player == Player::One {
        &pos.black
    } else {
        &pos.white
    };
    let mut cells: Bits = 0;
    let mut columns = [0u16; SIZE];
    for (r, &own) in mine.iter().enumerate() {
        let king_here = pos.king_in_row(r);
        let occupied = pos.black[r] | pos.white[r] | king_here;
        let mut pieces = own;
        if with_king && player == Player::Two {
            pieces |= king_here;
        }
        let mut row = 0;
        while pieces != 0 {
            let c = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let from = r * SIZE + c;
            let m = &masks.slides[usize::from(from == king)][from];
            row |= slide(c, occupied | m.row_blocks) & !m.row_no_stop;
            columns[c] |= slide(r, pos.column(c) | m.col_blocks) & !m.col_no_stop;
        }
        cells |= Bits::from(row) << (r * SIZE);
    }
    for (c, &line) in columns.iter().enumerate() {
        cells |= bits::column_set(line, c);
    }
    cells
}
