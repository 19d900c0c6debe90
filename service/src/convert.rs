//! Translation of the game-independent parts of `caber.v1`: players, outcomes,
//! events, scores, limits and search reports.

use std::time::Duration;

use caber_engine::catalog::GameInfo;
use caber_engine::review::Judgement;
use caber_engine::search::{self, Info, Limits, WinCurve};
use caber_engine::{Event, GameResult, Outcome, Player};

use tonic::Status;

use crate::errors;
use crate::proto;
use crate::search_runner::{BudgetChange, Caps, Clamp, Limit, Notes};

impl From<Player> for proto::Side {
    fn from(player: Player) -> Self {
        match player {
            Player::One => proto::Side::One,
            Player::Two => proto::Side::Two,
        }
    }
}

impl TryFrom<proto::Side> for Player {
    /// `SIDE_UNSPECIFIED` names no player.
    type Error = ();

    fn try_from(side: proto::Side) -> Result<Self, ()> {
        match side {
            proto::Side::One => Ok(Player::One),
            proto::Side::Two => Ok(Player::Two),
            proto::Side::Unspecified => Err(()),
        }
    }
}

/// The side a message must name in `field` (`SIDE_ONE` or `SIDE_TWO`):
/// unspecified is missing, and a number that is no side is refused as such.
pub fn required_side(field: &str, raw: i32) -> Result<Player, Status> {
    optional_side(field, raw)?.ok_or_else(|| errors::missing(field))
}

/// The side a message may name in `field` (`SIDE_UNSPECIFIED`: none); a
/// number that is no side is refused.
pub fn optional_side(field: &str, raw: i32) -> Result<Option<Player>, Status> {
    let side = known_value::<proto::Side>(field, raw)?;
    Ok(Player::try_from(side).ok())
}

/// The value of enum `E` that `raw` stands for; a number `E` does not have
/// is refused naming `field` (prost's getters would read it as the default).
pub fn known_value<E: TryFrom<i32>>(field: &str, raw: i32) -> Result<E, Status> {
    E::try_from(raw).map_err(|_| {
        Status::invalid_argument(format!("{field}: {raw} is not one of the enum's values"))
    })
}

/// The API value of a review's judgement.
pub fn judgement(j: Judgement) -> proto::Judgement {
    match j {
        Judgement::Good => proto::Judgement::Good,
        Judgement::Inaccuracy => proto::Judgement::Inaccuracy,
        Judgement::Mistake => proto::Judgement::Mistake,
        Judgement::Blunder => proto::Judgement::Blunder,
    }
}

/// The API value of a side, `SIDE_UNSPECIFIED` for none.
pub fn side(player: Option<Player>) -> i32 {
    player.map_or(proto::Side::Unspecified, proto::Side::from) as i32
}

/// What `ListGames` says about a game, its searchers (the first is the
/// default) and whether it hides information.
pub fn game_info(
    info: GameInfo,
    searchers: Vec<proto::SearcherInfo>,
    hidden_information: bool,
) -> proto::GameInfo {
    proto::GameInfo {
        name: info.name.to_string(),
        variants: info
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| proto::VariantInfo {
                name: v.name.to_string(),
                is_default: i == 0,
                moves_first: side(Some(v.moves_first)),
            })
            .collect(),
        players: info.players.iter().map(|p| p.to_string()).collect(),
        position_notation_help: info.position_help.to_string(),
        move_notation_help: info.move_help.to_string(),
        searchers,
        chance: info.chance,
        white: side(Some(info.white)),
        hidden_information,
    }
}

