//! Zobrist keys from a fixed splitmix64 sequence: hashes are stable across
//! runs (they are written into the notation).

use super::board::MAX_CELLS;

use crate::zobrist::next as splitmix;

/// Most tokens a player holds off the board (reserve or still to place).
pub(crate) const MAX_TOKENS: usize = 12;

struct Keys {
    /// [cell][owner][height - 1]
    stacks: [[[u64; 4]; 2]; MAX_CELLS],
    /// [cell][owner]: a Bishop there.
    bishops: [[u64; 2]; MAX_CELLS],
    /// [owner][count]: tokens off the board.
    tokens: [[u64; MAX_TOKENS + 1]; 2],
    /// The second player to move.
    side: u64,
    /// The placement phase.
    placement: u64,
}

const KEYS: Keys = {
    let mut k = Keys {
        stacks: [[[0; 4]; 2]; MAX_CELLS],
        bishops: [[0; 2]; MAX_CELLS],
        tokens: [[0; MAX_TOKENS + 1]; 2],
        side: 0,
        placement: 0,
    };
    let mut state = 0x7A27_A000_2026_0001u64;
    let mut c = 0;
    while c < MAX_CELLS {
        let mut o = 0;
        while o < 2 {
            let mut h = 0;
            while h < 4 {
                let (s, v) = splitmix(state);
                state = s;
                k.stacks[c][o][h] = v;
                h += 1;
            }
            let (s, v) = splitmix(state);
            state = s;
            k.bishops[c][o] = v;
            o += 1;
        }
        c += 1;
    }
    let mut o = 0;
    while o < 2 {
        let mut n = 0;
        while n <= MAX_TOKENS {
            let (s, v) = splitmix(state);
            state = s;
            k.tokens[o][n] = v;
            n += 1;
        }
        o += 1;
    }
    let (s, v) = splitmix(state);
    k.side = v;
    let (_, v) = splitmix(s);
    k.placement = v;
    k
};

/// The key of a stack of `height` (1..=4) of `owner` (0 or 1) on `cell`.
#[inline]
pub(crate) fn stack(cell: usize, owner: usize, height: u8) -> u64 {
    KEYS.stacks[cell][owner][height as usize - 1]
}

/// The key of `owner`'s Bishop on `cell`.
#[inline]
pub(crate) fn bishop(cell: usize, owner: usize) -> u64 {
    KEYS.bishops[cell][owner]
}

/// The key of `owner` holding `count` tokens off the board.
#[inline]
pub(crate) fn tokens(owner: usize, count: u8) -> u64 {
    KEYS.tokens[owner][(count as usize).min(MAX_TOKENS)]
}

/// The key xored in when the second player is to move.
pub(crate) const SIDE: u64 = KEYS.side;

/// The key xored in during the placement phase.
pub(crate) const PLACEMENT: u64 = KEYS.placement;
