//! Legal moves: generation (one move per resulting position) and the check
//! of any chain a player submits.

use std::ops::ControlFlow;

use super::board::{geometry, Geometry, CELLS, NONE};
use super::stack::{height, top, INVADER, KING};
use super::{AlmaTafl, Mask, Move, MAX_CHAIN};
use crate::game::Player;

/// Each byte value with its bit `i` moved to the low bit of byte `i`.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            t[b] |= ((b as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        b += 1;
    }
    t
};

/// Whether `piece` may land on cell `to` of `board`.
#[inline]
pub(crate) fn may_land(geo: &Geometry, board: &[u8; CELLS], piece: u8, to: usize) -> bool {
    geo.land[to][board[to] as usize & 63] >> piece & 1 != 0
}

/// The disc moves of the side to move, gathered without a branch per
/// landing cell, by start cell in cell order, each disc's in direction
/// order; and, on the defenders' turn with the King on top of his stack,
/// his cell and the number of disc moves from the cells before it (where
/// his chains go in the order of the moves).
struct Discs {
    moves: [[u8; 2]; 256],
    len: usize,
    king: Option<(usize, usize)>,
}

impl Discs {
    #[inline(always)]
    fn of(pos: &AlmaTafl) -> Discs {
        let geo = geometry();
        let (mut starts, landings) = match pos.side {
            Player::One => (pos.mask(Mask::Invaders), pos.mask(Mask::Landings)),
            Player::Two => {
                let king = u128::from(top(pos.board[pos.king as usize]) == KING) << pos.king;
                let throne = 1u128 << geo.throne;
                let landings = pos.mask(Mask::Landings) & !throne & !king;
                (pos.mask(Mask::Defenders) | king, landings)
            }
        };
        // The landing bits spread to one byte per cell (indexed by `to & 127`: no bounds check).
        let mut may = [0u8; 128];
        for (k, cells) in may.chunks_exact_mut(8).take(CELLS.div_ceil(8)).enumerate() {
            cells.copy_from_slice(&SPREAD[(landings >> (8 * k)) as usize & 0xff].to_le_bytes());
        }
        let mut discs = Discs {
            moves: [[0u8; 2]; 256],
            len: 0,
            king: None,
        };
        let mut n = 0u8;
        while starts != 0 {
            let from = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            if from == pos.king as usize {
                discs.king = Some((from, usize::from(n)));
                continue;
            }
            for &to in &geo.disc_steps[from][height(pos.board[from]) & 3] {
                discs.moves[usize::from(n)] = [from as u8, to];
                n += may[usize::from(to & 127)];
            }
        }
        discs.len = usize::from(n);
        discs
    }
}

/// Calls `f` with every legal move (the game is known not to be decided):
/// by start cell in cell order, disc moves in direction order.
pub(crate) fn generate<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &AlmaTafl,
    f: &mut F,
) -> ControlFlow<()> {
    let discs = Discs::of(pos);
    let before = discs.king.map_or(discs.len, |(_, before)| before);
    for &cells in &discs.moves[..before] {
        f(Move::disc(cells))?;
    }
    if let Some((king, _)) = discs.king {
        king_chains(pos, king, f)?;
    }
    for &cells in &discs.moves[before..discs.len] {
        f(Move::disc(cells))?;
    }
    ControlFlow::Continue(())
}

/// The move [`generate`] gives at the index `pick` chooses given the number
/// of moves, without listing them; `None` (and `pick` not called) without
/// moves. The King's chains are counted, and the one chosen found again.
pub(crate) fn pick(pos: &AlmaTafl, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
    let discs = Discs::of(pos);
    let (before, chains) = match discs.king {
        Some((king, before)) => {
            let mut chains = 0;
            let _ = king_chains(pos, king, &mut |_| {
                chains += 1;
                ControlFlow::Continue(())
            });
            (before, chains)
        }
        None => (discs.len, 0),
    };
    let total = discs.len + chains;
    if total == 0 {
        return None;
    }
    let n = pick(total);
    if n < before {
        Some(Move::disc(discs.moves[n]))
    } else if n < before + chains {
        let (king, _) = discs.king?;
        let (mut i, mut found) = (before, None);
        let _ = king_chains(pos, king, &mut |m| {
            if i == n {
                found = Some(m);
                return ControlFlow::Break(());
            }
            i += 1;
            ControlFlow::Continue(())
        });
        found
    } else {
        discs.moves.get(n - chains).map(|&cells| Move::disc(cells))
    }
}

/// A King chain from `start`: the board is the position's (the King still
/// on his start, which no landing may reach), and the distance he moves
/// from each cell.
struct Chain<'a> {
    board: &'a [u8; CELLS],
    start: usize,
}

impl Chain<'_> {
    fn new(pos: &AlmaTafl, start: usize) -> Chain<'_> {
        Chain {
            board: &pos.board,
            start,
        }
    }

    /// How far the King moves from `cell` (where he stands or has just landed).
    #[inline]
    fn distance(&self, cell: usize) -> usize {
        if cell == self.start {
            height(self.board[cell])
        } else {
            height(self.board[cell]) + 1
        }
    }

    /// Whether landing on `cell` lets the King go on (a stack topped by an invader).
    #[inline]
    fn bounces(&self, cell: usize) -> bool {
        cell != self.start && top(self.board[cell]) == INVADER
    }
}

