//! Schotten Totten (`schotten-totten`): variants `classic` (default),
//! `tactics` and `expert`, as settled in RULES.md section 4.
//!
//! Players: [`Player::One`] is `first` (moves first), [`Player::Two`] is `second`.
//!
//! # States
//! [`FullState`] is the referee's state (both hands, both decks in order); it
//! implements [`Game`], and the draw takes the top card of the chosen deck, so a
//! referee runs a game with [`FullState::play`]. [`View`] is what one player
//! knows ([`FullState::view`], an [`InformationSet`]); its legal moves are the
//! viewer's, and [`View::play`] applies the viewer's own move, a drawn card
//! becoming an unknown card (`?`) unless the viewer knew it (a card it returned
//! with Recruiter). The searcher and the reference players read only views.
//! Both are built from validated fields ([`Setup`], [`ViewSetup`]) or text;
//! [`Position`] is either, as the service takes them.
//!
//! # Turns and moves
//! One [`Move`] is one turn: the card action, the stones claimed and the deck
//! drawn from. Claims are applied after the card, or before it in `expert`.
//! Recruiter splits the turn in two moves: `p:RECRUITER:2+1` draws 2 clan and
//! 1 tactic cards (the split is chosen at once, a *decision*) and leaves the
//! phase at "return"; the same player then moves `r:G5,SPY` (with the claims
//! in the non-expert variants), and the turn ends without a draw. Unable to
//! play, a player discards a tactic card (`x:SPY/d:clan`) or passes (`pass`),
//! and may still claim.
//!
//! Move notation: one token without spaces, its parts joined by `/` (parts
//! separated by spaces, the older form, are still read); stones 1..9 left to
//! right:
//! - `p:G5@3` play a clan card or elite troop (`p:JOKER@3`) on your side of
//!   stone 3, or a combat mode on stone 3 (`p:MUD@3`, `p:BLIND@3`);
//! - `p:RECRUITER:1+2`, `p:STRATEGIST:G5@3>5` (or `>x` to discard),
//!   `p:BANSHEE:R2@4`, `p:TRAITOR:R2@4>6`; `r:G5,JOKER` returns (first G5,
//!   then JOKER under it); `x:SPY` discards; `pass`;
//! - `c:3,4` claims stones 3 and 4; `d:clan` / `d:tactic` the draw (may be
//!   left out when there is a single choice).
//!
//! Parts may come in any order; moves are written card first
//! (`p:G9@1/c:1,2/d:clan`), or claims first in `expert` (`c:2/p:G9@1/d:clan`).
//!
//! Cards: colour letter (G green, B blue, R red, Y yellow, P purple, K pink)
//! and rank (`G5`), tactic cards `JOKER SPY SHIELD BLIND MUD RECRUITER
//! STRATEGIST BANSHEE TRAITOR`.
//!
//! # Position notation
//! Space-separated fields: `full` (or `view:1` / `view:2`), `turn:1` (`1r`/`2r`
//! while a Recruiter return is pending), `pass:N` (consecutive turns without
//! card played or claim), `tc:A,B` (tactic cards played), `st:` the nine
//! stones separated by `/`, each `first-side:modes:second-side:claim` (cards
//! comma-separated in the order played, `*` after the side that completed
//! first when both are complete; modes `B` and/or `M`; claim `-`, `1` or `2`),
//! `h1:` and `h2:` the hands, `dc:` and `dt:` the clan and tactic decks, `x:`
//! the discard pile (oldest first). In a full state, hands list every card
//! (`!` marks a card the other player knows is there) and decks list cards
//! bottom first (`=1`, `=2`, `=12`: who knows the card's place). In a view,
//! unknown hand cards are `?` and a deck is `SIZE[:POS=CARD,...]` (known
//! cards by position from the bottom). Example:
//!
//! ```text
//! full turn:2 pass:0 tc:0,0 st::::-/:::-/:::-/:::-/:::-/R3,G6::G9:-/:::-/:::-/:::- h1:R6,R8,Y4,Y9,K3,K8 h2:B9,R5,Y6,Y8,P7,P9 dc:P3,Y2,B3,K7,Y3,K2,G4,R9,Y1,P1,B6,R2,R1,G1,K1,G3,P2,P5,B1,P8,R7,K9,K4,B8,Y5,P4,B2,R4,G2,G7,K6,B7,Y7,P6,B4,K5,B5,G5,G8 dt: x:
//! view:2 turn:2 pass:0 tc:0,0 st::::-/:::-/:::-/:::-/:::-/R3,G6::G9:-/:::-/:::-/:::- h1:?,?,?,?,?,? h2:B9,R5,Y6,Y8,P7,P9 dc:39 dt:0 x:
//! ```
//!
//! (classic, seed 42, after `p:R3@6`, `p:G9@6`, `p:G6@6`: the full state,
//! then second's view). A tactics stone such as `G7,G8,G9*:B:R1,R2,R3:1`
//! holds Blind-Man's Bluff, both sides complete (first's first) and is
//! claimed by first; `G1,G2,G3:BM::-` holds both combat modes and, under
//! Mud Fight, an incomplete side. Hands are written sorted.
//!
//! # Rule decisions (beyond RULES.md)
//! - Recruiter chooses its deck split up front; it may be played whatever the
//!   deck sizes (it draws what there is) and returns two cards (fewer only if
//!   the hand holds fewer). Returned to different decks the order is irrelevant;
//!   to one deck, the second card lies at the very bottom.
//! - The game also ends when a side wins by claims; no draw is needed then but
//!   the move's draw is still taken (it changes nothing).
//! - Completion order for ties is kept as a "first" marker per stone, set when
//!   both sides are complete (equivalent to completion times).
//! - In `expert`, a stone claimed at the start of the turn is out of reach of
//!   that turn's card (no combat mode or ruse on it).
//! - Ruses go to the discard pile before the card they discard (Strategist,
//!   Banshee).
//! - A view after the viewer's own Recruiter applied locally holds unknown
//!   drawn cards, so its listed returns cover only known cards: ask the
//!   referee for the new view before returning.
//!
//! # Search
//! Information-set MCTS ([`crate::search::ismcts`]) with this game's
//! [`search::Policy`] reads a [`View`] only; its moves always claim every
//! stone they can (a reduction of the move set: claiming never hurts) and draw
//! from the clan deck while it has cards. [`players`] holds the random, greedy
//! and ISMCTS reference players and their seeded matches.

