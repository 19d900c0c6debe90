//! Zobrist keys and the repetition history: a shared, persistent list of the
//! hashes of earlier positions, so playing a move copies nothing.

use std::sync::Arc;

use super::board::CELLS;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Keys per cell and packed stack (0 = empty has key 0), then the side key.
const KEYS: ([[u64; 64]; CELLS], u64) = {
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
pub(crate) fn stack_key(cell: usize, stack: u8) -> u64 {
    KEYS.0[cell][stack as usize]
}

/// The key xored in when the defenders are to move.
pub(crate) const SIDE_KEY: u64 = KEYS.1;

/// Hashes of earlier positions, newest first.
#[derive(Clone, Default)]
pub(crate) struct History {
    head: Option<Arc<Node>>,
}

struct Node {
    hash: u64,
    prev: Option<Arc<Node>>,
}

impl Drop for Node {
    // Iterative, so that dropping a very long history cannot overflow the stack.
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut n) => next = n.prev.take(),
                Err(_) => break,
            }
        }
    }
}

impl History {
    /// This history with `hash` appended as the newest entry.
    pub(crate) fn with(&self, hash: u64) -> History {
        History {
            head: Some(Arc::new(Node {
                hash,
                prev: self.head.clone(),
            })),
        }
    }

    /// Builds a history from hashes given oldest first.
    pub(crate) fn from_oldest_first(hashes: &[u64]) -> History {
        hashes
            .iter()
            .fold(History::default(), |h, &hash| h.with(hash))
    }

    /// Iterates the hashes newest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        std::iter::successors(self.head.as_deref(), |n| n.prev.as_deref()).map(|n| n.hash)
    }

    /// How often `hash` occurs.
    pub(crate) fn count(&self, hash: u64) -> usize {
        self.iter().filter(|&h| h == hash).count()
    }

    /// The hashes oldest first.
    pub(crate) fn oldest_first(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.iter().collect();
        v.reverse();
        v
    }

    /// The hashes sorted (the history as a multiset).
    pub(crate) fn sorted(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.iter().collect();
        v.sort_unstable();
        v
    }
}
