//! The reference players (random, greedy, information-set MCTS) by name, and
//! seeded matches between them (what the service's `PlayMatch` and `caber
//! match` run, through [`crate::matches`]).

use crate::quote::quote;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::Deck;
use super::formation::max_strength;
use super::moves::{self, Action};
use super::search::{self, random_move, view_decks};
use super::{FullState, Move, Variant, View};
use crate::matches::{self, Agent, MatchResult};
use crate::search::{Limits, Searcher};

/// A player of Schotten Totten: given its view (it is to move), its move.
pub type PlayerFn<'a> = Agent<'a, FullState>;

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

/// The ISMCTS player: the best move of [`search::searcher`] within `limits`.
pub fn ismcts_player(view: &View, limits: &Limits) -> Option<Move> {
    let stop = AtomicBool::new(false);
    search::searcher()
        .search(view, limits, &stop, &mut |_| {})
        .best_move()
        .copied()
}

/// The reference players' names.
pub const NAMES: [&str; 3] = ["random", "greedy", "ismcts"];

/// ISMCTS iterations per move when none are given.
pub const DEFAULT_ITERATIONS: u64 = 1000;

/// A reference player by name (case-insensitive): `random` (drawing from a
/// ChaCha8 generator seeded with `seed`), `greedy`, or `ismcts` with
/// `iterations` per move (searched with `seed`; a search ends early, with
/// its best move so far, once `stop` is set). `None` for an unknown name.
pub fn by_name(
    name: &str,
    iterations: u64,
    seed: u64,
    stop: Arc<AtomicBool>,
) -> Option<Box<PlayerFn<'static>>> {
    match name.trim().to_ascii_lowercase().as_str() {
        "random" => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            Some(Box::new(move |v: &View| random_player(v, &mut rng)))
        }
        "greedy" => Some(Box::new(|v: &View| greedy_player(v))),
        "ismcts" => {
            let limits = Limits {
                nodes: Some(iterations.max(1)),
                seed,
                ..Limits::default()
            };
            Some(Box::new(move |v: &View| -> Option<Move> {
                search::searcher()
                    .search(v, &limits, &stop, &mut |_| {})
                    .best_move()
                    .copied()
            }))
        }
        _ => None,
    }
}

/// Plays `games` deals (seeds `seed`, `seed + 1`, ...), each twice with the
/// seats swapped, between the players named `a` and `b`. Once `stop` is set
/// the searches end at once and the deal in progress is left out: the counts
/// cover the deals played to the end. The error names an unknown player.
pub fn play_match(
    variant: Variant,
    games: u32,
    seed: u64,
    a: &str,
    b: &str,
    iterations: u64,
    stop: &Arc<AtomicBool>,
) -> Result<MatchResult, String> {
    let player = |name: &str, salt: u64| {
        by_name(name, iterations, seed ^ salt, stop.clone()).ok_or_else(|| {
            format!(
                "unknown player {} (known: {})",
                quote(name),
                NAMES.join(", ")
            )
        })
    };
    let (mut pa, mut pb) = (player(a, 0xA)?, player(b, 0xB)?);
    let mut total = MatchResult::default();
    for i in 0..u64::from(games) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let r =
            matches::play_match::<FullState>(variant, &[seed.wrapping_add(i)], &mut *pa, &mut *pb);
        if stop.load(Ordering::Relaxed) {
            break; // played with searches cut short: not counted
        }
        total.a_wins += r.a_wins;
        total.b_wins += r.b_wins;
        total.draws += r.draws;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_players_are_named() {
        let go = Arc::new(AtomicBool::new(false));
        let e = play_match(Variant::Classic, 1, 0, "alpha", "greedy", 10, &go).unwrap_err();
        assert!(e.contains("\"alpha\"") && e.contains("greedy"), "{e}");
    }

    #[test]
    fn matches_are_seeded_and_count_every_game() {
        let go = Arc::new(AtomicBool::new(false));
        let a = play_match(Variant::Classic, 3, 9, "greedy", "random", 0, &go).unwrap();
        let b = play_match(Variant::Classic, 3, 9, "greedy", "random", 0, &go).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.a_wins + a.b_wins + a.draws, 6);
        // The greedy player beats the random one most of the time.
        assert!(a.a_wins > a.b_wins, "{a:?}");
        // Stopped before the first deal: nothing is played.
        let stopped = play_match(
            Variant::Classic,
            3,
            9,
            "greedy",
            "random",
            0,
            &Arc::new(AtomicBool::new(true)),
        );
        assert_eq!(stopped.unwrap(), MatchResult::default());
    }

    /// A flag set during a long match (ISMCTS with 100000 iterations per
    /// move on both sides) ends it within the deal in progress, which is not
    /// counted; deals finished before count.
    #[test]
    fn a_stop_during_a_deal_ends_the_match_without_that_deal() {
        let stop = Arc::new(AtomicBool::new(false));
        let setter = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(200));
                stop.store(true, Ordering::Relaxed);
            })
        };
        let r = play_match(Variant::Classic, 500, 1, "ismcts", "ismcts", 100_000, &stop).unwrap();
        setter.join().unwrap();
        // 500 deals of this size take hours: the match stopped early.
        let played = r.a_wins + r.b_wins + r.draws;
        assert!(played < 1000 && played.is_multiple_of(2), "{r:?}");
    }
}
