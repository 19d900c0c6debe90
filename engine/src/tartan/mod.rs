//! Tartan (`tartan`): a stacking game on a hex board with Lochs, bounces,
//! Bishops and Cathedrals (RULES.md section 3).
//!
//! [`Player::One`] is red, [`Player::Two`] blue; each has 12 Family tokens and
//! a Bishop. A stack of a player's tokens is a unit: 1 token a Family, 2 a
//! Horde, 3 an Army, 4 a Cathedral. Board data (rows, Lochs) are tables in
//! [`board`]; the default board is RULES.md's (a *decision*: no public
//! description of Tartan's board exists): 61 cells, the central Loch E5 and
//! the outer Lochs B2 E2 B5 H5 E8 H8.
//!
//! # Rules as implemented
//! - Placement phase: the players take turns placing one Family on an empty
//!   cell that is no Loch and has no token next to it; red places first;
//!   placing is compulsory while a legal cell exists. A player who cannot
//!   place (no cell, or no token left) passes while the other goes on. When
//!   neither can place, the tokens not placed are the players' reserves, both
//!   Bishops go on the central Loch, and play starts with the player who
//!   placed the last Family (at once: that placement ends the phase).
//! - A turn of play is one action. A Family steps to a neighbour; a Horde goes
//!   exactly two steps between neighbours through an empty middle cell, ending
//!   anywhere but its start; an Army goes exactly three steps in a straight
//!   line over two empty cells; a Cathedral never moves. Lochs are never
//!   entered nor passed by units; a cell holding a Bishop is not empty.
//! - A move lands on an empty cell, unites with a friendly unit
//!   (Family+Family = Horde, Family+Horde or Horde+Family = Army, Horde+Horde
//!   = Cathedral; nothing else unites), or captures an enemy unit (a Horde
//!   takes a Family, an Army a Horde; the captured tokens leave the game).
//!   A unit under a Bishop is blessed: it neither moves nor is united with nor
//!   captured.
//! - Bounce: a union forming a Horde or an Army lets that unit make one full
//!   move of its kind at once, or stop; a union in that move bounces again.
//!   A Cathedral never bounces (forming one ends the chain). Cells emptied
//!   earlier in the turn are empty for the moves after. The chain is one turn.
//! - A Bishop steps to a neighbour that is no Loch: empty, or any unit (which
//!   it blesses while there), never the other Bishop's cell. It never goes back
//!   onto a Loch.
//! - Dismantle: one of your unblessed Hordes leaves the board, and its two
//!   tokens and one token of your reserve (there must be one) become three
//!   Families on empty non-Loch cells next to three different outer Lochs (the
//!   Horde's own cell counts as empty; no placement-phase adjacency rule).
//!   Neither a union nor a capture.
//! - A player with no legal action passes.
//! - Ends, checked in this order: moving your Bishop onto a Cathedral of your
//!   colour wins ("coronation"); the 15th consecutive turn of play (both
//!   players' turns, passes included) without a capture or a union draws; the
//!   third occurrence of a position (units, Bishops, reserves, side to move;
//!   not the counter) draws.
//!
//! # Move notation
//! One move is one whole turn: a placement `C4`; `pass`; a unit's move with
//! its bounces, the start cell and every landing cell joined by `-`: `C4-C5`
//! (a step), `C4-C6` (a Horde: only its landing, whatever the path),
//! `C4-C5-C7` (a union on C5 forms a Horde, which bounces to C7; stopping a
//! chain early is the shorter move); a Bishop's step `B:E5-D4`; a dismantle
//! `D:F4:A2,C3,H7` (the Horde's cell, then the three cells in board order).
//! Each distinct text is one legal move; cells are read case-insensitively
//! and a dismantle's cells in any order.
//!
//! # Position notation
//! Seven fields separated by spaces:
//! 1. the phase: `place` or `play`;
//! 2. the stacks in board order, `-` for none, comma-separated as
//!    `cell=` owner (`r` red, `b` blue) and height: `C4=r1,E6=b4`;
//! 3. the Bishops, red's then blue's: `E5,E5`, or `-` during placement;
//! 4. the tokens each player holds off the board, red's then blue's: still
//!    to place during placement, the reserve during play: `12,12`;
//! 5. the turns of play in a row without a capture or a union (0 during placement);
//! 6. the side to move, `r` or `b`;
//! 7. the repetition history: `-` or the sorted hex hashes of the earlier
//!    positions since the last irreversible move (a union, capture,
//!    dismantle or placement), `hash*2` for one seen twice.
//!
//! The start is `place - - 12,12 0 r -`. Blessings are implied: a unit
//! under a Bishop is blessed.

