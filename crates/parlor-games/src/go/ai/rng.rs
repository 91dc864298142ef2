//! The playouts' random generator: wyrand (Wang Yi's 64-bit generator, one add and one
//! 64×64→128-bit multiply a number, eight bytes of state). A playout draws two or three numbers
//! a move and needs speed, not cryptographic strength. ChaCha8, the crate's generator
//! elsewhere, was not the bottleneck (about 3 % of a playout's instructions, refills included),
//! but this one costs no refills and is as deterministic: seeded from the search's seed, a seed
//! still gives the same playouts (another stream than ChaCha8's, so other playouts than before).

use rand::{Error, RngCore, SeedableRng};

/// wyrand's state: a counter stepped by an odd constant, mixed on output.
#[derive(Clone, Debug)]
pub(super) struct PlayoutRng(u64);

impl RngCore for PlayoutRng {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        ((t >> 64) as u64) ^ (t as u64)
    }

    /// The high half, the better mixed one.
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl SeedableRng for PlayoutRng {
    type Seed = [u8; 8];

    fn from_seed(seed: [u8; 8]) -> PlayoutRng {
        PlayoutRng(u64::from_le_bytes(seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_one_stream_and_other_seeds_other_streams() {
        let draw = |seed| {
            let mut rng = PlayoutRng::seed_from_u64(seed);
            (0..8).map(|_| rng.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        assert_ne!(draw(0), draw(1));
    }

    #[test]
    fn draws_below_a_bound_are_roughly_uniform() {
        // 64,000 draws into 64 buckets: each expects 1,000, and a bucket off by more than
        // 20 % (about six standard deviations) would mean a broken mixer.
        let mut rng = PlayoutRng::seed_from_u64(1);
        let mut buckets = [0u32; 64];
        for _ in 0..64_000 {
            buckets[super::super::playout::below(&mut rng, 64)] += 1;
        }
        assert!(
            buckets.iter().all(|&b| (800..=1200).contains(&b)),
            "{buckets:?}"
        );
    }
}
