//! The engine loop's answers as UCI writes them: scores, `info` lines and
//! `bestmove`.

use caber_service::proto::{self, score::Value};

/// A score as UCI writes it: `cp N` (also for a draw) or `mate M`, M in the
/// side to move's moves (negative when it loses).
pub fn uci_score(score: Option<&proto::Score>) -> String {
    match score.and_then(|s| s.value.as_ref()) {
        Some(Value::Centi(c)) => format!("cp {c}"),
        Some(Value::MatePlies(p)) => {
            let moves = p.unsigned_abs().div_ceil(2);
            if *p > 0 {
                format!("mate {moves}")
            } else {
                format!("mate -{moves}")
            }
        }
        Some(Value::Draw(_)) | None => "cp 0".to_string(),
    }
}

/// Whether a report comes from a finished iteration: a completed depth of
/// alpha-beta, at least one iteration of a Monte Carlo search (its depth is
/// its line's length). Only such a report names a searched move.
pub fn finished(update: &proto::AnalysisUpdate) -> bool {
    update.stats.as_ref().is_some_and(|s| s.depth >= 1) && !update.lines.is_empty()
}

/// The `info` lines of a report, one per principal variation.
pub fn info_lines(update: &proto::AnalysisUpdate) -> Vec<String> {
    let stats = update.stats.clone().unwrap_or_default();
    update
        .lines
        .iter()
        .map(|l| {
            let mut line = format!(
                "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {}",
                stats.depth,
                stats.seldepth,
                l.rank,
                uci_score(l.score.as_ref()),
                stats.nodes,
                stats.nps,
                stats.time_ms
            );
            if !l.moves.is_empty() {
                line.push_str(" pv ");
                line.push_str(&l.moves.join(" "));
            }
            line
        })
        .collect()
}

/// What a report says of the search, its speed and time left out: a final
/// report that says nothing new is not printed again.
pub fn searched(update: &proto::AnalysisUpdate) -> Vec<String> {
    let mut update = update.clone();
    if let Some(stats) = update.stats.as_mut() {
        (stats.nps, stats.time_ms) = (0, 0);
    }
    info_lines(&update)
}

/// The `bestmove` line of a report: its best line's first move, with the
/// reply to ponder on when the line has one (`(none)` without a line).
pub fn bestmove_line(update: &proto::AnalysisUpdate) -> String {
    let best = update
        .lines
        .iter()
        .find(|l| l.rank == 1)
        .or(update.lines.first());
    match best.map(|l| l.moves.as_slice()) {
        Some([mv, reply, ..]) => format!("bestmove {mv} ponder {reply}"),
        Some([mv]) => format!("bestmove {mv}"),
        _ => "bestmove (none)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_best_moves_are_written_as_uci_does() {
        let score = |v| {
            Some(proto::Score {
                value: Some(v),
                win_probability: 0.5,
            })
        };
        assert_eq!(uci_score(score(Value::Centi(-35)).as_ref()), "cp -35");
        assert_eq!(uci_score(score(Value::MatePlies(1)).as_ref()), "mate 1");
        assert_eq!(uci_score(score(Value::MatePlies(3)).as_ref()), "mate 2");
        assert_eq!(uci_score(score(Value::MatePlies(-2)).as_ref()), "mate -1");
        assert_eq!(uci_score(score(Value::Draw(true)).as_ref()), "cp 0");
        let line = |rank, moves: &[&str]| proto::PvLine {
            rank,
            score: score(Value::Centi(12)),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            visits: 0,
            sampled: Vec::new(),
        };
        let mut update = proto::AnalysisUpdate {
            r#final: true,
            stats: Some(proto::SearchStats {
                depth: 4,
                nodes: 900,
                ..Default::default()
            }),
            lines: vec![line(1, &["e4-d4", "i4-e4"])],
        };
        assert_eq!(
            info_lines(&update),
            ["info depth 4 seldepth 0 multipv 1 score cp 12 nodes 900 nps 0 time 0 pv e4-d4 i4-e4"]
        );
        assert_eq!(bestmove_line(&update), "bestmove e4-d4 ponder i4-e4");
        assert!(finished(&update));
        // Depth 0: no iteration finished, whatever move the report names.
        update.stats.as_mut().unwrap().depth = 0;
        assert!(!finished(&update));
        update.lines.clear();
        assert_eq!(bestmove_line(&update), "bestmove (none)");
    }
}
