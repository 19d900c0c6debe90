//! The rules of a game ([`Game`]) and the values every game shares: players,
//! outcomes, events and errors.
//!
//! A position is an immutable value built only through validation (a game's
//! `from_setup` or its notation); playing a move returns a new position. A
//! position holds what the rules need to continue except the repetition
//! history, which lives beside it: in [`crate::Played`] for a game in progress
//! and in [`crate::History`] along a searcher's path, so that playing a move
//! copies a small value and allocates nothing.

use std::fmt;
use std::hash::Hash;
use std::ops::ControlFlow;

use rand::Rng;

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

impl GameResult {
    /// `player`'s share of the result: 1 for a win, 0.5 for a draw, 0 for a
    /// loss (what the tree searches back up, and a finished game's win
    /// probability).
    pub fn reward(self, player: Player) -> f64 {
        match self {
            GameResult::Win(winner) if winner == player => 1.0,
            GameResult::Win(_) => 0.0,
            GameResult::Draw => 0.5,
        }
    }
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

impl SetupError {
    /// The most problems [`Display`](fmt::Display) lists; it counts the rest.
    pub const LISTED: usize = 8;
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let listed = &self.problems[..self.problems.len().min(Self::LISTED)];
        write!(f, "invalid position: {}", listed.join("; "))?;
        match self.problems.len() - listed.len() {
            0 => Ok(()),
            1 => write!(f, "; and 1 more problem"),
            more => write!(f, "; and {more} more problems"),
        }
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

/// A game's repetition rule: the `draw_at`-th occurrence of a position (the
/// same [`Game::hash`]) is a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The occurrence that draws (2: the second, 3: the third).
    pub draw_at: u8,
    /// The outcome's reason, e.g. `"threefold repetition"`.
    pub reason: &'static str,
}

/// Reads a position's hash as histories write it: exactly 16 hex digits.
pub fn parse_hash(text: &str) -> Option<u64> {
    if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(text, 16).ok()
}

impl Repetition {
    /// A history from (hash, occurrences) pairs, each count cut at the
    /// occurrence that draws: past it [`Repetition::history_problems`] has
    /// nothing more to say, and a huge count allocates nothing.
    pub fn history_from_counts(&self, counts: impl IntoIterator<Item = (u64, usize)>) -> Vec<u64> {
        let most = usize::from(self.draw_at);
        counts
            .into_iter()
            .flat_map(|(hash, n)| std::iter::repeat_n(hash, n.min(most)))
            .collect()
    }

    /// The end of the game at a position that occurred `earlier` times
    /// before (its repetition history's count of it), if this is the
    /// occurrence that draws.
    pub fn ends(&self, earlier: usize) -> Option<Outcome> {
        (earlier + 1 >= usize::from(self.draw_at)).then(|| Outcome::draw(self.reason))
    }

    /// What is impossible in a repetition history: a position that occurs
    /// `draw_at` times or more, after whose last occurrence the game would
    /// have ended (one problem per such position, in hash order).
    pub fn history_problems(&self, history: &[u64]) -> Vec<String> {
        let mut sorted = history.to_vec();
        sorted.sort_unstable();
        let mut problems = Vec::new();
        for run in sorted.chunk_by(|a, b| a == b) {
            if run.len() >= usize::from(self.draw_at) {
                let nth = match self.draw_at {
                    2 => "second",
                    3 => "third",
                    _ => "last allowed",
                };
                problems.push(format!(
                    "position {:016x} occurs {} times in the history; the game ends at the {nth}",
                    run[0],
                    run.len()
                ));
            }
        }
        problems
    }
}

/// The rules of a two-player game, on positions without their repetition
/// history (see the module documentation).
///
/// Move generation runs only on positions that are not over: a caller first
/// asks [`Game::decided`] (and the repetition rule), then generates, and an
/// empty generation means [`Game::no_moves`]. [`crate::Played`] and
/// [`crate::History::turn`] do this in one pass.
pub trait Game: Clone + fmt::Debug + Send + Sync + Sized + 'static {
    /// One whole turn (a chain of hops is one move).
    type Move: Copy + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// The rule presets of the game.
    type Variant: Copy + fmt::Debug + PartialEq + Eq + Send + Sync + 'static;

