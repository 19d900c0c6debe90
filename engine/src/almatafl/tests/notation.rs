//! Notation, setup validation, diagram and input that must never panic.

use proptest::prelude::*;

use super::crosscheck::{random_game_positions, random_setups};
use super::*;

const START: &str = "B2=i,C2=i,D2=i,E2=i,F2=i,B3=i,G3=i,B4=i,E4=d,H4=i,B5=i,D5=d,E5=d,F5=d,G5=d,I5=i,B6=i,E6=d,F6=k,G6=d,J6=i,C7=i,E7=d,F7=d,G7=d,H7=d,J7=i,D8=i,G8=d,J8=i,E9=i,J9=i,F10=i,G10=i,H10=i,I10=i,J10=i i -";

#[test]
fn the_start_position_is_written_as_documented() {
    let start = Pos::start(Variant::Standard, 0);
    assert_eq!(start.to_notation(), START);
    assert_eq!(pos(START), start);
    // Case-insensitive, long side names, history field optional.
    assert_eq!(pos(&START.to_lowercase().replace(" -", "")), start);
    assert_eq!(pos(&START.replace(" i -", " invaders")), start);
}

#[test]
fn cells_have_names_in_row_major_order() {
    let names: Vec<String> = Cell::all().map(|c| c.name()).collect();
    assert_eq!(names.len(), 73);
    assert_eq!(&names[..4], ["C1", "D1", "B2", "C2"]);
    assert_eq!(&names[71..], ["H11", "I11"]);
    assert_eq!(Cell::parse("f6").unwrap(), Cell::parse("F6").unwrap());
    assert!(Cell::parse("f6").unwrap().is_throne());
    assert!(Cell::parse("i11").unwrap().is_escape());
    for bad in ["A1", "K6", "F0", "F12", "Z3", "", "6F", "F+6", "F06x"] {
        assert!(Cell::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn positions_round_trip_through_notation_and_setup() {
    let mut all = random_game_positions(3, 20, 120);
    all.extend(random_setups(4, 300));
    for p in &all {
        let text = p.to_notation();
        let back = pos(&text);
        assert_eq!(&back, p);
        assert_eq!(back.to_notation(), text);
        assert_eq!(back.hash(), p.hash());
        assert_eq!(back.outcome(), p.outcome());
        assert_eq!(&AlmaTafl::from_setup(&p.setup()).unwrap(), p);
    }
}

#[test]
fn moves_round_trip_and_read_case_insensitively() {
    let p = Pos::start(Variant::Standard, 0);
    let m = p.parse_move("d6-e6-g6-i6-k8").unwrap();
    assert_eq!(p.move_to_text(&m), "D6-E6-G6-I6-K8");
    let mut out = "moves: ".to_string();
    p.position().push_move_text(&m, &mut out);
    assert_eq!(out, "moves: D6-E6-G6-I6-K8");
    assert_eq!(m.cells().len(), 5);
    for bad in [
        "",
        "B2",
        "B2-",
        "B2-Z9",
        "B2--B3",
        "B2 B3",
        &"B2-B3-".repeat(20),
    ] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn setup_validation_lists_every_problem() {
    let c = |n: &str| Cell::parse(n).unwrap();
    let setup = Setup {
        stacks: vec![
            (c("F6"), vec![Piece::Defender]),
            (c("C1"), vec![Piece::Invader]),
            (c("D5"), vec![Piece::King, Piece::Defender]),
            (c("E5"), vec![Piece::Invader; 4]),
            (c("G7"), vec![Piece::King]),
            (c("G7"), vec![Piece::Invader]),
        ],
        side_to_move: Player::One,
        history: vec![5, 5, 5],
    };
    let problems = AlmaTafl::from_setup(&setup).unwrap_err().problems;
    let expect = [
        "throne F6",
        "escape spot C1",
        "King on D5 is covered by a defender",
        "stack on E5 has 4 pieces",
        "2 Kings",
        "G7 is listed more than once",
        "occurs 3 times",
    ];
    assert_eq!(problems.len(), expect.len(), "{problems:?}");
    for e in expect {
        assert!(
            problems.iter().any(|p| p.contains(e)),
            "{e} missing from {problems:?}"
        );
    }
    let crowd = format!(
        "{},F6=k i",
        Cell::all()
            .filter(|c| !c.is_escape() && !c.is_throne())
            .take(30)
            .map(|c| format!("{}=i", c.name()))
            .chain(["G9=ddd", "H9=ddd", "I9=ddd", "J9=ddd", "F9=d", "K9=d"].map(String::from))
            .collect::<Vec<_>>()
            .join(",")
    );
    let problems = Pos::from_notation(Variant::Standard, &crowd)
        .unwrap_err()
        .problems;
    assert!(
        problems.iter().any(|p| p.contains("30 invaders")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("14 defender discs")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("escape spot K9")),
        "{problems:?}"
    );
    assert_eq!(problems.len(), 3, "{problems:?}");
    // A finished game with the wrong side to move, and a King under two invaders.
    assert!(Pos::from_notation(Variant::Standard, "H3=k,C7=d d").is_err());
    assert!(Pos::from_notation(Variant::Standard, "H3=k,C7=d i").is_ok());
    assert!(Pos::from_notation(Variant::Standard, "E5=kii,C7=d d").is_err());
    assert!(Pos::from_notation(Variant::Standard, "F6=i,E5=k,C7=d d").is_err());
}

#[test]
fn notation_errors_name_every_problem() {
    let problems = Pos::from_notation(Variant::Standard, "Z9=i,F6=q,E5 x 12*3")
        .unwrap_err()
        .problems;
    assert_eq!(problems.len(), 5, "{problems:?}");
    for e in ["Z9", "'q'", "\"E5\"", "\"x\"", "12*3"] {
        assert!(
            problems.iter().any(|p| p.contains(e)),
            "{e} missing from {problems:?}"
        );
    }
    assert!(Pos::from_notation(Variant::Standard, "").is_err());
    assert!(Pos::from_notation(Variant::Standard, "F6=k i - extra").is_err());
}

#[test]
fn the_diagram_draws_the_star_with_offset_rows() {
    let start = Pos::start(Variant::Standard, 0);
    let d = start.diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[0], " 1                <>  <>                C1-D1");
    assert_eq!(lines[5], " 6  i1  ..  ..  d1  K1  d1  ..  ..  i1  B6-J6");
    assert_eq!(lines[10], "11                <>  <>                H11-I11");
    assert!(d.contains("invaders to move"));
    let moved = play(&play(&start, "B2-C2"), "F6-E6");
    let d = moved.diagram();
    assert!(d.lines().nth(1).unwrap().contains("..  i2  i1"));
    assert!(d.lines().nth(5).unwrap().contains("K2  ##  d1"));
}

proptest! {
    #[test]
    fn garbage_never_panics(text in "\\PC{0,80}") {
        let _ = Pos::from_notation(Variant::Standard, &text);
        let p = Pos::start(Variant::Standard, 0);
        let _ = p.parse_move(&text);
        let _ = Cell::parse(&text);
    }

    #[test]
    fn mutated_notation_never_panics(edits in proptest::collection::vec((0usize..400, "[a-kA-K0-9=,*\\- idk]{0,2}"), 1..6)) {
        // Each edit replaces one character of the start notation by 0 to 2 others.
        let mut text: Vec<char> = START.chars().collect();
        for (at, s) in edits {
            let at = at % text.len();
            text.splice(at..at + 1, s.chars());
        }
        let text: String = text.into_iter().collect();
        if let Ok(p) = Pos::from_notation(Variant::Standard, &text) {
            prop_assert_eq!(pos(&p.to_notation()), p);
        }
    }

    #[test]
    fn random_moves_never_panic(cells in proptest::collection::vec(0usize..73, 2..8)) {
        for p in random_setups(cells[0] as u64, 1) {
            let cells: Vec<Cell> = cells.iter().map(|&i| Cell::from_index(i).unwrap()).collect();
            let m = Move::new(&cells).unwrap();
            let _ = p.clone().play(&m);
        }
    }
}
