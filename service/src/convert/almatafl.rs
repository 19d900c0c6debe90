//! AlmaTafl's structured messages, built from the engine's public accessors
//! ([`AlmaTafl::stacks`], [`AlmaTafl::history`]) and read back through its
//! validating constructor [`AlmaTafl::from_setup`]; moves through
//! [`Move::new`], [`Game::move_to_text`] and [`Game::parse_move`].

use std::collections::BTreeMap;

use caber_engine::almatafl::{AlmaTafl, Cell, Move, Piece, Setup};
use caber_engine::catalog::{self, AnyPosition};
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

/// Builds a position from the structured message, through the engine's validation.
pub fn position(
    game: &str,
    variant: &str,
    message: &proto::AlmaTaflPosition,
) -> Result<Box<dyn AnyPosition>, Status> {
    super::same_game(game, AlmaTafl::NAME, "position.almatafl", "an AlmaTafl")?;
    catalog::lookup_variant::<AlmaTafl>(variant)
        .map_err(|e| errors::catalog("position.", "almatafl", &e))?;
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
    let side_to_move = match message.side_to_move() {
        proto::Side::One => Player::One,
        proto::Side::Two => Player::Two,
        proto::Side::Unspecified => return Err(errors::missing("position.almatafl.side_to_move")),
    };
    let mut history = Vec::new();
    for (i, r) in message.history.iter().enumerate() {
        let field = format!("position.almatafl.history[{i}]");
        let hash = u64::from_str_radix(r.hash.trim(), 16).map_err(|_| {
            Status::invalid_argument(format!(
                "{field}.hash: {:?} is not a hash of 16 hex digits",
                r.hash
            ))
        })?;
        if r.count == 0 {
            return Err(Status::invalid_argument(format!(
                "{field}.count: must be at least 1"
            )));
        }
        // More than two is refused by the engine; three are enough to say so.
        history.extend(std::iter::repeat_n(hash, r.count.min(3) as usize));
    }
    let setup = Setup {
        stacks,
        side_to_move,
        history,
    };
    AlmaTafl::from_setup(&setup)
        .map(catalog::boxed)
        .map_err(|e| Status::invalid_argument(format!("position.almatafl: {e}")))
}

/// The structured state of a position, if it is an AlmaTafl position.
pub fn state(position: &dyn AnyPosition) -> Option<State> {
    let alma = catalog::downcast::<AlmaTafl>(position)?;
    let mut counts: BTreeMap<u64, u32> = BTreeMap::new();
    for h in alma.history() {
        *counts.entry(h).or_default() += 1;
    }
    Some(State::Almatafl(proto::AlmaTaflPosition {
        stacks: alma
            .stacks()
            .into_iter()
            .map(|(c, pieces)| proto::AlmaTaflStack {
                cell: c.name(),
                pieces: pieces
                    .into_iter()
                    .map(|p| piece_message(p) as i32)
                    .collect(),
            })
            .collect(),
        side_to_move: side(alma.side_to_move()) as i32,
        history: counts
            .into_iter()
            .map(|(h, count)| proto::AlmaTaflRepetition {
                hash: format!("{h:016x}"),
                count,
            })
            .collect(),
    }))
}

/// The text of a structured move, written by the engine.
pub fn move_text(
    position: &dyn AnyPosition,
    message: &proto::AlmaTaflMove,
) -> Result<String, Status> {
    let alma = catalog::downcast::<AlmaTafl>(position).ok_or_else(|| {
        Status::invalid_argument(format!(
            "move.almatafl: an AlmaTafl move given for a {} position",
            position.game()
        ))
    })?;
    let cells = message
        .cells
        .iter()
        .enumerate()
        .map(|(i, name)| cell(&format!("move.almatafl.cells[{i}]"), name))
        .collect::<Result<Vec<_>, _>>()?;
    let mv = Move::new(&cells).ok_or_else(|| {
        Status::invalid_argument(format!(
            "move.almatafl.cells: {} cells given; a move has a start and 1 to {} landing cells",
            cells.len(),
            caber_engine::almatafl::MAX_CHAIN - 1
        ))
    })?;
    Ok(alma.move_to_text(&mv))
}

/// The structured form of a move given as text, if `position` is an AlmaTafl position.
pub fn move_kind(position: &dyn AnyPosition, text: &str) -> Option<Kind> {
    let alma = catalog::downcast::<AlmaTafl>(position)?;
    Some(kind(&alma.parse_move(text).ok()?))
}

/// The structured form of a move.
fn kind(mv: &Move) -> Kind {
    Kind::Almatafl(proto::AlmaTaflMove {
        cells: mv.cells().into_iter().map(Cell::name).collect(),
    })
}
