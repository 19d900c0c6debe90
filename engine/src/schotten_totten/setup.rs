//! Positions from structured fields: a referee's full state ([`Setup`]) or a
//! player's view ([`ViewSetup`]), both validated, every problem listed. The
//! text notation reads into these too, so there is one validation.

use super::board::{Board, Phase, Side, Stone};
use super::cards::{Card, KINDS};
use super::state::{board_cards, DeckCard, DeckCards, FullState, Hand, HandCard, View, MAX_DECK};
use super::validate::{check_counts, check_hand_size, validate_board};
use super::Variant;
use crate::{Player, SetupError};

/// Most cards a deck holds: the clan deck, then the tactic deck.
const DECK_CARDS: [u32; 2] = [54, 10];

/// A boundary stone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoneSetup {
    /// Each player's cards, in the order played (`sides[0]`: first's).
    pub sides: [Vec<Card>; 2],
    /// When both sides are complete: the side that completed first.
    pub completed_first: Option<Player>,
    /// Blind-Man's Bluff lies on the stone.
    pub blind: bool,
    /// Mud Fight lies on the stone.
    pub mud: bool,
    /// Who claimed the stone.
    pub claimed: Option<Player>,
}

/// The public part of a position: the table and the counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSetup {
    /// The player whose turn it is.
    pub side_to_move: Player,
    /// That player played Recruiter and now returns two cards.
    pub recruiter_return_pending: bool,
    /// Consecutive turns with no card played and no claim (0..=2).
    pub passes: u32,
    /// Tactic cards each player has played (cumulative).
    pub tactics_played: [u32; 2],
    /// The nine stones, left to right.
    pub stones: Vec<StoneSetup>,
    /// The discard pile, oldest first.
    pub discard: Vec<Card>,
}

/// A referee's full state: the table, both hands, both decks in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The public part.
    pub table: TableSetup,
    /// Each player's hand (`hands[0]`: first's), any order.
    pub hands: [Vec<HandCard>; 2],
    /// The clan deck and the tactic deck, bottom first (the last card is drawn next).
    pub decks: [Vec<DeckCard>; 2],
}

/// What a view shows of a hand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewHand {
    /// The cards the viewer knows to be there (its own, or the opponent's it knows).
    pub known: Vec<Card>,
    /// How many more cards the hand holds.
    pub unknown: u32,
}

/// What a view shows of a deck.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewDeck {
    /// Cards in the deck.
    pub size: u32,
    /// Cards the viewer knows the place of: (place from the bottom, card).
    pub known: Vec<(u32, Card)>,
}

/// A player's view: the table, what the viewer knows of both hands and decks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewSetup {
    /// Whose view.
    pub viewer: Player,
    /// The public part.
    pub table: TableSetup,
    /// Both hands as the viewer sees them (`hands[0]`: first's).
    pub hands: [ViewHand; 2],
    /// The clan deck and the tactic deck as the viewer sees them.
    pub decks: [ViewDeck; 2],
}

/// Why a full state's deck, listed card by card with places and a size (the
/// structured form), is not a whole deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckListingError {
    /// The card listed `index`-th (from 0) gives another place: a full
    /// state lists every card, bottom first.
    Place {
        /// Where it is listed.
        index: usize,
        /// The place it gives.
        given: u32,
    },
    /// The size is not the number of cards listed.
    Size {
        /// The size given.
        given: u32,
        /// The cards listed.
        listed: usize,
    },
}

impl std::fmt::Display for DeckListingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Place { index, given } => write!(
                f,
                "{given} given; a full state lists the whole deck bottom first, so this card is at {index}"
            ),
            Self::Size { given, listed } => write!(f, "{given} given but {listed} cards listed"),
        }
    }
}

/// A full state's deck from its listing: each card with its place from the
/// bottom (every card, in order), and the deck's size.
pub fn listed_deck(
    size: u32,
    cards: impl IntoIterator<Item = (u32, DeckCard)>,
) -> Result<Vec<DeckCard>, DeckListingError> {
    let mut deck = Vec::new();
    for (index, (given, card)) in cards.into_iter().enumerate() {
        if given as usize != index {
            return Err(DeckListingError::Place { index, given });
        }
        deck.push(card);
    }
    if size as usize != deck.len() {
        return Err(DeckListingError::Size {
            given: size,
            listed: deck.len(),
        });
    }
    Ok(deck)
}

fn deck_name(d: usize) -> &'static str {
    ["clan deck", "tactic deck"][d]
}

