//! The random move is uniform: a chi-squared test of many draws against the
//! listed moves, in every variant, at the start, in the middle of a game and
//! where a side has few moves (where the draw by rejection gives up and
//! counts); and the same test rejects a draw that is not uniform.

use std::collections::HashMap;
use std::ops::ControlFlow;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Pos;
use crate::game::Game;
use crate::tablut::{Move, Tablut, Variant};

/// Draws per move.
const PER_MOVE: usize = 200;

fn listed(pos: &Tablut) -> Vec<Move> {
    let mut moves = Vec::new();
    let _ = pos.generate(|m| {
        moves.push(m);
        ControlFlow::Continue(())
    });
    moves
}

/// Whether `draw`'s frequencies over `pos`'s moves fit the uniform
/// distribution: the chi-squared statistic of `PER_MOVE` draws a move below
/// its 99.99% quantile (Wilson and Hilferty's approximation). Panics on a
/// draw that is not a listed move.
fn uniform(
    pos: &Tablut,
    seed: u64,
    mut draw: impl FnMut(&Tablut, &mut ChaCha8Rng) -> Move,
) -> bool {
    let moves = listed(pos);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts: HashMap<Move, usize> = moves.iter().map(|&m| (m, 0)).collect();
    for _ in 0..PER_MOVE * moves.len() {
        let m = draw(pos, &mut rng);
        *counts
            .get_mut(&m)
            .unwrap_or_else(|| panic!("{m:?} is not a legal move")) += 1;
    }
    let expected = PER_MOVE as f64;
    let chi2: f64 = counts
        .values()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    let df = (moves.len() - 1) as f64;
    let z = 3.719; // the normal's 99.99% quantile
    let a = 2.0 / (9.0 * df);
    chi2 < df * (1.0 - a + z * a.sqrt()).powi(3)
}

fn random_move(pos: &Tablut, rng: &mut ChaCha8Rng) -> Move {
    pos.random_move(rng, &mut Vec::new()).expect("a move")
}

/// The position after `plies` plies of a seeded random game.
fn after_random_plies(v: Variant, seed: u64, plies: usize) -> Tablut {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Pos::start(v, 0);
    for _ in 0..plies {
        let moves = listed(pos.position());
        if pos.outcome().is_some() || moves.is_empty() {
            break;
        }
        pos = pos.play(&moves[rng.random_range(0..moves.len())]).unwrap();
    }
    *pos.position()
}

/// White to move with two moves (the king's to f5 and g5) and four soldiers
/// boxed in at b2-c3: a round hits one of the two in 80 (5 pieces, 16 places
/// each), so about one draw in five gives up after its rounds and counts.
const BOXED: &str = "1bb6/bwwb5/bwwb5/1bb1b4/3bk2b1/4b4/9/9/9 w -";

#[test]
fn the_random_move_is_uniform_in_every_variant() {
    for (i, v) in [
        Variant::Bga,
        Variant::BgaCorners,
        Variant::Ashton,
        Variant::Linnaeus,
    ]
    .into_iter()
    .enumerate()
    {
        let start = *Pos::start(v, 0).position();
        let middle = after_random_plies(v, 11 + i as u64, 30);
        let boxed = *Pos::from_notation(v, BOXED).unwrap().position();
        assert_eq!(listed(&boxed).len(), 2, "{v:?}");
        for (name, pos) in [("start", &start), ("middle", &middle), ("boxed", &boxed)] {
            assert!(uniform(pos, 7, random_move), "{v:?} {name}: {pos:?}");
        }
    }
}

/// The test has the power to see a bias: a piece drawn alike, then one of
/// its moves alike (a piece with fewer moves gives each more often), fails.
#[test]
fn a_draw_by_piece_is_not_uniform() {
    let by_piece = |pos: &Tablut, rng: &mut ChaCha8Rng| {
        let moves = listed(pos);
        let from = |m: &Move| match m {
            Move::Step { from, .. } => from.index(),
            Move::Pass => usize::MAX,
        };
        let mut pieces: Vec<usize> = moves.iter().map(from).collect();
        pieces.dedup();
        let piece = pieces[rng.random_range(0..pieces.len())];
        let own: Vec<Move> = moves.into_iter().filter(|m| from(m) == piece).collect();
        own[rng.random_range(0..own.len())]
    };
    assert!(!uniform(
        Pos::start(Variant::Linnaeus, 0).position(),
        7,
        by_piece
    ));
}
