//! Playing moves and searching, as a searcher sees them: `play_unchecked` of
//! every legal move of a position (throughput: moves), a uniform random move
//! ([`History::random_turn`]), and alpha-beta
//! to a fixed depth from the start (throughput: nodes searched, so criterion's
//! elements per second are nodes per second).
//!
//! ```text
//! cargo bench -p caber-engine --bench play
//! ```

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use caber_engine::almatafl::AlmaTafl;
use caber_engine::search::{alphabeta, Limits, PerfectSearch};
use caber_engine::tablut::{self, Tablut};
use caber_engine::{Game, Played};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn apply<G: Game>(c: &mut Criterion, name: &str, root: &Played<G>) {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let mut group = c.benchmark_group("apply");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function(format!("{name} ({} moves)", moves.len()), |b| {
        b.iter(|| {
            for m in &moves {
                black_box(black_box(root.position()).play_unchecked(m));
            }
        })
    });
    group.finish();
    let history = root.walk();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.bench_function(&format!("random move/{name}"), |b| {
        b.iter(|| history.random_turn(black_box(root.position()), &mut rng, &mut moves))
    });
}

fn search<G: PerfectSearch>(c: &mut Criterion, name: &str, root: &Played<G>, depth: u32) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let run = || {
        alphabeta::AlphaBeta::new(alphabeta::DEFAULT_TT_MB, G::Evaluation::default()).search(
            root,
            &limits,
            &AtomicBool::new(false),
            &mut |_| {},
        )
    };
    let nodes = run().nodes;
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("{name}, depth {depth} ({nodes} nodes)"), |b| {
        b.iter(run)
    });
    group.finish();
}

fn play(c: &mut Criterion) {
    let tablut = Played::<Tablut>::start(tablut::Variant::Ashton, 0);
    let almatafl = Played::<AlmaTafl>::start(caber_engine::almatafl::Variant::Standard, 0);
    apply(c, "tablut ashton, start", &tablut);
    apply(c, "almatafl, start", &almatafl);
    search(c, "tablut ashton, start", &tablut, 4);
    search(c, "almatafl, start", &almatafl, 3);
}

criterion_group!(benches, play);
criterion_main!(benches);
