//! Tablut: the 9x9 tafl game, in four variants (`RULES.md` section 1 and "BGA Tablut").
//!
//! [`Player::One`] is black (the attackers, Muscovites, 16 soldiers), [`Player::Two`]
//! is white (the defenders, Swedes: 8 soldiers and the king). Cells are named by a
//! column `a`..`i` (left to right) and a row `1`..`9` (from the top); the throne is `e5`.
//!
//! Variants ([`Variant`]; API names in [`Game::variants`], the first is the default):
//! - `bga`: black first; camps (the 16 black start cells) that nobody enters from
//!   outside; the king escapes on the 20 non-camp edge cells; soldiers are captured
//!   only between two enemy soldiers; the king is unarmed and is captured when his 4
//!   neighbours are black, the throne, camps or off the board; Tuichi.
//! - `bga-corners`: black first; no camps; the corners are escape cells only the king
//!   may enter, and hostile to soldiers; soldiers may pass the empty throne; the king
//!   (unarmed) is captured when his 4 neighbours are black, the throne, corners or off
//!   the board; Tuichi along the edges.
//! - `ashton`: white first; camps (a camp-to-camp move may not reach another group);
//!   nobody passes or lands on the throne once off it; armed king; hostile throne and
//!   camps (except a5 e1 i5 e9 for black soldiers); king captured by 4 on the throne,
//!   3 next to it, 2 (or black + camp) elsewhere; escape on any edge cell; the second
//!   occurrence of a position draws (the start position not counted).
//! - `linnaeus`: black first; no camps; throne as in ashton and hostile to all
//!   soldiers; armed king; escape on the 32 edge cells; king captured by all
//!   neighbours black-or-throne on/next to the throne, by 2 elsewhere; a side with no
//!   move passes, two passes in a row draw.
//!
//! Common: pieces move like rooks and never jump; captures are custodial by the
//! moving piece (several at once; moving between two enemies is safe); bga,
//! bga-corners and linnaeus draw on the third occurrence of a position (board and side
//! to move, start position counted); except in linnaeus a side with no legal move
//! loses. Repetition counts only positions since the last capture.
//!
//! Readings of the rules *(decisions)*:
//! - The king is captured only by a black move that ends next to him (the moving
//!   piece closes the capture), as for soldiers; a king who moves into an enclosure
//!   himself is safe until a black piece moves next to him. A captured king is removed
//!   from the board, so a position without king is a finished game won by black
//!   (white to move).
//! - Tuichi: checked after every move of either side (and on any given position): the
//!   king with two or more clear lines means white wins. After a black move this only
//!   ends at once a game white wins next move anyway (one move cannot close two lines).
//!   Raichi (exactly one clear line after a move) is reported as an event.
//! - Camps (bga, ashton): a piece may land on or pass a camp cell only if it started
//!   the move in a camp of the same group and has not left the camps during the move.
//!   On this board both texts' rules ("once out it never re-enters", "no jump to
//!   another group") allow exactly these moves.
//! - Ashton's escape cells are all edge cells; edge camps cannot be entered and a
//!   corner cannot be reached without passing an escape cell first.
//! - Ashton repetition follows the Tablut Challenge server: the game's start position
//!   (the standard start board, white to move, no history) is not recorded; every
//!   later position is. A capture clears the history in every variant.
//!
//! Position notation: `<board> <side> <history>[ <passes>]`, e.g. the `bga` start
//! `3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -`:
//! - board: rows `1` to `9` separated by `/`, each row from `a` to `i`: `b` black
//!   soldier, `w` white soldier, `k` king, a digit 1-9 for that many empty cells;
//! - side to move: `b` or `w`;
//! - history: the hashes ([`Game::hash`], 16 lowercase hex digits) of the earlier
//!   positions since the last capture that count for repetition, oldest first,
//!   comma separated, or `-` when empty (the current position is not listed);
//! - passes (linnaeus only, always written there, e.g. `p0`): consecutive passes just
//!   made, `p0`..`p2` (`p2` is a drawn game). Other variants omit it (`p0` is accepted).
//!
//! Moves: `e4-b4` (from-to; upper case accepted on input, lower case on output) and
//! `pass` (linnaeus only, legal only when no other move exists).
//!
//! A position ([`Tablut`]) holds the board, the side to move and the pass
//! count; a game in progress is a [`Played<Tablut>`], the position with its
//! repetition history, which is what the notation and [`Setup`] describe.
//!
//! Events ([`Game::move_events`]): `capture` (the captured cells), `king-captured`,
//! `escape`, `tuichi`, `raichi` (the king's cell), `pass`, `repetition` (draw) and
//! `no-moves` (the side to move is stalemated and loses, or a second pass draws).
//!
//! Validation ([`Tablut::from_setup`], [`Notation::read`]) refuses: more than one
//! king, more than 16 black or 8 white soldiers, two pieces on a cell, a soldier on
//! the throne, a soldier on a bga-corners corner, white on a camp (bga, ashton), a
//! pass count other than 0 outside linnaeus or above 2, and a board without king
//! (captured) with black to move. Finished positions (king escaped or captured,
//! Tuichi, repetition, stalemate) are accepted and reported by [`Played::outcome`].

