//! Capture, king-capture, hostile-cell, camp, throne and escape rules, per variant,
//! on hand-built positions.

use super::Pos;
use crate::tablut::{Cell, Piece, Setup, Tablut, Variant};

use crate::game::{GameResult, Outcome, Player};

pub(crate) const B: Player = Player::One;
pub(super) const W: Player = Player::Two;
pub(super) const ALL: [Variant; 4] = [
    Variant::Bga,
    Variant::BgaCorners,
    Variant::Ashton,
    Variant::Linnaeus,
];

/// A validated position from space-separated cell lists (`king` may be empty).
pub(crate) fn pos(v: Variant, side: Player, black: &str, white: &str, king: &str) -> Pos {
    let mut pieces = Vec::new();
    for (list, piece) in [
        (black, Piece::Black),
        (white, Piece::White),
        (king, Piece::King),
    ] {
        for name in list.split_whitespace() {
            pieces.push((Cell::parse(name).expect("cell"), piece));
        }
    }
    let setup = Setup {
        pieces,
        side_to_move: side,
        history: Vec::new(),
        passes: 0,
    };
    Tablut::from_setup(v, &setup).unwrap_or_else(|e| panic!("{v:?}: {e}"))
}

/// Plays a move checked for legality.
pub(super) fn play(p: &Pos, text: &str) -> Pos {
    let m = p.parse_move(text).expect("move syntax");
    p.clone()
        .play(&m)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", p.diagram()))
}

/// Whether a move is legal.
pub(super) fn legal(p: &Pos, text: &str) -> bool {
    let m = p.parse_move(text).expect("move syntax");
    p.clone().play(&m).is_ok()
}

/// The piece on a named cell.
pub(super) fn at(p: &Pos, cell: &str) -> Option<Piece> {
    p.position().piece_at(Cell::parse(cell).expect("cell"))
}

/// The event kinds of a move.
pub(super) fn kinds(p: &Pos, text: &str) -> Vec<&'static str> {
    let m = p.parse_move(text).expect("move syntax");
    let after = play(p, text);
    super::events(p, &m, &after)
        .iter()
        .map(|e| e.kind)
        .collect()
}

fn win(p: &Pos) -> Option<(GameResult, &'static str)> {
    p.outcome().map(|o: Outcome| (o.result, o.reason))
}

#[test]
fn black_captures_a_white_soldier_between_two_in_every_variant() {
    for v in ALL {
        let p = pos(v, B, "b3 d7", "c3", "e5");
        let m = p.parse_move("d7-d3").unwrap();
        let after = play(&p, "d7-d3");
        assert_eq!(at(&after, "c3"), None, "{v:?}");
        assert_eq!(at(&after, "d3"), Some(Piece::Black));
        let ev = super::events(&p, &m, &after);
        assert_eq!(ev[0].kind, "capture");
        assert_eq!(ev[0].cells, vec!["c3".to_string()]);
        assert!(after.history().is_empty(), "a capture clears the history");
    }
}

#[test]
fn white_captures_a_black_soldier_between_two_in_every_variant() {
    for v in ALL {
        let p = pos(v, W, "c3", "b3 d7", "e5");
        let after = play(&p, "d7-d3");
        assert_eq!(at(&after, "c3"), None, "{v:?}");
    }
}

#[test]
fn several_captures_at_once() {
    for v in ALL {
        let p = pos(v, B, "a7 e7 c5 c9", "b7 d7 c6", "e5");
        assert_eq!(kinds(&p, "c9-c7"), vec!["capture"]);
        let after = play(&p, "c9-c7");
        for c in ["b7", "d7", "c6"] {
            assert_eq!(at(&after, c), None, "{v:?} {c}");
        }
        assert_eq!(
            after.position().pieces().count(),
            4 + 1,
            "four black and the king left"
        );
    }
}

#[test]
fn moving_between_two_enemies_is_safe() {
    for v in ALL {
        let p = pos(v, B, "c7", "b3 d3", "e5");
        let after = play(&p, "c7-c3");
        assert_eq!(at(&after, "c3"), Some(Piece::Black), "{v:?}");
        assert_eq!(at(&after, "b3"), Some(Piece::White));
        assert_eq!(at(&after, "d3"), Some(Piece::White));
        let p = pos(v, W, "b3 d3", "c7", "e5");
        let after = play(&p, "c7-c3");
        assert_eq!(at(&after, "c3"), Some(Piece::White), "{v:?}");
    }
}

