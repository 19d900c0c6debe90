//! What a move did, for reporting.

use super::{Cell, Move, Phase, Tartan};
use crate::game::{Event, Game, GameResult, Outcome, Player};

fn event(kind: &'static str, cells: &[Cell], text: String) -> Event {
    Event {
        kind,
        cells: cells.iter().map(|c| c.name()).collect(),
        text,
    }
}

fn unit_name(height: u8) -> &'static str {
    match height {
        1 => "Family",
        2 => "Horde",
        3 => "Army",
        _ => "Cathedral",
    }
}

/// The unit's name with its article: "a Horde", "an Army".
fn a_unit(height: u8) -> String {
    let name = unit_name(height);
    let article = if name.starts_with('A') { "an" } else { "a" };
    format!("{article} {name}")
}

fn name(p: Player) -> &'static str {
    Tartan::player_name(p)
}

/// The events of a legal move `mv` played from `before` to `after`, which
/// ended the game with `outcome` (if any).
pub(crate) fn events(
    before: &Tartan,
    mv: &Move,
    after: &Tartan,
    outcome: Option<&Outcome>,
) -> Vec<Event> {
    let me = before.side;
    let mut out = Vec::new();
    match *mv {
        Move::Place(c) => {
            out.push(event(
                "place",
                &[c],
                format!("{} places a Family on {c}", name(me)),
            ));
            if after.phase == Phase::Play {
                let central = Cell(after.variant.geometry().central);
                out.push(event(
                    "play",
                    &[central],
                    format!(
                        "nobody can place any more: both Bishops go on {central}, and {} moves first",
                        name(after.side)
                    ),
                ));
            }
        }
        Move::Pass => out.push(event(
            "pass",
            &[],
            format!("{} has no legal action and passes", name(me)),
        )),
        Move::Unit(path) => {
            let cells: Vec<Cell> = path.cells().collect();
            let mut h = before.height[cells[0].index()];
            for (hop, &to) in cells[1..].iter().enumerate() {
                if hop > 0 {
                    out.push(event(
                        "bounce",
                        &[cells[hop], to],
                        format!("the new {} bounces to {to}", unit_name(h)),
                    ));
                }
                // What stood on `to` when the unit arrived: taken in order.
                let earlier = cells[..=hop].contains(&to);
                match before.stack(to).filter(|_| !earlier) {
                    Some((owner, t)) if owner == me => {
                        h += t;
                        out.push(event(
                            "union",
                            &[to],
                            format!("{} forms {} on {to}", name(me), a_unit(h)),
                        ));
                    }
                    Some((owner, t)) => out.push(event(
                        "capture",
                        &[to],
                        format!(
                            "{}'s {} captures {}'s {} on {to}",
                            name(me),
                            unit_name(h),
                            name(owner),
                            unit_name(t)
                        ),
                    )),
                    None => {}
                }
            }
        }
        Move::Bishop { to, .. } => {
            let text = match before.stack(to) {
                Some((owner, h)) => format!(
                    "{}'s Bishop blesses {}'s {} on {to}",
                    name(me),
                    name(owner),
                    unit_name(h)
                ),
                None => format!("{}'s Bishop goes to {to}", name(me)),
            };
            out.push(event("bishop", &[to], text));
        }
        Move::Dismantle { horde, cells } => out.push(event(
            "dismantle",
            &[horde, cells[0], cells[1], cells[2]],
            format!(
                "{} dismantles the Horde on {horde} into Families on {}, {} and {}",
                name(me),
                cells[0],
                cells[1],
                cells[2]
            ),
        )),
    }
    match outcome.map(|o| (o.result, o.reason)) {
        Some((GameResult::Win(p), _)) => {
            let b = after.bishop(p).expect("a coronation has a Bishop");
            out.push(event(
                "coronation",
                &[b],
                format!(
                    "{}'s Bishop stands on a {} Cathedral on {b}: {} wins",
                    name(p),
                    name(p),
                    name(p)
                ),
            ));
        }
        Some((GameResult::Draw, reason)) => out.push(event("draw", &[], format!("draw: {reason}"))),
        None => {}
    }
    out
}