pub mod board;
mod diagram;
mod eval;
mod events;
mod movegen;
mod notation;
mod rules;
mod setup;
mod svg;
mod zobrist;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use std::fmt;
use std::ops::ControlFlow;

pub use board::Cell;
pub use eval::Evaluation;
pub use setup::{Setup, Stack};

use crate::game::{
    Event, Game, NotationError, Outcome, PerfectInformation, Player, Repetition, SetupError,
};
use crate::played::{Notation, Played};
use crate::search::{standard_searchers, PerfectSearch, SearcherInfo};
use board::{Geometry, NONE};

/// The repetition rule: the third occurrence of a position draws.
pub const REPETITION: Repetition = Repetition {
    draw_at: 3,
    reason: "threefold repetition",
};

/// A short help on the position notation (for `ListGames`).
pub const POSITION_HELP: &str = "phase (place or play); stacks as cell=owner+height \
(r red, b blue; 1 Family .. 4 Cathedral), comma-separated or -; the Bishops red,blue or -; \
tokens off the board red,blue; turns without capture or union; side to move (r or b); \
history - or sorted hex hashes (hash*2 for one seen twice). Start: place - - 12,12 0 r -";

/// A short help on the move notation (for `ListGames`).
pub const MOVE_HELP: &str = "placement C4 or pass; a unit's move with its bounces as \
start-landing(-landing..), e.g. C4-C5 or C4-C5-C7; a Bishop B:E5-D4; a dismantle \
D:F4:A2,C3,H7; pass when nothing else is legal";

/// Tokens each player has.
pub const TOKENS: u8 = 12;

/// The turns of play without a capture or a union that draw.
pub const QUIET_TURNS_DRAW: u8 = 15;

/// The rule presets of Tartan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The rules and the board of RULES.md section 3.
    Standard,
}

impl Variant {
    /// The board of this variant.
    pub(crate) fn geometry(self) -> &'static Geometry {
        match self {
            Variant::Standard => board::standard(),
        }
    }
}

/// The phase of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The players place their Families.
    Placement,
    /// The Bishops are on the board; units and Bishops move.
    Play,
}

/// The start cell and every landing cell of a unit's move with its bounces
/// (2 to 4 cells: at most three hops).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Path {
    cells: [u8; 4],
    len: u8,
}

impl Path {
    /// A path through `cells` (start first): a start and 1 to 3 landings.
    pub fn new(cells: &[Cell]) -> Result<Path, NotationError> {
        if !(2..=4).contains(&cells.len()) {
            return Err(NotationError::new(format!(
                "{} cells given; a unit's move has a start and 1 to 3 landings",
                cells.len()
            )));
        }
        let mut p = Path {
            cells: [0; 4],
            len: cells.len() as u8,
        };
        for (slot, c) in p.cells.iter_mut().zip(cells) {
            *slot = c.0;
        }
        Ok(p)
    }

    pub(crate) fn raw(&self) -> &[u8] {
        &self.cells[..self.len as usize]
    }

    /// The cells, start first.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.raw().iter().map(|&c| Cell(c))
    }

    /// The start cell.
    pub fn from(&self) -> Cell {
        Cell(self.cells[0])
    }

    /// The final landing cell.
    pub fn to(&self) -> Cell {
        Cell(self.cells[self.len as usize - 1])
    }
}

