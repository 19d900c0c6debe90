//! The referee's full state and a player's view.

use std::ops::ControlFlow;

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::board::{Board, Deck};
use super::cards::{Card, KINDS};
use super::inline::{Blank, Inline};
use super::moves::{self, Hidden, Move};
use super::Variant;
use crate::{MoveError, Outcome, PlayError, Player};

/// A card in a hand, and whether the hand's opponent knows it is there
/// (it was drawn from a deck position the opponent knew).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HandCard {
    /// The card.
    pub card: Card,
    /// The opponent of the holder knows this card.
    pub known_to_opponent: bool,
}

/// A card in a deck and which players know it lies there (bit 0: `One`, bit 1: `Two`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeckCard {
    /// The card.
    pub card: Card,
    /// Bit `p.index()` set when player `p` knows it (returned it with Recruiter).
    pub known: u8,
}

impl DeckCard {
    /// `card`, known to the players of `known_to` (`[One, Two]`).
    pub fn new(card: Card, known_to: [bool; 2]) -> Self {
        DeckCard {
            card,
            known: u8::from(known_to[0]) | u8::from(known_to[1]) << 1,
        }
    }

    /// Whether `player` knows this card lies there.
    pub fn known_to(&self, player: Player) -> bool {
        self.known & (1 << player.index()) != 0
    }
}

impl Blank for HandCard {
    const BLANK: HandCard = HandCard {
        card: Card::JOKER,
        known_to_opponent: false,
    };
}

impl Blank for DeckCard {
    const BLANK: DeckCard = DeckCard {
        card: Card::JOKER,
        known: 0,
    };
}

/// The most cards a hand holds: seven in the tactic variants, two more
/// while returning after Recruiter.
pub const MAX_HAND: usize = 9;

/// The most cards a deck holds: the 54 clan cards.
pub const MAX_DECK: usize = 54;

/// A hand, held inline.
pub type Hand = Inline<HandCard, MAX_HAND>;

/// A deck, held inline.
pub type DeckCards = Inline<DeckCard, MAX_DECK>;

/// The referee's state: the table plus both hands and both decks in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FullState {
    /// The public part.
    pub(crate) board: Board,
    /// Each player's hand, sorted.
    pub(crate) hands: [Hand; 2],
    /// Clan deck and tactic deck, bottom first (the top is the last card).
    pub(crate) decks: [DeckCards; 2],
}

/// What one player knows: the table, their own hand, the opponent's hand size
/// and known cards, deck sizes and the deck cards they know the place of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The public part.
    pub(crate) board: Board,
    /// Whose view this is.
    pub(crate) viewer: Player,
    /// The viewer's known hand cards, sorted.
    pub(crate) hand: Vec<Card>,
    /// Cards the viewer drew in a move applied to this view (not yet revealed).
    pub(crate) hand_unknown: u8,
    /// The opponent's cards the viewer knows, sorted.
    pub(crate) opp_known: Vec<Card>,
    /// The opponent's hand size.
    pub(crate) opp_count: u8,
    /// Deck sizes (clan, tactic).
    pub(crate) deck_len: [u8; 2],
    /// Known deck cards: (position from the bottom, card), sorted by position.
    pub(crate) deck_known: [Vec<(u8, Card)>; 2],
}

/// Where `x` goes in the sorted `v`: after its equals.
fn sorted_place<T: Ord>(v: &[T], x: &T) -> usize {
    v.partition_point(|y| y <= x)
}

/// The referee's hidden cards, both hands and both decks, borrowed apart
/// from the board so that a move plays in place.
struct Concealed<'a> {
    hands: &'a mut [Hand; 2],
    decks: &'a mut [DeckCards; 2],
}

impl Hidden for Concealed<'_> {
    fn take(&mut self, p: Player, card: Card) {
        let hand = &mut self.hands[p.index()];
        if let Some(i) = hand.iter().position(|h| h.card == card) {
            hand.remove(i);
        }
    }

    fn draw(&mut self, p: Player, deck: Deck) {
        if let Some(dc) = self.decks[deck.index()].pop() {
            let known_to_opponent = dc.known & (1 << p.opponent().index()) != 0;
            let hand = &mut self.hands[p.index()];
            let card = HandCard {
                card: dc.card,
                known_to_opponent,
            };
            hand.insert(sorted_place(hand, &card), card);
        }
    }

    fn put_under(&mut self, p: Player, card: Card) {
        self.decks[Deck::of(card).index()].insert(
            0,
            DeckCard {
                card,
                known: 1 << p.index(),
            },
        );
    }

    fn deck_len(&self, deck: Deck) -> usize {
        self.decks[deck.index()].len()
    }
}

