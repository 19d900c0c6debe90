//! The fast move generator: bit masks and small tables, no allocation, early
//! stop through the callback.
//!
//! Unit moves are generated with their bounce chains by walking the chain on
//! a scratch copy of the stacks (a bounce sees the cells emptied before it).

use std::ops::ControlFlow;

use super::board::{bits, Geometry, NONE};
use super::{Cell, Move, Path, Phase, Tartan};
use crate::game::Player;

/// The cells where a Family may be placed: empty, no Loch, no stack next to it.
pub(crate) fn free_cells(geo: &Geometry, units: u64) -> u64 {
    let mut near = units;
    for c in bits(units) {
        near |= geo.nbr_mask[c];
    }
    geo.all & !geo.lochs & !near
}

/// Whether `player` can place a Family in the placement phase.
pub(crate) fn can_place(pos: &Tartan, player: Player) -> bool {
    pos.tokens[player.index()] > 0 && free_cells(pos.variant.geometry(), pos.units) != 0
}

/// Calls `f` with every legal move (the game is known not to be over).
pub(crate) fn generate<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &Tartan,
    f: &mut F,
) -> ControlFlow<()> {
    let geo = pos.variant.geometry();
    match pos.phase {
        Phase::Placement => {
            if pos.tokens[pos.side.index()] > 0 {
                let free = free_cells(geo, pos.units);
                if free != 0 {
                    for c in bits(free) {
                        f(Move::Place(Cell(c as u8)))?;
                    }
                    return ControlFlow::Continue(());
                }
            }
            f(Move::Pass)
        }
        Phase::Play => {
            let mut any = false;
            let mut emit = |m: Move| {
                any = true;
                f(m)
            };
            play_moves(pos, geo, &mut emit)?;
            if any {
                ControlFlow::Continue(())
            } else {
                f(Move::Pass)
            }
        }
    }
}

/// What a unit of some height finds on a destination cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Landing {
    /// An empty cell.
    Empty,
    /// A friendly unit: the union's height.
    Union(u8),
    /// An enemy unit it may capture.
    Capture,
}

/// The stacks as a moving chain sees them.
#[derive(Clone)]
struct Scratch {
    height: [u8; 64],
    units: u64,
    /// The mover's stacks.
    mine: u64,
}

struct Ctx<'a> {
    geo: &'a Geometry,
    /// Cells no unit passes or enters: Lochs and Bishops.
    closed: u64,
}

