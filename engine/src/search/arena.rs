//! The nodes of a Monte Carlo tree, within the search's memory budget.
//!
//! A tree search adds a node per iteration; left alone it takes gigabytes in
//! a minute (one AlmaTafl search took 2.5 GB in 60 s). The [`Arena`] holds
//! the nodes in fixed-size chunks, so growing never copies the tree nor
//! holds two copies at once, and counts every byte the tree allocates (its
//! chunks, and what the searcher asks for its nodes' own lists) against the
//! budget of [`Limits::table_mb`]. When the next node or list does not fit,
//! the tree stops growing: later iterations walk and refine the tree it has,
//! and [`Arena::full`] says so for the search's report.

use std::ops::{Index, IndexMut};

use super::{FullTree, Limits};

/// The memory a Monte Carlo tree gets when the limits name none, in MB.
pub const DEFAULT_TREE_MB: usize = 16;

/// Nodes per chunk: small enough that the last chunk wastes little of the
/// budget, large enough that chunks are few.
const CHUNK: usize = 1 << 12;

/// The nodes of one tree, by index (the root is 0), within a byte budget.
pub(crate) struct Arena<N> {
    chunks: Vec<Vec<N>>,
    len: usize,
    /// The budget in bytes.
    budget: usize,
    /// Bytes taken: the chunks' capacity and what [`Arena::take`] granted.
    used: usize,
    /// Nodes refused for lack of room: what the tree would have grown by.
    refused: u64,
}

impl<N> Arena<N> {
    /// An empty tree with the budget of `limits` ([`Limits::table_mb`], or
    /// [`DEFAULT_TREE_MB`] when it is 0).
    pub(crate) fn new(limits: &Limits) -> Self {
        let mb = match limits.table_mb {
            0 => DEFAULT_TREE_MB,
            mb => mb,
        };
        Arena {
            chunks: Vec::new(),
            len: 0,
            budget: mb.saturating_mul(1 << 20),
            used: 0,
            refused: 0,
        }
    }

    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Takes `bytes` of the budget for a node's own allocation (its list of
    /// moves or children) if they fit; false, taking nothing, if not.
    pub(crate) fn take(&mut self, bytes: usize) -> bool {
        match self.used.checked_add(bytes) {
            Some(used) if used <= self.budget => {
                self.used = used;
                true
            }
            _ => false,
        }
    }

    /// Whether one more node fits.
    pub(crate) fn has_room(&self) -> bool {
        !self.len.is_multiple_of(CHUNK)
            || self
                .used
                .checked_add(Self::CHUNK_BYTES)
                .is_some_and(|used| used <= self.budget)
    }

    /// The bytes of one chunk.
    const CHUNK_BYTES: usize = CHUNK * std::mem::size_of::<N>();

    /// Adds `node` if it fits (with a new chunk when the last is full);
    /// returns its index, or `None` when the budget is spent (the caller
    /// says whether that refused a node the search wanted: [`Arena::refuse`]).
    pub(crate) fn push(&mut self, node: N) -> Option<usize> {
        let offset = self.len % CHUNK;
        if offset == 0 && !self.take(Self::CHUNK_BYTES) {
            return None;
        }
        if offset == 0 {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        self.chunks
            .last_mut()
            .expect("a chunk with room")
            .push(node);
        self.len += 1;
        Some(self.len - 1)
    }

    /// Notes a node the search would have added but had no room for.
    pub(crate) fn refuse(&mut self) {
        self.refused += 1;
    }

    /// Whether the tree stopped growing, and where: `None` while every node
    /// the search wanted fitted.
    pub(crate) fn full(&self) -> Option<FullTree> {
        (self.refused > 0).then(|| FullTree {
            nodes: self.len as u64,
            wanted: self.len as u64 + self.refused,
            megabytes: self.budget >> 20,
        })
    }
}

impl<N> Index<usize> for Arena<N> {
    type Output = N;

    fn index(&self, i: usize) -> &N {
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

impl<N> IndexMut<usize> for Arena<N> {
    fn index_mut(&mut self, i: usize) -> &mut N {
        &mut self.chunks[i / CHUNK][i % CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_grows_in_chunks_until_its_budget_then_counts_what_it_refused() {
        let limits = Limits {
            table_mb: 1,
            ..Limits::default()
        };
        let mut arena: Arena<[u64; 4]> = Arena::new(&limits);
        // 32-byte nodes, 4096 to a 128 KiB chunk: 8 chunks fit in 1 MB.
        for i in 0..8 * CHUNK {
            assert_eq!(arena.push([i as u64; 4]), Some(i));
        }
        assert!(arena.full().is_none());
        assert!(!arena.has_room());
        assert_eq!(arena.push([0; 4]), None, "a ninth chunk does not fit");
        assert!(arena.full().is_none(), "until a refusal is noted");
        arena.refuse();
        assert!(!arena.take(1), "nothing is left for lists either");
        assert_eq!(arena[5 * CHUNK + 3], [(5 * CHUNK + 3) as u64; 4]);
        arena[7][1] = 99;
        assert_eq!(arena[7], [7, 99, 7, 7]);
        assert_eq!(
            arena.full(),
            Some(FullTree {
                nodes: 8 * CHUNK as u64,
                wanted: 8 * CHUNK as u64 + 1,
                megabytes: 1,
            })
        );
    }

    #[test]
    fn lists_share_the_budget_and_no_limit_means_the_default() {
        let mut arena: Arena<u8> = Arena::new(&Limits::default());
        assert_eq!(arena.budget, DEFAULT_TREE_MB << 20);
        assert!(arena.take((DEFAULT_TREE_MB << 20) - CHUNK));
        assert!(arena.has_room());
        assert_eq!(arena.push(1), Some(0), "one chunk of bytes still fits");
        assert!(!arena.take(1));
        assert!(arena.has_room(), "the chunk has room for more nodes");
        assert_eq!(arena.push(2), Some(1));
        assert!(arena.full().is_none());
    }
}
