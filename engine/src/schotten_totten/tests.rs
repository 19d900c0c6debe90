//! Tests of the Schotten Totten rules, notation and search.

use rand::seq::IndexedRandom;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::board::{Deck, Phase};
use super::cards::Card;
use super::formation::{max_strength, strength, Pool};
use super::moves::{Action, Move};
use super::state::{DeckCard, FullState, HandCard};
use super::Variant;
use crate::{Game, Player};

const ONE: Player = Player::One;
const TWO: Player = Player::Two;

fn c(name: &str) -> Card {
    Card::parse(name).unwrap_or_else(|| panic!("bad card {name}"))
}

fn cards(names: &str) -> Vec<Card> {
    names.split_whitespace().map(c).collect()
}

/// Where a test puts a card.
enum Loc {
    Side(Player, usize),
    Hand(Player),
    Discard,
}

/// Takes one copy of `card` out of wherever it is (decks first, then hands,
/// then discard, then table).
fn take(s: &mut FullState, card: Card) {
    for d in &mut s.decks {
        if let Some(i) = d.iter().position(|x| x.card == card) {
            d.remove(i);
            return;
        }
    }
    for h in &mut s.hands {
        if let Some(i) = h.iter().position(|x| x.card == card) {
            h.remove(i);
            return;
        }
    }
    if let Some(i) = s.board.discard.iter().position(|&x| x == card) {
        s.board.discard.remove(i);
        return;
    }
    for st in &mut s.board.stones {
        for side in &mut st.sides {
            if let Some(i) = side.iter().position(|&x| x == card) {
                side.remove(i);
                return;
            }
        }
    }
    panic!("{card} not found");
}

fn put(s: &mut FullState, card: Card, loc: Loc) {
    take(s, card);
    match loc {
        Loc::Side(p, i) => s.board.stones[i].add(p, card),
        Loc::Hand(p) => {
            s.hands[p.index()].push(HandCard {
                card,
                known_to_opponent: false,
            });
            s.hands[p.index()].sort();
        }
        Loc::Discard => s.board.discard.push(card),
    }
}

/// An empty-handed state of `variant` (all cards in the decks), first to move.
fn empty(variant: Variant) -> FullState {
    let mut s = FullState::new_game(variant, 1);
    for p in [ONE, TWO] {
        for h in std::mem::take(&mut s.hands[p.index()]) {
            s.decks[0].push(DeckCard {
                card: h.card,
                known: 0,
            });
        }
    }
    s
}

/// Puts `names` on `p`'s side of stone `i` (0-based), in order.
fn side(s: &mut FullState, p: Player, i: usize, names: &str) {
    for card in cards(names) {
        put(s, card, Loc::Side(p, i));
    }
}

fn hand(s: &mut FullState, p: Player, names: &str) {
    for card in cards(names) {
        put(s, card, Loc::Hand(p));
    }
}

/// Checks that the state is valid by a notation round trip.
fn valid(s: &FullState) -> FullState {
    let text = s.to_notation();
    let back = FullState::from_notation(s.variant(), &text)
        .unwrap_or_else(|e| panic!("invalid test position {text}: {e}"));
    assert_eq!(&back, s, "round trip of {text}");
    back
}

fn all_moves(s: &FullState) -> Vec<Move> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    v
}

fn mv(s: &FullState, text: &str) -> Move {
    s.parse_move(text)
        .unwrap_or_else(|e| panic!("cannot read {text}: {e}"))
}

fn play(s: FullState, text: &str) -> FullState {
    let m = mv(&s, text);
    s.play(&m).unwrap_or_else(|e| panic!("{text} refused: {e}"))
}

fn claimable(s: &FullState, p: Player, stone: usize) -> bool {
    let b = s.board();
    b.claimable(stone, p, &b.unseen_pool())
}

