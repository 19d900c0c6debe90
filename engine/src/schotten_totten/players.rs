//! The reference players by name, and seeded matches between them (what the
//! service's `PlayMatch` and `caber match` run).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::ismcts::{self, MatchResult, PlayerFn};
use super::{Move, Variant, View};
use crate::search::Limits;

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
            Some(Box::new(move |v: &View| ismcts::random_player(v, &mut rng)))
        }
        "greedy" => Some(Box::new(|v: &View| ismcts::greedy_player(v))),
        "ismcts" => {
            let limits = Limits {
                nodes: Some(iterations.max(1)),
                seed,
                ..Limits::default()
            };
            Some(Box::new(move |v: &View| -> Option<Move> {
                ismcts::search(v, &limits, &stop, &mut |_| {})
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
        by_name(name, iterations, seed ^ salt, stop.clone())
            .ok_or_else(|| format!("unknown player {name:?} (known: {})", NAMES.join(", ")))
    };
    let (mut pa, mut pb) = (player(a, 0xA)?, player(b, 0xB)?);
    let mut total = MatchResult::default();
    for i in 0..u64::from(games) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let r = ismcts::play_match(variant, &[seed.wrapping_add(i)], &mut *pa, &mut *pb);
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
