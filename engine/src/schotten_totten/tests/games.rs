//! Whole seeded games through the referee flow.

use super::*;
use crate::schotten_totten as st;

fn expected_counts(variant: Variant) -> Vec<u8> {
    Card::all()
        .map(|k| {
            if variant.tactics() || k.is_clan() {
                k.copies()
            } else {
                0
            }
        })
        .collect()
}

/// Plays a seeded game with random legal moves through the referee flow,
/// checking card conservation, notation round trips and views at every step.
fn random_game(variant: Variant, seed: u64) -> (FullState, bool) {
    let mut saw_known = false;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = FullState::start(variant, seed);
    let expected = expected_counts(variant);
    for _ in 0..2000 {
        assert_eq!(
            s.card_counts().to_vec(),
            expected,
            "conservation in {}",
            s.to_notation()
        );
        let text = s.to_notation();
        assert_eq!(
            FullState::from_notation(variant, &text).as_ref(),
            Ok(&s),
            "{text}"
        );
        saw_known |= s.decks.iter().flatten().any(|d| d.known != 0);
        if s.outcome().is_some() {
            assert!(all_moves(&s).is_empty());
            return (s, saw_known);
        }
        let me = s.side_to_move();
        let moves = all_moves(&s);
        assert!(!moves.is_empty(), "no move in {text}");
        for p in [ONE, TWO] {
            let v = s.view(p);
            let vt = v.to_notation();
            assert_eq!(
                st::View::from_notation(variant, &vt).as_ref(),
                Ok(&v),
                "{vt}"
            );
            // A deal consistent with the view looks the same to the viewer.
            let d = v.determinize(&mut rng);
            assert_eq!(d.view(p), v, "determinized {}", d.to_notation());
            assert_eq!(d.card_counts().to_vec(), expected);
            assert!(FullState::from_notation(variant, &d.to_notation()).is_ok());
            if p == me {
                assert_eq!(v.legal_moves(), moves, "view moves in {vt}");
            } else {
                assert!(v.legal_moves().is_empty());
            }
        }
        // Every move is one token that reads back; the older form, its
        // parts separated by spaces, reads the same.
        for m in &moves {
            let mt = s.move_to_text(m);
            assert!(
                !mt.is_empty() && !mt.contains(char::is_whitespace),
                "{mt:?}"
            );
            assert_eq!(s.parse_move(&mt).as_ref(), Ok(m), "move text {mt}");
            assert_eq!(s.parse_move(&mt.replace('/', " ")).as_ref(), Ok(m), "{mt}");
        }
        let m = *moves.choose(&mut rng).expect("a move");
        let view_after = s.view(me).play(&m).expect("the viewer's move on its view");
        s = s.play(&m).expect("a generated move is legal");
        let full_view = s.view(me);
        assert_eq!(view_after.board(), full_view.board());
        assert_eq!(view_after.deck_len, full_view.deck_len);
        assert_eq!(
            view_after.hand.len() + view_after.hand_unknown as usize,
            full_view.hand.len()
        );
    }
    panic!("game did not end");
}

#[test]
fn whole_games_end_with_conservation() {
    let mut recruited = 0;
    for variant in [Variant::Classic, Variant::Tactics, Variant::Expert] {
        for seed in 0..6 {
            let (end, saw_known) = random_game(variant, seed);
            assert!(end.outcome().is_some());
            recruited += saw_known as u32;
        }
    }
    // The checks covered Recruiter returns (known cards under a deck).
    assert!(recruited > 0);
}

#[test]
fn start_positions() {
    let s = FullState::start(Variant::Classic, 7);
    assert_eq!(s.hand(ONE).len(), 6);
    assert_eq!(s.hand(TWO).len(), 6);
    assert_eq!(s.deck_len(Deck::Clan), 42);
    assert_eq!(s.deck_len(Deck::Tactic), 0);
    assert_eq!(s, FullState::start(Variant::Classic, 7), "seeded");
    assert_ne!(s, FullState::start(Variant::Classic, 8));
    let t = FullState::start(Variant::Tactics, 7);
    assert_eq!(t.hand(ONE).len(), 7);
    assert!(
        t.hand(ONE).iter().all(|c| c.is_clan()),
        "opening hands are clan cards"
    );
    assert_eq!(t.deck_len(Deck::Clan), 40);
    assert_eq!(t.deck_len(Deck::Tactic), 10);
    assert_eq!(t.side_to_move(), ONE);
    // Classic first move: 6 cards x 9 stones, one draw choice.
    assert_eq!(all_moves(&s).len(), 54);
    // Tactics: 7 x 9 x two decks.
    assert_eq!(all_moves(&t).len(), 126);
}