// ---------------------------------------------------------------- formations

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
    let s = play(s, "p:MUD@1 d:clan");
    let st = &s.board().stones[0];
    assert!(st.mud && !st.complete(ONE) && !st.complete(TWO));
    assert_eq!(st.first, None);
    assert!(!claimable(&s, ONE, 0));
    assert_eq!(s.board().tactics_played, [1, 0]);
    // The mud stone takes a fourth card; the claim move of that turn is refused.
    let refused = s.clone().play(&mv(&s, "p:G2@1 c:1 d:clan"));
    assert!(refused.is_err());
    let s = play(s, "p:G2@1 d:clan");
    assert_eq!(s.board().stones[0].first, None, "only one side is complete");
    assert!(s.board().stones[0].complete(TWO));
}

// ---------------------------------------------------------------- whole games

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
                super::View::from_notation(variant, &vt).as_ref(),
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
        let m = *moves.choose(&mut rng).expect("a move");
        let mt = s.move_to_text(&m);
        assert_eq!(s.parse_move(&mt), Ok(m), "move text {mt}");
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

// ---------------------------------------------------------------- tactics

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
    let s = play(s, "p:B1@1 d:clan");
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
    assert!(t.contains(&"p:STRATEGIST:G5@3>5 d:clan".to_string()));
    assert!(t.contains(&"p:STRATEGIST:G5@3>x d:tactic".to_string()));
    assert!(
        !t.contains(&"p:STRATEGIST:G5@3>3 d:clan".to_string()),
        "another stone"
    );
    assert!(t.contains(&"p:BANSHEE:SPY@4 d:clan".to_string()));
    assert!(
        t.contains(&"p:TRAITOR:R2@4>4 d:clan".to_string()),
        "the same stone is allowed"
    );
    assert!(
        !t.iter().any(|m| m.starts_with("p:TRAITOR:SPY")),
        "Traitor takes clan cards only"
    );
    // 8 destinations + discard for Strategist; 2 targets for Banshee; 9 for Traitor; x2 draws.
    assert_eq!(t.len(), (9 + 2 + 9) * 2);

    let a = play(s.clone(), "p:STRATEGIST:G5@3>5 d:clan");
    assert!(a.board().stones[2].sides[0].is_empty());
    assert_eq!(a.board().stones[4].sides[0], vec![c("G5")]);
    assert_eq!(a.board().discard, vec![Card::STRATEGIST]);
    assert_eq!(a.board().tactics_played, [1, 1]);
    let a = play(s.clone(), "p:STRATEGIST:G5@3>x d:clan");
    assert_eq!(a.board().discard, vec![Card::STRATEGIST, c("G5")]);
    let b = play(s.clone(), "p:BANSHEE:R2@4 d:clan");
    assert_eq!(b.board().stones[3].sides[1], vec![Card::SPY]);
    assert_eq!(b.board().discard, vec![Card::BANSHEE, c("R2")]);
    let t = play(s.clone(), "p:TRAITOR:R2@4>6 d:clan");
    assert_eq!(t.board().stones[3].sides[1], vec![Card::SPY]);
    assert_eq!(t.board().stones[5].sides[0], vec![c("R2")]);
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
    assert!(texts(&s).contains(&"p:BANSHEE:B3@1 c:1 d:clan".to_string()));
    let s = play(s, "p:BANSHEE:B3@1 d:clan");
    assert_eq!(s.board().stones[0].first, None);
    assert!(claimable(&s, ONE, 0));
    // Second completes again: now first completed first.
    let s = play(s, "p:K3@1 d:clan");
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
    let s = play(s, "p:G5@2 d:clan");
    // Second may play its Joker (its own side has none) or the Shield-bearer.
    let t = texts(&s);
    assert!(t.contains(&"p:JOKER@1 d:clan".to_string()));
    assert!(t.contains(&"p:SHIELD@1 d:clan".to_string()));
    let s = play(s, "p:SHIELD@1 d:clan");
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
    assert_eq!(texts(&j), vec!["x:JOKER d:clan", "x:JOKER d:tactic"]);
    let j = play(j, "x:JOKER d:clan");
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
    assert_eq!(texts(&s), vec!["pass c:1", "pass"]);
    let s = play(s, "pass c:1");
    assert_eq!(s.board().passes, 0, "a claim resets the count");
    assert_eq!(texts(&s), vec!["pass c:2", "pass"]);
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
            assert!(t.contains(&"c:2 p:G9@1 d:clan".to_string()));
            assert!(!t.iter().any(|m| m.contains("c:1")));
            let s = play(s, "c:2 p:G9@1 d:clan");
            assert_eq!(s.board().stones[1].claimed, Some(ONE));
            assert_eq!(s.board().stones[0].claimed, None);
        } else {
            assert!(t.contains(&"p:G9@1 c:1,2 d:clan".to_string()));
            let s = play(s, "p:G9@1 c:1,2 d:tactic");
            assert_eq!(s.board().stones[0].claimed, Some(ONE));
            assert!(s.hand(ONE)[0].is_tactic());
        }
    }
}

