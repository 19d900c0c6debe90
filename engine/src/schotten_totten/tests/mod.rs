//! Tests of the Schotten Totten rules, notation and search, with shared helpers.

mod games;
mod notation;
mod position;
mod proofs;
mod reference;
mod rules;
mod search;
mod svg;
mod tactics;

use rand::seq::IndexedRandom;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::board::{Deck, Phase, Side};
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

/// Puts each pair (player one's cards, player two's) on stones 0, 1, ... in order.
fn sides(s: &mut FullState, pairs: &[(&str, &str)]) {
    for (i, (one, two)) in pairs.iter().enumerate() {
        side(s, ONE, i, one);
        side(s, TWO, i, two);
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
