//! `caber review GAMEFILE`: every move of a recorded game judged by the
//! service's `Review`, as text, JSON or an evaluation chart.

use std::path::Path;

use anyhow::Context;
use caber_service::proto;
use serde_json::json;

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
    chart_file: Option<&Path>,
) -> anyhow::Result<()> {
    let record = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the game record {}", file.display()))?;
    let json = session.common.json;
    let request = proto::ReviewRequest {
        record,
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
    if let Some(path) = chart_file {
        let info = session.game_info_of(&summary.game).await?;
        // From the view of the side that starts, as Lichess charts white's.
        let side = sides::moves_first(&info, &summary.variant).unwrap_or(proto::Side::One);
        let viewpoint = (side, Sides::of(&info).name(side).to_string());
        let title = format!("{} ({}): {}", summary.game, summary.variant, file.display());
        std::fs::write(path, chart::svg(&title, &viewpoint, &moves))
            .with_context(|| format!("cannot write the chart {}", path.display()))?;
    }
    if json {
        print_json(&summary, &moves);
    } else {
        print_text(&summary, &moves);
    }
    Ok(())
}

fn print_text(summary: &proto::ReviewUpdate, moves: &[proto::MoveReview]) {
    out!(
        "review of {} ({}): {}",
        summary.game,
        summary.variant,
        counted(moves.len() as u32, "move", "moves")
    );
    for m in moves {
        let played = m.played.as_ref().map_or("", |p| p.text.as_str());
        let mut line = format!(
            "{:>3}. {:<9} {:<14} win {:.2} -> {:.2}",
            m.ply, m.mover_name, played, m.win_before, m.win_after
        );
        let judgement = m.judgement();
        if judgement != proto::Judgement::Good {
            let best = m.best.as_ref().map_or("", |b| b.text.as_str());
            line.push_str(&format!(
                "  {} (-{:.2}), best {best} ({})",
                judgement_name(judgement),
                m.loss,
                crate::output::score_text(m.before.as_ref())
            ));
        }
        out!("{}", line.trim_end());
    }
    for p in &summary.players {
        let who = if p.player.is_empty() {
            p.name.clone()
        } else {
            format!("{} ({})", p.name, p.player)
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
    if let Some(o) = summary
        .final_position
        .as_ref()
        .and_then(|p| p.outcome.as_ref())
    {
        out!("result: {}", crate::output::outcome_text(o));
    }
}

fn judgement_name(j: proto::Judgement) -> &'static str {
    match j {
        proto::Judgement::Inaccuracy => "inaccuracy",
        proto::Judgement::Mistake => "mistake",
        proto::Judgement::Blunder => "blunder",
        _ => "good",
    }
}

fn print_json(summary: &proto::ReviewUpdate, moves: &[proto::MoveReview]) {
    let moves: Vec<_> = moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "mover": m.mover_name,
                "played": m.played.as_ref().map(|p| &p.text),
                "best": m.best.as_ref().map(|b| &b.text),
                "best_line": m.best_line,
                "score_before": crate::output::score_json(m.before.as_ref()),
                "score_after": crate::output::score_json(m.after.as_ref()),
                "win_before": m.win_before,
                "win_after": m.win_after,
                "loss": m.loss,
                "judgement": judgement_name(m.judgement()),
                "accuracy": m.accuracy,
            })
        })
        .collect();
    let players: Vec<_> = summary
        .players
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "player": p.player,
                "moves": p.moves,
                "accuracy": (p.moves > 0).then_some(p.accuracy),
                "inaccuracies": p.inaccuracies,
                "mistakes": p.mistakes,
                "blunders": p.blunders,
            })
        })
        .collect();
    let outcome = summary
        .final_position
        .as_ref()
        .and_then(|p| p.outcome.as_ref())
        .map(crate::output::outcome_text);
    out!(
        "{}",
        json!({
            "game": summary.game,
            "variant": summary.variant,
            "moves": moves,
            "players": players,
            "result": outcome,
        })
    );
}