#[test]
fn three_adjacent_or_five_stones_win() {
    let mut s = empty(Variant::Classic);
    for (i, (a, b)) in [
        ("G1 G2 G3", "B1 B2 B4"),
        ("R1 R2 R3", "Y1 Y2 Y4"),
        ("P1 P2 P3", "K1 K2"),
    ]
    .iter()
    .enumerate()
    {
        side(&mut s, ONE, i, a);
        side(&mut s, TWO, i, b);
    }
    s.board.stones[0].claimed = Some(ONE);
    s.board.stones[1].claimed = Some(ONE);
    hand(&mut s, ONE, "G9");
    hand(&mut s, TWO, "K9");
    let s = valid(&s);
    assert!(s.outcome().is_none());
    let s = play(s, "p:G9@5 c:3");
    assert_eq!(s.outcome().map(|o| o.reason), Some("three adjacent stones"));
}

// ---------------------------------------------------------------- proof cross-check

/// A random side of `k` cards and a pool, from `seed`: clan cards drawn from
/// a small random subset (so the brute force stays fast), elites at random.
fn random_proof_case(seed: u64) -> (Vec<Card>, usize, bool, Pool) {
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = if rng.random_range(0..4) == 0 { 4 } else { 3 };
    let blind = rng.random_range(0..4) == 0;
    let mut clan: Vec<Card> = Card::all().filter(|c| c.is_clan()).collect();
    // Bias towards few colours and high ranks so strong formations occur.
    let colours = rng.random_range(1..=6u8);
    clan.retain(|c| c.colour().is_some_and(|x| x < colours));
    rand::seq::SliceRandom::shuffle(clan.as_mut_slice(), &mut rng);
    let k = rng.random_range(0..n);
    let mut side: Vec<Card> = Vec::new();
    let mut elites = vec![Card::JOKER, Card::SPY, Card::SHIELD];
    rand::seq::SliceRandom::shuffle(elites.as_mut_slice(), &mut rng);
    while side.len() < k {
        if rng.random_range(0..4) == 0 {
            if let Some(e) = elites.pop() {
                side.push(e);
                continue;
            }
        }
        side.push(clan.pop().expect("enough cards"));
    }
    let pool_size = if n - k >= 3 { 10 } else { 18 };
    let mut pool = Pool::default();
    for c in clan.iter().take(pool_size) {
        pool.clan |= 1u64 << c.id();
    }
    pool.jokers = rng.random_range(0..=2);
    pool.spy = !side.contains(&Card::SPY) && rng.random::<bool>();
    pool.shield = !side.contains(&Card::SHIELD) && rng.random::<bool>();
    (side, n, blind, pool)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// The fast best-completion search agrees with trying every completion.
    #[test]
    fn proof_matches_brute_force(seed in proptest::prelude::any::<u64>()) {
        let (side, n, blind, pool) = random_proof_case(seed);
        let fast = max_strength(&side, n, blind, &pool);
        let slow = super::formation::reference::max_completion(&side, n, blind, &pool);
        proptest::prop_assert_eq!(fast, slow, "side {:?} n {} blind {} pool {:?}", side, n, blind, pool);
    }

    /// Complete sides with elite troops: the fast strength is the best concrete one.
    #[test]
    fn strength_matches_brute_force(seed in proptest::prelude::any::<u64>()) {
        let (mut side, n, blind, _) = random_proof_case(seed);
        let extra: Vec<Card> = Card::all().filter(|c| c.is_clan() && !side.contains(c)).collect();
        let mut extra = extra.into_iter().rev();
        while side.len() < n {
            side.push(extra.next().expect("cards"));
        }
        proptest::prop_assert_eq!(strength(&side, blind), super::formation::reference::best(&side, blind));
    }
}

