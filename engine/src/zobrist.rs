//! The splitmix64 sequence every game's Zobrist keys come from: fixed, so
//! position hashes are the same on every run and platform (the notations
//! write them into repetition histories).

/// The sequence's increment (the golden ratio in 64 bits).
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output of a state.
pub(crate) const fn mix(state: u64) -> u64 {
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The state after `state` and its key.
pub(crate) const fn next(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GOLDEN);
    (s, mix(s))
}
