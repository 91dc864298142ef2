//! Lookup tables for the fast path, built once behind a `OnceLock` (about 10 ms in release,
//! mostly trying every joker reading of every rank multiset).
//!
//! A hand's strength is the larger of two lookups:
//! - unsuited: keyed by the multiset of its ranks plus its joker count, i.e. by the sum of one
//!   addend per card ([`RANK_KEYS`], chosen so that all such sums differ), squeezed into a small
//!   table by a bucket-displacement perfect hash. The entry holds the best non-flush
//!   interpretation with its suit field empty, and which rank's highest real suit fills that field;
//! - suited, only when every real card has the same suit: keyed by the mask of their ranks (the
//!   joker count is 5 minus its popcount), the best straight flush or flush the jokers can
//!   complete; the flush's suit fills the suit field.
//!
//! Taking the larger of the two is right because every category compares its own fields after
//! the category itself: the best interpretation is the maximum over interpretations.

use std::sync::OnceLock;

use super::layout::{self, pack, STRENGTH_MASK};
use super::patterns::{suited_key, unsuited_key};
use crate::poker::card::{Card, HAND_SIZE};
use crate::poker::category::Category;

/// The joker's addend in the unsuited hash.
const JOKER_KEY: u32 = 0;
/// Each rank's addend in the unsuited hash. Any five symbols (13 ranks, each at most four times,
/// and the joker up to five times) have a distinct sum. Found offline by a greedy search (each
/// addend the smallest that keeps all those sums distinct); `Tables::build` re-checks it.
const RANK_KEYS: [u32; 13] = [
    1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415, 148432,
];
/// The largest sum five cards can make, even an invalid hand with a rank five times.
const MAX_SUM: u32 = 5 * RANK_KEYS[12];
/// Sums are split into buckets of `1 << BUCKET_SHIFT`; each bucket gets one displacement.
/// 128 packs the 8,555 entries into about 10,200 slots with a 12 KB displacement table.
const BUCKET_SHIFT: u32 = 7;
const LOW_MASK: u32 = (1 << BUCKET_SHIFT) - 1;

/// Unsuited entries keep the strength in the low 28 bits and, above, the tie-breaking rank + 1
/// (0 when the category compares no suit).
const TIE_RANK_SHIFT: u32 = 28;

/// Per card index (0..=52, padded to 64 so that any `u8 & 63` is in bounds): the low 32 bits are
/// the hash addend; above them, bits 0..4 the suit bit (none for a joker) and 4..17 the rank bit.
const CARD_INFO: [u64; 64] = card_info();

const fn card_info() -> [u64; 64] {
    let mut info = [0u64; 64];
    let mut index = 0;
    while index < 52 {
        let rank = index / 4;
        let suit = index % 4;
        let masks = (1u64 << suit) | (1u64 << (4 + rank));
        info[index] = RANK_KEYS[rank] as u64 | masks << 32;
        index += 1;
    }
    info[52] = JOKER_KEY as u64;
    info
}

pub(super) struct Tables {
    /// One displacement per bucket of sums.
    offsets: Box<[u16]>,
    unsuited: Box<[u32]>,
    /// Indexed by a 13-bit rank mask.
    suited: Box<[u32; 1 << 13]>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

pub(super) fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

impl Tables {
    /// The strength of five cards: distinct real cards plus any number of jokers. Any other
    /// input (a real card twice) gives a meaningless value but never panics.
    #[inline]
    pub(super) fn strength(&self, cards: &[Card; HAND_SIZE]) -> u32 {
        let mut sum = 0u32;
        let mut masks = 0u32;
        // Bit `index` per card: four bits per rank, one per suit. A joker sets bit 52, which
        // belongs to no rank.
        let mut held = 0u64;
        for card in cards {
            let index = card.index() & 63;
            let info = CARD_INFO[usize::from(index)];
            sum += info as u32;
            masks |= (info >> 32) as u32;
            held |= 1 << index;
        }
        let slot = (sum & LOW_MASK) + u32::from(self.offsets[(sum >> BUCKET_SHIFT) as usize]);
        let entry = self.unsuited[slot as usize];
        // The suits held in the tie-breaking rank; with no such rank (0), bits 60..64, never set.
        let tie_rank = entry >> TIE_RANK_SHIFT;
        let suits_of_tie_rank = (held >> ((tie_rank * 4).wrapping_sub(4) & 63)) as u32 & 0xF;
        // Highest suit held: its bit position + 1, which is its suit value (0 when none).
        let tie_suit = u32::BITS - suits_of_tie_rank.leading_zeros();
        let unsuited = (entry & STRENGTH_MASK) | tie_suit;

        let suits = masks & 0xF;
        let suited = if suits.is_power_of_two() {
            let rank_mask = (masks >> 4) as usize & 0x1FFF;
            self.suited[rank_mask] | layout::suit_value(suits.trailing_zeros() as u8)
        } else {
            0
        };
        unsuited.max(suited)
    }

