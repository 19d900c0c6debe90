//! Single-observer Information-Set MCTS over a player's [`View`], and simple
//! reference players.
//!
//! Each iteration deals the unknown cards at random consistently with the
//! view ([`View::determinize`]), walks the shared tree choosing among the moves
//! legal in that deal (UCB with availability counts, a heuristic prior as
//! progressive bias, progressive widening), expands one move, plays at most
//! [`ROLLOUT_PLIES`] greedy-ish moves and scores the position reached with
//! a heuristic win chance (each open stone's chance from the formations both
//! sides can still reach, combined into a chance of five stones or three
//! adjacent; see `leaf`), or the result when the game is over. Only the view is
//! read, so two states that look the same to the viewer get the same answers;
//! with a fixed `Limits::seed` and an iteration budget (`Limits::nodes`) the
//! search is deterministic.
//!
//! Search moves always claim every stone they can (claiming never hurts: a
//! claimed stone is safe from ruses), and draw from the clan deck while it
//! has cards: a tactic card may only be played when not ahead in tactic cards
//! played, so a hand filling with them loses troops, and the heuristic cannot
//! see that (searching both draws lost most games to the greedy player in
//! `tactics`). Both are reductions of the move set, not of the rules.
//!
//! Strength is measured with the `st_match` example (release mode, seeded,
//! both seats): `cargo run --release -p caber-engine --example st_match --
//! --variant tactics --games 100 --iterations 2000`. At 1000 iterations
//! it won 69 (classic), 71 (tactics) and 93 (expert) of 100 games against the
//! greedy player, and 100 of 100 against the random one (at 150-300).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::board::{Board, Deck};
use super::cards::Card;
use super::formation::{max_strength, Pool};
use super::moves::{self, Action, Move};
use super::state::{FullState, View};
use super::Variant;
use crate::search::{Info, Limits, Line, Score};

mod leaf;
use crate::{Game, GameResult, Player};

/// UCB exploration constant.
const EXPLORATION: f64 = 0.4;
/// Weight of the heuristic prior (progressive bias).
const BIAS: f64 = 2.0;
/// Without `report_every`, progress is reported every this many iterations.
const REPORT_ITERATIONS: u64 = 1000;
/// Moves played by the rollout policy before the heuristic scores the position.
pub const ROLLOUT_PLIES: usize = 8;

/// The search's candidate moves: each action claiming all it can and
/// drawing from the clan deck while it has cards.
fn candidates(board: &Board, hand: &[Card], deck_len: [usize; 2]) -> Vec<Move> {
    let unseen = board.unseen_pool();
    let (pre, actions) = moves::claim_all_actions(board, hand, deck_len);
    actions
        .into_iter()
        .map(|action| moves::full_claim_move(board, &unseen, pre, action, deck_len, Deck::Clan))
        .collect()
}

fn full_candidates(s: &FullState) -> Vec<Move> {
    candidates(
        s.board(),
        &s.hand(s.board().to_move),
        [s.deck_len(Deck::Clan), s.deck_len(Deck::Tactic)],
    )
}

/// A random action claiming all it can, with a random draw choice.
fn random_move(
    board: &Board,
    hand: &[Card],
    deck_len: [usize; 2],
    rng: &mut impl Rng,
) -> Option<Move> {
    let (pre, acts) = moves::claim_all_actions(board, hand, deck_len);
    let action = *acts.choose(rng)?;
    let prefer = if rng.random::<bool>() {
        Deck::Clan
    } else {
        Deck::Tactic
    };
    Some(moves::full_claim_move(
        board,
        &board.unseen_pool(),
        pre,
        action,
        deck_len,
        prefer,
    ))
}

/// Troop-play evaluation for one position: the unseen pool and, per stone,
/// the opponent's best reachable strength.
struct Scorer<'a> {
    board: &'a Board,
    pool: Pool,
    theirs: [i64; 9],
}