/// One whole turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Placement phase: a Family onto a cell.
    Place(Cell),
    /// No legal action (placement: no cell or no token; play: nothing at all).
    Pass,
    /// A unit's move with its bounces.
    Unit(Path),
    /// A Bishop's step.
    Bishop {
        /// Where the Bishop stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
    },
    /// A Horde dismantled into three Families next to three outer Lochs.
    Dismantle {
        /// The Horde's cell.
        horde: Cell,
        /// The Families' cells, in board order.
        cells: [Cell; 3],
    },
}

impl Move {
    /// The Horde on `horde` dismantled into Families on `cells`, in any
    /// order: three of them.
    pub fn dismantle(horde: Cell, cells: &[Cell]) -> Result<Move, NotationError> {
        let mut three = cells.to_vec();
        three.sort();
        let [a, b, c] = three[..] else {
            return Err(NotationError::new(format!(
                "{} cells given; a dismantle places three Families",
                cells.len()
            )));
        };
        Ok(Move::Dismantle {
            horde,
            cells: [a, b, c],
        })
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        notation::push_move_text(self, &mut text);
        f.write_str(&text)
    }
}

/// A Tartan position: the stacks, the Bishops, the tokens off the board, the
/// counter of quiet turns, the phase and the side to move (its repetition
/// history lives beside it, in [`Played`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Tartan {
    variant: Variant,
    phase: Phase,
    side: Player,
    /// Height of the stack on each cell (0: none).
    height: [u8; board::MAX_CELLS],
    /// Cells with a stack.
    units: u64,
    /// Cells with a stack of [`Player::Two`].
    blue: u64,
    /// Each player's Bishop, `NONE` before play.
    bishops: [u8; 2],
    /// Tokens off the board: still to place, or the reserve.
    tokens: [u8; 2],
    /// Turns of play in a row without a capture or a union.
    counter: u8,
    hash: u64,
}

impl fmt::Debug for Tartan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tartan({})", notation::position_text(self, &[]))
    }
}

impl Tartan {
    /// Builds a game in progress from structured fields, validating them.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Played<Tartan>, SetupError> {
        setup::build(variant, setup)
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The stack on a cell: its owner and height (1 Family .. 4 Cathedral).
    pub fn stack(&self, cell: Cell) -> Option<(Player, u8)> {
        let i = cell.index();
        (self.units & (1 << i) != 0).then(|| (self.owner(i), self.height[i]))
    }

    /// Every stack, in board order.
    pub fn stacks(&self) -> impl Iterator<Item = Stack> + '_ {
        board::bits(self.units).map(|i| Stack {
            cell: Cell(i as u8),
            owner: self.owner(i),
            height: self.height[i],
        })
    }

    /// Where a player's Bishop stands (`None` during placement).
    pub fn bishop(&self, player: Player) -> Option<Cell> {
        let b = self.bishops[player.index()];
        (b != NONE).then_some(Cell(b))
    }

    /// Tokens a player holds off the board: still to place, or the reserve.
    pub fn tokens(&self, player: Player) -> u8 {
        self.tokens[player.index()]
    }

    /// Turns of play in a row without a capture or a union.
    pub fn quiet_turns(&self) -> u8 {
        self.counter
    }

    /// Whether the unit on `cell` is blessed (a Bishop stands on it).
    pub fn blessed(&self, cell: Cell) -> bool {
        self.units & (1 << cell.0) != 0 && self.bishops.contains(&cell.0)
    }

    pub(crate) fn owner(&self, cell: usize) -> Player {
        if self.blue & (1 << cell) != 0 {
            Player::Two
        } else {
            Player::One
        }
    }

    /// The cells of `player`'s stacks.
    pub(crate) fn mine(&self, player: Player) -> u64 {
        match player {
            Player::One => self.units & !self.blue,
            Player::Two => self.blue,
        }
    }

    /// Cells a Bishop stands on.
    pub(crate) fn bishop_mask(&self) -> u64 {
        self.bishops
            .iter()
            .filter(|&&b| b != NONE)
            .fold(0, |m, &b| m | 1 << b)
    }
}

