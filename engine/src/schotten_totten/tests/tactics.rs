//! Tactic cards, passing, expert claim timing and the win.

use super::*;

fn texts(s: &FullState) -> Vec<String> {
    all_moves(s).iter().map(|m| s.move_to_text(m)).collect()
}

#[test]
fn recruiter_draws_three_and_returns_two() {
    let mut s = empty(Variant::Tactics);
    hand(&mut s, ONE, "RECRUITER G1 G2");
    hand(&mut s, TWO, "B1");
    let clan_top: Vec<Card> = s.decks[0].iter().rev().take(2).map(|d| d.card).collect();
    let tactic_top = s.decks[1].last().map(|d| d.card).expect("tactic cards");
    let (nc, nt) = (s.deck_len(Deck::Clan), s.deck_len(Deck::Tactic));
    let s = valid(&s);
    assert!(texts(&s).contains(&"p:RECRUITER:2+1".to_string()));
    assert!(texts(&s).contains(&"p:RECRUITER:0+3".to_string()));
    let s = play(s, "p:RECRUITER:2+1");
    assert_eq!(s.board().phase, Phase::Return);
    assert_eq!(s.side_to_move(), ONE, "the same player returns");
    let h = s.hand(ONE);
    assert_eq!(h.len(), 5);
    for k in clan_top.iter().chain([&tactic_top]) {
        assert!(h.contains(k));
    }
    assert!(all_moves(&s)
        .iter()
        .all(|m| matches!(m.action, Action::Return { .. }) && m.draw.is_none()));
    let s = valid(&s);
    let s = play(s, "r:G1,G2");
    assert_eq!(s.board().phase, Phase::Play);
    assert_eq!(s.side_to_move(), TWO);
    assert_eq!(s.hand(ONE).len(), 3, "3 - 1 + 3 - 2, no draw");
    assert_eq!(s.deck_len(Deck::Clan), nc);
    assert_eq!(s.deck_len(Deck::Tactic), nt - 1);
    assert_eq!(
        s.decks[0][0].card,
        c("G2"),
        "the second returned card is at the bottom"
    );
    assert_eq!(s.decks[0][1].card, c("G1"));
    assert_eq!(s.board().tactics_played, [1, 0]);
    assert_eq!(s.board().discard, vec![Card::RECRUITER]);
    // Only the returning player knows the bottom cards.
    let v1 = s.view(ONE);
    assert_eq!(v1.deck_known[0], vec![(0, c("G2")), (1, c("G1"))]);
    assert!(s.view(TWO).deck_known[0].is_empty());
    let s = valid(&s);
    assert!(s.to_notation().contains("G2=1,G1=1"));
}

#[test]
fn recruiter_with_short_decks_and_known_cards_drawn_back() {
    let mut s = empty(Variant::Tactics);
    hand(&mut s, ONE, "RECRUITER G1 G2 G3");
    hand(&mut s, TWO, "B1");
    // Leave one clan card and one tactic card in the decks.
    let keep_clan = s.decks[0].pop().expect("clan");
    let keep_tactic = s.decks[1].pop().expect("tactic");
    for d in std::mem::take(&mut s.decks[0]) {
        s.board.discard.push(d.card);
    }
    for d in std::mem::take(&mut s.decks[1]) {
        s.board.discard.push(d.card);
    }
    s.decks[0].push(keep_clan);
    s.decks[1].push(keep_tactic);
    // Tactic counts must fit the seen tactic cards.
    let s = valid(&s);
    let recruits: Vec<String> = texts(&s)
        .into_iter()
        .filter(|m| m.contains("RECRUITER"))
        .collect();
    assert_eq!(
        recruits,
        vec!["p:RECRUITER:1+1".to_string()],
        "draw what there is"
    );
    let s = play(s, "p:RECRUITER:1+1");
    assert_eq!(s.hand(ONE).len(), 5);
    let s = play(s, "r:G1,G2");
    assert_eq!(s.deck_len(Deck::Clan), 2);
    assert_eq!(s.view(ONE).deck_known[0], vec![(0, c("G2")), (1, c("G1"))]);
    // Second draws G1 from the top: first knows second holds it.
    let s = play(s, "p:B1@1/d:clan");
    assert_eq!(s.view(ONE).opp_known, vec![c("G1")]);
    assert_eq!(s.view(ONE).deck_known[0], vec![(0, c("G2"))]);
    assert!(s.to_notation().contains("h2:G1!"));
    valid(&s);
}

