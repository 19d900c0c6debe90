//! Printing replies for humans, or as JSON (one object per command or update).

use caber_engine::record::Eval;
use caber_engine::search::Score;
use caber_engine::Player;
use caber_service::proto::{self, outcome, score::Value};
use serde_json::{json, Value as Json};

use crate::replies::required;
use crate::sides::Sides;

/// `println!` for the command's output: when standard output is gone (as in
/// `caber legal | head -1`) the process ends quietly with status 0 instead of
/// panicking; another write error ends it with status 2.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_line(format_args!($($arg)*))
    };
}
pub(crate) use out;

/// Writes one line to standard output (see [`out!`]).
pub fn write_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_fmt(line)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(2);
    }
}

fn print_json(value: Json) {
    out!("{value}");
}

/// A score as people read it (docs/RECORDS.md), from the same side's view:
/// `cp N`, `#N` (a forced win in N moves of the side that wins, negative
/// when that side is not the viewer) or `draw`; `None` without a value.
pub fn eval(score: Option<&proto::Score>) -> Option<Eval> {
    Eval::of(match score?.value? {
        Value::Centi(c) => Score::Centi(c),
        Value::MatePlies(n) => Score::Mate(n),
        Value::Draw(_) => Score::Draw,
    })
}

/// A record's evaluation after a move by `mover`, from `white`'s view, made
/// of the mover's search score before it: a forced result in N plies before
/// the move is one in N - 1 after it, and none at 0 (the move ends the game).
pub fn eval_after(score: Option<&proto::Score>, mover: Player, white: Player) -> Option<Eval> {
    let eval = match score?.value? {
        Value::MatePlies(n) => Eval::of(Score::Mate(n - n.signum()))?,
        _ => eval(score)?,
    };
    Some(eval.seen_by(mover, white))
}

/// A failed command: `error: ...` (and `hint: ...`) on standard error, or
/// with `--json` one object `{"error": {"code", "message", "hint"}}` on
/// standard output. The code is the gRPC status code of a refusal by the
/// service, `UNAVAILABLE` when the server could not be reached, `NOT_FOUND`
/// for a file that does not exist, and `INVALID_ARGUMENT` for the command's
/// own input (its arguments included).
pub fn error(error: &anyhow::Error, hint: Option<&str>, as_json: bool) {
    let status = error
        .chain()
        .find_map(|e| e.downcast_ref::<crate::replies::Refused>());
    let transport = error
        .chain()
        .any(|e| e.downcast_ref::<tonic::transport::Error>().is_some());
    let missing = error.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    });
    let code = match status {
        // A status with a source is the client transport's, not the server's.
        Some(_) if transport => "UNAVAILABLE",
        Some(s) => caber_service::metrics::code_name(s.0.code()),
        None if transport => "UNAVAILABLE",
        None if missing => "NOT_FOUND",
        None => "INVALID_ARGUMENT",
    };
    let message = error_message(error);
    if as_json {
        let mut value = json!({ "code": code, "message": message });
        if let Some(hint) = hint {
            value["hint"] = json!(hint);
        }
        print_json(json!({ "error": value }));
    } else {
        eprintln!("error: {message}");
        if let Some(hint) = hint {
            eprintln!("hint: {hint}");
        }
    }
}

/// An error and its causes, `: `-separated, a cause that repeats the one
/// before it said once (the transport's errors nest the same text).
fn error_message(error: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for part in format!("{error:#}").split(": ") {
        if parts.last().map(String::as_str) != Some(part) {
            parts.push(part.to_string());
        }
    }
    parts.join(": ")
}

/// A score for people from its own view (the side to move's): `cp 34`,
/// `#3`, `draw` ([`eval`]), or `none`.
pub fn score_text(score: Option<&proto::Score>) -> String {
    eval(score).map_or("none".to_string(), |e| e.to_string())
}

fn win_probability(score: Option<&proto::Score>) -> f64 {
    score.map_or(0.5, |s| s.win_probability)
}

pub fn outcome_text(o: &proto::Outcome) -> String {
    if o.result() == outcome::Result::Draw {
        format!("draw ({})", o.reason)
    } else {
        format!("{} won ({})", o.winner_name, o.reason)
    }
}

/// A position for people: its diagram, game, text and who is to move (or
/// how the game ended).
pub fn print_report(report: &proto::PositionReport) {
    out!("{}", report.diagram.trim_end());
    if let Some(p) = &report.position {
        out!("game: {} ({})", p.game, p.variant);
    }
    out!("position: {}", report.text);
    match &report.outcome {
        Some(o) => out!("game over: {}", outcome_text(o)),
        None => out!("to move: {}", report.side_to_move_name),
    }
}

