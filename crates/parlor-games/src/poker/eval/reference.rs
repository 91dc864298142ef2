//! A slow evaluator written straight from docs/RULES.md, for tests only, sharing no code with the
//! fast path: every joker is tried as every one of the 52 cards (jokers are interchangeable, so
//! multisets of substitutions cover every case), each resulting five cards is judged by the rules
//! as written, and the best judgement wins.

use crate::poker::card::{Card, HAND_SIZE};
use crate::poker::category::Category;

/// A judgement: the category, then the tie fields in the order the rules compare them.
/// Ranks are 0 (two) … 12 (ace); suits 1 (club) … 4 (spade) and 0 for a joker's "no suit".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Judgement {
    pub category: Category,
    pub ties: [u8; 6],
}

/// A card as played: a real card, or a joker standing for `rank` of `suit`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Played {
    pub rank: u8,
    pub suit: u8,
    pub joker: bool,
}

pub(super) fn reference_judgement(hand: &[Card; HAND_SIZE]) -> Judgement {
    let jokers = hand.iter().filter(|card| card.is_joker()).count();
    if jokers == HAND_SIZE {
        return Judgement {
            category: Category::FiveJokers,
            ties: [0; 6],
        };
    }
    let mut played: Vec<Played> = hand
        .iter()
        .filter(|card| !card.is_joker())
        .map(|card| Played {
            rank: card.index() / 4,
            suit: card.index() % 4,
            joker: false,
        })
        .collect();
    let mut best = None;
    substitute(0, jokers, &mut played, &mut best);
    best.expect("at least one interpretation")
}

fn substitute(first: u8, left: usize, played: &mut Vec<Played>, best: &mut Option<Judgement>) {
    if left == 0 {
        let judgement = judge(played.as_slice().try_into().expect("five cards"));
        if best.is_none_or(|best| judgement > best) {
            *best = Some(judgement);
        }
        return;
    }
    for index in first..52 {
        played.push(Played {
            rank: index / 4,
            suit: index % 4,
            joker: true,
        });
        substitute(index, left - 1, played, best);
        played.pop();
    }
}

/// Five played cards judged by docs/RULES.md.
pub(super) fn judge(cards: &[Played; HAND_SIZE]) -> Judgement {
    let mut counts = [0u8; 13];
    for card in cards {
        counts[usize::from(card.rank)] += 1;
    }
    // (count, rank), biggest group first, then highest rank.
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .filter(|&rank| counts[usize::from(rank)] > 0)
        .map(|rank| (counts[usize::from(rank)], rank))
        .collect();
    groups.sort_by(|a, b| b.cmp(a));
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let distinct = groups.len();

    // In a flush a joker is the flush's suit; in any other suit comparison it has none.
    let compared_suit = |card: &Played| if card.joker { 0 } else { card.suit + 1 };
    let highest_suit_of_rank = |rank: u8| {
        cards
            .iter()
            .filter(|card| card.rank == rank)
            .map(compared_suit)
            .max()
            .unwrap_or(0)
    };
    let one_suit = cards.iter().all(|card| card.suit == cards[0].suit);
    // A flush is five different cards of one suit (a joker is a card the hand lacks).
    let flush = one_suit && distinct == 5;
    let high = groups[0].1;
    let low = groups[distinct - 1].1;
    let is_wheel = distinct == 5 && [12, 3, 2, 1, 0].iter().all(|&r| counts[r] == 1);
    let straight_top = if distinct == 5 && high - low == 4 {
        Some(high)
    } else if is_wheel {
        Some(3)
    } else {
        None
    };

    let judged = |category, ties: &[u8]| {
        let mut all = [0u8; 6];
        all[..ties.len()].copy_from_slice(ties);
        Judgement {
            category,
            ties: all,
        }
    };
    let rank = |i: usize| groups[i].1;
    if shape == [5] {
        return judged(Category::FiveOfAKind, &[rank(0)]);
    }
    if let (Some(top), true) = (straight_top, flush) {
        return judged(Category::StraightFlush, &[top, cards[0].suit + 1]);
    }
    if shape == [4, 1] {
        return judged(Category::FourOfAKind, &[rank(0), rank(1)]);
    }
    if shape == [3, 2] {
        let ties = [rank(0), rank(1), highest_suit_of_rank(rank(0))];
        return judged(Category::FullHouse, &ties);
    }
    if flush {
        let ranks: Vec<u8> = groups.iter().map(|g| g.1).collect();
        let mut ties = ranks.clone();
        ties.push(cards[0].suit + 1);
        return judged(Category::Flush, &ties);
    }
    if let Some(top) = straight_top {
        let top_card = cards
            .iter()
            .find(|card| card.rank == top)
            .expect("top card");
        return judged(Category::Straight, &[top, compared_suit(top_card)]);
    }
    if shape == [3, 1, 1] {
        let ties = [rank(0), rank(1), rank(2), highest_suit_of_rank(rank(0))];
        return judged(Category::ThreeOfAKind, &ties);
    }
    if shape == [2, 2, 1] {
        let ties = [rank(0), rank(1), highest_suit_of_rank(rank(0))];
        return judged(Category::TwoPair, &ties);
    }
    if shape == [2, 1, 1, 1] {
        return judged(Category::OnePair, &[rank(0), highest_suit_of_rank(rank(0))]);
    }
    judged(Category::HighCard, &[high, highest_suit_of_rank(high)])
}
