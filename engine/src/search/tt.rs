//! A fixed-size transposition table keyed by [`crate::Game::hash`].
//!
//! The threads of a parallel search share it without locks: a slot is two
//! atomic words, the entry packed into one and the key XOR that word in the
//! other, so that an entry torn by two threads writing at once no longer
//! matches its key and is ignored. Each entry stores the searched depth, the
//! kind of bound, the value (mate scores relative to the entry's node, see
//! [`value_to_tt`]) and the best move as its index in the position's move
//! generation order (move generation is deterministic, so the index names the
//! same move whenever the position recurs; a key collision can only make it
//! name another legal move or none, which is harmless).
//!
//! Graph-history caveat: positions carry their own history and report
//! repetition draws through `outcome()`, but the key covers only the board and
//! the side to move. A value stored for a position reached along one path can
//! be reused when the same position is reached along another path whose
//! history would make a different draw claim possible. This is the usual
//! compromise of every alpha-beta engine with a hash table: it can misjudge a
//! repetition draw near the horizon, never produce an illegal move.

use std::sync::atomic::{AtomicU64, Ordering};

use super::MATE_BOUND;

/// What an entry's value means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most the stored value (every move failed low).
    Upper,
    /// The true value is at least the stored value (a move failed high).
    Lower,
    /// The stored value is exact.
    Exact,
}

const BOUND_NONE: u8 = 0;
const BOUND_UPPER: u8 = 1;
const BOUND_LOWER: u8 = 2;
const BOUND_EXACT: u8 = 3;

/// No best move stored.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// An entry as stored: value, move, depth, and the bound in the low two
/// bits of `flags` (0: empty) with the search generation above.
#[derive(Clone, Copy, Debug)]
struct Packed {
    value: i32,
    mv: u16,
    depth: u8,
    flags: u8,
}

impl Packed {
    fn to_bits(self) -> u64 {
        u64::from(self.value as u32)
            | u64::from(self.mv) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.flags) << 56
    }

    fn from_bits(bits: u64) -> Packed {
        Packed {
            value: bits as u32 as i32,
            mv: (bits >> 32) as u16,
            depth: (bits >> 48) as u8,
            flags: (bits >> 56) as u8,
        }
    }
}

/// A probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Searched depth in plies.
    pub depth: u32,
    /// Kind of bound.
    pub bound: Bound,
    /// Value relative to the probing node (mate scores already adjusted by ply).
    pub value: i32,
    /// Index of the best move in generation order, or [`NO_MOVE`].
    pub mv: u16,
}

/// The table: one slot per index, replacement preferring deep and recent
/// entries; probed and written through `&self` by every thread of a search.
/// A slot is two words, the key XOR the packed entry, then the entry.
pub(crate) struct TranspositionTable {
    words: Box<[AtomicU64]>,
    generation: u8,
    /// The size asked for, in MB.
    megabytes: usize,
}

/// The bytes of one slot.
const SLOT_BYTES: usize = 16;

/// The bytes of a page of memory (the smallest the system maps).
const PAGE_BYTES: usize = 4096;

impl TranspositionTable {
    /// A table using about `megabytes` MB (at least one slot), or the
    /// largest half of it the system gives. Its memory comes zeroed from the
    /// system, and every page of it is touched here, before any search's
    /// clock starts: a search that faulted its pages in as it stored entries
    /// spent its time on the kernel zeroing them (4 GB: a 3 s search got to
    /// depth 3 instead of 8).
    pub(crate) fn new(megabytes: usize) -> Self {
        let mut slots = (megabytes.saturating_mul(1 << 20) / SLOT_BYTES).max(1);
        let words = loop {
            match bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(2 * slots) {
                Ok(words) => break words,
                Err(()) if slots > 1 => slots /= 2,
                Err(()) => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u64; 2]>()),
            }
        };
        // One word a page: the kernel maps and zeroes the page.
        for word in words.iter().step_by(PAGE_BYTES / 8) {
            word.store(0, Ordering::Relaxed);
        }
        TranspositionTable {
            words,
            generation: 0,
            megabytes,
        }
    }

    /// The size asked for at [`TranspositionTable::new`], in MB.
    pub(crate) fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Empties the table (a fresh one, the old freed first).
    pub(crate) fn clear(&mut self) {
        let megabytes = self.megabytes;
        self.words = Box::new([]);
        *self = TranspositionTable::new(megabytes);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    /// The slot of `key`: its check word and its data word.
    #[inline]
    fn slot(&self, key: u64) -> (&AtomicU64, &AtomicU64) {
        let slots = self.words.len() / 2;
        let i = ((key as u128 * slots as u128) >> 64) as usize;
        (&self.words[2 * i], &self.words[2 * i + 1])
    }

    /// The packed entry stored for `key`, if any.
    #[inline]
    fn load(&self, key: u64) -> Option<Packed> {
        let (check, data) = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        let check = check.load(Ordering::Relaxed);
        let packed = Packed::from_bits(data);
        (check ^ data == key && packed.flags & 3 != BOUND_NONE).then_some(packed)
    }

    /// The entry for `key`, if stored; `ply` is the probing node's distance from the root.
    #[inline]
    pub(crate) fn probe(&self, key: u64, ply: u32) -> Option<Entry> {
        let slot = self.load(key)?;
        let bound = match slot.flags & 3 {
            BOUND_UPPER => Bound::Upper,
            BOUND_LOWER => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Entry {
            depth: u32::from(slot.depth),
            bound,
            value: value_from_tt(slot.value, ply),
            mv: slot.mv,
        })
    }

    /// Stores a search result for `key` found at distance `ply` from the root.
    #[inline]
    pub(crate) fn store(&self, key: u64, ply: u32, depth: u32, bound: Bound, value: i32, mv: u16) {
        let generation = self.generation;
        let (check, slot) = self.slot(key);
        let data = slot.load(Ordering::Relaxed);
        let old = Packed::from_bits(data);
        let empty = old.flags & 3 == BOUND_NONE;
        let same = !empty && check.load(Ordering::Relaxed) ^ data == key;
        let stale = old.flags >> 2 != generation;
        let depth = depth.min(u32::from(u8::MAX)) as u8;
        if !(empty || stale || same || depth >= old.depth || bound == Bound::Exact) {
            return;
        }
        // Keep a known best move when the new result (a fail-low) has none.
        let mv = if mv == NO_MOVE && same { old.mv } else { mv };
        let bound_bits = match bound {
            Bound::Upper => BOUND_UPPER,
            Bound::Lower => BOUND_LOWER,
            Bound::Exact => BOUND_EXACT,
        };
        let data = Packed {
            value: value_to_tt(value, ply),
            mv,
            depth,
            flags: (generation << 2) | bound_bits,
        }
        .to_bits();
        slot.store(data, Ordering::Relaxed);
        check.store(key ^ data, Ordering::Relaxed);
    }
}

/// A value to store: mate scores become relative to the storing node.
#[inline]
pub(crate) fn value_to_tt(value: i32, ply: u32) -> i32 {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

/// A stored value seen from a node `ply` plies from the root.
#[inline]
pub(crate) fn value_from_tt(value: i32, ply: u32) -> i32 {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}
