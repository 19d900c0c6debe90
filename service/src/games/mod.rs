//! The games the service plays: one [`Adapter`] per game, translating its
//! `caber.v1` messages to the engine's typed position and move and back, and
//! the [`registry`] listing them, one line each.
//!
//! Handlers look a request's game up once ([`game_of`], [`game_named`]) and
//! get a [`ServedGame`]: the RPCs of one adapter ([`Served`]), typed from the request
//! to the reply. A new game is its adapter module and its line in
//! [`registry`]; the compiler asks for every part of the adapter.

mod almatafl;
mod schotten_totten;
mod tablut;
mod tartan;
mod typed;

use caber_engine::quote;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use caber_engine::playouts::Playouts;

use caber_engine::catalog::{ByName, GameInfo};
use caber_engine::playable::PerftError;
use caber_engine::record::GameRecord;
use caber_engine::review::Tallies;
use caber_engine::search::{Limits, Searchable};
use caber_engine::Player;
use tonic::Status;

use crate::convert::Odds;
use crate::errors;
use crate::kept_tables::{KeptTables, Places};
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;
use crate::search_runner::SearchJob;

pub use typed::Served;

/// A game's translation between `caber.v1` and the engine.
pub trait Adapter: Send + Sync + 'static {
    /// The engine's position of the game, as requests carry it (its start
    /// and its text notation read by the engine, [`ByName`]).
    type Position: Searchable + ByName;
    /// The game's structured position message.
    type PositionMessage;
    /// The game's structured move message.
    type MoveMessage;

    /// The game's field in the `Position.state` and `Move.kind` oneofs
    /// (`"tablut"`): errors about structured input name it.
    const FIELD: &'static str;
    /// The game's name with its article, for errors: `"a Tablut"`.
    const A_NAME: &'static str;

    /// What `ListGames` tells about the game.
    fn info() -> GameInfo;

    /// The game's message in a position's state, if the state is of this game.
    fn position_message(state: &State) -> Option<&Self::PositionMessage>;

    /// Reads a structured position; errors name the field (`position.tablut...`).
    fn read_message(
        variant: &str,
        message: &Self::PositionMessage,
    ) -> Result<Self::Position, Status>;

    /// The structured form of a position.
    fn write_message(position: &Self::Position) -> State;

    /// The game's message in a move, if the move is of this game.
    fn move_message(kind: &Kind) -> Option<&Self::MoveMessage>;

    /// Reads a structured move for `position` (syntax only; legality is
    /// checked when it is played); errors name the field (`move.tablut...`).
    fn read_move(
        position: &Self::Position,
        message: &Self::MoveMessage,
    ) -> Result<<Self::Position as caber_engine::playable::Playable>::Move, Status>;

    /// The structured form of a move.
    fn write_move(mv: &<Self::Position as caber_engine::playable::Playable>::Move) -> Kind;

    /// The game's store of kept searchers.
    fn kept(all: &KeptSearchers) -> &KeptTables<KeptSearcher<Self>>
    where
        Self: Sized;

    /// A terminal drawing of a position.
    fn diagram(position: &Self::Position) -> String;

    /// An SVG drawing of a position, `last_move` (the move that led to it) marked.
    fn svg(
        position: &Self::Position,
        last_move: Option<&<Self::Position as caber_engine::playable::Playable>::Move>,
    ) -> String;

    /// Whether players do not see everything: then [`Adapter::view`],
    /// [`Adapter::drawn`] and [`Adapter::unseen`] say what each knows.
    const HIDDEN_INFORMATION: bool = false;

    /// What `player` (`None`: the side to move) knows of a referee's state,
    /// for games with hidden information.
    fn view(_position: &Self::Position, _player: Option<Player>) -> Result<Self::Position, Status> {
        Err(Status::invalid_argument(format!(
            "position: {} has no hidden information: a position is its own view",
            Self::info().name
        )))
    }

    /// The cards the mover of `before` drew to reach `after`, when only it
    /// may know them (a referee's states; nothing from a player's view).
    fn drawn(_before: &Self::Position, _after: &Self::Position) -> Vec<String> {
        Vec::new()
    }

    /// The cards a player's view does not show where they are (in a hand
    /// or a deck): a search of the view deals them at random.
    fn unseen(_position: &Self::Position) -> Vec<String> {
        Vec::new()
    }
}

/// A game's searcher as its store keeps it.
pub type KeptSearcher<A> =
    Box<dyn caber_engine::search::Searcher<<<A as Adapter>::Position as Searchable>::Root>>;

/// The searchers kept between calls (see [`crate::kept_tables`]): one
/// typed store per game, which its adapter reaches ([`Adapter::kept`]), all
/// sharing one bound.
pub struct KeptSearchers {
    places: Arc<Places>,
    tablut: KeptTables<KeptSearcher<tablut::Tablut>>,
    almatafl: KeptTables<KeptSearcher<almatafl::AlmaTafl>>,
    schotten_totten: KeptTables<KeptSearcher<schotten_totten::SchottenTotten>>,
    tartan: KeptTables<KeptSearcher<tartan::Tartan>>,
}