// ---------------------------------------------------------------- notation

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
    assert_eq!(super::View::from_notation(Variant::Classic, &vt), Ok(v));
}

fn problems(variant: Variant, text: &str) -> Vec<String> {
    match FullState::from_notation(variant, text) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems,
    }
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
    four.board.stones[2].sides[0] = cards("R1 R2 R3 R4");
    for k in cards("R1 R2 R3 R4") {
        take(&mut four, k);
    }
    let p = problems(Variant::Tactics, &four.to_notation());
    assert!(p.iter().any(|p| p.contains("4 cards on one side")), "{p:?}");
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
    assert!(super::View::from_notation(Variant::Tactics, &v).is_ok());
    let bad = v.replace("dc:", "dc:5");
    assert!(super::View::from_notation(Variant::Tactics, &bad).is_err());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Garbage never panics, in positions or moves.
    #[test]
    fn garbage_never_panics(text in "[ -~]{0,80}", cut in 0usize..400) {
        let _ = FullState::from_notation(Variant::Tactics, &text);
        let _ = super::View::from_notation(Variant::Expert, &text);
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

// ---------------------------------------------------------------- search

fn ismcts_limits(iterations: u64, seed: u64) -> crate::search::Limits {
    crate::search::Limits {
        nodes: Some(iterations),
        seed,
        ..Default::default()
    }
}

fn ismcts_move(view: &super::View, iterations: u64) -> Option<Move> {
    super::ismcts::ismcts_player(view, &ismcts_limits(iterations, 7))
}

/// A fixed-seed match is deterministic, so this statistical assertion is too:
/// ISMCTS with a small budget against the random player, 10 deals x both seats.
#[test]
fn ismcts_beats_random() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let seeds: Vec<u64> = (0..10).collect();
    let r = super::ismcts::play_match(
        Variant::Classic,
        &seeds,
        &mut |v| ismcts_move(v, 60),
        &mut |v| super::ismcts::random_player(v, &mut rng),
    );
    eprintln!("{r:?}");
    assert!(r.a_wins >= 17, "{r:?}");
}

#[test]
fn hidden_cards_do_not_change_answers() {
    for variant in [Variant::Classic, Variant::Tactics] {
        let a = FullState::start(variant, 5);
        // Swap a card of second's hand with the card under the clan deck:
        // first cannot tell the two states apart.
        let mut b = a.clone();
        let theirs = b.hands[1][0];
        let deep = b.decks[0][0];
        b.hands[1][0].card = deep.card;
        b.hands[1].sort();
        b.decks[0][0].card = theirs.card;
        let b = valid(&b);
        assert_ne!(a, b);
        let (va, vb) = (a.view(ONE), b.view(ONE));
        assert_eq!(va, vb);
        assert_eq!(all_moves(&a), all_moves(&b), "first's moves");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limits = ismcts_limits(40, 3);
        let ia = super::ismcts::search(&va, &limits, &stop, &mut |_| {});
        let ib = super::ismcts::search(&vb, &limits, &stop, &mut |_| {});
        assert_eq!(ia.lines, ib.lines);
        assert!(!ia.lines.is_empty() && ia.lines[0].visits > 0);
        let ea = super::ismcts::evaluate(&va, &limits, &stop);
        let eb = super::ismcts::evaluate(&vb, &limits, &stop);
        assert_eq!(ea, eb);
        assert!((0.0..=1.0).contains(&ea));
        // And the same seed gives the same answer again.
        let again = super::ismcts::search(&va, &limits, &stop, &mut |_| {});
        assert_eq!(again.lines, ia.lines);
        // With second to move, first's evaluation still ignores second's hand.
        let m = all_moves(&a)[0];
        let (a2, b2) = (
            a.clone().play(&m).expect("legal"),
            b.clone().play(&m).expect("legal"),
        );
        assert_eq!(a2.view(ONE), b2.view(ONE));
        let e2 = super::ismcts::evaluate(&a2.view(ONE), &limits, &stop);
        assert_eq!(e2, super::ismcts::evaluate(&b2.view(ONE), &limits, &stop));
        assert!(
            super::ismcts::search(&a2.view(ONE), &limits, &stop, &mut |_| {})
                .lines
                .is_empty()
        );
    }
}

