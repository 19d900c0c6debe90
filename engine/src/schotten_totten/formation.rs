//! Formations and the claim proof.
//!
//! A side's strength is one number, `formation * 64 + total`, with formations
//! 4 colour run, 3 three (four) of a kind, 2 colour, 1 run, 0 sum; under
//! Blind-Man's Bluff only the total counts. Elite troops take the owner's best
//! value. [`max_strength`] finds the best completion of a side from a pool of
//! unseen cards by checking formations from the strongest down (for each, the
//! highest total first), so the first feasible one is the answer; a complete
//! side is the special case of an empty completion.

use super::cards::Card;

/// Strength of a formation: `formation * 64 + total`.
pub type Strength = u16;

/// Unseen cards a side may still be completed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pool {
    /// Bit `id` set for each unseen clan card.
    pub clan: u64,
    /// Unseen Jokers (0..=2); a side with a Joker can take none.
    pub jokers: u8,
    /// Whether the Spy is unseen.
    pub spy: bool,
    /// Whether the Shield-bearer is unseen.
    pub shield: bool,
}

impl Pool {
    /// `card` is seen (played, or in a hand someone knows): no longer in the pool.
    pub fn remove(&mut self, card: Card) {
        if card.is_clan() {
            self.clan &= !(1u64 << card.id());
        } else if card == Card::JOKER {
            self.jokers = self.jokers.saturating_sub(1);
        } else if card == Card::SPY {
            self.spy = false;
        } else if card == Card::SHIELD {
            self.shield = false;
        }
    }
}

const ELITE_VALUES: [u8; 3] = [9, 7, 3];

fn compat(elite: usize, rank: u8) -> bool {
    match elite {
        0 => true,
        1 => rank == 7,
        _ => rank <= 3,
    }
}

/// The six clan cards of rank 1 (one bit in each colour's nine).
const RANK_ONE: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36 | 1 << 45;

fn rank_mask(rank: u8) -> u64 {
    RANK_ONE << (rank - 1)
}

fn colour_mask(colour: u8) -> u64 {
    0x1ffu64 << (colour as u64 * 9)
}

/// Clan cards (colour, rank) and elite troops (Joker, Spy, Shield counts) of a side.
struct Parts {
    clan_buf: [(u8, u8); 4],
    n_clan: usize,
    elites: [u8; 3],
}

impl Parts {
    fn clan(&self) -> &[(u8, u8)] {
        &self.clan_buf[..self.n_clan]
    }
}

/// Splits a side of at most four cards.
fn parts(side: &[Card]) -> Parts {
    let mut p = Parts {
        clan_buf: [(0, 0); 4],
        n_clan: 0,
        elites: [0; 3],
    };
    for &c in side.iter().take(4) {
        match (c.colour(), c.rank()) {
            (Some(col), Some(r)) => {
                p.clan_buf[p.n_clan] = (col, r);
                p.n_clan += 1;
            }
            _ if c == Card::JOKER => p.elites[0] += 1,
            _ if c == Card::SPY => p.elites[1] += 1,
            _ => p.elites[2] += 1,
        }
    }
    p
}

/// Can the `slots` (ranks) be covered, using every elite in `must` (counts)
/// exactly once, any elites in `may` at most once, and `avail(rank)` clan cards?
fn fill(slots: &[u8], must: [u8; 3], may: [bool; 3], avail: &dyn Fn(u8) -> bool) -> bool {
    let Some((&r, rest)) = slots.split_first() else {
        return must == [0; 3];
    };
    if must.iter().map(|&x| x as usize).sum::<usize>() > slots.len() {
        return false;
    }
    for e in 0..3 {
        if must[e] > 0 && compat(e, r) {
            let mut m = must;
            m[e] -= 1;
            if fill(rest, m, may, avail) {
                return true;
            }
        }
    }
    if avail(r) && fill(rest, must, may, avail) {
        return true;
    }
    for e in 0..3 {
        if may[e] && compat(e, r) {
            let mut y = may;
            y[e] = false;
            if fill(rest, must, y, avail) {
                return true;
            }
        }
    }
    false
}

/// Sum of the best `m` values among pool clan cards in `mask` and the usable pool elites.
fn top_values(mask: u64, may: [bool; 3], m: usize) -> Option<u16> {
    let mut counts = [0usize; 10];
    for r in 1..=9u8 {
        counts[r as usize] = (mask & rank_mask(r)).count_ones() as usize;
    }
    for e in 0..3 {
        if may[e] {
            counts[ELITE_VALUES[e] as usize] += 1;
        }
    }
    let mut need = m;
    let mut total = 0u16;
    for r in (1..=9usize).rev() {
        let take = counts[r].min(need);
        total += (take * r) as u16;
        need -= take;
    }
    (need == 0).then_some(total)
}

