//! What uniformly random full games on one thread gave: the speed of move
//! generation and play as a Monte Carlo searcher's playouts see it. The
//! games are played by [`crate::playable::Playable::random_games`] (over the
//! [`crate::Game`] fast path for the perfect-information games).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What a run of random games gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playouts {
    /// Games played to their end.
    pub games: u64,
    /// Plies played in them.
    pub plies: u64,
    /// The time they took.
    pub elapsed: Duration,
}

impl Playouts {
    /// Plays games one after another for at least `budget` (at least one),
    /// or until `stop` is set between two games: `one_game` plays one with
    /// the shared generator seeded by `seed` and returns its plies.
    pub fn timed(
        budget: Duration,
        seed: u64,
        stop: &AtomicBool,
        mut one_game: impl FnMut(&mut ChaCha8Rng) -> u64,
    ) -> Playouts {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut games, mut plies) = (0, 0);
        let start = Instant::now();
        loop {
            plies += one_game(&mut rng);
            games += 1;
            if start.elapsed() >= budget || stop.load(Ordering::Relaxed) {
                break;
            }
        }
        Playouts {
            games,
            plies,
            elapsed: start.elapsed(),
        }
    }

    /// Games per second.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Moves (plies) per second.
    pub fn moves_per_second(&self) -> f64 {
        self.plies as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The mean game length in plies.
    pub fn mean_length(&self) -> f64 {
        self.plies as f64 / self.games.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_follow_from_the_counts() {
        let p = Playouts {
            games: 10,
            plies: 1000,
            elapsed: Duration::from_secs(2),
        };
        assert_eq!(
            (p.games_per_second(), p.moves_per_second(), p.mean_length()),
            (5.0, 500.0, 100.0)
        );
    }
}
