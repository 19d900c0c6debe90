//! Engine errors as gRPC statuses: every message names the request field and the problem.
//!
//! Bad input (unknown game or variant, unreadable or impossible positions,
//! illegal moves) is `INVALID_ARGUMENT`; asking for a move in a finished game
//! is `FAILED_PRECONDITION`.

use caber_engine::catalog::CatalogError;
use caber_engine::{MoveError, Outcome};
use tonic::Status;

/// A required field is absent: `"<field>: missing"`.
pub fn missing(field: &str) -> Status {
    Status::invalid_argument(format!("{field}: missing"))
}

/// A catalog error about the game, variant or position state of a request.
///
/// `prefix` is where the game and variant fields sit (`"position."`, or `""`
/// for `NewGame`); `state` names the position's state field (`"text"`, `"tablut"`).
pub fn catalog(prefix: &str, state: &str, error: &CatalogError) -> Status {
    let field = match error {
        CatalogError::UnknownGame(_) => "game",
        CatalogError::UnknownVariant { .. } => "variant",
        CatalogError::Setup(_) => state,
    };
    Status::invalid_argument(format!("{prefix}{field}: {error}"))
}

/// A refused move; `field` names where the move was given (`"move.text"`, `"move.tablut"`).
pub fn refused_move(field: &str, error: &MoveError) -> Status {
    match error {
        MoveError::GameOver(outcome) => game_over(outcome),
        MoveError::Illegal(_) => Status::invalid_argument(format!("move: {error}")),
        MoveError::Notation(_) => Status::invalid_argument(format!("{field}: {error}")),
    }
}

/// The position's game is over, so nothing may be played or searched.
pub fn game_over(outcome: &Outcome) -> Status {
    Status::failed_precondition(format!("position: {}", MoveError::GameOver(*outcome)))
}
