//! The repetition history along a path of positions, for searchers, perft and
//! playouts: entering a child and leaving it again cost O(1) and allocate
//! nothing once the table has grown to the path's length, however long the
//! game before the path was.
//!
//! A [`History`] is a stack of the recorded positions' hashes (the game's
//! history, then the path) with a count per hash. A move that can never be
//! undone ([`Game::irreversible`], a capture) starts a new *epoch*: counts are
//! kept per epoch, so the positions before it no longer count, and leaving the
//! child restores the old epoch.

use std::ops::ControlFlow;

use rand::Rng;

use crate::game::{Game, Outcome};

/// The repetition history of the current node of a path (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<Entry>,
    counts: Counts,
    /// The current node's epoch.
    epoch: u32,
    /// Recorded entries in the current epoch.
    recorded: u32,
}

/// One position on the stack: its hash, and the state to restore when leaving
/// the node that recorded it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    recorded: bool,
    /// The epoch and recorded count of the node that pushed this entry.
    epoch: u32,
    recorded_before: u32,
}

/// Mixes an epoch into a hash (epoch 0 leaves it unchanged).
fn keyed(key: u64, epoch: u32) -> u64 {
    key ^ u64::from(epoch).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl History {
    /// An empty history.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empties the history, keeping its memory (cost: its length).
    pub fn clear(&mut self) {
        while !self.entries.is_empty() {
            self.leave();
        }
        self.epoch = 0;
        self.recorded = 0;
    }

    /// Empties the history and loads a game's recorded hashes since its last
    /// irreversible move, oldest first (as [`crate::Played::history`] holds them).
    pub fn load(&mut self, recorded: &[u64]) {
        self.clear();
        for &key in recorded {
            self.push(key, true);
        }
    }

    /// Entries on the stack (the loaded history and the path).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the stack is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn push(&mut self, key: u64, recorded: bool) {
        self.entries.push(Entry {
            key,
            recorded,
            epoch: self.epoch,
            recorded_before: self.recorded,
        });
        if recorded {
            self.counts.add(keyed(key, self.epoch));
            self.recorded += 1;
        }
    }

    /// Moves from `parent` (the current node) to `child`, reached by one of
    /// its moves: records `parent` if its rules say so (the hash of a
    /// position not recorded is not computed), and starts a new epoch after
    /// an irreversible move.
    pub fn enter<G: Game>(&mut self, parent: &G, child: &G) {
        let recorded = parent.recorded(self.recorded == 0);
        self.push(if recorded { parent.hash() } else { 0 }, recorded);
        if parent.irreversible(child) {
            self.epoch += 1;
            self.recorded = 0;
        }
    }

    /// Goes back to the parent of the current node (undoes the last [`History::enter`]).
    pub fn leave(&mut self) {
        if let Some(e) = self.entries.pop() {
            if e.recorded {
                self.counts.remove(keyed(e.key, e.epoch));
            }
            self.epoch = e.epoch;
            self.recorded = e.recorded_before;
        }
    }

    /// Leaves nodes until `len` entries are left.
    pub fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            self.leave();
        }
    }

    /// How often `pos` (the current node) occurred before, in this epoch.
    pub fn occurrences<G: Game>(&self, pos: &G) -> usize {
        self.counts.get(keyed(pos.hash(), self.epoch)) as usize
    }

    /// The end of the game at `pos` (the current node) by the position alone
    /// or by the repetition rule, without generating moves.
    pub fn settled<G: Game>(&self, pos: &G) -> Option<Outcome> {
        if let Some(o) = pos.decided() {
            return Some(o);
        }
        pos.repetition()?.ends(self.occurrences(pos))
    }

    /// The moves of `pos` (the current node) into `moves` (cleared first), or
    /// the end of the game: decided, drawn by repetition, or no legal move.
    /// One move generation at most.
    pub fn turn<G: Game>(&self, pos: &G, moves: &mut Vec<G::Move>) -> Option<Outcome> {
        moves.clear();
        if let Some(o) = self.settled(pos) {
            return Some(o);
        }
        let _ = pos.generate(|m| {
            moves.push(m);
            ControlFlow::Continue(())
        });
        moves.is_empty().then(|| pos.no_moves())
    }

    /// A uniformly random move of `pos` (the current node), or the end of the
    /// game there ([`Game::random_move`], `moves` its scratch space).
    pub fn random_turn<G: Game, R: Rng>(
        &self,
        pos: &G,
        rng: &mut R,
        moves: &mut Vec<G::Move>,
    ) -> Result<G::Move, Outcome> {
        if let Some(o) = self.settled(pos) {
            return Err(o);
        }
        pos.random_move(rng, moves).ok_or_else(|| pos.no_moves())
    }

    /// The end of the game at `pos` (the current node), if it is over; stops
    /// the move generation at the first move.
    pub fn outcome<G: Game>(&self, pos: &G) -> Option<Outcome> {
        if let Some(o) = self.settled(pos) {
            return Some(o);
        }
        let any = pos.generate(|_| ControlFlow::Break(())).is_break();
        (!any).then(|| pos.no_moves())
    }
}

