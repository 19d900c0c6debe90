//! Single-observer information-set Monte Carlo tree search over what one
//! player knows ([`InformationSet`]), guided by a game's [`Policy`].
//!
//! Each iteration deals the unknown at random consistently with the root
//! ([`InformationSet::determinize`]), walks the shared tree choosing among the
//! policy's candidate moves legal in that deal (UCB with availability counts,
//! the policy's prior as progressive bias, progressive widening), expands one
//! move, plays at most [`ROLLOUT_PLIES`] of the policy's rollout moves and
//! scores the state reached with the policy's leaf value, or the result when
//! the game is over. Only the root is read, so two positions that look the
//! same to the viewer get the same answers; with a fixed `Limits::seed` and an
//! iteration budget (`Limits::nodes`) the search is deterministic. The tree
//! takes at most `Limits::table_mb`; once full it stops growing
//! and the report's `full_tree` says so.

use std::sync::atomic::AtomicBool;

use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::arena::Arena;
use super::clock::Clock;
use super::ordering::move_key;
use super::{Info, Limits, Line, Score, Searcher};
use crate::game::{Game, GameResult, Outcome, Player};
use crate::history::History;
use crate::information::InformationSet;

/// UCB exploration constant.
const EXPLORATION: f64 = 0.25;
/// Weight of the policy's prior (progressive bias).
const BIAS: f64 = 2.0;
/// Without `report_every`, progress is reported every this many iterations.
const REPORT_ITERATIONS: u64 = 1000;
/// Moves played by the rollout policy before the leaf value scores the state.
pub const ROLLOUT_PLIES: usize = 8;

/// A game's knowledge for the search: which moves to consider, how promising
/// each looks, how to play on quickly and how to score a state that is not over.
pub trait Policy<I: InformationSet>: Send + Sync {
    /// The viewer's moves the search considers at the root (a subset of its
    /// legal moves, never empty while it has one).
    fn root_candidates(&self, root: &I) -> Vec<I::Move>;

    /// The moves the search considers for the side to move of `state` (never
    /// empty while it has a legal move).
    fn candidates(&self, state: &I::State) -> Vec<I::Move>;

    /// A prior in 0..1 for each of `moves` in `state`, in order, appended to `out`.
    fn priors(&self, state: &I::State, moves: &[I::Move], out: &mut Vec<f64>);

    /// A move for the side to move of `state` in a rollout (none: it has no move).
    fn rollout_move(&self, state: &I::State, rng: &mut ChaCha8Rng) -> Option<I::Move>;

    /// `Player::One`'s winning chance (0..1) in `state`, which is not over.
    fn leaf_value(&self, state: &I::State) -> f64;
}

/// The searcher: information-set MCTS with policy `P`. It searches the
/// viewer's move within `limits` (iterations = `nodes`, or `movetime`, or
/// until `stop`); nothing when the other player is to move. A move that wins
/// at once is returned with `Score::Mate(1)`; otherwise lines carry the win
/// rate as `Score::Centi` and their visit counts.
#[derive(Clone, Debug, Default)]
pub struct Ismcts<P> {
    policy: P,
}

impl<P> Ismcts<P> {
    /// A searcher guided by `policy`.
    pub fn new(policy: P) -> Self {
        Ismcts { policy }
    }
}

impl<I: InformationSet, P: Policy<I>> Searcher<I> for Ismcts<P> {
    fn search(
        &mut self,
        root: &I,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<I::Move>),
    ) -> Info<I::Move> {
        if root.side_to_move() != root.viewer() {
            return Info::empty();
        }
        tree_search(root, &self.policy, limits, stop, progress).0
    }

    /// The first line's score is the mean of every playout from the side to
    /// move's view, and its visits their number: all the search's samples
    /// value the root, whoever is to move (the other side's moves are spread
    /// over the deals it may hold, so its best one alone is a thin sample).
    fn value(&mut self, root: &I, limits: &Limits, stop: &AtomicBool) -> Info<I::Move> {
        let (mut info, mean) = tree_search(root, &self.policy, limits, stop, &mut |_| {});
        if let (Some(line), Some(p)) = (info.lines.first_mut(), mean.value()) {
            if let Score::Centi(_) = line.score {
                line.score = Score::from_win_probability(p);
                line.visits = u64::from(mean.playouts);
            }
        }
        info
    }
}

/// The mean reward of a search's playouts, from the root's side to move's view.
#[derive(Clone, Copy, Debug, Default)]
struct Mean {
    sum: f64,
    playouts: u32,
}

impl Mean {
    fn value(self) -> Option<f64> {
        (self.playouts > 0).then(|| self.sum / f64::from(self.playouts))
    }
}

