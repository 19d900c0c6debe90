//! Alpha-beta against known theory and a plain minimax.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::games::{minimax, nim_value, outcome, root_values, Nim, TicTacToe, Toy};
use crate::eval::Evaluator;
use crate::search::alphabeta::{AlphaBeta, DEFAULT_TT_MB};
use crate::search::{Info, Limits, Score};
use crate::{Game, History, Played};

fn at_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// The search as shipped (late-move reductions on).
fn run<G: Game>(pos: &G, limits: &Limits) -> Info<G::Move>
where
    Toy: Evaluator<G>,
{
    let stop = AtomicBool::new(false);
    AlphaBeta::new(1, Toy).search(&Played::new(pos.clone()), limits, &stop, &mut |_| {})
}

/// The full-width search, whose fixed-depth values are minimax values.
fn run_full_width<G: Game>(pos: &G, limits: &Limits) -> Info<G::Move>
where
    Toy: Evaluator<G>,
{
    let stop = AtomicBool::new(false);
    AlphaBeta::new(1, Toy).without_reductions().search(
        &Played::new(pos.clone()),
        limits,
        &stop,
        &mut |_| {},
    )
}

/// A tic-tac-toe position after `plies` random moves (stopping early at a finished game).
fn random_tictactoe(seed: u64, plies: u32) -> TicTacToe {
    random_board(3, seed, plies)
}

/// A `size`×`size` three-in-a-row position after `plies` random moves
/// (stopping before the game ends).
fn random_board(size: usize, seed: u64, plies: u32) -> TicTacToe {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = TicTacToe::empty_board(size, 3);
    for _ in 0..plies {
        let mut moves = Vec::new();
        if History::new().turn(&pos, &mut moves).is_some() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let next = pos.play_unchecked(&mv);
        if outcome(&next).is_some() {
            break;
        }
        pos = next;
    }
    pos
}

/// Whether `moves` replay legally from `pos`.
fn replays<G: Game>(pos: &G, moves: &[G::Move]) -> bool {
    let mut cur = Played::new(pos.clone());
    for mv in moves {
        match cur.play(mv) {
            Ok(next) => cur = next,
            Err(_) => return false,
        }
    }
    true
}

#[test]
fn nim_best_move_and_exact_mate_distance() {
    for (max_take, heap, full_width) in (2..=4)
        .flat_map(|m| (1..=25).map(move |h| (m, h)))
        .flat_map(|(m, h)| [(m, h, true), (m, h, false)])
    {
        let pos = Nim::new(heap, max_take);
        let info = if full_width {
            run_full_width(&pos, &at_depth(60))
        } else {
            run(&pos, &at_depth(60))
        };
        let period = max_take + 1;
        let rounds = (heap / period) as i32;
        let expected = if heap % period != 0 {
            Score::Mate(2 * rounds + 1)
        } else {
            Score::Mate(-2 * rounds)
        };
        assert_eq!(info.score(), Some(expected), "heap {heap} max {max_take}");
        assert_eq!(Score::from_value(nim_value(heap, max_take)), expected);
        if heap % period != 0 {
            assert_eq!(info.best_move(), Some(&(heap % period)), "heap {heap}");
        }
        // Proven results stop the deepening at the mate distance (with
        // reductions, the shortest mate may be proven only deeper).
        let Some(Score::Mate(n)) = info.score() else {
            unreachable!()
        };
        if full_width {
            assert_eq!(info.depth, n.unsigned_abs(), "heap {heap} max {max_take}");
        } else {
            assert!(info.depth >= n.unsigned_abs(), "heap {heap} max {max_take}");
        }
        assert!(!info.stopped);
        let pv = &info.lines[0].moves;
        assert_eq!(pv.len() as u32, n.unsigned_abs(), "whole line to the end");
        assert!(replays(&pos, pv));
    }
}

#[test]
fn tictactoe_is_a_draw() {
    let info = run(&TicTacToe::empty(), &at_depth(9));
    assert_eq!(info.score(), Some(Score::Centi(0)));
    assert_eq!(info.depth, 9);
    assert_eq!(info.lines[0].moves.len(), 9, "the PV plays the game out");
    assert!(replays(&TicTacToe::empty(), &info.lines[0].moves));
}

