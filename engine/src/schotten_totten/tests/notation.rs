//! Position and move notation, validation, views.

use super::*;
use crate::schotten_totten as st;

#[test]
fn notation_round_trip_and_example() {
    let s = FullState::start(Variant::Classic, 3);
    let text = s.to_notation();
    assert!(text.starts_with("full turn:1 pass:0 tc:0,0 st::::-/:::-/"));
    assert_eq!(
        FullState::from_notation(Variant::Classic, &text),
        Ok(s.clone())
    );
    let m = all_moves(&s)[0];
    let s2 = s.clone().play(&m).expect("legal");
    let v = s2.view(TWO);
    let vt = v.to_notation();
    assert!(vt.starts_with("view:2 turn:2 "));
    assert!(vt.contains("h1:?,?,?,?,?,?"), "{vt}");
    assert!(vt.contains(" dc:41 dt:0 x:"), "{vt}");
    assert_eq!(st::View::from_notation(Variant::Classic, &vt), Ok(v));
}

fn problems(variant: Variant, text: &str) -> Vec<String> {
    match FullState::from_notation(variant, text) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems,
    }
}

/// A hand or a deck longer than the state holds (it keeps nine and 54
/// cards at most) is refused with its count given, not a crash.
#[test]
fn overlong_hands_and_decks_are_refused() {
    assert!((0..3).all(|v| {
        let variant = [Variant::Classic, Variant::Tactics, Variant::Expert][v];
        variant.hand_size() + 2 <= st::state::MAX_HAND
    }));
    let start = FullState::start(Variant::Classic, 1).to_notation();
    let deck = start
        .split(" dc:")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let hand = start
        .split(" h1:")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    // The whole clan deck in first's hand: 48 cards.
    let big_hand = start
        .replace(&format!("h1:{hand}"), &format!("h1:{hand},{deck}"))
        .replace(&format!("dc:{deck}"), "dc:");
    let p = problems(Variant::Classic, &big_hand);
    assert!(
        p.iter()
            .any(|p| p.contains("player 1 holds 48 cards, at most 6")),
        "{p:?}"
    );
    // Eighteen cards twice in the clan deck: 60 cards.
    let twice: Vec<&str> = deck.split(',').take(18).collect();
    let big_deck = start.replace(
        &format!("dc:{deck}"),
        &format!("dc:{deck},{}", twice.join(",")),
    );
    let p = problems(Variant::Classic, &big_deck);
    assert!(
        p.iter()
            .any(|p| p.contains("clan deck: 60 cards, at most 54")),
        "{p:?}"
    );
}

#[test]
fn impossible_positions_are_rejected() {
    let mut s = empty(Variant::Tactics);
    side(&mut s, ONE, 0, "G1 G2 G3");
    side(&mut s, TWO, 0, "B1 B2 B3");
    s.board.tactics_played = [1, 0];
    side(&mut s, ONE, 1, "JOKER");
    let good = valid(&s).to_notation();
    // A card twice.
    let twice = good.replace("h1:", "h1:G1");
    assert!(problems(Variant::Tactics, &twice)
        .iter()
        .any(|p| p.contains("G1 appears 2 times")));
    // A card missing.
    let missing = good.replace("st:G1,G2,G3", "st:G1,G2");
    let p = problems(Variant::Tactics, &missing);
    assert!(p.iter().any(|p| p.contains("G3 appears 0 times")), "{p:?}");
    // Four cards on a side without Mud Fight.
    let mut four = s.clone();
    four.board.stones[2].sides[0] = Side::from_slice(&cards("R1 R2 R3 R4")).unwrap();
    for k in cards("R1 R2 R3 R4") {
        take(&mut four, k);
    }
    let p = problems(Variant::Tactics, &four.to_notation());
    assert!(p.iter().any(|p| p.contains("4 cards on one side")), "{p:?}");
    // More than any side holds (a side keeps four cards at most): refused
    // with the count given, the other problems still listed.
    let five = good.replace("st:G1,G2,G3", "st:G1,G2,G3,G4,G5");
    let p = problems(Variant::Tactics, &five);
    assert!(
        p.iter()
            .any(|p| p.contains("stone 1: 5 cards on one side, at most 3")),
        "{p:?}"
    );
    // Stone 1 under Mud Fight with six cards on first's side.
    let (head, rest) = good.split_once("st:").unwrap();
    let (stone, tail) = rest.split_once('/').unwrap();
    let parts: Vec<&str> = stone.split(':').collect();
    let stone = format!("G1,G2,G3,G4,G5,G6:M:{}:{}", parts[2], parts[3]);
    let p = problems(Variant::Tactics, &format!("{head}st:{stone}/{tail}"));
    assert!(
        p.iter()
            .any(|p| p.contains("stone 1: 6 cards on one side, at most 4")),
        "{p:?}"
    );
    // Two Jokers on one side (also: more elites than tactic cards played).
    let mut jj = s.clone();
    take(&mut jj, Card::JOKER);
    jj.board.stones[1].sides[0].push(Card::JOKER);
    let p = problems(Variant::Tactics, &jj.to_notation());
    assert!(p.iter().any(|p| p.contains("two Jokers")), "{p:?}");
    // A claim by the weaker side, and by an incomplete side.
    let mut cl = s.clone();
    cl.board.stones[0].claimed = Some(TWO); // equal runs, first completed first
    cl.board.stones[1].claimed = Some(ONE);
    let p = problems(Variant::Tactics, &cl.to_notation());
    assert!(
        p.iter()
            .any(|p| p.contains("stone 1: claimed by the weaker side")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|p| p.contains("stone 2: claimed with an incomplete side")),
        "{p:?}"
    );
    // An overfull claimed side is reported, not a crash.
    assert!(good.contains("st:G1,G2,G3*::B1,B2,B3:-"), "{good}");
    let over = good.replace(
        "st:G1,G2,G3*::B1,B2,B3:-",
        "st:G1,G2,G3,R1,R2,R3,R4,R5,R6::B1,B2,B3*:1",
    );
    assert!(!problems(Variant::Tactics, &over).is_empty());
    // Counters out of range.
    let p = problems(
        Variant::Tactics,
        &good.replace("pass:0", "pass:3").replace("tc:1,0", "tc:3,0"),
    );
    assert!(p.iter().any(|p| p.contains("pass")), "{p:?}");
    assert!(
        p.iter().any(|p| p.contains("differ by more than one")),
        "{p:?}"
    );
    // Tactic cards in classic, missing fields, garbage.
    assert!(!problems(Variant::Classic, &good).is_empty());
    let p = problems(Variant::Tactics, "full turn:1");
    assert!(p.iter().any(|p| p.contains("missing field 'st:'")), "{p:?}");
    assert!(!problems(Variant::Tactics, "").is_empty());
    assert!(!problems(Variant::Tactics, "view:1 st:x").is_empty());
    // Views: more cards known than exist, and a deck too large.
    let v = s.view(ONE).to_notation();
    assert!(st::View::from_notation(Variant::Tactics, &v).is_ok());
    let bad = v.replace("dc:", "dc:5");
    assert!(st::View::from_notation(Variant::Tactics, &bad).is_err());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Garbage never panics, in positions or moves.
    #[test]
    fn garbage_never_panics(text in "[ -~]{0,80}", cut in 0usize..400) {
        let _ = FullState::from_notation(Variant::Tactics, &text);
        let _ = st::View::from_notation(Variant::Expert, &text);
        let s = FullState::start(Variant::Tactics, 1);
        let _ = s.parse_move(&text);
        // A mangled real position.
        let real = s.to_notation();
        let cut = cut.min(real.len());
        let mangled = format!("{}{}", &real[..cut], text);
        let _ = FullState::from_notation(Variant::Tactics, &mangled);
        if let Ok(m) = s.parse_move(&text) {
            let _ = s.clone().play(&m);
        }
    }
}

