//! Tablut's messages: a structured position is the engine's [`Setup`] field
//! for field, read back through [`Tablut::from_setup`]; a move is a step
//! between two cells or a pass.

use caber_engine::catalog::{self, GameInfo};
use caber_engine::quote;
use caber_engine::tablut::{self as engine, Cell, Move, Piece, Setup};
use caber_engine::{parse_hash, Played};
use tonic::Status;

use super::{Adapter, KeptSearcher, KeptSearchers};
use crate::convert::{self, side};
use crate::errors;
use crate::kept_tables::KeptTables;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;

/// Tablut's adapter.
pub struct Tablut;

/// Reads a cell name; errors name the field.
fn cell(field: &str, name: &str) -> Result<Cell, Status> {
    Cell::parse(name.trim()).map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
}

impl Adapter for Tablut {
    type Position = Played<engine::Tablut>;
    type PositionMessage = proto::TablutPosition;
    type MoveMessage = proto::TablutMove;

    const FIELD: &'static str = "tablut";
    const A_NAME: &'static str = "a Tablut";

    fn info() -> GameInfo {
        catalog::info::<engine::Tablut>()
    }

    fn position_message(state: &State) -> Option<&proto::TablutPosition> {
        match state {
            State::Tablut(m) => Some(m),
            _ => None,
        }
    }

    fn read_message(
        variant: &str,
        message: &proto::TablutPosition,
    ) -> Result<Self::Position, Status> {
        let variant = catalog::lookup_variant::<engine::Tablut>(variant)
            .map_err(|e| errors::variant("position.variant", &e))?;
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
        let side_to_move =
            convert::required_side("position.tablut.side_to_move", message.side_to_move)?;
        let history = message
            .history
            .iter()
            .enumerate()
            .map(|(i, h)| {
                parse_hash(h.trim()).ok_or_else(|| {
                    Status::invalid_argument(format!(
                        "position.tablut.history[{i}]: {} is not a hash of 16 hex digits",
                        quote(h)
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
        engine::Tablut::from_setup(variant, &setup)
            .map_err(|e| Status::invalid_argument(format!("position.tablut: {e}")))
    }

    fn write_message(position: &Self::Position) -> State {
        let setup = position.setup();
        let cells = |kind: Piece| -> Vec<String> {
            setup
                .pieces
                .iter()
                .filter(|&&(_, p)| p == kind)
                .map(|(c, _)| c.name())
                .collect()
        };
        State::Tablut(proto::TablutPosition {
            black: cells(Piece::Black),
            white: cells(Piece::White),
            king: cells(Piece::King).pop().unwrap_or_default(),
            side_to_move: side(Some(setup.side_to_move)),
            history: setup.history.iter().map(|h| format!("{h:016x}")).collect(),
            passes: setup.passes.into(),
        })
    }

    fn move_message(kind: &Kind) -> Option<&proto::TablutMove> {
        match kind {
            Kind::Tablut(m) => Some(m),
            _ => None,
        }
    }

    fn read_move(_position: &Self::Position, message: &proto::TablutMove) -> Result<Move, Status> {
        if message.pass {
            if !message.from.is_empty() || !message.to.is_empty() {
                return Err(Status::invalid_argument(
                    "move.tablut: a pass has no from or to cell",
                ));
            }
            return Ok(Move::Pass);
        }
        Ok(Move::Step {
            from: cell("move.tablut.from", &message.from)?,
            to: cell("move.tablut.to", &message.to)?,
        })
    }

    fn write_move(mv: &Move) -> Kind {
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

    fn kept(all: &KeptSearchers) -> &KeptTables<KeptSearcher<Self>> {
        &all.tablut
    }

    fn diagram(position: &Self::Position) -> String {
        position.diagram()
    }

    fn svg(position: &Self::Position, last_move: Option<&Move>) -> String {
        position.svg(last_move)
    }
}