#[test]
fn tictactoe_forced_win_in_three() {
    // X . O / . O . / . . X, X to move: X must block at 6, which forks 3 and 7.
    let pos = TicTacToe::parse("X.O.O...X");
    let info = run(&pos, &at_depth(9));
    assert_eq!(info.best_move(), Some(&6));
    assert_eq!(info.score(), Some(Score::Mate(3)));
    assert_eq!(info.depth, 3, "stops once the win is proven");
    let pv = &info.lines[0].moves;
    assert_eq!(pv.len(), 3);
    assert!(replays(&pos, pv));
    let end = pv.iter().fold(pos.clone(), |p, m| p.play_unchecked(m));
    assert_eq!(
        outcome(&end).map(|o| o.result),
        Some(crate::GameResult::Win(crate::Player::One))
    );
    // The loser's view after the fork.
    let after = pos.play_unchecked(&6);
    let info = run(&after, &at_depth(9));
    assert_eq!(info.score(), Some(Score::Mate(-2)));
}

#[test]
fn multipv_lines_match_minimax() {
    for seed in 0..12 {
        let pos = random_tictactoe(seed, (seed % 4) as u32);
        let depth = 4;
        let k = 3;
        let limits = Limits {
            depth: Some(depth),
            multipv: k,
            ..Limits::default()
        };
        let info = run_full_width(&pos, &limits);
        let reference = root_values(&pos, depth);
        assert_eq!(info.lines.len(), k.min(reference.len()));
        let firsts: Vec<u8> = info.lines.iter().map(|l| l.moves[0]).collect();
        let mut distinct = firsts.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), firsts.len(), "distinct moves");
        for (i, line) in info.lines.iter().enumerate() {
            let own = reference
                .iter()
                .find(|(m, _)| *m == line.moves[0])
                .unwrap()
                .1;
            assert_eq!(line.score, Score::from_value(own), "seed {seed} line {i}");
            assert_eq!(
                line.score,
                Score::from_value(reference[i].1),
                "seed {seed} rank {i}"
            );
            assert!(replays(&pos, &line.moves));
        }
    }
}

#[test]
fn node_limit_is_respected() {
    for limit in [0, 5, 50, 200, 1000] {
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let info = run(&TicTacToe::empty(), &limits);
        // Depth 1 (9 moves, each searched at most twice) always completes;
        // after it the budget is exact.
        assert!(
            info.nodes <= limit.max(18),
            "limit {limit}: {} nodes",
            info.nodes
        );
        assert!(info.stopped);
        assert!(info.depth >= 1);
        assert!(Played::new(TicTacToe::empty())
            .play(info.best_move().unwrap())
            .is_ok());
    }
}

#[test]
fn depth_limit_and_progress_per_depth() {
    let mut depths = Vec::new();
    let stop = AtomicBool::new(false);
    let info = AlphaBeta::new(DEFAULT_TT_MB, Toy).search(
        &Played::new(TicTacToe::empty()),
        &at_depth(5),
        &stop,
        &mut |i| depths.push(i.depth),
    );
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(info.depth, 5);
    assert!(info.seldepth <= 5 && info.seldepth >= 1);
    assert!(!info.stopped);
    assert!(info.nodes > 0);
}

#[test]
fn stop_flag_set_before_search_returns_a_legal_move() {
    let stop = AtomicBool::new(true);
    let info = AlphaBeta::new(1, Toy).search(
        &Played::new(TicTacToe::empty()),
        &Limits::default(),
        &stop,
        &mut |_| {},
    );
    assert!(info.stopped);
    assert_eq!(info.depth, 0);
    assert!(Played::new(TicTacToe::empty())
        .play(info.best_move().unwrap())
        .is_ok());
}