    fn build() -> Tables {
        let mut entries = Vec::new();
        for real_count in 0..=HAND_SIZE {
            for_each_rank_multiset(real_count, 4, &mut |real| {
                let sum = real
                    .iter()
                    .zip(RANK_KEYS)
                    .map(|(&count, key)| u32::from(count) * key)
                    .sum::<u32>()
                    + (HAND_SIZE - real_count) as u32 * JOKER_KEY;
                entries.push((sum, best_unsuited_entry(real, HAND_SIZE - real_count)));
            });
        }
        let (offsets, unsuited) = displace(&entries);
        Tables {
            offsets,
            unsuited,
            suited: suited_table(),
        }
    }

    /// Slots in the unsuited table (for the size report in tests).
    #[cfg(test)]
    pub(super) fn unsuited_len(&self) -> usize {
        self.unsuited.len()
    }
}

/// Calls `visit` with every rank-count vector of `size` cards, at most `max_per_rank` per rank.
fn for_each_rank_multiset(size: usize, max_per_rank: u8, visit: &mut impl FnMut(&[u8; 13])) {
    fn place(
        rank: usize,
        left: u8,
        max_per_rank: u8,
        counts: &mut [u8; 13],
        visit: &mut impl FnMut(&[u8; 13]),
    ) {
        if left == 0 {
            visit(counts);
            return;
        }
        if rank == 13 {
            return;
        }
        for count in (0..=left.min(max_per_rank)).rev() {
            counts[rank] = count;
            place(rank + 1, left - count, max_per_rank, counts, visit);
        }
        counts[rank] = 0;
    }
    place(0, size as u8, max_per_rank, &mut [0; 13], visit);
}

/// The unsuited entry for real ranks `real` and `jokers` jokers: every way of giving the jokers
/// ranks (a joker may repeat a card already held), judged without a flush, keeping the best.
fn best_unsuited_entry(real: &[u8; 13], jokers: usize) -> u32 {
    if jokers == HAND_SIZE {
        return pack(Category::FiveJokers, &[]);
    }
    // (strength without suit, whether the tie-breaking card is real, tie rank)
    let mut best = (0u32, false, None);
    for_each_rank_multiset(jokers, HAND_SIZE as u8, &mut |joker_ranks| {
        let mut counts = *real;
        for (count, extra) in counts.iter_mut().zip(joker_ranks) {
            *count += extra;
        }
        let (key, tie_rank) = unsuited_key(&counts);
        // Equal ranks: any real card's suit beats a joker's, so prefer a real tie-breaker.
        let tie_rank = tie_rank.filter(|&rank| real[usize::from(rank)] > 0);
        let candidate = (key, tie_rank.is_some(), tie_rank);
        if (candidate.0, candidate.1) > (best.0, best.1) {
            best = candidate;
        }
    });
    let (key, _, tie_rank) = best;
    key | tie_rank.map_or(0, |rank| (u32::from(rank) + 1) << TIE_RANK_SHIFT)
}

/// For every mask of one to five ranks of one suit: the best straight flush or flush the missing
/// cards (jokers, 5 - popcount of them) can complete. Inside a flush a joker is a card of the
/// flush's suit the hand lacks, so the five ranks are distinct.
fn suited_table() -> Box<[u32; 1 << 13]> {
    let mut table = Box::new([0u32; 1 << 13]);
    for full in (0u16..1 << 13).filter(|mask| mask.count_ones() == 5) {
        let key = suited_key(full);
        // Every subset of the five is a hand that the jokers may complete to `full`.
        let mut held = full;
        loop {
            if held != 0 {
                let slot = &mut table[usize::from(held)];
                *slot = (*slot).max(key);
            }
            if held == 0 {
                break;
            }
            held = (held - 1) & full;
        }
    }
    table
}

/// A perfect hash for the given distinct sums: a bucket's sums keep their low bits and move by
/// the bucket's displacement. Buckets are placed largest first at the lowest displacement where
/// none of their slots is taken, testing 64 displacements at a time on a bit set of taken slots.
/// The table is padded so that any sum up to `MAX_SUM`, even one no valid hand makes, lands in
/// bounds.
fn displace(entries: &[(u32, u32)]) -> (Box<[u16]>, Box<[u32]>) {
    let bucket_count = (MAX_SUM >> BUCKET_SHIFT) as usize + 1;
    let mut buckets: Vec<Vec<(u32, u32)>> = vec![Vec::new(); bucket_count];
    for &(sum, value) in entries {
        buckets[(sum >> BUCKET_SHIFT) as usize].push((sum, value));
    }
    let mut order: Vec<usize> = (0..bucket_count).collect();
    order.sort_by_key(|&bucket| std::cmp::Reverse(buckets[bucket].len()));

    let mut offsets = vec![0u16; bucket_count];
    let mut taken = SlotSet::new(usize::from(u16::MAX) + 1 + (2 << BUCKET_SHIFT));
    // Every slot below this one is taken.
    let mut first_free = 0;
    let mut table: Vec<u32> = Vec::new();
    for bucket in order {
        let members = &buckets[bucket];
        let Some(lowest) = members
            .iter()
            .map(|&(sum, _)| (sum & LOW_MASK) as usize)
            .min()
        else {
            continue;
        };
        while taken.contains(first_free) {
            first_free += 1;
        }
        // A displacement putting the lowest member below `first_free` cannot fit: start above.
        let mut base = first_free.saturating_sub(lowest);
        let offset = loop {
            let fitting = members.iter().fold(u64::MAX, |fitting, &(sum, _)| {
                fitting & taken.free_run((sum & LOW_MASK) as usize + base)
            });
            if fitting != 0 {
                break base + fitting.trailing_zeros() as usize;
            }
            base += 64;
        };
        offsets[bucket] = u16::try_from(offset).expect("displacements fit in 16 bits");
        for &(sum, value) in members {
            let slot = (sum & LOW_MASK) as usize + offset;
            if slot >= table.len() {
                table.resize(slot + 1, 0);
            }
            taken.insert(slot);
            table[slot] = value;
        }
    }
    let max_offset = offsets.iter().copied().max().unwrap_or(0);
    table.resize(
        table
            .len()
            .max((u32::from(max_offset) + LOW_MASK + 1) as usize),
        0,
    );
    (offsets.into_boxed_slice(), table.into_boxed_slice())
}

/// A fixed-size bit set of table slots.
struct SlotSet {
    words: Vec<u64>,
}

impl SlotSet {
    fn new(slots: usize) -> SlotSet {
        // One spare word so that `free_run` may read past the last slot.
        SlotSet {
            words: vec![0; slots.div_ceil(64) + 1],
        }
    }

