//! Formations, claims and their proofs.

use super::*;

#[test]
fn formation_ranking() {
    let colour_run = strength(&cards("G1 G2 G3"), false);
    let three = strength(&cards("G9 B9 R9"), false);
    let colour = strength(&cards("G9 G7 G8"), false); // is a colour run, not a colour
    let flush = strength(&cards("G9 G7 G5"), false);
    let run = strength(&cards("G7 B8 R9"), false);
    let sum = strength(&cards("G9 B9 R8"), false);
    assert_eq!(colour_run, 4 * 64 + 6);
    assert_eq!(three, 3 * 64 + 27);
    assert_eq!(colour, 4 * 64 + 24);
    assert_eq!(flush, 2 * 64 + 21);
    assert_eq!(run, 64 + 24);
    assert_eq!(sum, 26);
    assert!(colour_run > three && three > flush && flush > run && run > sum);
    // Same formation: the higher total wins.
    assert!(strength(&cards("B2 R3 Y4"), false) > strength(&cards("B1 R2 Y3"), false));
    // Blind-Man's Bluff: only the sum.
    assert_eq!(strength(&cards("G1 G2 G3"), true), 6);
    assert_eq!(strength(&cards("G9 B9 R8"), true), 26);
    // Mud Fight: four cards.
    assert_eq!(strength(&cards("G1 G2 G3 G4"), false), 4 * 64 + 10);
    assert_eq!(strength(&cards("G5 B5 R5 Y5"), false), 3 * 64 + 20);
    assert_eq!(strength(&cards("G5 B6 R7 Y8"), false), 64 + 26);
    assert_eq!(strength(&cards("G5 G6 R7 Y8"), false), 64 + 26);
}

#[test]
fn elite_troops_take_their_best_value() {
    // Joker completes the colour run at the top.
    assert_eq!(strength(&cards("G8 G9 JOKER"), false), 4 * 64 + 24);
    assert_eq!(strength(&cards("G1 G2 JOKER"), false), 4 * 64 + 6);
    // Spy is a 7 of any colour.
    assert_eq!(strength(&cards("R8 R9 SPY"), false), 4 * 64 + 24);
    assert_eq!(strength(&cards("R7 B7 SPY"), false), 3 * 64 + 21);
    // Shield-bearer 1-3.
    assert_eq!(strength(&cards("Y2 Y3 SHIELD"), false), 4 * 64 + 6); // Y1 or Y4? only 1..3: Y1
    assert_eq!(strength(&cards("Y3 Y4 SHIELD"), false), 4 * 64 + 9);
    assert_eq!(strength(&cards("Y9 B5 SHIELD"), false), 17);
    // Joker + Spy + Shield: 7 and 3 fixed ranks, joker 9 of a colour: colour 19.
    assert_eq!(strength(&cards("JOKER SPY SHIELD"), false), 2 * 64 + 19);
    // Blind-Man's Bluff: 9, 7, 3.
    assert_eq!(strength(&cards("JOKER SPY SHIELD"), true), 19);
    // Elite troops may copy a card already in play.
    assert_eq!(strength(&cards("G9 B9 JOKER"), false), 3 * 64 + 27);
}

// ---------------------------------------------------------------- claims

#[test]
fn claim_with_complete_sides_and_ties() {
    let mut s = empty(Variant::Classic);
    side(&mut s, ONE, 0, "G2 B3 R4"); // run 9
    side(&mut s, TWO, 0, "Y2 P3 K4"); // run 9, completed second
    side(&mut s, ONE, 1, "G5 B6 R7"); // run 18
    side(&mut s, TWO, 1, "Y7 P8 K9"); // run 24
    let s = valid(&s);
    assert_eq!(s.board().stones[0].first, Some(ONE));
    assert!(
        claimable(&s, ONE, 0),
        "equal run and total: first completed wins"
    );
    assert!(!claimable(&s, TWO, 0));
    assert!(claimable(&s, TWO, 1), "higher total wins");
    assert!(!claimable(&s, ONE, 1));
}