#[test]
fn unbounded_search_runs_until_stopped() {
    let stop = AtomicBool::new(false);
    let mut calls = 0;
    let info = AlphaBeta::new(1, Toy).without_reductions().search(
        &Played::new(TicTacToe::empty()),
        &Limits::default(),
        &stop,
        &mut |i| {
            calls += 1;
            if i.depth == 4 {
                stop.store(true, Ordering::Relaxed);
            }
        },
    );
    assert_eq!(calls, 4);
    assert_eq!(info.depth, 4);
    assert!(info.stopped);
    assert_eq!(
        info.score(),
        Some(Score::from_value(root_values(&TicTacToe::empty(), 4)[0].1))
    );
}

#[test]
fn periodic_reports_during_an_iteration() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(6),
        report_every: Some(Duration::ZERO),
        ..Limits::default()
    };
    let mut reports = Vec::new();
    let info =
        AlphaBeta::new(1, Toy).search(&Played::new(TicTacToe::empty()), &limits, &stop, &mut |i| {
            reports.push((i.depth, i.nodes, i.best_move().copied()))
        });
    assert!(reports.len() > 6, "only {} reports", reports.len());
    assert!(reports.windows(2).all(|w| w[0].1 <= w[1].1), "nodes grow");
    assert!(reports.iter().all(|r| r.0 <= 6 && r.2.is_some()));
    assert_eq!(info.depth, 6);
}

#[test]
fn finished_game_has_no_lines() {
    let pos = TicTacToe::parse("XXXOO....");
    let info = run(&pos, &at_depth(3));
    assert!(info.lines.is_empty());
    assert!(info.best_move().is_none());
}

#[test]
fn reused_searcher_keeps_exact_results() {
    let mut ab = AlphaBeta::<Nim, Toy>::new(1, Toy);
    let stop = AtomicBool::new(false);
    for heap in (1..=30).rev() {
        let pos = Nim::new(heap, 3);
        let info = ab.search(&Played::new(pos.clone()), &at_depth(64), &stop, &mut |_| {});
        assert_eq!(
            info.score(),
            Some(Score::from_value(nim_value(heap, 3))),
            "heap {heap}"
        );
    }
}

#[test]
fn interrupted_iteration_keeps_a_sound_result() {
    let pos = TicTacToe::parse("X....O..........");
    let mut replaced = 0;
    for limit in (40..880).step_by(29) {
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let mut last = None;
        let info = AlphaBeta::new(1, Toy).without_reductions().search(
            &Played::new(pos.clone()),
            &limits,
            &stop,
            &mut |i| last = Some(i.clone()),
        );
        let last = last.expect("depth 1 always completes");
        assert!(info.stopped);
        assert_eq!(info.depth, last.depth);
        if info.lines[0] == last.lines[0] {
            continue;
        }
        // Otherwise: a move searched in full at the next depth, at least as good
        // there as the previous best, with its exact score at that depth.
        let deeper = root_values(&pos, last.depth + 1);
        let value_of = |mv: &u8| deeper.iter().find(|(m, _)| m == mv).unwrap().1;
        let mv = info.best_move().unwrap();
        assert_eq!(
            info.score(),
            Some(Score::from_value(value_of(mv))),
            "limit {limit}"
        );
        assert!(
            value_of(mv) >= value_of(last.best_move().unwrap()),
            "limit {limit}"
        );
        replaced += 1;
    }
    assert!(
        replaced > 0,
        "some interrupted iteration found a better move"
    );
}

#[test]
fn stop_from_another_thread() {
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    let pos = TicTacToe::empty_board(4, 3);
    let (info, watchdog_fired) = std::thread::scope(|s| {
        let stop = &stop;
        let stopper = s.spawn(move || {
            // A watchdog, not a timing assertion: a broken search must fail, not hang.
            let fired = rx.recv_timeout(Duration::from_secs(120)).is_err();
            stop.store(true, Ordering::Relaxed);
            fired
        });
        let info = AlphaBeta::new(1, Toy).search(
            &Played::new(pos.clone()),
            &Limits::default(),
            stop,
            &mut |i| {
                if i.depth == 2 {
                    let _ = tx.send(());
                }
            },
        );
        drop(tx);
        (info, stopper.join().unwrap())
    });
    assert!(!watchdog_fired, "the search never reported depth 2");
    assert!(info.depth >= 2);
    assert!(Played::new(pos.clone())
        .play(info.best_move().unwrap())
        .is_ok());
}