impl KeptSearchers {
    /// Stores keeping at most `max` searchers over all games (0: none).
    pub fn new(max: usize) -> Self {
        let places = Places::new(max);
        KeptSearchers {
            tablut: KeptTables::new(places.clone()),
            almatafl: KeptTables::new(places.clone()),
            schotten_totten: KeptTables::new(places.clone()),
            tartan: KeptTables::new(places.clone()),
            places,
        }
    }

    /// Drops every searcher kept for `connection` (it closed).
    pub fn drop_connection(&self, connection: u64) {
        self.tablut.drop_connection(connection);
        self.almatafl.drop_connection(connection);
        self.schotten_totten.drop_connection(connection);
        self.tartan.drop_connection(connection);
    }

    /// The searchers kept, over every game.
    pub fn len(&self) -> usize {
        self.places.used()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::fmt::Debug for KeptSearchers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptSearchers")
            .field("places", &self.places)
            .finish_non_exhaustive()
    }
}

/// Where a search's searcher is kept between calls: the stores and its
/// owner (the client's connection and the name it chose).
pub struct KeptTable {
    /// The kept searchers.
    pub tables: Arc<KeptSearchers>,
    /// The client's connection (`None` in process).
    pub connection: Option<u64>,
    /// The name the client chose.
    pub name: String,
}

/// The searcher a request names (empty: the game's default) and the
/// evaluation weights it sets (`Limits.weights`, sorted by name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearcherChoice {
    /// The searcher's name.
    pub name: String,
    /// Weights (name, value) in place of the defaults.
    pub weights: Vec<(String, i32)>,
}

impl SearcherChoice {
    /// The searcher a request names and the weights its limits set.
    pub fn of(name: &str, limits: Option<&proto::Limits>) -> Self {
        let mut weights: Vec<(String, i32)> = limits
            .map(|l| l.weights.iter().map(|(k, v)| (k.clone(), *v)).collect())
            .unwrap_or_default();
        weights.sort();
        SearcherChoice {
            name: name.to_string(),
            weights,
        }
    }
}

/// A perft count ready to run off the async runtime: per legal move (text)
/// with `divide`, else one total under an empty name.
pub type PerftJob =
    Box<dyn FnOnce(&AtomicBool) -> Result<Vec<(String, u64)>, PerftError> + Send + 'static>;

/// Random games ready to run off the async runtime, stopped between two
/// games once the flag is set.
pub type PlayoutsJob = Box<dyn FnOnce(&AtomicBool) -> Playouts + Send + 'static>;

/// A review ready to run off the async runtime: `limits(n)` gives the limits
/// of each search (`n`: at most how many may still come), every reviewed
/// move goes to `each` (false stops the review), and both players' tallies
/// come back, or `None` if it was stopped.
pub type ReviewJob = Box<
    dyn FnOnce(
            &mut dyn FnMut(u32) -> Limits,
            &AtomicBool,
            &mut dyn FnMut(proto::MoveReview) -> bool,
        ) -> Option<Tallies>
        + Send
        + 'static,
>;

/// A game record replayed (every move checked), ready for review.
pub struct Reviewing {
    /// The positions of the game, from the start to the end.
    pub positions: usize,
    /// The last position.
    pub last: proto::PositionReport,
    /// The review itself.
    pub job: ReviewJob,
}

/// An exact search for a forced win ready to run off the async runtime:
/// the `Solve` reply (`win_in` 0 when there is none), or `None` if stopped.
pub type SolveJob = Box<dyn FnOnce(&AtomicBool) -> Option<proto::SolveResponse> + Send + 'static>;

