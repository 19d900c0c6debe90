//! The transposition table on its own.

use crate::search::tt::{value_from_tt, value_to_tt, Bound, TranspositionTable, NO_MOVE};
use crate::search::MATE;

#[test]
fn mate_values_are_stored_relative_to_the_node() {
    // A win 7 plies from the root found at ply 3 is a win in 4 from that node.
    let stored = value_to_tt(MATE - 7, 3);
    assert_eq!(stored, MATE - 4);
    // Seen again at ply 5 it is a win 9 plies from the root.
    assert_eq!(value_from_tt(stored, 5), MATE - 9);
    assert_eq!(value_from_tt(value_to_tt(-(MATE - 6), 2), 4), -(MATE - 8));
    assert_eq!(value_from_tt(value_to_tt(123, 3), 9), 123);
}

#[test]
fn store_and_probe() {
    let mut tt = TranspositionTable::new(1);
    tt.new_search();
    assert!(tt.probe(42, 0).is_none());
    tt.store(42, 2, 5, Bound::Lower, MATE - 6, 3);
    let e = tt.probe(42, 4).unwrap();
    assert_eq!((e.depth, e.bound, e.mv), (5, Bound::Lower, 3));
    assert_eq!(e.value, MATE - 8);
    // A fail-low result keeps the known move.
    tt.store(42, 2, 6, Bound::Upper, -17, NO_MOVE);
    let e = tt.probe(42, 2).unwrap();
    assert_eq!((e.depth, e.bound, e.value, e.mv), (6, Bound::Upper, -17, 3));
    // Another key in a one-slot table replaces or is refused, never aliases.
    let mut small = TranspositionTable::new(0);
    small.store(1, 0, 3, Bound::Exact, 10, 0);
    assert!(small.probe(2, 0).is_none());
    small.store(2, 0, 1, Bound::Exact, 20, 1);
    assert_eq!(small.probe(2, 0).map(|e| e.value), Some(20));
    assert!(small.probe(1, 0).is_none());
    small.clear();
    assert!(small.probe(2, 0).is_none());
}