/// The examples of the module documentation.
const DOC_FULL: &str = "full turn:2 pass:0 tc:0,0 st::::-/:::-/:::-/:::-/:::-/R3,G6::G9:-/:::-/:::-/:::- h1:R6,R8,Y4,Y9,K3,K8 h2:B9,R5,Y6,Y8,P7,P9 dc:P3,Y2,B3,K7,Y3,K2,G4,R9,Y1,P1,B6,R2,R1,G1,K1,G3,P2,P5,B1,P8,R7,K9,K4,B8,Y5,P4,B2,R4,G2,G7,K6,B7,Y7,P6,B4,K5,B5,G5,G8 dt: x:";
const DOC_VIEW: &str = "view:2 turn:2 pass:0 tc:0,0 st::::-/:::-/:::-/:::-/:::-/R3,G6::G9:-/:::-/:::-/:::- h1:?,?,?,?,?,? h2:B9,R5,Y6,Y8,P7,P9 dc:39 dt:0 x:";

#[test]
fn documented_examples() {
    let mut s = FullState::start(Variant::Classic, 42);
    for text in ["p:R3@6", "p:G9@6/d:clan", "p:G6@6/d:clan"] {
        s = play(s, text);
    }
    assert_eq!(s.to_notation(), DOC_FULL);
    assert_eq!(s.view(TWO).to_notation(), DOC_VIEW);
    assert_eq!(
        FullState::from_notation(Variant::Classic, DOC_FULL),
        Ok(s.clone())
    );
    assert_eq!(
        st::View::from_notation(Variant::Classic, DOC_VIEW),
        Ok(s.view(TWO))
    );
    let d = s.diagram_ansi(false);
    assert!(d.contains("R3 G6   6     G9"), "{d}");
    assert!(s.diagram_ansi(true).contains("\x1b[31mR3\x1b[0m"));
}

#[test]
fn moves_on_a_view() {
    let s = FullState::start(Variant::Tactics, 4);
    let v = s.view(ONE);
    let first = v.hand()[0];
    let m = v
        .parse_move(&format!("p:{first}@1/d:clan"))
        .expect("a move");
    let after = v.clone().play(&m).expect("the viewer's own move");
    // The drawn card is unknown to the view until the referee reveals it.
    assert_eq!(after.hand().len(), 6);
    assert_eq!(after.hand_unknown, 1);
    let text = after.to_notation();
    assert!(text.contains(",?"), "{text}");
    assert_eq!(
        st::View::from_notation(Variant::Tactics, &text),
        Ok(after.clone())
    );
    assert_eq!(after.board().stones[0].sides[0].len(), 1);
    // It is now second's turn: first's view has no move and refuses one.
    assert!(after.legal_moves().is_empty());
    let err = after.clone().play(&m).expect_err("not the viewer's turn");
    assert!(err.to_string().contains("not a legal move"), "{err}");
    // The referee's state agrees on everything public.
    let full = s.play(&m).expect("legal");
    assert_eq!(full.view(ONE).board(), after.board());
    // A move the viewer cannot make is refused with the view handed back.
    let v2 = full.view(TWO);
    let bad = v2.parse_move("p:JOKER@1/d:clan").expect("well formed");
    let back = v2.clone().play(&bad).expect_err("no Joker in hand");
    assert_eq!(back.position, v2);
}