use std::ops::ControlFlow;

use rand::Rng;

use crate::game::{
    Event, Game, NotationError, Outcome, PerfectInformation, Player, Repetition, SetupError,
};
use crate::played::{Notation, Played};
use crate::search::{standard_searchers, PerfectSearch, SearcherInfo, WinCurve};
use bits::Bits;
use cells::SIZE;

mod bits;
mod cells;
mod diagram;
mod eval;
mod movegen;
mod notation;
mod rules;
mod setup;
mod svg;
mod variant;
mod zobrist;

#[cfg(test)]
mod reference;
#[cfg(test)]
pub(crate) mod tests;

pub use cells::Cell;
pub use eval::Evaluation;
pub use setup::Setup;
pub use variant::Variant;

/// A short help on the position notation (for `ListGames`).
pub const POSITION_HELP: &str =
    "9 rows from row 1 (top) to row 9 separated by '/', each from a to i: \
b black soldier, w white soldier, k king, digit = that many empty cells; then the side to move \
(b or w); then the repetition history: - or comma-separated 16-hex-digit hashes of the earlier \
positions since the last capture; linnaeus adds the consecutive pass count (p0..p2). \
bga start: 3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -";

/// A short help on the move notation (for `ListGames`).
pub const MOVE_HELP: &str = "from-to with cell names (columns a-i, rows 1-9 from the top), \
e.g. e4-b4; upper case accepted; linnaeus also has pass when no other move exists";

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A black soldier (attacker).
    Black,
    /// A white soldier (defender).
    White,
    /// The white king.
    King,
}

impl Piece {
    /// The player owning the piece.
    pub fn owner(self) -> Player {
        match self {
            Piece::Black => Player::One,
            Piece::White | Piece::King => Player::Two,
        }
    }

    /// The notation letter: `b`, `w` or `k`.
    pub fn letter(self) -> char {
        match self {
            Piece::Black => 'b',
            Piece::White => 'w',
            Piece::King => 'k',
        }
    }
}

/// A Tablut move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece slides from `from` to `to` along a row or column.
    Step {
        /// The start cell.
        from: Cell,
        /// The destination cell.
        to: Cell,
    },
    /// No move (linnaeus only, when the side has no other legal move).
    Pass,
}

/// A Tablut position: board, side to move and pass count (its repetition
/// history lives beside it, in [`Played`]). The board is kept line by line
/// (see `bits.rs`): black and white soldiers per row, every piece per column,
/// and the king's cell, so that a slide is one table lookup per line and
/// playing a move copies a few dozen bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tablut {
    variant: Variant,
    /// Bit `col` of `black[row]`: a black soldier there.
    black: [u16; SIZE],
    /// Bit `col` of `white[row]`: a white soldier there.
    white: [u16; SIZE],
    /// Bit `row` of `columns[col]`: a piece there.
    columns: [u16; SIZE],
    /// The king's cell index, or [`bits::NONE`] once he is captured.
    king: u8,
    /// Pieces on the board (a capture lowers it: the move cannot be undone).
    count: u8,
    side: Player,
    hash: u64,
    passes: u8,
}

impl Tablut {
    /// Builds a game in progress from structured fields, validating them (see [`Setup`]).
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Played<Tablut>, SetupError> {
        setup::build(variant, setup)
    }

