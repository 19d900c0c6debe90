//! The reference players by name, and seeded matches between them (what the
//! service's `PlayMatch` and `caber match` run).

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
/// seats swapped, between the players named `a` and `b`. The error names an
/// unknown player.
pub fn play_match(
    variant: Variant,
    games: u32,
    seed: u64,
    a: &str,
    b: &str,
    iterations: u64,
) -> Result<MatchResult, String> {
    let player = |name: &str, salt: u64| {
        by_name(name, iterations, seed ^ salt)
            .ok_or_else(|| format!("unknown player {name:?} (known: {})", NAMES.join(", ")))
    };
    let (mut pa, mut pb) = (player(a, 0xA)?, player(b, 0xB)?);
    let seeds: Vec<u64> = (0..u64::from(games))
        .map(|i| seed.wrapping_add(i))
        .collect();
    Ok(ismcts::play_match(variant, &seeds, &mut *pa, &mut *pb))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_players_are_named() {
        let e = play_match(Variant::Classic, 1, 0, "alpha", "greedy", 10).unwrap_err();
        assert!(e.contains("\"alpha\"") && e.contains("greedy"), "{e}");
    }

    #[test]
    fn matches_are_seeded_and_count_every_game() {
        let a = play_match(Variant::Classic, 3, 9, "greedy", "random", 0).unwrap();
        let b = play_match(Variant::Classic, 3, 9, "greedy", "random", 0).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.a_wins + a.b_wins + a.draws, 6);
        // The greedy player beats the random one most of the time.
        assert!(a.a_wins > a.b_wins, "{a:?}");
    }
}