#[test]
fn unbounded_search_waits_for_the_stop_flag_after_a_proof() {
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    let (info, was_set) = std::thread::scope(|s| {
        let stop = &stop;
        s.spawn(move || {
            let _ = rx.recv_timeout(Duration::from_secs(120));
            stop.store(true, Ordering::Relaxed);
        });
        let info = AlphaBeta::new(1, Toy).search(
            &Played::new(Nim::new(5, 3)),
            &Limits::default(),
            stop,
            &mut |i| {
                if matches!(i.score(), Some(Score::Mate(_))) {
                    let _ = tx.send(());
                }
            },
        );
        // Read before the scope joins the stopper thread.
        let was_set = stop.load(Ordering::Relaxed);
        drop(tx);
        (info, was_set)
    });
    assert!(was_set, "returned before the flag was set");
    assert_eq!(info.score(), Some(Score::Mate(3)));
    assert_eq!(info.depth, 3);
    assert!(!info.stopped, "the search itself was complete");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn fixed_depth_value_equals_minimax(seed in any::<u64>(), plies in 0u32..7, depth in 1u32..6) {
        let pos = random_tictactoe(seed, plies);
        let info = run_full_width(&pos, &at_depth(depth));
        let reference = root_values(&pos, depth);
        let best = info.best_move().copied().unwrap();
        let best_value = reference.iter().find(|(m, _)| *m == best).unwrap().1;
        prop_assert_eq!(info.score(), Some(Score::from_value(reference[0].1)));
        prop_assert_eq!(best_value, reference[0].1);
        prop_assert_eq!(minimax(&pos, depth, 0), reference[0].1);
    }

    #[test]
    fn bigger_board_multipv_equals_minimax(
        seed in any::<u64>(),
        plies in 2u32..9,
        depth in 1u32..4,
        k in 1usize..4,
    ) {
        let pos = random_board(4, seed, plies);
        let limits = Limits { depth: Some(depth), multipv: k, ..Limits::default() };
        let info = run_full_width(&pos, &limits);
        let reference = root_values(&pos, depth);
        prop_assert_eq!(info.lines.len(), k.min(reference.len()));
        for (i, line) in info.lines.iter().enumerate() {
            let own = reference.iter().find(|(m, _)| *m == line.moves[0]).unwrap().1;
            prop_assert_eq!(line.score, Score::from_value(own));
            prop_assert_eq!(line.score, Score::from_value(reference[i].1));
            prop_assert!(line.moves.len() as u32 <= depth);
            prop_assert!(replays(&pos, &line.moves));
        }
    }

    #[test]
    fn solved_nim_values_with_transpositions(heap in 1u32..45, max_take in 2u32..6) {
        let info = run(&Nim::new(heap, max_take), &at_depth(100));
        prop_assert_eq!(info.score(), Some(Score::from_value(nim_value(heap, max_take))));
    }
}

/// Searches on several threads share the table and still prove exact
/// results: Nim's values, the tic-tac-toe fork, the drawn empty board.
#[test]
fn parallel_search_keeps_exact_results() {
    for threads in [2, 3] {
        let limits = Limits {
            depth: Some(100),
            threads,
            ..Limits::default()
        };
        for heap in 1..30 {
            let pos = Nim::new(heap, 3);
            let info = run(&pos, &limits);
            assert_eq!(
                info.score(),
                Some(Score::from_value(nim_value(heap, 3))),
                "heap {heap}, {threads} threads"
            );
            assert!(replays(&pos, &info.lines[0].moves));
        }
        let fork = TicTacToe::parse("X.O.O...X");
        let info = run(&fork, &limits);
        assert_eq!(info.best_move(), Some(&6));
        assert_eq!(info.score(), Some(Score::Mate(3)));
        let info = run(
            &TicTacToe::empty(),
            &Limits {
                depth: Some(9),
                ..limits
            },
        );
        assert_eq!(info.score(), Some(Score::Centi(0)));
    }
}

