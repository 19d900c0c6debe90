//! Schotten Totten strength measurement: ISMCTS against the greedy and the
//! random reference players, two games per seed (both seats), seeded.
//!
//! ```text
//! cargo run --release -p caber-engine --example st_match -- \
//!     --variant classic --games 100 --iterations 2000 --opponent greedy
//! ```
//!
//! Options: `--variant classic|tactics|expert` (default classic), `--games N`
//! (even, default 100), `--iterations N` per move (default 2000),
//! `--opponent greedy|random|both` (default both), `--seed S` (first deal
//! seed, default 0). Prints wins/losses/draws of ISMCTS and the time per move.

use std::time::Instant;

use caber_engine::matches::play_match;
use caber_engine::schotten_totten::players::{greedy_player, ismcts_player, random_player};
use caber_engine::schotten_totten::{FullState, Variant};
use caber_engine::search::Limits;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
            .unwrap_or_else(|| default.to_string())
    };
    let variant = match opt("--variant", "classic").as_str() {
        "classic" => Variant::Classic,
        "tactics" => Variant::Tactics,
        "expert" => Variant::Expert,
        v => {
            eprintln!("unknown variant {v}: classic, tactics or expert");
            std::process::exit(2);
        }
    };
    let number = |name: &str, default: &str| -> u64 {
        opt(name, default).parse().unwrap_or_else(|_| {
            eprintln!("{name} needs a number");
            std::process::exit(2);
        })
    };
    let games = number("--games", "100");
    let iterations = number("--iterations", "2000");
    let first_seed = number("--seed", "0");
    let opponents: &[&str] = match opt("--opponent", "both").as_str() {
        "greedy" => &["greedy"],
        "random" => &["random"],
        "both" => &["greedy", "random"],
        o => {
            eprintln!("unknown opponent {o}: greedy, random or both");
            std::process::exit(2);
        }
    };
    let seeds: Vec<u64> = (first_seed..first_seed + games.div_ceil(2)).collect();
    for &opponent in opponents {
        let mut moves = 0u64;
        let mut thinking = std::time::Duration::ZERO;
        let mut search_seed = 0u64;
        let mut ai = |v: &caber_engine::schotten_totten::View| {
            search_seed += 1;
            let limits = Limits {
                nodes: Some(iterations),
                seed: search_seed,
                ..Default::default()
            };
            let t = Instant::now();
            let m = ismcts_player(v, &limits);
            thinking += t.elapsed();
            moves += 1;
            m
        };
        let mut rng = ChaCha8Rng::seed_from_u64(first_seed ^ 0x5eed);
        let r = match opponent {
            "greedy" => play_match::<FullState>(variant, &seeds, &mut ai, &mut greedy_player),
            _ => play_match::<FullState>(variant, &seeds, &mut ai, &mut |v| {
                random_player(v, &mut rng)
            }),
        };
        let n = r.a_wins + r.b_wins + r.draws;
        println!(
            "{variant:?} ismcts({iterations}) vs {opponent}: {}-{}-{} (W-L-D) of {n} games, {:.1}% wins, {:.1} ms/move",
            r.a_wins,
            r.b_wins,
            r.draws,
            100.0 * r.a_wins as f64 / n.max(1) as f64,
            thinking.as_secs_f64() * 1000.0 / moves.max(1) as f64,
        );
    }
}
