//! Bitboards of the 9x9 board and the tables the move generator reads.
//!
//! A [`Bits`] has bit `row * 9 + col` for each cell (the cell index); its
//! *transpose* has bit `col * 9 + row`, so that a column is 9 consecutive bits
//! as a row is. A slide along a line is one lookup: [`SLIDE`] gives, for a
//! piece at place `p` of a 9-cell line and the line's blockers, the places it
//! reaches.

use super::cells::{CellSet, SIZE};

/// A set of cells, bit `index` (the same as [`CellSet`]).
pub(crate) type Bits = CellSet;

/// The 9 bits of one line.
pub(crate) const LINE: u16 = (1 << SIZE) - 1;

/// No cell (an empty king slot, an off-board neighbour).
pub(crate) const NONE: u8 = u8::MAX;

/// The 9 bits of row `r` of `b` (or of column `r` of a transposed set).
#[inline(always)]
pub(crate) fn line(b: Bits, r: usize) -> u16 {
    (b >> (r * SIZE)) as u16 & LINE
}

/// The transpose of a set: bit `row * 9 + col` goes to `col * 9 + row`.
pub(crate) const fn transpose(b: Bits) -> Bits {
    let mut out = 0;
    let mut i = 0;
    while i < SIZE * SIZE {
        if (b >> i) & 1 == 1 {
            out |= 1 << ((i % SIZE) * SIZE + i / SIZE);
        }
        i += 1;
    }
    out
}

/// The bit of cell `i` in the transposed orientation.
#[inline(always)]
pub(crate) const fn transposed_bit(i: usize) -> Bits {
    1 << ((i % SIZE) * SIZE + i / SIZE)
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

/// The cells next to each cell (up to 4), as a set.
pub(crate) static ADJACENT: [Bits; SIZE * SIZE] = {
    let mut table = [0; SIZE * SIZE];
    let mut i = 0;
    while i < SIZE * SIZE {
        let mut d = 0;
        while d < 4 {
            let n = NEIGHBOURS[i][d];
            if n != NONE {
                table[i] |= 1 << n;
            }
            d += 1;
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
    fn transposing_twice_gives_the_set_back() {
        let b: Bits = 0x1_2345_6789_abcd_ef01_2345;
        assert_eq!(transpose(transpose(b)), b);
        // b1 (row 0, col 1, index 1) becomes index 9 (col 1 is row 1 of the transpose).
        assert_eq!(transpose(1 << 1), 1 << 9);
        assert_eq!(transposed_bit(1), 1 << 9);
        assert_eq!(line(transpose(1 << 1), 1), 1);
    }
}
