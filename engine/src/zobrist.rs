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

/// A 64-bit key of any hashable value (a move, say) by the same mix, one
/// step per field written: cheap, to tell values apart before comparing them.
pub(crate) fn key_of<T: std::hash::Hash>(value: &T) -> u64 {
    let mut mixer = Mixer(GOLDEN);
    value.hash(&mut mixer);
    mixer.0
}

/// The [`std::hash::Hasher`] of [`key_of`].
struct Mixer(u64);

impl Mixer {
    fn step(&mut self, x: u64) {
        self.0 = mix(self.0.wrapping_add(GOLDEN) ^ x);
    }
}

impl std::hash::Hasher for Mixer {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.step(u64::from(b));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.step(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.step(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.step(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.step(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.step(i as u64);
    }

    fn write_isize(&mut self, i: isize) {
        self.step(i as u64);
    }
}
