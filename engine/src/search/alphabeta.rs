//! Iterative-deepening alpha-beta (negamax with principal variation search)
//! over any perfect-information [`Game`], scoring leaves with an [`Evaluator`].
//!
//! - A transposition table keyed by [`Game::hash`] (`search/tt.rs`); cutoffs from it
//!   are taken only at non-PV nodes, so principal variations stay whole.
//! - Move ordering: hash move, the evaluator's urgent moves (captures),
//!   two killer moves per ply, history heuristic (`search/ordering.rs`).
//! - At the horizon, a quiescence search: the static value, or what the
//!   moves the evaluator hints at (captures) give if better, followed up to
//!   [`QUIESCENCE_PLIES`] plies (evaluators without hints: the static value
//!   alone). The side to move stands pat unless the
//!   evaluator says it must answer a threat ([`Evaluator::must_answer`]: in
//!   tafl, the king's open line to an escape); then only its answers count.
//! - Late-move reductions: at depth 3 and more, the quiet moves (no hash
//!   move, hint or killer) from the fourth on are searched a ply shallower
//!   (two plies from the thirteenth at depth 6 and more) with a null window,
//!   and again at full depth if they beat alpha; never when the side to move
//!   must answer a threat or the move makes one ([`Evaluator::must_answer`]).
//!   A proven mate is real, but a shorter one may be found only deeper.
//! - Mate-distance pruning; no null-move pruning (tafl endgames are
//!   zugzwang-prone). [`AlphaBeta::without_reductions`] searches full width:
//!   then on one thread, with an evaluator without move hints, a fixed-depth
//!   result equals the minimax value whenever transpositions occur at equal
//!   depth.
//! - Multi-PV as in Stockfish: the root moves are searched once per requested
//!   line, over the moves not yet reported, with an aspiration window around
//!   the previous iteration's score that widens until the value is exact;
//!   after each line the lines found so far are sorted again (a later line's
//!   search may find a move better than an earlier line's), so that reports
//!   list their lines best first and the best move is the first line's.
//! - Values use the `MATE - ply` encoding of [`super::MATE`]; a finished game
//!   is valued by its outcome (draws are 0).
//!
//! Repetition draws come from a [`History`] of the game and the path, checked
//! before the table is probed. One move generation per node: the moves and
//! "no legal move" come from the same pass ([`History::turn`]). The usual
//! graph-history caveat applies: the hash covers the board and the side to
//! move, not the history, so a value stored for a position
//! reached along one path may be reused along another path where a
//! repetition draw was (or was not) available deeper down. This can misjudge
//! such draws near the horizon; it never produces an illegal move.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::clock::Clock;
use super::ordering::{hinted, is_quiet, HistoryTable, Killers, TT_MOVE_SCORE};
use super::tt::{Bound, TranspositionTable, NO_MOVE};
use super::{Info, Limits, Line, Score, Searcher, MATE, MATE_BOUND};
use crate::eval::Evaluator;
use crate::game::{Game, GameResult, Outcome, PerfectInformation, Player};
use crate::history::History;
use crate::played::Played;

/// The default transposition table size of an [`AlphaBeta`], in MB.
pub const DEFAULT_TT_MB: usize = 16;
/// The most threads one search runs on (more asked: this many).
pub const MAX_THREADS: usize = 256;
/// The deepest nominal depth searched.
pub const MAX_DEPTH: u32 = 128;
/// Beyond every reachable value.
const INF: i32 = MATE + 1;
/// Heuristic evaluations are kept strictly inside the mate range.
const EVAL_BOUND: i32 = MATE_BOUND - 1;
/// How many plies of hinted moves (captures) the horizon follows.
pub const QUIESCENCE_PLIES: u32 = 4;
/// Moves of a node picked best-first one at a time before the rest is sorted.
const PICKED_ONE_BY_ONE: usize = 3;
/// Late-move reductions: quiet moves from this index on (0-based) are searched
/// one ply shallower at [`LMR_MIN_DEPTH`] and more...
const LMR_FIRST_MOVE: usize = 3;
const LMR_MIN_DEPTH: u32 = 3;
/// ...and two plies shallower from this index on at [`LMR_DEEPER_DEPTH`] and more.
const LMR_DEEPER_MOVE: usize = 12;
const LMR_DEEPER_DEPTH: u32 = 6;