impl<'a> Scorer<'a> {
    fn new(board: &'a Board) -> Self {
        let pool = board.unseen_pool();
        let opp = board.to_move.opponent();
        let theirs = std::array::from_fn(|i| {
            let st = &board.stones[i];
            if st.claimed.is_some() {
                return 0;
            }
            max_strength(&st.sides[opp.index()], st.required(), st.blind, &pool).unwrap_or(0) as i64
        });
        Scorer {
            board,
            pool,
            theirs,
        }
    }

    /// The best formation still reachable with `card` on `stone` (the card
    /// taken out of the unseen pool) and its margin over the opponent's best.
    fn play(&self, card: Card, stone: u8) -> (i64, i64) {
        let st = &self.board.stones[stone as usize];
        let mut side = [card; 4];
        let mine = &st.sides[self.board.to_move.index()];
        let k = mine.len().min(3);
        side[..k].copy_from_slice(&mine[..k]);
        let mut pool = self.pool;
        if card.is_clan() {
            pool.clan &= !(1u64 << card.id());
        }
        let pot = max_strength(&side[..k + 1], st.required(), st.blind, &pool).unwrap_or(0) as i64;
        (pot, (pot - self.theirs[stone as usize]).clamp(-64, 64))
    }

    /// A score for the rollout policy: reachable formation, margin, commitment.
    fn rollout_score(&self, card: Card, stone: u8) -> i64 {
        let (pot, margin) = self.play(card, stone);
        let len = self.board.stones[stone as usize].sides[self.board.to_move.index()].len() as i64;
        pot * 16 + margin * 8 + len - if card.is_clan() { 0 } else { 200 }
    }

    /// A prior in 0..1 for a search move: troop plays by the formation they
    /// keep reachable and their margin, a bonus per claim; other cards lower.
    fn prior(&self, mv: &Move) -> f64 {
        let base = match mv.action {
            Action::Play { card, stone } if card.is_troop() => {
                let (pot, margin) = self.play(card, stone);
                (pot as f64 / 300.0 + margin as f64 / 256.0).clamp(0.0, 1.0)
            }
            Action::Pass | Action::Discard { .. } | Action::Return { .. } => 0.5,
            _ => 0.3,
        };
        (base + 0.25 * mv.claims.count_ones() as f64).min(1.0)
    }
}

/// The rollout policy: mostly the troop play with the best score (other
/// cards only when no troop fits), sometimes a random action; claims
/// everything it can; draws mostly from the clan deck.
fn rollout_move(
    board: &Board,
    hand: &[Card],
    deck_len: [usize; 2],
    rng: &mut impl Rng,
) -> Option<Move> {
    let (pre, acts) = moves::claim_all_actions(board, hand, deck_len);
    let scorer = Scorer::new(board);
    let action = if rng.random_range(0..8) == 0 {
        *acts.choose(rng)?
    } else {
        let mut best: Option<(i64, Action)> = None;
        for &a in &acts {
            let score = match a {
                Action::Play { card, stone } if card.is_troop() => {
                    scorer.rollout_score(card, stone)
                }
                Action::Pass | Action::Discard { .. } | Action::Return { .. } => 0,
                _ => -1,
            } * 4
                + rng.random_range(0..4);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, a));
            }
        }
        best?.1
    };
    let prefer = if rng.random_range(0..4) == 0 {
        Deck::Tactic
    } else {
        Deck::Clan
    };
    Some(moves::full_claim_move(
        board,
        &scorer.pool,
        pre,
        action,
        deck_len,
        prefer,
    ))
}

fn view_decks(view: &View) -> [usize; 2] {
    [view.deck_len[0] as usize, view.deck_len[1] as usize]
}

/// The random reference player: a uniformly random card action (or return,
/// discard, pass), claiming everything it can, drawing from a random deck.
/// `None` when the viewer is not to move or the game is over.
pub fn random_player(view: &View, rng: &mut impl Rng) -> Option<Move> {
    if view.outcome().is_some() || view.board().to_move != view.viewer() {
        return None;
    }
    random_move(view.board(), view.hand(), view_decks(view), rng)
}

