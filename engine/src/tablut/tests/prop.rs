//! Cross-checks of the fast generator against the reference one, perft, and
//! notation round trips and garbage input.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Pos;
use crate::eval::Evaluator;
use crate::game::{Game, Player};
use crate::played::{perft, perft_divide};
use crate::tablut::Cell;
use crate::tablut::{reference, zobrist, Evaluation, Move, Piece, Setup, Tablut, Variant};

const ALL: [Variant; 4] = [
    Variant::Bga,
    Variant::BgaCorners,
    Variant::Ashton,
    Variant::Linnaeus,
];

fn fast_moves(pos: &Pos) -> Vec<Move> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v.sort_by_key(|m| match *m {
        Move::Step { from, to } => (from.index(), to.index()),
        Move::Pass => (usize::MAX, 0),
    });
    v
}

fn reference_moves(pos: &Pos) -> Vec<Move> {
    if pos.outcome().is_some() {
        Vec::new()
    } else {
        reference::moves(pos.position())
    }
}

fn reference_perft(pos: &Pos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = reference_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| reference_perft(&pos.play_unchecked(m), depth - 1))
        .sum()
}

/// Start positions, counted by hand (symmetry: 4 x one camp group or white arm).
/// bga: d1 goes c1 b1 a1 and d2 d3 d4 (6), f1 likewise (6), e1 is boxed in (0),
/// e2 goes d2..a2 and f2..i2 (8): 20 per group, 80. bga-corners: a1 and i1 are
/// corners only the king enters, so d1 and f1 have 5 each: 18 per group, 72.
/// linnaeus: as bga (no camp matters at the start): 80. ashton, white first: e3
/// goes d3..a3 and f3..i3 (8), e4 goes d4 c4 b4 and f4 g4 h4 (a4/i4 are camps) (6),
/// the king is boxed in: 14 per arm, 56.
#[test]
fn perft_depth_one_by_hand() {
    let expected = [
        (Variant::Bga, 80),
        (Variant::BgaCorners, 72),
        (Variant::Ashton, 56),
        (Variant::Linnaeus, 80),
    ];
    for (v, n) in expected {
        assert_eq!(perft(&Pos::start(v, 0), 1), n, "{v:?}");
        assert_eq!(reference_perft(&Pos::start(v, 0), 1), n, "{v:?}");
    }
}

#[test]
fn perft_depths_one_to_three_match_reference() {
    for v in ALL {
        let start = Pos::start(v, 0);
        for depth in 1..=3 {
            let fast = perft(&start, depth);
            let slow = reference_perft(&start, depth);
            assert_eq!(fast, slow, "{v:?} depth {depth}");
            assert!(fast > 0);
        }
    }
}

/// Ashton perft(5) from the start, first move by first move, against the
/// reference generator: the same 56 first moves and the same count below
/// each, 1,074,150,880 in all. The reference takes minutes even in release
/// mode, so the test runs on request:
/// `cargo test --release -p caber-engine --lib ashton_perft_5 -- --ignored`.
#[test]
#[ignore = "minutes in release mode; run with --ignored"]
fn ashton_perft_5_divide_matches_reference() {
    let start = Pos::start(Variant::Ashton, 0);
    assert_eq!(fast_moves(&start), reference_moves(&start));
    let divide = perft_divide(&start, 5, &AtomicBool::new(false)).expect("never stopped");
    assert_eq!(divide.len(), 56);
    let mut total = 0;
    for (m, fast) in divide {
        let slow = reference_perft(&start.play_unchecked(&m), 4);
        assert_eq!(fast, slow, "below {m:?}");
        total += slow;
    }
    assert_eq!(total, 1_074_150_880);
}

/// The count and the n-th move agree with the generator's list, in its order.
fn check_count_and_nth(pos: &Tablut) {
    let mut listed = Vec::new();
    let _ = pos.generate(|m| {
        listed.push(m);
        ControlFlow::Continue(())
    });
    assert_eq!(pos.count_moves(), listed.len());
    for (n, m) in listed.iter().enumerate() {
        assert_eq!(pos.nth_move(n), Some(*m), "move {n}");
    }
    assert_eq!(pos.nth_move(listed.len()), None);
    for n in 0..listed.len() {
        let picked = pos.pick_move(
            |count| {
                assert_eq!(count, listed.len());
                n
            },
            &mut Vec::new(),
        );
        assert_eq!(picked, Some(listed[n]));
    }
    // Draws without listing give listed moves (their uniformity: uniform.rs).
    let mut rng = ChaCha8Rng::seed_from_u64(listed.len() as u64);
    for _ in 0..8 {
        let drawn = pos.random_move(&mut rng, &mut Vec::new());
        assert!(drawn.is_some_and(|m| listed.contains(&m)), "{drawn:?}");
    }
}