#[test]
fn strategist_banshee_traitor() {
    let mut s = empty(Variant::Tactics);
    side(&mut s, ONE, 2, "G5");
    side(&mut s, TWO, 3, "R2 SPY");
    s.board.tactics_played = [0, 1];
    hand(&mut s, ONE, "STRATEGIST BANSHEE TRAITOR");
    let s = valid(&s);
    let t = texts(&s);
    assert!(t.contains(&"p:STRATEGIST:G5@3>5/d:clan".to_string()));
    assert!(t.contains(&"p:STRATEGIST:G5@3>x/d:tactic".to_string()));
    assert!(
        !t.contains(&"p:STRATEGIST:G5@3>3/d:clan".to_string()),
        "another stone"
    );
    assert!(t.contains(&"p:BANSHEE:SPY@4/d:clan".to_string()));
    assert!(
        t.contains(&"p:TRAITOR:R2@4>4/d:clan".to_string()),
        "the same stone is allowed"
    );
    assert!(
        !t.iter().any(|m| m.starts_with("p:TRAITOR:SPY")),
        "Traitor takes clan cards only"
    );
    // 8 destinations + discard for Strategist; 2 targets for Banshee; 9 for Traitor; x2 draws.
    assert_eq!(t.len(), (9 + 2 + 9) * 2);

    let a = play(s.clone(), "p:STRATEGIST:G5@3>5/d:clan");
    assert!(a.board().stones[2].sides[0].is_empty());
    assert_eq!(*a.board().stones[4].sides[0], [c("G5")]);
    assert_eq!(a.board().discard, vec![Card::STRATEGIST]);
    assert_eq!(a.board().tactics_played, [1, 1]);
    let a = play(s.clone(), "p:STRATEGIST:G5@3>x/d:clan");
    assert_eq!(a.board().discard, vec![Card::STRATEGIST, c("G5")]);
    let b = play(s.clone(), "p:BANSHEE:R2@4/d:clan");
    assert_eq!(*b.board().stones[3].sides[1], [Card::SPY]);
    assert_eq!(b.board().discard, vec![Card::BANSHEE, c("R2")]);
    let t = play(s.clone(), "p:TRAITOR:R2@4>6/d:clan");
    assert_eq!(*t.board().stones[3].sides[1], [Card::SPY]);
    assert_eq!(*t.board().stones[5].sides[0], [c("R2")]);
    assert_eq!(t.board().discard, vec![Card::TRAITOR]);
    valid(&t);
}

#[test]
fn ruses_need_targets_and_removals_reset_completion() {
    let mut s = empty(Variant::Tactics);
    hand(&mut s, ONE, "BANSHEE TRAITOR STRATEGIST G1");
    let s = valid(&s);
    // No card on the table: no ruse can be played (Recruiter aside), only G1.
    assert!(texts(&s).iter().all(|m| m.starts_with("p:G1@")));

    let mut s = empty(Variant::Tactics);
    side(&mut s, TWO, 0, "B1 B2 B3");
    side(&mut s, ONE, 0, "G1 G2 G3");
    hand(&mut s, ONE, "BANSHEE");
    hand(&mut s, TWO, "K3");
    let s = valid(&s);
    // Equal colour runs: second completed first and wins the tie.
    assert_eq!(s.board().stones[0].first, Some(TWO));
    assert!(!claimable(&s, ONE, 0));
    assert!(claimable(&s, TWO, 0));
    // Banshee on B3: B1 B2 can at best tie again (B3 is seen, a Joker as B3
    // gives 6), so first may claim in the same turn.
    assert!(texts(&s).contains(&"p:BANSHEE:B3@1/c:1/d:clan".to_string()));
    let s = play(s, "p:BANSHEE:B3@1/d:clan");
    assert_eq!(s.board().stones[0].first, None);
    assert!(claimable(&s, ONE, 0));
    // Second completes again: now first completed first.
    let s = play(s, "p:K3@1/d:clan");
    assert_eq!(s.board().stones[0].first, Some(ONE));
    valid(&s);
}

#[test]
fn tactic_count_limit_and_one_joker() {
    let mut s = empty(Variant::Tactics);
    side(&mut s, ONE, 0, "JOKER");
    s.board.tactics_played = [1, 0];
    hand(&mut s, ONE, "SPY G5");
    hand(&mut s, TWO, "JOKER SHIELD");
    let s = valid(&s);
    // First has played more tactic cards than second: no SPY.
    assert!(texts(&s).iter().all(|m| m.starts_with("p:G5@")));
    let s = play(s, "p:G5@2/d:clan");
    // Second may play its Joker (its own side has none) or the Shield-bearer.
    let t = texts(&s);
    assert!(t.contains(&"p:JOKER@1/d:clan".to_string()));
    assert!(t.contains(&"p:SHIELD@1/d:clan".to_string()));
    let s = play(s, "p:SHIELD@1/d:clan");
    assert_eq!(s.board().tactics_played, [1, 1]);
    // Counts equal: first may play the Spy again.
    assert!(texts(&s).iter().any(|m| m.starts_with("p:SPY@")));

    // A second Joker stays in hand; with nothing else playable it is discarded.
    let mut j = empty(Variant::Tactics);
    side(&mut j, ONE, 0, "JOKER");
    j.board.tactics_played = [1, 1];
    put(&mut j, Card::SPY, Loc::Discard);
    hand(&mut j, ONE, "JOKER");
    let j = valid(&j);
    assert_eq!(texts(&j), vec!["x:JOKER/d:clan", "x:JOKER/d:tactic"]);
    let j = play(j, "x:JOKER/d:clan");
    assert_eq!(j.board().tactics_played, [1, 1], "a discard is not a play");
    assert_eq!(j.board().passes, 1, "no card played, no claim");
    assert_eq!(j.hand(ONE).len(), 1, "the discard draws");
}