/// The strongest formation that `side` can reach with `n` cards, adding cards
/// from `pool` (which must not contain the side's own cards); `None` if it
/// cannot be completed (or `n` is not 1..=4). With `blind`, only the total counts.
pub fn max_strength(side: &[Card], n: usize, blind: bool, pool: &Pool) -> Option<Strength> {
    if side.len() > n || !(1..=4).contains(&n) {
        return None;
    }
    let p = parts(side);
    let clan = p.clan();
    let m = n - side.len();
    let may = [pool.jokers > 0 && p.elites[0] == 0, pool.spy, pool.shield];
    let clan_sum: u16 = clan.iter().map(|&(_, r)| r as u16).sum();
    let elite_sum: u16 = (0..3)
        .map(|e| p.elites[e] as u16 * ELITE_VALUES[e] as u16)
        .sum();
    let fixed = clan_sum + elite_sum;
    if blind {
        return top_values(pool.clan, may, m).map(|t| fixed + t);
    }
    if p.elites == [0; 3] && may == [false; 3] {
        return clan_only(clan, n, pool.clan, fixed);
    }
    // Slots of the run s..s+n not taken by the clan cards, if they fit.
    let run_slots = |s: u8| -> Option<([u8; 4], usize)> {
        let mut taken = 0u16;
        for &(_, r) in clan {
            if r < s || r >= s + n as u8 || taken & (1 << r) != 0 {
                return None;
            }
            taken |= 1 << r;
        }
        let mut slots = [0u8; 4];
        let mut k = 0;
        for r in (s..s + n as u8).filter(|r| taken & (1 << r) == 0) {
            slots[k] = r;
            k += 1;
        }
        Some((slots, k))
    };
    // Colour run.
    for s in (1..=(10 - n as u8)).rev() {
        let Some((slots, k)) = run_slots(s) else {
            continue;
        };
        let slots = &slots[..k];
        for c in 0..6u8 {
            if clan.iter().any(|&(col, _)| col != c) {
                continue;
            }
            let avail = |r: u8| pool.clan & (1u64 << (c as u64 * 9 + r as u64 - 1)) != 0;
            if fill(slots, p.elites, may, &avail) {
                return Some(4 * 64 + run_total(s, n));
            }
        }
    }
    if let Some(s) = of_a_kind(clan, p.elites, may, pool.clan, (n, m)) {
        return Some(s);
    }
    // Colour.
    let mut best: Option<u16> = None;
    for c in 0..6u8 {
        if clan.iter().any(|&(col, _)| col != c) {
            continue;
        }
        if let Some(t) = top_values(pool.clan & colour_mask(c), may, m) {
            best = best.max(Some(fixed + t));
        }
    }
    if let Some(t) = best {
        return Some(2 * 64 + t);
    }
    // Run.
    for s in (1..=(10 - n as u8)).rev() {
        let Some((slots, k)) = run_slots(s) else {
            continue;
        };
        let slots = &slots[..k];
        let avail = |r: u8| pool.clan & rank_mask(r) != 0;
        if fill(slots, p.elites, may, &avail) {
            return Some(64 + run_total(s, n));
        }
    }
    // Sum.
    top_values(pool.clan, may, m).map(|t| fixed + t)
}

/// [`max_strength`] of a side of clan cards completed from clan cards only
/// (every game of `classic`): each formation is a test on nine-bit rank
/// fields (bit `r - 1` for rank `r`), one per colour.
fn clan_only(clan: &[(u8, u8)], n: usize, pool: u64, fixed: u16) -> Option<Strength> {
    let m = n - clan.len();
    let field = |mask: u64, c: u8| (mask >> (c as u64 * 9)) as u16 & 0x1ff;
    let mut side = 0u64;
    let mut side_ranks = 0u16;
    for &(c, r) in clan {
        side |= 1u64 << (c as u64 * 9 + r as u64 - 1);
        side_ranks |= 1 << (r - 1);
    }
    // The colours the side can still be of: its own, or any while empty.
    let colours = match clan.first() {
        None => 0x3f,
        Some(&(c, _)) if clan.iter().all(|&(d, _)| d == c) => 1u8 << c,
        Some(_) => 0,
    };
    let each_colour = |c: &u8| colours & (1 << c) != 0;
    // Colour run: the highest run of `n` ranks of one colour, held or unseen,
    // that covers the side.
    let best_run = |have: u16, covered: u16| -> Option<u16> {
        let mut starts = have;
        for i in 1..n {
            starts &= have >> i;
        }
        if covered != 0 {
            let lo = covered.trailing_zeros();
            let hi = 15 - covered.leading_zeros();
            // Starts k with k <= lo and k + n - 1 >= hi.
            let from = (hi + 1).saturating_sub(n as u32);
            starts &= (u16::MAX << from) & !(u16::MAX << (lo + 1));
        }
        (starts != 0).then(|| 16 - starts.leading_zeros() as u16)
    };
    let colour_run = (0..6u8)
        .filter(each_colour)
        .filter_map(|c| best_run(field(side | pool, c), field(side, c)))
        .max();
    if let Some(s) = colour_run {
        return Some(4 * 64 + run_total(s as u8, n));
    }
    if let Some(s) = of_a_kind(clan, [0; 3], [false; 3], pool, (n, m)) {
        return Some(s);
    }
    // Colour: the `m` highest unseen ranks of the side's colour (a
    // one-colour `top_values` without elites, read off the rank field).
    let top = |mut f: u16| -> Option<u16> {
        let mut total = 0;
        for _ in 0..m {
            if f == 0 {
                return None;
            }
            let bit = 15 - f.leading_zeros() as u16;
            total += bit + 1;
            f &= !(1 << bit);
        }
        Some(total)
    };
    if let Some(t) = (0..6u8)
        .filter(each_colour)
        .filter_map(|c| top(field(pool, c)))
        .max()
    {
        return Some(2 * 64 + fixed + t);
    }
    // Run: distinct ranks, each missing one unseen in some colour.
    if side_ranks.count_ones() as usize == clan.len() {
        let unseen_ranks = (0..6u8).fold(0u16, |acc, c| acc | field(pool, c));
        if let Some(s) = best_run(unseen_ranks | side_ranks, side_ranks) {
            return Some(64 + run_total(s as u8, n));
        }
    }
    // Sum.
    top_values(pool, [false; 3], m).map(|t| fixed + t)
}

