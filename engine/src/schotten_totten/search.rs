//! Schotten Totten's knowledge for information-set MCTS ([`Policy`]): which
//! moves to consider, a prior for each, a rollout policy and a leaf value.
//!
//! Search moves always claim every stone they can (claiming never hurts: a
//! claimed stone is safe from ruses), and draw from the clan deck while it
//! has cards: a tactic card may only be played when not ahead in tactic cards
//! played, so a hand filling with them loses troops, and the heuristic cannot
//! see that (searching both draws lost most games to the greedy player in
//! `tactics`). Both are reductions of the move set, not of the rules. The
//! leaf value is each open stone's chance from the formations both sides can
//! still reach, combined into a chance of five stones or three adjacent
//! (`leaf.rs`).
//!
//! Strength is measured with the `st_match` example (release mode, seeded,
//! both seats): `cargo run --release -p caber-engine --example st_match --
//! --variant tactics --games 100 --iterations 2000`.

use std::sync::atomic::AtomicBool;

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::board::{Board, Deck};
use super::cards::Card;
use super::formation::{max_strength, Pool};
use super::leaf;
use super::moves::{self, Action, ClaimsAfter, Move};
use super::state::{FullState, View};
use crate::search::ismcts::{self, Ismcts};
use crate::search::Limits;

/// The search's candidate moves: each action claiming all it can and
/// drawing from the clan deck while it has cards.
fn candidates(board: &Board, hand: &[Card], deck_len: [usize; 2]) -> Vec<Move> {
    let mut claims = ClaimsAfter::new(board, board.unseen_pool(), hand);
    let (pre, actions) = moves::claim_all_actions(board, hand, deck_len);
    actions
        .into_iter()
        .map(|action| moves::full_claim_move(board, &mut claims, pre, action, deck_len, Deck::Clan))
        .collect()
}

fn full_candidates(s: &FullState) -> Vec<Move> {
    candidates(
        s.board(),
        &s.held(s.board().to_move),
        [s.deck_len(Deck::Clan), s.deck_len(Deck::Tactic)],
    )
}

/// A random action claiming all it can, with a random draw choice.
pub(crate) fn random_move(
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
        &mut ClaimsAfter::new(board, board.unseen_pool(), hand),
        pre,
        action,
        deck_len,
        prefer,
    ))
}

/// Troop-play evaluation for one position: the unseen pool and, per stone,
/// the opponent's best reachable strength, each worked out when first needed;
/// sides holding the same cards (an empty side on most stones early on)
/// share one search.
struct Scorer<'a> {
    board: &'a Board,
    pool: Pool,
    theirs: [Option<i64>; 9],
    memo: Memo,
}

/// Best reachable strengths already worked out for one position, by side.
struct Memo {
    entries: [(u64, i64); 16],
    len: usize,
}

impl Memo {
    /// The best reachable strength of `side` completed to `n` cards, from
    /// the pool less the side's last card when `less_last` (else the pool).
    fn reach(&mut self, side: &[Card], n: usize, blind: bool, pool: &Pool, less_last: bool) -> i64 {
        let key = side
            .iter()
            .fold(0u64, |k, c| k << 7 | u64::from(c.id() + 1))
            | (n as u64) << 28
            | u64::from(blind) << 31
            | u64::from(less_last) << 32;
        if let Some(&(_, s)) = self.entries[..self.len].iter().find(|e| e.0 == key) {
            return s;
        }
        let mut pool = *pool;
        if let Some(card) = side.last().filter(|c| less_last && c.is_clan()) {
            pool.clan &= !(1u64 << card.id());
        }
        let s = max_strength(side, n, blind, &pool).unwrap_or(0) as i64;
        if self.len < self.entries.len() {
            self.entries[self.len] = (key, s);
            self.len += 1;
        }
        s
    }
}

impl<'a> Scorer<'a> {
    fn new(board: &'a Board) -> Self {
        Scorer {
            board,
            pool: board.unseen_pool(),
            theirs: [None; 9],
            memo: Memo {
                entries: [(0, 0); 16],
                len: 0,
            },
        }
    }

    /// The opponent's best reachable strength on `stone` (0 once claimed).
    fn theirs(&mut self, stone: u8) -> i64 {
        let st = &self.board.stones[stone as usize];
        let opp = self.board.to_move.opponent();
        if let Some(s) = self.theirs[stone as usize] {
            return s;
        }
        let s = if st.claimed.is_some() {
            0
        } else {
            let side = &st.sides[opp.index()];
            self.memo
                .reach(side, st.required(), st.blind, &self.pool, false)
        };
        self.theirs[stone as usize] = Some(s);
        s
    }

    /// The best formation still reachable with `card` on `stone` (the card
    /// taken out of the unseen pool) and its margin over the opponent's best.
    fn play(&mut self, card: Card, stone: u8) -> (i64, i64) {
        let st = &self.board.stones[stone as usize];
        let mut side = [card; 4];
        let mine = &st.sides[self.board.to_move.index()];
        let k = mine.len().min(3);
        side[..k].copy_from_slice(&mine[..k]);
        let pot = self
            .memo
            .reach(&side[..k + 1], st.required(), st.blind, &self.pool, true);
        (pot, (pot - self.theirs(stone)).clamp(-64, 64))
    }

    /// A score for the rollout policy: reachable formation, margin, commitment.
    fn rollout_score(&mut self, card: Card, stone: u8) -> i64 {
        let (pot, margin) = self.play(card, stone);
        let len = self.board.stones[stone as usize].sides[self.board.to_move.index()].len() as i64;
        pot * 16 + margin * 8 + len - if card.is_clan() { 0 } else { 200 }
    }

    /// A prior in 0..1 for a search move: troop plays by the formation they
    /// keep reachable and their margin, a bonus per claim; other cards lower.
    fn prior(&mut self, mv: &Move) -> f64 {
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
    let mut scorer = Scorer::new(board);
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
        &mut ClaimsAfter::new(board, scorer.pool, hand),
        pre,
        action,
        deck_len,
        prefer,
    ))
}

pub(crate) fn view_decks(view: &View) -> [usize; 2] {
    [view.deck_len[0] as usize, view.deck_len[1] as usize]
}

/// Schotten Totten's policy for [`Ismcts`] (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Policy;

impl ismcts::Policy<View> for Policy {
    fn root_candidates(&self, root: &View) -> Vec<Move> {
        candidates(root.board(), root.hand(), view_decks(root))
    }

    fn candidates(&self, state: &FullState) -> Vec<Move> {
        full_candidates(state)
    }

    fn priors(&self, state: &FullState, moves: &[Move], out: &mut Vec<f64>) {
        let mut scorer = Scorer::new(state.board());
        out.extend(moves.iter().map(|m| scorer.prior(m)));
    }

    fn rollout_move(&self, state: &FullState, rng: &mut ChaCha8Rng) -> Option<Move> {
        let hand = state.held(state.board().to_move);
        let decks = [state.deck_len(Deck::Clan), state.deck_len(Deck::Tactic)];
        rollout_move(state.board(), &hand, decks, rng)
    }

    fn leaf_value(&self, state: &FullState) -> f64 {
        leaf::one_win_chance(state)
    }
}

/// The viewer's winning chance (0..1) by the same search (see [`ismcts::evaluate`]).
pub fn evaluate(view: &View, limits: &Limits, stop: &AtomicBool) -> f64 {
    ismcts::evaluate(view, &Policy, limits, stop)
}

/// The information-set MCTS searcher with Schotten Totten's [`Policy`].
pub fn searcher() -> Ismcts<Policy> {
    Ismcts::new(Policy)
}