    fn contains(&self, slot: usize) -> bool {
        self.words[slot / 64] & 1 << (slot % 64) != 0
    }

    fn insert(&mut self, slot: usize) {
        assert!(
            !self.contains(slot),
            "rank keys collide: slot {slot} taken twice"
        );
        self.words[slot / 64] |= 1 << (slot % 64);
    }

    /// Bit `i` set when slot `start + i` is free, for the 64 slots from `start`.
    fn free_run(&self, start: usize) -> u64 {
        let (word, shift) = (start / 64, start % 64);
        let low = self.words[word] >> shift;
        let high = match shift {
            0 => 0,
            _ => self.words[word + 1] << (64 - shift),
        };
        !(low | high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rank_keys_give_every_hand_shape_its_own_sum() {
        let mut sums = HashSet::new();
        let mut shapes = 0;
        for real_count in 0..=HAND_SIZE {
            for_each_rank_multiset(real_count, 4, &mut |real| {
                let sum: u32 = real
                    .iter()
                    .zip(RANK_KEYS)
                    .map(|(&c, k)| u32::from(c) * k)
                    .sum();
                assert!(sums.insert(sum + (HAND_SIZE - real_count) as u32 * JOKER_KEY));
                shapes += 1;
            });
        }
        // Multisets of 0..=5 ranks (at most 4 of a rank): 1 + 13 + 91 + 455 + 1820 + 6175.
        assert_eq!(shapes, 8555);
        let tables = tables();
        // The hash stays small enough to live in L2 beside the 32 KB suited table.
        assert!(tables.unsuited_len() <= 11_000, "{}", tables.unsuited_len());
    }
}
