//! AlmaTafl (`almatafl`): a stacking Tafl on a 73-cell star (RULES.md section 2).
//!
//! [`Player::One`] are the invaders (24 discs, they move first), [`Player::Two`]
//! the defenders (12 discs and the King). Board data (rows, escape spots,
//! throne, start) are tables in [`board`].
//!
//! # Rules as implemented
//! - Only the top piece of a stack moves; it moves exactly `h` cells in a
//!   straight line (`h` = height of the stack it starts on), jumping over
//!   anything. *(decision)* Every cell of the line, the jumped ones included,
//!   must be a board cell: a line may not cross a notch of the star.
//! - It lands on an empty cell or on a stack of height < 3. Invaders never land
//!   on escape spots, and on the throne only on the King (burying him);
//!   defender discs never land on escape spots, the throne or the King; the
//!   King lands anywhere else.
//! - The King bounces when he lands on a stack topped by an invader: he may go
//!   on with another move (distance = height of his new stack) or stop. During
//!   a chain only the King's place changes, so a chain never lands twice on a
//!   cell nor back on its start.
//! - Wins: King covered by an invader (invaders), King on an escape spot
//!   (defenders), no defender disc on top of any stack (invaders); checked in
//!   that order. Then a third occurrence of a position with the same side to
//!   move is a draw; then a side without a legal move loses.
//!
//! # Move notation
//! The start cell and every landing cell joined by `-`: `B2-B3`, or a King
//! chain `F6-F8-F5`. Cells are read case-insensitively. The move list gives one
//! move per distinct resulting position: for the King the shortest chain to
//! each end cell, ties broken by comparing chains cell by cell in row-major
//! order ([`Cell`]'s order). [`Played::play`] accepts any legal chain.
//!
//! # Position notation
//! Three fields separated by spaces:
//! 1. the occupied cells in row-major order, comma-separated, each as
//!    `cell=pieces` with pieces bottom to top (`i` invader, `d` defender,
//!    `k` King): `D5=id` is a defender on an invader;
//! 2. the side to move, `i` or `d`;
//! 3. the repetition history: `-`, or the comma-separated 16-digit hex
//!    [`Game::hash`]es of every earlier position of the game, sorted, a hash
//!    seen twice written once with `*2`. AlmaTafl has no irreversible move
//!    (nothing is ever captured and stacks come apart again), so the whole
//!    game's positions are kept; only their counts matter.
//!
//! The start position:
//! ```text
//! B2=i,C2=i,D2=i,E2=i,F2=i,B3=i,G3=i,B4=i,E4=d,H4=i,B5=i,D5=d,E5=d,F5=d,G5=d,I5=i,B6=i,E6=d,F6=k,G6=d,J6=i,C7=i,E7=d,F7=d,G7=d,H7=d,J7=i,D8=i,G8=d,J8=i,E9=i,J9=i,F10=i,G10=i,H10=i,I10=i,J10=i i -
//! ```
//! Reading accepts upper or lower case, `invaders`/`defenders` for the side,
//! and a missing history field (no history).

pub mod board;
mod diagram;
mod eval;
mod events;
mod movegen;
mod notation;
mod setup;
mod stack;
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
pub use setup::Setup;

use crate::game::{
    Event, Game, NotationError, Outcome, PerfectInformation, Player, Repetition, SetupError,
};
use crate::played::{Notation, Played};
use crate::search::{standard_searchers, PerfectSearch, SearcherInfo};
use board::{geometry, CELLS};

/// The repetition rule: the third occurrence of a position draws.
pub const REPETITION: Repetition = Repetition {
    draw_at: 3,
    reason: "threefold repetition",
};

/// A short help on the position notation (for `ListGames`).
pub const POSITION_HELP: &str =
    "occupied cells as cell=pieces bottom to top (i invader, d defender, k King), \
comma-separated; then the side to move (i or d); then the history: - or sorted hex hashes \
of earlier positions (hash*2 for one seen twice). Start: B2=i,C2=i,...,F6=k,...,J10=i i -";

/// A short help on the move notation (for `ListGames`).
pub const MOVE_HELP: &str = "start cell and every landing cell joined by '-': B2-B3, \
or a King chain bouncing off invaders such as F6-F8-F5";

/// The rule presets of AlmaTafl.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The rules of RULES.md section 2.
    Standard,
}

/// A piece of a stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// An invader disc.
    Invader,
    /// A defender disc.
    Defender,
    /// The defenders' King.
    King,
}

