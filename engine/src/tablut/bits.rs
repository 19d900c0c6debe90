//! Bitboards of the 9x9 board and the tables the move generator reads.
//!
//! A position keeps its board as 9-bit lines: each row (bit `col`) and each
//! column (bit `row`). A slide along a line is one lookup: [`SLIDE`] gives,
//! for a piece at place `p` of a 9-cell line and the line's blockers, the
//! places it reaches. A [`Bits`] is a whole set, bit `row * 9 + col` (the cell
//! index), for the rule tables and the evaluation.

use super::cells::{CellSet, SIZE};

/// A set of cells, bit `index` (the same as [`CellSet`]).
pub(crate) type Bits = CellSet;

/// The 9 bits of one line.
pub(crate) const LINE: u16 = (1 << SIZE) - 1;

/// No cell (an empty king slot, an off-board neighbour).
pub(crate) const NONE: u8 = u8::MAX;

/// The 9 bits of each row of a set (bit `col` of entry `row`).
pub(crate) const fn rows(b: Bits) -> [u16; SIZE] {
    let mut out = [0; SIZE];
    let mut r = 0;
    while r < SIZE {
        out[r] = (b >> (r * SIZE)) as u16 & LINE;
        r += 1;
    }
    out
}

/// The 9 bits of each column of a set (bit `row` of entry `col`).
pub(crate) const fn columns(b: Bits) -> [u16; SIZE] {
    let mut out = [0; SIZE];
    let mut i = 0;
    while i < SIZE * SIZE {
        if (b >> i) & 1 == 1 {
            out[i % SIZE] |= 1 << (i / SIZE);
        }
        i += 1;
    }
    out
}

/// The set of the given rows (the inverse of [`rows`]).
pub(crate) fn from_rows(rows: &[u16; SIZE]) -> Bits {
    rows.iter()
        .enumerate()
        .fold(0, |b, (r, &l)| b | Bits::from(l) << (r * SIZE))
}

/// The cells of the first column (a) and of the last (i).
const FIRST_COLUMN: Bits = spread(LINE);
const LAST_COLUMN: Bits = FIRST_COLUMN << (SIZE - 1);

/// A column's 9 bits (bit `row`) as a set of cells in column a.
const fn spread(line: u16) -> Bits {
    let mut set = 0;
    let mut r = 0;
    while r < SIZE {
        if (line >> r) & 1 == 1 {
            set |= 1 << (r * SIZE);
        }
        r += 1;
    }
    set
}

/// `SPREAD[line]`: [`spread`] by table.
static SPREAD: [Bits; 1 << SIZE] = {
    let mut table = [0; 1 << SIZE];
    let mut line = 0;
    while line < (1 << SIZE) {
        table[line] = spread(line as u16);
        line += 1;
    }
    table
};

/// The set of the cells of column `c` given by the column's 9 bits (bit `row`).
#[inline(always)]
pub(crate) fn column_set(line: u16, c: usize) -> Bits {
    SPREAD[usize::from(line & LINE)] << c
}

/// The cells whose upper neighbour is in `set`.
#[inline(always)]
pub(crate) fn below_of(set: Bits) -> Bits {
    set << SIZE
}

/// The cells whose lower neighbour is in `set`.
#[inline(always)]
pub(crate) fn above_of(set: Bits) -> Bits {
    set >> SIZE
}

/// The cells whose left neighbour is in `set`.
#[inline(always)]
pub(crate) fn right_of(set: Bits) -> Bits {
    (set << 1) & !FIRST_COLUMN
}

/// The cells whose right neighbour is in `set`.
#[inline(always)]
pub(crate) fn left_of(set: Bits) -> Bits {
    (set >> 1) & !LAST_COLUMN
}

/// `SLIDE[p][blockers]`: the places of a 9-cell line reached from place `p`
/// when `blockers` (any bits, `p`'s own ignored) stop a slide before them.
pub(crate) static SLIDE: [[u16; 1 << SIZE]; SIZE] = {
    let mut table = [[0u16; 1 << SIZE]; SIZE];
    let mut p = 0;
    while p < SIZE {
        let mut occ = 0;
        while occ < (1 << SIZE) {
            let mut reach = 0u16;
            let mut q = p;
            while q > 0 && (occ >> (q - 1)) & 1 == 0 {
                q -= 1;
                reach |= 1 << q;
            }
            q = p;
            while q + 1 < SIZE && (occ >> (q + 1)) & 1 == 0 {
                q += 1;
                reach |= 1 << q;
            }
            table[p][occ] = reach;
            occ += 1;
        }
        p += 1;
    }
    table
};

/// `ONES[bits]`: the number of set bits of a line. A table lookup, as the
/// portable x86-64 target has no popcount instruction.
static ONES: [u8; 1 << SIZE] = {
    let mut table = [0u8; 1 << SIZE];
    let mut bits = 0;
    while bits < (1 << SIZE) {
        table[bits] = (bits as u16).count_ones() as u8;
        bits += 1;
    }
    table
};