/// Aspiration windows are used from this depth on.
const ASPIRATION_MIN_DEPTH: u32 = 3;
/// Initial half-width of an aspiration window, in centi-units.
const ASPIRATION_DELTA: i32 = 30;
/// Beyond this half-width a failed aspiration search uses the full window.
const ASPIRATION_MAX_DELTA: i32 = 2000;

/// A reusable alpha-beta searcher: its transposition table survives between
/// searches (call [`AlphaBeta::clear`] for a fresh start, e.g. a new game).
///
/// With `limits.threads` above 1 the search is parallel ("lazy SMP"): helper
/// threads search the same root, half of them one ply deeper, sharing only
/// the transposition table; the main thread's iterations decide and report,
/// and the node counts add up. With one thread a search is deterministic.
pub struct AlphaBeta<G: Game, E> {
    evaluator: E,
    tt: TranspositionTable,
    main: Worker<G>,
    reductions: bool,
}

/// What one ply of the path keeps: its buffers, reused across the search
/// (taken out of the worker while the ply is searched, put back once).
struct Frame<M> {
    /// The node's moves.
    moves: Vec<M>,
    /// (ordering score, index into `moves`).
    order: Vec<(i32, usize)>,
    /// The best line found from the node (a row of the triangular PV table).
    pv: Vec<M>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            moves: Vec::new(),
            order: Vec::new(),
            pv: Vec::new(),
        }
    }
}

/// One thread's own search state: move ordering, the path and a frame per ply.
struct Worker<G: Game> {
    killers: Killers<G::Move>,
    history: HistoryTable,
    /// The repetition history of the game and the current path.
    path: History,
    /// One frame per ply from the root.
    frames: Vec<Frame<G::Move>>,
}

impl<G: Game> Worker<G> {
    fn new() -> Self {
        let plies = MAX_DEPTH as usize + 2;
        Worker {
            killers: Killers::new(plies),
            history: HistoryTable::new(),
            path: History::new(),
            frames: (0..plies).map(|_| Frame::default()).collect(),
        }
    }

    /// Ready for a search of `root`: its history loaded, killers and history forgotten.
    fn start(&mut self, root: &Played<G>) {
        self.path.load(root.history());
        self.killers.clear();
        self.history.clear();
    }
}

/// A worker searching with what the threads share.
struct Thread<'s, G: Game, E> {
    w: &'s mut Worker<G>,
    evaluator: &'s E,
    tt: &'s TranspositionTable,
    /// Late-move reductions on (see [`AlphaBeta::without_reductions`]).
    reductions: bool,
}

/// A root move and what the current iteration learned about it.
#[derive(Clone)]
struct RootMove<M> {
    mv: M,
    /// The exact value at the current depth, or `-INF` when unknown (failed low).
    value: i32,
    /// Principal variation starting with `mv`.
    pv: Vec<M>,
}

/// State of one thread's iterative deepening.
struct Run<'a, 'p, M> {
    clock: Clock<'a>,
    progress: &'p mut dyn FnMut(&Info<M>),
    seldepth: u32,
    /// The latest report (last completed iteration), resent on periodic reports.
    last: Info<M>,
}

impl<M: Clone> Run<'_, '_, M> {
    /// Sends the latest best-so-far report with current counters.
    fn report(&mut self) {
        self.clock.reported();
        if self.last.lines.is_empty() {
            return;
        }
        self.last.nodes = self.clock.nodes();
        self.last.elapsed = self.clock.elapsed();
        self.last.seldepth = self.last.seldepth.max(self.seldepth);
        (self.progress)(&self.last);
    }
}