/// Runs one capture attempt in every variant and compares with the expected
/// result per variant (bga, bga-corners, ashton, linnaeus).
fn check_capture(
    side: Player,
    black: &str,
    white: &str,
    king: &str,
    mv: &str,
    target: &str,
    expected: [bool; 4],
) {
    for (v, captured) in ALL.into_iter().zip(expected) {
        let p = pos(v, side, black, white, king);
        let after = play(&p, mv);
        assert_eq!(
            at(&after, target).is_none(),
            captured,
            "{v:?}: {mv} capturing {target}\n{}",
            p.diagram()
        );
    }
}

#[test]
fn white_soldier_against_an_empty_camp() {
    // Only ashton has hostile camps.
    check_capture(
        B,
        "d7",
        "d2",
        "e5",
        "d7-d3",
        "d2",
        [false, false, true, false],
    );
}

#[test]
fn white_soldier_against_the_throne_with_the_king_on_it() {
    check_capture(
        B,
        "h3",
        "e4",
        "e5",
        "h3-e3",
        "e4",
        [false, false, true, true],
    );
}

#[test]
fn white_soldier_against_the_empty_throne() {
    check_capture(
        B,
        "h3",
        "e4",
        "d4",
        "h3-e3",
        "e4",
        [false, false, true, true],
    );
}

#[test]
fn black_soldier_against_the_empty_throne() {
    check_capture(
        W,
        "e4",
        "h3",
        "d6",
        "h3-e3",
        "e4",
        [false, false, true, true],
    );
}

#[test]
fn black_soldier_against_the_throne_with_the_king_on_it() {
    // linnaeus: the throne is hostile even occupied; ashton: the armed king is an anvil.
    check_capture(
        W,
        "e4",
        "h3",
        "e5",
        "h3-e3",
        "e4",
        [false, false, true, true],
    );
}

#[test]
fn black_soldier_against_a_camp_empty_or_occupied() {
    // a4 is a camp but not a middle edge cell: hostile to black in ashton.
    check_capture(
        W,
        "a3",
        "d2",
        "e5",
        "d2-a2",
        "a3",
        [false, false, true, false],
    );
    // A black piece standing on a4 does not protect a3.
    check_capture(
        W,
        "a3 a4",
        "d2",
        "e5",
        "d2-a2",
        "a3",
        [false, false, true, false],
    );
}

#[test]
fn ashton_middle_edge_camps_are_not_hostile_to_black() {
    // Black next to a5, e1, i5, e9 (inside the camp), white closing from the other side.
    for (black, white, mv, target) in [
        ("e2", "h3", "h3-e3", "e2"),
        ("b5", "c8", "c8-c5", "b5"),
        ("h5", "g8", "g8-g5", "h5"),
        ("e8", "h7", "h7-e7", "e8"),
    ] {
        let p = pos(Variant::Ashton, W, black, white, "d6");
        let after = play(&p, mv);
        assert_eq!(at(&after, target), Some(Piece::Black), "{mv}");
    }
    // The same black piece against a non-middle camp cell is captured: f1 is hostile.
    let p = pos(Variant::Ashton, W, "g1", "h4", "e5");
    let after = play(&p, "h4-h1");
    assert_eq!(at(&after, "g1"), None);
}

#[test]
fn corners_are_hostile_only_in_bga_corners() {
    check_capture(
        B,
        "d3",
        "a2",
        "e5",
        "d3-a3",
        "a2",
        [false, true, false, false],
    );
    check_capture(
        W,
        "b1",
        "c4",
        "e5",
        "c4-c1",
        "b1",
        [false, true, false, false],
    );
}

#[test]
fn the_king_is_armed_only_in_ashton_and_linnaeus() {
    // The king captures by moving (blockers keep bga free of Tuichi).
    check_capture(
        W,
        "c3 a7",
        "b3 g7",
        "d7",
        "d7-d3",
        "c3",
        [false, false, true, true],
    );
    // The king as the anvil.
    check_capture(
        W,
        "c3",
        "b1",
        "d3",
        "b1-b3",
        "c3",
        [false, false, true, true],
    );
}

