//! The rules at rank level: what five ranks (repeats allowed, since a joker may copy a card of
//! the hand) are worth, with or without a flush. The lookup tables are built from these.

use super::layout::pack;
use crate::poker::category::Category;

/// A-2-3-4-5 as a rank mask: the only straight with the ace low.
const WHEEL: u16 = 0b1_0000_0000_1111;
const FIVE_IN_A_ROW: u16 = 0b1_1111;

/// The top rank of the straight made by the distinct ranks in `mask`, if they make one.
/// The wheel's top card is the five; K-A-2-3-4 is no straight.
pub(super) fn straight_top(mask: u16) -> Option<u8> {
    if mask == WHEEL {
        return Some(3);
    }
    let low = mask.trailing_zeros();
    (mask != 0 && mask >> low == FIVE_IN_A_ROW).then_some(low as u8 + 4)
}

/// Five cards' rank counts (13 ranks, summing to 5) judged without a flush: the strength with
/// an empty suit field, and the rank whose highest suit breaks the last tie (the triple's, the
/// higher pair's, the pair's, or the top card's), `None` when the category compares no suit.
pub(super) fn unsuited_key(counts: &[u8; 13]) -> (u32, Option<u8>) {
    debug_assert_eq!(counts.iter().sum::<u8>(), 5);
    // (count, rank), larger groups first, higher ranks first within a size.
    let mut groups = [(0u8, 0u8); 5];
    let mut len = 0;
    for rank in (0..13u8).rev() {
        if counts[rank as usize] > 0 {
            groups[len] = (counts[rank as usize], rank);
            len += 1;
        }
    }
    let groups = &mut groups[..len];
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let rank = |i: usize| groups[i].1;
    let mut shape = [0u8; 5];
    for (size, group) in shape.iter_mut().zip(groups.iter()) {
        *size = group.0;
    }
    match &shape[..len] {
        [5] => (pack(Category::FiveOfAKind, &[rank(0)]), None),
        [4, 1] => (pack(Category::FourOfAKind, &[rank(0), rank(1)]), None),
        [3, 2] => (
            pack(Category::FullHouse, &[rank(0), rank(1)]),
            Some(rank(0)),
        ),
        [3, 1, 1] => {
            let key = pack(Category::ThreeOfAKind, &[rank(0), rank(1), rank(2)]);
            (key, Some(rank(0)))
        }
        [2, 2, 1] => (pack(Category::TwoPair, &[rank(0), rank(1)]), Some(rank(0))),
        // The seed compares no kickers after a pair, and nothing after the top card.
        [2, 1, 1, 1] => (pack(Category::OnePair, &[rank(0)]), Some(rank(0))),
        _ => {
            let mask = groups.iter().fold(0u16, |mask, g| mask | 1 << g.1);
            match straight_top(mask) {
                Some(top) => (pack(Category::Straight, &[top]), Some(top)),
                None => (pack(Category::HighCard, &[rank(0)]), Some(rank(0))),
            }
        }
    }
}

/// Five distinct ranks of one suit: a straight flush or a flush, suit field empty (the flush's
/// suit fills it).
pub(super) fn suited_key(mask: u16) -> u32 {
    debug_assert_eq!(mask.count_ones(), 5);
    match straight_top(mask) {
        Some(top) => pack(Category::StraightFlush, &[top]),
        None => {
            let mut ranks = [0u8; 5];
            let descending = (0..13u8).rev().filter(|&rank| mask & 1 << rank != 0);
            for (slot, rank) in ranks.iter_mut().zip(descending) {
                *slot = rank;
            }
            pack(Category::Flush, &ranks)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straights_including_the_wheel_but_not_round_the_corner() {
        assert_eq!(straight_top(WHEEL), Some(3));
        assert_eq!(straight_top(0b1_1111_0000_0000), Some(12));
        assert_eq!(straight_top(0b0_0000_0001_1111), Some(4));
        // K-A-2-3-4
        assert_eq!(straight_top(0b1_1000_0000_0111), None);
        assert_eq!(straight_top(0b0_0000_0010_1111), None);
        assert_eq!(straight_top(0), None);
        let tops: Vec<u8> = (0..1u16 << 13).filter_map(straight_top).collect();
        assert_eq!(tops.len(), 10);
    }
}
