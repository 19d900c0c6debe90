//! The clock and the move-ordering tables on their own.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::clock::Clock;
use crate::search::ordering::{HistoryTable, Killers};
use crate::search::Limits;
use crate::Player;

#[test]
fn clock_counts_nodes_up_to_the_budget() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(3),
        ..Limits::default()
    };
    let mut clock = Clock::new(&limits, &stop);
    assert!(clock.tick() && clock.tick() && clock.tick());
    assert!(!clock.tick());
    assert!(clock.stopped());
    assert_eq!(clock.nodes(), 3);
    // Without budgets only the flag stops a clock.
    let mut clock = Clock::new(&limits, &stop);
    clock.set_enforce_budgets(false);
    for _ in 0..10 {
        assert!(clock.tick());
    }
    assert!(clock.check_now());
    stop.store(true, Ordering::Relaxed);
    assert!(!clock.tick());
    assert!(!clock.check_now());
    assert_eq!(clock.nodes(), 10);
    assert!(Clock::unbounded(&Limits::default()));
    assert!(!Clock::unbounded(&limits));
}

#[test]
fn killers_keep_the_two_latest_distinct_moves() {
    let mut k = Killers::new(4);
    assert_eq!(k.bonus(1, &7u8), 0);
    k.record(1, &7u8);
    k.record(1, &7u8);
    k.record(1, &9u8);
    assert!(k.bonus(1, &9) > k.bonus(1, &7));
    assert!(k.bonus(1, &7) > 0);
    assert_eq!(k.bonus(2, &9), 0, "killers are per ply");
    k.record(1, &3u8);
    assert_eq!(k.bonus(1, &7), 0, "the oldest is forgotten");
    k.clear();
    assert_eq!(k.bonus(1, &3), 0);
}

#[test]
fn history_rewards_cutoff_moves_per_side() {
    let mut h = HistoryTable::new();
    h.update(Player::One, &(2u8, 5u8), 4, true);
    assert!(h.score(Player::One, &(2u8, 5u8)) > 0);
    assert_eq!(h.score(Player::Two, &(2u8, 5u8)), 0);
    for _ in 0..10_000 {
        h.update(Player::One, &(2u8, 5u8), 30, true);
    }
    let top = h.score(Player::One, &(2u8, 5u8));
    assert!(top > 0 && top < 1 << 30, "bounded below killer scores");
    h.update(Player::One, &(2u8, 5u8), 30, false);
    assert!(h.score(Player::One, &(2u8, 5u8)) < top);
    h.clear();
    assert_eq!(h.score(Player::One, &(2u8, 5u8)), 0);
}
