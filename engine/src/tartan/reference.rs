//! A slow, plainly written formulation of the rules, for cross-checking the
//! fast generator: cells as (column, row) pairs, stacks in a map, every
//! movement enumerated by its definition, moves as text.

use std::collections::{BTreeMap, BTreeSet};

use super::{Phase, Tartan};
use crate::game::Player;

/// (column, row), A = 0 and row 1 = 0.
pub(crate) type Coord = (i32, i32);

const DIRS: [Coord; 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

/// Whether (c, r) is a cell of the default board.
pub(crate) fn on_board((c, r): Coord) -> bool {
    (0..9).contains(&r) && c >= (r - 4).max(0) && c <= (r + 4).min(8)
}

pub(crate) fn name((c, r): Coord) -> String {
    format!("{}{}", char::from(b'A' + c as u8), r + 1)
}

fn parse(name: &str) -> Coord {
    let b = name.as_bytes();
    ((b[0] - b'A') as i32, name[1..].parse::<i32>().unwrap() - 1)
}

const CENTRAL: &str = "E5";
const OUTER: [&str; 6] = ["B2", "E2", "B5", "H5", "E8", "H8"];

fn is_loch(c: Coord) -> bool {
    parse(CENTRAL) == c || OUTER.iter().any(|n| parse(n) == c)
}

fn neighbours(c: Coord) -> Vec<Coord> {
    DIRS.iter()
        .map(|d| (c.0 + d.0, c.1 + d.1))
        .filter(|&n| on_board(n))
        .collect()
}

fn all_cells() -> Vec<Coord> {
    let mut v = Vec::new();
    for r in 0..9 {
        for c in 0..9 {
            if on_board((c, r)) {
                v.push((c, r));
            }
        }
    }
    v
}

/// A position in the reference's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RefPos {
    pub placement: bool,
    /// Stacks: owner (0 red, 1 blue) and height.
    pub stacks: BTreeMap<Coord, (usize, u8)>,
    pub bishops: [Option<Coord>; 2],
    pub tokens: [u8; 2],
    pub quiet: u8,
    pub side: usize,
}

impl RefPos {
    pub(crate) fn from_fast(p: &Tartan) -> RefPos {
        let mut stacks = BTreeMap::new();
        for s in p.stacks() {
            let (c, r) = s.cell.coords();
            stacks.insert((c as i32, r as i32), (s.owner.index(), s.height));
        }
        let bishop = |pl: Player| {
            p.bishop(pl).map(|c| {
                let (c, r) = c.coords();
                (c as i32, r as i32)
            })
        };
        RefPos {
            placement: p.phase() == Phase::Placement,
            stacks,
            bishops: [bishop(Player::One), bishop(Player::Two)],
            tokens: [p.tokens(Player::One), p.tokens(Player::Two)],
            quiet: p.quiet_turns(),
            side: crate::Game::side_to_move(p).index(),
        }
    }

    /// A cell no unit passes: a Loch, a stack or a Bishop.
    fn closed(&self, c: Coord) -> bool {
        is_loch(c) || self.stacks.contains_key(&c) || self.bishops.contains(&Some(c))
    }

    fn can_place(&self, side: usize) -> bool {
        self.tokens[side] > 0 && all_cells().into_iter().any(|c| self.placeable(c))
    }

    fn placeable(&self, c: Coord) -> bool {
        !is_loch(c)
            && !self.stacks.contains_key(&c)
            && neighbours(c).iter().all(|n| !self.stacks.contains_key(n))
    }

