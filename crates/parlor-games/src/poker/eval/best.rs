//! The `best` explanation: the five cards in the order the tie rules compare them, each joker
//! shown as what it stands for. Rebuilt from the strength, so it always agrees with it.

use super::layout;
use super::BestCard;
use crate::poker::card::{Card, Rank, Suit, HAND_SIZE};
use crate::poker::category::Category;

pub(super) fn best_cards(cards: &[Card; HAND_SIZE], strength: u32) -> [BestCard; HAND_SIZE] {
    let category = layout::category(strength);
    if category == Category::FiveJokers {
        return [BestCard::Joker; HAND_SIZE];
    }
    // Real cards, best first: a card's index orders by rank, then suit.
    let mut pool: [Option<Card>; HAND_SIZE] = cards.map(|card| (!card.is_joker()).then_some(card));
    pool.sort_unstable_by(|a, b| b.cmp(a));

    let rank = |field| layout::rank(strength, field);
    let mut groups = [(0u8, 0usize); HAND_SIZE];
    let group_count = match category {
        Category::FiveOfAKind => fill(&mut groups, &[(rank(0), 5)]),
        Category::FourOfAKind => fill(&mut groups, &[(rank(0), 4), (rank(1), 1)]),
        Category::FullHouse => fill(&mut groups, &[(rank(0), 3), (rank(1), 2)]),
        Category::ThreeOfAKind => fill(&mut groups, &[(rank(0), 3), (rank(1), 1), (rank(2), 1)]),
        Category::TwoPair => fill(&mut groups, &[(rank(0), 2), (rank(1), 2)]),
        Category::OnePair => fill(&mut groups, &[(rank(0), 2)]),
        Category::HighCard => fill(&mut groups, &[(rank(0), 1)]),
        Category::Flush => {
            let ranks = [rank(0), rank(1), rank(2), rank(3), rank(4)];
            fill(&mut groups, &ranks.map(|rank| (rank, 1)))
        }
        Category::Straight | Category::StraightFlush => {
            // Top card down; the wheel's ace sits at the bottom, below the two.
            let top = rank(0);
            let ranks: [u8; 5] = std::array::from_fn(|i| (top + 13 - i as u8) % 13);
            fill(&mut groups, &ranks.map(|rank| (rank, 1)))
        }
        Category::FiveJokers => 0,
    };
    let flush_suit = match category {
        Category::Flush | Category::StraightFlush => layout::suit(strength).map(Suit::from_index),
        _ => None,
    };

    let mut best = [BestCard::Joker; HAND_SIZE];
    let mut filled = 0;
    for &(rank_index, count) in &groups[..group_count] {
        let Some(rank) = Rank::from_index(rank_index) else {
            continue;
        };
        for _ in 0..count {
            let held = pool
                .iter_mut()
                .find(|slot| slot.is_some_and(|card| card.rank() == Some(rank)))
                .and_then(Option::take);
            if filled < HAND_SIZE {
                best[filled] = match held {
                    Some(card) => BestCard::Real(card),
                    None => BestCard::Wild {
                        rank,
                        suit: flush_suit,
                    },
                };
                filled += 1;
            }
        }
    }
    // Cards the rules never reach (the kicker of two pair, a pair's kickers, high card's rest).
    for card in pool.into_iter().flatten() {
        if filled < HAND_SIZE {
            best[filled] = BestCard::Real(card);
            filled += 1;
        }
    }
    best
}

fn fill(groups: &mut [(u8, usize); HAND_SIZE], from: &[(u8, usize)]) -> usize {
    groups[..from.len()].copy_from_slice(from);
    from.len()
}
