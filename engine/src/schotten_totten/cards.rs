//! The cards: 54 clan cards (six colours, ranks 1-9) and the ten tactic cards.

use std::fmt;

/// Colour letters, in card-id order: green, blue, red, yellow, purple, pink.
pub const COLOUR_LETTERS: [char; 6] = ['G', 'B', 'R', 'Y', 'P', 'K'];

/// Number of distinct card kinds (54 clan + 9 tactic kinds; the Joker exists twice).
pub const KINDS: usize = 63;

/// Tactic card names, in card-id order from 54.
const TACTIC_NAMES: [&str; 9] = [
    "JOKER",
    "SPY",
    "SHIELD",
    "BLIND",
    "MUD",
    "RECRUITER",
    "STRATEGIST",
    "BANSHEE",
    "TRAITOR",
];

/// A card kind. Ids 0..54 are clan cards (`colour * 9 + rank - 1`), then the
/// tactic cards in the order JOKER, SPY, SHIELD, BLIND, MUD, RECRUITER,
/// STRATEGIST, BANSHEE, TRAITOR. Both Jokers are the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The Joker (two copies exist).
    pub const JOKER: Card = Card(54);
    /// The Spy (rank 7, any colour).
    pub const SPY: Card = Card(55);
    /// The Shield-bearer (rank 1-3, any colour).
    pub const SHIELD: Card = Card(56);
    /// Blind-Man's Bluff (combat mode: only the sum counts).
    pub const BLIND: Card = Card(57);
    /// Mud Fight (combat mode: four cards a side).
    pub const MUD: Card = Card(58);
    /// Recruiter (ruse: draw 3, return 2).
    pub const RECRUITER: Card = Card(59);
    /// Strategist (ruse: move or discard one of your own cards).
    pub const STRATEGIST: Card = Card(60);
    /// Banshee (ruse: discard one opponent card).
    pub const BANSHEE: Card = Card(61);
    /// Traitor (ruse: take one opponent clan card to your side).
    pub const TRAITOR: Card = Card(62);

    /// A clan card from colour index (0..6) and rank (1..=9); `None` if out of range.
    pub fn clan(colour: u8, rank: u8) -> Option<Card> {
        (colour < 6 && (1..=9).contains(&rank)).then(|| Card(colour * 9 + rank - 1))
    }

    /// The card with this id (0..63), if any.
    pub fn from_id(id: u8) -> Option<Card> {
        ((id as usize) < KINDS).then_some(Card(id))
    }

    /// The card's id (0..63).
    pub fn id(self) -> u8 {
        self.0
    }

    /// Whether this is one of the 54 clan cards.
    pub fn is_clan(self) -> bool {
        self.0 < 54
    }

    /// Whether this is a tactic card.
    pub fn is_tactic(self) -> bool {
        self.0 >= 54
    }

    /// Whether this is an elite troop (Joker, Spy, Shield-bearer).
    pub fn is_elite(self) -> bool {
        (54..=56).contains(&self.0)
    }

    /// Whether this card goes on a player's side of a stone (clan card or elite troop).
    pub fn is_troop(self) -> bool {
        self.0 <= 56
    }

    /// Whether this is a combat mode (Blind-Man's Bluff, Mud Fight).
    pub fn is_combat_mode(self) -> bool {
        self == Card::BLIND || self == Card::MUD
    }

    /// Colour index (0..6) of a clan card.
    pub fn colour(self) -> Option<u8> {
        self.is_clan().then_some(self.0 / 9)
    }

    /// Rank (1..=9) of a clan card.
    pub fn rank(self) -> Option<u8> {
        self.is_clan().then_some(self.0 % 9 + 1)
    }

    /// How many copies of this kind exist in the full game.
    pub fn copies(self) -> u8 {
        if self == Card::JOKER {
            2
        } else {
            1
        }
    }

    /// Every card kind, clan cards first.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..KINDS as u8).map(Card)
    }

    /// Reads a card name: `G5` (colour letter + rank) or a tactic name.
    pub fn parse(text: &str) -> Option<Card> {
        let t = text.trim();
        if let Some(i) = TACTIC_NAMES.iter().position(|n| n.eq_ignore_ascii_case(t)) {
            return Some(Card(54 + i as u8));
        }
        let mut chars = t.chars();
        let c = chars.next()?.to_ascii_uppercase();
        let r = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let colour = COLOUR_LETTERS.iter().position(|&l| l == c)? as u8;
        let rank = r.to_digit(10)? as u8;
        Card::clan(colour, rank)
    }

    /// The ANSI colour escape for drawing this card (tactic cards: bold white).
    pub fn ansi(self) -> &'static str {
        match self.colour() {
            Some(0) => "\x1b[32m",
            Some(1) => "\x1b[34m",
            Some(2) => "\x1b[31m",
            Some(3) => "\x1b[33m",
            Some(4) => "\x1b[35m",
            Some(_) => "\x1b[95m",
            None => "\x1b[1m",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.colour(), self.rank()) {
            (Some(c), Some(r)) => write!(f, "{}{}", COLOUR_LETTERS[c as usize], r),
            _ => f.write_str(TACTIC_NAMES[(self.0 - 54) as usize]),
        }
    }
}

impl super::inline::Blank for Card {
    const BLANK: Card = Card::JOKER;
}
