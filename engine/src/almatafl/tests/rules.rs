//! Rules, one concrete hand-worked position each.

use super::*;
use crate::almatafl::board::{DIRECTIONS, NONE};
use crate::game::{GameResult, MoveError, Outcome, PlayError};

fn kinds(before: &Pos, mv: &str) -> Vec<&'static str> {
    let m = before.parse_move(mv).expect("well-formed move");
    let after = before.clone().play(&m).expect("legal move");
    events(before, &m, &after).iter().map(|e| e.kind).collect()
}

#[test]
fn start_position_has_90_moves() {
    let p = Pos::start(Variant::Standard, 0);
    assert_eq!(p.side_to_move(), Player::One);
    assert_eq!(moves(&p).len(), 90);
    // B2 (column 1, row 1): neighbours C2 and B3 hold invaders (height 1 < 3,
    // so landing there is allowed), C3 is empty, the other three are off the board.
    assert_eq!(moves_from(&p, "B2"), sorted(&["B2-B3", "B2-C2", "B2-C3"]));
}

#[test]
fn stacks_of_three_refuse_landings() {
    let p = pos("C4=i,D4=iii,F8=k,H6=d i");
    // C4's neighbour D4 is full; D4's top moves 3: A4 and D1 are escape spots,
    // A1 is off the board.
    assert_eq!(
        moves(&p),
        sorted(&["C4-B3", "C4-B4", "C4-C3", "C4-C5", "C4-D5", "D4-D7", "D4-G4", "D4-G7"])
    );
    assert!(refused(&p, "C4-D4").contains("already 3 high"));
    assert!(refused(&p, "D4-A4").contains("invaders may not land on the escape spot A4"));
    // The King may not land on a full stack either (but may on the empty throne).
    let k = pos("D4=iii,E5=k,F8=d d");
    assert_eq!(
        moves_from(&k, "E5"),
        sorted(&["E5-D5", "E5-E4", "E5-E6", "E5-F5", "E5-F6"])
    );
    assert!(refused(&k, "E5-D4").contains("already 3 high"));
}

#[test]
fn a_stack_moves_its_height_jumping_over_stacks_and_empty_cells() {
    let p = pos("C3=d,D4=i,D5=i,E5=ii,F5=dd,I9=k i");
    // Over F5 (a stack), D5 (an invader), E6 and E4 (empty), F6 (the empty
    // throne), D4 (an invader, landing on the defender on C3).
    assert_eq!(
        moves_from(&p, "E5"),
        sorted(&["E5-C3", "E5-C5", "E5-E3", "E5-E7", "E5-G5", "E5-G7"])
    );
    assert!(refused(&p, "E5-F5").contains("exactly 2 cell"));
    let after = play(&p, "E5-C3");
    assert_eq!(
        after.position().stack(Cell::parse("C3").unwrap()),
        vec![Piece::Defender, Piece::Invader]
    );
    assert_eq!(
        after.position().stack(Cell::parse("E5").unwrap()),
        vec![Piece::Invader]
    );
    assert_eq!(kinds(&p, "E5-C3"), vec!["stack"]);
    // The invader left on E5 now moves one cell.
    let back = play(&after, "I9-H9");
    assert!(moves_from(&back, "E5").contains(&"E5-E6".to_string()));
}

#[test]
fn lines_may_not_leave_the_board() {
    let p = pos("B4=ii,G7=k,H6=d i");
    // Two steps west or north-west leave the board.
    assert_eq!(
        moves_from(&p, "B4"),
        sorted(&["B4-B2", "B4-B6", "B4-D4", "B4-D6"])
    );
    // The star has no notch a line could jump: whenever the landing cell of a
    // line is on the board, so is every cell it jumps (so requiring every cell
    // of the line to be on the board only rules out landings off the board).
    let geo = geometry();
    for cell in Cell::all() {
        let (c, r) = cell.coords();
        for (dir, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
            for d in 1..=3i32 {
                let (tc, tr) = (c as i32 + dc as i32 * d, r as i32 + dr as i32 * d);
                let landing = (tc >= 0 && tr >= 0)
                    .then(|| Cell::from_coords(tc as usize, tr as usize))
                    .flatten();
                let ray = geo.ray[cell.index()][dir][d as usize - 1];
                assert_eq!(landing.map(|l| l.index() as u8).unwrap_or(NONE), ray);
            }
        }
    }
}