    /// The game's id in the API, e.g. `"tablut"`.
    const NAME: &'static str;

    /// Whether the start position depends on a seed (a shuffled deal).
    const CHANCE: bool = false;

    /// The side PGN's White stands for in a record's `Result` and
    /// evaluations, and whose view review charts take
    /// (docs/RECORDS.md): the player the game calls white, else the first
    /// listed ([`Player::One`]).
    const WHITE: Player = Player::One;

    /// Every variant with its API name (the first is the default).
    fn variants() -> &'static [(Self::Variant, &'static str)];

    /// The variant of this position.
    fn variant(&self) -> Self::Variant;

    /// The start position of a variant; `seed` fixes any chance (shuffles).
    fn start(variant: Self::Variant, seed: u64) -> Self;

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// The game's name for a player, e.g. `"black"` or `"invaders"`.
    fn player_name(player: Player) -> &'static str;

    /// The end of the game as the position alone decides it (a king escaped
    /// or captured, ...), without generating moves and without the repetition rule.
    fn decided(&self) -> Option<Outcome>;

    /// Calls `f` with each legal move until it breaks; returns whether it
    /// broke. Only for positions that are not over: it does not look at
    /// [`Game::decided`] nor at the repetition rule.
    fn generate<F: FnMut(Self::Move) -> ControlFlow<()>>(&self, f: F) -> ControlFlow<()>;

    /// How many moves [`Game::generate`] gives (same preconditions). Games
    /// that can count without listing override it: perft's last ply and a
    /// uniform random choice need only the count.
    fn count_moves(&self) -> usize {
        let mut n = 0;
        let _ = self.generate(|_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// The move [`Game::generate`] gives at index `n` (from 0), or `None` past
    /// the last (same preconditions).
    fn nth_move(&self, n: usize) -> Option<Self::Move> {
        let mut found = None;
        let mut i = 0;
        let _ = self.generate(|m| {
            if i == n {
                found = Some(m);
                ControlFlow::Break(())
            } else {
                i += 1;
                ControlFlow::Continue(())
            }
        });
        found
    }

    /// The move [`Game::generate`] gives at the index `pick` returns when
    /// given the number of moves (at least 1), or `None` without moves
    /// (`pick` not called). Same preconditions. The default lists the moves
    /// into `moves` (scratch space); games that can count and find without
    /// listing override it.
    fn pick_move(
        &self,
        pick: impl FnOnce(usize) -> usize,
        moves: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        moves.clear();
        let _ = self.generate(|m| {
            moves.push(m);
            ControlFlow::Continue(())
        });
        match moves.len() {
            0 => None,
            n => moves.get(pick(n)).copied(),
        }
    }

    /// A uniformly random move, or `None` without moves (same
    /// preconditions): every move [`Game::generate`] gives exactly as
    /// likely. The default draws one index by [`Game::pick_move`]; games
    /// that can draw faster otherwise (by rejection, say) override it, the
    /// distribution kept exactly uniform. Random playouts draw this way.
    fn random_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        moves: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.pick_move(|n| rng.random_range(0..n), moves)
    }

    /// The end of the game when the side to move has no legal move (and the
    /// game is not otherwise over).
    fn no_moves(&self) -> Outcome;

    /// Plays a move produced by this position's move generator, without
    /// checking it. Must not be called with any other move.
    fn play_unchecked(&self, mv: &Self::Move) -> Self;

    /// Checks a move given from outside on a position that is not over: the
    /// move to play (the game's normal form of it), or why it is illegal. The
    /// default looks the move up in the generator's list.
    fn check_move(&self, mv: &Self::Move) -> Result<Self::Move, String> {
        let listed = self
            .generate(|m| {
                if &m == mv {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .is_break();
        if listed {
            Ok(*mv)
        } else {
            Err(format!(
                "{} is not a legal move here",
                self.move_to_text(mv)
            ))
        }
    }

    /// What a puzzle whose solution begins with a move is about, from that
    /// move's events (a puzzle's themes): by default the events' kinds, each
    /// once.
    fn themes(events: &[Event]) -> Vec<&'static str> {
        let mut kinds = Vec::new();
        for e in events {
            if !kinds.contains(&e.kind) {
                kinds.push(e.kind);
            }
        }
        kinds
    }

    /// What a legal move does, for reporting (captures, escapes,
    /// announcements); `outcome` is the end of the game it led to, if any,
    /// and `repetitions` how often `after` occurred before.
    fn move_events(
        &self,
        _mv: &Self::Move,
        _after: &Self,
        _outcome: Option<&Outcome>,
        _repetitions: usize,
    ) -> Vec<Event> {
        Vec::new()
    }

    /// A hash of everything that identifies the position for repetition and
    /// transposition (board and side to move).
    fn hash(&self) -> u64;

    /// The repetition rule of this position's variant, if it has one.
    fn repetition(&self) -> Option<Repetition> {
        None
    }

    /// Whether this position is recorded in the repetition history when a
    /// move is played from it; `history_empty` says whether the history (since
    /// its last reset) holds nothing yet. Every position of a game with a
    /// repetition rule is, except where a variant says otherwise (Ashton: the
    /// game's start position); none of a game without one.
    fn recorded(&self, _history_empty: bool) -> bool {
        self.repetition().is_some()
    }

    /// Whether the move from this position to `after` can never be undone (a
    /// capture): no position before it can occur again, so the repetition
    /// history restarts empty after it.
    fn irreversible(&self, _after: &Self) -> bool {
        false
    }

    /// Reads a move in the game's text notation (syntax only; legality is
    /// checked when it is played).
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;

    /// Appends the text of a move to `out`.
    fn push_move_text(&self, mv: &Self::Move, out: &mut String);

    /// What a move moves or plays, without the whole move (a puzzle's hint):
    /// e.g. `the piece on d1`, `the card Y4`.
    fn move_subject(&self, mv: &Self::Move) -> String;

    /// The text of a move.
    fn move_to_text(&self, mv: &Self::Move) -> String {
        let mut text = String::new();
        self.push_move_text(mv, &mut text);
        text
    }
}

/// A game without hidden information: a position is everything each player
/// knows, so the perfect-information searchers may search it. A referee's
/// full state of a card game is a [`Game`] but not this.
pub trait PerfectInformation: Game {}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// A hash is exactly 16 hex digits, any case; nothing shorter, longer,
    /// signed or spaced.
    #[test]
    fn hashes_are_sixteen_hex_digits() {
        assert_eq!(parse_hash("00000000000000ff"), Some(255));
        assert_eq!(parse_hash("FFFFFFFFFFFFFFFF"), Some(u64::MAX));
        for bad in [
            "ff",
            "+00000000000000f",
            "000000000000000ff",
            " 00000000000000f",
            "g000000000000000",
            "",
        ] {
            assert_eq!(parse_hash(bad), None, "{bad:?}");
        }
    }

    /// Counts are expanded and cut at the occurrence that draws.
    #[test]
    fn histories_from_counts_stop_at_the_drawing_occurrence() {
        let threefold = Repetition {
            draw_at: 3,
            reason: "threefold repetition",
        };
        assert_eq!(
            threefold.history_from_counts([(7, 2), (9, 1), (5, u32::MAX as usize)]),
            [7, 7, 9, 5, 5, 5]
        );
        assert_eq!(threefold.history_problems(&[7, 7, 9, 5, 5, 5]).len(), 1);
    }
}
