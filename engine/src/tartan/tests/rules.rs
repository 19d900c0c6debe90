//! Rules, one concrete hand-worked position each (RULES.md section 3).

use super::*;
use crate::game::{GameResult, Outcome};

/// A play-phase position: `stacks`, the Bishops, reserves, quiet turns, red to move.
fn red(stacks: &str, bishops: &str, reserves: &str, quiet: u8) -> Pos {
    pos(&format!("play {stacks} {bishops} {reserves} {quiet} r -"))
}

#[test]
fn the_start_has_54_placements_and_no_pass() {
    let p = Pos::start(Variant::Standard, 0);
    assert_eq!(p.position().phase(), Phase::Placement);
    assert_eq!(p.side_to_move(), RED);
    let m = moves(&p);
    // 61 cells, 7 Lochs.
    assert_eq!(m.len(), 54);
    assert!(!m.contains(&"pass".to_string()));
    assert!(!m.contains(&"E5".to_string()) && !m.contains(&"B2".to_string()));
    assert_eq!(p.to_notation(), "place - - 12,12 0 r -");
}

#[test]
fn a_placement_is_never_next_to_a_token() {
    let p = play(&Pos::start(Variant::Standard, 0), "C4");
    assert_eq!(p.side_to_move(), BLUE);
    assert_eq!(at(&p, "C4"), Some((RED, 1)));
    // C4's six neighbours D4 B4 C5 C3 D5 B3 are taken out: 54 - 1 - 6.
    assert_eq!(moves(&p).len(), 47);
    for n in ["D4", "B4", "C5", "C3", "D5", "B3"] {
        assert!(!legal(&p, n), "{n}");
    }
    assert!(legal(&p, "E4"), "two steps away is allowed");
}

/// The Families fill the cells whose column and row indices add up to a
/// multiple of 3 (no two of them are neighbours), all but A1; A1 is then the
/// only free cell. Red places it, nobody can place any more: the reserves
/// are what is left (red 1, blue 2), both Bishops go on E5 and red, the last
/// placer, moves first.
#[test]
fn placement_ends_when_nobody_can_place_and_the_last_placer_moves_first() {
    let p = pos(
        "place D1=r1,C2=b1,F2=r1,B3=b1,E3=r1,A4=b1,D4=r1,G4=b1,C5=r1,F5=b1,I5=r1,B6=b1,\
E6=r1,H6=b1,D7=r1,G7=b1,F8=r1,I8=b1,E9=r1,H9=b1 - 2,2 0 r -",
    );
    assert_eq!(moves(&p), ["A1"]);
    assert_eq!(kinds(&p, "A1"), ["place", "play"]);
    let after = play(&p, "A1");
    let q = after.position();
    assert_eq!(q.phase(), Phase::Play);
    assert_eq!(after.side_to_move(), RED);
    assert_eq!((q.tokens(RED), q.tokens(BLUE)), (1, 2));
    let e5 = Cell::parse("E5").unwrap();
    assert_eq!((q.bishop(RED), q.bishop(BLUE)), (Some(e5), Some(e5)));
    assert_eq!(q.quiet_turns(), 0);
    assert!(
        after.history().is_empty(),
        "the start of play is irreversible"
    );
}

/// Red has placed all 12 tokens; blue places, red passes, blue places the
/// last free cell and, as the last placer, moves first.
#[test]
fn a_player_who_cannot_place_passes_while_the_other_goes_on() {
    let p = pos(
        "place D1=r1,C2=r1,F2=r1,B3=r1,E3=r1,A4=r1,D4=r1,G4=r1,C5=r1,F5=r1,B6=r1,\
E6=r1,H6=b1,D7=b1,G7=b1,F8=b1,I8=b1,E9=b1,H9=b1 - 0,5 0 b -",
    );
    assert_eq!(moves(&p), ["A1", "I5"]);
    let p = play(&p, "A1");
    assert_eq!(p.side_to_move(), RED);
    assert_eq!(moves(&p), ["pass"]);
    assert_eq!(kinds(&p, "pass"), ["pass"]);
    let p = play(&p, "pass");
    assert_eq!(moves(&p), ["I5"]);
    let p = play(&p, "I5");
    assert_eq!(p.position().phase(), Phase::Play);
    assert_eq!(p.side_to_move(), BLUE);
    assert_eq!(p.position().tokens(BLUE), 3);
}

#[test]
fn a_family_steps_to_a_neighbour_but_never_onto_a_loch() {
    let p = red("C4=r1", "E5,E5", "0,0", 0);
    assert_eq!(
        moves_from(&p, "C4-"),
        sorted(&["C4-D4", "C4-B4", "C4-C5", "C4-C3", "C4-D5", "C4-B3"])
    );
    // C3 is next to the Loch B2.
    let p = red("C3=r1", "E5,E5", "0,0", 0);
    assert_eq!(
        moves_from(&p, "C3-"),
        sorted(&["C3-D3", "C3-B3", "C3-C4", "C3-C2", "C3-D4"])
    );
}

