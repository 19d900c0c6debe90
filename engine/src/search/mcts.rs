//! Monte Carlo tree search (UCT) over any perfect-information [`Game`].
//!
//! Each iteration walks down the tree by UCB1, adds one new node, plays a
//! game from it to the end with a [`Playout`] policy (uniformly random by
//! default; or [`PLAYOUT_LIMIT`] plies, then scores the position with an
//! [`Evaluator`]) and backs the result up. Repetition draws
//! come from a [`History`] of the game and the path. Randomness comes
//! only from a ChaCha8 generator seeded with [`Limits::seed`], so a search with
//! a node budget and no time limit is deterministic.
//!
//! Budgets: `limits.nodes` counts iterations (playouts), `limits.movetime` and
//! the stop flag apply as usual; `limits.depth` is not used. The report gives
//! the iteration count as `iterations` and `nodes`, the length of the
//! principal variation (the most visited line) as `depth`, the most visited
//! root moves as lines with their visit counts, and a score from the win rate.

use std::sync::atomic::AtomicBool;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::clock::Clock;
use super::{Info, Limits, Line, Score, Searcher};
use crate::eval::Evaluator;
use crate::game::{Game, Outcome, PerfectInformation, Player};
use crate::history::History;
use crate::played::Played;

/// Playouts longer than this many plies are scored by static evaluation.
pub const PLAYOUT_LIMIT: u32 = 512;
/// The UCB1 exploration constant.
const EXPLORATION: f64 = std::f64::consts::SQRT_2;
/// The tree stops growing at this many nodes (iterations then only refine it).
const MAX_TREE_NODES: usize = 1 << 22;

/// One tree node: the position reached by `mv` from the parent.
struct Node<M> {
    mv: Option<M>,
    parent: usize,
    children: Vec<usize>,
    /// Legal moves not yet expanded (in random order); `None` until first visited.
    untried: Option<Vec<M>>,
    /// Who played `mv` (the parent's side to move).
    mover: Player,
    visits: u64,
    /// Sum of rewards (1 win, 0.5 draw, 0 loss) for `mover`.
    reward: f64,
}

/// How a playout picks the next move.
pub trait Playout<G: Game>: Send + Sync {
    /// The move to play from `pos`, or the end of the game there; `path` is
    /// the repetition history up to `pos`, `buffer` room to list moves in.
    fn next(
        &self,
        pos: &G,
        path: &History,
        buffer: &mut Vec<G::Move>,
        rng: &mut ChaCha8Rng,
    ) -> Result<G::Move, Outcome>;
}

/// Every legal move alike ([`History::random_turn`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> Playout<G> for Uniform {
    fn next(
        &self,
        pos: &G,
        path: &History,
        buffer: &mut Vec<G::Move>,
        rng: &mut ChaCha8Rng,
    ) -> Result<G::Move, Outcome> {
        path.random_turn(pos, rng, buffer)
    }
}

/// UCT with playouts by `P`, cut-off playouts scored by `E`.
#[derive(Clone, Debug, Default)]
pub struct Mcts<E, P = Uniform> {
    evaluator: E,
    playout: P,
}

impl<E> Mcts<E> {
    /// A searcher with uniformly random playouts, scoring those cut at
    /// [`PLAYOUT_LIMIT`] plies with `evaluator`.
    pub fn new(evaluator: E) -> Self {
        Mcts {
            evaluator,
            playout: Uniform,
        }
    }
}

impl<E, P> Mcts<E, P> {
    /// A searcher with playouts by `playout`.
    pub fn with_playout(evaluator: E, playout: P) -> Self {
        Mcts { evaluator, playout }
    }
}

impl<G: PerfectInformation, E: Evaluator<G>, P: Playout<G>> Searcher<Played<G>> for Mcts<E, P> {
    fn search(
        &mut self,
        root: &Played<G>,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<G::Move>),
    ) -> Info<G::Move> {
        search_with(root, &self.evaluator, &self.playout, limits, stop, progress)
    }
}

/// Searches `root` by UCT within `limits` until a budget is spent or `stop` is
/// set; calls `progress` at least every `limits.report_every` and returns the
/// final report. Stopped before any playout, it reports the first legal move.
fn search_with<G: Game, E: Evaluator<G>, P: Playout<G>>(
    root: &Played<G>,
    evaluator: &E,
    playout: &P,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info<G::Move>),
) -> Info<G::Move> {
    let pos = root.position();
    let mut path = root.walk();
    let base = path.len();
    let mut clock = Clock::per_playout(limits, stop);
    let mut rng = ChaCha8Rng::seed_from_u64(limits.seed);
    let mut tree = vec![Node {
        mv: None,
        parent: usize::MAX,
        children: Vec::new(),
        untried: None,
        mover: pos.side_to_move().opponent(),
        visits: 0,
        reward: 0.0,
    }];
    let mut buffer = Vec::new();
    let mut seldepth = 0;
    let has_moves = root.outcome().is_none();
    while has_moves && clock.tick() {
        path.truncate(base);
        let (leaf, reached, depth) = descend(pos, &mut tree, &mut path, &mut rng);
        seldepth = seldepth.max(depth);
        let white_reward = play_out(
            reached,
            evaluator,
            playout,
            &mut path,
            &mut rng,
            &mut buffer,
        );
        let mut node = leaf;
        while node != usize::MAX {
            let n = &mut tree[node];
            n.visits += 1;
            n.reward += match n.mover {
                Player::One => white_reward,
                Player::Two => 1.0 - white_reward,
            };
            node = n.parent;
        }
        if clock.take_report_due() {
            clock.reported();
            progress(&report(&tree, limits, &clock, seldepth));
        }
    }
    let mut info = report(&tree, limits, &clock, seldepth);
    if info.lines.is_empty() && has_moves {
        let mut first = Vec::new();
        root.legal_moves(&mut first);
        info.lines = first
            .first()
            .map(|&mv| Line {
                score: Score::Centi(evaluator.evaluate(pos)),
                moves: vec![mv],
                visits: 0,
            })
            .into_iter()
            .collect();
    }
    info
}

