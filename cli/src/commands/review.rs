//! `caber review GAMEFILE`: every move of a recorded game judged by the
//! service's `Review`, as text, JSON or an evaluation chart.

use std::path::{Path, PathBuf};

use anyhow::Context;
use caber_engine::record::{Eval, GameRecord, RecordResult};
use caber_engine::Player;
use caber_service::proto;

use super::{status, Session};
use crate::args::SearchArgs;
use crate::output::{counted, out};
use crate::sides::Sides;
use crate::{chart, progress};

/// Reviews the record in `file` with `args` as each position's budget.
pub async fn run(
    session: &mut Session,
    file: &Path,
    args: &SearchArgs,
    outputs: &ReviewOutputs,
) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the game record {}", file.display()))?;
    // Its tags, for a result the moves do not show (the service checks the rest).
    let record = GameRecord::parse(&text).ok();
    let json = session.common.json;
    let request = proto::ReviewRequest {
        record: text,
        limits: super::search::limits(args, session.common.seed),
        searcher: args.searcher.clone(),
    };
    let mut stream = session
        .client
        .review(request)
        .await
        .map_err(status)?
        .into_inner();
    // Sized by the first update, which says how many moves to expect.
    let bar = progress::bar(0, "reviewing move", json);
    let mut moves = Vec::new();
    let mut summary = None;
    while let Some(update) = stream.message().await.map_err(status)? {
        if json {
            // One object per update, as the stream sends them.
            out!("{}", crate::json::of(&update));
        }
        bar.set_length(update.moves.into());
        match update.r#move {
            Some(m) => {
                bar.inc(1);
                bar.set_message(m.played.as_ref().map_or(String::new(), |p| p.text.clone()));
                moves.push(m);
            }
            None => summary = Some(update),
        }
    }
    bar.finish_and_clear();
    let summary = summary.context("the review ended without its summary")?;
    // Everything from White's view, as Lichess shows white's.
    let sides = Sides::of(&session.game_info_of(&summary.game).await?);
    if let Some(path) = &outputs.chart {
        let white = sides.white();
        let viewpoint = (white, sides.name(white).to_string());
        let players: Vec<String> = summary
            .players
            .iter()
            .map(|p| match p.player.as_str() {
                "" => p.side_name.clone(),
                who => format!("{} ({who})", p.side_name),
            })
            .collect();
        let title = format!(
            "{} ({}): {}",
            summary.game,
            summary.variant,
            players.join(" vs ")
        );
        std::fs::write(
            path,
            chart::svg(&title, &viewpoint, &moves, summary.inaccuracy),
        )
        .with_context(|| format!("cannot write the chart {}", path.display()))?;
    }
    if let Some(path) = &outputs.annotate {
        let record = record
            .clone()
            .context("the record's tags could not be read")?;
        std::fs::write(path, annotated(record, &moves, &sides)?.to_string())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !json {
        let ended = ended(&summary, record.as_ref(), &sides);
        print_text(&summary, &moves, &ended, &sides);
    }
    Ok(())
}

/// What a review writes besides its report.
pub struct ReviewOutputs {
    /// The evaluation chart (SVG).
    pub chart: Option<PathBuf>,
    /// The record again, each move's evaluation and judgement as comments.
    pub annotate: Option<PathBuf>,
}