impl<G: PerfectInformation, E: Evaluator<G>> Searcher<Played<G>> for AlphaBeta<G, E> {
    fn search(
        &mut self,
        root: &Played<G>,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<G::Move>),
    ) -> Info<G::Move> {
        AlphaBeta::search(self, root, limits, stop, progress)
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    /// A searcher with a transposition table of about `tt_megabytes` MB,
    /// scoring leaves with `evaluator`.
    pub fn new(tt_megabytes: usize, evaluator: E) -> Self {
        AlphaBeta {
            evaluator,
            tt: TranspositionTable::new(tt_megabytes),
            main: Worker::new(),
            reductions: true,
        }
    }

    /// The same searcher without late-move reductions: every move is searched
    /// to the full depth, so a fixed-depth value is the minimax value (slower;
    /// for tests and for checking a result).
    pub fn without_reductions(mut self) -> Self {
        self.reductions = false;
        self
    }

    /// Forgets everything learned (transposition table, killers, history).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.main.killers.clear();
        self.main.history.clear();
    }

    /// Searches `root` within `limits` until done or `stop` is set, on
    /// `limits.threads` threads (see [`AlphaBeta`]).
    ///
    /// Calls `progress` after each completed depth, and at least every
    /// `limits.report_every` with the best result so far; returns the final
    /// report. Depth 1 always completes unless the stop flag interrupts it
    /// (node and time budgets apply from depth 2). When a later iteration is
    /// interrupted, the result of the last completed one is kept, except that
    /// with a single PV a better move already searched in full at the new
    /// depth replaces it. When no root move has been searched at all, the
    /// first legal move is returned. The lines are empty only if there is no
    /// legal move. A depth limit of 0 counts as 1, and `multipv` is clamped
    /// to between 1 and the number of legal moves. With no limit at all, a
    /// search that finishes (a proven result or [`MAX_DEPTH`]) waits for the
    /// stop flag before returning; its report then has `stopped == false`.
    ///
    /// Reports never say [`Score::Draw`]: a draw scores `Centi(0)`, like a
    /// balanced evaluation.
    pub fn search(
        &mut self,
        root: &Played<G>,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<G::Move>),
    ) -> Info<G::Move> {
        if limits.table_mb > 0 && limits.table_mb != self.tt.megabytes() {
            // A new size empties the table, as UCI engines do for `Hash`.
            self.tt = TranspositionTable::new(limits.table_mb);
        }
        self.tt.new_search();
        self.main.start(root);
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        limits.restrict_root(&mut moves);
        let roots: Vec<RootMove<G::Move>> = moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                value: -INF,
                pv: Vec::new(),
            })
            .collect();
        let (evaluator, tt, reductions) = (&self.evaluator, &self.tt, self.reductions);
        let mut main = Thread {
            w: &mut self.main,
            evaluator,
            tt,
            reductions,
        };
        let threads = if roots.is_empty() {
            1
        } else {
            limits.threads.clamp(1, MAX_THREADS)
        };
        if threads == 1 {
            return main.deepen(root, roots, limits, Clock::new(limits, stop), progress);
        }
        let helpers_stop = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut report = std::thread::scope(|scope| {
            for index in 1..threads {
                let (roots, helpers_stop, nodes) = (roots.clone(), &helpers_stop, &nodes);
                scope.spawn(move || {
                    let mut worker = Worker::new();
                    worker.start(root);
                    let mut helper = Thread {
                        w: &mut worker,
                        evaluator,
                        tt,
                        reductions,
                    };
                    let budget = Limits {
                        nodes: limits.nodes,
                        ..Limits::default()
                    };
                    let clock = Clock::shared(&budget, helpers_stop, nodes);
                    let first = 1 + (index % 2) as u32;
                    helper.help(root.position(), roots, first, max_depth, clock);
                });
            }
            let clock = Clock::shared(limits, stop, &nodes);
            let report = main.deepen(root, roots, limits, clock, progress);
            helpers_stop.store(true, Ordering::Relaxed);
            report
        });
        // Every thread has added its last nodes.
        report.nodes = nodes.load(Ordering::Relaxed);
        report
    }
}