/// From C4 a Horde reaches the 6 cells around it and the 12 two steps away,
/// but B2, B5 and E5 are Lochs: 15 moves.
#[test]
fn a_horde_goes_two_steps_through_an_empty_middle() {
    let p = red("C4=r2", "E5,E5", "0,0", 0);
    assert_eq!(
        moves_from(&p, "C4-"),
        sorted(&[
            "C4-A2", "C4-A3", "C4-A4", "C4-B3", "C4-B4", "C4-C2", "C4-C3", "C4-C5", "C4-C6",
            "C4-D3", "C4-D4", "C4-D5", "C4-D6", "C4-E4", "C4-E6"
        ])
    );
    // On A1: via B1 to C1 or C2, via A2 to A3 or B3; B1 and A2 share no
    // middle cell with A1 (B2 is a Loch); never back to A1.
    let p = red("A1=r2", "E5,E5", "0,0", 0);
    assert_eq!(
        moves_from(&p, "A1-"),
        sorted(&["A1-A3", "A1-B3", "A1-C1", "A1-C2"])
    );
    // A Family on B1 closes that way (and the Horde cannot unite with it:
    // B1 is not two steps away).
    let p = red("A1=r2,B1=r1", "E5,E5", "0,0", 0);
    assert_eq!(moves_from(&p, "A1-"), sorted(&["A1-A3", "A1-B3"]));
    // A Bishop alone on a cell closes it too.
    let p = red("A1=r2", "B1,E5", "0,0", 0);
    assert_eq!(moves_from(&p, "A1-"), sorted(&["A1-A3", "A1-B3"]));
}

#[test]
fn an_army_goes_three_steps_straight_over_empty_cells() {
    // From A1: east to D1, north-south to A4; the diagonal starts on the Loch B2.
    let p = red("A1=r3", "E5,E5", "0,0", 0);
    assert_eq!(moves_from(&p, "A1-"), sorted(&["A1-A4", "A1-D1"]));
    // A unit on C1 closes the eastern line.
    let p = red("A1=r3,C1=b1", "E5,E5", "0,0", 0);
    assert_eq!(moves_from(&p, "A1-"), sorted(&["A1-A4"]));
}

#[test]
fn a_cathedral_never_moves() {
    let p = red("C4=r4", "E5,E5", "0,0", 0);
    assert!(moves_from(&p, "C4-").is_empty());
}

#[test]
fn unions_form_the_next_unit_and_nothing_else_unites() {
    // Family + Family = Horde, Family + Horde = Army, Horde + Family = Army,
    // Horde + Horde = Cathedral.
    for (stacks, mv, cell, height) in [
        ("C4=r1,D4=r1", "C4-D4", "D4", 2),
        ("C4=r1,D4=r2", "C4-D4", "D4", 3),
        ("C4=r2,D4=r1", "C4-D4", "D4", 3),
        ("C4=r2,D4=r2", "C4-D4", "D4", 4),
    ] {
        let p = red(stacks, "E5,E5", "0,0", 5);
        let after = play(&p, mv);
        assert_eq!(at(&after, cell), Some((RED, height)), "{stacks}");
        assert_eq!(at(&after, "C4"), None);
        assert_eq!(
            after.position().quiet_turns(),
            0,
            "a union resets the counter"
        );
        assert!(kinds(&p, mv).contains(&"union"));
    }
    // A Family never unites with an Army, nor an Army with anything, nor
    // anything with a Cathedral.
    for stacks in [
        "C4=r1,D4=r3",
        "C4=r3,F4=r1",
        "C4=r3,F4=r2",
        "C4=r1,D4=r4",
        "C4=r2,D4=r4",
        "C4=r2,D4=r3",
    ] {
        let p = red(stacks, "E5,E5", "0,0", 0);
        let target = if stacks.contains("F4") { "F4" } else { "D4" };
        let mv = format!("C4-{target}");
        assert!(!legal(&p, &mv), "{stacks}: {mv}");
    }
}