#[test]
fn the_throne_for_each_kind_of_piece() {
    // An invader may not land on the empty throne.
    let p = pos("F5=i,G8=k,C7=d i");
    assert_eq!(
        moves_from(&p, "F5"),
        sorted(&["F5-E4", "F5-E5", "F5-F4", "F5-G5", "F5-G6"])
    );
    assert!(refused(&p, "F5-F6").contains("throne"));
    // An invader may land on the King on the throne, burying him.
    let p = pos("F5=i,F6=k,C7=d i");
    assert!(moves_from(&p, "F5").contains(&"F5-F6".to_string()));
    let after = play(&p, "F5-F6");
    assert_eq!(
        after.position().stack(Cell::parse("F6").unwrap()),
        vec![Piece::King, Piece::Invader]
    );
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(Player::One, "king buried"))
    );
    assert_eq!(kinds(&p, "F5-F6"), vec!["stack", "king-buried"]);
    // A defender may land neither on the empty throne nor on the King there.
    let p = pos("E6=d,F6=k,I9=i d");
    assert!(refused(&p, "E6-F6").contains("throne"));
    let p = pos("E6=d,E7=k,I9=i d");
    assert!(refused(&p, "E6-F6").contains("throne"));
    // The King may step onto the empty throne.
    let p = pos("F7=k,C7=d,I9=i d");
    assert!(moves_from(&p, "F7").contains(&"F7-F6".to_string()));
    assert_eq!(
        play(&p, "F7-F6").position().king(),
        Cell::parse("F6").unwrap()
    );
}

#[test]
fn invaders_bury_the_king_anywhere_unless_his_stack_is_full() {
    let p = pos("D4=i,E5=ik,C7=d i");
    let after = play(&p, "D4-E5");
    assert_eq!(
        after.position().stack(Cell::parse("E5").unwrap()),
        vec![Piece::Invader, Piece::King, Piece::Invader]
    );
    assert_eq!(
        after.outcome().map(|o| o.result),
        Some(GameResult::Win(Player::One))
    );
    let full = pos("D4=i,E5=iik,C7=d i");
    assert!(refused(&full, "D4-E5").contains("already 3 high"));
}

#[test]
fn defenders_never_land_on_the_king_the_throne_or_an_escape_spot() {
    let p = pos("E6=d,E7=k,G3=d,I9=i d");
    assert_eq!(
        moves_from(&p, "E6"),
        sorted(&["E6-D5", "E6-D6", "E6-E5", "E6-F7"])
    );
    assert_eq!(
        moves_from(&p, "G3"),
        sorted(&["G3-F2", "G3-F3", "G3-G4", "G3-H4"])
    );
    assert!(refused(&p, "E6-F6").contains("throne"));
    assert!(refused(&p, "E6-E7").contains("on the King"));
    assert!(refused(&p, "G3-H3").contains("escape spot"));
    // The King, though, may land on his own discs (no bounce: they are not invaders).
    assert_eq!(
        moves_from(&p, "E7"),
        sorted(&["E7-D6", "E7-D7", "E7-E6", "E7-E8", "E7-F7", "E7-F8"])
    );
    let after = play(&p, "E7-E6");
    assert_eq!(
        after.position().stack(Cell::parse("E6").unwrap()),
        vec![Piece::Defender, Piece::King]
    );
    assert_eq!(kinds(&p, "E7-E6"), vec!["stack"]);
    assert!(refused(&p, "E7-E6-E8").contains("without an invader"));
}