impl Hidden for View {
    fn take(&mut self, p: Player, card: Card) {
        if p == self.viewer {
            if let Some(i) = self.hand.iter().position(|&c| c == card) {
                self.hand.remove(i);
            }
        } else {
            self.opp_count = self.opp_count.saturating_sub(1);
            if let Some(i) = self.opp_known.iter().position(|&c| c == card) {
                self.opp_known.remove(i);
            }
        }
    }

    fn draw(&mut self, p: Player, deck: Deck) {
        let d = deck.index();
        if self.deck_len[d] == 0 {
            return;
        }
        self.deck_len[d] -= 1;
        let top = self.deck_len[d];
        let known = self.deck_known[d]
            .iter()
            .position(|&(pos, _)| pos == top)
            .map(|i| self.deck_known[d].remove(i).1);
        match (p == self.viewer, known) {
            (true, Some(c)) => self.hand.insert(sorted_place(&self.hand, &c), c),
            (true, None) => self.hand_unknown += 1,
            (false, Some(c)) => {
                self.opp_count += 1;
                self.opp_known.insert(sorted_place(&self.opp_known, &c), c);
            }
            (false, None) => self.opp_count += 1,
        }
    }

    fn put_under(&mut self, p: Player, card: Card) {
        let d = Deck::of(card).index();
        self.deck_len[d] += 1;
        for e in &mut self.deck_known[d] {
            e.0 += 1;
        }
        if p == self.viewer {
            self.deck_known[d].insert(0, (0, card));
        }
    }

    fn deck_len(&self, deck: Deck) -> usize {
        self.deck_len[deck.index()] as usize
    }
}

impl FullState {
    /// The start of a game: decks shuffled from `seed` (ChaCha8), six clan
    /// cards (seven in the tactic variants) dealt to `One` then to `Two`.
    pub fn new_game(variant: Variant, seed: u64) -> FullState {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut clan: Vec<Card> = Card::all().filter(|c| c.is_clan()).collect();
        clan.shuffle(&mut rng);
        let mut tactic: Vec<Card> = Vec::new();
        if variant.tactics() {
            for c in Card::all().filter(|c| c.is_tactic()) {
                for _ in 0..c.copies() {
                    tactic.push(c);
                }
            }
            tactic.shuffle(&mut rng);
        }
        let deck = |cards: Vec<Card>| {
            let cards: Vec<DeckCard> = cards
                .into_iter()
                .map(|card| DeckCard { card, known: 0 })
                .collect();
            DeckCards::truncated(&cards).0
        };
        let mut s = FullState {
            board: Board::new(variant),
            hands: [Hand::new(), Hand::new()],
            decks: [deck(clan), deck(tactic)],
        };
        let mut hidden = Concealed {
            hands: &mut s.hands,
            decks: &mut s.decks,
        };
        for p in [Player::One, Player::Two] {
            for _ in 0..variant.hand_size() {
                hidden.draw(p, Deck::Clan);
            }
        }
        s
    }

    /// The public part.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A player's hand (sorted).
    pub fn hand(&self, p: Player) -> Vec<Card> {
        self.held(p).to_vec()
    }

    /// A player's hand (sorted), held inline.
    pub(crate) fn held(&self, p: Player) -> Inline<Card, MAX_HAND> {
        let mut cards = Inline::new();
        for h in &self.hands[p.index()] {
            cards.push(h.card);
        }
        cards
    }

    /// Cards left in a deck.
    pub fn deck_len(&self, deck: Deck) -> usize {
        self.decks[deck.index()].len()
    }

    /// A player's hand (sorted), with what the opponent knows of it.
    pub fn hand_cards(&self, p: Player) -> &[HandCard] {
        &self.hands[p.index()]
    }

