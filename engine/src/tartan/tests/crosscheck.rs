//! The fast generator against the slow reference over random positions of
//! both phases, and perft.

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::played::perft;
use crate::tartan::reference::{name, on_board, RefPos};

/// Positions along random games from the start (placement and play).
fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<Pos> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Pos::start(Variant::Standard, 0);
        for _ in 0..plies {
            out.push(p.clone());
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            let Some(m) = v.choose(&mut rng) else { break };
            p = p.play_unchecked(m);
        }
    }
    out
}

/// Random valid play-phase positions built from scratch: stacks of every
/// height for both sides, Bishops anywhere, small reserves.
fn random_setups(seed: u64, count: usize) -> Vec<Pos> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cells: Vec<Cell> = Cell::all().filter(|c| !c.is_loch()).collect();
    let mut out = Vec::new();
    while out.len() < count {
        let mut left = [TOKENS; 2];
        let mut stacks = Vec::new();
        let mut used = BTreeSet::new();
        for _ in 0..rng.random_range(2..14) {
            let cell = *cells.choose(&mut rng).unwrap();
            let owner = if rng.random_bool(0.5) { RED } else { BLUE };
            let height = [1, 1, 1, 2, 2, 3, 4][rng.random_range(0..7)];
            if !used.insert(cell) || left[owner.index()] < height {
                continue;
            }
            left[owner.index()] -= height;
            stacks.push(Stack {
                cell,
                owner,
                height,
            });
        }
        let bishop = |rng: &mut ChaCha8Rng| {
            if rng.random_bool(0.1) {
                Cell::parse("E5").ok()
            } else {
                Some(*cells.choose(rng).unwrap())
            }
        };
        let setup = Setup {
            phase: Phase::Play,
            stacks,
            bishops: [bishop(&mut rng), bishop(&mut rng)],
            tokens: [
                rng.random_range(0..=left[0].min(3)),
                rng.random_range(0..=left[1].min(3)),
            ],
            quiet_turns: rng.random_range(0..14),
            side_to_move: if rng.random_bool(0.5) { RED } else { BLUE },
            history: Vec::new(),
        };
        if let Ok(p) = Tartan::from_setup(Variant::Standard, &setup) {
            out.push(p);
        }
    }
    out
}

/// Compares what the fast code says about `p` with the reference: the legal
/// moves, and the position after a sample of them.
fn check(p: &Pos, rng: &mut ChaCha8Rng) -> usize {
    let r = RefPos::from_fast(p.position());
    let fast: BTreeSet<String> = moves(p).into_iter().collect();
    if p.outcome().is_some() {
        assert!(fast.is_empty());
        return 0;
    }
    let expected = r.moves();
    assert_eq!(fast, expected, "{p:?}");
    let all: Vec<&String> = fast.iter().collect();
    for _ in 0..6 {
        let m = all.choose(rng).unwrap();
        let after = play(p, m);
        assert_eq!(RefPos::from_fast(after.position()), r.apply(m), "{p:?} {m}");
        let crowned = r.apply(m).crowned();
        let won = after.outcome().and_then(|o| match o.result {
            crate::GameResult::Win(w) => Some(w.index()),
            crate::GameResult::Draw => None,
        });
        assert_eq!(won, crowned, "{p:?} {m}");
    }
    fast.len()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Every position along a random game from the start (up to 70 plies).
    #[test]
    fn fast_generator_matches_the_reference_along_random_games(seed in proptest::prelude::any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for p in random_game_positions(seed, 1, 70) {
            check(&p, &mut rng);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    /// A random play-phase position built from scratch.
    #[test]
    fn fast_generator_matches_the_reference_on_random_setups(seed in proptest::prelude::any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for p in random_setups(seed, 1) {
            check(&p, &mut rng);
        }
    }
}

/// The random games of the cross-check meet every kind of move: both
/// phases, bounce chains of two and three hops, captures, Bishop steps and
/// dismantles (by thousands).
#[test]
fn random_games_meet_every_kind_of_move() {
    let positions = random_game_positions(1, 40, 70);
    let placement = positions
        .iter()
        .filter(|p| p.position().phase() == Phase::Placement)
        .count();
    assert!(
        placement > 300 && positions.len() - placement > 1000,
        "{placement} of {}",
        positions.len()
    );
    let all: Vec<String> = positions.iter().flat_map(moves).collect();
    let count = |f: &dyn Fn(&str) -> bool| all.iter().filter(|m| f(m)).count();
    assert!(count(&|m| m.starts_with("D:")) > 10_000);
    assert!(count(&|m| m.starts_with("B:")) > 1000);
    assert!(count(&|m| !m.contains(':') && m.matches('-').count() == 2) > 100);
    assert!(count(&|m| !m.contains(':') && m.matches('-').count() == 3) > 0);
    let captures = positions
        .iter()
        .flat_map(|p| moves(p).into_iter().map(move |m| kinds(p, &m)))
        .filter(|k| k.contains(&"capture"))
        .count();
    assert!(captures > 50, "{captures}");
}

/// A count of moves by brute force through the reference.
fn reference_perft(r: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if r.crowned().is_some() || (!r.placement && r.quiet >= QUIET_TURNS_DRAW) {
        return 0;
    }
    let moves = r.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| reference_perft(&r.apply(m), depth - 1))
        .sum()
}

#[test]
fn perft_to_depth_three_matches_the_reference_from_mid_game_positions() {
    // Two positions of play with unions, captures in reach and a reserve (no
    // history: no repetition within three plies), and one late in the placement.
    for text in [
        "play C4=r1,D4=r1,F4=b1,D6=b2,G7=r2,H6=b1 C3,F6 0,0 0 r -",
        "play B3=r2,C4=b1,D4=r3,E6=b2,F7=b1,G8=r1,A1=b1 D5,G6 0,1 3 r -",
        "place D1=r1,C2=b1,F2=r1,B3=b1,E3=r1,A4=b1,D4=r1,G4=b1,C5=r1,F5=b1,I5=r1,B6=b1 - 6,6 0 r -",
    ] {
        let p = pos(text);
        let r = RefPos::from_fast(p.position());
        for depth in 1..=3 {
            assert_eq!(
                perft(&p, depth),
                reference_perft(&r, depth),
                "{text} depth {depth}"
            );
        }
    }
}

/// Every cell of the reference's board is a cell of the fast one, named alike.
#[test]
fn the_reference_board_is_the_fast_one() {
    let mut n = 0;
    for r in 0..9 {
        for c in 0..9 {
            if on_board((c, r)) {
                n += 1;
                assert_eq!(
                    Cell::parse(&name((c, r))).unwrap().coords(),
                    (c as usize, r as usize)
                );
            }
        }
    }
    assert_eq!(n, Cell::all().count());
}