struct Node<M> {
    mv: Option<M>,
    /// The player who made `mv`.
    player: Player,
    /// Each child's node and the key of its move ([`move_key`]).
    children: Vec<(u64, usize)>,
    visits: u32,
    avail: u32,
    reward: f64,
    /// The policy's prior of `mv` (0..1), a progressive bias.
    prior: f64,
}

/// The search from the side to move's point of view, whoever that is (its
/// root moves are sampled with each deal when it is not the viewer), and the
/// mean of its playouts.
fn tree_search<I: InformationSet, P: Policy<I>>(
    root: &I,
    policy: &P,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info<I::Move>),
) -> (Info<I::Move>, Mean) {
    let mut clock = Clock::per_playout(limits, stop);
    let mut info = Info::empty();
    let mut mean = Mean::default();
    if root.outcome().is_some() {
        return (info, mean);
    }
    let me = root.side_to_move();
    let root_moves = if me != root.viewer() {
        Vec::new()
    } else if limits.root_moves.is_empty() {
        policy.root_candidates(root)
    } else {
        // The moves asked for, whether the policy would consider them or not.
        let mut moves = Vec::new();
        root.viewer_moves(&mut moves);
        limits.restrict_root(&mut moves);
        moves
    };
    let restricted = !limits.root_moves.is_empty() && !root_moves.is_empty();
    for mv in &root_moves {
        let after = root.clone().play(mv).map(|v| v.outcome());
        if let Ok(Some(Outcome {
            result: GameResult::Win(p),
            ..
        })) = after
        {
            if p == me {
                info.lines.push(Line {
                    score: Score::Mate(1),
                    moves: vec![*mv],
                    visits: 0,
                });
                info.elapsed = clock.elapsed();
                return (info, mean);
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(limits.seed);
    let mut tree = Arena::new(limits);
    let rooted = tree.push(Node {
        mv: None,
        player: me.opponent(),
        children: Vec::new(),
        visits: 0,
        avail: 0,
        reward: 0.0,
        prior: 0.0,
    });
    if rooted.is_none() {
        return (info, mean);
    }
    let mut history = History::new();
    let mut priors = Vec::new();
    while clock.tick() {
        let deal = root.determinize(&mut rng);
        history.load(deal.history());
        let mut s = deal.into_position();
        let mut node = 0usize;
        let mut path = vec![0usize];
        // Without a candidate (a side with no legal move) the walk is stuck.
        let mut stuck = false;
        let mut refused = false;
        // Selection and expansion.
        while history.settled(&s).is_none() {
            let cands = if restricted && node == 0 {
                root_moves.clone()
            } else {
                policy.candidates(&s)
            };
            let mut unexpanded = Vec::new();
            let mut avail = Vec::new();
            for m in &cands {
                let key = move_key(m);
                match tree[node]
                    .children
                    .iter()
                    .find(|&&(k, c)| k == key && tree[c].mv.as_ref() == Some(m))
                {
                    Some(&(_, c)) => {
                        tree[c].avail += 1;
                        avail.push(c);
                    }
                    None => unexpanded.push(*m),
                }
            }
            let mover = s.side_to_move();
            // Progressive widening: a node opens new moves as its visits grow.
            let widen = 2 + (1.5 * (tree[node].visits as f64).sqrt()) as usize;
            // After a refusal the walk adds nothing deeper: the tree is full.
            if !refused && !unexpanded.is_empty() && (avail.len() < widen || avail.is_empty()) {
                // Expand the most promising new move (ties at random).
                priors.clear();
                policy.priors(&s, &unexpanded, &mut priors);
                let (m, p) = unexpanded
                    .iter()
                    .zip(&priors)
                    .map(|(m, &p)| (*m, p + rng.random_range(0.0..0.01)))
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .expect("not empty");
                if let Some(id) = expand(&mut tree, node, m, mover, p) {
                    let child = s.play_unchecked(&m);
                    history.enter(&s, &child);
                    s = child;
                    path.push(id);
                    break;
                }
                // No room: on through the children it has, or a rollout
                // from here; the node this walk wanted counted once.
                refused = true;
                tree.refuse();
                if avail.is_empty() {
                    break;
                }
            }
            let Some(&c) = avail.iter().max_by(|&&a, &&b| {
                let ucb = |n: &Node<I::Move>| {
                    let v = n.visits.max(1) as f64;
                    n.reward / v
                        + EXPLORATION * ((n.avail.max(1) as f64).ln() / v).sqrt()
                        + BIAS * n.prior / (v + 1.0)
                };
                ucb(&tree[a]).total_cmp(&ucb(&tree[b]))
            }) else {
                stuck = cands.is_empty();
                break;
            };
            let m = tree[c].mv.expect("child nodes carry a move");
            let child = s.play_unchecked(&m);
            history.enter(&s, &child);
            s = child;
            node = c;
            path.push(c);
        }
        info.seldepth = info.seldepth.max(path.len() as u32 - 1);
        // Rollout.
        let mut steps = 0;
        while !stuck && history.settled(&s).is_none() && steps < ROLLOUT_PLIES {
            match policy.rollout_move(&s, &mut rng) {
                Some(m) => {
                    let child = s.play_unchecked(&m);
                    history.enter(&s, &child);
                    s = child;
                }
                None => stuck = true,
            }
            steps += 1;
        }
        let one = match history.settled(&s) {
            Some(o) => o.result.reward(Player::One),
            None if stuck => s.no_moves().result.reward(Player::One),
            None => policy.leaf_value(&s),
        };
        for &n in &path[1..] {
            tree[n].visits += 1;
            tree[n].reward += if tree[n].player == Player::One {
                one
            } else {
                1.0 - one
            };
        }
        tree[0].visits += 1;
        mean.sum += if me == Player::One { one } else { 1.0 - one };
        mean.playouts += 1;
        info.nodes = clock.nodes();
        info.iterations = clock.nodes();
        let due = match limits.report_every {
            Some(_) => clock.take_report_due(),
            None => clock.nodes().is_multiple_of(REPORT_ITERATIONS),
        };
        if due {
            clock.reported();
            fill_lines(&tree, limits.multipv, &mut info);
            info.depth = info.lines.first().map_or(0, |l| l.moves.len() as u32);
            info.elapsed = clock.elapsed();
            info.full_tree = tree.full();
            progress(&info);
        }
    }
    info.stopped = clock.stopped();
    info.nodes = clock.nodes();
    info.iterations = clock.nodes();
    info.full_tree = tree.full();
    fill_lines(&tree, limits.multipv, &mut info);
    if info.lines.is_empty() {
        if let Some(&m) = root_moves.first() {
            info.lines.push(Line {
                score: Score::Centi(0),
                moves: vec![m],
                visits: 0,
            });
        }
    }
    info.depth = info.lines.first().map_or(0, |l| l.moves.len() as u32);
    info.elapsed = clock.elapsed();
    (info, mean)
}

/// Adds the node of `m` (played by `player`, with prior `prior`) under
/// `parent` if the tree has room for it and its place among the parent's
/// children; its index.
fn expand<M: Copy + std::hash::Hash>(
    tree: &mut Arena<Node<M>>,
    parent: usize,
    m: M,
    player: Player,
    prior: f64,
) -> Option<usize> {
    if !tree.has_room() {
        return None;
    }
    let children = &tree[parent].children;
    let (len, capacity) = (children.len(), children.capacity());
    if len == capacity {
        let grown = (2 * capacity).max(4);
        if !tree.take((grown - capacity) * std::mem::size_of::<(u64, usize)>()) {
            return None;
        }
        tree[parent].children.reserve_exact(grown - len);
    }
    let id = tree.push(Node {
        mv: Some(m),
        player,
        children: Vec::new(),
        visits: 0,
        avail: 1,
        reward: 0.0,
        prior,
    })?;
    tree[parent].children.push((move_key(&m), id));
    Some(id)
}

fn fill_lines<M: Copy>(tree: &Arena<Node<M>>, multipv: usize, info: &mut Info<M>) {
    let mut kids: Vec<usize> = tree[0].children.iter().map(|&(_, c)| c).collect();
    kids.sort_by(|&a, &b| tree[b].visits.cmp(&tree[a].visits));
    info.lines = kids
        .iter()
        .take(multipv.max(1))
        .filter(|&&c| tree[c].visits > 0)
        .map(|&c| {
            let mut moves = vec![tree[c].mv.expect("child nodes carry a move")];
            let mut n = c;
            while moves.len() < 4 {
                let Some(&(_, next)) = tree[n]
                    .children
                    .iter()
                    .max_by_key(|&&(_, k)| tree[k].visits)
                else {
                    break;
                };
                if tree[next].visits == 0 {
                    break;
                }
                moves.push(tree[next].mv.expect("child nodes carry a move"));
                n = next;
            }
            Line {
                score: Score::from_win_probability(tree[c].reward / tree[c].visits as f64),
                moves,
                visits: tree[c].visits as u64,
            }
        })
        .collect();
}

/// The viewer's winning chance (0..1) by the same search (when the other
/// player is to move, from that player's best root move, its knowledge sampled).
pub fn evaluate<I: InformationSet, P: Policy<I>>(
    root: &I,
    policy: &P,
    limits: &Limits,
    stop: &AtomicBool,
) -> f64 {
    if let Some(o) = root.outcome() {
        return o.result.reward(root.viewer());
    }
    let (info, _) = tree_search(root, policy, limits, stop, &mut |_| {});
    let p = info.score().map_or(0.5, |s| s.win_probability());
    if root.side_to_move() == root.viewer() {
        p
    } else {
        1.0 - p
    }
}
