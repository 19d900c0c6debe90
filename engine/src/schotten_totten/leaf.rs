//! A heuristic value for a truncated playout: each open stone's chance from
//! the formations both sides can still reach, combined into a chance of
//! winning the game (five stones or three adjacent).
//!
//! It reads a determinized full state, so each side's reachable formations
//! count only the cards it could still get: its own hand and the decks (not
//! the opponent's hand).

use std::sync::OnceLock;

use super::formation::{max_strength, proof, strength, Pool};
use super::state::FullState;
use crate::Player;

/// Strength units a side's reachable formation is discounted per missing card
/// (a reachable formation is optimistic: the cards may never come).
const MISSING: f64 = 10.0;
/// Logistic temperature on the strength margin (a formation step is 64):
/// `classic`, then the tactic variants. Classic plays better with the
/// sharper value (docs/MEASUREMENTS.md); the others were not screened.
const TEMPERATURE: [f64; 2] = [16.0, 24.0];

/// A stone chance this close to 0 or 1 counts as settled.
const SETTLED: f64 = 0.01;

/// The unseen pool of `p`'s world: the full state's unseen cards minus the
/// opponent's hand.
fn pool_for(s: &FullState, base: &Pool, p: Player) -> Pool {
    let mut pool = *base;
    for h in &s.hands[p.opponent().index()] {
        pool.remove(h.card);
    }
    pool
}

/// The chance that `One` takes each stone (claimed stones 0 or 1).
fn stone_chances(s: &FullState) -> [f64; 9] {
    let base = s.board.unseen_pool();
    let pools = [
        pool_for(s, &base, Player::One),
        pool_for(s, &base, Player::Two),
    ];
    let temperature = TEMPERATURE[usize::from(s.board.variant.tactics())];
    std::array::from_fn(|i| {
        let st = &s.board.stones[i];
        match st.claimed {
            Some(Player::One) => return 1.0,
            Some(Player::Two) => return 0.0,
            None => {}
        }
        let n = st.required();
        let complete = [st.complete(Player::One), st.complete(Player::Two)];
        if complete[0] && complete[1] {
            let a = strength(&st.sides[0], st.blind);
            let b = strength(&st.sides[1], st.blind);
            return match a.cmp(&b) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => {
                    if st.first == Some(Player::One) {
                        1.0
                    } else {
                        0.0
                    }
                }
            };
        }
        for (k, p) in [Player::One, Player::Two].into_iter().enumerate() {
            if complete[k] {
                let mine = strength(&st.sides[k], st.blind);
                if proof(mine, &st.sides[1 - k], n, st.blind, &base) {
                    return if p == Player::One { 1.0 } else { 0.0 };
                }
            }
        }
        let reach = |k: usize| -> f64 {
            let side = &st.sides[k];
            match max_strength(side, n, st.blind, &pools[k]) {
                Some(v) => v as f64 - MISSING * (n - side.len()) as f64,
                None => -1000.0,
            }
        };
        let margin = reach(0) - reach(1);
        1.0 / (1.0 + (-margin / temperature).exp())
    })
}

/// Who wins when every stone is taken: `One` holds the stones of `mask`
/// (bit i = stone i). Three adjacent stones held by one side only win,
/// else the majority (one side always holds five).
fn one_wins(mask: u16) -> bool {
    let adjacent = |m: u16| (0..7).any(|i| m >> i & 0b111 == 0b111);
    let two = !mask & 0x1ff;
    match (adjacent(mask), adjacent(two)) {
        (true, false) => true,
        (false, true) => false,
        _ => mask.count_ones() >= 5,
    }
}

fn table() -> &'static [bool; 512] {
    static TABLE: OnceLock<[bool; 512]> = OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|m| one_wins(m as u16)))
}

/// The chance (0..1) that `One` wins, stones taken independently with the
/// chances of [`stone_chances`].
pub(crate) fn one_win_chance(s: &FullState) -> f64 {
    let p = stone_chances(s);
    let mut fixed = 0u16;
    let mut open = [0usize; 9];
    let mut k = 0;
    for (i, &q) in p.iter().enumerate() {
        // Near-certain stones count as settled (fewer outcomes to sum).
        if q >= 1.0 - SETTLED {
            fixed |= 1 << i;
        } else if q > SETTLED {
            open[k] = i;
            k += 1;
        }
    }
    let table = table();
    let mut total = 0.0;
    for m in 0..1u32 << k {
        let mut prob = 1.0;
        let mut mask = fixed;
        for (j, &i) in open[..k].iter().enumerate() {
            if m >> j & 1 == 1 {
                prob *= p[i];
                mask |= 1 << i;
            } else {
                prob *= 1.0 - p[i];
            }
        }
        if table[mask as usize] {
            total += prob;
        }
    }
    total
}
