//! Notation, setup validation, the diagram, and input that must never panic.

use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;

#[test]
fn positions_and_moves_round_trip_along_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut checked = 0;
    for _ in 0..30 {
        let mut p = Pos::start(Variant::Standard, 0);
        for _ in 0..80 {
            let text = p.to_notation();
            let back = pos(&text);
            assert_eq!(back, p, "{text}");
            assert_eq!(back.to_notation(), text);
            let sorted_setup = |q: &Pos| {
                let mut s = q.setup();
                s.history.sort_unstable();
                s
            };
            assert_eq!(sorted_setup(&back), sorted_setup(&p));
            assert_eq!(
                Tartan::from_setup(Variant::Standard, &p.setup()).as_ref(),
                Ok(&p)
            );
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            for m in &v {
                let t = p.move_to_text(m);
                assert_eq!(p.parse_move(&t), Ok(*m), "{t}");
                assert_eq!(p.parse_move(&t.to_lowercase()), Ok(*m), "{t}");
                checked += 1;
            }
            let Some(m) = v.choose(&mut rng) else { break };
            p = p.play_unchecked(m);
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn move_texts_name_each_kind_of_turn() {
    let p = Pos::start(Variant::Standard, 0);
    let cell = |n: &str| Cell::parse(n).unwrap();
    assert_eq!(p.parse_move("c4"), Ok(Move::Place(cell("C4"))));
    assert_eq!(p.parse_move("PASS"), Ok(Move::Pass));
    assert_eq!(
        p.parse_move("b:e5-d4"),
        Ok(Move::Bishop {
            from: cell("E5"),
            to: cell("D4")
        })
    );
    let chain = p.parse_move("C4-C5-C7").unwrap();
    assert_eq!(p.move_to_text(&chain), "C4-C5-C7");
    assert_eq!(
        p.move_to_text(&p.parse_move("D:f4:h7,a2,c3").unwrap()),
        "D:F4:A2,C3,H7"
    );
    for bad in [
        "",
        "Z9",
        "C4-",
        "C4-C5-C6-C7-C8",
        "B:E5",
        "D:F4:A2,C3",
        "D:F4",
        "X:1",
    ] {
        assert!(p.parse_move(bad).is_err(), "{bad:?}");
    }
}

fn problems(text: &str) -> Vec<String> {
    match Pos::from_notation(Variant::Standard, text) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems,
    }
}

#[test]
fn impossible_positions_are_refused_naming_each_problem() {
    let has = |text: &str, what: &str| {
        let p = problems(text);
        assert!(p.iter().any(|x| x.contains(what)), "{text}: {p:?}");
    };
    has("play E5=r1 D4,D5 0,0 0 r -", "on the Loch E5");
    has("play C4=r5 D4,D5 0,0 0 r -", "1 to 4");
    has("play C4=r4,D4=r4,F4=r4,G4=r1 D5,E6 0,0 0 r -", "13 tokens");
    has("play C4=r1,C4=b1 D4,D5 0,0 0 r -", "more than once");
    has("play C4=r1 B2,D5 0,0 0 r -", "Loch B2");
    has("play C4=r1 D4,D4 0,0 0 r -", "both Bishops stand on D4");
    has("play C4=r1 - 0,0 0 r -", "not on the board");
    has("play C4=r1 D4,D5 0,0 16 r -", "16 quiet turns");
    has("place C4=r1,D4=b1 - 11,11 0 r -", "next to each other");
    has("place C4=r2 - 10,12 0 b -", "every unit is a Family");
    has(
        "place C4=r1 - 10,12 0 b -",
        "nothing is captured during placement",
    );
    has(
        "place C4=r1 D4,D5 11,12 0 b -",
        "only when the placement is over",
    );
    has("place C4=r1 - 11,12 0 r -", "blue is to place");
    has("place C4=r1 - 11,12 3 b -", "counter is 0");
    has("play C4=r4 C4,E5 0,0 0 r -", "blue is to move");
    // Syntax: every field is read and named.
    has("play C4=x1 D4 0,0 z q -", "stack like C4=r2");
    has("play C4=x1 D4 0,0 z q -", "bishops \"D4\"");
    has("play C4=x1 D4 0,0 z q -", "quiet turns \"z\"");
    has("play C4=x1 D4 0,0 z q -", "side to move \"q\"");
    has("game C4=r1 D4,D5 0,0 0 r -", "phase \"game\"");
    has("play C4=r1 D4,D5 0,0 0 r", "expected 7 fields");
    let thrice = format!("play C4=r1 D4,D5 0,0 0 r {:016x}*3", 7);
    has(&thrice, "the game ends at the third");
    // And the same positions from fields.
    assert!(pos("play C4=r1 D4,D5 0,0 0 r -").outcome().is_none());
}

#[test]
fn the_diagram_draws_the_hex_board_with_stacks_lochs_and_bishops() {
    let p = pos("play C4=r2,D5=b1,E6=b4,G7=r3 D5,E5 2,1 4 b -");
    let d = p.diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines.len(), 11, "{d}");
    // Row 1: A1..E1, row 9: E9..I9, as the right column says.
    assert!(
        lines[0].starts_with(" 1 ") && lines[0].ends_with("A1-E1"),
        "{d}"
    );
    assert!(lines[8].ends_with("E9-I9"), "{d}");
    // Row 4: C4 holds red's Horde; row 5: D5 blue's Family blessed by red's
    // Bishop, E5 the central Loch with blue's Bishop; B5 and H5 Lochs.
    assert!(lines[3].contains("r2"), "{d}");
    assert!(lines[4].contains("b1R ~~B"), "{d}");
    assert_eq!(lines[4].matches("~~").count(), 3, "{d}");
    assert!(lines[5].contains("b4"), "{d}");
    assert!(lines[6].contains("r3"), "{d}");
    assert!(
        lines[10].contains("red 2, blue 1; 4 quiet turns; blue to move"),
        "{d}"
    );
    // Neighbours touch: C4 (row 4) sits between its neighbours C5 and D5.
    let x = |line: &str, token: &str| line.find(token).unwrap();
    assert_eq!(x(lines[3], "r2") + 2, x(lines[4], "b1"));
    let start = Pos::start(Variant::Standard, 0).diagram();
    assert!(
        start.contains("placement: red 12 and blue 12 tokens to place; red to place"),
        "{start}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

    #[test]
    fn garbage_positions_and_moves_never_panic(text in ".{0,80}") {
        let _ = Pos::from_notation(Variant::Standard, &text);
        let p = Pos::start(Variant::Standard, 0);
        let _ = p.parse_move(&text);
    }

    #[test]
    fn mutated_positions_never_panic(cut in 0usize..60, ch in proptest::prelude::any::<char>()) {
        let base = "play C4=r2,D5=b1,E6=b4,G7=r3 D5,E5 2,1 4 b -";
        let mut chars: Vec<char> = base.chars().collect();
        let i = cut % chars.len();
        chars[i] = ch;
        let text: String = chars.into_iter().collect();
        if let Ok(p) = Pos::from_notation(Variant::Standard, &text) {
            let _ = pos(&p.to_notation());
            let mut v = Vec::new();
            p.legal_moves(&mut v);
        }
    }
}
