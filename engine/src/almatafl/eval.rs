//! A cheap static evaluation: the King's distance to an escape spot, invaders
//! able to bury him, discs on top, and mobility. The winning moves are
//! hinted, and the invaders must answer an escape in one at the horizon.

use std::collections::VecDeque;

use super::board::{geometry, CELLS, NONE};
use super::movegen::may_land;
use super::stack::{height, pop, top, DEFENDER, INVADER, KING};
use super::{AlmaTafl, Move};
use crate::eval::{weights, Evaluator, Weights};
use crate::game::Player;

weights! {
    /// AlmaTafl's evaluation for the searchers: the King's distance to an
    /// escape spot, invaders able to bury him, discs on top, and mobility.
    /// Its fields are its weights.
    pub struct Evaluation {
        /// A defender disc on top of a stack.
        defender_top = 100,
        /// An invader on top of a stack.
        invader_top = 40,
        /// One pseudo-legal step of mobility.
        mobility = 3,
        /// Per invader able to bury the King now.
        bury_threat = 150,
        /// The King one turn from an escape on the current board.
        escape_in_1 = 400,
        /// The King two turns from an escape.
        escape_in_2 = 150,
        /// The King three turns from an escape.
        escape_in_3 = 50,
    }
}

impl Evaluator<AlmaTafl> for Evaluation {
    const HINTS: bool = true;
    const WEIGHTS: &'static [(&'static str, i32)] = <Self as Weights>::DEFAULTS;

    fn set_weight(&mut self, name: &str, value: i32) -> bool {
        self.set(name, value)
    }

    /// Centi-units from the side to move's view.
    fn evaluate(&self, pos: &AlmaTafl) -> i32 {
        evaluate(self, pos)
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

fn evaluate(w: &Evaluation, pos: &AlmaTafl) -> i32 {
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
    let mut v = w.defender_top * def_tops - w.invader_top * inv_tops + w.mobility * mobility
        - w.bury_threat * bury_threats(pos);
    v += match escape_distance(pos, 3) {
        Some(1) => w.escape_in_1,
        Some(2) => w.escape_in_2,
        Some(3) => w.escape_in_3,
        _ => 0,
    };
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
