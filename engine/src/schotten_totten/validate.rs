//! Checks that a position given from outside (a setup, read from text or a
//! message) is one the rules can produce.

use super::board::{Board, Phase};
use super::cards::Card;
use super::formation::strength;
use super::text::pnum;
use super::Variant;
use crate::Player;

/// Checks the public part for impossible states.
pub(crate) fn validate_board(b: &Board, problems: &mut Vec<String>) {
    let tactics = b.variant.tactics();
    for (i, st) in b.stones.iter().enumerate() {
        let n = i + 1;
        if !tactics && (st.blind || st.mud) {
            problems.push(format!("stone {n}: combat mode in the classic variant"));
        }
        for p in [Player::One, Player::Two] {
            let side = &st.sides[p.index()];
            if side.len() > st.required() {
                problems.push(format!(
                    "stone {n}: {} cards on one side, at most {}",
                    side.len(),
                    st.required()
                ));
            }
            if let Some(c) = side.iter().find(|c| !c.is_troop()) {
                problems.push(format!("stone {n}: {c} cannot lie on a side"));
            }
            if side.iter().filter(|&&c| c == Card::JOKER).count() > 1 {
                problems.push(format!("stone {n}: two Jokers on one side"));
            }
        }
        let both = st.complete(Player::One) && st.complete(Player::Two);
        if both != st.first.is_some() {
            problems.push(format!(
                "stone {n}: the side that completed first is marked (*) exactly when both sides are complete"
            ));
        }
        if let Some(p) = st.claimed {
            if !st.complete(p) {
                problems.push(format!("stone {n}: claimed with an incomplete side"));
            } else if both {
                let (a, o) = (
                    strength(&st.sides[p.index()], st.blind),
                    strength(&st.sides[p.opponent().index()], st.blind),
                );
                if a < o || (a == o && st.first != Some(p)) {
                    problems.push(format!("stone {n}: claimed by the weaker side"));
                }
            }
        }
    }
    for p in [Player::One, Player::Two] {
        let jokers = b
            .stones
            .iter()
            .filter(|s| s.sides[p.index()].contains(&Card::JOKER))
            .count();
        if jokers > 1 {
            problems.push(format!("player {} has two Jokers on the table", pnum(p)));
        }
        let elites = b
            .stones
            .iter()
            .flat_map(|s| s.sides[p.index()].iter())
            .filter(|c| c.is_elite())
            .count();
        if elites > b.tactics_played[p.index()] as usize {
            problems.push(format!(
                "player {} has more elite troops on the table than tactic cards played",
                pnum(p)
            ));
        }
    }
    let [t1, t2] = b.tactics_played;
    if !tactics && (t1, t2) != (0, 0) {
        problems.push("tactic cards played in the classic variant".into());
    }
    if t1.abs_diff(t2) > 1 {
        problems.push(format!("tactic counts {t1},{t2} differ by more than one"));
    }
    let mut on_table = 0usize;
    let mut visible = 0usize;
    for st in &b.stones {
        let n = st.sides.iter().flatten().filter(|c| c.is_tactic()).count()
            + st.blind as usize
            + st.mud as usize;
        on_table += n;
        visible += n;
    }
    visible += b.discard.iter().filter(|c| c.is_tactic()).count();
    let played = (t1 + t2) as usize;
    if played < on_table || played > visible {
        problems.push(format!(
            "tactic counts {t1},{t2} do not fit the {on_table} tactic cards on the table and {visible} seen"
        ));
    }
    if b.phase == Phase::Return && !b.discard.contains(&Card::RECRUITER) {
        problems.push("a Recruiter return is pending but no Recruiter was played".into());
    }
    if b.winner().is_some() {
        let both = [Player::One, Player::Two].iter().all(|&p| {
            let mut c = b.clone();
            for s in &mut c.stones {
                if s.claimed != Some(p) {
                    s.claimed = None;
                }
            }
            c.winner().is_some()
        });
        if both {
            problems.push("both players have won".into());
        }
    }
}

/// Checks the count of every card kind (exactly, or at most).
pub(crate) fn check_counts(
    variant: Variant,
    counts: &[u8],
    exact: bool,
    problems: &mut Vec<String>,
) {
    for c in Card::all() {
        let expected = if variant.tactics() || c.is_clan() {
            c.copies()
        } else {
            0
        };
        let n = counts[c.id() as usize];
        if (exact && n != expected) || n > expected {
            problems.push(format!("{c} appears {n} times, {expected} expected"));
        }
    }
}

/// Checks a hand's size (two more for the mover while returning).
pub(crate) fn check_hand_size(b: &Board, p: Player, len: usize, problems: &mut Vec<String>) {
    let max = b.variant.hand_size()
        + if b.phase == Phase::Return && b.to_move == p {
            2
        } else {
            0
        };
    if len > max {
        problems.push(format!(
            "player {} holds {len} cards, at most {max}",
            pnum(p)
        ));
    }
}