    /// A deck's cards, bottom first (the last one is drawn next).
    pub fn deck(&self, deck: Deck) -> &[DeckCard] {
        &self.decks[deck.index()]
    }

    /// What `player` knows of this state.
    pub fn view(&self, player: Player) -> View {
        let opp = player.opponent();
        let bit = 1u8 << player.index();
        View {
            board: self.board.clone(),
            viewer: player,
            hand: self.hand(player),
            hand_unknown: 0,
            opp_known: self.hands[opp.index()]
                .iter()
                .filter(|h| h.known_to_opponent)
                .map(|h| h.card)
                .collect(),
            opp_count: self.hands[opp.index()].len() as u8,
            deck_len: [self.decks[0].len() as u8, self.decks[1].len() as u8],
            deck_known: [0, 1].map(|d| {
                self.decks[d]
                    .iter()
                    .enumerate()
                    .filter(|(_, dc)| dc.known & bit != 0)
                    .map(|(i, dc)| (i as u8, dc.card))
                    .collect()
            }),
        }
    }

    /// How many of each card kind are in hands, decks, on the table and discarded.
    pub fn card_counts(&self) -> [u8; KINDS] {
        let mut n = [0u8; KINDS];
        let mut add = |c: Card| n[c.id() as usize] += 1;
        for h in self.hands.iter().flatten() {
            add(h.card);
        }
        for d in self.decks.iter().flatten() {
            add(d.card);
        }
        board_cards(&self.board, &mut add);
        n
    }

    pub(crate) fn for_each(&self, f: &mut dyn FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
        let hand = self.held(self.board.to_move);
        moves::for_each_move(&self.board, &hand, self.deck_lens(), f)
    }

    /// The sizes of the clan and the tactic deck.
    pub(crate) fn deck_lens(&self) -> [usize; 2] {
        [self.decks[0].len(), self.decks[1].len()]
    }

    pub(crate) fn apply(&self, mv: &Move) -> FullState {
        let mut s = self.clone();
        s.apply_mut(mv);
        s
    }

    /// Plays a legal move in place.
    pub(crate) fn apply_mut(&mut self, mv: &Move) {
        let mut hidden = Concealed {
            hands: &mut self.hands,
            decks: &mut self.decks,
        };
        moves::apply(&mut self.board, &mut hidden, mv);
    }
}

/// Calls `add` with every card on the table (sides and combat modes) and in the discard.
pub(crate) fn board_cards(board: &Board, add: &mut dyn FnMut(Card)) {
    for st in &board.stones {
        for &c in st.sides.iter().flatten() {
            add(c);
        }
        if st.blind {
            add(Card::BLIND);
        }
        if st.mud {
            add(Card::MUD);
        }
    }
    for &c in &board.discard {
        add(c);
    }
}

impl View {
    /// The public part.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose view this is.
    pub fn viewer(&self) -> Player {
        self.viewer
    }

    /// The viewer's known hand cards.
    pub fn hand(&self) -> &[Card] {
        &self.hand
    }

    /// Cards the viewer drew in moves applied to this view, not yet revealed.
    pub fn hand_unknown(&self) -> usize {
        self.hand_unknown as usize
    }

    /// The opponent's hand cards the viewer knows (sorted).
    pub fn opponent_known(&self) -> &[Card] {
        &self.opp_known
    }

    /// The opponent's hand size.
    pub fn opponent_hand_size(&self) -> usize {
        self.opp_count as usize
    }

    /// Cards left in a deck.
    pub fn deck_len(&self, deck: Deck) -> usize {
        self.deck_len[deck.index()] as usize
    }

    /// The deck cards the viewer knows: (place from the bottom, card), by place.
    pub fn deck_known(&self, deck: Deck) -> &[(u8, Card)] {
        &self.deck_known[deck.index()]
    }

