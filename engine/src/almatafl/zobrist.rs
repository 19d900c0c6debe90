//! Zobrist keys of stacks and of the side to move, from a fixed splitmix64
//! sequence: hashes are stable across runs (they are written into the notation).

use super::board::CELLS;

use crate::zobrist::next as splitmix;

/// Keys per cell and packed stack (0 = empty has key 0), then the side key. A
/// `static`, not a `const`: indexing a `const` array at run time may copy it whole.
static KEYS: ([[u64; 64]; CELLS], u64) = {
    let mut table = [[0u64; 64]; CELLS];
    let mut state = 0xA1A7_AF1A_2026_0001u64;
    let mut cell = 0;
    while cell < CELLS {
        let mut code = 1;
        while code < 64 {
            let (s, v) = splitmix(state);
            state = s;
            table[cell][code] = v;
            code += 1;
        }
        cell += 1;
    }
    let (_, side) = splitmix(state);
    (table, side)
};

/// The key of a packed stack on a cell.
#[inline]
pub(crate) fn stack_key(cell: usize, stack: u8) -> u64 {
    KEYS.0[cell][stack as usize]
}

/// The key xored in when the defenders are to move.
pub(crate) const SIDE_KEY: u64 = KEYS.1;
