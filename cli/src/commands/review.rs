//! `caber review GAMEFILE`: every move of a recorded game judged by the
//! service's `Review`, as text, JSON or an evaluation chart.

use std::path::{Path, PathBuf};

use anyhow::Context;
use caber_engine::record::{GameRecord, RecordResult};
use caber_service::proto::{self, score::Value};

use super::{status, Session};
use crate::args::SearchArgs;
use crate::output::{counted, out};
use crate::sides::{self, Sides};
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
    if let Some(path) = &outputs.chart {
        let info = session.game_info_of(&summary.game).await?;
        // From the view of the side that starts, as Lichess charts white's.
        let side = sides::moves_first(&info, &summary.variant).unwrap_or(proto::Side::One);
        let viewpoint = (side, Sides::of(&info).name(side).to_string());
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
        std::fs::write(path, annotated(record, &moves).to_string())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !json {
        print_text(&summary, &moves, &ended(&summary, record.as_ref()));
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

fn print_text(summary: &proto::ReviewUpdate, moves: &[proto::MoveReview], ended: &str) {
    out!(
        "review of {} ({}): {}",
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
        let mut line = format!(
            "{:>3}. {:<name_width$} {:<move_width$}  win {:.2} -> {:.2}",
            m.ply,
            m.mover_name,
            played(m),
            m.win_before,
            m.win_after
        );
        // A sampled estimate's uncertainty: what the judgement discounts.
        if m.noise >= 0.005 {
            line.push_str(&format!(" ±{:.2}", m.noise));
        }
        let judgement = m.judgement();
        if judgement != proto::Judgement::Good {
            let best = m.best.as_ref().map_or("", |b| b.text.as_str());
            line.push_str(&format!(
                "  {} (-{:.2}), best {best} ({})",
                judgement_name(judgement),
                m.loss,
                score_words(m.before.as_ref())
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

/// A score for people: `cp 35`, `win in 2` or `loss in 1` (the mover's
/// moves to a forced end), `draw`.
fn score_words(score: Option<&proto::Score>) -> String {
    match score.and_then(|s| s.value.as_ref()) {
        Some(Value::MatePlies(n)) if *n > 0 => format!("win in {}", n.unsigned_abs().div_ceil(2)),
        Some(Value::MatePlies(n)) => format!("loss in {}", n.unsigned_abs().div_ceil(2)),
        _ => crate::output::score_text(score),
    }
}

/// How the game ended: the final position's outcome, else the record's
/// result and reason (a resignation, a lost clock), else unfinished.
fn ended(summary: &proto::ReviewUpdate, record: Option<&GameRecord>) -> String {
    if let Some(o) = summary
        .final_position
        .as_ref()
        .and_then(|p| p.outcome.as_ref())
    {
        return crate::output::outcome_text(o);
    }
    let name = |i: usize| summary.players.get(i).map_or("?", |p| p.side_name.as_str());
    let reason = record
        .and_then(|r| r.tag("Reason"))
        .filter(|r| !r.is_empty())
        .map_or(String::new(), |r| format!(" ({r})"));
    match record.and_then(GameRecord::result) {
        Some(RecordResult::FirstWon) => format!("{} won{reason}", name(0)),
        Some(RecordResult::SecondWon) => format!("{} won{reason}", name(1)),
        Some(RecordResult::Draw) => format!("draw{reason}"),
        _ => "unfinished".to_string(),
    }
}

/// The record with each reviewed move's evaluation (`[%eval]`, from the
/// mover's view after the move) and, for a judged move, a comment with its
/// mark, loss and the better move; earlier marks are replaced.
fn annotated(mut record: GameRecord, moves: &[proto::MoveReview]) -> GameRecord {
    for (recorded, m) in record.moves.iter_mut().zip(moves) {
        recorded.eval = crate::output::record_eval(m.after.as_ref());
        recorded.comments.retain(|c| !c.starts_with('?'));
        let judgement = m.judgement();
        if judgement != proto::Judgement::Good {
            let best = m.best.as_ref().map_or("", |b| b.text.as_str());
            recorded.comments.push(format!(
                "{} {} (-{:.2}), best {best}",
                mark(judgement),
                judgement_name(judgement),
                m.loss
            ));
        }
    }
    record
}

fn judgement_name(j: proto::Judgement) -> &'static str {
    match j {
        proto::Judgement::Inaccuracy => "inaccuracy",
        proto::Judgement::Mistake => "mistake",
        proto::Judgement::Blunder => "blunder",
        _ => "good",
    }
}
