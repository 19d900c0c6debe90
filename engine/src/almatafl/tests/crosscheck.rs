//! The fast generator against the slow reference over random positions.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::almatafl::reference::{board_cells, chain_text, name, Coord, RefPos};
use crate::played::perft;

/// Positions along random games from the start.
pub(super) fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<Pos> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Pos::start(Variant::Standard, 0);
        for _ in 0..plies {
            out.push(p.clone());
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            p = p.play_unchecked(&v[rng.random_range(0..v.len())]);
        }
    }
    out
}

/// Random valid positions built from scratch (crowded, tall stacks, King anywhere).
pub(super) fn random_setups(seed: u64, count: usize) -> Vec<Pos> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cells: Vec<Cell> = Cell::all().collect();
    let mut out = Vec::new();
    while out.len() < count {
        let mut stacks: Vec<Vec<Piece>> = vec![Vec::new(); cells.len()];
        let discs = [
            (Piece::Invader, rng.random_range(0..=24)),
            (Piece::Defender, rng.random_range(1..=12)),
        ];
        for (piece, n) in discs {
            for _ in 0..n {
                let c = cells[rng.random_range(0..cells.len())];
                if !c.is_escape() && !c.is_throne() && stacks[c.index()].len() < 3 {
                    stacks[c.index()].push(piece);
                }
            }
        }
        let k = cells[rng.random_range(0..cells.len())];
        if stacks[k.index()].len() >= 3 || (k.is_escape() && rng.random_range(0..4) > 0) {
            continue;
        }
        stacks[k.index()].push(Piece::King);
        let setup = Setup {
            stacks: cells
                .iter()
                .map(|&c| (c, stacks[c.index()].clone()))
                .collect(),
            side_to_move: if rng.random::<bool>() {
                Player::One
            } else {
                Player::Two
            },
            history: Vec::new(),
        };
        if let Ok(p) = AlmaTafl::from_setup(&setup) {
            out.push(p);
        }
    }
    out
}

fn coords_of(text: &str) -> Vec<Coord> {
    text.split('-')
        .map(|n| {
            let (c, r) = Cell::parse(n).unwrap().coords();
            (c as i32, r as i32)
        })
        .collect()
}

/// Compares everything the fast code says about `p` with the reference.
fn check(p: &Pos, rng: &mut ChaCha8Rng) {
    let r = RefPos::from_fast(p.position());
    let fast = moves(p);
    if p.repetitions() >= 2 {
        assert!(fast.is_empty());
        return;
    }
    assert_eq!(p.position().decided().is_some(), r.finished(), "{p:?}");
    if !r.finished() {
        check_counted_draw(p.position());
    }
    let expected: Vec<String> = {
        let mut v: Vec<String> = r.distinct_moves().values().map(|c| chain_text(c)).collect();
        v.sort();
        v
    };
    assert_eq!(fast, expected, "{p:?}");
    let outcome = p.outcome();
    if fast.is_empty() {
        assert!(outcome.is_some());
    } else {
        assert_eq!(outcome, None);
    }
    for m in &fast {
        let after = play(p, m);
        assert_eq!(
            RefPos::from_fast(after.position()),
            r.apply(&coords_of(m)),
            "{p:?} {m}"
        );
    }
    // Every chain the reference allows is accepted, with the same result.
    let chains = r.chains();
    let legal: BTreeSet<String> = chains.iter().map(|c| chain_text(c)).collect();
    for c in chains.iter().take(300) {
        let after = play(p, &chain_text(c));
        assert_eq!(RefPos::from_fast(after.position()), r.apply(c));
    }
    // Random chains from the side's pieces are accepted exactly when legal.
    let all: Vec<Coord> = board_cells().into_iter().collect();
    let starts: Vec<Coord> = r.stacks.keys().copied().collect();
    for _ in 0..20 {
        let mut chain = vec![starts[rng.random_range(0..starts.len())]];
        for _ in 0..rng.random_range(1..4) {
            chain.push(all[rng.random_range(0..all.len())]);
        }
        let text = chain.iter().map(|&c| name(c)).collect::<Vec<_>>().join("-");
        let m = p.parse_move(&text).unwrap();
        assert_eq!(p.check(&m).is_ok(), legal.contains(&text), "{p:?} {text}");
    }
}

/// The counted draw gives the generator's `n`-th move for every `n`, told
/// the number of moves, and nothing without moves.
fn check_counted_draw(pos: &AlmaTafl) {
    let mut listed = Vec::new();
    let _ = pos.generate(|m| {
        listed.push(m);
        ControlFlow::Continue(())
    });
    for n in 0..listed.len() {
        let picked = pos.pick_move(
            |count| {
                assert_eq!(count, listed.len());
                n
            },
            &mut Vec::new(),
        );
        assert_eq!(picked, Some(listed[n]), "{pos:?} move {n}");
    }
    if listed.is_empty() {
        assert_eq!(pos.pick_move(|_| unreachable!(), &mut Vec::new()), None);
    }
}

#[test]
fn fast_generator_matches_the_reference_in_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let positions = random_game_positions(1, 45, 80);
    assert!(positions.len() > 2500);
    for p in &positions {
        check(p, &mut rng);
    }
}

/// What play keeps up to date ply by ply (hash, King, cell masks) is what a
/// position built afresh from the same board holds.
#[test]
fn incremental_state_matches_a_fresh_build() {
    let positions = random_game_positions(3, 40, 150);
    assert!(positions.len() > 2000);
    for p in &positions {
        let pos = p.position();
        assert_eq!(&AlmaTafl::assemble(pos.board, pos.side), pos);
    }
}

#[test]
fn fast_generator_matches_the_reference_in_random_setups() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let positions = random_setups(2, 3000);
    // The sample holds King chains of several bounces.
    let longest = positions
        .iter()
        .flat_map(moves)
        .map(|m| m.split('-').count())
        .max();
    assert!(longest >= Some(4), "longest chain {longest:?}");
    for p in &positions {
        check(p, &mut rng);
    }
}

#[test]
fn perft_to_depth_three_matches_the_reference() {
    let start = Pos::start(Variant::Standard, 0);
    let r = RefPos::from_fast(start.position());
    for (depth, expected) in [(1, 90), (2, 6480)] {
        assert_eq!(perft(&start, depth), expected);
        assert_eq!(r.perft(depth), expected);
    }
    let fast = perft(&start, 3);
    assert_eq!(fast, r.perft(3));
    assert_eq!(fast, PERFT_3);
}

/// Perft 3 from the start, as both generators count it.
const PERFT_3: u64 = 574_848;