/// The King on D6 with single invaders on E6, G6 and I6 in his row.
const ROW_OF_INVADERS: &str = "B2=d,D6=k,E6=i,G6=i,I6=i d";

#[test]
fn bounce_chains_of_one_two_and_three_bounces() {
    let p = pos(ROW_OF_INVADERS);
    // From D6 one step; on E6 (height 2) two steps; on G6 two steps; on I6 two
    // steps (K6 is off the board; I4 and K8 are escape spots).
    assert_eq!(
        moves_from(&p, "D6"),
        sorted(&[
            "D6-C5",
            "D6-C6",
            "D6-D5",
            "D6-D7",
            "D6-E6",
            "D6-E7",
            "D6-E6-C4",
            "D6-E6-E4",
            "D6-E6-E8",
            "D6-E6-G6",
            "D6-E6-G8",
            "D6-E6-G6-G4",
            "D6-E6-G6-I6",
            "D6-E6-G6-I8",
            "D6-E6-G6-I6-I4",
            "D6-E6-G6-I6-K8",
        ])
    );
    assert_eq!(kinds(&p, "D6-E6-C4"), vec!["bounce"]);
    assert_eq!(kinds(&p, "D6-E6-G6-G4"), vec!["bounce", "bounce"]);
    assert_eq!(
        kinds(&p, "D6-E6-G6-I6-I4"),
        vec!["bounce", "bounce", "bounce", "escape"]
    );
    let out = play(&p, "D6-E6-G6-I6-K8");
    assert_eq!(
        out.outcome(),
        Some(Outcome::win(Player::Two, "king escaped"))
    );
    // Only the King moved: the invaders stay where they were.
    for c in ["E6", "G6", "I6"] {
        assert_eq!(
            out.position().stack(Cell::parse(c).unwrap()),
            vec![Piece::Invader]
        );
    }
    assert!(out.position().stack(Cell::parse("D6").unwrap()).is_empty());
}

#[test]
fn a_chain_may_stop_on_any_invader() {
    let p = pos(ROW_OF_INVADERS);
    let stop = play(&p, "D6-E6");
    assert_eq!(
        stop.position().stack(Cell::parse("E6").unwrap()),
        vec![Piece::Invader, Piece::King]
    );
    assert_eq!(stop.side_to_move(), Player::One);
    assert_eq!(kinds(&p, "D6-E6"), vec!["stack"]);
    let later = play(&p, "D6-E6-G6");
    assert_eq!(later.position().king(), Cell::parse("G6").unwrap());
    assert_eq!(kinds(&p, "D6-E6-G6"), vec!["bounce", "stack"]);
}

#[test]
fn any_legal_chain_is_accepted_and_the_list_keeps_the_shortest() {
    let p = pos(ROW_OF_INVADERS);
    // G8 is reached from E6 directly or through G6: the list has the shorter.
    assert!(!moves(&p).contains(&"D6-E6-G6-G8".to_string()));
    assert_eq!(play(&p, "D6-E6-G6-G8"), play(&p, "D6-E6-G8"));
    assert_eq!(play(&p, "D6-E6-G6-I6-I8"), play(&p, "D6-E6-G6-I8"));
    assert_eq!(
        kinds(&p, "D6-E6-G6-I6-I8"),
        vec!["bounce", "bounce", "bounce"]
    );
}

/// The King on a defender on G5 (height 2) with invaders on G7 and I7.
const TWO_INVADERS: &str = "G5=dk,G7=i,I7=i,C4=d d";

#[test]
fn equal_chains_tie_by_cell_order() {
    let p = pos(TWO_INVADERS);
    assert_eq!(
        moves_from(&p, "G5"),
        sorted(&[
            "G5-E3", "G5-G3", "G5-E5", "G5-I5", "G5-G7", "G5-I7", "G5-G7-E7", "G5-G7-G9",
            "G5-G7-I9", "G5-I7-K9",
        ])
    );
    // I9 is two bounces away through G7 or through I7; G7 comes first.
    assert_eq!(play(&p, "G5-I7-I9"), play(&p, "G5-G7-I9"));
    assert_eq!(play(&p, "G5-G7-I7"), play(&p, "G5-I7"));
}

