//! A small seeded PRNG (SplitMix64): plans must be a pure function of `(seed, index)` so that
//! any mismatch can be regenerated from its file name, on any machine.

/// SplitMix64: tiny, fast, and good enough to drive a program generator.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// The generator for plan `index` of a run seeded with `seed`.
    pub fn for_plan(seed: u64, index: u64) -> Self {
        let mut mixer = Rng {
            state: seed ^ 0x5851_F42D_4C95_7F2D,
        };
        let base = mixer.next_u64();
        Rng {
            state: base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// A value in `lo..=hi` (`lo` when the range is empty).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        lo + (self.next_u64() % span) as i64
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u32) -> bool {
        (self.next_u64() % 100) < u64::from(percent)
    }

    /// One element of a non-empty slice (the first when empty is impossible by construction).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_of_one_seed_differ_and_repeat() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_plan(7, 1).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_plan(7, 1).next_u64(),
            Rng::for_plan(7, 2).next_u64()
        );
        assert_ne!(
            Rng::for_plan(7, 1).next_u64(),
            Rng::for_plan(8, 1).next_u64()
        );
    }

    #[test]
    fn bounds_hold() {
        let mut rng = Rng::for_plan(1, 1);
        for _ in 0..1000 {
            assert!(rng.below(5) < 5);
            let v = rng.range(-3, 3);
            assert!((-3..=3).contains(&v));
        }
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.range(4, 4), 4);
    }
}
