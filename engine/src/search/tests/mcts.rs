//! Monte Carlo tree search on the toy games.

use std::sync::atomic::AtomicBool;

use super::games::{Nim, TicTacToe, Toy};
use crate::eval::Evaluator;
use crate::search::mcts::Mcts;
use crate::search::{Info, Limits, Score, Searcher};
use crate::{PerfectInformation, Played};

fn run<G: PerfectInformation>(pos: &G, nodes: u64, seed: u64, multipv: usize) -> Info<G::Move>
where
    Toy: Evaluator<G>,
{
    let limits = Limits {
        nodes: Some(nodes),
        seed,
        multipv,
        ..Limits::default()
    };
    Mcts::new(Toy).search(
        &Played::new(pos.clone()),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

#[test]
fn finds_the_winning_nim_move() {
    for seed in 0..4 {
        for (heap, winning) in [(5, 1), (6, 2), (7, 3), (9, 1)] {
            let info = run(&Nim::new(heap, 3), 3000, seed, 1);
            assert_eq!(info.best_move(), Some(&winning), "seed {seed} heap {heap}");
            let Some(Score::Centi(cp)) = info.score() else {
                panic!("expected a centi score")
            };
            assert!(
                cp > 0,
                "heap {heap}: the winning move scores well, got {cp}"
            );
        }
    }
}

#[test]
fn finds_the_tictactoe_fork() {
    for seed in 0..4 {
        let info = run(&TicTacToe::parse("X.O.O...X"), 4000, seed, 1);
        assert_eq!(info.best_move(), Some(&6), "seed {seed}");
    }
}

#[test]
fn deterministic_for_a_seed_and_node_budget() {
    let pos = TicTacToe::empty();
    let a = run(&pos, 2000, 42, 3);
    let b = run(&pos, 2000, 42, 3);
    assert_eq!(a.lines, b.lines);
    assert_eq!(
        (a.nodes, a.depth, a.seldepth),
        (b.nodes, b.depth, b.seldepth)
    );
    assert_eq!(a.nodes, 2000);
    assert!(a.stopped);
    assert_eq!(a.lines.len(), 3);
    assert!(a.lines.windows(2).all(|w| w[0].visits >= w[1].visits));
    let total: u64 = a.lines.iter().map(|l| l.visits).sum();
    assert!(total <= 2000 && total > 0);
    let mut firsts: Vec<u8> = a.lines.iter().map(|l| l.moves[0]).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn stopped_before_any_playout_returns_the_first_legal_move() {
    let stop = AtomicBool::new(true);
    let root = Played::new(TicTacToe::empty());
    let info = Mcts::new(Toy).search(&root, &Limits::default(), &stop, &mut |_| {});
    assert_eq!(info.best_move(), Some(&0));
    assert_eq!(info.nodes, 0);
    assert!(info.stopped);
}

#[test]
fn finished_game_has_no_lines() {
    let info = run(&Nim::new(0, 3), 100, 0, 1);
    assert!(info.lines.is_empty());
}

#[test]
fn periodic_progress_reports() {
    let limits = Limits {
        nodes: Some(2000),
        report_every: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    let mut reports = Vec::new();
    let info = Mcts::new(Toy).search(
        &Played::new(TicTacToe::empty()),
        &limits,
        &AtomicBool::new(false),
        &mut |i| reports.push((i.nodes, i.lines.len())),
    );
    assert!(reports.len() >= 2000 / 256, "{} reports", reports.len());
    assert!(reports.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(reports.iter().all(|r| r.1 == 1));
    assert_eq!(info.nodes, 2000);
}

#[test]
fn the_tree_stops_growing_at_its_memory_limit_and_says_so() {
    let root = Played::new(TicTacToe::empty());
    let search = |table_mb| {
        let limits = Limits {
            nodes: Some(50_000),
            table_mb,
            ..Limits::default()
        };
        Mcts::new(Toy).search(&root, &limits, &AtomicBool::new(false), &mut |_| {})
    };
    // Tic-tac-toe's tree has about 550,000 nodes: 1 MB holds a few tens of
    // thousands; the default 16 MB holds every node of 50,000 iterations.
    let capped = search(1);
    let full = capped.full_tree.expect("1 MB fills");
    assert_eq!(full.megabytes, 1);
    assert!(
        full.nodes > 10_000 && full.nodes < 40_000,
        "{} nodes",
        full.nodes
    );
    assert!(
        full.wanted > full.nodes && full.wanted <= 50_001,
        "{full:?}: at most one node wanted per iteration, and the root"
    );
    assert_eq!(capped.nodes, 50_000, "iterations go on after the cap");
    assert!(capped.best_move().is_some());
    assert_eq!(search(0).full_tree, None);
}

#[test]
fn the_root_is_restricted_to_the_moves_named() {
    let limits = Limits {
        nodes: Some(3000),
        multipv: 9,
        root_moves: vec![crate::search::move_key(&5u8)],
        ..Limits::default()
    };
    // The fork position's winning move is 6; only 5 is allowed.
    let info = Mcts::new(Toy).search(
        &Played::new(TicTacToe::parse("X.O.O...X")),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let firsts: Vec<u8> = info.lines.iter().map(|l| l.moves[0]).collect();
    assert_eq!(firsts, [5]);
}
