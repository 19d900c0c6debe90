//! A fixed-size transposition table keyed by [`crate::Game::hash`].
//!
//! Each entry stores the full 64-bit key, the searched depth, the kind of
//! bound, the value (mate scores relative to the entry's node, see
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

/// One 16-byte slot.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    value: i32,
    mv: u16,
    depth: u8,
    /// Bound in the low two bits (0: empty), the search generation above.
    flags: u8,
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

/// The table: one slot per index, replacement preferring deep and recent entries.
pub(crate) struct TranspositionTable {
    slots: Vec<Slot>,
    generation: u8,
}

impl TranspositionTable {
    /// A table using about `megabytes` MB (at least one slot).
    pub(crate) fn new(megabytes: usize) -> Self {
        let count = (megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Slot>()).max(1);
        TranspositionTable {
            slots: vec![Slot::default(); count],
            generation: 0,
        }
    }

    /// Empties the table.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored; `ply` is the probing node's distance from the root.
    #[inline]
    pub(crate) fn probe(&self, key: u64, ply: u32) -> Option<Entry> {
        let slot = &self.slots[self.index(key)];
        let bound = match slot.flags & 3 {
            BOUND_UPPER => Bound::Upper,
            BOUND_LOWER => Bound::Lower,
            BOUND_EXACT => Bound::Exact,
            _ => return None,
        };
        if slot.key != key {
            return None;
        }
        Some(Entry {
            depth: u32::from(slot.depth),
            bound,
            value: value_from_tt(slot.value, ply),
            mv: slot.mv,
        })
    }

    /// Stores a search result for `key` found at distance `ply` from the root.
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: u32,
        bound: Bound,
        value: i32,
        mv: u16,
    ) {
        let generation = self.generation;
        let index = self.index(key);
        let slot = &mut self.slots[index];
        let depth = depth.min(u32::from(u8::MAX)) as u8;
        let empty = slot.flags & 3 == BOUND_NONE;
        let same = slot.key == key && !empty;
        let stale = slot.flags >> 2 != generation;
        if !(empty || stale || same || depth >= slot.depth || bound == Bound::Exact) {
            return;
        }
        // Keep a known best move when the new result (a fail-low) has none.
        let mv = if mv == NO_MOVE && same { slot.mv } else { mv };
        let bound_bits = match bound {
            Bound::Upper => BOUND_UPPER,
            Bound::Lower => BOUND_LOWER,
            Bound::Exact => BOUND_EXACT,
        };
        *slot = Slot {
            key,
            value: value_to_tt(value, ply),
            mv,
            depth,
            flags: (generation << 2) | bound_bits,
        };
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
