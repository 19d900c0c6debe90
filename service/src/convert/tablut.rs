//! Tablut's structured position and move messages (placeholder until the engine's Tablut lands).

use caber_engine::catalog::AnyPosition;
use tonic::Status;

use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;

/// Builds a position from a structured Tablut message.
pub fn position(
    _game: &str,
    _variant: &str,
    _message: &proto::TablutPosition,
) -> Result<Box<dyn AnyPosition>, Status> {
    Err(Status::unimplemented("position.tablut: not yet"))
}

/// The structured state of a Tablut position.
pub fn state(_position: &dyn AnyPosition) -> Option<State> {
    None
}

/// The text of a structured Tablut move.
pub fn move_text(_position: &dyn AnyPosition, _mv: &proto::TablutMove) -> Result<String, Status> {
    Err(Status::unimplemented("move.tablut: not yet"))
}

/// The structured form of a Tablut move.
pub fn move_kind(_position: &dyn AnyPosition, _text: &str) -> Option<Kind> {
    None
}