#[test]
fn claim_proofs_in_classic() {
    let mut s = empty(Variant::Classic);
    // Stone 1: G7 G8 G9 (colour run 24) against B8 B9: B7 B8 B9 only ties.
    side(&mut s, ONE, 0, "G7 G8 G9");
    side(&mut s, TWO, 0, "B8 B9");
    // Stone 2: R6 R7 R8 (21) against Y8 Y9: Y7 Y8 Y9 (24) beats it.
    side(&mut s, ONE, 1, "R6 R7 R8");
    side(&mut s, TWO, 1, "Y8 Y9");
    // Stone 3: R1 R2 R3 (6) against P2 P3: P2 P3 P4 (9) beats it...
    side(&mut s, ONE, 2, "R1 R2 R3");
    side(&mut s, TWO, 2, "P2 P3");
    // Stone 4: same shape against K2 K3, but K1 and K4 are on the table.
    side(&mut s, ONE, 3, "B1 B2 B3");
    side(&mut s, TWO, 3, "K2 K3");
    side(&mut s, ONE, 4, "K1 K4");
    // Stone 7: an incomplete side cannot claim.
    side(&mut s, ONE, 6, "Y1 Y2");
    let s = valid(&s);
    assert!(claimable(&s, ONE, 0), "a tie does not block the proof");
    assert!(
        !claimable(&s, ONE, 1),
        "Y7 is unseen: Y7 Y8 Y9 beats R6 R7 R8"
    );
    assert!(!claimable(&s, ONE, 2));
    assert!(
        claimable(&s, ONE, 3),
        "K1 and K4 seen: no pink colour run; colour < colour run"
    );
    assert!(!claimable(&s, ONE, 6));
    assert!(!claimable(&s, TWO, 0));
    // Cards in hands count as unseen: Y7 in the claimant's own hand still blocks.
    let mut t = s.clone();
    hand(&mut t, ONE, "Y7");
    assert!(!claimable(&t, ONE, 1));
    // Once Y7 is on the table, Y8 Y9 reach only a colour (Y6 Y8 Y9 = 23).
    let mut t = s.clone();
    side(&mut t, ONE, 7, "Y7");
    let t = valid(&t);
    assert!(claimable(&t, ONE, 1));
    // Discarded cards are seen too.
    let mut t = s.clone();
    put(&mut t, c("Y7"), Loc::Discard);
    assert!(claimable(&t, ONE, 1));
}

/// Tactics table: Mud Fight on stone 1 (G1 G2 G3 G4 against R8 R9),
/// Blind-Man's Bluff on stone 2 (`blind_side` against Y9 P8), every elite
/// troop discarded.
fn mud_blind(blind_side: &str) -> FullState {
    let mut s = empty(Variant::Tactics);
    for (i, t) in [(0, "MUD"), (1, "BLIND")] {
        take(&mut s, c(t));
        s.board.stones[i].add_mode(c(t));
    }
    s.board.tactics_played = [1, 1];
    side(&mut s, ONE, 0, "G1 G2 G3 G4");
    side(&mut s, TWO, 0, "R8 R9");
    side(&mut s, ONE, 1, blind_side);
    side(&mut s, TWO, 1, "Y9 P8");
    for t in ["JOKER", "JOKER", "SPY", "SHIELD"] {
        put(&mut s, c(t), Loc::Discard);
    }
    valid(&s)
}

#[test]
fn claim_proof_under_mud_and_blind() {
    let s = mud_blind("G9 B9 K8");
    // Mud: R6 R7 R8 R9 (colour run 30) beats G1..G4 (10).
    assert!(!claimable(&s, ONE, 0));
    // Blind: 26 against Y9 P8 + a 9 (P9 or K9) = 26 at best, a tie: claimable.
    assert!(claimable(&s, ONE, 1));
    // Blind: a colour run counts only its sum (24), which 26 beats.
    let s = mud_blind("K7 K8 K9");
    assert!(!claimable(&s, ONE, 1));
    let s = mud_blind("G9 B9 K7");
    assert!(!claimable(&s, ONE, 1));
}

#[test]
fn claim_proof_with_unplayed_elite_troops() {
    let mut s = empty(Variant::Tactics);
    side(&mut s, ONE, 0, "R6 R7 R8"); // colour run 21
    side(&mut s, TWO, 0, "B8 B9");
    side(&mut s, ONE, 1, "B7"); // B7 seen
    let s = valid(&s);
    // Jokers unseen: a Joker as B7 makes a colour run of 24.
    assert!(!claimable(&s, ONE, 0));
    let mut t = s.clone();
    put(&mut t, c("JOKER"), Loc::Discard);
    put(&mut t, c("JOKER"), Loc::Discard);
    // The Spy (a 7 of any colour) still does it.
    assert!(!claimable(&t, ONE, 0));
    put(&mut t, c("SPY"), Loc::Discard);
    assert!(
        claimable(&t, ONE, 0),
        "no elite 7 left: B8 B9 reach only a colour"
    );
    // In classic the same table is claimable at once.
    let mut k = empty(Variant::Classic);
    side(&mut k, ONE, 0, "R6 R7 R8");
    side(&mut k, TWO, 0, "B8 B9");
    side(&mut k, ONE, 1, "B7");
    assert!(claimable(&valid(&k), ONE, 0));
    // The one-Joker limit: a side holding a Joker cannot add the other one.
    let mut j = empty(Variant::Tactics);
    j.board.tactics_played = [0, 1];
    side(&mut j, ONE, 0, "G7 G8 G9"); // 24
    side(&mut j, TWO, 0, "JOKER Y9");
    side(&mut j, ONE, 1, "Y7 Y8");
    put(&mut j, c("SPY"), Loc::Discard);
    let j = valid(&j);
    // Opponent: JOKER Y9 + one card. A yellow colour run needs Y7 or Y8 (both
    // seen) besides the Joker, or a second Joker (not allowed on that side):
    // at best three 9s, which rank below a colour run.
    assert!(claimable(&j, ONE, 0));
}