/// The greedy reference player: claims everything it can; plays the troop
/// that keeps the best reachable formation on its stone (preferring stones it
/// has invested in), a win at once before all; other tactic cards only when
/// no troop can be played; draws from the clan deck.
pub fn greedy_player(view: &View) -> Option<Move> {
    if view.outcome().is_some() || view.board().to_move != view.viewer() {
        return None;
    }
    let board = view.board();
    let me = board.to_move;
    let decks = view_decks(view);
    let pool = board.unseen_pool();
    let mut best: Option<(i64, Move)> = None;
    let (pre, actions) = moves::claim_all_actions(board, view.hand(), decks);
    for action in actions {
        let mv = moves::full_claim_move(board, &pool, pre, action, decks, Deck::Clan);
        let mut after = moves::with_claims(board, pre);
        moves::apply_table(&mut after, &action);
        for i in 0..9 {
            if mv.claims & (1 << i) != 0 {
                after.stones[i].claimed = Some(me);
            }
        }
        let mut score = mv.claims.count_ones() as i64 * 10_000;
        if after.winner().is_some_and(|(p, _)| p == me) {
            score += 1_000_000;
        }
        score += match action {
            Action::Play { card, stone } if card.is_troop() => {
                let st = &after.stones[stone as usize];
                let mut pool = pool;
                if card.is_clan() {
                    pool.clan &= !(1u64 << card.id());
                }
                let side = &st.sides[me.index()];
                let pot = max_strength(side, st.required(), st.blind, &pool).unwrap_or(0) as i64;
                pot * 10 + side.len() as i64 - if card.is_clan() { 0 } else { 100 }
            }
            Action::Pass | Action::Discard { .. } | Action::Return { .. } => 0,
            _ => -2000,
        };
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, mv));
        }
    }
    best.map(|(_, m)| m)
}

/// The ISMCTS player: the best move of [`search`] within `limits`.
pub fn ismcts_player(view: &View, limits: &Limits) -> Option<Move> {
    let stop = AtomicBool::new(false);
    search(view, limits, &stop, &mut |_| {})
        .best_move()
        .copied()
}

/// Counts of a match between two players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games won by the first player given.
    pub a_wins: u32,
    /// Games won by the second player given.
    pub b_wins: u32,
    /// Drawn games.
    pub draws: u32,
}

/// A player: given its view (it is to move), its move.
pub type PlayerFn<'a> = dyn FnMut(&View) -> Option<Move> + 'a;

/// Plays one refereed game from `start`; a player returning no move or an
/// illegal one loses. The result from `One`'s side.
pub fn play_game(start: FullState, one: &mut PlayerFn, two: &mut PlayerFn) -> GameResult {
    let mut s = start;
    loop {
        if let Some(o) = s.outcome() {
            return o.result;
        }
        let p = s.side_to_move();
        let view = s.view(p);
        let mv = if p == Player::One {
            one(&view)
        } else {
            two(&view)
        };
        let Some(mv) = mv else {
            return GameResult::Win(p.opponent());
        };
        match s.play(&mv) {
            Ok(n) => s = n,
            Err(_) => return GameResult::Win(p.opponent()),
        }
    }
}

/// Plays two games per seed (each player once as `first`) and counts results.
pub fn play_match(
    variant: Variant,
    seeds: &[u64],
    a: &mut PlayerFn,
    b: &mut PlayerFn,
) -> MatchResult {
    let mut r = MatchResult::default();
    for &seed in seeds {
        for a_first in [true, false] {
            let start = FullState::new_game(variant, seed);
            let res = if a_first {
                play_game(start, a, b)
            } else {
                play_game(start, b, a)
            };
            let a_player = if a_first { Player::One } else { Player::Two };
            match res {
                GameResult::Draw => r.draws += 1,
                GameResult::Win(p) if p == a_player => r.a_wins += 1,
                GameResult::Win(_) => r.b_wins += 1,
            }
        }
    }
    r
}