/// Counts per hash: open addressing with linear probing; a slot with count 0
/// is free, and removing the last count shifts the following slots back so
/// that no tombstones build up.
#[derive(Clone, Debug, Default)]
struct Counts {
    slots: Vec<(u64, u32)>,
    used: usize,
}

impl Counts {
    fn home(&self, key: u64) -> usize {
        let mixed = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> 32) as usize & (self.slots.len() - 1)
    }

    /// The slot holding `key`, or the free slot where it would go.
    fn find(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, n) = self.slots[i];
            if n == 0 || k == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    fn get(&self, key: u64) -> u32 {
        if self.slots.is_empty() {
            return 0;
        }
        let (k, n) = self.slots[self.find(key)];
        if n > 0 && k == key {
            n
        } else {
            0
        }
    }

    fn add(&mut self, key: u64) {
        if (self.used + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let i = self.find(key);
        let slot = &mut self.slots[i];
        if slot.1 == 0 {
            *slot = (key, 1);
            self.used += 1;
        } else {
            slot.1 += 1;
        }
    }

    fn remove(&mut self, key: u64) {
        if self.slots.is_empty() {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.find(key);
        let slot = &mut self.slots[i];
        if slot.1 == 0 || slot.0 != key {
            return;
        }
        slot.1 -= 1;
        if slot.1 > 0 {
            return;
        }
        self.used -= 1;
        // Backward-shift deletion: move later entries of the probe run into the gap.
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let (k, n) = self.slots[j];
            if n == 0 {
                break;
            }
            let home = self.home(k);
            // The entry at j may move to i if its home is not cyclically in (i, j].
            let stays = if i <= j {
                i < home && home <= j
            } else {
                i < home || home <= j
            };
            if !stays {
                self.slots[i] = self.slots[j];
                self.slots[j] = (0, 0);
                i = j;
            }
        }
        self.slots[i] = (0, 0);
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
        for (k, n) in old {
            if n > 0 {
                let i = self.find(k);
                self.slots[i] = (k, n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table agrees with a plain map under random adds and removes,
    /// probe runs and backward shifts included (few distinct keys collide a lot).
    #[test]
    fn counts_agree_with_a_map() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut counts = Counts::default();
        let mut map = std::collections::HashMap::<u64, u32>::new();
        for _ in 0..20_000 {
            let key = rng.random_range(0..300u64) << 40;
            if rng.random_bool(0.55) {
                counts.add(key);
                *map.entry(key).or_default() += 1;
            } else if map.get(&key).is_some_and(|&n| n > 0) {
                counts.remove(key);
                *map.get_mut(&key).unwrap() -= 1;
            }
            let probe = rng.random_range(0..300u64) << 40;
            assert_eq!(counts.get(probe), map.get(&probe).copied().unwrap_or(0));
        }
        assert_eq!(counts.used, map.values().filter(|&&n| n > 0).count());
    }
}
