//! Tartan's messages: a structured position is the engine's [`Setup`] field
//! for field (the history with counts), read back through
//! [`Tartan::from_setup`]; a move is a placement, a unit's path, a Bishop's
//! step, a dismantle or a pass.

use caber_engine::quote;
use std::collections::BTreeMap;

use caber_engine::catalog::{self, GameInfo};
use caber_engine::tartan::{self as engine, Cell, Move, Path, Phase, Setup, Stack};
use caber_engine::{parse_hash, Played};
use tonic::Status;

use super::{Adapter, KeptSearcher, KeptSearchers};
use crate::convert::{self, side};
use crate::errors;
use crate::kept_tables::KeptTables;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;
use crate::proto::tartan_move::Action;

/// Tartan's adapter.
pub struct Tartan;

const STATE_FIELD: &str = "position.tartan";
const MOVE: &str = "move.tartan";

/// Reads a cell name; errors name the field.
fn cell(field: &str, name: &str) -> Result<Cell, Status> {
    Cell::parse(name.trim()).map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
}

/// A Bishop's cell, empty for none.
fn bishop(field: &str, name: &str) -> Result<Option<Cell>, Status> {
    if name.trim().is_empty() {
        Ok(None)
    } else {
        cell(field, name).map(Some)
    }
}

/// A count that fits the engine's field; errors name the field.
fn count(field: &str, n: u32) -> Result<u8, Status> {
    u8::try_from(n).map_err(|_| Status::invalid_argument(format!("{field}: {n} is out of range")))
}

fn hash(field: &str, text: &str) -> Result<u64, Status> {
    parse_hash(text.trim()).ok_or_else(|| {
        Status::invalid_argument(format!(
            "{field}: {} is not a hash of 16 hex digits",
            quote(text)
        ))
    })
}

impl Adapter for Tartan {
    type Position = Played<engine::Tartan>;
    type PositionMessage = proto::TartanPosition;
    type MoveMessage = proto::TartanMove;

    const FIELD: &'static str = "tartan";
    const A_NAME: &'static str = "a Tartan";

    fn info() -> GameInfo {
        catalog::info::<engine::Tartan>()
    }

    fn position_message(state: &State) -> Option<&proto::TartanPosition> {
        match state {
            State::Tartan(m) => Some(m),
            _ => None,
        }
    }

    fn read_message(variant: &str, m: &proto::TartanPosition) -> Result<Self::Position, Status> {
        let variant = catalog::lookup_variant::<engine::Tartan>(variant)
            .map_err(|e| errors::variant("position.variant", &e))?;
        let phase = match convert::known_value(&format!("{STATE_FIELD}.phase"), m.phase)? {
            proto::TartanPhase::Placement => Phase::Placement,
            proto::TartanPhase::Play => Phase::Play,
            proto::TartanPhase::Unspecified => {
                return Err(errors::missing(&format!("{STATE_FIELD}.phase")))
            }
        };
        let mut stacks = Vec::new();
        for (i, s) in m.stacks.iter().enumerate() {
            let f = format!("{STATE_FIELD}.stacks[{i}]");
            stacks.push(Stack {
                cell: cell(&format!("{f}.cell"), &s.cell)?,
                owner: convert::required_side(&format!("{f}.owner"), s.owner)?,
                height: count(&format!("{f}.height"), s.height)?,
            });
        }
        let mut counts = Vec::with_capacity(m.history.len());
        for (i, r) in m.history.iter().enumerate() {
            let f = format!("{STATE_FIELD}.history[{i}]");
            let h = hash(&format!("{f}.hash"), &r.hash)?;
            if r.count == 0 {
                return Err(Status::invalid_argument(format!(
                    "{f}.count: must be at least 1"
                )));
            }
            counts.push((h, r.count as usize));
        }
        let history = engine::REPETITION.history_from_counts(counts);
        let setup = Setup {
            phase,
            stacks,
            bishops: [
                bishop(&format!("{STATE_FIELD}.bishop_first"), &m.bishop_first)?,
                bishop(&format!("{STATE_FIELD}.bishop_second"), &m.bishop_second)?,
            ],
            tokens: [
                count(&format!("{STATE_FIELD}.tokens_first"), m.tokens_first)?,
                count(&format!("{STATE_FIELD}.tokens_second"), m.tokens_second)?,
            ],
            quiet_turns: count(&format!("{STATE_FIELD}.quiet_turns"), m.quiet_turns)?,
            side_to_move: convert::required_side(
                &format!("{STATE_FIELD}.side_to_move"),
                m.side_to_move,
            )?,
            history,
        };
        engine::Tartan::from_setup(variant, &setup)
            .map_err(|e| Status::invalid_argument(format!("{STATE_FIELD}: {e}")))
    }