/// Breadth-first over King landings: each end cell once, by its shortest
/// chain, ties going to the chain that is smallest cell by cell (landings
/// from one cell are tried in cell order).
fn king_chains<F: FnMut(Move) -> ControlFlow<()>>(
    pos: &AlmaTafl,
    start: usize,
    f: &mut F,
) -> ControlFlow<()> {
    let geo = geometry();
    let chain = Chain::new(pos, start);
    let mut parent = [NONE; CELLS];
    parent[start] = start as u8;
    let mut queue = [0u8; CELLS];
    queue[0] = start as u8;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let cur = queue[head] as usize;
        head += 1;
        // The chain to `cur` (none from the start: one-landing chains are
        // built whole, like disc moves).
        let before = if cur == start {
            None
        } else if chain.bounces(cur) {
            Some(path(&parent, start, cur))
        } else {
            continue;
        };
        for &to in geo.sorted_steps[cur][chain.distance(cur) - 1].cells() {
            let t = to as usize;
            if parent[t] != NONE || !may_land(geo, chain.board, KING, t) {
                continue;
            }
            parent[t] = cur as u8;
            queue[tail] = to;
            tail += 1;
            match before {
                None => f(Move::disc([start as u8, to]))?,
                Some(m) => f(m.then(to))?,
            }
        }
    }
    ControlFlow::Continue(())
}

/// The chain from `start` to `end` along `parent` links.
fn path(parent: &[u8; CELLS], start: usize, end: usize) -> Move {
    let mut rev = [0u8; MAX_CHAIN];
    let mut n = 0;
    let mut c = end;
    loop {
        rev[n] = c as u8;
        n += 1;
        if c == start {
            break;
        }
        c = parent[c] as usize;
    }
    rev[..n].reverse();
    Move::raw_chain(&rev[..n])
}

/// Checks any submitted move (the game is known not to be over).
pub(crate) fn check(pos: &AlmaTafl, mv: &Move) -> Result<(), String> {
    let geo = geometry();
    let cells = mv.raw();
    let name = |i: u8| super::cell(i as usize).name();
    let from = cells[0] as usize;
    let s = pos.board[from];
    let piece = top(s);
    if s == 0 {
        return Err(format!("there is no piece on {}", name(cells[0])));
    }
    let owner = if piece == INVADER {
        Player::One
    } else {
        Player::Two
    };
    if owner != pos.side {
        return Err(format!(
            "the piece on top of {} belongs to the {}, and the {} are to move",
            name(cells[0]),
            <AlmaTafl as crate::Game>::player_name(owner),
            <AlmaTafl as crate::Game>::player_name(pos.side)
        ));
    }
    if piece != KING {
        if cells.len() != 2 {
            return Err("only the King may move through several cells in one turn".into());
        }
        let to = cells[1] as usize;
        line(geo, from, to, height(s)).map_err(|e| e.replace("{}", "disc"))?;
        if !may_land(geo, &pos.board, piece, to) {
            return Err(landing_refusal(geo, &pos.board, piece, to));
        }
        return Ok(());
    }
    let chain = Chain::new(pos, from);
    let mut seen = [false; CELLS];
    seen[from] = true;
    let mut cur = from;
    for (i, &next) in cells[1..].iter().enumerate() {
        let next = next as usize;
        if i > 0 && !chain.bounces(cur) {
            return Err(format!(
                "the King landed on {} without an invader on top, so his turn ends there",
                name(cur as u8)
            ));
        }
        if seen[next] {
            return Err(format!(
                "a King chain may not land on {} twice or come back to its start",
                name(next as u8)
            ));
        }
        line(geo, cur, next, chain.distance(cur)).map_err(|e| e.replace("{}", "King"))?;
        if !may_land(geo, chain.board, KING, next) {
            return Err(landing_refusal(geo, chain.board, KING, next));
        }
        seen[next] = true;
        cur = next;
    }
    Ok(())
}

/// Checks that `to` is `d` cells from `from` along a line that stays on the board.
fn line(geo: &Geometry, from: usize, to: usize, d: usize) -> Result<(), String> {
    if (0..6).any(|dir| geo.ray[from][dir][d - 1] as usize == to) {
        return Ok(());
    }
    let name = |i: usize| super::cell(i).name();
    Err(format!(
        "the {{}} on {} moves exactly {d} cell(s) in a straight line on the board, which does not reach {}",
        name(from),
        name(to)
    ))
}

fn landing_refusal(geo: &Geometry, board: &[u8; CELLS], piece: u8, to: usize) -> String {
    let name = super::cell(to).name();
    if height(board[to]) >= 3 {
        return format!("the stack on {name} is already 3 high");
    }
    match piece {
        INVADER if geo.escape[to] => format!("invaders may not land on the escape spot {name}"),
        INVADER => format!("invaders may land on the throne {name} only on the King"),
        _ if geo.escape[to] => format!("defender discs may not land on the escape spot {name}"),
        _ if to == geo.throne as usize => {
            format!("defender discs may not land on the throne {name}")
        }
        _ => format!("defender discs may not land on the King ({name})"),
    }
}