    /// Every legal move, as text, sorted.
    pub(crate) fn moves(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.placement {
            if self.tokens[self.side] > 0 {
                for c in all_cells() {
                    if self.placeable(c) {
                        out.insert(name(c));
                    }
                }
            }
            if out.is_empty() {
                out.insert("pass".into());
            }
            return out;
        }
        let me = self.side;
        for (&from, &(owner, h)) in &self.stacks {
            if owner != me || h > 3 || self.bishops.contains(&Some(from)) {
                continue;
            }
            let mut board = self.clone();
            board.stacks.remove(&from);
            board.chains(vec![from], h, &mut out);
        }
        if let Some(b) = self.bishops[me] {
            for n in neighbours(b) {
                if !is_loch(n) && self.bishops[1 - me] != Some(n) {
                    out.insert(format!("B:{}-{}", name(b), name(n)));
                }
            }
        }
        if self.tokens[me] > 0 {
            for (&horde, &(owner, h)) in &self.stacks {
                if owner != me || h != 2 || self.bishops.contains(&Some(horde)) {
                    continue;
                }
                let mut board = self.clone();
                board.stacks.remove(&horde);
                let free: Vec<Coord> = all_cells()
                    .into_iter()
                    .filter(|&c| !board.closed(c) && !lochs_next_to(c).is_empty())
                    .collect();
                for i in 0..free.len() {
                    for j in i + 1..free.len() {
                        for k in j + 1..free.len() {
                            let cells = [free[i], free[j], free[k]];
                            if to_three_lochs(cells) {
                                out.insert(format!(
                                    "D:{}:{},{},{}",
                                    name(horde),
                                    name(cells[0]),
                                    name(cells[1]),
                                    name(cells[2])
                                ));
                            }
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            out.insert("pass".into());
        }
        out
    }

    /// Ends of the movement of a unit of `h` from `from` (already lifted off).
    fn ends(&self, from: Coord, h: u8) -> BTreeSet<Coord> {
        let mut ends = BTreeSet::new();
        match h {
            1 => ends.extend(neighbours(from)),
            2 => {
                for m in neighbours(from) {
                    if !self.closed(m) {
                        for e in neighbours(m) {
                            if e != from {
                                ends.insert(e);
                            }
                        }
                    }
                }
            }
            3 => {
                for d in DIRS {
                    let step = |k: i32| (from.0 + d.0 * k, from.1 + d.1 * k);
                    if [1, 2, 3].iter().all(|&k| on_board(step(k)))
                        && !self.closed(step(1))
                        && !self.closed(step(2))
                    {
                        ends.insert(step(3));
                    }
                }
            }
            _ => {}
        }
        ends
    }

    /// Adds the moves of the unit of `h` at the end of `path` (lifted off),
    /// with every bounce.
    fn chains(&self, path: Vec<Coord>, h: u8, out: &mut BTreeSet<String>) {
        let from = *path.last().unwrap();
        let me = self.side;
        for to in self.ends(from, h) {
            if is_loch(to) || self.bishops.contains(&Some(to)) {
                continue;
            }
            let mut next = path.clone();
            next.push(to);
            let text = next.iter().map(|&c| name(c)).collect::<Vec<_>>().join("-");
            match self.stacks.get(&to) {
                None => {
                    out.insert(text);
                }
                Some(&(owner, t)) if owner == me => {
                    let u = h + t;
                    let allowed = matches!((h, t), (1, 1) | (1, 2) | (2, 1) | (2, 2));
                    if allowed {
                        out.insert(text);
                        if u <= 3 && next.len() < 4 {
                            let mut board = self.clone();
                            board.stacks.remove(&to);
                            board.chains(next, u, out);
                        }
                    }
                }
                Some(&(_, t)) => {
                    if (h == 2 && t == 1) || (h == 3 && t == 2) {
                        out.insert(text);
                    }
                }
            }
        }
    }

    /// Plays a move given as text (one of [`RefPos::moves`]).
    pub(crate) fn apply(&self, text: &str) -> RefPos {
        let mut n = self.clone();
        let me = self.side;
        if self.placement {
            if text != "pass" {
                n.stacks.insert(parse(text), (me, 1));
                n.tokens[me] -= 1;
                if !n.can_place(me) && !n.can_place(1 - me) {
                    n.placement = false;
                    n.bishops = [Some(parse(CENTRAL)); 2];
                    n.quiet = 0;
                    return n;
                }
            }
            n.side = 1 - me;
            return n;
        }
        if text == "pass" {
            n.quiet += 1;
        } else if let Some(b) = text.strip_prefix("B:") {
            let (_, to) = b.split_once('-').unwrap();
            n.bishops[me] = Some(parse(to));
            n.quiet += 1;
        } else if let Some(d) = text.strip_prefix("D:") {
            let (horde, cells) = d.split_once(':').unwrap();
            n.stacks.remove(&parse(horde));
            n.tokens[me] -= 1;
            for c in cells.split(',') {
                n.stacks.insert(parse(c), (me, 1));
            }
            n.quiet += 1;
        } else {
            let cells: Vec<Coord> = text.split('-').map(parse).collect();
            let (_, mut h) = n.stacks.remove(&cells[0]).unwrap();
            let mut loud = false;
            for to in &cells[1..] {
                if let Some((owner, t)) = n.stacks.remove(to) {
                    loud = true;
                    if owner == me {
                        h += t;
                    }
                }
            }
            n.stacks.insert(*cells.last().unwrap(), (me, h));
            n.quiet = if loud { 0 } else { n.quiet + 1 };
        }
        n.side = 1 - me;
        n
    }

    /// The winner by coronation, if any.
    pub(crate) fn crowned(&self) -> Option<usize> {
        (0..2).find(|&p| self.bishops[p].is_some_and(|b| self.stacks.get(&b) == Some(&(p, 4))))
    }
}

/// The outer Lochs (by index in `OUTER`) a cell is next to.
fn lochs_next_to(c: Coord) -> Vec<usize> {
    (0..OUTER.len())
        .filter(|&i| neighbours(parse(OUTER[i])).contains(&c))
        .collect()
}

/// Whether three cells can each go next to a different outer Loch.
fn to_three_lochs(cells: [Coord; 3]) -> bool {
    let [a, b, c] = cells.map(lochs_next_to);
    a.iter().any(|x| {
        b.iter()
            .any(|y| y != x && c.iter().any(|z| z != x && z != y))
    })
}