impl Piece {
    /// The side owning the piece.
    pub fn owner(self) -> Player {
        match self {
            Piece::Invader => Player::One,
            Piece::Defender | Piece::King => Player::Two,
        }
    }

    /// The notation letter: `i`, `d` or `k`.
    pub fn letter(self) -> char {
        match self {
            Piece::Invader => 'i',
            Piece::Defender => 'd',
            Piece::King => 'k',
        }
    }
}

/// Longest possible chain: start, a landing on each of at most 24 invaders, and a last landing.
pub const MAX_CHAIN: usize = board::MAX_INVADERS + 2;

/// One turn: the start cell and every landing cell (two cells for a disc move).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(align(8))]
pub struct Move {
    /// The number of cells, the cells (start first), then zeros. A disc move
    /// is written as a four-byte head (2, start, landing, 0) and whole words
    /// of zeros, hence the alignment.
    bytes: [u8; MAX_CHAIN + 1],
}

impl Move {
    /// A move through the given cells (start first); `None` unless 2 to [`MAX_CHAIN`] cells.
    pub fn new(cells: &[Cell]) -> Option<Move> {
        if cells.len() < 2 || cells.len() > MAX_CHAIN {
            return None;
        }
        let mut raw = [0u8; MAX_CHAIN];
        for (slot, c) in raw.iter_mut().zip(cells) {
            *slot = c.index() as u8;
        }
        Some(Move::raw_chain(&raw[..cells.len()]))
    }

    /// The move from `cells[0]` to `cells[1]`.
    #[inline]
    pub(crate) fn disc(cells: [u8; 2]) -> Move {
        let head = 2 | u32::from(u16::from_le_bytes(cells)) << 8;
        let mut m = Move {
            bytes: [0; MAX_CHAIN + 1],
        };
        m.bytes[..4].copy_from_slice(&head.to_le_bytes());
        m
    }

    /// The move through cell indices (2 to [`MAX_CHAIN`] of them).
    pub(crate) fn raw_chain(cells: &[u8]) -> Move {
        let mut m = Move {
            bytes: [0; MAX_CHAIN + 1],
        };
        m.bytes[0] = cells.len() as u8;
        m.bytes[1..=cells.len()].copy_from_slice(cells);
        m
    }

    /// The move with one more landing (the caller keeps at most [`MAX_CHAIN`] cells).
    #[inline]
    pub(crate) fn then(mut self, to: u8) -> Move {
        let len = self.bytes[0] as usize;
        self.bytes[1 + len] = to;
        self.bytes[0] += 1;
        self
    }

    pub(crate) fn raw(&self) -> &[u8] {
        &self.bytes[1..1 + self.bytes[0] as usize]
    }

    /// The cells of the move, start first.
    pub fn cells(&self) -> Vec<Cell> {
        self.raw().iter().map(|&i| cell(i as usize)).collect()
    }

    /// The start cell.
    pub fn from(&self) -> Cell {
        cell(self.bytes[1] as usize)
    }

    /// The final landing cell.
    pub fn to(&self) -> Cell {
        cell(self.bytes[self.bytes[0] as usize] as usize)
    }
}

/// Masks (in [`Mask`] order) as the low words and high bits a position stores.
#[inline]
fn split(masks: [u128; 3]) -> ([u64; 3], [u16; 3]) {
    (masks.map(|m| m as u64), masks.map(|m| (m >> 64) as u16))
}

fn cell(i: usize) -> Cell {
    Cell::from_index(i).expect("cell indices are below 73")
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&notation::move_text(self))
    }
}

/// An AlmaTafl position: the stacks and the side to move (its repetition
/// history lives beside it, in [`Played`]).
#[derive(Clone, PartialEq, Eq)]
pub struct AlmaTafl {
    board: [u8; CELLS],
    king: u8,
    side: Player,
    hash: u64,
    /// The [`Mask`]s kept with the board, each as its low 64 bits here and
    /// its high bits in `high`: the position fits in 128 bytes, which are
    /// copied inline rather than by a call.
    low: [u64; 3],
    high: [u16; 3],
}

/// The sets of cells a position keeps with its board, bit `c` for cell `c`:
/// move generation visits only the side's stacks and knows the landing
/// cells without reading the board, and `decided` reads no stack.
#[derive(Clone, Copy)]
pub(crate) enum Mask {
    /// Cells topped by an invader.
    Invaders,
    /// Cells topped by a defender disc (the King not included): none left is
    /// a win for the invaders.
    Defenders,
    /// Cells an invader may land on; a defender disc may land on the same
    /// cells but the throne and the King.
    Landings,
}