pub mod board;
pub mod cards;
pub mod diagram;
pub mod formation;
pub mod inline;
mod leaf;
pub mod move_notation;
pub mod moves;
pub mod notation;
pub mod players;
mod position;
pub mod search;
mod setup;
pub mod state;
mod svg;
mod text;
mod validate;

#[cfg(test)]
mod tests;

use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;

use rand::Rng;

pub use board::{Board, Deck, Phase, Side, Stone};
use board::{FIVE_STONES, THREE_ADJACENT};
pub use cards::Card;
pub use moves::{Action, Move};
pub use position::Position;
pub use setup::{
    listed_deck, DeckListingError, Setup, StoneSetup, TableSetup, ViewDeck, ViewHand, ViewSetup,
};
pub use state::{DeckCard, FullState, HandCard, View};

use crate::information::{HiddenInformation, InformationSet};
use crate::played::{Notation, Played};
use crate::{Event, Game, MoveError, NotationError, Outcome, PlayError, Player, SetupError};

/// The rule presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 54 clan cards, hands of 6.
    Classic,
    /// With the 10 tactic cards, hands of 7.
    Tactics,
    /// Tactics, and claims only at the start of your turn.
    Expert,
}

impl Variant {
    /// Whether the tactic cards are used.
    pub fn tactics(self) -> bool {
        self != Variant::Classic
    }

    /// Whether claims come at the start of the turn.
    pub fn expert(self) -> bool {
        self == Variant::Expert
    }

    /// Opening hand size.
    pub fn hand_size(self) -> usize {
        if self.tactics() {
            7
        } else {
            6
        }
    }
}

/// A short help on the position notation (for `ListGames`).
pub const POSITION_HELP: &str = "a full state ('full turn:1 pass:0 tc:0,0 st:... h1:... h2:... \
dc:... dt:... x:...', the referee's) or a player's view ('view:1 ...', unknown cards '?', \
decks as sizes); stones st: as first-side:modes:second-side:claim separated by '/'; cards \
G5 (colour G B R Y P K + rank) or JOKER SPY SHIELD BLIND MUD RECRUITER STRATEGIST BANSHEE TRAITOR";

/// A short help on the move notation (for `ListGames`).
pub const MOVE_HELP: &str = "one token, parts joined by '/' (e.g. p:G5@3/c:3/d:clan): \
p:G5@3 (play on stone 3), \
p:STRATEGIST:G5@3>5, p:BANSHEE:R2@4, p:TRAITOR:R2@4>6, p:RECRUITER:2+1 then r:G5,SPY, \
x:SPY (discard), pass; c:3,4 (claim stones); d:clan or d:tactic (deck to draw from)";

