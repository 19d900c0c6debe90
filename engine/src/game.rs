//! The [`Game`] abstraction shared by every game, the searchers and the service.
//!
//! A position is an immutable value: it is built only through validation
//! ([`Game::from_notation`] or a game's own `from_setup`), and playing a move
//! returns a new position or a [`PlayError`] that hands the old one back.

use std::fmt;
use std::hash::Hash;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

/// One of the two players. Each game documents which side is which
/// (for Tablut `One` = black attackers, `Two` = white defenders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player of the game's documentation.
    One,
    /// The second player of the game's documentation.
    Two,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for `One`, 1 for `Two`: handy for indexing per-player arrays.
    pub fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }
}

/// Who won a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The given player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// The end of a game: the result and why it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// A short, stable reason such as `"king escaped"` or `"threefold repetition"`.
    pub reason: &'static str,
}

impl Outcome {
    /// A win for `player` for the given reason.
    pub fn win(player: Player, reason: &'static str) -> Self {
        Outcome {
            result: GameResult::Win(player),
            reason,
        }
    }

    /// A draw for the given reason.
    pub fn draw(reason: &'static str) -> Self {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }
}

/// Something that happened while a move was played, reported by `Apply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// A stable machine-readable kind: `capture`, `escape`, `raichi`, `tuichi`,
    /// `king-captured`, `bounce`, `claim`, `draw-card`, `repetition`, ...
    pub kind: &'static str,
    /// Cells (or stones) concerned, in the game's own names.
    pub cells: Vec<String>,
    /// A human sentence.
    pub text: String,
}

/// A position (or move) text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// What is wrong, naming the offending part of the text.
    pub message: String,
}

impl NotationError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        NotationError {
            message: message.into(),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NotationError {}

/// A position that the rules cannot produce or continue from. Lists every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// One sentence per problem (never empty).
    pub problems: Vec<String>,
}