/// Names joined by commas, the default marked: `bga (default), ashton`.
fn listed<'a>(names: impl Iterator<Item = (&'a str, bool)>) -> String {
    names
        .map(|(name, is_default)| {
            if is_default {
                format!("{name} (default)")
            } else {
                name.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The searchers' evaluation weights as `name=default` lists, one per
/// distinct list, with the searchers that take it.
fn weight_groups(searchers: &[proto::SearcherInfo]) -> Vec<(String, String)> {
    let mut groups: Vec<(Vec<&str>, &[proto::Weight])> = Vec::new();
    for s in searchers.iter().filter(|s| !s.weights.is_empty()) {
        match groups.iter_mut().find(|(_, w)| *w == s.weights.as_slice()) {
            Some((names, _)) => names.push(&s.name),
            None => groups.push((vec![&s.name], &s.weights)),
        }
    }
    groups
        .into_iter()
        .map(|(names, weights)| {
            let listed = weights
                .iter()
                .map(|w| format!("{}={}", w.name, w.default_value))
                .collect::<Vec<_>>()
                .join(", ");
            (names.join(", "), listed)
        })
        .collect()
}

/// Who moves first in each variant: `black (bga, linnaeus), white (ashton)`,
/// or just `black` when it is the same in all.
fn first_movers(g: &proto::GameInfo) -> String {
    let sides = Sides::of(g);
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for v in &g.variants {
        let side = sides.name(proto::Side::try_from(v.moves_first).unwrap_or(proto::Side::One));
        match groups.iter_mut().find(|(s, _)| *s == side) {
            Some((_, names)) => names.push(&v.name),
            None => groups.push((side, vec![&v.name])),
        }
    }
    if groups.len() == 1 {
        return groups[0].0.to_string();
    }
    groups
        .iter()
        .map(|(side, names)| format!("{side} ({})", names.join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `games`: the `ListGames` reply.
pub fn games(reply: &proto::ListGamesResponse, as_json: bool) {
    if as_json {
        return print_json(crate::json::of(reply));
    }
    let games = &reply.games;
    for g in games {
        let variants = listed(g.variants.iter().map(|v| (v.name.as_str(), v.is_default)));
        let searchers = listed(g.searchers.iter().map(|s| (s.name.as_str(), s.is_default)));
        out!("{}", g.name);
        out!("  variants: {variants}");
        out!("  players: {}", g.players.join(", "));
        out!("  moves first: {}", first_movers(g));
        if g.chance {
            out!("  chance: the start is a deal from the seed");
        }
        out!("  searchers: {searchers}");
        for s in g.searchers.iter().filter(|s| !s.aliases.is_empty()) {
            out!("  {} also answers to: {}", s.name, s.aliases.join(", "));
        }
        for (names, weights) in weight_groups(&g.searchers) {
            out!("  weights of {names}: {weights}");
        }
        out!("  positions: {}", g.position_notation_help);
        out!("  moves: {}", g.move_notation_help);
    }
}

/// `new` (the `NewGame` reply, or the position after `--moves`) and `view`
/// (the `View` reply).
pub fn position<M: prost::Message + prost::Name>(
    reply: &M,
    report: &proto::PositionReport,
    as_json: bool,
) {
    if as_json {
        print_json(crate::json::of(reply));
    } else {
        print_report(report);
    }
}

/// The position a command works on, for humans (nothing in JSON mode, where
/// the reply says what it needs).
pub fn shown(report: &proto::PositionReport, as_json: bool) {
    if !as_json {
        print_report(report);
    }
}

/// `legal`: the `LegalMoves` reply.
pub fn legal(reply: &proto::LegalMovesResponse, as_json: bool) {
    if as_json {
        return print_json(crate::json::of(reply));
    }
    let texts: Vec<&str> = reply.moves.iter().map(|m| m.text.as_str()).collect();
    out!("{} legal moves", texts.len());
    if !texts.is_empty() {
        out!("{}", texts.join(" "));
    }
}

/// What a move did besides moving (captures, claims, draws), one per line.
pub fn events(events: &[proto::Event]) {
    for e in events {
        out!("  {}: {}", e.kind, e.text);
    }
}

/// `apply`: the `Apply` reply.
pub fn applied(reply: &proto::ApplyResponse, as_json: bool) -> anyhow::Result<()> {
    let report = required(reply.position.as_ref(), "position")?;
    let mv = required(reply.r#move.as_ref(), "move")?;
    if as_json {
        print_json(crate::json::of(reply));
    } else {
        out!("played {}", mv.text);
        events(&reply.events);
        print_report(report);
    }
    Ok(())
}

fn stats_text(stats: &proto::SearchStats) -> String {
    let iterations = match stats.iterations {
        0 => String::new(),
        n => format!(" iterations {n}"),
    };
    format!(
        "depth {} seldepth {} nodes {}{iterations} nps {} time {}",
        stats.depth, stats.seldepth, stats.nodes, stats.nps, stats.time_ms
    )
}

/// The server's notes on a search's budget, one `note:` line each.
fn stats_notes(stats: &proto::SearchStats) {
    for note in [&stats.clamped, &stats.budget, &stats.interrupted] {
        if !note.is_empty() {
            out!("note: {note}");
        }
    }
}

/// `eval`: the `Evaluate` reply.
pub fn evaluation(reply: &proto::EvaluateResponse, as_json: bool) -> anyhow::Result<()> {
    let score = required(reply.score.as_ref(), "score")?;
    if as_json {
        print_json(crate::json::of(reply));
    } else {
        out!(
            "score {} win_probability {:.3}",
            score_text(Some(score)),
            score.win_probability
        );
        match &reply.stats {
            Some(stats) => {
                out!("searched: {}", stats_text(stats));
                stats_notes(stats);
            }
            None => out!("static evaluation"),
        }
    }
    Ok(())
}

/// `best`: the `BestMove` reply.
pub fn best(reply: &proto::BestMoveResponse, as_json: bool) -> anyhow::Result<()> {
    let mv = required(reply.best_move.as_ref(), "best move")?;
    let stats = required(reply.stats.as_ref(), "stats")?;
    let score = reply.score.as_ref();
    if as_json {
        print_json(crate::json::of(reply));
    } else {
        out!(
            "bestmove {} score {} win_probability {:.3}",
            mv.text,
            score_text(score),
            win_probability(score)
        );
        out!("pv {}", reply.moves.join(" "));
        out!("{}", stats_text(stats));
        stats_notes(stats);
    }
    Ok(())
}

/// One `analyze` update: an `Analyze` stream message.
pub fn analysis(update: &proto::AnalysisUpdate, as_json: bool) {
    if as_json {
        return print_json(crate::json::of(update));
    }
    let stats = update.stats.clone().unwrap_or_default();
    for l in &update.lines {
        out!(
            "info depth {} seldepth {} multipv {} nodes {} nps {} time {} score {} pv {}",
            stats.depth,
            stats.seldepth,
            l.rank,
            stats.nodes,
            stats.nps,
            stats.time_ms,
            score_text(l.score.as_ref()),
            l.moves.join(" ")
        );
    }
    if update.r#final {
        match update.lines.first().and_then(|l| l.moves.first()) {
            Some(mv) => out!("bestmove {mv}"),
            None => out!("bestmove (none)"),
        }
        out!("final: {}", stats_text(&stats));
        stats_notes(&stats);
    }
}

/// `perft`: the `Perft` reply.
pub fn perft(reply: &proto::PerftResponse, as_json: bool) {
    if as_json {
        return print_json(crate::json::of(reply));
    }
    for d in &reply.divide {
        out!("{}: {}", d.r#move, d.nodes);
    }
    out!("nodes {}", reply.nodes);
}

/// `n` and the noun in the right number: `1 loss`, `2 losses`.
pub fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_people_read_them() {
        let text = |value| {
            score_text(Some(&proto::Score {
                value: Some(value),
                win_probability: 1.0,
            }))
        };
        // A win in 3 plies is one in 2 moves of the side to move.
        assert_eq!(text(Value::MatePlies(3)), "#2");
        assert_eq!(text(Value::MatePlies(-2)), "#-1");
        assert_eq!(text(Value::Centi(-35)), "cp -35");
        assert_eq!(text(Value::Draw(true)), "draw");
        assert_eq!(score_text(None), "none");
    }

    /// A mover's search score before its move, as the record's evaluation
    /// after it: White's view (White is `Player::Two`, as in Tablut), a
    /// forced result one ply nearer.
    #[test]
    fn a_movers_score_is_recorded_as_whites_after_its_move() {
        let score = |value| proto::Score {
            value: Some(value),
            win_probability: 0.5,
        };
        let after =
            |value, ours| eval_after(Some(&score(value)), ours, Player::Two).map(|e| e.to_string());
        // Black wins in 3 plies, 2 after its move: one more black move.
        assert_eq!(
            after(Value::MatePlies(3), Player::One).as_deref(),
            Some("#-1")
        );
        // White loses in 2 plies, 1 after its move: black's one move.
        assert_eq!(
            after(Value::MatePlies(-2), Player::Two).as_deref(),
            Some("#-1")
        );
        assert_eq!(
            after(Value::MatePlies(5), Player::Two).as_deref(),
            Some("#2")
        );
        // A move that wins at once ends the game: no evaluation.
        assert_eq!(after(Value::MatePlies(1), Player::One), None);
        assert_eq!(
            after(Value::Centi(40), Player::One).as_deref(),
            Some("cp -40")
        );
        assert_eq!(
            after(Value::Draw(true), Player::Two).as_deref(),
            Some("draw")
        );
    }

    #[test]
    fn counts_take_the_number_of_their_noun() {
        assert_eq!(counted(1, "loss", "losses"), "1 loss");
        assert_eq!(counted(0, "loss", "losses"), "0 losses");
        assert_eq!(counted(2, "win", "wins"), "2 wins");
    }
}