/// The sum of the run of `n` ranks from `start`.
fn run_total(start: u8, n: usize) -> u16 {
    (start..start + n as u8).map(u16::from).sum()
}

/// The best three (four) of a kind of `n` cards the side's `clan` cards and
/// `elites` can reach with `m` more cards: unseen clan cards of `pool`, or
/// the unseen elites `may` could play.
fn of_a_kind(
    clan: &[(u8, u8)],
    elites: [u8; 3],
    may: [bool; 3],
    pool: u64,
    (n, m): (usize, usize),
) -> Option<Strength> {
    (1..=9u8).rev().find_map(|v| {
        let fits =
            clan.iter().all(|&(_, r)| r == v) && (0..3).all(|e| elites[e] == 0 || compat(e, v));
        let have = (pool & rank_mask(v)).count_ones() as usize
            + (0..3).filter(|&e| may[e] && compat(e, v)).count();
        (fits && have >= m).then_some(3 * 64 + n as u16 * u16::from(v))
    })
}

/// The strength of a complete side (elite troops at the owner's best).
pub fn strength(side: &[Card], blind: bool) -> Strength {
    if !blind && (3..=4).contains(&side.len()) && side.iter().all(|c| c.is_clan()) {
        return clan_strength(side);
    }
    max_strength(side, side.len(), blind, &Pool::default()).unwrap_or(0)
}

/// The strength of three or four clan cards, read off them directly.
fn clan_strength(side: &[Card]) -> Strength {
    let (mut ranks, mut colours, mut total) = (0u16, 0u8, 0u16);
    let (mut low, mut high) = (9u8, 1u8);
    for c in side {
        let (colour, rank) = (c.id() / 9, c.id() % 9 + 1);
        ranks |= 1 << rank;
        colours |= 1 << colour;
        total += u16::from(rank);
        (low, high) = (low.min(rank), high.max(rank));
    }
    let n = side.len() as u32;
    let run = ranks.count_ones() == n && u32::from(high - low) + 1 == n;
    let one_colour = colours.count_ones() == 1;
    let formation = match (run, one_colour) {
        (true, true) => 4,
        _ if ranks.count_ones() == 1 => 3,
        (false, true) => 2,
        (true, false) => 1,
        _ => 0,
    };
    formation * 64 + total
}

/// Whether a side at `claimant` strength (complete, completed before the
/// opponent's) is safe: no completion of `opponent` to `n` cards from `pool`
/// beats it (a tie goes to the claimant).
pub fn proof(claimant: Strength, opponent: &[Card], n: usize, blind: bool, pool: &Pool) -> bool {
    max_strength(opponent, n, blind, pool).is_none_or(|s| s <= claimant)
}

/// An incomplete side's best completions to `n` cards from two pools, one
/// holding the other, worked out when first needed: bounds on its best from
/// any pool between them, so that a proof against such a pool mostly needs
/// no search. All zeros is "none worked out" (a position's nine are cleared
/// every ply of a playout).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bounds {
    /// The best from the larger pool.
    high: Memo,
    /// The best from the smaller pool.
    low: Memo,
}

/// A best completion once worked out, in one number: 0 not yet, 1 none
/// (the side cannot be completed), else the strength plus 2.
#[derive(Clone, Copy, Debug, Default)]
struct Memo(u16);