/// Builds the table, listing what is wrong with its fields.
fn board(variant: Variant, t: &TableSetup, problems: &mut Vec<String>) -> Board {
    let mut b = Board::new(variant);
    b.to_move = t.side_to_move;
    b.phase = if t.recruiter_return_pending {
        Phase::Return
    } else {
        Phase::Play
    };
    match u8::try_from(t.passes) {
        Ok(n) if n <= 2 => b.passes = n,
        _ => problems.push(format!("pass: {} is not 0, 1 or 2", t.passes)),
    }
    match t.tactics_played.map(u8::try_from) {
        [Ok(a), Ok(c)] if a <= 10 && c <= 10 => b.tactics_played = [a, c],
        _ => problems.push(format!(
            "tactic cards played: {},{} are not two counts 0..10",
            t.tactics_played[0], t.tactics_played[1]
        )),
    }
    if t.stones.len() != 9 {
        problems.push(format!("stones: {} given, 9 expected", t.stones.len()));
    }
    for (i, (stone, given)) in b.stones.iter_mut().zip(&t.stones).enumerate() {
        // A side longer than a stone holds keeps what it may hold (the
        // rest is reported here, as the board's validation words it).
        let required = Stone {
            mud: given.mud,
            ..Stone::default()
        }
        .required();
        let sides = [0, 1].map(|p| {
            let cards = &given.sides[p];
            if cards.len() > required {
                problems.push(format!(
                    "stone {}: {} cards on one side, at most {required}",
                    i + 1,
                    cards.len()
                ));
            }
            Side::from_slice(&cards[..cards.len().min(required)]).unwrap_or_default()
        });
        *stone = Stone {
            sides,
            blind: given.blind,
            mud: given.mud,
            claimed: given.claimed,
            first: given.completed_first,
        };
    }
    b.discard = t.discard.clone();
    b
}

/// The fields of a table.
fn table_setup(b: &Board) -> TableSetup {
    TableSetup {
        side_to_move: b.to_move,
        recruiter_return_pending: b.phase == Phase::Return,
        passes: b.passes.into(),
        tactics_played: b.tactics_played.map(u32::from),
        stones: b
            .stones
            .iter()
            .map(|st| StoneSetup {
                sides: st.sides.map(|s| s.to_vec()),
                completed_first: st.first,
                blind: st.blind,
                mud: st.mud,
                claimed: st.claimed,
            })
            .collect(),
        discard: b.discard.clone(),
    }
}

impl FullState {
    /// Builds a referee's full state from its fields, validating them: nine
    /// stones, counters in range, every card exactly once, sides, claims and
    /// hands possible under the rules.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<FullState, SetupError> {
        let mut problems = Vec::new();
        let s = full_state(variant, setup, &mut problems);
        SetupError::check(problems).map(|_| s)
    }

    /// The fields of this state (`from_setup` reads them back).
    pub fn setup(&self) -> Setup {
        Setup {
            table: table_setup(&self.board),
            hands: self.hands.each_ref().map(|h| h.to_vec()),
            decks: self.decks.each_ref().map(|d| d.to_vec()),
        }
    }
}

/// The full state of `setup`, its problems added to `problems`.
pub(crate) fn full_state(variant: Variant, setup: &Setup, problems: &mut Vec<String>) -> FullState {
    let board = board(variant, &setup.table, problems);
    for (d, deck) in setup.decks.iter().enumerate() {
        for dc in deck {
            if (d == 0) != dc.card.is_clan() {
                problems.push(format!(
                    "{}: {} does not belong in this deck",
                    deck_name(d),
                    dc.card
                ));
            }
        }
    }
    let hands = setup.hands.each_ref().map(|h| {
        let mut h = Hand::truncated(h).0;
        h.sort();
        h
    });
    for (d, deck) in setup.decks.iter().enumerate() {
        if deck.len() > MAX_DECK {
            problems.push(format!(
                "{}: {} cards, at most {MAX_DECK}",
                deck_name(d),
                deck.len()
            ));
        }
    }
    let s = FullState {
        board,
        hands,
        decks: setup.decks.each_ref().map(|d| DeckCards::truncated(d).0),
    };
    check_counts(variant, &s.card_counts(), true, problems);
    validate_board(&s.board, problems);
    for p in [Player::One, Player::Two] {
        // The given hand's size: the state holds at most MAX_HAND cards.
        check_hand_size(&s.board, p, setup.hands[p.index()].len(), problems);
    }
    s
}

impl View {
    /// Builds a player's view from its fields, validating them: the table as
    /// for a full state, no card more often than it exists, deck sizes and
    /// known places possible, and the unseen cards exactly filling the
    /// unknown places of hands and decks.
    pub fn from_setup(variant: Variant, setup: &ViewSetup) -> Result<View, SetupError> {
        let mut problems = Vec::new();
        let v = view(variant, setup, &mut problems);
        SetupError::check(problems).map(|_| v)
    }

