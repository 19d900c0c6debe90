//! The `LegalMoves` reply of a start position: written by the server
//! (`convert::legal_moves`, move generation included, then encoded) and read
//! by a client (`LegalMovesResponse::decode`). `read-generic` decodes the same
//! bytes with prost's derived code (what the generated type did): the baseline
//! of `read`, run in the same process. Allocator: mimalloc, as in `caberd` and
//! `caber`.
//!
//! `cargo bench -p caber-service --bench legal_moves`

use std::hint::black_box;

use caber_engine::catalog;
use caber_service::convert;
use caber_service::proto::{LegalMovesResponse, MoveInfo};
use criterion::{criterion_group, criterion_main, Criterion};
use prost::Message;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `LegalMovesResponse` as prost derives it: the generic decoder.
#[derive(Clone, PartialEq, Message)]
struct GenericReply {
    #[prost(message, repeated, tag = "1")]
    moves: Vec<MoveInfo>,
}

fn legal_moves(c: &mut Criterion) {
    for game in ["tablut", "almatafl"] {
        let position = catalog::new_game(game, "", 0).expect("a start position");
        let write = || LegalMovesResponse::written(convert::legal_moves(&*position), None);
        let bytes = write().encode_to_vec();
        assert_eq!(
            LegalMovesResponse::decode(bytes.as_slice())
                .unwrap()
                .moves(),
            GenericReply::decode(bytes.as_slice())
                .unwrap()
                .moves
                .as_slice(),
        );
        c.bench_function(&format!("write/{game}-start"), |b| {
            b.iter(|| black_box(write()).encode_to_vec())
        });
        c.bench_function(&format!("read/{game}-start"), |b| {
            b.iter(|| LegalMovesResponse::decode(black_box(bytes.as_slice())).unwrap())
        });
        c.bench_function(&format!("read-generic/{game}-start"), |b| {
            b.iter(|| GenericReply::decode(black_box(bytes.as_slice())).unwrap())
        });
    }
}

criterion_group!(benches, legal_moves);
criterion_main!(benches);