impl Ctx<'_> {
    /// Whether a unit may pass over `cell` on `sc`.
    #[inline]
    fn empty(&self, sc: &Scratch, cell: u8) -> bool {
        cell != NONE && (sc.units | self.closed) & (1 << cell) == 0
    }

    /// What a unit of `h` finds on `to` (`None`: it may not go there).
    #[inline]
    fn landing(&self, sc: &Scratch, h: u8, to: u8) -> Option<Landing> {
        if to == NONE || self.closed & (1 << to) != 0 {
            return None;
        }
        let bit = 1u64 << to;
        if sc.units & bit == 0 {
            return Some(Landing::Empty);
        }
        let t = sc.height[to as usize];
        if sc.mine & bit != 0 {
            match (h, t) {
                (1, 1) | (1, 2) | (2, 1) | (2, 2) => Some(Landing::Union(h + t)),
                _ => None,
            }
        } else {
            matches!((h, t), (2, 1) | (3, 2)).then_some(Landing::Capture)
        }
    }

    /// Every destination of a unit of `h` on `from`, with what it finds there.
    fn destinations(&self, sc: &Scratch, from: u8, h: u8) -> ([(u8, Landing); 18], usize) {
        let geo = self.geo;
        let mut out = [(0, Landing::Empty); 18];
        let mut n = 0;
        let mut push = |to: u8, sc: &Scratch| {
            if let Some(l) = self.landing(sc, h, to) {
                out[n] = (to, l);
                n += 1;
            }
        };
        let f = from as usize;
        match h {
            1 => {
                for &to in &geo.nbr[f] {
                    push(to, sc);
                }
            }
            2 => {
                let mut ends = 0u64;
                for &m in &geo.nbr[f] {
                    if self.empty(sc, m) {
                        ends |= geo.nbr_mask[m as usize];
                    }
                }
                ends &= !(1 << from);
                for to in bits(ends) {
                    push(to as u8, sc);
                }
            }
            3 => {
                for ray in &geo.ray[f] {
                    if self.empty(sc, ray[0]) && self.empty(sc, ray[1]) {
                        push(ray[2], sc);
                    }
                }
            }
            _ => {}
        }
        (out, n)
    }

    /// The moves of the unit of `h` standing on `path[len - 1]` (already
    /// lifted off `sc`), with their bounces.
    fn chains<F: FnMut(Move) -> ControlFlow<()>>(
        &self,
        sc: &mut Scratch,
        path: &mut [u8; 4],
        len: usize,
        h: u8,
        f: &mut F,
    ) -> ControlFlow<()> {
        let from = path[len - 1];
        let (dests, n) = self.destinations(sc, from, h);
        for &(to, landing) in &dests[..n] {
            path[len] = to;
            let mut cells = [0u8; 4];
            cells[..=len].copy_from_slice(&path[..=len]);
            f(Move::Unit(Path {
                cells,
                len: len as u8 + 1,
            }))?;
            if let Landing::Union(u) = landing {
                if u <= 3 && len + 1 < 4 {
                    // The new unit bounces from `to`: lift it off the scratch board.
                    let bit = 1u64 << to;
                    let before = sc.height[to as usize];
                    sc.units &= !bit;
                    sc.mine &= !bit;
                    sc.height[to as usize] = 0;
                    let r = self.chains(sc, path, len + 1, u, f);
                    sc.units |= bit;
                    sc.mine |= bit;
                    sc.height[to as usize] = before;
                    r?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Unit moves, Bishop steps and dismantles of the side to move.
fn play_moves<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &Tartan,
    geo: &Geometry,
    f: &mut F,
) -> ControlFlow<()> {
    let me = pos.side;
    let bishops = pos.bishop_mask();
    let ctx = Ctx {
        geo,
        closed: geo.lochs | bishops,
    };
    let mine = pos.mine(me);
    let mut sc = Scratch {
        height: pos.height,
        units: pos.units,
        mine,
    };
    let mut path = [0u8; 4];
    for from in bits(mine & !bishops) {
        let h = pos.height[from];
        if h > 3 {
            continue;
        }
        let bit = 1u64 << from;
        sc.units &= !bit;
        sc.mine &= !bit;
        sc.height[from] = 0;
        path[0] = from as u8;
        let r = ctx.chains(&mut sc, &mut path, 1, h, f);
        sc.units |= bit;
        sc.mine |= bit;
        sc.height[from] = h;
        r?;
    }
    let b = pos.bishops[me.index()];
    if b != NONE {
        let other = pos.bishops[me.opponent().index()];
        for &to in &geo.nbr[b as usize] {
            if to != NONE && geo.lochs & (1 << to) == 0 && to != other {
                f(Move::Bishop {
                    from: Cell(b),
                    to: Cell(to),
                })?;
            }
        }
    }
    if pos.tokens[me.index()] > 0 {
        for horde in bits(mine & !bishops) {
            if pos.height[horde] == 2 {
                dismantles(pos, geo, horde, bishops, f)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether three cells can go to three different outer Lochs (Hall's
/// condition on the Lochs each is next to).
#[inline]
fn matchable(a: u8, b: u8, c: u8) -> bool {
    let ones = |m: u8| m.count_ones();
    a != 0
        && b != 0
        && c != 0
        && ones(a | b) >= 2
        && ones(a | c) >= 2
        && ones(b | c) >= 2
        && ones(a | b | c) >= 3
}

/// The dismantles of the Horde on `horde`: three cells, in board order.
fn dismantles<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &Tartan,
    geo: &Geometry,
    horde: usize,
    bishops: u64,
    f: &mut F,
) -> ControlFlow<()> {
    let empty = geo.all & !geo.lochs & !bishops & !(pos.units & !(1 << horde));
    let cands = empty & geo.by_lochs;
    let marks = &geo.loch_marks;
    for a in bits(cands) {
        let above_a = cands & !((2u64 << a) - 1);
        for b in bits(above_a) {
            if (marks[a] | marks[b]).count_ones() < 2 {
                continue; // both can only go to the same Loch
            }
            let above_b = cands & !((2u64 << b) - 1);
            for c in bits(above_b) {
                if matchable(marks[a], marks[b], marks[c]) {
                    f(Move::Dismantle {
                        horde: Cell(horde as u8),
                        cells: [Cell(a as u8), Cell(b as u8), Cell(c as u8)],
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}