/// Player names: `first` (One), `second` (Two).
pub const PLAYER_NAMES: [&str; 2] = ["first", "second"];

/// FNV-1a, for stable hashes.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

impl FullState {
    /// Reads a full state (`full ...`), validating it.
    pub fn from_notation(variant: Variant, text: &str) -> Result<FullState, SetupError> {
        notation::parse_full(variant, text)
    }

    /// Writes the state's notation.
    pub fn to_notation(&self) -> String {
        notation::full_text(self)
    }

    /// The end of the game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    /// Appends every legal move of the side to move (nothing once the game is over).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome().is_none() {
            let _ = self.for_each(&mut |m| {
                out.push(m);
                ControlFlow::Continue(())
            });
        }
    }

    /// Plays a move after checking it: the new state, or the error with this
    /// state handed back.
    #[allow(clippy::result_large_err)] // the same shape as `Played::play`
    pub fn play(self, mv: &Move) -> Result<FullState, PlayError<FullState>> {
        let checked = match self.outcome() {
            Some(o) => Err(MoveError::GameOver(o)),
            None => self.check_move(mv).map_err(MoveError::Illegal),
        };
        match checked {
            Ok(mv) => Ok(self.apply(&mv)),
            Err(error) => Err(PlayError {
                error,
                position: self,
            }),
        }
    }

    /// The diagram, with ANSI colours if `ansi`.
    pub fn diagram_ansi(&self, ansi: bool) -> String {
        diagram::full_diagram(self, ansi)
    }
}

impl View {
    /// Reads a view (`view:1 ...` or `view:2 ...`), validating it.
    pub fn from_notation(variant: Variant, text: &str) -> Result<View, SetupError> {
        notation::parse_view(variant, text)
    }

    /// Writes the view's notation.
    pub fn to_notation(&self) -> String {
        notation::view_text(self)
    }

    /// Reads a move of the viewer.
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        move_notation::parse_move(
            &self.board,
            [self.deck_len[0] as usize, self.deck_len[1] as usize],
            text,
        )
    }

    /// Writes a move.
    pub fn move_to_text(&self, mv: &Move) -> String {
        move_notation::move_text(&self.board, mv)
    }

    /// The diagram, with ANSI colours if `ansi`.
    pub fn diagram(&self, ansi: bool) -> String {
        diagram::view_diagram(self, ansi)
    }
}

impl Game for FullState {
    type Move = Move;
    type Variant = Variant;

    const NAME: &'static str = "schotten-totten";
    const CHANCE: bool = true;