struct Node {
    mv: Option<Move>,
    /// The player who made `mv`.
    player: Player,
    children: Vec<usize>,
    visits: u32,
    avail: u32,
    reward: f64,
    /// Heuristic value of `mv` (0..1), a progressive bias.
    prior: f64,
}

fn centi(win_rate: f64) -> i32 {
    let w = win_rate.clamp(0.001, 0.999);
    (400.0 * (w / (1.0 - w)).ln()).round() as i32
}

fn reward(result: GameResult, p: Player) -> f64 {
    match result {
        GameResult::Win(w) if w == p => 1.0,
        GameResult::Win(_) => 0.0,
        GameResult::Draw => 0.5,
    }
}

/// Searches the viewer's move within `limits` (iterations = `nodes`, or
/// `movetime`, or until `stop`). A move that wins at once is returned with
/// `Score::Mate(1)`; otherwise lines carry the win rate as `Score::Centi`
/// and their visit counts.
pub fn search(
    view: &View,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info<Move>),
) -> Info<Move> {
    if view.board().to_move != view.viewer() {
        return Info {
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            lines: Vec::new(),
            stopped: false,
        };
    }
    tree_search(view, limits, stop, progress)
}

/// The search from the side to move's point of view, whoever that is (its
/// moves at the root are sampled with its hand when it is not the viewer).
fn tree_search(
    view: &View,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info<Move>),
) -> Info<Move> {
    let start = Instant::now();
    let mut info = Info {
        depth: 0,
        seldepth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        lines: Vec::new(),
        stopped: false,
    };
    if view.outcome().is_some() {
        return info;
    }
    let me = view.board().to_move;
    let root_moves = if me == view.viewer() {
        candidates(view.board(), view.hand(), view_decks(view))
    } else {
        Vec::new()
    };
    for mv in &root_moves {
        let mut v = view.clone();
        let mut board = v.board.clone();
        moves::apply(&mut board, &mut v, mv);
        if board.winner().is_some_and(|(p, _)| p == me) {
            info.lines.push(Line {
                score: Score::Mate(1),
                moves: vec![*mv],
                visits: 0,
            });
            info.elapsed = start.elapsed();
            return info;
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(limits.seed);
    let mut tree = vec![Node {
        mv: None,
        player: me.opponent(),
        children: Vec::new(),
        visits: 0,
        avail: 0,
        reward: 0.0,
        prior: 0.0,
    }];
    let mut last_report = Instant::now();
    let mut iterations = 0u64;
    loop {
        if limits.nodes.is_some_and(|n| iterations >= n)
            || limits.movetime.is_some_and(|t| start.elapsed() >= t)
            || stop.load(Ordering::Relaxed)
        {
            info.stopped = true;
            break;
        }
        iterations += 1;
        let mut s = view.determinize(&mut rng);
        let mut node = 0usize;
        let mut path = vec![0usize];
        // Selection and expansion.
        while s.outcome().is_none() {
            let cands = full_candidates(&s);
            let mut unexpanded = Vec::new();
            let mut avail = Vec::new();
            for m in &cands {
                match tree[node]
                    .children
                    .iter()
                    .find(|&&c| tree[c].mv.as_ref() == Some(m))
                {
                    Some(&c) => {
                        tree[c].avail += 1;
                        avail.push(c);
                    }
                    None => unexpanded.push(*m),
                }
            }
            let mover = s.side_to_move();
            // Progressive widening: a node opens new moves as its visits grow.
            let widen = 2 + (1.5 * (tree[node].visits as f64).sqrt()) as usize;
            if !unexpanded.is_empty() && (avail.len() < widen || avail.is_empty()) {
                // Expand the most promising new move (ties at random).
                let scorer = Scorer::new(s.board());
                let (m, p) = unexpanded
                    .iter()
                    .map(|m| (*m, scorer.prior(m) + rng.random_range(0.0..0.01)))
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .expect("not empty");
                tree.push(Node {
                    mv: Some(m),
                    player: mover,
                    children: Vec::new(),
                    visits: 0,
                    avail: 1,
                    reward: 0.0,
                    prior: p,
                });
                let id = tree.len() - 1;
                tree[node].children.push(id);
                s = s.play_unchecked(&m);
                path.push(id);
                break;
            }
            let Some(&c) = avail.iter().max_by(|&&a, &&b| {
                let ucb = |n: &Node| {
                    let v = n.visits.max(1) as f64;
                    n.reward / v
                        + EXPLORATION * ((n.avail.max(1) as f64).ln() / v).sqrt()
                        + BIAS * n.prior / (v + 1.0)
                };
                ucb(&tree[a]).total_cmp(&ucb(&tree[b]))
            }) else {
                break;
            };
            let m = tree[c].mv.expect("child nodes carry a move");
            s = s.play_unchecked(&m);
            node = c;
            path.push(c);
        }
        info.seldepth = info.seldepth.max(path.len() as u32 - 1);
        // Rollout.
        let mut steps = 0;
        while s.outcome().is_none() && steps < ROLLOUT_PLIES {
            let hand = s.hand(s.board().to_move);
            let decks = [s.deck_len(Deck::Clan), s.deck_len(Deck::Tactic)];
            match rollout_move(s.board(), &hand, decks, &mut rng) {
                Some(m) => s.apply_mut(&m),
                None => break,
            }
            steps += 1;
        }
        let one = match s.outcome() {
            Some(o) => reward(o.result, Player::One),
            None => leaf::one_win_chance(&s),
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
        info.nodes = iterations;
        info.depth = iterations.min(u32::MAX as u64) as u32;
        let due = match limits.report_every {
            Some(every) => last_report.elapsed() >= every,
            None => iterations.is_multiple_of(REPORT_ITERATIONS),
        };
        if due {
            last_report = Instant::now();
            fill_lines(&tree, limits.multipv, &mut info);
            info.elapsed = start.elapsed();
            progress(&info);
        }
    }
    info.nodes = iterations;
    info.depth = iterations.min(u32::MAX as u64) as u32;
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
    info.elapsed = start.elapsed();
    info
}

fn fill_lines(tree: &[Node], multipv: usize, info: &mut Info<Move>) {
    let mut kids = tree[0].children.clone();
    kids.sort_by(|&a, &b| tree[b].visits.cmp(&tree[a].visits));
    info.lines = kids
        .iter()
        .take(multipv.max(1))
        .filter(|&&c| tree[c].visits > 0)
        .map(|&c| {
            let mut moves = vec![tree[c].mv.expect("child nodes carry a move")];
            let mut n = c;
            while moves.len() < 4 {
                let Some(&next) = tree[n].children.iter().max_by_key(|&&k| tree[k].visits) else {
                    break;
                };
                if tree[next].visits == 0 {
                    break;
                }
                moves.push(tree[next].mv.expect("child nodes carry a move"));
                n = next;
            }
            Line {
                score: Score::Centi(centi(tree[c].reward / tree[c].visits as f64)),
                moves,
                visits: tree[c].visits as u64,
            }
        })
        .collect();
}

/// The viewer's winning chance (0..1) by the same search (when the opponent
/// is to move, from the opponent's best root move, its hand sampled).
pub fn evaluate(view: &View, limits: &Limits, stop: &AtomicBool) -> f64 {
    if let Some(o) = view.outcome() {
        return reward(o.result, view.viewer());
    }
    let info = tree_search(view, limits, stop, &mut |_| {});
    let p = info.score().map_or(0.5, |s| s.win_probability());
    if view.board().to_move == view.viewer() {
        p
    } else {
        1.0 - p
    }
}
