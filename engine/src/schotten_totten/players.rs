//! The reference players by name, and seeded matches between them (what the
//! service's `PlayMatch` and `caber match` run).

use std::sync::atomic::{AtomicBool, Ordering};

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
/// `iterations` per move (searched with `seed`). `None` for an unknown name.
pub fn by_name(name: &str, iterations: u64, seed: u64) -> Option<Box<PlayerFn<'static>>> {
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
                ismcts::ismcts_player(v, &limits)
            }))
        }
        _ => None,
    }
}

/// Plays `games` deals (seeds `seed`, `seed + 1`, ...), each twice with the
/// seats swapped, between the players named `a` and `b`; stops after the
/// current deal when `stop` is set (the counts then cover the deals played).
/// The error names an unknown player.
pub fn play_match(
    variant: Variant,
    games: u32,
    seed: u64,
    a: &str,
    b: &str,
    iterations: u64,
    stop: &AtomicBool,
) -> Result<MatchResult, String> {
    let player = |name: &str, salt: u64| {
        by_name(name, iterations, seed ^ salt)
            .ok_or_else(|| format!("unknown player {name:?} (known: {})", NAMES.join(", ")))
    };
    let (mut pa, mut pb) = (player(a, 0xA)?, player(b, 0xB)?);
    let mut total = MatchResult::default();
    for i in 0..u64::from(games) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let r = ismcts::play_match(variant, &[seed.wrapping_add(i)], &mut *pa, &mut *pb);
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
        let go = AtomicBool::new(false);
        let e = play_match(Variant::Classic, 1, 0, "alpha", "greedy", 10, &go).unwrap_err();
        assert!(e.contains("\"alpha\"") && e.contains("greedy"), "{e}");
    }

    #[test]
    fn matches_are_seeded_and_count_every_game() {
        let go = AtomicBool::new(false);
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
            &AtomicBool::new(true),
        );
        assert_eq!(stopped.unwrap(), MatchResult::default());
    }
}
