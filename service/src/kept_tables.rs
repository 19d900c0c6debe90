//! Searchers kept between calls for the clients that name them
//! (`AnalyzeRequest.table`, `BestMoveRequest.table`): a client that plays a
//! game searches each of its positions with the same searcher, whose
//! transposition table still holds what the earlier searches found, as a
//! UCI engine keeps its table between `go` commands.
//!
//! A [`KeptTables`] holds one game's searchers, typed (each game's adapter
//! owns its store); the stores share their [`Places`]: at most `max`
//! searchers over all games. Each is dropped with its connection or after
//! [`UNUSED_FOR`] unused; a connection's new searcher may replace one of its
//! own in the same store, never another connection's (when the others fill
//! the places it is not kept). Each is taken out while it searches, so two
//! calls never share one.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a kept searcher may go unused before it is dropped.
pub const UNUSED_FOR: Duration = Duration::from_secs(600);

/// Whose a kept searcher is and what it searches: a searcher is reused
/// only for the same owner (a connection and the name it chose) and the
/// same setup (variant, searcher and its weights).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableKey {
    /// The client's connection (`None` in process).
    pub connection: Option<u64>,
    /// The name the client chose.
    pub name: String,
    /// The variant, searcher and weights.
    pub setup: String,
}

impl TableKey {
    fn same_owner(&self, other: &TableKey) -> bool {
        self.connection == other.connection && self.name == other.name
    }
}

/// The places every store shares: at most `max` searchers kept at once.
#[derive(Debug)]
pub struct Places {
    max: usize,
    used: AtomicUsize,
}

impl Places {
    /// At most `max` searchers (0: none kept).
    pub fn new(max: usize) -> Arc<Places> {
        Arc::new(Places {
            max,
            used: AtomicUsize::new(0),
        })
    }

    /// The searchers kept, over every store.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }

    /// Takes a place if one is free.
    fn take(&self) -> bool {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .is_ok()
    }

    fn give_back(&self, n: usize) {
        self.used.fetch_sub(n, Ordering::SeqCst);
    }
}

struct Kept<S> {
    key: TableKey,
    searcher: S,
    used: Instant,
}

/// One game's kept searchers, of its searcher type `S`.
pub struct KeptTables<S> {
    kept: Mutex<Vec<Kept<S>>>,
    places: Arc<Places>,
}

impl<S> KeptTables<S> {
    /// An empty store taking its places from `places`.
    pub fn new(places: Arc<Places>) -> Self {
        KeptTables {
            kept: Mutex::new(Vec::new()),
            places,
        }
    }

    /// Takes out the searcher kept under `key`, if any (a searcher kept by
    /// the same owner for another setup is dropped: the name now means this
    /// one).
    pub fn take(&self, key: &TableKey) -> Option<S> {
        let mut kept = self.lock();
        let at = kept.iter().position(|k| k.key.same_owner(key))?;
        let found = kept.swap_remove(at);
        self.places.give_back(1);
        (found.key == *key).then_some(found.searcher)
    }

    /// Keeps `searcher` under `key` if there is room: a free place, or one
    /// held in this store by the same connection (its least recently used).
    /// False when every place is another connection's: the searcher is
    /// dropped.
    pub fn put(&self, key: TableKey, searcher: S) -> bool {
        let mut kept = self.lock();
        let now = Instant::now();
        let before = kept.len();
        kept.retain(|k| !k.key.same_owner(&key) && now.duration_since(k.used) < UNUSED_FOR);
        self.places.give_back(before - kept.len());
        if !self.places.take() {
            let own = (0..kept.len())
                .filter(|&i| kept[i].key.connection == key.connection)
                .min_by_key(|&i| kept[i].used);
            match own {
                // Its place goes to the new searcher.
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
        let gone: Vec<Kept<S>> = {
            let mut kept = self.lock();
            let (gone, stay): (Vec<_>, Vec<_>) = std::mem::take(&mut *kept)
                .into_iter()
                .partition(|k| k.key.connection == Some(connection));
            *kept = stay;
            gone
        };
        self.places.give_back(gone.len());
        drop(gone);
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Kept<S>>> {
        // A panic while holding the lock leaves a valid list.
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The number of searchers kept in this store.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether this store keeps none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<S> std::fmt::Debug for KeptTables<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptTables")
            .field("kept", &self.len())
            .field("places", &self.places)
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
        let tables = KeptTables::new(Places::new(2));
        assert!(tables.put(key(1, "a", "bga"), 1u32));
        assert!(
            tables.take(&key(2, "a", "bga")).is_none(),
            "another connection"
        );
        assert!(tables.take(&key(1, "b", "bga")).is_none(), "another name");
        assert_eq!(tables.take(&key(1, "a", "bga")), Some(1));
        assert!(
            tables.take(&key(1, "a", "bga")).is_none(),
            "taken out while in use"
        );
        // The same name for another setup: the old searcher is dropped.
        assert!(tables.put(key(1, "a", "bga"), 2));
        assert!(tables.take(&key(1, "a", "ashton")).is_none());
        assert!(tables.is_empty());
        assert_eq!(tables.places.used(), 0);
    }

    #[test]
    fn stores_share_their_places_and_a_connection_replaces_only_its_own() {
        let places = Places::new(2);
        let (one, other) = (
            KeptTables::new(places.clone()),
            KeptTables::new(places.clone()),
        );
        assert!(one.put(key(1, "a", "s"), ()));
        std::thread::sleep(Duration::from_millis(2));
        assert!(other.put(key(1, "b", "s"), ()));
        assert_eq!(places.used(), 2);
        // Full with connection 1's: connection 2 cannot take a place.
        assert!(!one.put(key(2, "a", "s"), ()));
        // Connection 1's third name replaces its own in the same store.
        assert!(one.put(key(1, "c", "s"), ()));
        assert!(one.take(&key(1, "a", "s")).is_none(), "replaced");
        assert_eq!(places.used(), 2);
        assert!(other.take(&key(1, "b", "s")).is_some());
        assert!(one.put(key(2, "a", "s"), ()), "a free place");
        one.drop_connection(1);
        assert_eq!((one.len(), places.used()), (1, 1));
        assert!(one.take(&key(2, "a", "s")).is_some());
        let none = KeptTables::new(Places::new(0));
        assert!(!none.put(key(1, "a", "s"), ()));
        assert!(none.is_empty(), "0 keeps none");
    }
}