#[test]
fn a_horde_takes_a_family_and_an_army_a_horde() {
    let p = red("C4=r2,D5=b1", "E5,E5", "0,0", 7);
    let after = play(&p, "C4-D5");
    assert_eq!(at(&after, "D5"), Some((RED, 2)));
    assert_eq!(
        after.position().quiet_turns(),
        0,
        "a capture resets the counter"
    );
    assert_eq!(kinds(&p, "C4-D5"), ["capture"]);
    let p = red("A1=r3,D1=b2", "E5,E5", "0,0", 0);
    assert_eq!(at(&play(&p, "A1-D1"), "D1"), Some((RED, 3)));
    // Nothing else captures: a Family, a Horde on a Horde, an Army on a Family.
    assert!(!legal(&red("C4=r1,D4=b1", "E5,E5", "0,0", 0), "C4-D4"));
    assert!(!legal(&red("C4=r2,D5=b2", "E5,E5", "0,0", 0), "C4-D5"));
    assert!(!legal(&red("A1=r3,D1=b1", "E5,E5", "0,0", 0), "A1-D1"));
    assert!(!legal(&red("C4=r2,D5=b4", "E5,E5", "0,0", 0), "C4-D5"));
}

#[test]
fn a_new_horde_may_bounce_and_chain() {
    // C4 onto D4 forms a Horde, which may stop or make a full Horde move.
    let p = red("C4=r1,D4=r1,F4=b1,F7=b2", "E5,E5", "0,0", 3);
    let chains = moves_from(&p, "C4-D4");
    assert!(chains.contains(&"C4-D4".to_string()), "stopping is a move");
    // D4 to F4 goes through E4; a capture ends the chain.
    assert!(chains.contains(&"C4-D4-F4".to_string()));
    let after = play(&p, "C4-D4-F4");
    assert_eq!(at(&after, "F4"), Some((RED, 2)));
    assert_eq!(at(&after, "D4"), None);
    assert_eq!(kinds(&p, "C4-D4-F4"), ["union", "bounce", "capture"]);
    // The start cell, emptied, is a middle cell for the bounce: D4-C4-B4 is
    // the only way to B4.
    assert!(chains.contains(&"C4-D4-B4".to_string()));
    let blocked = red("C4=r1,D4=r2", "E5,E5", "0,0", 0);
    assert!(!moves_from(&blocked, "D4-").contains(&"D4-B4".to_string()));
    // A bounce onto a Family forms an Army, which bounces again: F4 to F7
    // over F5 and F6, capturing the blue Horde.
    let p = red("C4=r1,D4=r1,F4=r1,F7=b2", "E5,E5", "0,0", 3);
    assert!(legal(&p, "C4-D4-F4"));
    let after = play(&p, "C4-D4-F4-F7");
    assert_eq!(at(&after, "F7"), Some((RED, 3)));
    assert!(after.position().stacks().all(|s| s.cell.as_str() == "F7"));
    // A Horde formed by a bounce unites with a Horde into a Cathedral, which
    // ends the chain.
    let p = red("C4=r1,D4=r1,F4=r2", "E5,E5", "0,0", 0);
    let after = play(&p, "C4-D4-F4");
    assert_eq!(at(&after, "F4"), Some((RED, 4)));
    assert!(moves_from(&p, "C4-D4-F4-").is_empty());
}

#[test]
fn the_bishop_steps_and_blesses() {
    // Red's Bishop on D4: E4 C4 D5 D3 C3, onto units too, never back onto the Loch E5.
    let p = red("C4=b1,D3=r1", "D4,E5", "0,0", 0);
    assert_eq!(
        moves_from(&p, "B:"),
        sorted(&["B:D4-C3", "B:D4-C4", "B:D4-D3", "B:D4-D5", "B:D4-E4"])
    );
    assert_eq!(kinds(&p, "B:D4-C4"), ["bishop"]);
    // Never onto the other Bishop.
    let p = red("C4=b1", "D4,C4", "0,0", 0);
    assert!(!legal(&p, "B:D4-C4"));
    // A blessed unit neither moves nor is united with...
    let p = red("C4=r1,D4=r1", "D4,I9", "0,0", 0);
    assert!(!legal(&p, "C4-D4"), "D4 is blessed by red's Bishop");
    assert!(moves_from(&p, "D4-").is_empty(), "the blessed Family stays");
    // ...until the Bishop leaves.
    let p = play(&play(&p, "B:D4-E4"), "B:I9-H9");
    assert!(legal(&p, "C4-D4"));
    // ...nor is captured: blue's own Bishop protects its Family on D5.
    assert!(!legal(&red("C4=r2,D5=b1", "A1,D5", "0,0", 0), "C4-D5"));
    assert!(legal(&red("C4=r2,D5=b1", "A1,I9", "0,0", 0), "C4-D5"));
}

