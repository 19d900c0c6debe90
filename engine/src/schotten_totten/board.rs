//! The public part of a game: the nine stones, the discard pile, the counters
//! and whose turn it is. Both the referee's full state and a player's view hold one.

use super::cards::Card;
use super::formation::{proof, strength, Bounds, Pool, Strength};
use super::inline::Inline;
use super::Variant;
use crate::{Outcome, Player};

/// One of the two decks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Deck {
    /// The 54 clan cards.
    Clan,
    /// The 10 tactic cards.
    Tactic,
}

impl Deck {
    /// 0 for the clan deck, 1 for the tactic deck.
    pub fn index(self) -> usize {
        match self {
            Deck::Clan => 0,
            Deck::Tactic => 1,
        }
    }

    /// The deck a card belongs under.
    pub fn of(card: Card) -> Deck {
        if card.is_clan() {
            Deck::Clan
        } else {
            Deck::Tactic
        }
    }

    /// The other deck.
    pub fn other(self) -> Deck {
        match self {
            Deck::Clan => Deck::Tactic,
            Deck::Tactic => Deck::Clan,
        }
    }
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The side to move plays a card (or discards or passes), claims and draws.
    Play,
    /// The side to move played Recruiter and now returns two cards from hand.
    Return,
}

/// The most cards a side of a stone holds (four under Mud Fight).
pub const MAX_SIDE: usize = 4;

/// One side of a stone: at most [`MAX_SIDE`] cards in the order played,
/// held inline.
pub type Side = Inline<Card, MAX_SIDE>;

/// Where a player's claim on a stone stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// Claimed already, the side incomplete, or lost to a complete side.
    Closed,
    /// The stone may be claimed now.
    Proved,
    /// The side (of this strength) is complete and the opponent's is not,
    /// but the unseen cards could still beat it: fewer unseen cards may prove it.
    Unproved(Strength),
}

/// A boundary stone and the cards on both sides of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stone {
    /// Each player's cards (clan cards and elite troops), in the order played.
    pub sides: [Side; 2],
    /// Blind-Man's Bluff lies on the stone.
    pub blind: bool,
    /// Mud Fight lies on the stone.
    pub mud: bool,
    /// Who claimed the stone.
    pub claimed: Option<Player>,
    /// When both sides are complete: the side that completed first (else `None`).
    pub first: Option<Player>,
}

impl Stone {
    /// Cards a side needs: 3, or 4 under Mud Fight.
    pub fn required(&self) -> usize {
        if self.mud {
            4
        } else {
            3
        }
    }

    /// Whether `p`'s side holds its required count.
    pub fn complete(&self, p: Player) -> bool {
        self.sides[p.index()].len() >= self.required()
    }

    /// Whether `p`'s next card completes its side (one card short).
    pub(crate) fn one_short(&self, p: Player) -> bool {
        self.sides[p.index()].len() + 1 == self.required()
    }

    /// Whether `p` may add a card here (unclaimed, side not full).
    pub fn has_room(&self, p: Player) -> bool {
        self.claimed.is_none() && self.sides[p.index()].len() < self.required()
    }

    fn completeness(&self) -> [bool; 2] {
        [self.complete(Player::One), self.complete(Player::Two)]
    }

    /// Keeps `first` right after a change, given completeness before it.
    fn settle(&mut self, before: [bool; 2]) {
        let now = self.completeness();
        if now[0] && now[1] {
            if !(before[0] && before[1]) {
                self.first = Some(if before[1] { Player::Two } else { Player::One });
            }
        } else {
            self.first = None;
        }
    }

    /// Adds a card to `p`'s side.
    pub(crate) fn add(&mut self, p: Player, card: Card) {
        let before = self.completeness();
        self.sides[p.index()].push(card);
        self.settle(before);
    }

    /// Removes a card from `p`'s side; whether it was there.
    pub(crate) fn remove(&mut self, p: Player, card: Card) -> bool {
        let before = self.completeness();
        let side = &mut self.sides[p.index()];
        let Some(i) = side.iter().position(|&c| c == card) else {
            return false;
        };
        side.remove(i);
        self.settle(before);
        true
    }