/// Selects down the tree by UCB1 and expands one node; returns the new (or
/// terminal) node, its position and its depth. `path` follows the walk.
fn descend<G: Game>(
    root: &G,
    tree: &mut Vec<Node<G::Move>>,
    path: &mut History,
    rng: &mut ChaCha8Rng,
) -> (usize, G, u32) {
    let mut node = 0;
    let mut pos = root.clone();
    let mut depth = 0;
    loop {
        if tree[node].untried.is_none() {
            let mut moves = Vec::new();
            let _ = path.turn(&pos, &mut moves);
            moves.shuffle(rng);
            tree[node].untried = Some(moves);
        }
        let room = tree.len() < MAX_TREE_NODES;
        if let Some(mv) = room
            .then(|| tree[node].untried.as_mut().and_then(Vec::pop))
            .flatten()
        {
            let child = pos.play_unchecked(&mv);
            path.enter(&pos, &child);
            let id = tree.len();
            tree.push(Node {
                mv: Some(mv),
                parent: node,
                children: Vec::new(),
                untried: None,
                mover: pos.side_to_move(),
                visits: 0,
                reward: 0.0,
            });
            tree[node].children.push(id);
            return (id, child, depth + 1);
        }
        if tree[node].children.is_empty() {
            return (node, pos, depth);
        }
        let log_n = (tree[node].visits.max(1) as f64).ln();
        let mut best = tree[node].children[0];
        let mut best_ucb = f64::NEG_INFINITY;
        for &c in &tree[node].children {
            let child = &tree[c];
            let visits = child.visits.max(1) as f64;
            let ucb = child.reward / visits + EXPLORATION * (log_n / visits).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = c;
            }
        }
        let mv = tree[best].mv.as_ref().expect("non-root nodes have a move");
        let child = pos.play_unchecked(mv);
        path.enter(&pos, &child);
        pos = child;
        node = best;
        depth += 1;
    }
}

/// Plays the policy's moves to the end; returns the reward of `Player::One`.
fn play_out<G: Game, E: Evaluator<G>, P: Playout<G>>(
    mut pos: G,
    evaluator: &E,
    playout: &P,
    path: &mut History,
    rng: &mut ChaCha8Rng,
    buffer: &mut Vec<G::Move>,
) -> f64 {
    for _ in 0..PLAYOUT_LIMIT {
        let mv = match playout.next(&pos, path, buffer, rng) {
            Ok(mv) => mv,
            Err(outcome) => return outcome.result.reward(Player::One),
        };
        let child = pos.play_unchecked(&mv);
        path.enter(&pos, &child);
        pos = child;
    }
    if let Some(outcome) = path.outcome(&pos) {
        return outcome.result.reward(Player::One);
    }
    let p = Score::Centi(evaluator.evaluate(&pos)).win_probability();
    match pos.side_to_move() {
        Player::One => p,
        Player::Two => 1.0 - p,
    }
}

/// The report: the most visited root moves (best first) with their lines.
fn report<M: Clone>(
    tree: &[Node<M>],
    limits: &Limits,
    clock: &Clock<'_>,
    seldepth: u32,
) -> Info<M> {
    let mut roots: Vec<usize> = tree[0]
        .children
        .iter()
        .copied()
        .filter(|&c| tree[c].visits > 0)
        .collect();
    roots.sort_by(|&a, &b| {
        tree[b]
            .visits
            .cmp(&tree[a].visits)
            .then(tree[b].reward.total_cmp(&tree[a].reward))
    });
    let lines: Vec<Line<M>> = roots
        .iter()
        .take(limits.multipv.max(1))
        .map(|&c| {
            let mut moves = Vec::new();
            let mut node = c;
            loop {
                moves.extend(tree[node].mv.clone());
                match tree[node].children.iter().max_by_key(|&&k| tree[k].visits) {
                    Some(&next) if tree[next].visits > 0 => node = next,
                    _ => break,
                }
            }
            let n = &tree[c];
            Line {
                score: Score::from_win_probability(n.reward / n.visits as f64),
                moves,
                visits: n.visits,
            }
        })
        .collect();
    Info {
        depth: lines.first().map_or(0, |l: &Line<M>| l.moves.len() as u32),
        seldepth,
        nodes: clock.nodes(),
        iterations: clock.nodes(),
        elapsed: clock.elapsed(),
        lines,
        stopped: clock.stopped(),
    }
}