    /// Every piece on the board, in cell index order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        Cell::all().filter_map(|c| self.at(c.index()).map(|p| (c, p)))
    }

    /// The piece on a cell.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.at(cell.index())
    }

    /// The king's cell, or `None` once he has been captured.
    pub fn king(&self) -> Option<Cell> {
        self.king_index().map(Cell::at)
    }

    /// A position from a board (not validated: the caller checks it).
    fn from_board(variant: Variant, board: &[Option<Piece>; 81], side: Player, passes: u8) -> Self {
        let mut pos = Tablut {
            variant,
            black: [0; SIZE],
            white: [0; SIZE],
            columns: [0; SIZE],
            king: bits::NONE,
            count: 0,
            side,
            hash: zobrist::side(side),
            passes,
        };
        for (i, piece) in board.iter().enumerate() {
            if let Some(p) = piece {
                pos.put(i, *p);
            }
        }
        pos
    }

    /// The piece on the cell with index `i`.
    #[inline]
    pub(crate) fn at(&self, i: usize) -> Option<Piece> {
        let (r, c) = (i / SIZE, i % SIZE);
        if self.black[r] >> c & 1 != 0 {
            Some(Piece::Black)
        } else if self.white[r] >> c & 1 != 0 {
            Some(Piece::White)
        } else if usize::from(self.king) == i {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// Whether a black soldier stands on cell `i`.
    #[inline]
    pub(crate) fn is_black(&self, i: usize) -> bool {
        self.black[i / SIZE] >> (i % SIZE) & 1 != 0
    }

    /// Whether a white soldier stands on cell `i`.
    #[inline]
    pub(crate) fn is_white(&self, i: usize) -> bool {
        self.white[i / SIZE] >> (i % SIZE) & 1 != 0
    }

    /// The king's cell index, if he is on the board.
    #[inline]
    pub(crate) fn king_index(&self) -> Option<usize> {
        (self.king != bits::NONE).then_some(usize::from(self.king))
    }

    /// The king's bit in row `r` (0 if he is elsewhere or captured).
    #[inline]
    pub(crate) fn king_in_row(&self, r: usize) -> u16 {
        let k = usize::from(self.king);
        if k / SIZE == r {
            1 << (k % SIZE)
        } else {
            0
        }
    }

    /// The occupied cells of row `r`.
    #[inline]
    pub(crate) fn row(&self, r: usize) -> u16 {
        self.black[r] | self.white[r] | self.king_in_row(r)
    }

    /// The occupied cells of column `c`.
    #[inline]
    pub(crate) fn column(&self, c: usize) -> u16 {
        self.columns[c]
    }

    /// Black soldiers as a set.
    pub(crate) fn black(&self) -> Bits {
        bits::from_rows(&self.black)
    }

    /// White soldiers (not the king) as a set.
    pub(crate) fn white(&self) -> Bits {
        bits::from_rows(&self.white)
    }

    /// Puts `piece` on the empty cell `i`.
    #[inline]
    fn put(&mut self, i: usize, piece: Piece) {
        let (r, c) = (i / SIZE, i % SIZE);
        match piece {
            Piece::Black => self.black[r] |= 1 << c,
            Piece::White => self.white[r] |= 1 << c,
            Piece::King => self.king = i as u8,
        }
        self.columns[c] |= 1 << r;
        self.count += 1;
        self.hash ^= zobrist::piece(i, piece);
    }

    /// Moves `piece` from cell `from` to the empty cell `to`.
    #[inline]
    fn relocate(&mut self, from: usize, to: usize, piece: Piece) {
        let (fr, fc) = (from / SIZE, from % SIZE);
        let (tr, tc) = (to / SIZE, to % SIZE);
        match piece {
            Piece::Black => {
                self.black[fr] &= !(1 << fc);
                self.black[tr] |= 1 << tc;
            }
            Piece::White => {
                self.white[fr] &= !(1 << fc);
                self.white[tr] |= 1 << tc;
            }
            Piece::King => self.king = to as u8,
        }
        self.columns[fc] &= !(1 << fr);
        self.columns[tc] |= 1 << tr;
        self.hash ^= zobrist::piece(from, piece) ^ zobrist::piece(to, piece);
    }

    /// Takes the piece off cell `i`, if any.
    #[inline]
    fn take(&mut self, i: usize) -> Option<Piece> {
        let piece = self.at(i)?;
        let (r, c) = (i / SIZE, i % SIZE);
        match piece {
            Piece::Black => self.black[r] &= !(1 << c),
            Piece::White => self.white[r] &= !(1 << c),
            Piece::King => self.king = bits::NONE,
        }
        self.columns[c] &= !(1 << r);
        self.count -= 1;
        self.hash ^= zobrist::piece(i, piece);
        Some(piece)
    }

    /// Consecutive passes just made (linnaeus; always 0 elsewhere).
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The king's clear lines for Tuichi/Raichi (0 in variants without them).
    pub fn clear_lines(&self) -> u32 {
        rules::clear_lines(self)
    }
}

impl Played<Tablut> {
    /// A terminal drawing: `B` black, `W` white, `K` king; on empty cells `*`
    /// throne, `+` camp, `o` escape cell, `.` other.
    pub fn diagram(&self) -> String {
        diagram::diagram(self.position(), self.outcome())
    }

    /// An SVG picture: the board with its coordinates (columns `a`..`i`, rows
    /// `1`..`9` from the top), the variant's throne, camps and escape cells,
    /// the pieces, and `last_move` (drawn as given) marked from and to.
    pub fn svg(&self, last_move: Option<&Move>) -> String {
        let last = last_move.map(|m| (m, self.move_to_text(m)));
        svg::draw(self.position(), self.outcome().as_ref(), last)
    }

    /// The structured fields of this game in progress (`from_setup` rebuilds it).
    pub fn setup(&self) -> Setup {
        Setup {
            pieces: self.position().pieces().collect(),
            side_to_move: self.side_to_move(),
            history: self.history().to_vec(),
            passes: self.position().passes,
        }
    }
}

/// The API names of the variants, the default first.
static VARIANTS: [(Variant, &str); 4] = [
    (Variant::Bga, "bga"),
    (Variant::BgaCorners, "bga-corners"),
    (Variant::Ashton, "ashton"),
    (Variant::Linnaeus, "linnaeus"),
];

impl Game for Tablut {
    type Move = Move;
    type Variant = Variant;

    const NAME: &'static str = "tablut";

    /// White, the defenders: records read as in any PGN tool.
    const WHITE: Player = Player::Two;

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
            Player::One => "black",
            Player::Two => "white",
        }
    }

    fn decided(&self) -> Option<Outcome> {
        rules::decided(self)
    }

    fn generate<F: FnMut(Move) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        let mut any = false;
        movegen::for_each_step(self, &mut |m| {
            any = true;
            f(m)
        })?;
        if !any && self.variant.rules().stuck_passes {
            return f(Move::Pass);
        }
        ControlFlow::Continue(())
    }

    fn no_moves(&self) -> Outcome {
        Outcome::win(self.side.opponent(), rules::NO_MOVES)
    }

    fn play_unchecked(&self, mv: &Move) -> Self {
        rules::apply(self, *mv)
    }

    fn nth_move(&self, n: usize) -> Option<Move> {
        let step = movegen::nth_step(self, n);
        if step.is_none() && n == 0 && self.variant.rules().stuck_passes {
            return (movegen::count_steps(self) == 0).then_some(Move::Pass);
        }
        step
    }

    fn pick_move(&self, pick: impl FnOnce(usize) -> usize, _: &mut Vec<Move>) -> Option<Move> {
        // A side without steps has the pass alone (linnaeus) or no move.
        let mut pick = Some(pick);
        let step = movegen::pick_step(self, |n| pick.take().map_or(0, |p| p(n)));
        match pick {
            Some(p) if self.variant.rules().stuck_passes => {
                p(1);
                Some(Move::Pass)
            }
            _ => step,
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, _: &mut Vec<Move>) -> Option<Move> {
        match movegen::random_step(self, rng) {
            None if self.variant.rules().stuck_passes => Some(Move::Pass),
            step => step,
        }
    }

    fn count_moves(&self) -> usize {
        let steps = movegen::count_steps(self);
        if steps == 0 && self.variant.rules().stuck_passes {
            1
        } else {
            steps
        }
    }

    fn move_events(
        &self,
        mv: &Move,
        after: &Self,
        outcome: Option<&Outcome>,
        _repetitions: usize,
    ) -> Vec<Event> {
        rules::events(self, mv, after, outcome)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn repetition(&self) -> Option<Repetition> {
        Some(Repetition {
            draw_at: self.variant.rules().repetition_draw_at,
            reason: rules::REPETITION,
        })
    }

    fn recorded(&self, history_empty: bool) -> bool {
        rules::recorded(self, history_empty)
    }

    fn irreversible(&self, after: &Self) -> bool {
        after.count < self.count
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_move(self.variant, text)
    }

    fn push_move_text(&self, mv: &Move, out: &mut String) {
        notation::push_move_text(mv, out);
    }

    fn move_subject(&self, mv: &Move) -> String {
        match mv {
            Move::Step { from, .. } => format!("the piece on {}", from.as_str()),
            Move::Pass => "a pass".to_string(),
        }
    }
}

impl PerfectInformation for Tablut {}

impl Notation for Tablut {
    const POSITION_HELP: &'static str = POSITION_HELP;
    const MOVE_HELP: &'static str = MOVE_HELP;

    fn read(variant: Variant, text: &str) -> Result<Played<Tablut>, SetupError> {
        let setup = notation::parse_position(variant, text)?;
        Tablut::from_setup(variant, &setup)
    }

    fn write(played: &Played<Tablut>) -> String {
        notation::write_position(played)
    }
}

impl PerfectSearch for Tablut {
    type Evaluation = Evaluation;

    fn searchers() -> &'static [SearcherInfo<Played<Tablut>>] {
        static SEARCHERS: [SearcherInfo<Played<Tablut>>; 2] = standard_searchers::<Tablut>();
        &SEARCHERS
    }

    fn win_curve(&self) -> WinCurve {
        eval::win_curve(self.variant)
    }
}