/// The RPCs of one game, typed inside (see [`Served`]).
pub trait ServedGame: Send + Sync {
    /// The game's id.
    fn name(&self) -> &'static str;
    /// The game's field in the oneofs and its name for errors (see [`Adapter`]).
    fn field(&self) -> (&'static str, &'static str);
    /// Whether a position's state is this game's structured message.
    fn owns_state(&self, state: &State) -> bool;
    /// Whether a move is this game's structured message.
    fn owns_move(&self, kind: &Kind) -> bool;
    /// What `ListGames` tells about the game.
    fn info(&self) -> proto::GameInfo;
    /// `NewGame`.
    fn new_game(&self, variant: &str, seed: u64) -> Result<proto::PositionReport, Status>;
    /// `Playouts`: seeded uniformly random games from a position whose moves
    /// are all known, to run for `budget` (the engine's speed as a playout
    /// sees it).
    fn playouts(
        &self,
        position: &proto::Position,
        budget: Duration,
        seed: u64,
    ) -> Result<PlayoutsJob, Status>;
    /// `LegalMoves` of a position.
    fn legal_moves(
        &self,
        position: &proto::Position,
        include_position: bool,
    ) -> Result<proto::LegalMovesResponse, Status>;
    /// `Apply`.
    fn apply(
        &self,
        position: &proto::Position,
        mv: Option<&proto::Move>,
    ) -> Result<proto::ApplyResponse, Status>;
    /// The static evaluation of a position that is not over, with the
    /// default searcher's evaluation and these weights.
    fn evaluate(
        &self,
        position: &proto::Position,
        weights: &[(String, i32)],
    ) -> Result<proto::Score, Status>;
    /// A search of a position that is not over, with the chosen searcher,
    /// refused if `limits` asks for what it cannot bound or it does not take
    /// the weights.
    /// `search_moves` (texts, each checked legal) restricts its root; with
    /// `kept`, a searcher that has a table is taken from and given back to
    /// the kept ones (see [`crate::kept_tables`]).
    fn search(
        &self,
        position: &proto::Position,
        searcher: &SearcherChoice,
        limits: Option<&Limits>,
        search_moves: &[String],
        kept: Option<KeptTable>,
    ) -> Result<SearchJob, Status>;
    /// A game record replayed in this game (its `Game` tag already looked
    /// up), with the chosen searcher checked as [`ServedGame::search`] checks it.
    fn review(
        &self,
        record: &GameRecord,
        searcher: &SearcherChoice,
        limits: Option<&Limits>,
    ) -> Result<Reviewing, Status>;
    /// `Replay`: a record replayed, every move checked.
    fn replay(&self, record: &GameRecord) -> Result<proto::ReplayResponse, Status>;
    /// A perft count below a position.
    fn perft(
        &self,
        position: &proto::Position,
        depth: u32,
        divide: bool,
    ) -> Result<PerftJob, Status>;
    /// `Solve`: the shortest forced win within `max_moves` of a position
    /// whose moves are all known (not a player's view).
    fn solve(&self, position: &proto::Position, max_moves: u32) -> Result<SolveJob, Status>;
    /// `Render`: an SVG drawing of a position, `last_move` (text; `""`:
    /// none) marked.
    fn render(&self, position: &proto::Position, last_move: &str) -> Result<String, Status>;
    /// `View`: a player's view of a full state.
    fn view(
        &self,
        position: &proto::Position,
        player: Option<Player>,
    ) -> Result<proto::PositionReport, Status>;
    /// The cards a search of a position deals at random (see [`Adapter::unseen`]).
    fn unseen(&self, position: &proto::Position) -> Result<Vec<String>, Status>;
    /// How the scores of a search of a position read as win probabilities
    /// (its side to move's view).
    fn odds(&self, position: &proto::Position) -> Result<Odds, Status>;
}

/// The most moves a record may hold (`Review`, `Replay`).
pub const MAX_RECORD_MOVES: usize = 2000;

/// Reads a request's game record (field `record`) and finds its game by the
/// `Game` tag; errors name the record's line or tag.
pub fn read_record(text: &str) -> Result<(&'static dyn ServedGame, GameRecord), Status> {
    let record =
        GameRecord::parse(text).map_err(|e| Status::invalid_argument(format!("record: {e}")))?;
    if record.moves.len() > MAX_RECORD_MOVES {
        return Err(Status::invalid_argument(format!(
            "record: {} moves; at most {MAX_RECORD_MOVES} are taken",
            record.moves.len()
        )));
    }
    let game = game_named(record.game(), "record: the Game tag")?;
    Ok((game, record))
}

/// Every game, in `ListGames` order: one line each.
pub fn registry() -> &'static [&'static dyn ServedGame] {
    &[
        &Served::<tablut::Tablut>::NEW,
        &Served::<almatafl::AlmaTafl>::NEW,
        &Served::<schotten_totten::SchottenTotten>::NEW,
        &Served::<tartan::Tartan>::NEW,
    ]
}

/// The game named `name` (case-insensitive); `field` names the request field for errors.
pub fn game_named(name: &str, field: &str) -> Result<&'static dyn ServedGame, Status> {
    if name.trim().is_empty() {
        return Err(errors::missing(field));
    }
    registry()
        .iter()
        .copied()
        .find(|g| g.name().eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| {
            let known: Vec<&str> = registry().iter().map(|g| g.name()).collect();
            Status::invalid_argument(format!(
                "{field}: unknown game {} (known: {})",
                quote(name),
                known.join(", ")
            ))
        })
}

/// A request's position and its game: by its `game` field, or by its
/// structured state when the field is empty; a structured state of another
/// game is refused.
pub fn game_of(
    message: Option<&proto::Position>,
) -> Result<(&'static dyn ServedGame, &proto::Position), Status> {
    let message = message.ok_or_else(|| errors::missing("position"))?;
    let owner = message
        .state
        .as_ref()
        .and_then(|s| registry().iter().copied().find(|g| g.owns_state(s)));
    let game = match owner {
        Some(owner) if message.game.trim().is_empty() => owner,
        _ => game_named(&message.game, "position.game")?,
    };
    if let Some(owner) = owner.filter(|o| o.name() != game.name()) {
        let (field, a_name) = owner.field();
        return Err(Status::invalid_argument(format!(
            "position.{field}: {a_name} position given for game {}",
            quote(&message.game)
        )));
    }
    Ok((game, message))
}

/// The game whose structured move `kind` is, if it is one.
fn move_owner(kind: &Kind) -> Option<&'static dyn ServedGame> {
    registry().iter().copied().find(|g| g.owns_move(kind))
}
