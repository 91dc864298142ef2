//! The bit layout of a strength: one `u32` whose integer order is the game's order.
//!
//! ```text
//! bits 24..28  category index (0 high card … 10 five jokers)
//! bits 20..24, 16..20, 12..16, 8..12, 4..8
//!              up to five rank fields (0 = two … 12 = ace) in the order the tie rules compare them
//! bits 0..4    suit field: 1 club … 4 spade; 0 for a joker (it loses any suit comparison) or
//!              where the category compares no suit
//! ```
//! Every field a category does not compare is 0, so equal strength means a tie.

use crate::poker::category::Category;

const CATEGORY_SHIFT: u32 = 24;
const RANK_SHIFTS: [u32; 5] = [20, 16, 12, 8, 4];
/// The bits a suit field occupies.
pub(crate) const SUIT_MASK: u32 = 0xF;
/// Every bit a strength can use.
pub(crate) const STRENGTH_MASK: u32 = (1 << 28) - 1;

/// A strength with its suit field empty.
pub(crate) fn pack(category: Category, ranks: &[u8]) -> u32 {
    debug_assert!(ranks.len() <= RANK_SHIFTS.len());
    let rank_fields = ranks
        .iter()
        .zip(RANK_SHIFTS)
        .fold(0, |fields, (&rank, shift)| {
            fields | u32::from(rank) << shift
        });
    u32::from(category.index()) << CATEGORY_SHIFT | rank_fields
}

/// The suit field's value for a real card of suit index `suit` (0 club … 3 spade).
pub(crate) const fn suit_value(suit: u8) -> u32 {
    suit as u32 + 1
}

pub(crate) fn category(strength: u32) -> Category {
    let index = (strength >> CATEGORY_SHIFT) as u8;
    debug_assert!(index <= 10, "strength {strength:#x} out of range");
    Category::from_index(index).unwrap_or(Category::FiveJokers)
}

/// Rank field `field` (0 = the first compared).
pub(crate) fn rank(strength: u32, field: usize) -> u8 {
    ((strength >> RANK_SHIFTS[field]) & 0xF) as u8
}

/// Suit index (0 club … 3 spade) in the suit field, `None` when the field is empty.
pub(crate) fn suit(strength: u32) -> Option<u8> {
    match strength & SUIT_MASK {
        0 => None,
        value => Some((value - 1) as u8),
    }
}