impl<G: Game, E: Evaluator<G>> Thread<'_, G, E> {
    /// The main thread's iterative deepening (see [`AlphaBeta::search`]).
    fn deepen(
        &mut self,
        root: &Played<G>,
        mut roots: Vec<RootMove<G::Move>>,
        limits: &Limits,
        clock: Clock<'_>,
        progress: &mut dyn FnMut(&Info<G::Move>),
    ) -> Info<G::Move> {
        let pos = root.position();
        let mut run = Run {
            clock,
            progress,
            seldepth: 0,
            last: Info::empty(),
        };
        let mut report = run.last.clone();
        if !roots.is_empty() {
            let multipv = limits.multipv.clamp(1, roots.len());
            let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
            for depth in 1..=max_depth {
                run.clock.set_enforce_budgets(depth > 1);
                match self.iterate(pos, &mut roots, depth, multipv, &mut run) {
                    Ok(()) => {
                        report.depth = depth;
                        report.lines = roots[..multipv]
                            .iter()
                            .map(|r| root_line(root, r))
                            .collect();
                        report.seldepth = run.seldepth;
                        report.nodes = run.clock.nodes();
                        report.elapsed = run.clock.elapsed();
                        run.last = report.clone();
                        run.clock.reported();
                        (run.progress)(&report);
                        if proven(&report.lines, depth) {
                            break;
                        }
                    }
                    Err(partial) => {
                        if let Some(line) = partial {
                            if multipv == 1 || report.lines.is_empty() {
                                report.lines = vec![root_line(root, &line)];
                            }
                        }
                        break;
                    }
                }
            }
            if report.lines.is_empty() {
                report.lines = vec![Line {
                    score: Score::Centi(self.leaf_value(pos)),
                    moves: vec![roots[0].mv],
                    visits: 0,
                }];
            }
        }
        report.stopped = run.clock.stopped();
        if Clock::unbounded(limits) && !report.stopped {
            while !run.clock.flag_set() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        run.clock.publish();
        report.seldepth = report.seldepth.max(run.seldepth);
        report.nodes = run.clock.nodes();
        report.elapsed = run.clock.elapsed();
        report
    }

    /// A helper thread's iterative deepening from `first` on: it only fills
    /// the shared table, until `stop` is set or `max_depth` is done.
    fn help(
        &mut self,
        pos: &G,
        mut roots: Vec<RootMove<G::Move>>,
        first: u32,
        max_depth: u32,
        clock: Clock<'_>,
    ) {
        let mut run = Run {
            clock,
            progress: &mut |_| {},
            seldepth: 0,
            last: Info::empty(),
        };
        for depth in first..=max_depth.max(first) {
            if self.iterate(pos, &mut roots, depth, 1, &mut run).is_err() {
                break;
            }
        }
        run.clock.publish();
    }

    /// One iteration at `depth`: fills the first `multipv` root moves with exact
    /// values, best first. On a stop, returns the best root move whose exact
    /// value at this depth is known from the first line's search, if any.
    ///
    /// From depth [`ASPIRATION_MIN_DEPTH`] each line is first searched in a
    /// narrow window around the previous iteration's score of that rank,
    /// widened on failure until the value falls strictly inside it.
    fn iterate(
        &mut self,
        pos: &G,
        roots: &mut [RootMove<G::Move>],
        depth: u32,
        multipv: usize,
        run: &mut Run<'_, '_, G::Move>,
    ) -> Result<(), Option<RootMove<G::Move>>> {
        if !run.clock.check_now() {
            return Err(None);
        }
        let previous: Vec<i32> = roots[..multipv].iter().map(|r| r.value).collect();
        for pv_idx in 0..multipv {
            let guess = previous[pv_idx];
            let mut delta = ASPIRATION_DELTA;
            let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && guess.abs() < EVAL_BOUND
            {
                (guess - delta, guess + delta)
            } else {
                (-INF, INF)
            };
            loop {
                let v = self
                    .root_pass(pos, roots, pv_idx, depth, alpha, beta, run)
                    .map_err(|partial| partial.filter(|_| pv_idx == 0))?;
                if v <= alpha && alpha > -INF {
                    alpha = (v - delta).max(-INF);
                } else if v >= beta && beta < INF {
                    beta = (v + delta).min(INF);
                } else {
                    break;
                }
                delta = delta.saturating_mul(4);
                if delta > ASPIRATION_MAX_DELTA {
                    (alpha, beta) = (-INF, INF);
                }
            }
            // Stable: moves that failed low keep their previous order.
            roots[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.value));
            // This line may have found a move better than an earlier line's.
            roots[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.value));
        }
        Ok(())
    }

    /// Searches the root moves from `first` on within `(alpha, beta)`; returns
    /// the best value found (a bound when outside the window). Moves whose value
    /// is exact get it (others get `-INF`); a move failing high is moved first.
    /// On a stop, returns the best move with an exact value.
    #[allow(clippy::too_many_arguments)]
    fn root_pass(
        &mut self,
        pos: &G,
        roots: &mut [RootMove<G::Move>],
        first: usize,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        run: &mut Run<'_, '_, G::Move>,
    ) -> Result<i32, Option<RootMove<G::Move>>> {
        for r in roots[first..].iter_mut() {
            r.value = -INF;
        }
        let mut best_value = -INF;
        let mut best_exact: Option<usize> = None;
        for i in first..roots.len() {
            let child = pos.play_unchecked(&roots[i].mv);
            self.w.path.enter(pos, &child);
            let v = self.child_value(&child, depth, 1, (alpha, beta), i == first, true, 0, run);
            self.w.path.leave();
            if run.clock.stopped() {
                return Err(best_exact.map(|b| RootMove {
                    pv: roots[b].pv.clone(),
                    ..roots[b]
                }));
            }
            best_value = best_value.max(v);
            if v >= beta {
                roots[first..=i].rotate_right(1);
                return Ok(v);
            }
            if v > alpha {
                alpha = v;
                best_exact = Some(i);
                let r = &mut roots[i];
                r.value = v;
                r.pv.clear();
                r.pv.push(r.mv);
                r.pv.extend(self.w.frames[1].pv.iter().cloned());
            }
        }
        Ok(best_value)
    }

    /// The value of `child`, a child of the node being searched at `ply - 1`
    /// within `window` (that node's alpha and beta) to `depth` (that node's
    /// depth), by principal variation search: the first move (`first`) with
    /// the full window; a later one with a null window, at `reduction` plies
    /// less (late-move reduction), searched again at full depth if it beats
    /// alpha, and with the full window in a PV node if it lands inside it.
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        child: &G,
        depth: u32,
        ply: u32,
        (alpha, beta): (i32, i32),
        first: bool,
        pv_node: bool,
        reduction: u32,
        run: &mut Run<'_, '_, G::Move>,
    ) -> i32 {
        if first {
            return -self.negamax(child, depth - 1, ply, -beta, -alpha, pv_node, run);
        }
        let null = (-alpha - 1, -alpha);
        let mut v = -self.negamax(
            child,
            depth - 1 - reduction,
            ply,
            null.0,
            null.1,
            false,
            run,
        );
        if reduction > 0 && v > alpha && !run.clock.stopped() {
            v = -self.negamax(child, depth - 1, ply, null.0, null.1, false, run);
        }
        if pv_node && v > alpha && v < beta && !run.clock.stopped() {
            v = -self.negamax(child, depth - 1, ply, -beta, -alpha, true, run);
        }
        v
    }

    /// Negamax value of `pos` from its side to move, `ply` plies from the root,
    /// searched `depth` plies deep within `(alpha, beta)`. Returns 0 once the
    /// search is stopped (callers check the clock).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        run: &mut Run<'_, '_, G::Move>,
    ) -> i32 {
        let p = ply as usize;
        self.w.frames[p].pv.clear();
        if !run.clock.tick() {
            return 0;
        }
        if run.clock.take_report_due() {
            run.report();
        }
        run.seldepth = run.seldepth.max(ply);
        if depth == 0 || ply >= MAX_DEPTH {
            return self.quiesce(pos, ply, alpha, beta, QUIESCENCE_PLIES, run);
        }
        let mut frame = std::mem::take(&mut self.w.frames[p]);
        let value = self.node(&mut frame, pos, depth, ply, alpha, beta, pv_node, run);
        self.w.frames[p] = frame;
        value
    }

    /// The body of [`Thread::negamax`] at an inner node, in the ply's frame.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        frame: &mut Frame<G::Move>,
        pos: &G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
        run: &mut Run<'_, '_, G::Move>,
    ) -> i32 {
        let p = ply as usize;
        let Frame { moves, order, pv } = frame;
        if let Some(outcome) = self.w.path.turn(pos, moves) {
            return terminal_value(outcome, pos.side_to_move(), ply);
        }
        // Mate-distance pruning: no result here beats a win next ply or a loss now.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let alpha_orig = alpha;
        let key = pos.hash();
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.probe(key, ply) {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if usable {
                    return e.value;
                }
            }
        }

        let side = pos.side_to_move();
        order.clear();
        for (i, mv) in moves.iter().enumerate() {
            let score = if i == usize::from(tt_move) {
                TT_MOVE_SCORE
            } else {
                match (
                    self.evaluator.move_hint(pos, mv),
                    self.w.killers.bonus(p, mv),
                ) {
                    (hint, _) if hint > 0 => hinted(hint),
                    (_, 0) => self.w.history.score(side, mv),
                    (_, k) => k,
                }
            };
            order.push((score, i));
        }
        // Highest score first, ties in generation order. Most nodes cut off
        // after a move or two: the first few are picked one by one, and the
        // rest sorted only when the search gets that far.
        let before = |a: &(i32, usize), b: &(i32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));

        // Reductions apply deep enough, and not when a threat must be answered.
        let may_reduce =
            self.reductions && depth >= LMR_MIN_DEPTH && !self.evaluator.must_answer(pos);
        let mut best = -INF;
        let mut best_idx = usize::MAX;
        for n in 0..order.len() {
            if n < PICKED_ONE_BY_ONE {
                let first = (n..order.len())
                    .min_by(|&i, &j| before(&order[i], &order[j]))
                    .unwrap_or(n);
                order.swap(n, first);
            } else if n == PICKED_ONE_BY_ONE {
                order[n..].sort_unstable_by(before);
            }
            let idx = order[n].1;
            let child = pos.play_unchecked(&moves[idx]);
            self.w.path.enter(pos, &child);
            let reduction = if may_reduce
                && n >= LMR_FIRST_MOVE
                && is_quiet(order[n].0)
                && !self.evaluator.must_answer(&child)
            {
                1 + u32::from(n >= LMR_DEEPER_MOVE && depth >= LMR_DEEPER_DEPTH)
            } else {
                0
            };
            let v = self.child_value(
                &child,
                depth,
                ply + 1,
                (alpha, beta),
                n == 0,
                pv_node,
                reduction,
                run,
            );
            self.w.path.leave();
            if run.clock.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_idx = idx;
                if v > alpha {
                    alpha = v;
                    if pv_node {
                        pv.clear();
                        pv.push(moves[idx]);
                        pv.extend(self.w.frames[p + 1].pv.iter().cloned());
                    }
                    if alpha >= beta {
                        if idx != usize::from(tt_move) {
                            self.w.killers.record(p, &moves[idx]);
                        }
                        self.w.history.update(side, &moves[idx], depth, true);
                        for &(_, tried) in &order[..n] {
                            self.w.history.update(side, &moves[tried], depth, false);
                        }
                        break;
                    }
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = match bound {
            Bound::Upper => NO_MOVE,
            _ => u16::try_from(best_idx).unwrap_or(NO_MOVE),
        };
        self.tt.store(key, ply, depth, bound, best, mv);
        best
    }
}