    /// The fields of this view (`from_setup` reads them back).
    pub fn setup(&self) -> ViewSetup {
        let own = ViewHand {
            known: self.hand.clone(),
            unknown: self.hand_unknown.into(),
        };
        let opp = ViewHand {
            known: self.opp_known.clone(),
            unknown: u32::from(self.opp_count).saturating_sub(self.opp_known.len() as u32),
        };
        let hands = match self.viewer {
            Player::One => [own, opp],
            Player::Two => [opp, own],
        };
        ViewSetup {
            viewer: self.viewer,
            table: table_setup(&self.board),
            hands,
            decks: [0, 1].map(|d| ViewDeck {
                size: self.deck_len[d].into(),
                known: self.deck_known[d]
                    .iter()
                    .map(|&(pos, c)| (u32::from(pos), c))
                    .collect(),
            }),
        }
    }
}

/// The view of `setup`, its problems added to `problems`.
pub(crate) fn view(variant: Variant, setup: &ViewSetup, problems: &mut Vec<String>) -> View {
    let board = board(variant, &setup.table, problems);
    let viewer = setup.viewer;
    let mut deck_len = [0u8; 2];
    let mut deck_known: [Vec<(u8, Card)>; 2] = [Vec::new(), Vec::new()];
    for (d, deck) in setup.decks.iter().enumerate() {
        let name = deck_name(d);
        if deck.size > DECK_CARDS[d] {
            problems.push(format!(
                "{name}: {} cards, at most {}",
                deck.size, DECK_CARDS[d]
            ));
        } else {
            deck_len[d] = deck.size as u8;
        }
        for &(pos, c) in &deck.known {
            if pos >= deck.size {
                problems.push(format!("{name}: position {pos} beyond the deck"));
                continue;
            }
            if (d == 0) != c.is_clan() {
                problems.push(format!("{name}: {c} does not belong in this deck"));
            }
            let pos = pos.min(255) as u8;
            if deck_known[d].iter().any(|e| e.0 == pos) {
                problems.push(format!("{name}: position {pos} given twice"));
            }
            deck_known[d].push((pos, c));
        }
        deck_known[d].sort();
    }
    let opp = viewer.opponent();
    let own = &setup.hands[viewer.index()];
    let theirs = &setup.hands[opp.index()];
    let mut hand = own.known.clone();
    hand.sort();
    let mut opp_known = theirs.known.clone();
    opp_known.sort();
    let own_len = own.known.len() + own.unknown as usize;
    let opp_len = theirs.known.len() + theirs.unknown as usize;
    let v = View {
        board,
        viewer,
        hand,
        hand_unknown: own.unknown.min(255) as u8,
        opp_count: opp_len.min(255) as u8,
        opp_known,
        deck_len,
        deck_known,
    };
    let mut counts = [0u8; KINDS];
    let mut count = |c: Card| {
        let n = &mut counts[c.id() as usize];
        *n = n.saturating_add(1);
    };
    for &c in v.hand.iter().chain(&v.opp_known) {
        count(c);
    }
    for d in &v.deck_known {
        for &(_, c) in d {
            count(c);
        }
    }
    board_cards(&v.board, &mut count);
    check_counts(variant, &counts, false, problems);
    validate_board(&v.board, problems);
    check_hand_size(&v.board, viewer, own_len, problems);
    check_hand_size(&v.board, opp, opp_len, problems);
    if problems.is_empty() {
        let unseen = v.unseen();
        let clan = unseen.iter().filter(|c| c.is_clan()).count();
        let slots = [0, 1].map(|d| v.deck_len[d] as usize - v.deck_known[d].len());
        let hidden_hands = v.hand_unknown as usize + v.opp_count as usize - v.opp_known.len();
        if clan < slots[0] || unseen.len() - clan < slots[1] {
            problems.push("the decks are larger than the unseen cards allow".into());
        }
        if unseen.len() != slots[0] + slots[1] + hidden_hands {
            problems.push(format!(
                "{} cards are unaccounted for, but the decks and hands hide {}",
                unseen.len(),
                slots[0] + slots[1] + hidden_hands
            ));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listed deck is every card at its place from the bottom, the size
    /// the count; the first misplaced card or a wrong size is named.
    #[test]
    fn listed_decks_are_whole_and_in_order() {
        let card = |i: u8| DeckCard::new(Card::clan(0, i + 1).unwrap(), [false, i == 1]);
        let cards = [(0, card(0)), (1, card(1)), (2, card(2))];
        assert_eq!(listed_deck(3, cards), Ok(vec![card(0), card(1), card(2)]));
        assert_eq!(
            listed_deck(3, [(0, card(0)), (2, card(1)), (1, card(2))]),
            Err(DeckListingError::Place { index: 1, given: 2 })
        );
        assert_eq!(
            listed_deck(4, cards),
            Err(DeckListingError::Size {
                given: 4,
                listed: 3
            })
        );
        assert_eq!(listed_deck(0, []), Ok(vec![]));
    }
}