#[test]
fn search_takes_a_winning_claim() {
    let mut s = empty(Variant::Classic);
    for (i, (a, b)) in [
        ("G1 G2 G3", "B1 B2 B4"),
        ("R1 R2 R3", "Y1 Y2 Y4"),
        ("P1 P2", "K1 K2 K4"),
    ]
    .iter()
    .enumerate()
    {
        side(&mut s, ONE, i, a);
        side(&mut s, TWO, i, b);
    }
    s.board.stones[0].claimed = Some(ONE);
    s.board.stones[1].claimed = Some(ONE);
    hand(&mut s, ONE, "P3 G9");
    hand(&mut s, TWO, "K9");
    let s = valid(&s);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let info = super::ismcts::search(&s.view(ONE), &ismcts_limits(50, 1), &stop, &mut |_| {});
    assert_eq!(info.score(), Some(crate::search::Score::Mate(1)));
    let best = info.best_move().copied().expect("a move");
    assert_eq!(s.move_to_text(&best), "p:P3@3 c:3 d:clan");
    // The greedy player finds it too.
    let g = super::ismcts::greedy_player(&s.view(ONE)).expect("a move");
    assert_eq!(s.move_to_text(&g), "p:P3@3 c:3 d:clan");
    let after = s.play(&best).expect("legal");
    assert_eq!(
        after.outcome().map(|o| o.result),
        Some(crate::GameResult::Win(ONE))
    );
}

#[test]
fn greedy_beats_random() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let seeds: Vec<u64> = (0..10).collect();
    let r = super::ismcts::play_match(
        Variant::Tactics,
        &seeds,
        &mut super::ismcts::greedy_player,
        &mut |v| super::ismcts::random_player(v, &mut rng),
    );
    eprintln!("{r:?}");
    assert!(r.a_wins >= 15, "{r:?}");
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
    assert!(t.contains(&"p:BANSHEE:P1@2 d:clan".to_string()));
    assert!(!t.iter().any(|m| m.starts_with("c:2 p:BANSHEE")), "{t:?}");
    // With the claim, no ruse has a target: the Banshee is discarded instead.
    assert!(t.contains(&"c:2 x:BANSHEE d:clan".to_string()), "{t:?}");
}

// ---------------------------------------------------------------- reference generator

/// Whether `a` is a legal card action for the side to move, read straight
/// from the rules (no claims, no draw).
fn reference_action_ok(b: &super::Board, hand: &[Card], deck_len: [usize; 2], a: &Action) -> bool {
    let me = b.to_move;
    let opp = me.opponent();
    let holds = |k: Card| hand.contains(&k);
    let tactic_ok =
        b.variant.tactics() && b.tactics_played[me.index()] <= b.tactics_played[opp.index()];
    let open = |i: u8| b.stones[i as usize].claimed.is_none();
    let room = |i: u8| {
        open(i) && b.stones[i as usize].sides[me.index()].len() < b.stones[i as usize].required()
    };
    let on = |p: Player, i: u8, k: Card| b.stones[i as usize].sides[p.index()].contains(&k);
    match *a {
        Action::Play { card, stone } => {
            holds(card)
                && (card.is_clan() || tactic_ok)
                && if card.is_combat_mode() {
                    open(stone)
                        && !(card == Card::MUD && b.stones[stone as usize].mud)
                        && !(card == Card::BLIND && b.stones[stone as usize].blind)
                } else {
                    card.is_troop()
                        && room(stone)
                        && !(card == Card::JOKER
                            && b.stones
                                .iter()
                                .any(|s| s.sides[me.index()].contains(&Card::JOKER)))
                }
        }
        Action::Recruiter { clan, tactic } => {
            let (c, t) = (clan as usize, tactic as usize);
            holds(Card::RECRUITER)
                && tactic_ok
                && c <= deck_len[0]
                && t <= deck_len[1]
                && (c + t == 3 || (c, t) == (deck_len[0], deck_len[1]) && c + t < 3)
        }
        Action::Strategist { card, from, to } => {
            holds(Card::STRATEGIST)
                && tactic_ok
                && open(from)
                && on(me, from, card)
                && to.is_none_or(|t| t != from && room(t))
        }
        Action::Banshee { card, stone } => {
            holds(Card::BANSHEE) && tactic_ok && open(stone) && on(opp, stone, card)
        }
        Action::Traitor { card, from, to } => {
            holds(Card::TRAITOR)
                && tactic_ok
                && card.is_clan()
                && open(from)
                && on(opp, from, card)
                && room(to)
        }
        _ => false,
    }
}