    /// Whether `p` may claim this stone, `pool` being the unseen cards.
    pub fn claimable(&self, p: Player, pool: &Pool) -> bool {
        self.claim(p, pool) == Claim::Proved
    }

    /// Where `p`'s claim on this stone stands, `pool` being the unseen cards.
    pub(crate) fn claim(&self, p: Player, pool: &Pool) -> Claim {
        self.claim_by(p, |mine| self.proved(p, mine, pool))
    }

    /// [`Stone::claim`] with the proof against the opponent's incomplete
    /// side given: whether `p`'s complete side of that strength is safe.
    pub(crate) fn claim_by(&self, p: Player, proved: impl FnOnce(Strength) -> bool) -> Claim {
        if self.claimed.is_some() || !self.complete(p) {
            return Claim::Closed;
        }
        let mine = strength(&self.sides[p.index()], self.blind);
        self.judge(p, mine, self.first, proved)
    }

    /// [`Stone::claim_by`] of this stone after `p` adds `card` to its side
    /// (which has room), worked out without building that stone: a playout
    /// asks it of every completing play. An opponent's side complete
    /// already was complete first.
    pub(crate) fn claim_adding(
        &self,
        p: Player,
        card: Card,
        proved: impl FnOnce(Strength) -> bool,
    ) -> Claim {
        let mut side = self.sides[p.index()];
        side.push(card);
        if self.claimed.is_some() || side.len() < self.required() {
            return Claim::Closed;
        }
        let mine = strength(&side, self.blind);
        self.judge(p, mine, Some(p.opponent()), proved)
    }

    /// The claim of `p`'s complete side of strength `mine`, `first` the
    /// side complete first if both are: a tie goes to it.
    fn judge(
        &self,
        p: Player,
        mine: Strength,
        first: Option<Player>,
        proved: impl FnOnce(Strength) -> bool,
    ) -> Claim {
        if self.complete(p.opponent()) {
            let t = strength(&self.sides[p.opponent().index()], self.blind);
            if mine > t || (mine == t && first == Some(p)) {
                Claim::Proved
            } else {
                Claim::Closed
            }
        } else if proved(mine) {
            Claim::Proved
        } else {
            Claim::Unproved(mine)
        }
    }

    /// Whether `p`'s complete side of strength `mine` is proved safe from
    /// the opponent's incomplete side with `pool` unseen.
    pub(crate) fn proved(&self, p: Player, mine: Strength, pool: &Pool) -> bool {
        let theirs = &self.sides[p.opponent().index()];
        proof(mine, theirs, self.required(), self.blind, pool)
    }

    /// [`Stone::proved`] for a pool between the two `pools`, with the
    /// opponent side's `bounds` between them.
    pub(crate) fn proved_within(
        &self,
        p: Player,
        mine: Strength,
        pool: &Pool,
        bounds: &mut Bounds,
        pools: (&Pool, &Pool),
    ) -> bool {
        let theirs = &self.sides[p.opponent().index()];
        bounds.proof(mine, theirs, self.required(), self.blind, pool, pools)
    }

    /// Puts a combat mode on the stone.
    pub(crate) fn add_mode(&mut self, card: Card) {
        let before = self.completeness();
        if card == Card::MUD {
            self.mud = true;
        } else {
            self.blind = true;
        }
        self.settle(before);
    }
}

/// How a game is won: the outcome's reason.
pub const FIVE_STONES: &str = "five stones";
/// How a game is won: the outcome's reason.
pub const THREE_ADJACENT: &str = "three adjacent stones";

/// The public table and counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The rule preset.
    pub variant: Variant,
    /// The nine stones, left to right (named 1..9 in notation).
    pub stones: [Stone; 9],
    /// The discard pile, oldest first.
    pub discard: Vec<Card>,
    /// Tactic cards each player has played (cumulative).
    pub tactics_played: [u8; 2],
    /// Consecutive finished turns with no card played and no claim (2 ends the game).
    pub passes: u8,
    /// The player whose turn it is.
    pub to_move: Player,
    /// The step of the turn.
    pub phase: Phase,
}

