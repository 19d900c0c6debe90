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

use caber_engine::almatafl::{self, AlmaTafl};
use caber_engine::eval::Evaluator;
use caber_engine::game::variant_by_name;
use caber_engine::played::perft;
use caber_engine::schotten_totten::formation::{proof, strength, Pool};
use caber_engine::schotten_totten::Card;
use caber_engine::search::{alphabeta, Limits};
use caber_engine::tablut::{self, Tablut};
use caber_engine::{Game, Played};

/// Runs `f` (returning a count of work items) and gives items per second.
fn rate(f: impl FnOnce() -> u64) -> (u64, f64) {
    let t = Instant::now();
    let n = f();
    (n, n as f64 / t.elapsed().as_secs_f64())
}

fn start<G: Game>(variant: &str) -> Played<G> {
    Played::start(variant_by_name::<G>(variant).expect("known variant"), 0)
}

fn searched<G: Game, E: Evaluator<G>>(pos: &Played<G>, evaluator: E, depth: u32) -> u64 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    alphabeta::AlphaBeta::new(alphabeta::DEFAULT_TT_MB, evaluator)
        .search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
        .nodes
}

/// Timings of [`proof`] on random hard cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ProofBench {
    /// Cases where the claim was proven.
    proven: usize,
    /// Total time.
    total: std::time::Duration,
    /// Slowest single proof.
    worst: std::time::Duration,
}

/// Runs [`proof`] on `cases` random hard positions from `seed`: a complete
/// claimant side (3 or 4 cards, sometimes Blind-Man's Bluff) against an
/// opponent side of 0-2 cards (elite troops included), with every other
/// clan card and elite troop unseen. Timing only; no assertion.
fn bench_proof(cases: usize, seed: u64) -> ProofBench {
    use rand::seq::SliceRandom;
    use rand::Rng;
    use rand_chacha::rand_core::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = ProofBench {
        proven: 0,
        total: std::time::Duration::ZERO,
        worst: std::time::Duration::ZERO,
    };
    let mut deck: Vec<Card> = Card::all().filter(|c| c.is_clan()).collect();
    for _ in 0..cases {
        deck.shuffle(&mut rng);
        let n = if rng.random_range(0..3) == 0 { 4 } else { 3 };
        let blind = rng.random_range(0..5) == 0;
        // Claimant: often a strong formation (a colour run from a random start).
        let claimant: Vec<Card> = if rng.random::<bool>() {
            let c = rng.random_range(0..6u8);
            let s = rng.random_range(1..=(10 - n as u8));
            (s..s + n as u8).filter_map(|r| Card::clan(c, r)).collect()
        } else {
            deck[..n].to_vec()
        };
        let k = rng.random_range(0..3usize);
        let mut opponent: Vec<Card> = deck
            .iter()
            .filter(|c| !claimant.contains(c))
            .take(k)
            .copied()
            .collect();
        let mut pool = Pool {
            clan: (1u64 << 54) - 1,
            jokers: 2,
            spy: true,
            shield: true,
        };
        if k > 0 && rng.random::<bool>() {
            opponent[0] = Card::JOKER;
            pool.jokers = 1;
        }
        for c in claimant.iter().chain(&opponent) {
            if c.is_clan() {
                pool.clan &= !(1u64 << c.id());
            }
        }
        let mine = strength(&claimant, blind);
        let t = std::time::Instant::now();
        let ok = proof(mine, &opponent, n, blind, &pool);
        let dt = t.elapsed();
        out.proven += ok as usize;
        out.total += dt;
        out.worst = out.worst.max(dt);
    }
    out
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
            rate(|| searched(&pos, tablut::Evaluation::default(), 5)),
            "nodes",
        );
    }
    let pos = start::<AlmaTafl>("");
    row(
        "almatafl alpha-beta depth 4",
        rate(|| searched(&pos, almatafl::Evaluation::default(), 4)),
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
