//! The fast claim proof against brute force.

use super::*;
use crate::schotten_totten as st;

/// A random side of `k` cards and a pool, from `seed`: clan cards drawn from
/// a small random subset (so the brute force stays fast), elites at random.
fn random_proof_case(seed: u64) -> (Vec<Card>, usize, bool, Pool) {
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = if rng.random_range(0..4) == 0 { 4 } else { 3 };
    let blind = rng.random_range(0..4) == 0;
    let mut clan: Vec<Card> = Card::all().filter(|c| c.is_clan()).collect();
    // Bias towards few colours and high ranks so strong formations occur.
    let colours = rng.random_range(1..=6u8);
    clan.retain(|c| c.colour().is_some_and(|x| x < colours));
    rand::seq::SliceRandom::shuffle(clan.as_mut_slice(), &mut rng);
    let k = rng.random_range(0..n);
    let mut side: Vec<Card> = Vec::new();
    let mut elites = vec![Card::JOKER, Card::SPY, Card::SHIELD];
    rand::seq::SliceRandom::shuffle(elites.as_mut_slice(), &mut rng);
    while side.len() < k {
        if rng.random_range(0..4) == 0 {
            if let Some(e) = elites.pop() {
                side.push(e);
                continue;
            }
        }
        side.push(clan.pop().expect("enough cards"));
    }
    let pool_size = if n - k >= 3 { 10 } else { 18 };
    let mut pool = Pool::default();
    for c in clan.iter().take(pool_size) {
        pool.clan |= 1u64 << c.id();
    }
    pool.jokers = rng.random_range(0..=2);
    pool.spy = !side.contains(&Card::SPY) && rng.random::<bool>();
    pool.shield = !side.contains(&Card::SHIELD) && rng.random::<bool>();
    (side, n, blind, pool)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// The fast best-completion search agrees with trying every completion.
    #[test]
    fn proof_matches_brute_force(seed in proptest::prelude::any::<u64>()) {
        let (side, n, blind, pool) = random_proof_case(seed);
        let fast = max_strength(&side, n, blind, &pool);
        let slow = st::formation::reference::max_completion(&side, n, blind, &pool);
        proptest::prop_assert_eq!(fast, slow, "side {:?} n {} blind {} pool {:?}", side, n, blind, pool);
    }

    /// The same without elite troops on the side or in the pool (every
    /// `classic` case, answered by bit tests on card masks).
    #[test]
    fn clan_only_proof_matches_brute_force(seed in proptest::prelude::any::<u64>()) {
        let (side, n, blind, mut pool) = random_proof_case(seed);
        let side: Vec<Card> = side.into_iter().filter(|c| c.is_clan()).collect();
        pool.jokers = 0;
        pool.spy = false;
        pool.shield = false;
        let fast = max_strength(&side, n, blind, &pool);
        let slow = st::formation::reference::max_completion(&side, n, blind, &pool);
        proptest::prop_assert_eq!(fast, slow, "side {:?} n {} blind {} pool {:?}", side, n, blind, pool);
    }

    /// Complete sides with elite troops: the fast strength is the best concrete one.
    #[test]
    fn strength_matches_brute_force(seed in proptest::prelude::any::<u64>()) {
        let (mut side, n, blind, _) = random_proof_case(seed);
        let extra: Vec<Card> = Card::all().filter(|c| c.is_clan() && !side.contains(c)).collect();
        let mut extra = extra.into_iter().rev();
        while side.len() < n {
            side.push(extra.next().expect("cards"));
        }
        proptest::prop_assert_eq!(strength(&side, blind), st::formation::reference::best(&side, blind));
    }
}
