//! The transposition table that the search threads share. Each slot is two words: the key xor'd
//! with the data, and the data. A slot torn by two threads writing at once fails the key check
//! and reads as a miss, so no lock is needed.

use std::sync::atomic::{AtomicU64, Ordering};

/// What an entry's score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (every move failed low).
    Upper,
}

/// One remembered search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub score: i32,
    pub best: u16,
    pub depth: i8,
    pub bound: Bound,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.score as u32)
            | u64::from(self.best) << 32
            | u64::from(self.depth as u8) << 48
            | bound << 56
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match data >> 56 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            score: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8 as i8,
            bound,
        })
    }
}

pub(crate) struct Table {
    slots: Vec<[AtomicU64; 2]>,
}

impl Table {
    /// A table of `2^bits` slots.
    pub(crate) fn new(bits: u32) -> Self {
        Table {
            slots: (0..1usize << bits)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let [check, data] = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        if check.load(Ordering::Relaxed) ^ data != key || data == 0 {
            return None;
        }
        Entry::unpack(data)
    }

    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let [check, data] = self.slot(key);
        let packed = entry.pack();
        check.store(key ^ packed, Ordering::Relaxed);
        data.store(packed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_the_round_trip() {
        let table = Table::new(4);
        let entry = Entry {
            score: -999_990,
            best: 300,
            depth: -3,
            bound: Bound::Upper,
        };
        table.store(0xABCD_0001, entry);
        assert_eq!(table.probe(0xABCD_0001), Some(entry));
        assert_eq!(table.probe(0xABCD_0011), None, "same slot, other key");
        assert_eq!(table.probe(0x1234_0005), None, "empty slot");
    }
}