impl Played<Tartan> {
    /// The structured fields of this game in progress (`from_setup` reads them back).
    pub fn setup(&self) -> Setup {
        let p = self.position();
        Setup {
            phase: p.phase,
            stacks: p.stacks().collect(),
            bishops: [p.bishop(Player::One), p.bishop(Player::Two)],
            tokens: p.tokens,
            quiet_turns: p.counter,
            side_to_move: p.side,
            history: self.history().to_vec(),
        }
    }

    /// A terminal drawing of the hex board, the side to move and the outcome.
    pub fn diagram(&self) -> String {
        diagram::draw(self.position(), self.outcome())
    }

    /// An SVG picture: the hexagon with every cell's name and the Lochs (the
    /// central one outlined), each unit as one disc per token in its owner's
    /// colour with its height on top, the Bishops (a gold ring on a blessed
    /// unit), the tokens off the board, and `last_move` (drawn as given):
    /// its placement cell, chain, Bishop step or dismantled cells marked.
    pub fn svg(&self, last_move: Option<&Move>) -> String {
        let last = last_move.map(|m| (m, self.move_to_text(m)));
        svg::draw(self.position(), self.outcome().as_ref(), last)
    }
}

static VARIANTS: [(Variant, &str); 1] = [(Variant::Standard, "standard")];

impl Game for Tartan {
    type Move = Move;
    type Variant = Variant;

    const NAME: &'static str = "tartan";

    fn variants() -> &'static [(Variant, &'static str)] {
        &VARIANTS
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn start(variant: Variant, _seed: u64) -> Self {
        setup::start(variant)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn player_name(player: Player) -> &'static str {
        match player {
            Player::One => "red",
            Player::Two => "blue",
        }
    }

    fn decided(&self) -> Option<Outcome> {
        rules::decided(self)
    }

    fn generate<F: FnMut(Move) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        movegen::generate(self, &mut f)
    }

    /// Never reached: a player with no action passes.
    fn no_moves(&self) -> Outcome {
        Outcome::draw("no legal move")
    }

    fn play_unchecked(&self, mv: &Move) -> Self {
        rules::apply(self, mv)
    }

    fn move_events(
        &self,
        mv: &Move,
        after: &Self,
        outcome: Option<&Outcome>,
        _repetitions: usize,
    ) -> Vec<Event> {
        events::events(self, mv, after, outcome)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn repetition(&self) -> Option<Repetition> {
        Some(REPETITION)
    }

    /// A union, a capture, a dismantle, a placement or the start of play:
    /// fewer stacks or fewer tokens off the board, never to come back.
    fn irreversible(&self, after: &Self) -> bool {
        after.units.count_ones() != self.units.count_ones()
            || after.tokens != self.tokens
            || after.phase != self.phase
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_move(text)
    }

    fn push_move_text(&self, mv: &Move, out: &mut String) {
        notation::push_move_text(mv, out);
    }

    fn move_subject(&self, mv: &Move) -> String {
        match mv {
            Move::Place(_) => "a Family placed".to_string(),
            Move::Pass => "a pass".to_string(),
            Move::Unit(path) => format!("the unit on {}", path.from().as_str()),
            Move::Bishop { from, .. } => format!("the Bishop on {}", from.as_str()),
            Move::Dismantle { horde, .. } => format!("the Horde on {}", horde.as_str()),
        }
    }
}

impl PerfectInformation for Tartan {}

impl Notation for Tartan {
    const POSITION_HELP: &'static str = POSITION_HELP;
    const MOVE_HELP: &'static str = MOVE_HELP;

    fn read(variant: Variant, text: &str) -> Result<Played<Tartan>, SetupError> {
        let setup = notation::parse_position(text)?;
        Tartan::from_setup(variant, &setup)
    }

    fn write(played: &Played<Tartan>) -> String {
        notation::position_text(played.position(), played.history())
    }
}

impl PerfectSearch for Tartan {
    type Evaluation = Evaluation;

    fn searchers() -> &'static [SearcherInfo<Played<Tartan>>] {
        static SEARCHERS: [SearcherInfo<Played<Tartan>>; 2] = standard_searchers::<Tartan>();
        &SEARCHERS
    }
}