impl Board {
    /// An empty table, `One` to play.
    pub fn new(variant: Variant) -> Board {
        Board {
            variant,
            stones: Default::default(),
            discard: Vec::new(),
            tactics_played: [0, 0],
            passes: 0,
            to_move: Player::One,
            phase: Phase::Play,
        }
    }

    /// The unseen cards (not on the table, not discarded) a claim proof
    /// lets the opponent use: clan cards and, in the tactic variants, elite troops.
    pub fn unseen_pool(&self) -> Pool {
        let mut seen = 0u64;
        let mut jokers = 0u8;
        let mut spy = false;
        let mut shield = false;
        let mut see = |c: Card| {
            if c.is_clan() {
                seen |= 1u64 << c.id();
            } else if c == Card::JOKER {
                jokers += 1;
            } else if c == Card::SPY {
                spy = true;
            } else if c == Card::SHIELD {
                shield = true;
            }
        };
        for st in &self.stones {
            for side in &st.sides {
                for &c in side.iter() {
                    see(c);
                }
            }
        }
        for &c in &self.discard {
            see(c);
        }
        let tactics = self.variant.tactics();
        Pool {
            clan: !seen & ((1u64 << 54) - 1),
            jokers: if tactics {
                2u8.saturating_sub(jokers)
            } else {
                0
            },
            spy: tactics && !spy,
            shield: tactics && !shield,
        }
    }

    /// Whether `p` may claim stone `i` (0-based) now, `pool` being
    /// [`Board::unseen_pool`]; false for a stone index out of range.
    pub fn claimable(&self, i: usize, p: Player, pool: &Pool) -> bool {
        self.stones.get(i).is_some_and(|st| st.claimable(p, pool))
    }

    /// The stones `p` may claim now, as a bit set (bit i = stone i+1).
    pub fn claimable_set(&self, p: Player) -> u16 {
        let pool = self.unseen_pool();
        (0..9)
            .filter(|&i| self.claimable(i, p, &pool))
            .fold(0, |m, i| m | 1 << i)
    }

    /// The player holding five stones or three adjacent ones.
    pub fn winner(&self) -> Option<(Player, &'static str)> {
        for p in [Player::One, Player::Two] {
            // Bit i: stone i is p's.
            let mine = (0..9)
                .filter(|&i| self.stones[i].claimed == Some(p))
                .fold(0u16, |m, i| m | 1 << i);
            if mine.count_ones() >= 5 {
                return Some((p, FIVE_STONES));
            }
            if mine & mine >> 1 & mine >> 2 != 0 {
                return Some((p, THREE_ADJACENT));
            }
        }
        None
    }

    /// Stones claimed by `p`.
    pub fn stones_of(&self, p: Player) -> usize {
        self.stones.iter().filter(|s| s.claimed == Some(p)).count()
    }

    /// The end of the game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some((p, why)) = self.winner() {
            return Some(Outcome::win(p, why));
        }
        if self.passes >= 2 {
            let (a, b) = (self.stones_of(Player::One), self.stones_of(Player::Two));
            return Some(match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::win(Player::One, "more stones"),
                std::cmp::Ordering::Less => Outcome::win(Player::Two, "more stones"),
                std::cmp::Ordering::Equal => Outcome::draw("equal stones"),
            });
        }
        None
    }

    /// Whether `p` has a Joker on the table.
    pub fn has_joker(&self, p: Player) -> bool {
        self.stones
            .iter()
            .any(|s| s.sides[p.index()].contains(&Card::JOKER))
    }

    /// Whether `p` may play a tactic card (not more played than the opponent).
    pub fn may_play_tactic(&self, p: Player) -> bool {
        self.variant.tactics()
            && self.tactics_played[p.index()] <= self.tactics_played[p.opponent().index()]
    }
}
