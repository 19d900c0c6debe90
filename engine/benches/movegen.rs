//! Legal-move generation as a searcher sees it ([`History::turn`]: the moves
//! of a node into a reused buffer, and the end of the game in the same pass),
//! per game, with the number of moves as the throughput: criterion's
//! elements per second give the time per move.
//!
//! ```text
//! cargo bench -p caber-engine --bench movegen
//! ```

use std::hint::black_box;

use caber_engine::almatafl::AlmaTafl;
use caber_engine::tablut::{self, Tablut};
use caber_engine::tartan::{self, Tartan};
use caber_engine::{Game, Notation, Played};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench<G: Game>(c: &mut Criterion, name: &str, root: &Played<G>) {
    let history = root.walk();
    let mut moves = Vec::new();
    let _ = history.turn(root.position(), &mut moves);
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function(format!("{name} ({} moves)", moves.len()), |b| {
        b.iter(|| {
            let _ = history.turn(black_box(root.position()), &mut moves);
            moves.len()
        })
    });
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let tartan = |text: &str| Tartan::read(tartan::Variant::Standard, text).unwrap();
    // The most moves found: five red Hordes, two tokens in reserve and the 36
    // cells next to the outer Lochs empty: 5 x 4320 dismantles.
    bench(
        c,
        "tartan, most moves",
        &tartan("play C1=r2,A3=r2,G3=r2,I7=r2,G9=r2 D4,F6 2,12 0 r -"),
    );
    bench(
        c,
        "tartan, middle game",
        &tartan("play C4=r1,D4=r1,F4=b1,D6=b2,G7=r2,H6=b1,B3=r3,I9=b1 C3,F6 0,1 2 r -"),
    );
    bench(
        c,
        "tartan, start",
        &Played::<Tartan>::start(tartan::Variant::Standard, 0),
    );
    bench(
        c,
        "tablut bga, start",
        &Played::<Tablut>::start(tablut::Variant::Bga, 0),
    );
    bench(
        c,
        "almatafl, start",
        &Played::<AlmaTafl>::start(caber_engine::almatafl::Variant::Standard, 0),
    );
}

criterion_group!(benches, movegen);
criterion_main!(benches);