    fn variants() -> &'static [(Variant, &'static str)] {
        &[
            (Variant::Classic, "classic"),
            (Variant::Tactics, "tactics"),
            (Variant::Expert, "expert"),
        ]
    }

    fn variant(&self) -> Variant {
        self.board.variant
    }

    fn start(variant: Variant, seed: u64) -> Self {
        FullState::new_game(variant, seed)
    }

    fn side_to_move(&self) -> Player {
        self.board.to_move
    }

    fn player_name(player: Player) -> &'static str {
        PLAYER_NAMES[player.index()]
    }

    fn decided(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    fn generate<F: FnMut(Move) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        self.for_each(&mut f)
    }

    /// Never reached: a player who cannot play discards or passes. Were it,
    /// the end after two passes would apply: more stones wins.
    fn no_moves(&self) -> Outcome {
        let (a, b) = (
            self.board.stones_of(Player::One),
            self.board.stones_of(Player::Two),
        );
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::win(Player::One, "more stones"),
            std::cmp::Ordering::Less => Outcome::win(Player::Two, "more stones"),
            std::cmp::Ordering::Equal => Outcome::draw("equal stones"),
        }
    }

    /// Counts the moves by their groups (an action with every subset of
    /// its claims and each draw) without listing them.
    fn pick_move(&self, pick: impl FnOnce(usize) -> usize, _: &mut Vec<Move>) -> Option<Move> {
        let hand = self.held(self.board.to_move);
        moves::pick_move(&self.board, &hand, self.deck_lens(), pick)
    }

    fn play_unchecked(&self, mv: &Move) -> Self {
        self.apply(mv)
    }

    /// The canonical form of `mv` if it is legal (claims and draws in any order).
    fn check_move(&self, mv: &Move) -> Result<Move, String> {
        let mv = moves::canonical(*mv);
        let legal = self
            .for_each(&mut |m| {
                if m == mv {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .is_break();
        if legal {
            Ok(mv)
        } else {
            Err(format!(
                "{} is not a legal move here",
                self.move_to_text(&mv)
            ))
        }
    }

    /// Claims, proofs and tactic cards, and how the game was won (drawing a
    /// card and the end of the game as such say nothing of a puzzle).
    fn themes(events: &[Event]) -> Vec<&'static str> {
        let mut themes = Vec::new();
        for e in events {
            let theme = match e.kind {
                "draw-card" => continue,
                "game-over" if e.text == THREE_ADJACENT => "three-adjacent",
                "game-over" if e.text == FIVE_STONES => "five-stones",
                "game-over" => continue,
                kind => kind,
            };
            if !themes.contains(&theme) {
                themes.push(theme);
            }
        }
        themes
    }

    fn move_events(
        &self,
        mv: &Move,
        after: &Self,
        outcome: Option<&Outcome>,
        _repetitions: usize,
    ) -> Vec<Event> {
        let mut ev = Vec::new();
        let me = self.board.to_move;
        if let Some(card) = moves::hand_card(&mv.action).filter(|c| !c.is_clan()) {
            ev.push(Event {
                kind: "tactic",
                cells: vec![card.to_string()],
                text: format!("{} plays the tactic card {card}", PLAYER_NAMES[me.index()]),
            });
        }
        for i in 0..9 {
            if mv.claims & (1 << i) != 0 {
                ev.push(Event {
                    kind: "claim",
                    cells: vec![(i + 1).to_string()],
                    text: format!("{} claims stone {}", PLAYER_NAMES[me.index()], i + 1),
                });
                // Claimed with the opponent's side still open: a proof that
                // no cards they could add would win it.
                if !after.board.stones[i].complete(me.opponent()) {
                    ev.push(Event {
                        kind: "proof",
                        cells: vec![(i + 1).to_string()],
                        text: format!(
                            "{} proves stone {} won: no cards {} could add would beat it",
                            PLAYER_NAMES[me.index()],
                            i + 1,
                            PLAYER_NAMES[me.opponent().index()]
                        ),
                    });
                }
            }
        }
        if let Some(d) = mv.draw {
            ev.push(Event {
                kind: "draw-card",
                cells: Vec::new(),
                text: format!(
                    "{} draws from the {} deck",
                    PLAYER_NAMES[me.index()],
                    if d == Deck::Clan { "clan" } else { "tactic" }
                ),
            });
        }
        if let Some(o) = outcome {
            ev.push(Event {
                kind: "game-over",
                cells: Vec::new(),
                text: o.reason.to_string(),
            });
        }
        ev
    }

    fn hash(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        Hash::hash(self, &mut h);
        h.finish()
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        move_notation::parse_move(
            &self.board,
            [self.decks[0].len(), self.decks[1].len()],
            text,
        )
    }

    fn push_move_text(&self, mv: &Move, out: &mut String) {
        out.push_str(&move_notation::move_text(&self.board, mv));
    }

    fn move_subject(&self, mv: &Move) -> String {
        move_notation::move_subject(mv)
    }
}

impl Notation for FullState {
    const POSITION_HELP: &'static str = POSITION_HELP;
    const MOVE_HELP: &'static str = MOVE_HELP;

    fn read(variant: Variant, text: &str) -> Result<Played<FullState>, SetupError> {
        FullState::from_notation(variant, text).map(Played::new)
    }

    fn write(played: &Played<FullState>) -> String {
        played.position().to_notation()
    }
}

impl HiddenInformation for FullState {
    type View = View;

    fn view(&self, player: Player) -> View {
        FullState::view(self, player)
    }
}

impl InformationSet for View {
    type Move = Move;
    type State = FullState;

    fn viewer(&self) -> Player {
        self.viewer
    }

    fn side_to_move(&self) -> Player {
        self.board.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        View::outcome(self)
    }

    fn viewer_moves(&self, out: &mut Vec<Move>) {
        out.extend(self.legal_moves());
    }

    fn play(self, mv: &Move) -> Result<View, PlayError<View>> {
        View::play(self, mv)
    }

    fn determinize<R: Rng>(&self, rng: &mut R) -> Played<FullState> {
        Played::new(View::determinize(self, rng))
    }
}
