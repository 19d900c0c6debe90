//! Move ordering for alpha-beta: the hash move first, then the moves the
//! evaluator hints at (captures), then killer moves, then the history heuristic.
//!
//! Moves are opaque to the searcher, so the history table is indexed by a hash
//! of the move (and the side to move) rather than by squares.

use std::hash::{Hash, Hasher};

use crate::Player;

/// Ordering key of the transposition table's move.
pub(crate) const TT_MOVE_SCORE: i32 = i32::MAX;
/// Ordering key of the first killer move (history scores stay below it).
const KILLER_SCORE: i32 = 1 << 30;

/// The ordering key of a move the evaluator hints at (see
/// [`crate::eval::Evaluator::move_hint`]): after the hash move, before killers.
pub(crate) fn hinted(hint: i32) -> i32 {
    KILLER_SCORE + 2 + hint.min(HISTORY_MAX)
}

/// Whether an ordering key is a quiet move's: neither the hash move, nor
/// hinted, nor a killer (only history orders it).
pub(crate) fn is_quiet(key: i32) -> bool {
    key < KILLER_SCORE - 1
}

/// History values are kept within ±this.
const HISTORY_MAX: i32 = 1 << 20;
/// Number of history cells per side.
const HISTORY_SIZE: usize = 1 << 14;

/// Two killer moves per ply: quiet refutations found at the same distance from the root.
pub(crate) struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Clone + PartialEq> Killers<M> {
    /// Killers for `plies` plies.
    pub(crate) fn new(plies: usize) -> Self {
        Killers {
            slots: (0..plies).map(|_| [None, None]).collect(),
        }
    }

    /// Forgets every killer.
    pub(crate) fn clear(&mut self) {
        for s in &mut self.slots {
            *s = [None, None];
        }
    }

    /// Records a move that caused a cutoff at `ply`.
    pub(crate) fn record(&mut self, ply: usize, mv: &M) {
        let slot = &mut self.slots[ply];
        if slot[0].as_ref() == Some(mv) {
            return;
        }
        let [first, second] = slot;
        std::mem::swap(first, second);
        match first {
            Some(old) => old.clone_from(mv),
            None => *first = Some(mv.clone()),
        }
    }

    /// The ordering bonus of `mv` at `ply` (0 if it is no killer).
    #[inline]
    pub(crate) fn bonus(&self, ply: usize, mv: &M) -> i32 {
        let slot = &self.slots[ply];
        if slot[0].as_ref() == Some(mv) {
            KILLER_SCORE
        } else if slot[1].as_ref() == Some(mv) {
            KILLER_SCORE - 1
        } else {
            0
        }
    }
}

/// The history heuristic: how often a move caused a cutoff, weighted by depth.
pub(crate) struct HistoryTable {
    table: Vec<i32>,
}

impl HistoryTable {
    /// An empty table.
    pub(crate) fn new() -> Self {
        HistoryTable {
            table: vec![0; 2 * HISTORY_SIZE],
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.table.fill(0);
    }

    #[inline]
    fn cell<M: Hash>(side: Player, mv: &M) -> usize {
        side.index() * HISTORY_SIZE + (move_key(mv) as usize & (HISTORY_SIZE - 1))
    }

    /// The ordering score of `mv` played by `side`.
    #[inline]
    pub(crate) fn score<M: Hash>(&self, side: Player, mv: &M) -> i32 {
        self.table[Self::cell(side, mv)]
    }

    /// Rewards (`good`) or penalises a move after a cutoff at `depth`.
    pub(crate) fn update<M: Hash>(&mut self, side: Player, mv: &M, depth: u32, good: bool) {
        let d = depth.min(32) as i32;
        let bonus = if good { d * d } else { -(d * d) };
        let cell = &mut self.table[Self::cell(side, mv)];
        // Gravity keeps values bounded and lets old knowledge fade.
        *cell += bonus - *cell * bonus.abs() / HISTORY_MAX;
        *cell = (*cell).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}

/// A 64-bit key of a move (the history table's hasher): cheap, to tell
/// moves apart before comparing them, to index a table, or to name a root
/// move to search ([`super::Limits::root_moves`]).
pub fn move_key<M: Hash>(mv: &M) -> u64 {
    let mut h = MoveHasher(0);
    mv.hash(&mut h);
    h.finish()
}

/// A small, fast, deterministic hasher for moves (FxHash style).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (h >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}