impl<G: Game, E: Evaluator<G>> Thread<'_, G, E> {
    /// The value of a position at the horizon: its outcome if the game is
    /// over, else the better of its static value ("standing pat") and what
    /// the moves the evaluator hints at (captures) give, followed `left`
    /// plies deep. A side that must answer a threat may not stand pat: the
    /// best of its hinted moves (or of all, if none is hinted) counts.
    fn quiesce(
        &mut self,
        pos: &G,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        left: u32,
        run: &mut Run<'_, '_, G::Move>,
    ) -> i32 {
        // The end of the game first (stopping at the first legal move); the
        // whole move list only once standing pat has not cut off.
        if let Some(outcome) = self.w.path.outcome(pos) {
            return terminal_value(outcome, pos.side_to_move(), ply);
        }
        let searched = E::HINTS && left > 0 && ply < MAX_DEPTH;
        // Standing pat is not allowed when the evaluator sees a threat that
        // must be answered: then only the answers (hinted moves) count.
        let threatened = searched && self.evaluator.must_answer(pos);
        let mut best = if threatened {
            -INF
        } else {
            self.leaf_value(pos)
        };
        if best >= beta || !searched {
            return best;
        }
        alpha = alpha.max(best);
        let p = ply as usize;
        let mut frame = std::mem::take(&mut self.w.frames[p]);
        let Frame { moves, order, .. } = &mut frame;
        moves.clear();
        order.clear();
        // The hinted moves, most urgent first; a threatened side with none
        // tries every move.
        self.evaluator.hinted_moves(pos, |mv, hint| {
            order.push((hint, moves.len()));
            moves.push(mv);
        });
        if order.is_empty() && threatened {
            let _ = pos.generate(|mv| {
                moves.push(mv);
                ControlFlow::Continue(())
            });
            order.extend((0..moves.len()).map(|i| (0, i)));
        }
        order.sort_by_key(|&(hint, _)| std::cmp::Reverse(hint));
        for &(_, i) in order.iter() {
            let mv = &moves[i];
            if !run.clock.tick() {
                break;
            }
            let child = pos.play_unchecked(mv);
            self.w.path.enter(pos, &child);
            let v = -self.quiesce(&child, ply + 1, -beta, -alpha, left - 1, run);
            self.w.path.leave();
            if run.clock.stopped() {
                break;
            }
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.w.frames[p] = frame;
        if run.clock.stopped() {
            0
        } else {
            best
        }
    }

    /// The evaluator's value of `pos`, kept inside the heuristic range.
    fn leaf_value(&self, pos: &G) -> i32 {
        self.evaluator.evaluate(pos).clamp(-EVAL_BOUND, EVAL_BOUND)
    }
}

