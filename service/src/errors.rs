//! Engine errors as gRPC statuses: every message names the request field and the problem.
//!
//! Bad input (unknown game or variant, unreadable or impossible positions,
//! illegal moves) is `INVALID_ARGUMENT`; asking for a move in a finished game
//! is `FAILED_PRECONDITION`.

use caber_engine::catalog::UnknownVariant;
use caber_engine::{MoveError, Outcome};
use tonic::Status;

/// A required field is absent: `"<field>: missing"`.
pub fn missing(field: &str) -> Status {
    Status::invalid_argument(format!("{field}: missing"))
}

/// A variant the game does not have; `field` names the request's variant field.
pub fn variant(field: &str, error: &UnknownVariant) -> Status {
    Status::invalid_argument(format!("{field}: {error}"))
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

/// A player's view given where every move must be known (`what`: "solve").
pub fn hidden_moves(what: &str) -> Status {
    Status::invalid_argument(format!(
        "position: a player's view hides the other player's cards: {what} the referee's full state"
    ))
}
