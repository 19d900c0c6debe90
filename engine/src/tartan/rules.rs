//! Playing a move, and the end of the game.

use super::board::NONE;
use super::{movegen, zobrist, Move, Phase, Tartan, QUIET_TURNS_DRAW};
use crate::game::{Outcome, Player};

/// Outcome reasons.
pub(crate) const CORONATION: &str = "coronation";
pub(crate) const QUIET_DRAW: &str = "15 turns without a capture or a union";

impl Tartan {
    fn remove_stack(&mut self, cell: usize) {
        let bit = 1u64 << cell;
        if self.units & bit != 0 {
            let owner = usize::from(self.blue & bit != 0);
            self.hash ^= zobrist::stack(cell, owner, self.height[cell]);
            self.units &= !bit;
            self.blue &= !bit;
            self.height[cell] = 0;
        }
    }

    fn put_stack(&mut self, cell: usize, owner: Player, height: u8) {
        self.remove_stack(cell);
        let bit = 1u64 << cell;
        self.units |= bit;
        if owner == Player::Two {
            self.blue |= bit;
        }
        self.height[cell] = height;
        self.hash ^= zobrist::stack(cell, owner.index(), height);
    }

    fn set_tokens(&mut self, player: Player, count: u8) {
        let p = player.index();
        self.hash ^= zobrist::tokens(p, self.tokens[p]) ^ zobrist::tokens(p, count);
        self.tokens[p] = count;
    }

    fn set_bishop(&mut self, player: Player, cell: u8) {
        let p = player.index();
        if self.bishops[p] != NONE {
            self.hash ^= zobrist::bishop(self.bishops[p] as usize, p);
        }
        if cell != NONE {
            self.hash ^= zobrist::bishop(cell as usize, p);
        }
        self.bishops[p] = cell;
    }

    fn pass_turn(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE;
    }
}

/// Plays a move produced by the generator.
pub(crate) fn apply(pos: &Tartan, mv: &Move) -> Tartan {
    let mut next = pos.clone();
    let me = pos.side;
    match *mv {
        Move::Place(cell) => {
            next.put_stack(cell.index(), me, 1);
            next.set_tokens(me, pos.tokens[me.index()].saturating_sub(1));
            if movegen::can_place(&next, me) || movegen::can_place(&next, me.opponent()) {
                next.pass_turn();
            } else {
                // Nobody can place: play starts with the last placer.
                let central = next.variant.geometry().central;
                next.phase = Phase::Play;
                next.hash ^= zobrist::PLACEMENT;
                next.set_bishop(Player::One, central);
                next.set_bishop(Player::Two, central);
                next.counter = 0;
            }
            return next;
        }
        Move::Pass => {
            if pos.phase == Phase::Play {
                next.counter = pos.counter.saturating_add(1);
            }
        }
        Move::Unit(path) => {
            let cells = path.raw();
            let mut h = pos.height[cells[0] as usize];
            next.remove_stack(cells[0] as usize);
            let mut loud = false;
            // The unit passes each landing, taking in a friendly unit
            // (union) or removing an enemy one (capture), and stays on the last.
            for &to in &cells[1..] {
                let to = to as usize;
                if next.units & (1 << to) != 0 {
                    loud = true;
                    if next.owner(to) == me {
                        h += next.height[to];
                    }
                    next.remove_stack(to);
                }
            }
            next.put_stack(cells[cells.len() - 1] as usize, me, h);
            next.counter = if loud {
                0
            } else {
                pos.counter.saturating_add(1)
            };
        }
        Move::Bishop { to, .. } => {
            next.set_bishop(me, to.0);
            next.counter = pos.counter.saturating_add(1);
        }
        Move::Dismantle { horde, cells } => {
            next.remove_stack(horde.index());
            next.set_tokens(me, pos.tokens[me.index()].saturating_sub(1));
            for c in cells {
                next.put_stack(c.index(), me, 1);
            }
            next.counter = pos.counter.saturating_add(1);
        }
    }
    next.pass_turn();
    next
}

/// The end of the game from the position alone: a Bishop on a Cathedral of
/// its colour, then 15 quiet turns.
pub(crate) fn decided(pos: &Tartan) -> Option<Outcome> {
    if pos.phase != Phase::Play {
        return None;
    }
    for p in [Player::One, Player::Two] {
        let b = pos.bishops[p.index()];
        if b != NONE
            && pos.height[b as usize] == 4
            && pos.units & (1 << b) != 0
            && pos.owner(b as usize) == p
        {
            return Some(Outcome::win(p, CORONATION));
        }
    }
    (pos.counter >= QUIET_TURNS_DRAW).then(|| Outcome::draw(QUIET_DRAW))
}
