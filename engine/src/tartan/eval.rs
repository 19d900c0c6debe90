//! A static evaluation that knows the goal: Cathedrals and how far each
//! player's Bishop is from one of its colour, Hordes that can unite into a
//! Cathedral, Families that can unite into Hordes, Bishops blocking, and
//! units open to capture.

use super::board::{bits, Geometry, NONE};
use super::{Phase, Tartan};
use crate::eval::{weights, Evaluator, Weights};
use crate::game::Player;

weights! {
    /// Tartan's evaluation for the searchers (see the module docs). Its
    /// fields are its weights.
    pub struct Evaluation {
        /// Each token not captured (on the board or in reserve).
        token = 100,
        /// A Family next to a friendly Family (a Horde one step away), per pair.
        family_pair = 12,
        /// A Horde.
        horde = 50,
        /// A Horde within reach of another (a Cathedral one move away).
        horde_pair = 150,
        /// An Army.
        army = 40,
        /// A Cathedral.
        cathedral = 500,
        /// The Bishop one step from a free Cathedral of its colour (a win next turn).
        bishop_near_1 = 400,
        /// The Bishop two steps from one.
        bishop_near_2 = 150,
        /// The Bishop three steps from one.
        bishop_near_3 = 60,
        /// A Bishop on an enemy Cathedral (blocking its coronation).
        block = 300,
        /// A Family an enemy unit can capture next turn.
        family_threatened = 35,
        /// A Horde an enemy Army can capture next turn.
        horde_threatened = 60,
        /// During placement, two friendly Families two steps apart.
        placement_pair = 10,
    }
}

impl Evaluator<Tartan> for Evaluation {
    const WEIGHTS: &'static [(&'static str, i32)] = <Self as Weights>::DEFAULTS;

    fn set_weight(&mut self, name: &str, value: i32) -> bool {
        self.set(name, value)
    }

    /// Centi-units from the side to move's view.
    fn evaluate(&self, pos: &Tartan) -> i32 {
        let me = pos.side;
        side_value(self, pos, me) - side_value(self, pos, me.opponent())
    }
}

/// Steps between two cells.
pub(crate) fn distance(geo: &Geometry, a: usize, b: usize) -> i32 {
    let (ac, ar) = geo.coords[a];
    let (bc, br) = geo.coords[b];
    let dc = bc as i32 - ac as i32;
    let dr = br as i32 - ar as i32;
    dc.abs().max(dr.abs()).max((dc - dr).abs())
}

fn side_value(w: &Evaluation, pos: &Tartan, p: Player) -> i32 {
    let geo = pos.variant.geometry();
    let mine = pos.mine(p);
    let theirs = pos.mine(p.opponent());
    let bishops = pos.bishop_mask();
    let on_board: i32 = bits(mine).map(|c| i32::from(pos.height[c])).sum();
    let mut v = w.token * (on_board + i32::from(pos.tokens[p.index()]));
    if pos.phase == Phase::Placement {
        for a in bits(mine) {
            for b in bits(mine & !((2u64 << a) - 1)) {
                if distance(geo, a, b) == 2 {
                    v += w.placement_pair;
                }
            }
        }
        return v;
    }
    let free_mine = mine & !bishops;
    let free_theirs = theirs & !bishops;
    let my_bishop = pos.bishops[p.index()];
    let their_bishop = pos.bishops[p.opponent().index()];
    for c in bits(mine) {
        match pos.height[c] {
            1 => {
                v += w.family_pair
                    * (geo.nbr_mask[c] & mine & !((2u64 << c) - 1)).count_ones() as i32;
                if free_mine & (1 << c) != 0
                    && bits(free_theirs).any(|e| pos.height[e] == 2 && distance(geo, c, e) <= 2)
                {
                    v -= w.family_threatened;
                }
            }
            2 => {
                v += w.horde;
                if free_mine & (1 << c) != 0 {
                    let partners = bits(free_mine & !((2u64 << c) - 1))
                        .any(|o| pos.height[o] == 2 && distance(geo, c, o) <= 2);
                    if partners {
                        v += w.horde_pair;
                    }
                    if army_threat(pos, geo, c, free_theirs) {
                        v -= w.horde_threatened;
                    }
                }
            }
            3 => v += w.army,
            _ => {
                v += w.cathedral;
                if my_bishop != NONE && their_bishop != c as u8 {
                    let d = distance(geo, my_bishop as usize, c) as usize;
                    v += match d {
                        1 => w.bishop_near_1,
                        2 => w.bishop_near_2,
                        3 => w.bishop_near_3,
                        _ => 0,
                    };
                }
            }
        }
    }
    if my_bishop != NONE && theirs & (1 << my_bishop) != 0 && pos.height[my_bishop as usize] == 4 {
        v += w.block;
    }
    v
}

/// Whether an enemy Army in `armies` can capture the Horde on `c` next turn
/// (three steps in a line over two empty cells).
fn army_threat(pos: &Tartan, geo: &Geometry, c: usize, armies: u64) -> bool {
    let closed = pos.units | geo.lochs | pos.bishop_mask();
    geo.ray[c].iter().any(|ray| {
        let open = |x: u8| x != NONE && closed & (1 << x) == 0;
        ray[2] != NONE
            && open(ray[0])
            && open(ray[1])
            && armies & (1 << ray[2]) != 0
            && pos.height[ray[2] as usize] == 3
    })
}
