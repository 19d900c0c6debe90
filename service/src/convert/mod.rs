//! Translation between `caber.v1` messages and the engine's positions, moves and reports.
//!
//! Generic over games through [`AnyPosition`]; the structured form of each
//! game lives in its own module and is built only from the engine's public
//! accessors and validating constructors.

pub mod almatafl;
pub mod schotten_totten;
pub mod tablut;

use std::time::Duration;

use caber_engine::catalog::{self, AnyPosition, GameInfo};
use caber_engine::search::{self, Info, Limits};
use caber_engine::{Event, GameResult, Outcome, Player};
use tonic::Status;

use crate::errors;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;

/// Reads a request's position: text through the game's notation, structured
/// through the game's validating constructor.
pub fn position(message: Option<&proto::Position>) -> Result<Box<dyn AnyPosition>, Status> {
    let message = message.ok_or_else(|| errors::missing("position"))?;
    match message.state.as_ref() {
        None => Err(errors::missing("position.state")),
        Some(State::Text(text)) => {
            if message.game.trim().is_empty() {
                return Err(errors::missing("position.game"));
            }
            catalog::parse_position(&message.game, &message.variant, text)
                .map_err(|e| errors::catalog("position.", "text", &e))
        }
        Some(State::Tablut(tablut)) => tablut::position(&message.game, &message.variant, tablut),
        Some(State::Almatafl(alma)) => almatafl::position(&message.game, &message.variant, alma),
        Some(State::SchottenTotten(st)) => {
            schotten_totten::position(&message.game, &message.variant, st)
        }
    }
}

/// Refuses a structured position (field `field`, described as `what`, e.g.
/// "a Tablut") given with another game than `expected`; no game means `expected`.
fn same_game(game: &str, expected: &str, field: &str, what: &str) -> Result<(), Status> {
    let given = game.trim();
    if given.is_empty() || given.eq_ignore_ascii_case(expected) {
        Ok(())
    } else {
        Err(Status::invalid_argument(format!(
            "{field}: {what} position given for game {game:?}"
        )))
    }
}

/// The full report of a position: structured form, text, side to move, outcome, diagram.
pub fn report(position: &dyn AnyPosition) -> proto::PositionReport {
    let state = tablut::state(position)
        .or_else(|| almatafl::state(position))
        .or_else(|| schotten_totten::state(position))
        .unwrap_or_else(|| State::Text(position.notation()));
    let mover = position.side_to_move();
    proto::PositionReport {
        position: Some(proto::Position {
            game: position.game().to_string(),
            variant: position.variant().to_string(),
            state: Some(state),
        }),
        text: position.notation(),
        side_to_move: side(mover) as i32,
        side_to_move_name: position.player_name(mover).to_string(),
        outcome: position.outcome().map(|o| outcome(position, o)),
        diagram: position.diagram(),
    }
}

/// A request's move as text for `position`, and the field it came from (for errors).
pub fn move_text(
    position: &dyn AnyPosition,
    message: Option<&proto::Move>,
) -> Result<(String, &'static str), Status> {
    match message.and_then(|m| m.kind.as_ref()) {
        None if message.is_none() => Err(errors::missing("move")),
        None => Err(errors::missing("move.kind")),
        Some(Kind::Text(text)) => Ok((text.clone(), "move.text")),
        Some(Kind::Tablut(mv)) => Ok((tablut::move_text(position, mv)?, "move.tablut")),
        Some(Kind::Almatafl(mv)) => Ok((almatafl::move_text(position, mv)?, "move.almatafl")),
        Some(Kind::SchottenTotten(mv)) => Ok((
            schotten_totten::move_text(position, mv)?,
            "move.schotten_totten",
        )),
    }
}

/// A legal move of `position` (given as text) in text and structured form.
pub fn move_info(position: &dyn AnyPosition, text: String) -> proto::MoveInfo {
    let kind = tablut::move_kind(position, &text)
        .or_else(|| almatafl::move_kind(position, &text))
        .or_else(|| schotten_totten::move_kind(position, &text))
        .unwrap_or_else(|| Kind::Text(text.clone()));
    info(text, kind)
}