impl fmt::Debug for AlmaTafl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AlmaTafl({})", notation::position_text(self, &[]))
    }
}

impl AlmaTafl {
    /// The pieces on a cell, bottom to top.
    pub fn stack(&self, cell: Cell) -> Vec<Piece> {
        stack::pieces(self.board[cell.index()])
    }

    /// Every occupied cell with its pieces bottom to top, in row-major order.
    pub fn stacks(&self) -> Vec<(Cell, Vec<Piece>)> {
        Cell::all()
            .filter(|c| self.board[c.index()] != 0)
            .map(|c| (c, self.stack(c)))
            .collect()
    }

    /// The King's cell.
    pub fn king(&self) -> Cell {
        cell(self.king as usize)
    }

    /// Builds a game in progress from structured fields, validating them.
    pub fn from_setup(setup: &Setup) -> Result<Played<AlmaTafl>, SetupError> {
        setup::validate(setup)
    }

    /// The win decided by the board alone (not by repetition or a lack of moves).
    fn won(&self) -> Option<Outcome> {
        let k = self.king as usize;
        if stack::top(self.board[k]) != stack::KING {
            return Some(Outcome::win(Player::One, "king buried"));
        }
        if geometry().escape[k] {
            return Some(Outcome::win(Player::Two, "king escaped"));
        }
        if self.mask(Mask::Defenders) == 0 {
            return Some(Outcome::win(Player::One, "no active defender"));
        }
        None
    }

    /// One of the position's sets of cells.
    #[inline]
    pub(crate) fn mask(&self, m: Mask) -> u128 {
        u128::from(self.low[m as usize]) | u128::from(self.high[m as usize]) << 64
    }

    /// The masks with the bits of the given cells set from their stacks.
    #[inline]
    fn masks_with(&self, cells: impl IntoIterator<Item = (usize, u8)>) -> [u128; 3] {
        let mut masks = [Mask::Invaders, Mask::Defenders, Mask::Landings].map(|m| self.mask(m));
        for (cell, s) in cells {
            let top = stack::top(s);
            let lands = geometry().land[cell][s as usize & 63] >> stack::INVADER & 1 != 0;
            let bit = 1u128 << cell;
            let on = [top == stack::INVADER, top == stack::DEFENDER, lands];
            for (mask, on) in masks.iter_mut().zip(on) {
                *mask = *mask & !bit | bit & 0u128.wrapping_sub(u128::from(on));
            }
        }
        masks
    }

    fn compute_hash(board: &[u8; CELLS], side: Player) -> u64 {
        let h = board
            .iter()
            .enumerate()
            .fold(0, |h, (c, &s)| h ^ zobrist::stack_key(c, s));
        if side == Player::Two {
            h ^ zobrist::SIDE_KEY
        } else {
            h
        }
    }

    /// Builds a position from checked parts.
    fn assemble(board: [u8; CELLS], side: Player) -> AlmaTafl {
        let king = board
            .iter()
            .position(|&s| s != 0 && stack::pieces(s).contains(&Piece::King))
            .unwrap_or(0) as u8;
        let hash = Self::compute_hash(&board, side);
        let mut pos = AlmaTafl {
            board,
            king,
            side,
            hash,
            low: [0; 3],
            high: [0; 3],
        };
        (pos.low, pos.high) = split(pos.masks_with(board.into_iter().enumerate()));
        pos
    }
}

impl Played<AlmaTafl> {
    /// The structured fields of this game in progress (`from_setup` reads them back).
    pub fn setup(&self) -> Setup {
        Setup {
            stacks: self.position().stacks(),
            side_to_move: self.side_to_move(),
            history: self.history().to_vec(),
        }
    }

    /// A terminal drawing of the board, the side to move and the outcome.
    pub fn diagram(&self) -> String {
        diagram::draw(self.position(), self.outcome())
    }

    /// An SVG picture: the star of hexagons with every cell's name, the
    /// escape spots and the throne, each stack as one disc per piece bottom
    /// to top (the height in a badge from 2 up), and every cell of
    /// `last_move` (drawn as given) marked along an arrow.
    pub fn svg(&self, last_move: Option<&Move>) -> String {
        let last = last_move.map(|m| (m, self.move_to_text(m)));
        svg::draw(self.position(), self.outcome().as_ref(), last)
    }
}