impl SetupError {
    /// Ok if `problems` is empty, else an error listing them.
    pub fn check(problems: Vec<String>) -> Result<(), SetupError> {
        if problems.is_empty() {
            Ok(())
        } else {
            Err(SetupError { problems })
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position: {}", self.problems.join("; "))
    }
}

impl std::error::Error for SetupError {}

impl From<NotationError> for SetupError {
    fn from(e: NotationError) -> Self {
        SetupError {
            problems: vec![e.message],
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over; no move may be played.
    GameOver(Outcome),
    /// The move is well formed but not legal here; the message says why.
    Illegal(String),
    /// The move text could not be read.
    Notation(NotationError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver(o) => write!(f, "the game is over ({})", o.reason),
            MoveError::Illegal(why) => write!(f, "illegal move: {why}"),
            MoveError::Notation(e) => write!(f, "bad move notation: {e}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<NotationError> for MoveError {
    fn from(e: NotationError) -> Self {
        MoveError::Notation(e)
    }
}

/// A refused move: the error and the untouched position handed back.
#[derive(Clone, Debug)]
pub struct PlayError<G> {
    /// Why the move was refused.
    pub error: MoveError,
    /// The position the move was tried on, unchanged.
    pub position: G,
}

impl<G> fmt::Display for PlayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl<G: fmt::Debug> std::error::Error for PlayError<G> {}

/// A two-player game position with perfect information (or a referee's full
/// state of a game with hidden information, whose chance is fixed by the state).
///
/// Implementors keep positions valid by construction: every public way of
/// building one validates it.
pub trait Game: Clone + fmt::Debug + Send + Sync + Sized + 'static {
    /// One whole turn (a chain of hops is one move).
    type Move: Clone + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// The rule presets of the game.
    type Variant: Copy + fmt::Debug + PartialEq + Eq + Send + Sync + 'static;

    /// The game's id in the API, e.g. `"tablut"`.
    const NAME: &'static str;

    /// Every variant with its API name (the first is the default).
    fn variants() -> &'static [(Self::Variant, &'static str)];

    /// The variant of this position.
    fn variant(&self) -> Self::Variant;

    /// The start position of a variant; `seed` fixes any chance (shuffles).
    fn start(variant: Self::Variant, seed: u64) -> Self;

    /// Reads a position in the game's text notation, validating it.
    fn from_notation(variant: Self::Variant, text: &str) -> Result<Self, SetupError>;

    /// Writes the position's text notation; `from_notation` reads it back to an equal position.
    fn to_notation(&self) -> String;

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// The game's name for a player, e.g. `"black"` or `"invaders"`.
    fn player_name(player: Player) -> &'static str;

    /// Calls `f` with each legal move until it breaks; returns whether it broke.
    /// Generates nothing when the game is over.
    fn for_each_move(&self, f: &mut dyn FnMut(Self::Move) -> ControlFlow<()>) -> ControlFlow<()>;

    /// Appends every legal move to `out` (the caller's buffer, not cleared).
    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        let _ = self.for_each_move(&mut |m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Plays a move produced by this position's move generator, without checking it.
    /// Must not be called with any other move; use [`Game::play`] for input.
    fn play_unchecked(&self, mv: &Self::Move) -> Self;

    /// Plays a move after checking it is legal: the new position, or the error
    /// with this position handed back.
    fn play(self, mv: &Self::Move) -> Result<Self, PlayError<Self>> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError {
                error: MoveError::GameOver(outcome),
                position: self,
            });
        }
        let legal = self
            .for_each_move(&mut |m| {
                if &m == mv {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .is_break();
        if legal {
            Ok(self.play_unchecked(mv))
        } else {
            let text = self.move_to_text(mv);
            Err(PlayError {
                error: MoveError::Illegal(format!("{text} is not a legal move here")),
                position: self,
            })
        }
    }

    /// What a legal move does, for reporting (captures, escapes, announcements).
    fn move_events(&self, _mv: &Self::Move, _after: &Self) -> Vec<Event> {
        Vec::new()
    }

    /// The end of the game, if it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A hash of everything that identifies the position for repetition and
    /// transposition (board and side to move).
    fn hash(&self) -> u64;

    /// Static evaluation in centi-units from the side to move's view
    /// (positive: good for the side to move). Need not handle finished games.
    fn evaluate(&self) -> i32;

    /// Reads a move in the game's text notation (syntax only; legality is
    /// checked by [`Game::play`]).
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;

    /// Writes a move in the game's text notation.
    fn move_to_text(&self, mv: &Self::Move) -> String;

    /// Appends the text of a move to `out` (the same text as
    /// [`Game::move_to_text`]; games override it to write without allocating).
    fn push_move_text(&self, mv: &Self::Move, out: &mut String) {
        out.push_str(&self.move_to_text(mv));
    }

    /// A terminal drawing of the position for humans.
    fn diagram(&self) -> String;
}

/// Looks a variant up by its API name (case-insensitive); `""` means the default.
pub fn variant_by_name<G: Game>(name: &str) -> Option<G::Variant> {
    let variants = G::variants();
    if name.is_empty() {
        return variants.first().map(|(v, _)| *v);
    }
    variants
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|(v, _)| *v)
}

/// The API name of a variant.
pub fn variant_name<G: Game>(variant: G::Variant) -> &'static str {
    G::variants()
        .iter()
        .find(|(v, _)| *v == variant)
        .map(|(_, n)| *n)
        .unwrap_or("")
}

/// Counts leaf nodes `depth` plies down (perft), for testing move generators.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false)).expect("a flag nobody sets never stops")
}

/// [`perft`] that gives up (`None`) once `stop` is set; the flag is read at
/// every node above the last ply, so it stops within one node's move generation.
pub fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    moves.iter().try_fold(0, |sum, m| {
        Some(sum + perft_until(&pos.play_unchecked(m), depth - 1, stop)?)
    })
}