/// Every legal move of `position` in text and structured form, in the
/// generator's order.
pub fn legal_moves(position: &dyn AnyPosition) -> Vec<proto::MoveInfo> {
    position
        .legal_moves()
        .into_iter()
        .map(|text| move_info(position, text))
        .collect()
}

/// A move in both forms.
fn info(text: String, kind: Kind) -> proto::MoveInfo {
    proto::MoveInfo {
        text,
        r#move: Some(proto::Move { kind: Some(kind) }),
    }
}

/// What `ListGames` says about a game.
pub fn game_info(info: GameInfo) -> proto::GameInfo {
    proto::GameInfo {
        name: info.name.to_string(),
        variants: info
            .variants
            .iter()
            .enumerate()
            .map(|(i, name)| proto::VariantInfo {
                name: name.to_string(),
                is_default: i == 0,
            })
            .collect(),
        players: info.players.iter().map(|p| p.to_string()).collect(),
        position_notation_help: info.position_help.to_string(),
        move_notation_help: info.move_help.to_string(),
    }
}

/// The API side of a player.
pub fn side(player: Player) -> proto::Side {
    match player {
        Player::One => proto::Side::One,
        Player::Two => proto::Side::Two,
    }
}

/// The end of a game, with the winner's name in that game.
pub fn outcome(position: &dyn AnyPosition, outcome: Outcome) -> proto::Outcome {
    let (result, winner, winner_name) = match outcome.result {
        GameResult::Win(p) => (
            proto::outcome::Result::Win,
            side(p),
            position.player_name(p).to_string(),
        ),
        GameResult::Draw => (
            proto::outcome::Result::Draw,
            proto::Side::Unspecified,
            String::new(),
        ),
    };
    proto::Outcome {
        result: result as i32,
        winner: winner as i32,
        winner_name,
        reason: outcome.reason.to_string(),
    }
}

/// An event of a move.
pub fn event(event: Event) -> proto::Event {
    proto::Event {
        kind: event.kind.to_string(),
        cells: event.cells,
        text: event.text,
    }
}

/// A score with its win probability.
pub fn score(score: search::Score) -> proto::Score {
    let value = match score {
        search::Score::Centi(c) => proto::score::Value::Centi(c),
        search::Score::Mate(n) => proto::score::Value::MatePlies(n),
        search::Score::Draw => proto::score::Value::Draw(true),
    };
    proto::Score {
        value: Some(value),
        win_probability: score.win_probability(),
    }
}

/// The engine limits of a request: zero means no limit of that kind.
/// `None` when no limit is set at all (the message is absent or all zero).
pub fn limits(message: Option<&proto::Limits>) -> Option<Limits> {
    let m = message?;
    let limits = Limits {
        depth: (m.depth > 0).then_some(m.depth),
        nodes: (m.nodes > 0).then_some(m.nodes),
        movetime: (m.movetime_ms > 0).then(|| Duration::from_millis(m.movetime_ms.into())),
        seed: m.seed,
        ..Limits::default()
    };
    let any = limits.depth.is_some() || limits.nodes.is_some() || limits.movetime.is_some();
    any.then_some(limits)
}

/// How a search went; `clamped` says how the server changed the limits (may be empty).
pub fn stats(info: &Info<String>, clamped: &str) -> proto::SearchStats {
    proto::SearchStats {
        depth: info.depth,
        seldepth: info.seldepth,
        nodes: info.nodes,
        nps: info.nps(),
        time_ms: info.elapsed.as_millis() as u64,
        stopped: info.stopped,
        clamped: clamped.to_string(),
    }
}

/// The principal variations of a report, best first.
pub fn lines(info: &Info<String>) -> Vec<proto::PvLine> {
    info.lines
        .iter()
        .enumerate()
        .map(|(i, line)| proto::PvLine {
            rank: i as u32 + 1,
            score: Some(score(line.score)),
            moves: line.moves.clone(),
            visits: line.visits,
        })
        .collect()
}
