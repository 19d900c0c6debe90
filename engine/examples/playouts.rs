//! Uniformly random full games per second on one thread, over the [`Game`]
//! trait as a searcher's playout sees it: one move generation per ply (moves
//! and the end of the game in one pass), the repetition history in a
//! [`History`]. The same seeded games each run.
//!
//! ```text
//! cargo run --release -p caber-engine --example playouts -- 5
//! ```
//!
//! The argument is the seconds per game and variant (default 5). Last, AlmaTafl
//! again from a start whose history already holds 100,000 earlier positions
//! (a long game's): the cost per ply does not depend on it.

use std::time::{Duration, Instant};

use caber_engine::almatafl::AlmaTafl;
use caber_engine::tablut::{Tablut, Variant};
use caber_engine::{Game, History};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn run<G: Game>(name: &str, start: G, earlier: &[u64], secs: f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut moves = Vec::new();
    let mut history = History::new();
    history.load(earlier);
    let (mut games, mut plies) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs_f64(secs) {
        let mut pos = start.clone();
        history.truncate(earlier.len());
        while history.turn(&pos, &mut moves).is_none() {
            let next = pos.play_unchecked(&moves[rng.random_range(0..moves.len())]);
            history.enter(&pos, &next);
            pos = next;
            plies += 1;
        }
        games += 1;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name}: {:.0} games/s, {:.0} plies/s, mean length {:.1}",
        games as f64 / s,
        plies as f64 / s,
        plies as f64 / games as f64
    );
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5.0);
    for (v, n) in [
        (Variant::Bga, "tablut bga"),
        (Variant::Ashton, "tablut ashton"),
        (Variant::Linnaeus, "tablut linnaeus"),
        (Variant::BgaCorners, "tablut bga-corners"),
    ] {
        run(n, Tablut::start(v, 0), &[], secs);
    }
    let alma = AlmaTafl::start(caber_engine::almatafl::Variant::Standard, 0);
    run("almatafl", alma.clone(), &[], secs);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let earlier: Vec<u64> = (0..100_000).map(|_| rng.random()).collect();
    run("almatafl, 100000 earlier positions", alma, &earlier, secs);
}