impl Memo {
    fn get_or(&mut self, work_out: impl FnOnce() -> Option<Strength>) -> Option<Strength> {
        if self.0 == 0 {
            self.0 = work_out().map_or(1, |s| s + 2);
        }
        self.0.checked_sub(2)
    }
}

impl Bounds {
    /// [`proof`] of `claimant` against `side` with `pool`, a pool between
    /// `larger` and `smaller` (the same side and pools every time).
    #[allow(clippy::too_many_arguments)] // the proof's arguments and the two pools
    pub(crate) fn proof(
        &mut self,
        claimant: Strength,
        side: &[Card],
        n: usize,
        blind: bool,
        pool: &Pool,
        (larger, smaller): (&Pool, &Pool),
    ) -> bool {
        // The smaller pool first: most claims fail, and fail on it already.
        let low = self.low.get_or(|| max_strength(side, n, blind, smaller));
        if low.is_some_and(|s| s > claimant) {
            return false;
        }
        let high = self.high.get_or(|| max_strength(side, n, blind, larger));
        if high.is_none_or(|s| s <= claimant) {
            return true;
        } else if pool == larger {
            return false;
        }
        proof(claimant, side, n, blind, pool)
    }
}

/// The name of a formation from a strength, for diagrams and messages.
pub fn formation_name(s: Strength, blind: bool) -> &'static str {
    if blind {
        return "sum";
    }
    match s / 64 {
        4 => "colour run",
        3 => "of a kind",
        2 => "colour",
        1 => "run",
        _ => "sum",
    }
}

/// Slow reference implementations used to cross-check the fast ones.
#[cfg(test)]
pub mod reference {
    use super::*;

    /// Strength of concrete (colour, rank) cards.
    pub fn concrete(cards: &[(u8, u8)], blind: bool) -> Strength {
        let total: u16 = cards.iter().map(|&(_, r)| r as u16).sum();
        if blind {
            return total;
        }
        let mut ranks: Vec<u8> = cards.iter().map(|&(_, r)| r).collect();
        ranks.sort();
        let flush = cards.iter().all(|&(c, _)| c == cards[0].0);
        let run = ranks.windows(2).all(|w| w[1] == w[0] + 1);
        let kind = ranks.iter().all(|&r| r == ranks[0]);
        let f = if flush && run {
            4
        } else if kind {
            3
        } else if flush {
            2
        } else if run {
            1
        } else {
            0
        };
        f * 64 + total
    }

    /// Every concrete (colour, rank) a card may stand for.
    fn options(card: Card) -> Vec<(u8, u8)> {
        if let (Some(c), Some(r)) = (card.colour(), card.rank()) {
            return vec![(c, r)];
        }
        let ranks: Vec<u8> = if card == Card::JOKER {
            (1..=9).collect()
        } else if card == Card::SPY {
            vec![7]
        } else {
            (1..=3).collect()
        };
        (0..6)
            .flat_map(|c| ranks.iter().map(move |&r| (c, r)))
            .collect()
    }

    /// Best strength of complete cards by trying every elite value.
    pub fn best(cards: &[Card], blind: bool) -> Strength {
        fn go(cards: &[Card], acc: &mut Vec<(u8, u8)>, blind: bool) -> Strength {
            match cards.split_first() {
                None => concrete(acc, blind),
                Some((&c, rest)) => {
                    let mut b = 0;
                    for o in options(c) {
                        acc.push(o);
                        b = b.max(go(rest, acc, blind));
                        acc.pop();
                    }
                    b
                }
            }
        }
        go(cards, &mut Vec::new(), blind)
    }

    /// Best completion by trying every subset of the pool.
    pub fn max_completion(side: &[Card], n: usize, blind: bool, pool: &Pool) -> Option<Strength> {
        let mut items: Vec<Card> = (0..54u8)
            .filter(|&i| pool.clan & (1u64 << i) != 0)
            .filter_map(Card::from_id)
            .collect();
        if pool.jokers > 0 && !side.contains(&Card::JOKER) {
            items.push(Card::JOKER);
        }
        if pool.spy {
            items.push(Card::SPY);
        }
        if pool.shield {
            items.push(Card::SHIELD);
        }
        fn go(
            items: &[Card],
            need: usize,
            acc: &mut Vec<Card>,
            blind: bool,
            best: &mut Option<Strength>,
        ) {
            if need == 0 {
                let s = super::reference::best(acc, blind);
                *best = (*best).max(Some(s));
                return;
            }
            for i in 0..items.len() {
                acc.push(items[i]);
                go(&items[i + 1..], need - 1, acc, blind, best);
                acc.pop();
            }
        }
        let mut best = None;
        if side.len() <= n {
            let mut acc = side.to_vec();
            go(&items, n - side.len(), &mut acc, blind, &mut best);
        }
        best
    }
}