/// A node budget bounds the nodes of all threads together (helpers report
/// theirs every 256 nodes), and the search ends with a legal move.
#[test]
fn parallel_search_keeps_the_node_budget() {
    // Four in a row on an empty 5x5 board: far from proven within the budget.
    let pos = TicTacToe::empty_board(5, 4);
    for limit in [2_000, 20_000] {
        let limits = Limits {
            nodes: Some(limit),
            threads: 2,
            ..Limits::default()
        };
        let info = run(&pos, &limits);
        assert!(info.stopped);
        assert!(info.nodes <= limit + 256, "{} nodes", info.nodes);
        assert!(Played::new(pos.clone())
            .play(info.best_move().unwrap())
            .is_ok());
    }
}

/// Late-move reductions search fewer nodes to the same depth than the full
/// width, and agree on the proven result of a solved position.
#[test]
fn reductions_shrink_the_tree() {
    let pos = TicTacToe::parse("X....O..........");
    let reduced = run(&pos, &at_depth(6));
    let full = run_full_width(&pos, &at_depth(6));
    assert!(
        reduced.nodes < full.nodes,
        "{} nodes with reductions, {} without",
        reduced.nodes,
        full.nodes
    );
    let fork = TicTacToe::parse("X.O.O...X");
    assert_eq!(
        run(&fork, &at_depth(9)).score(),
        run_full_width(&fork, &at_depth(9)).score()
    );
}

/// Multi-PV lines come out best first at every depth, and the best move is
/// the first line's, with the searcher as it plays (late-move reductions and
/// aspiration windows can make a later line's search find a better move
/// than an earlier line's): AlmaTafl's start, four lines, where the last
/// line once scored -188 after a first line of -191.
#[test]
fn multipv_lines_come_out_best_first_at_every_depth() {
    use crate::almatafl::{AlmaTafl, Evaluation, Variant};
    let start = Played::<AlmaTafl>::start(Variant::Standard, 0);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(5),
        multipv: 4,
        ..Limits::default()
    };
    let mut reports = Vec::new();
    let last = AlphaBeta::new(DEFAULT_TT_MB, Evaluation::default()).search(
        &start,
        &limits,
        &stop,
        &mut |i| reports.push(i.clone()),
    );
    reports.push(last);
    for info in &reports {
        assert_eq!(info.lines.len(), 4, "depth {}", info.depth);
        let values: Vec<f64> = info
            .lines
            .iter()
            .map(|l| l.score.win_probability())
            .collect();
        assert!(
            values.windows(2).all(|w| w[0] >= w[1]),
            "depth {}: {:?}",
            info.depth,
            info.lines.iter().map(|l| l.score).collect::<Vec<_>>()
        );
        assert_eq!(info.best_move(), info.lines[0].moves.first());
    }
}

/// `root_moves` (UCI's `searchmoves`) keeps the search to the moves named:
/// from a Nim heap of 5 (take 1 wins) restricted to taking 2 or 3, the
/// answer is one of them, scored as the loss it is; a key naming no legal
/// move leaves every move searched.
#[test]
fn the_root_is_restricted_to_the_moves_named() {
    use crate::search::move_key;
    let limits = |moves: &[u32]| Limits {
        root_moves: moves.iter().map(move_key).collect(),
        multipv: 3,
        ..at_depth(10)
    };
    let info = run(&Nim::new(5, 3), &limits(&[2, 3]));
    let firsts: Vec<u32> = info.lines.iter().map(|l| l.moves[0]).collect();
    assert_eq!(firsts.len(), 2, "{firsts:?}");
    assert!(firsts.iter().all(|m| [2, 3].contains(m)), "{firsts:?}");
    assert!(
        matches!(info.score(), Some(Score::Mate(n)) if n < 0),
        "{info:?}"
    );
    let all = run(&Nim::new(5, 3), &limits(&[9]));
    assert_eq!(
        all.best_move(),
        Some(&1),
        "no named move is legal: all searched"
    );
}
