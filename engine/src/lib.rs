//! Caber's engine: exact rules for every game, and searchers over them.
//!
//! - [`game`]: the rules trait [`Game`] and the values every game shares;
//!   [`played`]: a game in progress ([`Played`], a position with its repetition
//!   history) and its text notation; [`history`]: the repetition history
//!   along a searcher's path.
//! - [`eval`]: evaluators, apart from the rules; [`information`]: what one
//!   player knows of a game with hidden information.
//! - [`search`]: the searchers behind one [`search::Searcher`] trait;
//!   [`solve`]: exact forced wins (puzzles); [`record`]: game records;
//!   [`review`]: judging a game's moves by the win probability they lost;
//!   [`mod@matches`]: refereed games between players.
//! - [`playable`]: a position as clients use it; [`catalog`]: metadata for listing;
//!   [`mod@quote`]: client text as error messages repeat it (escaped, bounded).
//! - [`svg`]: the SVG diagrams' document builder, colours and board geometry.
//! - One module tree per game: [`tablut`], [`almatafl`], [`schotten_totten`],
//!   [`tartan`].
//!
//! No networking, protobuf or CLI code lives here.

pub mod catalog;
pub mod eval;
pub mod game;
pub mod history;
pub mod information;
pub mod matches;
pub mod playable;
pub mod played;
pub mod playouts;
pub mod quote;
pub mod record;
pub mod review;
pub mod search;
pub mod solve;
pub mod svg;
mod zobrist;

pub mod almatafl;
pub mod schotten_totten;
pub mod tablut;
pub mod tartan;

pub use game::{
    parse_hash, Event, Game, GameResult, MoveError, NotationError, Outcome, PerfectInformation,
    PlayError, Player, Repetition, SetupError,
};
pub use history::History;
pub use played::{Notation, Played};
pub use quote::quote;
