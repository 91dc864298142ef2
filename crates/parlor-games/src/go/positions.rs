//! Every position a game has reached, each once, in the order they arose: for positional superko
//! (is this position new?) and the AI's tree reuse (the list, in order).
//!
//! A list alone answered "is it new?" by reading it whole, once for every stone placed and once
//! more for every move checked under superko: a few hundred comparisons late in a long game that
//! a move at the start does not pay. A set beside the list answers at once. The set was left out
//! while a change copied the game (a long game's set cost more to copy than the look-ups it
//! saved); a change now happens in place, so a copy is rare.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A position's Zobrist hash is already uniformly random: it is its own hash.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64`s are hashed here; this keeps any other key correct, if slower.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct Positions {
    in_order: Vec<u64>,
    seen: HashSet<u64, BuildHasherDefault<ZobristHasher>>,
}

impl Positions {
    /// Starting from the position hashed `first`.
    pub fn starting_at(first: u64) -> Positions {
        let mut positions = Positions::default();
        positions.add(first);
        positions
    }

    pub fn contains(&self, hash: u64) -> bool {
        self.seen.contains(&hash)
    }

    /// Records the position hashed `hash` unless it arose before.
    pub fn add(&mut self, hash: u64) {
        if self.seen.insert(hash) {
            self.in_order.push(hash);
        }
    }

    /// Oldest first.
    pub fn in_order(&self) -> &[u64] {
        &self.in_order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_each_position_once_in_the_order_it_arose() {
        let mut positions = Positions::starting_at(7);
        for hash in [3, 7, 9, 3, 1] {
            positions.add(hash);
        }
        assert_eq!(positions.in_order(), [7, 3, 9, 1]);
        assert!(positions.contains(9));
        assert!(!positions.contains(4));
    }
}