/// The number of set bits of the line `bits`.
#[inline(always)]
pub(crate) fn ones(bits: u16) -> usize {
    usize::from(ONES[usize::from(bits & LINE)])
}

/// The places of a 9-cell line `p` reaches past `blockers` (see [`SLIDE`]).
#[inline(always)]
pub(crate) fn slide(p: usize, blockers: u16) -> u16 {
    SLIDE[p % SIZE][usize::from(blockers & LINE)]
}

/// `SELECT[bits][k]`: the place of the `k`-th lowest set bit of a line
/// (0 where `bits` has no `k`-th bit). Rows of 16, so that one is copied
/// as a whole ([`places`]).
static SELECT: [[u8; 16]; 1 << SIZE] = {
    let mut table = [[0u8; 16]; 1 << SIZE];
    let mut bits = 0;
    while bits < (1 << SIZE) {
        let (mut k, mut p) = (0, 0);
        while p < SIZE {
            if (bits >> p) & 1 == 1 {
                table[bits][k] = p as u8;
                k += 1;
            }
            p += 1;
        }
        bits += 1;
    }
    table
};

/// The place of the `k`-th lowest set bit of the line `bits` (`k` counts
/// from 0; `bits` must have more than `k` bits set).
#[inline(always)]
pub(crate) fn select(bits: u16, k: usize) -> usize {
    usize::from(SELECT[usize::from(bits & LINE)][k % SIZE])
}

/// The places of a line's set bits, lowest first, then zeros up to 16 (a
/// row of [`SELECT`]).
#[inline(always)]
pub(crate) fn places(bits: u16) -> &'static [u8; 16] {
    &SELECT[usize::from(bits & LINE)]
}

/// `NEIGHBOURS[i][d]`: the cell next to `i` in direction `d` (up, down, left,
/// right, as [`super::cells::DIRS`]), or [`NONE`] off the board.
pub(crate) static NEIGHBOURS: [[u8; 4]; SIZE * SIZE] = {
    let mut table = [[NONE; 4]; SIZE * SIZE];
    let mut i = 0;
    while i < SIZE * SIZE {
        let (r, c) = (i / SIZE, i % SIZE);
        if r > 0 {
            table[i][0] = (i - SIZE) as u8;
        }
        if r + 1 < SIZE {
            table[i][1] = (i + SIZE) as u8;
        }
        if c > 0 {
            table[i][2] = (i - 1) as u8;
        }
        if c + 1 < SIZE {
            table[i][3] = (i + 1) as u8;
        }
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_stop_before_blockers_and_at_the_ends() {
        // Place 4 of ..B.P..B. reaches 3, 5 and 6.
        let blockers = (1 << 2) | (1 << 7);
        assert_eq!(SLIDE[4][blockers], (1 << 3) | (1 << 5) | (1 << 6));
        assert_eq!(SLIDE[0][0], LINE & !1);
        assert_eq!(SLIDE[8][1 << 7], 0);
        // The piece's own bit does not block.
        assert_eq!(SLIDE[4][1 << 4], LINE & !(1 << 4));
    }

    #[test]
    fn columns_and_neighbours_as_sets() {
        // Column c (index 2) rows 1 and 9: cells 2 and 74.
        assert_eq!(column_set(0b1_0000_0001, 2), (1 << 2) | (1 << 74));
        // e5 (40): its neighbours e4 (31), e6 (49), d5 (39), f5 (41).
        let e5: Bits = 1 << 40;
        assert_eq!(below_of(1 << 31), e5);
        assert_eq!(above_of(1 << 49), e5);
        assert_eq!(right_of(1 << 39), e5);
        assert_eq!(left_of(1 << 41), e5);
        // No wrapping between rows: i1 (8) is not left of a2 (9).
        assert_eq!(right_of(1 << 8), 0);
        assert_eq!(left_of(1 << 9), 0);
    }

    #[test]
    fn select_finds_the_kth_set_bit() {
        let bits = 0b1_0010_0110;
        assert_eq!([0, 1, 2, 3].map(|k| select(bits, k)), [1, 2, 5, 8]);
        assert_eq!(select(LINE, 8), 8);
    }

    #[test]
    fn rows_and_columns_of_a_set() {
        let b: Bits = 0x1_2345_6789_abcd_ef01_2345;
        assert_eq!(from_rows(&rows(b)), b);
        // b1 (row 0, col 1, index 1) and a2 (row 1, col 0, index 9).
        let set = (1 << 1) | (1 << 9);
        assert_eq!(rows(set)[..2], [0b10, 0b1]);
        assert_eq!(columns(set)[..2], [0b10, 0b1]);
    }
}
