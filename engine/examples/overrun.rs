//! How far each searcher of each game runs past its movetime: positions
//! sampled along seeded random games, each searched for the movetime by
//! every searcher of its game, the wall time of the whole `search` call
//! (set-up and the final report included) less the movetime. Prints the
//! worst and the 95th percentile per searcher; run it on a quiet machine
//! and again with the cores busy to see what scheduling adds.
//!
//! ```text
//! cargo run --release -p caber-engine --example overrun -- [MOVETIME_MS] [POSITIONS]
//! ```
//!
//! Defaults: 100 ms, 12 positions per game and variant.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use caber_engine::playable::Playable;
use caber_engine::search::{Limits, Searchable};
use caber_engine::{almatafl, schotten_totten, tablut, tartan, Played};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions along random games from `start`: every few plies, never a finished one.
fn positions<P: Playable>(start: &P, count: usize, seed: u64) -> Vec<P> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut p = start.clone();
        loop {
            moves.clear();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if rng.random_ratio(1, 8) {
                out.push(p.clone());
                if out.len() == count {
                    break;
                }
            }
            p = p.after(&moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

/// Searches each position with each searcher for `movetime`; prints the overruns.
fn measure<P: Searchable>(name: &str, start: &P, movetime: Duration, count: usize) {
    let positions = positions(start, count, 7);
    for info in P::searchers() {
        let mut overruns: Vec<Duration> = positions
            .iter()
            .map(|p| {
                let root = p.search_root();
                let limits = Limits {
                    movetime: Some(movetime),
                    ..Limits::default()
                };
                let stop = AtomicBool::new(false);
                let began = Instant::now();
                let mut searcher = (info.build)(&[]);
                let _ = searcher.search(&root, &limits, &stop, &mut |_| {});
                began.elapsed().saturating_sub(movetime)
            })
            .collect();
        overruns.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let p95 = overruns[(overruns.len() * 95).div_ceil(100).saturating_sub(1)];
        println!(
            "{name:<28} {:<10} worst {:>7.2} ms   p95 {:>7.2} ms   ({} positions)",
            info.name,
            ms(*overruns.last().expect("positions")),
            ms(p95),
            overruns.len()
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let movetime = Duration::from_millis(args.next().and_then(|a| a.parse().ok()).unwrap_or(100));
    let count = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    for v in [
        tablut::Variant::Bga,
        tablut::Variant::BgaCorners,
        tablut::Variant::Ashton,
        tablut::Variant::Linnaeus,
    ] {
        let start = Played::<tablut::Tablut>::start(v, 0);
        measure(
            &format!("tablut {}", start.variant_name()),
            &start,
            movetime,
            count,
        );
    }
    let alma = Played::<almatafl::AlmaTafl>::start(almatafl::Variant::Standard, 0);
    measure("almatafl", &alma, movetime, count);
    let tartan = Played::<tartan::Tartan>::start(tartan::Variant::Standard, 0);
    measure("tartan", &tartan, movetime, count);
    for v in [
        schotten_totten::Variant::Classic,
        schotten_totten::Variant::Tactics,
        schotten_totten::Variant::Expert,
    ] {
        let start = schotten_totten::Position::Full(schotten_totten::FullState::new_game(v, 3));
        measure(
            &format!("schotten-totten {}", start.variant_name()),
            &start,
            movetime,
            count,
        );
    }
}
