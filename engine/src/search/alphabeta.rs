//! Iterative-deepening alpha-beta (negamax) over any [`Game`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Info, Limits, Line, Score, MATE};
use crate::Game;

/// Searches `pos` within `limits` until done or `stop` is set; calls `progress`
/// after each completed depth and returns the final report.
pub fn search<G: Game>(
    pos: &G,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info<G::Move>),
) -> Info<G::Move> {
    let start = Instant::now();
    let mut nodes = 0u64;
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut report = Info {
        depth: 0,
        seldepth: 0,
        nodes: 0,
        elapsed: start.elapsed(),
        lines: Vec::new(),
        stopped: false,
    };
    if moves.is_empty() {
        return report;
    }
    let max_depth = limits.depth.unwrap_or(64).max(1);
    for depth in 1..=max_depth {
        let mut best: Option<(i32, G::Move)> = None;
        let mut alpha = -MATE - 1;
        let mut aborted = false;
        for mv in &moves {
            let child = pos.play_unchecked(mv);
            let v = match negamax(
                &child,
                depth - 1,
                1,
                -MATE - 1,
                -alpha,
                limits,
                stop,
                start,
                &mut nodes,
            ) {
                Some(v) => -v,
                None => {
                    aborted = true;
                    break;
                }
            };
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, mv.clone()));
                alpha = alpha.max(v);
            }
        }
        if aborted && depth > 1 {
            report.stopped = true;
            break;
        }
        if let Some((v, mv)) = best {
            report.depth = depth;
            report.seldepth = depth;
            report.lines = vec![Line {
                score: Score::from_value(v),
                moves: vec![mv],
                visits: 0,
            }];
        }
        report.nodes = nodes;
        report.elapsed = start.elapsed();
        if aborted {
            report.stopped = true;
            break;
        }
        progress(&report);
    }
    report.nodes = nodes;
    report.elapsed = start.elapsed();
    report
}

#[allow(clippy::too_many_arguments)]
fn negamax<G: Game>(
    pos: &G,
    depth: u32,
    ply: i32,
    mut alpha: i32,
    beta: i32,
    limits: &Limits,
    stop: &AtomicBool,
    start: Instant,
    nodes: &mut u64,
) -> Option<i32> {
    *nodes += 1;
    if stop.load(Ordering::Relaxed)
        || limits.nodes.is_some_and(|n| *nodes > n)
        || limits.movetime.is_some_and(|t| start.elapsed() >= t)
    {
        return None;
    }
    if let Some(outcome) = pos.outcome() {
        return Some(match outcome.result {
            crate::GameResult::Draw => 0,
            crate::GameResult::Win(p) if p == pos.side_to_move() => MATE - ply,
            crate::GameResult::Win(_) => -(MATE - ply),
        });
    }
    if depth == 0 {
        return Some(pos.evaluate());
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = -MATE - 1;
    for mv in &moves {
        let v = -negamax(
            &pos.play_unchecked(mv),
            depth - 1,
            ply + 1,
            -beta,
            -alpha,
            limits,
            stop,
            start,
            nodes,
        )?;
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}