/// Every legal move by brute force over the whole action space.
fn reference_moves(s: &FullState) -> Vec<Move> {
    let b = s.board();
    if b.outcome().is_some() {
        return Vec::new();
    }
    let me = b.to_move;
    let hand = s.hand(me);
    let deck_len = [s.deck_len(Deck::Clan), s.deck_len(Deck::Tactic)];
    let all_cards: Vec<Card> = Card::all().collect();
    let stones: Vec<u8> = (0..9).collect();
    let mut space = Vec::new();
    if b.phase == Phase::Return {
        let n = hand.len().min(2);
        for i in 0..hand.len() {
            for j in 0..hand.len() {
                if n == 2 && i != j {
                    space.push(Action::Return {
                        first: Some(hand[i]),
                        second: Some(hand[j]),
                    });
                }
            }
            if n == 1 {
                space.push(Action::Return {
                    first: Some(hand[i]),
                    second: None,
                });
            }
        }
        if n == 0 {
            space.push(Action::Return {
                first: None,
                second: None,
            });
        }
    }
    let mut out: Vec<Move> = Vec::new();
    let subsets = |set: u16| (0..512u16).filter(move |x| x & !set == 0);
    let draw_ok = |d: Option<Deck>| match d {
        None => deck_len == [0, 0],
        Some(Deck::Tactic) => b.variant.tactics() && deck_len[1] > 0,
        Some(Deck::Clan) => deck_len[0] > 0,
    };
    let draws = [None, Some(Deck::Clan), Some(Deck::Tactic)];
    let pre_sets: Vec<u16> = if b.variant.expert() && b.phase == Phase::Play {
        subsets(b.claimable_set(me)).collect()
    } else {
        vec![0]
    };
    for pre in pre_sets {
        let claimed = super::moves::with_claims(b, pre);
        let mut acts: Vec<Action> = Vec::new();
        if b.phase == Phase::Play {
            for &k in &all_cards {
                for &i in &stones {
                    acts.push(Action::Play { card: k, stone: i });
                    acts.push(Action::Banshee { card: k, stone: i });
                    for &t in &stones {
                        acts.push(Action::Strategist {
                            card: k,
                            from: i,
                            to: Some(t),
                        });
                        acts.push(Action::Traitor {
                            card: k,
                            from: i,
                            to: t,
                        });
                    }
                    acts.push(Action::Strategist {
                        card: k,
                        from: i,
                        to: None,
                    });
                }
            }
            for c in 0..=3 {
                for t in 0..=3 {
                    acts.push(Action::Recruiter { clan: c, tactic: t });
                }
            }
            acts.retain(|a| reference_action_ok(&claimed, &hand, deck_len, a));
            if acts.is_empty() {
                acts = hand
                    .iter()
                    .filter(|k| k.is_tactic())
                    .map(|&card| Action::Discard { card })
                    .collect();
            }
            if acts.is_empty() {
                acts.push(Action::Pass);
            }
        } else {
            acts = space.clone();
        }
        for a in acts {
            let post: Vec<u16> = if b.variant.expert() || matches!(a, Action::Recruiter { .. }) {
                vec![0]
            } else {
                let mut after = b.clone();
                super::moves::apply_table(&mut after, &a);
                subsets(after.claimable_set(me)).collect()
            };
            let draw_here = !matches!(
                a,
                Action::Recruiter { .. } | Action::Return { .. } | Action::Pass
            );
            for &claims in &post {
                for &d in &draws {
                    if (draw_here && draw_ok(d)) || (!draw_here && d.is_none()) {
                        let m = super::moves::canonical(Move {
                            claims: claims | pre,
                            action: a,
                            draw: d,
                        });
                        if !out.contains(&m) {
                            out.push(m);
                        }
                    }
                }
            }
        }
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Along random games the move generator lists exactly the moves the
    /// brute-force reference finds.
    #[test]
    fn generator_matches_reference(seed in proptest::prelude::any::<u64>(), v in 0usize..3) {
        let variant = [Variant::Classic, Variant::Tactics, Variant::Expert][v];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = FullState::start(variant, seed);
        while s.outcome().is_none() {
            let mut fast = all_moves(&s);
            let mut slow = reference_moves(&s);
            let key = |m: &Move| format!("{m:?}");
            fast.sort_by_key(key);
            slow.sort_by_key(key);
            proptest::prop_assert_eq!(&fast, &slow, "in {}", s.to_notation());
            let m = *fast.choose(&mut rng).expect("a move");
            s = s.play_unchecked(&m);
        }
    }
}

#[test]
fn proof_bench_runs() {
    let b = super::formation::bench_proof(200, 1);
    assert_eq!(b.cases, 200);
    // Random hard cases: some are proven, some are not.
    assert!(b.proven > 0 && b.proven < 200, "{b:?}");
}

/// The examples of the module documentation.
const DOC_FULL: &str = "full turn:2 pass:0 tc:0,0 st::::-/:::-/:::-/:::-/:::-/R3,G6::G9:-/:::-/:::-/:::- h1:R6,R8,Y4,Y9,K3,K8 h2:B9,R5,Y6,Y8,P7,P9 dc:P3,Y2,B3,K7,Y3,K2,G4,R9,Y1,P1,B6,R2,R1,G1,K1,G3,P2,P5,B1,P8,R7,K9,K4,B8,Y5,P4,B2,R4,G2,G7,K6,B7,Y7,P6,B4,K5,B5,G5,G8 dt: x:";
const DOC_VIEW: &str = "view:2 turn:2 pass:0 tc:0,0 st::::-/:::-/:::-/:::-/:::-/R3,G6::G9:-/:::-/:::-/:::- h1:?,?,?,?,?,? h2:B9,R5,Y6,Y8,P7,P9 dc:39 dt:0 x:";

#[test]
fn documented_examples() {
    let mut s = FullState::start(Variant::Classic, 42);
    for text in ["p:R3@6", "p:G9@6 d:clan", "p:G6@6 d:clan"] {
        s = play(s, text);
    }
    assert_eq!(s.to_notation(), DOC_FULL);
    assert_eq!(s.view(TWO).to_notation(), DOC_VIEW);
    assert_eq!(
        FullState::from_notation(Variant::Classic, DOC_FULL),
        Ok(s.clone())
    );
    assert_eq!(
        super::View::from_notation(Variant::Classic, DOC_VIEW),
        Ok(s.view(TWO))
    );
    let d = s.diagram();
    assert!(d.contains("R3 G6   6  ..  G9"), "{d}");
    assert!(s.diagram_ansi(true).contains("\x1b[31mR3\x1b[0m"));
}

#[test]
fn moves_on_a_view() {
    let s = FullState::start(Variant::Tactics, 4);
    let v = s.view(ONE);
    let first = v.hand()[0];
    let m = v
        .parse_move(&format!("p:{first}@1 d:clan"))
        .expect("a move");
    let after = v.clone().play(&m).expect("the viewer's own move");
    // The drawn card is unknown to the view until the referee reveals it.
    assert_eq!(after.hand().len(), 6);
    assert_eq!(after.hand_unknown, 1);
    let text = after.to_notation();
    assert!(text.contains(",?"), "{text}");
    assert_eq!(
        super::View::from_notation(Variant::Tactics, &text),
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
    let bad = v2.parse_move("p:JOKER@1 d:clan").expect("well formed");
    let back = v2.clone().play(&bad).expect_err("no Joker in hand");
    assert_eq!(back.position, v2);
}