/// Plays seeded random games in every variant and compares, at every position,
/// the fast generator with the reference, the incremental hash with a full one,
/// and the notation round trip.
#[test]
fn random_games_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7ab1);
    let mut positions = 0;
    let mut finished = 0;
    for game in 0..2000 {
        let v = ALL[game % 4];
        let mut pos = Pos::start(v, 0);
        for _ in 0..150 {
            let fast = fast_moves(&pos);
            let mut dedup = fast.clone();
            dedup.dedup();
            assert_eq!(
                dedup.len(),
                fast.len(),
                "duplicate moves in {}",
                pos.to_notation()
            );
            assert_eq!(fast, reference_moves(&pos), "{}", pos.to_notation());
            if pos.outcome().is_none() {
                check_count_and_nth(pos.position());
            }
            assert_eq!(
                pos.hash(),
                zobrist::full(
                    pos.position().pieces().map(|(c, p)| (c.index(), p)),
                    pos.side_to_move()
                )
            );
            let text = pos.to_notation();
            assert_eq!(Pos::from_notation(v, &text).as_ref(), Ok(&pos), "{text}");
            positions += 1;
            if fast.is_empty() {
                assert!(pos.outcome().is_some(), "no move but not over: {text}");
                finished += 1;
                break;
            }
            let mv = fast[rng.random_range(0..fast.len())];
            pos = pos.play_unchecked(&mv);
        }
    }
    assert!(positions > 80_000, "{positions}");
    assert!(finished > 100, "{finished}");
}

fn random_setup(rng: &mut ChaCha8Rng) -> Setup {
    let mut pieces = Vec::new();
    for c in Cell::all() {
        let r = rng.random_range(0..100);
        let p = match r {
            0..=11 => Some(Piece::Black),
            12..=18 => Some(Piece::White),
            19 => Some(Piece::King),
            _ => None,
        };
        if let Some(p) = p {
            pieces.push((c, p));
        }
    }
    let history = (0..rng.random_range(0..4)).map(|_| rng.random()).collect();
    Setup {
        pieces,
        side_to_move: if rng.random() {
            Player::One
        } else {
            Player::Two
        },
        history,
        passes: rng.random_range(0..3),
    }
}

#[test]
fn random_setups_round_trip_or_are_rejected() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut accepted = 0;
    for n in 0..20_000 {
        let v = ALL[n % 4];
        let setup = random_setup(&mut rng);
        match Tablut::from_setup(v, &setup) {
            Ok(pos) => {
                accepted += 1;
                let text = pos.to_notation();
                assert_eq!(Pos::from_notation(v, &text).as_ref(), Ok(&pos), "{text}");
                assert_eq!(Tablut::from_setup(v, &pos.setup()).as_ref(), Ok(&pos));
                // Everything a position can be asked must work.
                let _ = pos.outcome();
                let _ = Evaluation::default().evaluate(pos.position());
                let _ = pos.diagram();
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                for m in moves.iter().take(3) {
                    let next = pos.play_unchecked(m);
                    let _ = super::events(&pos, m, &next);
                }
                let _ = pos.for_each_move(&mut |_| ControlFlow::Break(()));
            }
            Err(e) => assert!(!e.problems.is_empty()),
        }
    }
    assert!(accepted > 100, "{accepted}");
}

proptest! {
    #[test]
    fn position_garbage_never_panics(text in "\\PC{0,80}") {
        for v in ALL {
            let _ = Pos::from_notation(v, &text);
        }
    }

    #[test]
    fn position_like_garbage_never_panics(text in "[bwkBWK0-9/]{0,60} [bwx] (-|[0-9a-f,]{0,40})( p[0-9])?") {
        for v in ALL {
            if let Err(e) = Pos::from_notation(v, &text) {
                prop_assert!(!e.problems.is_empty());
            }
        }
    }

    #[test]
    fn move_garbage_never_panics(text in "\\PC{0,12}") {
        for v in ALL {
            let _ = Pos::start(v, 0).parse_move(&text);
        }
    }

    #[test]
    fn move_like_garbage_never_panics(text in "[a-kA-K0-9]{1,3}-?[a-kA-K0-9]{0,3}") {
        let pos = Pos::start(Variant::Bga, 0);
        if let Ok(m) = pos.parse_move(&text) {
            prop_assert_eq!(pos.parse_move(&pos.move_to_text(&m)), Ok(m));
        }
    }
}
