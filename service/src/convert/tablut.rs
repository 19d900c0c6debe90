//! Tablut's structured messages, built from the engine's public accessors
//! ([`Tablut::pieces`], [`Tablut::setup`]) and read back through its validating
//! constructor [`Tablut::from_setup`]; moves through [`Game::parse_move`] and
//! [`Game::move_to_text`].

use caber_engine::catalog::{self, AnyPosition};
use caber_engine::tablut::{Cell, Move, Piece, Setup, Tablut};
use caber_engine::{Game, Player};
use tonic::Status;

use crate::convert::side;
use crate::errors;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;

/// Reads a cell name; errors name the field.
fn cell(field: &str, name: &str) -> Result<Cell, Status> {
    Cell::parse(name.trim()).map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
}

/// Builds a position from the structured message, through the engine's validation.
pub fn position(
    game: &str,
    variant: &str,
    message: &proto::TablutPosition,
) -> Result<Box<dyn AnyPosition>, Status> {
    super::same_game(game, Tablut::NAME, "position.tablut", "a Tablut")?;
    let variant = catalog::lookup_variant::<Tablut>(variant)
        .map_err(|e| errors::catalog("position.", "tablut", &e))?;
    let mut pieces = Vec::new();
    for (field, names, piece) in [
        ("black", &message.black, Piece::Black),
        ("white", &message.white, Piece::White),
    ] {
        for (i, name) in names.iter().enumerate() {
            pieces.push((cell(&format!("position.tablut.{field}[{i}]"), name)?, piece));
        }
    }
    if !message.king.trim().is_empty() {
        pieces.push((cell("position.tablut.king", &message.king)?, Piece::King));
    }
    let side_to_move = match message.side_to_move() {
        proto::Side::One => Player::One,
        proto::Side::Two => Player::Two,
        proto::Side::Unspecified => return Err(errors::missing("position.tablut.side_to_move")),
    };
    let history = message
        .history
        .iter()
        .enumerate()
        .map(|(i, h)| {
            u64::from_str_radix(h.trim(), 16).map_err(|_| {
                Status::invalid_argument(format!(
                    "position.tablut.history[{i}]: {h:?} is not a hash of 16 hex digits"
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let passes = u8::try_from(message.passes).map_err(|_| {
        Status::invalid_argument(format!(
            "position.tablut.passes: {} is out of range",
            message.passes
        ))
    })?;
    let setup = Setup {
        pieces,
        side_to_move,
        history,
        passes,
    };
    Tablut::from_setup(variant, &setup)
        .map(catalog::boxed)
        .map_err(|e| Status::invalid_argument(format!("position.tablut: {e}")))
}

/// The structured state of a position, if it is a Tablut position.
pub fn state(position: &dyn AnyPosition) -> Option<State> {
    let tablut = catalog::downcast::<Tablut>(position)?;
    let cells = |kind: Piece| -> Vec<String> {
        tablut
            .pieces()
            .filter(|&(_, p)| p == kind)
            .map(|(c, _)| c.name())
            .collect()
    };
    Some(State::Tablut(proto::TablutPosition {
        black: cells(Piece::Black),
        white: cells(Piece::White),
        king: tablut.king().map(Cell::name).unwrap_or_default(),
        side_to_move: side(tablut.side_to_move()) as i32,
        history: tablut
            .history()
            .iter()
            .map(|h| format!("{h:016x}"))
            .collect(),
        passes: tablut.passes().into(),
    }))
}

/// The text of a structured move, written by the engine.
pub fn move_text(
    position: &dyn AnyPosition,
    message: &proto::TablutMove,
) -> Result<String, Status> {
    let tablut = catalog::downcast::<Tablut>(position).ok_or_else(|| {
        Status::invalid_argument(format!(
            "move.tablut: a Tablut move given for a {} position",
            position.game()
        ))
    })?;
    let mv = if message.pass {
        if !message.from.is_empty() || !message.to.is_empty() {
            return Err(Status::invalid_argument(
                "move.tablut: a pass has no from or to cell",
            ));
        }
        Move::Pass
    } else {
        Move::Step {
            from: cell("move.tablut.from", &message.from)?,
            to: cell("move.tablut.to", &message.to)?,
        }
    };
    Ok(tablut.move_to_text(&mv))
}

/// The structured form of a move given as text, if `position` is a Tablut position.
pub fn move_kind(position: &dyn AnyPosition, text: &str) -> Option<Kind> {
    let tablut = catalog::downcast::<Tablut>(position)?;
    Some(kind(&tablut.parse_move(text).ok()?))
}

/// The structured form of a move.
fn kind(mv: &Move) -> Kind {
    Kind::Tablut(match *mv {
        Move::Step { from, to } => proto::TablutMove {
            from: from.name(),
            to: to.name(),
            pass: false,
        },
        Move::Pass => proto::TablutMove {
            from: String::new(),
            to: String::new(),
            pass: true,
        },
    })
}
