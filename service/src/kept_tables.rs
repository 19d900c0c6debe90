//! Searchers kept between calls for the clients that name them
//! (`AnalyzeRequest.table`, `BestMoveRequest.table`): a client that plays a
//! game searches each of its positions with the same searcher, whose
//! transposition table still holds what the earlier searches found, as a
//! UCI engine keeps its table between `go` commands. Bounded: at most `max`
//! searchers, each dropped with its connection or after [`UNUSED_FOR`]
//! unused; a connection's new searcher may replace one of its own, never
//! another connection's (when the others fill the store it is not kept).
//! Each is taken out while it searches, so two calls never share one.

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
    /// The client's connection (`None` in process).
    pub connection: Option<u64>,
    /// The name the client chose.
    pub name: String,
    /// The game, variant, searcher and weights.
    pub setup: String,
}

impl TableKey {
    fn same_owner(&self, other: &TableKey) -> bool {
        self.connection == other.connection && self.name == other.name
    }
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
        let at = kept.iter().position(|k| k.key.same_owner(key))?;
        let found = kept.swap_remove(at);
        (found.key == *key).then_some(found.searcher)
    }

    /// Keeps `searcher` under `key` if there is room: a place that is free,
    /// or one held by the same connection (its least recently used). False
    /// when every place is another connection's: the searcher is dropped.
    pub fn put(&self, key: TableKey, searcher: Box<dyn Any + Send>) -> bool {
        if self.max == 0 {
            return false;
        }
        let mut kept = self.lock();
        let now = Instant::now();
        kept.retain(|k| !k.key.same_owner(&key) && now.duration_since(k.used) < UNUSED_FOR);
        if kept.len() >= self.max {
            let own = (0..kept.len())
                .filter(|&i| kept[i].key.connection == key.connection)
                .min_by_key(|&i| kept[i].used);
            match own {
                Some(i) => drop(kept.swap_remove(i)),
                None => return false,
            }
        }
        kept.push(Kept {
            key,
            searcher,
            used: now,
        });
        true
    }

    /// Drops every searcher kept for `connection` (it closed).
    pub fn drop_connection(&self, connection: u64) {
        // Dropped outside the lock: freeing a large table takes a while.
        let gone: Vec<Kept> = {
            let mut kept = self.lock();
            let (gone, stay) = std::mem::take(&mut *kept)
                .into_iter()
                .partition(|k| k.key.connection == Some(connection));
            *kept = stay;
            gone
        };
        drop(gone);
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

    fn key(connection: u64, name: &str, setup: &str) -> TableKey {
        TableKey {
            connection: Some(connection),
            name: name.into(),
            setup: setup.into(),
        }
    }

    #[test]
    fn a_kept_searcher_comes_back_only_to_its_owner_and_setup() {
        let tables = KeptTables::new(2);
        assert!(tables.put(key(1, "a", "tablut"), Box::new(1u32)));
        assert!(
            tables.take(&key(2, "a", "tablut")).is_none(),
            "another connection"
        );
        assert!(
            tables.take(&key(1, "b", "tablut")).is_none(),
            "another name"
        );
        let back = tables.take(&key(1, "a", "tablut")).expect("kept");
        assert_eq!(back.downcast_ref::<u32>(), Some(&1));
        assert!(
            tables.take(&key(1, "a", "tablut")).is_none(),
            "taken out while in use"
        );
        // The same name for another setup: the old searcher is dropped.
        assert!(tables.put(key(1, "a", "tablut"), Box::new(2u32)));
        assert!(tables.take(&key(1, "a", "tartan")).is_none());
        assert!(tables.is_empty());
    }

    #[test]
    fn a_connection_replaces_only_its_own_searchers_and_they_go_with_it() {
        let tables = KeptTables::new(2);
        assert!(tables.put(key(1, "a", "s"), Box::new(())));
        std::thread::sleep(Duration::from_millis(2));
        assert!(tables.put(key(1, "b", "s"), Box::new(())));
        // Full with connection 1's: connection 2 cannot take a place.
        assert!(!tables.put(key(2, "a", "s"), Box::new(())));
        assert_eq!(tables.len(), 2);
        // Connection 1's third name replaces its least recently used.
        assert!(tables.put(key(1, "c", "s"), Box::new(())));
        assert!(tables.take(&key(1, "a", "s")).is_none(), "the oldest went");
        assert!(tables.take(&key(1, "b", "s")).is_some());
        assert!(tables.put(key(2, "a", "s"), Box::new(())), "a free place");
        tables.drop_connection(1);
        assert_eq!(tables.len(), 1);
        assert!(tables.take(&key(2, "a", "s")).is_some());
        let none = KeptTables::new(0);
        assert!(!none.put(key(1, "a", "s"), Box::new(())));
        assert!(none.is_empty(), "0 keeps none");
    }
}
