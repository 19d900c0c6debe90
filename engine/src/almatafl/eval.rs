//! A cheap static evaluation: the King's distance to an escape spot, invaders
//! able to bury him, discs on top, and mobility. The winning moves are
//! hinted, and the invaders must answer an escape in one at the horizon.

use std::collections::VecDeque;

use super::board::{geometry, CELLS, NONE};
use super::movegen::may_land;
use super::stack::{height, pop, top, DEFENDER, INVADER, KING};
use super::{AlmaTafl, Move};
use crate::eval::Evaluator;
use crate::game::Player;

/// Weight of a defender disc on top of a stack.
const DEFENDER_TOP: i32 = 100;
/// Weight of an invader on top of a stack.
const INVADER_TOP: i32 = 40;
/// Weight of one pseudo-legal step of mobility.
const MOBILITY: i32 = 3;
/// Penalty per invader able to bury the King now.
const BURY_THREAT: i32 = 150;
/// Bonus when the King needs 1, 2 or 3 turns to escape on the current board.
const ESCAPE_DISTANCE: [i32; 3] = [400, 150, 50];

/// AlmaTafl's evaluation for the searchers: the King's distance to an escape
/// spot, invaders able to bury him, discs on top, and mobility.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evaluation;

impl Evaluator<AlmaTafl> for Evaluation {
    const HINTS: bool = true;

    /// Centi-units from the side to move's view.
    fn evaluate(&self, pos: &AlmaTafl) -> i32 {
        evaluate(pos)
    }

    /// The moves that win at once: the King onto an escape spot, an invader
    /// onto the King.
    fn move_hint(&self, pos: &AlmaTafl, mv: &Move) -> i32 {
        let (from, to) = (mv.from().index(), mv.to().index());
        let king = pos.king as usize;
        if from == king && geometry().escape[to] {
            1000
        } else if pos.side == Player::One && to == king {
            500
        } else {
            0
        }
    }

    /// The invaders to move while the King can escape in one move (bounces
    /// included): standing pat would miss it.
    fn must_answer(&self, pos: &AlmaTafl) -> bool {
        pos.side == Player::One && escape_distance(pos, 1) == Some(1)
    }
}

fn evaluate(pos: &AlmaTafl) -> i32 {
    let geo = geometry();
    let (mut def_tops, mut inv_tops, mut mobility) = (0, 0, 0);
    for from in 0..CELLS {
        let s = pos.board[from];
        let piece = top(s);
        if piece == 0 || piece == KING {
            continue;
        }
        let moves = (0..6)
            .filter(|&dir| {
                let to = geo.ray[from][dir][height(s) - 1];
                to != NONE && may_land(geo, &pos.board, piece, to as usize)
            })
            .count() as i32;
        if piece == DEFENDER {
            def_tops += 1;
            mobility += moves;
        } else {
            inv_tops += 1;
            mobility -= moves;
        }
    }
    let mut v = DEFENDER_TOP * def_tops - INVADER_TOP * inv_tops + MOBILITY * mobility
        - BURY_THREAT * bury_threats(pos);
    if let Some(d) = escape_distance(pos, ESCAPE_DISTANCE.len()) {
        v += ESCAPE_DISTANCE[d - 1];
    }
    match pos.side {
        Player::One => -v,
        Player::Two => v,
    }
}

/// The number of invaders that could land on the King now.
fn bury_threats(pos: &AlmaTafl) -> i32 {
    let geo = geometry();
    let k = pos.king as usize;
    if height(pos.board[k]) >= 3 {
        return 0;
    }
    let mut n = 0;
    for dir in 0..6 {
        for d in 1..=3 {
            let c = geo.ray[k][dir][d - 1];
            if c != NONE
                && top(pos.board[c as usize]) == INVADER
                && height(pos.board[c as usize]) == d
            {
                n += 1;
            }
        }
    }
    n
}

/// Fewest King turns (bounces are free) to an escape spot if nothing else
/// moved, when at most `limit`.
fn escape_distance(pos: &AlmaTafl, limit: usize) -> Option<usize> {
    let geo = geometry();
    let start = pos.king as usize;
    let mut base = pos.board;
    base[start] = pop(base[start]);
    let mut dist = [usize::MAX; CELLS];
    dist[start] = 0;
    let mut queue = VecDeque::from([start]);
    while let Some(u) = queue.pop_front() {
        if geo.escape[u] {
            return Some(dist[u]);
        }
        let bounce = u != start && top(base[u]) == INVADER;
        let cost = usize::from(!bounce);
        let d = if u == start {
            height(pos.board[start])
        } else {
            height(base[u]) + 1
        };
        for dir in 0..6 {
            let t = geo.ray[u][dir][d - 1];
            if t == NONE || t as usize == start || !may_land(geo, &base, KING, t as usize) {
                continue;
            }
            let t = t as usize;
            let nd = dist[u] + cost;
            if nd < dist[t] && nd <= limit {
                dist[t] = nd;
                if bounce {
                    queue.push_front(t);
                } else {
                    queue.push_back(t);
                }
            }
        }
    }
    None
}