/// The value of a finished game for `side` (to move), `ply` plies from the root.
fn terminal_value(outcome: Outcome, side: Player, ply: u32) -> i32 {
    match outcome.result {
        GameResult::Draw => 0,
        GameResult::Win(p) if p == side => MATE - ply as i32,
        GameResult::Win(_) => -(MATE - ply as i32),
    }
}

/// A root move's report line, its PV cut at the first move that does not replay legally.
fn root_line<G: Game>(pos: &Played<G>, root: &RootMove<G::Move>) -> Line<G::Move> {
    let mut moves = Vec::with_capacity(root.pv.len());
    let mut cur = pos.clone();
    for mv in &root.pv {
        match cur.play(mv) {
            Ok(next) => {
                moves.push(*mv);
                cur = next;
            }
            Err(_) => break,
        }
    }
    if moves.is_empty() {
        moves.push(root.mv);
    }
    Line {
        score: Score::from_value(root.value),
        moves,
        visits: 0,
    }
}

/// Whether every reported line is a forced result within `depth` plies, so
/// deeper iterations cannot change it.
fn proven<M>(lines: &[Line<M>], depth: u32) -> bool {
    lines
        .iter()
        .all(|l| matches!(l.score, Score::Mate(n) if n.unsigned_abs() <= depth))
}
