//! Searchers kept between calls for the clients that name them
//! (`AnalyzeRequest.table`, `BestMoveRequest.table`): a client that plays a
//! game searches each of its positions with the same searcher, whose
//! transposition table still holds what the earlier searches found, as a
//! UCI engine keeps its table between `go` commands. Bounded: at most `max`
//! searchers (the least recently used goes first), none unused for
//! [`UNUSED_FOR`]; each is taken out while it searches, so two calls never
//! share one.

use std::any::Any;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a kept searcher may go unused before it is dropped.
pub const UNUSED_FOR: Duration = Duration::from_secs(600);

/// Whose a kept searcher is and what it searches: a searcher is reused
/// only for the same owner (a connection and the name it chose) and the
/// same setup (game, variant, searcher and its weights).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableKey {
    /// The client's connection and the name it chose.
    pub owner: String,
    /// The game, variant, searcher and weights.
    pub setup: String,
}

struct Kept {
    key: TableKey,
    searcher: Box<dyn Any + Send>,
    used: Instant,
}

/// The kept searchers (any game's, type-erased: the game's adapter puts
/// and takes its own searcher type).
pub struct KeptTables {
    kept: Mutex<Vec<Kept>>,
    max: usize,
}

impl KeptTables {
    /// A store keeping at most `max` searchers (0: none).
    pub fn new(max: usize) -> Self {
        KeptTables {
            kept: Mutex::new(Vec::new()),
            max,
        }
    }

    /// Takes out the searcher kept under `key`, if any (a searcher kept by
    /// the same owner for another setup is dropped: the name now means this
    /// one).
    pub fn take(&self, key: &TableKey) -> Option<Box<dyn Any + Send>> {
        let mut kept = self.lock();
        let now = Instant::now();
        kept.retain(|k| now.duration_since(k.used) < UNUSED_FOR);
        let at = kept.iter().position(|k| k.key.owner == key.owner)?;
        let found = kept.swap_remove(at);
        (found.key == *key).then_some(found.searcher)
    }

    /// Keeps `searcher` under `key`, dropping the least recently used one
    /// when the store is full (and any searcher under the same owner).
    pub fn put(&self, key: TableKey, searcher: Box<dyn Any + Send>) {
        if self.max == 0 {
            return;
        }
        let mut kept = self.lock();
        kept.retain(|k| k.key.owner != key.owner);
        while kept.len() >= self.max {
            let oldest = (0..kept.len())
                .min_by_key(|&i| kept[i].used)
                .expect("a full store is not empty");
            kept.swap_remove(oldest);
        }
        kept.push(Kept {
            key,
            searcher,
            used: Instant::now(),
        });
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Kept>> {
        // A panic while holding the lock leaves a valid list.
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The number of searchers kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::fmt::Debug for KeptTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptTables")
            .field("kept", &self.len())
            .field("max", &self.max)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(owner: &str, setup: &str) -> TableKey {
        TableKey {
            owner: owner.into(),
            setup: setup.into(),
        }
    }

    #[test]
    fn a_kept_searcher_comes_back_only_to_its_owner_and_setup() {
        let tables = KeptTables::new(2);
        tables.put(key("a", "tablut"), Box::new(1u32));
        assert!(tables.take(&key("b", "tablut")).is_none(), "another owner");
        let back = tables.take(&key("a", "tablut")).expect("kept");
        assert_eq!(back.downcast_ref::<u32>(), Some(&1));
        assert!(
            tables.take(&key("a", "tablut")).is_none(),
            "taken out while in use"
        );
        // The same name for another setup: the old searcher is dropped.
        tables.put(key("a", "tablut"), Box::new(2u32));
        assert!(tables.take(&key("a", "tartan")).is_none());
        assert!(tables.is_empty());
    }

    #[test]
    fn the_store_is_bounded_and_drops_the_least_recently_used() {
        let tables = KeptTables::new(2);
        for owner in ["a", "b", "c"] {
            tables.put(key(owner, "s"), Box::new(()));
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(tables.len(), 2);
        assert!(tables.take(&key("a", "s")).is_none(), "the oldest went");
        assert!(tables.take(&key("c", "s")).is_some());
        let none = KeptTables::new(0);
        none.put(key("a", "s"), Box::new(()));
        assert!(none.is_empty(), "0 keeps none");
    }
}
