//! What a move did, for reporting.

use super::stack::{height, top, INVADER, KING};
use super::{cell, AlmaTafl, Move};
use crate::game::{Event, Game, GameResult, Outcome};

fn event(kind: &'static str, cells: &[usize], text: String) -> Event {
    Event {
        kind,
        cells: cells.iter().map(|&c| cell(c).name()).collect(),
        text,
    }
}

/// The events of a legal move `mv` played from `before` to `after`, which ended
/// the game with `outcome` (if any) and occurred `repetitions` times before.
pub(crate) fn events(
    before: &AlmaTafl,
    mv: &Move,
    after: &AlmaTafl,
    outcome: Option<&Outcome>,
    repetitions: usize,
) -> Vec<Event> {
    let raw: Vec<usize> = mv.raw().iter().map(|&c| c as usize).collect();
    let (from, to) = (raw[0], raw[raw.len() - 1]);
    let mut out = Vec::new();
    for &b in &raw[1..raw.len() - 1] {
        out.push(event(
            "bounce",
            &[b],
            format!("the King bounces off the invader on {}", cell(b).name()),
        ));
    }
    let under = before.board[to];
    if height(under) > 0 {
        let piece = if top(before.board[from]) == KING {
            "the King"
        } else if top(before.board[from]) == INVADER {
            "an invader"
        } else {
            "a defender"
        };
        out.push(event(
            "stack",
            &[to],
            format!(
                "{piece} lands on the stack on {}, now {} high",
                cell(to).name(),
                height(under) + 1
            ),
        ));
    }
    let k = after.king as usize;
    if let Some(o) = outcome {
        match o.reason {
            "king buried" => out.push(event(
                "king-buried",
                &[k],
                format!(
                    "an invader buries the King on {}: the invaders win",
                    cell(k).name()
                ),
            )),
            "king escaped" => out.push(event(
                "escape",
                &[k],
                format!("the King escapes on {}: the defenders win", cell(k).name()),
            )),
            "no active defender" => out.push(event(
                "no-defenders",
                &[],
                "no defender disc is on top of a stack any more: the invaders win".into(),
            )),
            _ => {}
        }
        if o.result == GameResult::Draw {
            out.push(event(
                "repetition",
                &[],
                "this position occurs for the third time: draw".into(),
            ));
        } else if o.reason == "no legal move" {
            out.push(event(
                "no-move",
                &[],
                format!(
                    "the {} have no legal move and lose",
                    AlmaTafl::player_name(after.side)
                ),
            ));
        }
    } else if repetitions == 1 {
        out.push(event(
            "repetition",
            &[],
            "this position occurs for the second time; a third would be a draw".into(),
        ));
    }
    out
}
