//! Uniformly random full games per second on one thread, for every Tablut
//! variant and AlmaTafl ([`Playable::random_games`], what `caber bench
//! playouts` reports), then AlmaTafl again from a start whose history already
//! holds 100,000 earlier positions (a long game's): the cost per ply does not
//! depend on it.
//!
//! ```text
//! cargo run --release -p caber-engine --example playouts -- 5
//! ```
//!
//! The argument is the seconds per game and variant (default 5).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use caber_engine::almatafl::{self, AlmaTafl};
use caber_engine::playable::Playable;
use caber_engine::tablut::{Tablut, Variant};
use caber_engine::Played;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn run(name: &str, start: &impl Playable, budget: Duration) {
    let p = start.random_games(budget, 1, &AtomicBool::new(false));
    println!(
        "{name}: {:.0} games/s, {:.0} plies/s, mean length {:.1}",
        p.games_per_second(),
        p.moves_per_second(),
        p.mean_length()
    );
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5.0);
    let budget = Duration::from_secs_f64(secs);
    for (v, n) in [
        (Variant::Bga, "tablut bga"),
        (Variant::Ashton, "tablut ashton"),
        (Variant::Linnaeus, "tablut linnaeus"),
        (Variant::BgaCorners, "tablut bga-corners"),
    ] {
        run(n, &Played::<Tablut>::start(v, 0), budget);
    }
    let alma = Played::<AlmaTafl>::start(almatafl::Variant::Standard, 0);
    run("almatafl", &alma, budget);
    // The same start with 100,000 random earlier positions in its history.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let earlier: Vec<String> = (0..100_000)
        .map(|_| format!("{:016x}", rng.random::<u64>()))
        .collect();
    let text = alma.notation();
    let board_and_side = text.rsplit_once(' ').expect("three fields").0;
    let long = Played::<AlmaTafl>::from_notation(
        almatafl::Variant::Standard,
        &format!("{board_and_side} {}", earlier.join(",")),
    )
    .expect("the start with a long history reads");
    assert_eq!(long.history().len(), 100_000);
    run("almatafl, 100000 earlier positions", &long, budget);
}