#[test]
fn a_horde_dismantles_into_three_families_next_to_three_outer_lochs() {
    // A Horde on D4 (next to no outer Loch), one token in reserve, an empty
    // board: any three of the six outer Lochs (20 ways), any of their six
    // neighbours each (6^3): 4320 dismantles.
    let p = red("D4=r2", "E5,E5", "1,0", 0);
    let d = moves_from(&p, "D:");
    assert_eq!(d.len(), 4320);
    let after = play(&p, "D:D4:A1,D1,H9");
    assert_eq!(at(&after, "D4"), None);
    for c in ["A1", "D1", "H9"] {
        assert_eq!(at(&after, c), Some((RED, 1)));
    }
    assert_eq!(after.position().tokens(RED), 0);
    assert_eq!(
        after.position().quiet_turns(),
        1,
        "neither a union nor a capture"
    );
    // Two cells next to the same Loch (A1 and B1 are both next to B2) are refused.
    assert!(!legal(&p, "D:D4:A1,B1,H9"));
    // Cells in any order are the same move.
    assert_eq!(p.parse_move("D:D4:H9,A1,D1"), p.parse_move("d:d4:a1,d1,h9"));
    // The Horde's own cell counts as empty: on C3 (next to B2).
    let p = red("C3=r2", "E5,E5", "1,0", 0);
    assert!(legal(&p, "D:C3:C3,D1,H9"));
    // No reserve, or a blessed Horde: no dismantle.
    assert!(moves_from(&red("D4=r2", "E5,E5", "0,3", 0), "D:").is_empty());
    assert!(moves_from(&red("D4=r2", "D4,E5", "1,0", 0), "D:").is_empty());
}

#[test]
fn a_bishop_onto_its_own_cathedral_wins_before_the_draw_rules() {
    // 14 quiet turns: a quiet turn would draw, but the coronation comes first.
    let p = red("C4=r4,G7=b4", "D4,G6", "0,0", 14);
    let after = play(&p, "B:D4-C4");
    assert_eq!(after.outcome(), Some(Outcome::win(RED, "coronation")));
    // The diagram says how it ended, not whose turn it is.
    let status = after.diagram().lines().last().unwrap().to_string();
    assert!(status.ends_with("; game over: coronation"), "{status}");
    assert!(!status.contains("to move"), "{status}");
    assert_eq!(kinds(&p, "B:D4-C4"), ["bishop", "coronation"]);
    assert!(moves(&after).is_empty());
    // A Bishop on an enemy Cathedral blocks it, and wins nothing: blue's
    // Bishop next to it can no longer go there.
    let p = red("C4=b4", "D4,D5", "0,0", 0);
    let after = play(&p, "B:D4-C4");
    assert_eq!(after.outcome(), None);
    assert!(after.position().blessed(Cell::parse("C4").unwrap()));
    assert!(!legal(&after, "B:D5-C4"));
}

#[test]
fn fifteen_quiet_turns_draw() {
    let p = red("A1=r1,I9=b1", "D4,F6", "0,0", 14);
    let after = play(&p, "A1-B1");
    assert_eq!(
        after.outcome(),
        Some(Outcome::draw("15 turns without a capture or a union"))
    );
    assert_eq!(kinds(&p, "A1-B1"), ["draw"]);
    // A turn with a union inside a chain resets it.
    let p = red("C4=r1,D4=r1", "A5,I6", "0,0", 14);
    assert_eq!(play(&p, "C4-D4-F4").position().quiet_turns(), 0);
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let start = red("A1=r1,I9=b1", "D4,F6", "0,0", 0);
    let cycle = ["B:D4-D3", "B:F6-F7", "B:D3-D4", "B:F7-F6"];
    let mut p = start.clone();
    for mv in cycle {
        p = play(&p, mv);
    }
    assert_eq!(p.hash(), start.hash());
    assert_eq!(p.repetitions(), 1);
    assert_eq!(p.outcome(), None);
    for mv in &cycle[..3] {
        p = play(&p, mv);
    }
    let before = p.clone();
    p = play(&p, cycle[3]);
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome(), Some(Outcome::draw("threefold repetition")));
    assert!(kinds(&before, cycle[3]).contains(&"draw"));
    assert_eq!(
        p.position().quiet_turns(),
        8,
        "the counter is not part of the position"
    );
    let again = pos(&p.to_notation());
    assert_eq!(again.outcome(), p.outcome());
}

#[test]
fn a_won_game_takes_no_move_and_the_winner_is_not_to_move() {
    let p = pos("play C4=r4 C4,E5 0,0 1 b -");
    assert_eq!(p.outcome(), Some(Outcome::win(RED, "coronation")));
    assert!(moves(&p).is_empty());
    let m = p.parse_move("B:E5-D4").unwrap();
    assert!(matches!(
        p.clone().play(&m),
        Err(crate::PlayError {
            error: crate::MoveError::GameOver(Outcome {
                result: GameResult::Win(RED),
                ..
            }),
            ..
        })
    ));
    let e = Pos::from_notation(Variant::Standard, "play C4=r4 C4,E5 0,0 1 r -").unwrap_err();
    assert!(e.to_string().contains("blue is to move"), "{e}");
}