#[test]
fn bga_king_captured_on_the_throne_by_four() {
    for v in [
        Variant::Bga,
        Variant::BgaCorners,
        Variant::Ashton,
        Variant::Linnaeus,
    ] {
        let p = pos(v, B, "e4 d5 f5 e7", "", "e5");
        assert_eq!(kinds(&p, "e7-e6"), vec!["king-captured"], "{v:?}");
        let after = play(&p, "e7-e6");
        assert_eq!(after.position().king(), None);
        assert_eq!(win(&after), Some((GameResult::Win(B), "king captured")));
        // Three are not enough on the throne in any variant.
        let p = pos(v, B, "e4 d5 e7", "", "e5");
        assert_eq!(
            play(&p, "e7-e6").position().king(),
            Cell::parse("e5").ok(),
            "{v:?}"
        );
    }
}

#[test]
fn king_next_to_the_throne_needs_three_black() {
    for v in ALL {
        let p = pos(v, B, "d4 f4 h3", "", "e4");
        let after = play(&p, "h3-e3");
        assert_eq!(after.position().king(), None, "{v:?}");
        // A side missing: not captured.
        let p = pos(v, B, "d4 h3", "", "e4");
        let after = play(&p, "h3-e3");
        assert!(after.position().king().is_some(), "{v:?}");
    }
}

#[test]
fn king_away_from_the_throne() {
    // bga variants: four sides; ashton/linnaeus: two opposite sides suffice.
    check_capture(
        B,
        "b3 d3 c2 c7",
        "",
        "c3",
        "c7-c4",
        "c3",
        [true, true, true, true],
    );
    check_capture(
        B,
        "b3 d7 c1 c8",
        "",
        "c3",
        "d7-d3",
        "c3",
        [false, false, true, true],
    );
    // Three sides only: no capture in bga variants; in ashton/linnaeus the mover on
    // c4 has no partner on c2 (b3 and d3 were already there: only the mover captures).
    check_capture(
        B,
        "b3 d3 c7",
        "",
        "c3",
        "c7-c4",
        "c3",
        [false, false, false, false],
    );
}

#[test]
fn king_against_camps_and_edges() {
    // bga: camps d1 and e2 count as two sides of the king on d2.
    let p = pos(Variant::Bga, B, "c2 d7", "", "d2");
    assert_eq!(play(&p, "d7-d3").position().king(), None);
    // ashton: black + camp (a4) captures the king on b4.
    let p = pos(Variant::Ashton, B, "c8", "", "b4");
    assert_eq!(play(&p, "c8-c4").position().king(), None);
    // bga-corners: the edge (off board) counts: three black on a5.
    let p = pos(Variant::BgaCorners, B, "a4 b5 a7", "", "a5");
    assert_eq!(play(&p, "a7-a6").position().king(), None);
    // bga-corners: next to a corner, two black suffice (corner + off board).
    let p = pos(Variant::BgaCorners, B, "b2 c4 g1", "", "b1");
    assert_eq!(play(&p, "c4-c1").position().king(), None);
    let p = pos(Variant::BgaCorners, B, "c4 g1", "", "b1");
    assert!(play(&p, "c4-c1").position().king().is_some());
}

#[test]
fn next_to_the_throne_two_opposite_are_not_enough() {
    // King on e4 (next to the throne), black closes d4-f4: e3 is still open.
    for v in [Variant::Ashton, Variant::Linnaeus] {
        let p = pos(v, B, "d4 h4 a9", "", "e4");
        let after = play(&p, "h4-f4");
        assert!(after.position().king().is_some(), "{v:?}");
        // One row up (e3 is not next to the throne) the same pair captures.
        let p = pos(v, B, "d3 h3 a9", "", "e3");
        assert_eq!(play(&p, "h3-f3").position().king(), None, "{v:?}");
    }
}

#[test]
fn the_king_is_captured_only_by_a_black_move_next_to_him() {
    // The king walks into a closed box himself (decision: safe until black closes it).
    let p = pos(Variant::Bga, W, "d4 f4 e3 a7 i7", "", "e5");
    let p = play(&p, "e5-e4");
    assert!(p.outcome().is_none());
    let p = play(&p, "a7-a8");
    assert!(
        p.position().king().is_some(),
        "a far black move does not capture"
    );
}

