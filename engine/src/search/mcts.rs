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
//! the stop flag apply as usual; `limits.depth` is not used. The tree takes at
//! most `limits.table_mb`; once full it stops growing, later
//! iterations refine it, and the report's `full_tree` says so. The report gives
//! the iteration count as `iterations` and `nodes`, the length of the
//! principal variation (the most visited line) as `depth`, the most visited
//! root moves as lines with their visit counts, and a score from the win rate.

use std::sync::atomic::AtomicBool;

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::arena::Arena;
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

/// One tree node: the position reached by `mv` from the parent. Its
/// children are a list through `first_child` and `next_sibling`, in the
/// order they were added; its unexpanded moves are not stored but drawn
/// again from its move generation ([`unexpanded_move`]), so that a node
/// takes the same few bytes however many moves its position has.
struct Node<M> {
    mv: Option<M>,
    /// Who played `mv` (the parent's side to move).
    mover: Player,
    /// The parent's index ([`NONE`] for the root).
    parent: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    /// Legal moves not yet expanded; [`NONE`] until the node is first visited.
    untried: u32,
    /// The seed of the random order in which its moves are expanded.
    order: u64,
    visits: u64,
    /// Sum of rewards (1 win, 0.5 draw, 0 loss) for `mover`.
    reward: f64,
}

/// No node (a root's parent, a missing child), or moves not yet listed.
const NONE: u32 = u32::MAX;

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Player, parent: u32) -> Self {
        Node {
            mv,
            mover,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            untried: NONE,
            order: 0,
            visits: 0,
            reward: 0.0,
        }
    }
}

/// The children of `node`, in the order they were added.
fn children<M>(tree: &Arena<Node<M>>, node: usize) -> impl Iterator<Item = usize> + '_ {
    let first = tree[node].first_child;
    std::iter::successors((first != NONE).then_some(first as usize), move |&c| {
        let next = tree[c].next_sibling;
        (next != NONE).then_some(next as usize)
    })
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
    let mut tree = Arena::new(limits);
    let mut buffer = Vec::new();
    let has_moves = tree
        .push(Node::new(None, pos.side_to_move().opponent(), NONE))
        .is_some()
        && root.outcome().is_none();
    let mut seldepth = 0;
    while has_moves && clock.tick() {
        path.truncate(base);
        let (leaf, reached, depth) =
            descend(pos, limits, &mut tree, &mut path, &mut rng, &mut buffer);
        seldepth = seldepth.max(depth);
        let white_reward = play_out(
            reached,
            evaluator,
            playout,
            &mut path,
            &mut rng,
            &mut buffer,
        );
        let mut node = leaf as u32;
        while node != NONE {
            let n = &mut tree[node as usize];
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
        limits.restrict_root(&mut first);
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

/// Selects down the tree by UCB1 and expands one node if the tree has room;
/// returns the new (or terminal, or unexpanded) node, its position and its
/// depth. `path` follows the walk; `buffer` is room to list moves in.
fn descend<G: Game>(
    root: &G,
    limits: &Limits,
    tree: &mut Arena<Node<G::Move>>,
    path: &mut History,
    rng: &mut ChaCha8Rng,
    buffer: &mut Vec<G::Move>,
) -> (usize, G, u32) {
    let mut node = 0;
    let mut pos = root.clone();
    let mut depth = 0;
    // The node this walk would have added, counted once however deep it goes.
    let mut refused = false;
    loop {
        if tree[node].untried == NONE {
            list_moves(&pos, path, node == 0, limits, buffer);
            tree[node].untried = buffer.len() as u32;
            tree[node].order = rng.next_u64();
        }
        if tree[node].untried > 0 {
            if tree.has_room() && tree.len() < NONE as usize {
                let mv = unexpanded_move(&pos, path, node == 0, limits, &tree[node], buffer);
                let id = tree
                    .push(Node::new(Some(mv), pos.side_to_move(), node as u32))
                    .expect("has_room said a node fits");
                let parent = &mut tree[node];
                parent.untried -= 1;
                let last = std::mem::replace(&mut parent.last_child, id as u32);
                if last == NONE {
                    parent.first_child = id as u32;
                } else {
                    tree[last as usize].next_sibling = id as u32;
                }
                let child = pos.play_unchecked(&mv);
                path.enter(&pos, &child);
                return (id, child, depth + 1);
            }
            if !std::mem::replace(&mut refused, true) {
                tree.refuse();
            }
        }
        let log_n = (tree[node].visits.max(1) as f64).ln();
        let mut best = None;
        let mut best_ucb = f64::NEG_INFINITY;
        for c in children(tree, node) {
            let child = &tree[c];
            let visits = child.visits.max(1) as f64;
            let ucb = child.reward / visits + EXPLORATION * (log_n / visits).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = Some(c);
            }
        }
        let Some(best) = best else {
            return (node, pos, depth);
        };
        let mv = tree[best].mv.as_ref().expect("non-root nodes have a move");
        let child = pos.play_unchecked(mv);
        path.enter(&pos, &child);
        pos = child;
        node = best;
        depth += 1;
    }
}

/// The moves of a node at `pos` into `buffer`: its legal moves, at the
/// root those `limits.root_moves` names.
fn list_moves<G: Game>(
    pos: &G,
    path: &History,
    root: bool,
    limits: &Limits,
    buffer: &mut Vec<G::Move>,
) {
    let _ = path.turn(pos, buffer);
    if root {
        limits.restrict_root(buffer);
    }
}

/// The next move of `node` (at `pos`) to expand: its moves listed again
/// into `buffer`, in the random order its seed fixes (a Fisher-Yates
/// shuffle from the end, run only as far as the moves expanded so far).
fn unexpanded_move<G: Game>(
    pos: &G,
    path: &History,
    root: bool,
    limits: &Limits,
    node: &Node<G::Move>,
    buffer: &mut Vec<G::Move>,
) -> G::Move {
    list_moves(pos, path, root, limits, buffer);
    let n = buffer.len();
    let next = node.untried as usize - 1;
    let mut order = ChaCha8Rng::seed_from_u64(node.order);
    for i in (next..n).rev() {
        let j = order.random_range(0..=i);
        buffer.swap(i, j);
    }
    buffer[next]
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
    tree: &Arena<Node<M>>,
    limits: &Limits,
    clock: &Clock<'_>,
    seldepth: u32,
) -> Info<M> {
    let mut roots: Vec<usize> = children(tree, 0).filter(|&c| tree[c].visits > 0).collect();
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
                match children(tree, node).max_by_key(|&k| tree[k].visits) {
                    Some(next) if tree[next].visits > 0 => node = next,
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
        full_tree: tree.full(),
    }
}
