//! The reference players: random, greedy and information-set MCTS, each a
//! function of the player's view (as [`crate::matches`] plays them).

use std::sync::atomic::AtomicBool;

use rand::Rng;

use super::board::Deck;
use super::formation::max_strength;
use super::moves::{self, Action};
use super::search::{self, random_move, view_decks};
use super::{Move, View};
use crate::search::{Limits, Searcher};

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
    let mut claims = moves::ClaimsAfter::new(board, pool, view.hand());
    let mut best: Option<(i64, Move)> = None;
    let (pre, actions) = moves::claim_all_actions(board, view.hand(), decks);
    for action in actions {
        let mv = moves::full_claim_move(board, &mut claims, pre, action, decks, Deck::Clan);
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

/// The ISMCTS player: the best move of [`search::searcher`] within `limits`.
pub fn ismcts_player(view: &View, limits: &Limits) -> Option<Move> {
    let stop = AtomicBool::new(false);
    search::searcher()
        .search(view, limits, &stop, &mut |_| {})
        .best_move()
        .copied()
}