#[test]
fn camps_are_entered_only_from_the_same_camp() {
    for v in [Variant::Bga, Variant::Ashton] {
        let p = pos(v, B, "d1 a2 h9", "", "e5");
        assert!(legal(&p, "d1-e1"), "{v:?}: within the camp");
        assert!(legal(&p, "d1-g1"), "{v:?}: through the camp");
        assert!(legal(&p, "d1-d8"), "{v:?}: out of the camp");
        assert!(!legal(&p, "d1-d9"), "{v:?}: into another camp group");
        let p = pos(v, B, "a4 c1 d3 h9", "", "e5");
        assert!(legal(&p, "a4-h4"));
        assert!(!legal(&p, "a4-i4"), "{v:?}: into the opposite camp");
        assert!(!legal(&p, "c1-d1"), "{v:?}: entering from outside");
        assert!(!legal(&p, "c1-g1"), "{v:?}: crossing from outside");
        assert!(!legal(&p, "d3-d1"), "{v:?}: re-entering");
        let p = pos(v, B, "e2 h9", "", "e5");
        let p = play(&p, "e2-e3");
        let p = play(&p, "e5-d5");
        assert!(!legal(&p, "e3-e2"), "{v:?}: once out, never back");
        let p = pos(v, W, "h9", "d3", "c2");
        assert!(!legal(&p, "d3-d1"), "{v:?}: white never enters");
        assert!(!legal(&p, "c2-e2"), "{v:?}: the king never enters");
    }
    for v in [Variant::BgaCorners, Variant::Linnaeus] {
        let p = pos(v, B, "c1 a4 h9", "", "e5");
        assert!(legal(&p, "c1-g1") && legal(&p, "a4-i4"), "{v:?}: no camps");
    }
}

#[test]
fn throne_passing_and_landing() {
    // king on e3, blockers keep bga free of Tuichi.
    for (v, king_ok, soldier_pass) in [
        (Variant::Bga, true, false),
        (Variant::BgaCorners, true, true),
        (Variant::Ashton, false, false),
        (Variant::Linnaeus, false, false),
    ] {
        let p = pos(v, W, "b3 h3 h9", "c5", "e3");
        assert_eq!(legal(&p, "e3-e5"), king_ok, "{v:?}");
        assert_eq!(legal(&p, "e3-e7"), king_ok, "{v:?}");
        assert!(!legal(&p, "c5-e5"), "{v:?}: no soldier stops on the throne");
        assert_eq!(legal(&p, "c5-g5"), soldier_pass, "{v:?}");
        let p = pos(v, B, "c5 h9", "h2", "e3");
        assert_eq!(legal(&p, "c5-g5"), soldier_pass, "{v:?}");
    }
}

#[test]
fn escapes_per_variant() {
    // bga, ashton: non-camp edge cells; the king never enters an edge camp.
    for v in [Variant::Bga, Variant::Ashton, Variant::Linnaeus] {
        let p = pos(v, W, "c7 b4 g4", "", "c4");
        assert_eq!(kinds(&p, "c4-c1"), vec!["escape"], "{v:?}");
        let after = play(&p, "c4-c1");
        assert_eq!(win(&after), Some((GameResult::Win(W), "king escaped")));
    }
    for v in [Variant::Bga, Variant::Ashton] {
        let p = pos(v, W, "h9 b3", "", "d3");
        assert!(!legal(&p, "d3-d1"), "{v:?}: edge camp");
    }
    // linnaeus: every edge cell, the middle ones too.
    let p = pos(Variant::Linnaeus, W, "h9", "", "d5");
    let after = play(&p, "d5-a5");
    assert_eq!(win(&after), Some((GameResult::Win(W), "king escaped")));
    // bga-corners: only corners; soldiers never enter them.
    let p = pos(Variant::BgaCorners, W, "a6 h9", "a3", "b4");
    assert!(!legal(&p, "a3-a1"));
    let p = pos(Variant::BgaCorners, W, "e1 h9", "", "b4");
    let after = play(&p, "b4-b1");
    assert_eq!(after.outcome(), None, "b1 is no escape cell");
    assert_eq!(kinds(&p, "b4-b1"), vec!["raichi"]);
    let after = play(&after, "h9-h8");
    assert_eq!(kinds(&after, "b1-a1"), vec!["escape"]);
    // bga: soldiers may stand on escape cells.
    let p = pos(Variant::Bga, W, "h9", "a3", "e5");
    let after = play(&p, "a3-a1");
    assert_eq!(after.outcome(), None);
}

#[test]
fn the_king_may_move_between_two_black_pieces() {
    for v in [Variant::Ashton, Variant::Linnaeus] {
        let p = pos(v, W, "b3 d3 h9", "", "c6");
        let p = play(&p, "c6-c3");
        assert!(p.position().king().is_some(), "{v:?}");
        let p = play(&p, "h9-h8");
        assert!(
            p.position().king().is_some(),
            "{v:?}: b3 and d3 did not move"
        );
        assert_eq!(p.outcome(), None);
    }
}