/// The review for people: every win probability and score from White's
/// view, named.
fn print_text(
    summary: &proto::ReviewUpdate,
    moves: &[proto::MoveReview],
    ended: &str,
    sides: &Sides,
) {
    let white = sides.name(sides.white());
    out!(
        "review of {} ({}): {}, from {white}'s view",
        summary.game,
        summary.variant,
        counted(moves.len() as u32, "move", "moves")
    );
    // Columns as wide as the longest name and move (with its mark).
    let played = |m: &proto::MoveReview| {
        let text = m.played.as_ref().map_or("", |p| p.text.as_str());
        format!("{text}{}", mark(m.judgement()))
    };
    let name_width = moves.iter().map(|m| m.mover_name.len()).max().unwrap_or(0);
    let move_width = moves.iter().map(|m| played(m).len()).max().unwrap_or(0);
    for m in moves {
        // The mover's values, as White's.
        let whites = m.mover() == sides.white();
        let win = |p: f64| if whites { p } else { 1.0 - p };
        let mut line = format!(
            "{:>3}. {:<name_width$} {:<move_width$}  {white} {:.2} -> {:.2}",
            m.ply,
            m.mover_name,
            played(m),
            win(m.win_before),
            win(m.win_after)
        );
        // A sampled estimate's uncertainty: what the judgement discounts.
        if m.noise >= 0.005 {
            line.push_str(&format!(" ±{:.2}", m.noise));
        }
        let judgement = m.judgement();
        if judgement != proto::Judgement::Good {
            let best = m.best.as_ref().map_or("", |b| b.text.as_str());
            let score = whites_eval(m.before.as_ref(), m.mover(), sides)
                .map_or("none".to_string(), |e| e.to_string());
            line.push_str(&format!(
                "  {} (lost {:.2}), best {best} ({score})",
                judgement_name(judgement),
                m.loss,
            ));
        }
        out!("{}", line.trim_end());
    }
    for p in &summary.players {
        let who = if p.player.is_empty() {
            p.side_name.clone()
        } else {
            format!("{} ({})", p.side_name, p.player)
        };
        if p.moves == 0 {
            out!("{who}: no move");
            continue;
        }
        out!(
            "{who}: accuracy {:.1}%, {}, {}, {}",
            p.accuracy,
            counted(p.inaccuracies, "inaccuracy", "inaccuracies"),
            counted(p.mistakes, "mistake", "mistakes"),
            counted(p.blunders, "blunder", "blunders")
        );
    }
    out!("result: {ended}");
}

/// Lichess' marks of a judged move: `?!`, `?`, `??`.
fn mark(j: proto::Judgement) -> &'static str {
    match j {
        proto::Judgement::Inaccuracy => "?!",
        proto::Judgement::Mistake => "?",
        proto::Judgement::Blunder => "??",
        _ => "",
    }
}

/// A score from `mover`'s view as White's, as people read it (`cp N`, `#N`,
/// `draw`).
fn whites_eval(score: Option<&proto::Score>, mover: proto::Side, sides: &Sides) -> Option<Eval> {
    let mover = Player::try_from(mover).ok()?;
    crate::output::eval(score).map(|e| e.seen_by(mover, sides.white_player()))
}

/// How the game ended: the final position's outcome, else the record's
/// result (as its format means it) and reason (a resignation, a lost
/// clock), else unfinished.
fn ended(summary: &proto::ReviewUpdate, record: Option<&GameRecord>, sides: &Sides) -> String {
    if let Some(o) = summary
        .final_position
        .as_ref()
        .and_then(|p| p.outcome.as_ref())
    {
        return crate::output::outcome_text(o);
    }
    let reason = record
        .and_then(|r| r.tag("Reason"))
        .filter(|r| !r.is_empty())
        .map_or(String::new(), |r| format!(" ({r})"));
    match record.and_then(|r| r.result(sides.white_player())) {
        Some(RecordResult::Won(p)) => {
            let name = summary
                .players
                .get(p.index())
                .map_or("?", |p| p.side_name.as_str());
            format!("{name} won{reason}")
        }
        Some(RecordResult::Draw) => format!("draw{reason}"),
        _ => "unfinished".to_string(),
    }
}

/// The record in the current format (an older one upgraded) with each
/// reviewed move's evaluation (`[%eval]`, White's after the move) and, for
/// a judged move, a comment with its mark, loss and the better move;
/// earlier marks are replaced.
fn annotated(
    mut record: GameRecord,
    moves: &[proto::MoveReview],
    sides: &Sides,
) -> anyhow::Result<GameRecord> {
    let movers = moves
        .iter()
        .map(|m| Player::try_from(m.mover()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|()| anyhow::anyhow!("the review names no mover of a move"))?;
    record.upgrade(sides.white_player(), &movers);
    for (recorded, m) in record.moves.iter_mut().zip(moves) {
        recorded.eval = whites_eval(m.after.as_ref(), m.mover(), sides);
        recorded.comments.retain(|c| !c.starts_with('?'));
        let judgement = m.judgement();
        if judgement != proto::Judgement::Good {
            let best = m.best.as_ref().map_or("", |b| b.text.as_str());
            recorded.comments.push(format!(
                "{} {} (lost {:.2}), best {best}",
                mark(judgement),
                judgement_name(judgement),
                m.loss
            ));
        }
    }
    Ok(record)
}

fn judgement_name(j: proto::Judgement) -> &'static str {
    match j {
        proto::Judgement::Inaccuracy => "inaccuracy",
        proto::Judgement::Mistake => "mistake",
        proto::Judgement::Blunder => "blunder",
        _ => "good",
    }
}
