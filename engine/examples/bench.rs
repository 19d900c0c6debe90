//! Engine speed, reported as ratios against a baseline measured in the same
//! process (the machines are shared and noisy: compare ratios, not seconds).
//!
//! ```text
//! cargo run --release -p caber-engine --example bench
//! ```
//!
//! Baseline: Tablut (`bga`) perft 3 from the start, in leaves per second.
//! Then every game's perft, fixed-depth alpha-beta from the start, and the
//! Schotten Totten claim proof on random hard cases (mean and worst case).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use caber_engine::almatafl::AlmaTafl;
use caber_engine::game::{perft, variant_by_name};
use caber_engine::schotten_totten::formation::bench_proof;
use caber_engine::search::{alphabeta, Limits};
use caber_engine::tablut::Tablut;
use caber_engine::Game;

/// Runs `f` (returning a count of work items) and gives items per second.
fn rate(f: impl FnOnce() -> u64) -> (u64, f64) {
    let t = Instant::now();
    let n = f();
    (n, n as f64 / t.elapsed().as_secs_f64())
}

fn start<G: Game>(variant: &str) -> G {
    G::start(variant_by_name::<G>(variant).expect("known variant"), 0)
}

fn searched<G: Game>(pos: &G, depth: u32) -> u64 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    alphabeta::search(pos, &limits, &AtomicBool::new(false), &mut |_| {}).nodes
}

fn main() {
    let (_, base) = rate(|| perft(&start::<Tablut>("bga"), 3));
    println!("baseline: tablut bga perft 3: {base:.0} leaves/s (= 1.00)");
    let row = |name: &str, (n, r): (u64, f64), unit: &str| {
        println!(
            "{name:<34} {n:>10} {unit:<7} {r:>12.0}/s  ratio {:.3}",
            r / base
        );
    };
    for v in ["bga-corners", "ashton", "linnaeus"] {
        row(
            &format!("tablut {v} perft 3"),
            rate(|| perft(&start::<Tablut>(v), 3)),
            "leaves",
        );
    }
    row(
        "almatafl perft 3",
        rate(|| perft(&start::<AlmaTafl>(""), 3)),
        "leaves",
    );
    for v in ["bga", "ashton"] {
        let pos = start::<Tablut>(v);
        row(
            &format!("tablut {v} alpha-beta depth 5"),
            rate(|| searched(&pos, 5)),
            "nodes",
        );
    }
    let pos = start::<AlmaTafl>("");
    row(
        "almatafl alpha-beta depth 4",
        rate(|| searched(&pos, 4)),
        "nodes",
    );
    let cases = 200_000;
    let proof = bench_proof(cases, 1);
    let mean = proof.total.as_secs_f64() / cases as f64;
    println!(
        "schotten-totten claim proof: {cases} hard cases, {} proven, mean {:.2} us, worst {:.2} us ({:.0}/s, ratio {:.3})",
        proof.proven,
        mean * 1e6,
        proof.worst.as_secs_f64() * 1e6,
        1.0 / mean,
        (1.0 / mean) / base
    );
}