    /// The end of the game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    /// The legal moves of the viewer (nothing when the opponent is to move).
    /// After the viewer's own Recruiter applied to a view, only returns of
    /// known cards are listed: ask the referee for the new view.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.board.to_move == self.viewer {
            let _ = moves::for_each_move(
                &self.board,
                &self.hand,
                [self.deck_len[0] as usize, self.deck_len[1] as usize],
                &mut |m| {
                    out.push(m);
                    ControlFlow::Continue(())
                },
            );
        }
        out
    }

    /// Plays one of the viewer's legal moves; a drawn card whose place was
    /// not known becomes an unknown card in hand (`?` in notation).
    #[allow(clippy::result_large_err)] // the same shape as `Game::play`
    pub fn play(self, mv: &Move) -> Result<View, PlayError<View>> {
        if let Some(o) = self.outcome() {
            return Err(PlayError {
                error: MoveError::GameOver(o),
                position: self,
            });
        }
        let mv = moves::canonical(*mv);
        if !self.legal_moves().contains(&mv) {
            let text = super::move_notation::move_text(&self.board, &mv);
            return Err(PlayError {
                error: MoveError::Illegal(format!("{text} is not a legal move of the viewer here")),
                position: self,
            });
        }
        let mut v = self;
        let variant = v.board.variant;
        let mut board = std::mem::replace(&mut v.board, Board::new(variant));
        moves::apply(&mut board, &mut v, &mv);
        v.board = board;
        Ok(v)
    }

    /// The cards the viewer cannot place: not in its known hand, not on the
    /// table, not discarded, not known in the opponent's hand or in a deck.
    pub fn unseen(&self) -> Vec<Card> {
        let mut n = [0u8; KINDS];
        for c in Card::all() {
            if self.board.variant.tactics() || c.is_clan() {
                n[c.id() as usize] = c.copies();
            }
        }
        let mut sub = |c: Card| n[c.id() as usize] = n[c.id() as usize].saturating_sub(1);
        for &c in self.hand.iter().chain(&self.opp_known) {
            sub(c);
        }
        for d in &self.deck_known {
            for &(_, c) in d {
                sub(c);
            }
        }
        board_cards(&self.board, &mut sub);
        let mut out = Vec::new();
        for c in Card::all() {
            for _ in 0..n[c.id() as usize] {
                out.push(c);
            }
        }
        out
    }

    /// A full state consistent with this view, the unknown cards dealt at
    /// random: each deck gets unseen cards of its own kind around its known
    /// cards, the hands get the rest. Uses only the view.
    pub fn determinize(&self, rng: &mut impl Rng) -> FullState {
        let unseen = self.unseen();
        let mut pools: [Vec<Card>; 2] = [
            unseen.iter().copied().filter(|c| c.is_clan()).collect(),
            unseen.iter().copied().filter(|c| c.is_tactic()).collect(),
        ];
        let mut decks: [Vec<DeckCard>; 2] = [Vec::new(), Vec::new()];
        let vbit = 1u8 << self.viewer.index();
        for d in 0..2 {
            pools[d].shuffle(rng);
            for pos in 0..self.deck_len[d] {
                let known = self.deck_known[d].iter().find(|e| e.0 == pos);
                let dc = match known {
                    Some(&(_, card)) => DeckCard { card, known: vbit },
                    None => DeckCard {
                        card: pools[d].pop().unwrap_or(Card::JOKER),
                        known: 0,
                    },
                };
                decks[d].push(dc);
            }
        }
        let mut rest: Vec<Card> = pools.concat();
        rest.shuffle(rng);
        let mut own: Vec<HandCard> = self
            .hand
            .iter()
            .map(|&card| HandCard {
                card,
                known_to_opponent: false,
            })
            .collect();
        for _ in 0..self.hand_unknown {
            if let Some(card) = rest.pop() {
                own.push(HandCard {
                    card,
                    known_to_opponent: false,
                });
            }
        }
        let mut opp: Vec<HandCard> = self
            .opp_known
            .iter()
            .map(|&card| HandCard {
                card,
                known_to_opponent: true,
            })
            .collect();
        while opp.len() < self.opp_count as usize {
            match rest.pop() {
                Some(card) => opp.push(HandCard {
                    card,
                    known_to_opponent: false,
                }),
                None => break,
            }
        }
        own.sort();
        opp.sort();
        let mut hands = [Hand::new(), Hand::new()];
        hands[self.viewer.index()] = Hand::truncated(&own).0;
        hands[self.viewer.opponent().index()] = Hand::truncated(&opp).0;
        FullState {
            board: self.board.clone(),
            hands,
            decks: decks.map(|d| DeckCards::truncated(&d).0),
        }
    }
}