impl Game for AlmaTafl {
    type Move = Move;
    type Variant = Variant;

    const NAME: &'static str = "almatafl";

    fn variants() -> &'static [(Variant, &'static str)] {
        &[(Variant::Standard, "standard")]
    }

    fn variant(&self) -> Variant {
        Variant::Standard
    }

    fn start(_variant: Variant, _seed: u64) -> Self {
        let mut b = [0u8; CELLS];
        let at = |name: &str| {
            Cell::parse(name)
                .expect("start cells are board cells")
                .index()
        };
        for name in board::START_INVADERS {
            b[at(name)] = stack::INVADER;
        }
        for name in board::START_DEFENDERS {
            b[at(name)] = stack::DEFENDER;
        }
        b[at(board::START_KING)] = stack::KING;
        AlmaTafl::assemble(b, Player::One)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn player_name(player: Player) -> &'static str {
        match player {
            Player::One => "invaders",
            Player::Two => "defenders",
        }
    }

    fn decided(&self) -> Option<Outcome> {
        self.won()
    }

    fn generate<F: FnMut(Move) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        movegen::generate(self, &mut f)
    }

    fn pick_move(&self, pick: impl FnOnce(usize) -> usize, _: &mut Vec<Move>) -> Option<Move> {
        movegen::pick(self, pick)
    }

    fn no_moves(&self) -> Outcome {
        Outcome::win(self.side.opponent(), "no legal move")
    }

    // Inlined into the generic loops of other crates (random games, searchers).
    #[inline(always)]
    fn play_unchecked(&self, mv: &Move) -> Self {
        let (from, to) = (
            mv.bytes[1] as usize,
            mv.bytes[mv.bytes[0] as usize] as usize,
        );
        let (old_from, old_to) = (self.board[from], self.board[to]);
        let piece = stack::top(old_from);
        let (new_from, new_to) = (stack::pop(old_from), stack::push(old_to, piece));
        // The fields are computed first and the position written once, so
        // that no narrow store is read back by a copy of the position.
        let (low, high) = split(self.masks_with([(from, new_from), (to, new_to)]));
        let mut board = self.board;
        board[from] = new_from;
        board[to] = new_to;
        AlmaTafl {
            board,
            king: if piece == stack::KING {
                to as u8
            } else {
                self.king
            },
            side: self.side.opponent(),
            hash: self.hash
                ^ zobrist::SIDE_KEY
                ^ zobrist::stack_key(from, old_from)
                ^ zobrist::stack_key(from, new_from)
                ^ zobrist::stack_key(to, old_to)
                ^ zobrist::stack_key(to, new_to),
            low,
            high,
        }
    }

    /// Any legal chain is accepted (the move list gives one per end cell).
    fn check_move(&self, mv: &Move) -> Result<Move, String> {
        movegen::check(self, mv).map(|()| *mv)
    }

    fn move_events(
        &self,
        mv: &Move,
        after: &Self,
        outcome: Option<&Outcome>,
        repetitions: usize,
    ) -> Vec<Event> {
        events::events(self, mv, after, outcome, repetitions)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn repetition(&self) -> Option<Repetition> {
        Some(REPETITION)
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_move(text)
    }

    fn push_move_text(&self, mv: &Move, out: &mut String) {
        notation::push_move_text(mv, out);
    }

    fn move_subject(&self, mv: &Move) -> String {
        format!("the piece on {}", mv.cells()[0].as_str())
    }
}

impl PerfectInformation for AlmaTafl {}

impl Notation for AlmaTafl {
    const POSITION_HELP: &'static str = POSITION_HELP;
    const MOVE_HELP: &'static str = MOVE_HELP;

    fn read(_variant: Variant, text: &str) -> Result<Played<AlmaTafl>, SetupError> {
        let setup = notation::parse_position(text)?;
        setup::validate(&setup)
    }

    fn write(played: &Played<AlmaTafl>) -> String {
        notation::position_text(played.position(), played.history())
    }
}

impl PerfectSearch for AlmaTafl {
    type Evaluation = Evaluation;

    fn searchers() -> &'static [SearcherInfo<Played<AlmaTafl>>] {
        static SEARCHERS: [SearcherInfo<Played<AlmaTafl>>; 2] = standard_searchers::<AlmaTafl>();
        &SEARCHERS
    }
}