#[test]
fn chains_never_return_to_their_start_nor_land_twice_on_a_cell() {
    let p = pos(TWO_INVADERS);
    assert!(refused(&p, "G5-G7-G5").contains("come back to its start"));
    assert!(refused(&p, "G5-G7-I7-G7").contains("twice"));
    assert!(refused(&p, "G5-G6").contains("exactly 2 cell"));
    assert!(refused(&p, "G5-E5-E7").contains("without an invader"));
    // A disc moves one line only.
    assert!(refused(&p, "C4-C5-C6").contains("only the King"));
}

#[test]
fn a_bounce_on_a_stack_of_two_moves_the_king_three_cells() {
    let p = pos("F4=k,G4=ii,C7=d,D8=d d");
    assert_eq!(
        moves_from(&p, "F4"),
        sorted(&[
            "F4-E3", "F4-E4", "F4-F3", "F4-F5", "F4-G4", "F4-G5", "F4-G4-D1", "F4-G4-D4",
            "F4-G4-G7", "F4-G4-J7",
        ])
    );
}

#[test]
fn each_win_condition_names_the_right_winner() {
    let escape = play(&pos("G3=k,C7=d,J10=i d"), "G3-H3");
    assert_eq!(
        escape.outcome(),
        Some(Outcome::win(Player::Two, "king escaped"))
    );
    assert!(moves(&escape).is_empty());

    let buried = play(&pos("D4=i,E5=k,C7=d i"), "D4-E5");
    assert_eq!(
        buried.outcome(),
        Some(Outcome::win(Player::One, "king buried"))
    );
    assert!(moves(&buried).is_empty());

    let covered = pos("D5=d,D4=i,F8=k,J10=i i");
    assert_eq!(kinds(&covered, "D4-D5"), vec!["stack", "no-defenders"]);
    assert_eq!(
        play(&covered, "D4-D5").outcome(),
        Some(Outcome::win(Player::One, "no active defender"))
    );
    // The King covering the defenders' last disc loses for them too.
    let own_goal = play(&pos("F9=d,F8=k,J10=i d"), "F8-F9");
    assert_eq!(
        own_goal.outcome(),
        Some(Outcome::win(Player::One, "no active defender"))
    );
}

#[test]
fn a_side_without_a_legal_move_loses() {
    // B2's neighbours on the board (C2, B3, C3) are full stacks.
    let p = pos("B2=i,C2=ddd,B3=ddd,C3=ddd,G7=k i");
    assert!(moves(&p).is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Player::Two, "no legal move"))
    );
    assert!(matches!(
        p.clone().play(&p.parse_move("B2-C2").unwrap()),
        Err(PlayError {
            error: MoveError::GameOver(_),
            ..
        })
    ));
    // With the defenders to move it is just a position.
    assert_eq!(pos("B2=i,C2=ddd,B3=ddd,C3=ddd,G7=k d").outcome(), None);
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let start = Pos::start(Variant::Standard, 0);
    let mut p = start.clone();
    let cycle = ["C2-C3", "E4-D4", "C3-C2", "D4-E4"];
    for mv in cycle {
        p = play(&p, mv);
    }
    assert_eq!(p.hash(), start.hash());
    assert_eq!(p.repetitions(), 1);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.history().len(), 4);
    for mv in &cycle[..3] {
        p = play(&p, mv);
    }
    let before = p.clone();
    p = play(&p, cycle[3]);
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome(), Some(Outcome::draw("threefold repetition")));
    assert!(moves(&p).is_empty());
    assert!(kinds(&before, cycle[3]).contains(&"repetition"));
    // The notation carries the history, so the draw survives a round trip.
    let again = pos(&p.to_notation());
    assert_eq!(again.outcome(), Some(Outcome::draw("threefold repetition")));
    assert_eq!(again, p);
}
