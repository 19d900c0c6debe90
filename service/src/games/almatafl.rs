//! AlmaTafl's messages: a structured position is the engine's [`Setup`]
//! field for field (stacks bottom to top, the history with counts), read back
//! through [`AlmaTafl::from_setup`]; a move is its list of cells.

use caber_engine::quote;
use std::collections::BTreeMap;

use caber_engine::almatafl::{self as engine, Cell, Move, Piece, Setup};
use caber_engine::catalog::{self, GameInfo};
use caber_engine::{parse_hash, Played};
use tonic::Status;

use super::{Adapter, KeptSearcher, KeptSearchers};
use crate::convert::{self, side};
use crate::errors;
use crate::kept_tables::KeptTables;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;

/// AlmaTafl's adapter.
pub struct AlmaTafl;

/// Reads a cell name; errors name the field.
fn cell(field: &str, name: &str) -> Result<Cell, Status> {
    Cell::parse(name.trim()).map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
}

/// The engine piece of a message piece; errors name the field.
fn piece(field: &str, value: i32) -> Result<Piece, Status> {
    match proto::AlmaTaflPiece::try_from(value) {
        Ok(proto::AlmaTaflPiece::Invader) => Ok(Piece::Invader),
        Ok(proto::AlmaTaflPiece::Defender) => Ok(Piece::Defender),
        Ok(proto::AlmaTaflPiece::King) => Ok(Piece::King),
        _ => Err(Status::invalid_argument(format!(
            "{field}: {value} is not a piece (INVADER, DEFENDER or KING)"
        ))),
    }
}

fn piece_message(piece: Piece) -> proto::AlmaTaflPiece {
    match piece {
        Piece::Invader => proto::AlmaTaflPiece::Invader,
        Piece::Defender => proto::AlmaTaflPiece::Defender,
        Piece::King => proto::AlmaTaflPiece::King,
    }
}

impl Adapter for AlmaTafl {
    type Position = Played<engine::AlmaTafl>;
    type PositionMessage = proto::AlmaTaflPosition;
    type MoveMessage = proto::AlmaTaflMove;

    const FIELD: &'static str = "almatafl";
    const A_NAME: &'static str = "an AlmaTafl";

    fn info() -> GameInfo {
        catalog::info::<engine::AlmaTafl>()
    }

    fn position_message(state: &State) -> Option<&proto::AlmaTaflPosition> {
        match state {
            State::Almatafl(m) => Some(m),
            _ => None,
        }
    }

    fn read_message(
        variant: &str,
        message: &proto::AlmaTaflPosition,
    ) -> Result<Self::Position, Status> {
        catalog::lookup_variant::<engine::AlmaTafl>(variant)
            .map_err(|e| errors::variant("position.variant", &e))?;
        let mut stacks = Vec::new();
        for (i, stack) in message.stacks.iter().enumerate() {
            let field = format!("position.almatafl.stacks[{i}]");
            let at = cell(&format!("{field}.cell"), &stack.cell)?;
            let pieces = stack
                .pieces
                .iter()
                .enumerate()
                .map(|(j, &p)| piece(&format!("{field}.pieces[{j}]"), p))
                .collect::<Result<Vec<_>, _>>()?;
            stacks.push((at, pieces));
        }
        let side_to_move =
            convert::required_side("position.almatafl.side_to_move", message.side_to_move)?;
        let mut counts = Vec::with_capacity(message.history.len());
        for (i, r) in message.history.iter().enumerate() {
            let field = format!("position.almatafl.history[{i}]");
            let hash = parse_hash(r.hash.trim()).ok_or_else(|| {
                Status::invalid_argument(format!(
                    "{field}.hash: {} is not a hash of 16 hex digits",
                    quote(&r.hash)
                ))
            })?;
            if r.count == 0 {
                return Err(Status::invalid_argument(format!(
                    "{field}.count: must be at least 1"
                )));
            }
            counts.push((hash, r.count as usize));
        }
        let history = engine::REPETITION.history_from_counts(counts);
        let setup = Setup {
            stacks,
            side_to_move,
            history,
        };
        engine::AlmaTafl::from_setup(&setup)
            .map_err(|e| Status::invalid_argument(format!("position.almatafl: {e}")))
    }

    fn write_message(position: &Self::Position) -> State {
        let setup = position.setup();
        let mut counts: BTreeMap<u64, u32> = BTreeMap::new();
        for h in setup.history {
            *counts.entry(h).or_default() += 1;
        }
        State::Almatafl(proto::AlmaTaflPosition {
            stacks: setup
                .stacks
                .into_iter()
                .map(|(c, pieces)| proto::AlmaTaflStack {
                    cell: c.name(),
                    pieces: pieces
                        .into_iter()
                        .map(|p| piece_message(p) as i32)
                        .collect(),
                })
                .collect(),
            side_to_move: side(Some(setup.side_to_move)),
            history: counts
                .into_iter()
                .map(|(h, count)| proto::AlmaTaflRepetition {
                    hash: format!("{h:016x}"),
                    count,
                })
                .collect(),
        })
    }

    fn move_message(kind: &Kind) -> Option<&proto::AlmaTaflMove> {
        match kind {
            Kind::Almatafl(m) => Some(m),
            _ => None,
        }
    }

    fn read_move(
        _position: &Self::Position,
        message: &proto::AlmaTaflMove,
    ) -> Result<Move, Status> {
        let cells = message
            .cells
            .iter()
            .enumerate()
            .map(|(i, name)| cell(&format!("move.almatafl.cells[{i}]"), name))
            .collect::<Result<Vec<_>, _>>()?;
        Move::new(&cells).ok_or_else(|| {
            Status::invalid_argument(format!(
                "move.almatafl.cells: {} cells given; a move has a start and 1 to {} landing cells",
                cells.len(),
                engine::MAX_CHAIN - 1
            ))
        })
    }

    fn write_move(mv: &Move) -> Kind {
        Kind::Almatafl(proto::AlmaTaflMove {
            cells: mv.cells().into_iter().map(Cell::name).collect(),
        })
    }

    fn kept(all: &KeptSearchers) -> &KeptTables<KeptSearcher<Self>> {
        &all.almatafl
    }

    fn diagram(position: &Self::Position) -> String {
        position.diagram()
    }

    fn svg(position: &Self::Position, last_move: Option<&Move>) -> String {
        position.svg(last_move)
    }
}
