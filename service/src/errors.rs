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

/// The request field an `INVALID_ARGUMENT` message names first (every such
/// message starts `"<field>: "`), if it does: a path of lower-case names,
/// digits, `_`, `.` and `[]`, e.g. `limits.depth` or `move.text`.
pub fn field_of(message: &str) -> Option<(&str, &str)> {
    let (field, rest) = message.split_once(": ")?;
    let is_path = !field.is_empty()
        && field.len() <= 64
        && field
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_.[]".contains(c));
    is_path.then_some((field, rest))
}

/// `status` with a `google.rpc.BadRequest` field violation beside its
/// message (the field it names, and what is wrong), so that a client can
/// point at the field; unchanged when it is not `INVALID_ARGUMENT`, names
/// no field or already has details.
pub fn with_field_violation(status: Status) -> Status {
    use tonic_types::{ErrorDetails, StatusExt};
    if status.code() != tonic::Code::InvalidArgument || !status.details().is_empty() {
        return status;
    }
    let Some((field, problem)) = field_of(status.message()) else {
        return status;
    };
    let details = ErrorDetails::with_bad_request_violation(field, problem);
    Status::with_error_details(status.code(), status.message(), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic_types::StatusExt;

    #[test]
    fn an_invalid_argument_gets_the_field_it_names() {
        let status = with_field_violation(Status::invalid_argument(
            "limits.depth: searcher mcts does not search by depth",
        ));
        let details = status.get_error_details();
        let violations = &details
            .bad_request()
            .expect("a BadRequest")
            .field_violations;
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].field, "limits.depth");
        assert_eq!(
            violations[0].description,
            "searcher mcts does not search by depth"
        );
        assert_eq!(
            status.message(),
            "limits.depth: searcher mcts does not search by depth"
        );
        // Not a field, another code: unchanged.
        for status in [
            Status::invalid_argument("Server busy: retry"),
            Status::resource_exhausted("limits.nodes: too many"),
        ] {
            assert!(with_field_violation(status).details().is_empty());
        }
        assert_eq!(
            field_of("position.text: bad"),
            Some(("position.text", "bad"))
        );
        assert_eq!(field_of("no colon here"), None);
    }
}