#[test]
fn passing_ends_the_game() {
    let mut s = empty(Variant::Classic);
    side(&mut s, ONE, 0, "G1 G2 G3");
    side(&mut s, TWO, 0, "B1 B2");
    side(&mut s, TWO, 1, "R1 R2 R3");
    side(&mut s, ONE, 1, "R7 R8");
    for d in std::mem::take(&mut s.decks[0]) {
        s.board.discard.push(d.card);
    }
    let s = valid(&s);
    // Empty hands and decks: pass, optionally claiming.
    assert_eq!(texts(&s), vec!["pass/c:1", "pass"]);
    let s = play(s, "pass/c:1");
    assert_eq!(s.board().passes, 0, "a claim resets the count");
    assert_eq!(texts(&s), vec!["pass/c:2", "pass"]);
    let s = play(s, "pass");
    assert_eq!(s.board().passes, 1);
    let s = play(s, "pass");
    let o = s.outcome().expect("two turns without card or claim");
    assert_eq!(o.result, crate::GameResult::Win(ONE));
    assert_eq!(o.reason, "more stones");
    assert!(all_moves(&s).is_empty());
}

#[test]
fn expert_claims_at_the_start_of_the_turn() {
    for variant in [Variant::Tactics, Variant::Expert] {
        let mut s = empty(variant);
        side(&mut s, ONE, 0, "G7 G8");
        side(&mut s, TWO, 0, "B1 B2 B4");
        side(&mut s, ONE, 1, "Y7 Y8 Y9");
        side(&mut s, TWO, 1, "P1 P2 P4");
        hand(&mut s, ONE, "G9");
        let s = valid(&s);
        let t = texts(&s);
        if variant == Variant::Expert {
            // Stone 2 was complete before the turn: claim it first; stone 1
            // completes with this card and must wait.
            assert!(t.contains(&"c:2/p:G9@1/d:clan".to_string()));
            assert!(!t.iter().any(|m| m.contains("c:1")));
            let s = play(s, "c:2/p:G9@1/d:clan");
            assert_eq!(s.board().stones[1].claimed, Some(ONE));
            assert_eq!(s.board().stones[0].claimed, None);
        } else {
            assert!(t.contains(&"p:G9@1/c:1,2/d:clan".to_string()));
            let s = play(s, "p:G9@1/c:1,2/d:tactic");
            assert_eq!(s.board().stones[0].claimed, Some(ONE));
            assert!(s.hand(ONE)[0].is_tactic());
        }
    }
}

#[test]
fn three_adjacent_or_five_stones_win() {
    let mut s = empty(Variant::Classic);
    sides(
        &mut s,
        &[
            ("G1 G2 G3", "B1 B2 B4"),
            ("R1 R2 R3", "Y1 Y2 Y4"),
            ("P1 P2 P3", "K1 K2"),
        ],
    );
    s.board.stones[0].claimed = Some(ONE);
    s.board.stones[1].claimed = Some(ONE);
    hand(&mut s, ONE, "G9");
    hand(&mut s, TWO, "K9");
    let s = valid(&s);
    assert!(s.outcome().is_none());
    let s = play(s, "p:G9@5/c:3");
    assert_eq!(s.outcome().map(|o| o.reason), Some("three adjacent stones"));
}

#[test]
fn expert_claimed_stones_are_out_of_reach_in_the_same_turn() {
    let mut s = empty(Variant::Expert);
    side(&mut s, ONE, 1, "Y7 Y8 Y9");
    side(&mut s, TWO, 1, "P1 P2");
    hand(&mut s, ONE, "BANSHEE");
    let s = valid(&s);
    assert!(claimable(&s, ONE, 1), "P1 P2 reach P3 at best: 6 < 24");
    let t = texts(&s);
    assert!(t.contains(&"p:BANSHEE:P1@2/d:clan".to_string()));
    assert!(!t.iter().any(|m| m.starts_with("c:2/p:BANSHEE")), "{t:?}");
    // With the claim, no ruse has a target: the Banshee is discarded instead.
    assert!(t.contains(&"c:2/x:BANSHEE/d:clan".to_string()), "{t:?}");
}