#[test]
fn mud_fight_makes_complete_sides_incomplete() {
    let mut s = empty(Variant::Tactics);
    side(&mut s, ONE, 0, "G7 G8 G9");
    side(&mut s, TWO, 0, "B1 R5 Y2");
    hand(&mut s, ONE, "MUD G1");
    hand(&mut s, TWO, "G2");
    let s = valid(&s);
    assert_eq!(s.board().stones[0].first, Some(ONE));
    assert!(claimable(&s, ONE, 0));
    let s = play(s, "p:MUD@1/d:clan");
    let st = &s.board().stones[0];
    assert!(st.mud && !st.complete(ONE) && !st.complete(TWO));
    assert_eq!(st.first, None);
    assert!(!claimable(&s, ONE, 0));
    assert_eq!(s.board().tactics_played, [1, 0]);
    // The mud stone takes a fourth card; the claim move of that turn is refused.
    let refused = s.clone().play(&mv(&s, "p:G2@1/c:1/d:clan"));
    assert!(refused.is_err());
    let s = play(s, "p:G2@1/d:clan");
    assert_eq!(s.board().stones[0].first, None, "only one side is complete");
    assert!(s.board().stones[0].complete(TWO));
}

/// The events of `mv` in `text` (tactics) and the themes they make.
fn events_and_themes(text: &str, mv: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let s = FullState::from_notation(Variant::Tactics, text).unwrap();
    let m = s.parse_move(mv).unwrap();
    let after = play(s.clone(), mv);
    let events = s.move_events(&m, &after, after.outcome().as_ref(), 0);
    let kinds = events.iter().map(|e| e.kind).collect();
    (kinds, FullState::themes(&events))
}

#[test]
fn a_winning_move_says_what_decided_it() {
    // Second's side of stone 5 is open (G9, Y1): first's K5 K4 R6 claims it
    // by proof, and K9 on stone 1 (K9 R9 B9 against G7 P6 P5) wins a fifth
    // stone.
    let proof = "full turn:1 pass:0 tc:1,2 st:B9,R9::G7,P6,P5:-/SHIELD,P1,P2::B8,R5:1/G2::P8,JOKER,P9:2/P7::R4,R2,R1:-/K5,K4,R6::G9,Y1:-/Y5,B1,R3*::G4,G3,Y2:2/Y9,Y8,G1::Y6,B5:-/B4,B2,P3::K7,B7,K1*:1/R8,R7,B6::K3,Y4:1 h1:G8,Y7,P4,K2,K8,K9,RECRUITER h2:G5,G6,B3,JOKER,SPY,BLIND,STRATEGIST dc:Y3,K6 dt:BANSHEE,MUD x:TRAITOR";
    let (kinds, themes) = events_and_themes(proof, "p:K9@1/c:1,5/d:clan");
    assert_eq!(kinds, ["claim", "claim", "proof", "draw-card", "game-over"]);
    assert_eq!(themes, ["claim", "proof", "five-stones"]);
    // A Joker completes stone 6 and claims it: a tactic card decides.
    let joker = "full turn:1 pass:1 tc:2,3 st:P6,Y2,B9::R6,Y1,B8*:1/B6,B7,P2*::Y9,Y7,G1:2/G7,G8,G9:::1/Y8,Y5,R2:M:B5,G4,Y6,P7:2/R5,R4,B3*::P3,SHIELD,P4:2/K1,K2::G3,G2,R9:-/R1,P1:B:K6,R3,K8:2/R8,P9,R7::Y4,Y3,B1*:1/K9,SPY,B4::K3,K4,G6*:1 h1:B2,P8,JOKER,RECRUITER,BANSHEE h2:G5,P5,K5,K7,JOKER dc: dt: x:TRAITOR,STRATEGIST";
    let (kinds, themes) = events_and_themes(joker, "p:JOKER@6/c:6");
    assert_eq!(kinds, ["tactic", "claim", "game-over"]);
    assert_eq!(themes, ["tactic", "claim", "five-stones"]);
}
