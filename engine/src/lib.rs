//! Caber's engine: exact rules for every game, and searchers generic over [`Game`].
//!
//! One module tree per game (rules, notation, evaluation), the searchers in
//! [`search`], and [`catalog`]: the game-independent, text-based view of every
//! game that the service and the CLI use. No networking, protobuf or CLI code
//! lives here.

pub mod catalog;
pub mod game;
pub mod search;

pub mod almatafl;
pub mod schotten_totten;
pub mod tablut;

pub use game::{
    Event, Game, GameResult, MoveError, NotationError, Outcome, PlayError, Player, SetupError,
};