/// The end of a game, with the winner's name in that game (`names`: One's, Two's).
pub fn outcome(outcome: &Outcome, names: [&str; 2]) -> proto::Outcome {
    let (result, winner, winner_name) = match outcome.result {
        GameResult::Win(p) => (
            proto::outcome::Result::Win,
            Some(p),
            names[p.index()].to_string(),
        ),
        GameResult::Draw => (proto::outcome::Result::Draw, None, String::new()),
    };
    proto::Outcome {
        result: result as i32,
        winner: side(winner),
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

/// How a position's scores read as win probabilities: its game's curve
/// and whose view the scores are.
#[derive(Clone, Copy, Debug)]
pub struct Odds {
    /// The position's curve ([`caber_engine::search::Searchable::win_curve`]).
    pub curve: WinCurve,
    /// The player whose view the scores are.
    pub viewer: Player,
}

/// A score from `odds.viewer`'s view with its win probability.
pub fn score(score: search::Score, odds: Odds) -> proto::Score {
    let value = match score {
        search::Score::Centi(c) => proto::score::Value::Centi(c),
        search::Score::Mate(n) => proto::score::Value::MatePlies(n),
        search::Score::Draw => proto::score::Value::Draw(true),
    };
    proto::Score {
        value: Some(value),
        win_probability: odds.curve.probability(score, odds.viewer),
    }
}

/// The engine limits of a request: zero means no limit of that kind.
/// `None` when no limit and no table size is set (the message is absent or
/// all zero).
pub fn limits(message: Option<&proto::Limits>) -> Option<Limits> {
    let m = message?;
    let limits = Limits {
        depth: (m.depth > 0).then_some(m.depth),
        nodes: (m.nodes > 0).then_some(m.nodes),
        movetime: (m.movetime_ms > 0).then(|| Duration::from_millis(m.movetime_ms.into())),
        seed: m.seed,
        threads: m.threads.max(1) as usize,
        table_mb: m.hash_mb as usize,
        ..Limits::default()
    };
    let any = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.table_mb > 0;
    any.then_some(limits)
}

/// A server's maximums as the API says them (0: none).
pub fn server_limits(caps: &Caps) -> proto::ServerLimits {
    let ms = |d: Duration| match d {
        Duration::MAX => 0,
        d => u64::try_from(d.as_millis()).unwrap_or(u64::MAX),
    };
    let small = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    proto::ServerLimits {
        max_movetime_ms: ms(caps.max_movetime),
        max_nodes: caps.max_nodes,
        max_threads: small(caps.max_threads),
        max_hash_mb: small(caps.max_table_mb),
        max_kept_tables: small(caps.kept_tables),
        max_review_ms: ms(caps.max_review),
    }
}

/// A lowered limit as the API says it.
fn clamp(c: &Clamp) -> proto::Clamp {
    let limit = match c.limit {
        Limit::MovetimeMs => proto::Limit::MovetimeMs,
        Limit::Nodes => proto::Limit::Nodes,
        Limit::HashMb => proto::Limit::HashMb,
        Limit::Threads => proto::Limit::Threads,
        Limit::TreeNodes => proto::Limit::TreeNodes,
    };
    proto::Clamp {
        limit: limit as i32,
        asked: c.asked,
        given: c.given,
    }
}

/// A budget change as the API says it.
fn budget_change(b: &BudgetChange) -> proto::BudgetChange {
    let (reason, movetime_ms, waited_ms) = match *b {
        BudgetChange::Default { movetime_ms } => (proto::BudgetReason::Default, movetime_ms, 0),
        BudgetChange::Deadline { movetime_ms } => (proto::BudgetReason::Deadline, movetime_ms, 0),
        BudgetChange::Waited {
            waited_ms,
            movetime_ms,
        } => (proto::BudgetReason::Waited, movetime_ms, waited_ms),
    };
    proto::BudgetChange {
        reason: reason as i32,
        movetime_ms,
        waited_ms,
    }
}

/// How a search went, with the server's notes on its budget.
pub fn stats(info: &Info<String>, notes: &Notes) -> proto::SearchStats {
    let notes = &notes.after(info);
    proto::SearchStats {
        depth: info.depth,
        seldepth: info.seldepth,
        nodes: info.nodes,
        nps: info.nps(),
        time_ms: info.elapsed.as_millis() as u64,
        stopped: info.stopped,
        clamped: notes.clamped(),
        iterations: info.iterations,
        budget: notes.budget(),
        interrupted: notes.interrupted(),
        clamps: notes.clamps.iter().map(clamp).collect(),
        budget_changes: notes.budget_changes.iter().map(budget_change).collect(),
        interrupted_by_shutdown: notes.interrupted_by_shutdown,
    }
}

/// The principal variations of a report, best first, read by `odds`;
/// `unseen`: the cards the searched position's player has not seen (see
/// [`sampled`]).
pub fn lines(info: &Info<String>, odds: Odds, unseen: &[String]) -> Vec<proto::PvLine> {
    info.lines
        .iter()
        .enumerate()
        .map(|(i, line)| proto::PvLine {
            rank: i as u32 + 1,
            score: Some(score(line.score, odds)),
            moves: line.moves.clone(),
            visits: line.visits,
            sampled: sampled(&line.moves, unseen),
        })
        .collect()
}

/// The names of `unseen` that `moves` mention as a whole word of their
/// text (`G5` in `p:G5@3/d:clan`), in order of first mention.
pub fn sampled(moves: &[String], unseen: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let words = moves
        .iter()
        .flat_map(|m| m.split(|c: char| !c.is_ascii_alphanumeric()));
    for word in words {
        if unseen.iter().any(|u| u == word) && !out.iter().any(|o| o == word) {
            out.push(word.to_string());
        }
    }
    out
}