    fn write_message(position: &Self::Position) -> State {
        let s = position.setup();
        let mut counts: BTreeMap<u64, u32> = BTreeMap::new();
        for h in &s.history {
            *counts.entry(*h).or_default() += 1;
        }
        let bishop = |b: Option<Cell>| b.map(Cell::name).unwrap_or_default();
        State::Tartan(proto::TartanPosition {
            phase: match s.phase {
                Phase::Placement => proto::TartanPhase::Placement,
                Phase::Play => proto::TartanPhase::Play,
            } as i32,
            stacks: s
                .stacks
                .iter()
                .map(|st| proto::TartanStack {
                    cell: st.cell.name(),
                    owner: side(Some(st.owner)),
                    height: st.height.into(),
                })
                .collect(),
            bishop_first: bishop(s.bishops[0]),
            bishop_second: bishop(s.bishops[1]),
            tokens_first: s.tokens[0].into(),
            tokens_second: s.tokens[1].into(),
            quiet_turns: s.quiet_turns.into(),
            side_to_move: side(Some(s.side_to_move)),
            history: counts
                .into_iter()
                .map(|(h, count)| proto::TartanRepetition {
                    hash: format!("{h:016x}"),
                    count,
                })
                .collect(),
        })
    }

    fn move_message(kind: &Kind) -> Option<&proto::TartanMove> {
        match kind {
            Kind::Tartan(m) => Some(m),
            _ => None,
        }
    }

    fn read_move(_position: &Self::Position, m: &proto::TartanMove) -> Result<Move, Status> {
        let cells = |field: &str, names: &[String]| {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| cell(&format!("{field}[{i}]"), n))
                .collect::<Result<Vec<_>, _>>()
        };
        match m
            .action
            .as_ref()
            .ok_or_else(|| errors::missing(&format!("{MOVE}.action")))?
        {
            Action::Place(c) => Ok(Move::Place(cell(&format!("{MOVE}.place"), c)?)),
            Action::Unit(p) => {
                let field = format!("{MOVE}.unit.cells");
                let path = cells(&field, &p.cells)?;
                Path::new(&path)
                    .map(Move::Unit)
                    .map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
            }
            Action::Bishop(b) => Ok(Move::Bishop {
                from: cell(&format!("{MOVE}.bishop.from"), &b.from)?,
                to: cell(&format!("{MOVE}.bishop.to"), &b.to)?,
            }),
            Action::Dismantle(d) => {
                let field = format!("{MOVE}.dismantle.cells");
                let families = cells(&field, &d.cells)?;
                let horde = cell(&format!("{MOVE}.dismantle.horde"), &d.horde)?;
                Move::dismantle(horde, &families)
                    .map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
            }
            Action::Pass(true) => Ok(Move::Pass),
            Action::Pass(false) => Err(Status::invalid_argument(format!(
                "{MOVE}.pass: false is not an action"
            ))),
        }
    }

    fn write_move(mv: &Move) -> Kind {
        let action = match *mv {
            Move::Place(c) => Action::Place(c.name()),
            Move::Pass => Action::Pass(true),
            Move::Unit(path) => Action::Unit(proto::TartanPath {
                cells: path.cells().map(Cell::name).collect(),
            }),
            Move::Bishop { from, to } => Action::Bishop(proto::TartanBishopStep {
                from: from.name(),
                to: to.name(),
            }),
            Move::Dismantle { horde, cells } => Action::Dismantle(proto::TartanDismantle {
                horde: horde.name(),
                cells: cells.iter().map(|c| c.name()).collect(),
            }),
        };
        Kind::Tartan(proto::TartanMove {
            action: Some(action),
        })
    }

    fn kept(all: &KeptSearchers) -> &KeptTables<KeptSearcher<Self>> {
        &all.tartan
    }

    fn diagram(position: &Self::Position) -> String {
        position.diagram()
    }

    fn svg(position: &Self::Position, last_move: Option<&Move>) -> String {
        position.svg(last_move)
    }
}
