//! Comparing hands: one-deck validation, ranking by strength, and the showdown the deal and
//! compare routes answer with.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::card::{Card, HAND_SIZE, JOKERS_IN_DECK, REAL_CARDS};
use super::error::PokerError;
use super::eval::{evaluate, Eval};

/// Fewest and most hands at one table: 11 hands of 5 fit in a 57-card deck.
pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 11;

/// Checks that the hands could come from one deck: no real card twice, at most five jokers.
pub fn validate_one_deck(hands: &[[Card; HAND_SIZE]]) -> Result<(), PokerError> {
    let mut seen = [false; REAL_CARDS];
    let mut jokers = 0;
    for &card in hands.iter().flatten() {
        if card.is_joker() {
            jokers += 1;
        } else if std::mem::replace(&mut seen[usize::from(card.index())], true) {
            return Err(PokerError::DuplicateCard { card });
        }
    }
    if jokers > JOKERS_IN_DECK {
        return Err(PokerError::TooManyJokers { count: jokers });
    }
    Ok(())
}

/// Seat indices grouped by strength, best group first; a group of several is a tie.
/// The winners are `ranking[0]`. Seats keep their order within a group.
pub fn ranking(strengths: &[u32]) -> Vec<Vec<usize>> {
    let mut seats: Vec<usize> = (0..strengths.len()).collect();
    seats.sort_by(|&a, &b| strengths[b].cmp(&strengths[a]).then(a.cmp(&b)));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for seat in seats {
        match groups.last_mut() {
            Some(group) if strengths[group[0]] == strengths[seat] => group.push(seat),
            _ => groups.push(vec![seat]),
        }
    }
    groups
}

/// One seat's hand explained.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatEval {
    pub seat: usize,
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub eval: Eval,
}

/// Every hand explained, with the ranking and the winners (`ranking[0]`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Showdown {
    pub hands: Vec<SeatEval>,
    pub ranking: Vec<Vec<usize>>,
    pub winners: Vec<usize>,
}

/// Evaluates and ranks hands as they are (no validation; see [`compare`]).
pub fn showdown(hands: &[[Card; HAND_SIZE]]) -> Showdown {
    let hands: Vec<SeatEval> = hands
        .iter()
        .enumerate()
        .map(|(seat, cards)| SeatEval {
            seat,
            eval: evaluate(cards),
        })
        .collect();
    let strengths: Vec<u32> = hands.iter().map(|hand| hand.eval.strength).collect();
    let ranking = ranking(&strengths);
    let winners = ranking.first().cloned().unwrap_or_default();
    Showdown {
        hands,
        ranking,
        winners,
    }
}

/// The compare route: 2..=11 hands from one deck, evaluated and ranked.
pub fn compare(hands: &[[Card; HAND_SIZE]]) -> Result<Showdown, PokerError> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&hands.len()) {
        return Err(PokerError::HandCount { hands: hands.len() });
    }
    validate_one_deck(hands)?;
    Ok(showdown(hands))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(codes: &str) -> [Card; HAND_SIZE] {
        let cards: Vec<Card> = codes
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        cards.try_into().unwrap()
    }

    #[test]
    fn one_deck_allows_each_real_card_once_and_five_jokers() {
        let fine = [
            hand("AS KS QS JS JK"),
            hand("AH KH JK JK JK"),
            hand("2C 3C 4C 5C JK"),
        ];
        assert_eq!(validate_one_deck(&fine), Ok(()));
        assert_eq!(validate_one_deck(&[]), Ok(()));

        let twice = [hand("AS KS QS JS TS"), hand("2C 3C 4C 5C AS")];
        let err = validate_one_deck(&twice).unwrap_err();
        assert_eq!(
            err,
            PokerError::DuplicateCard {
                card: "AS".parse().unwrap()
            }
        );
        assert!(err.to_string().contains("AS"), "{err}");

        let within_one_hand = [hand("AS AS QS JS TS")];
        assert!(matches!(
            validate_one_deck(&within_one_hand),
            Err(PokerError::DuplicateCard { .. })
        ));

        let six_jokers = [hand("JK JK JK JK JK"), hand("JK 2C 3C 4C 5C")];
        assert_eq!(
            validate_one_deck(&six_jokers),
            Err(PokerError::TooManyJokers { count: 6 })
        );
    }

    #[test]
    fn ranking_groups_ties_best_first() {
        assert_eq!(
            ranking(&[5, 9, 5, 1, 9]),
            vec![vec![1, 4], vec![0, 2], vec![3]]
        );
        assert_eq!(ranking(&[]), Vec::<Vec<usize>>::new());
        assert_eq!(ranking(&[7]), vec![vec![0]]);
    }

    #[test]
    fn compare_ranks_and_shares_ties() {
        let hands = [
            hand("9S 9C 2D 3H 5C"),
            hand("AS KS QS JS JK"),
            hand("9H 9D AH KH QH"),
            hand("AC AD 4C 6D 8S"),
        ];
        // Pair of nines: spade (seat 0) beats heart (seat 2) whatever the kickers.
        let result = compare(&hands).unwrap();
        assert_eq!(result.winners, vec![1]);
        assert_eq!(result.ranking, vec![vec![1], vec![3], vec![0], vec![2]]);
        assert_eq!(
            result.hands[1].eval.best.map(|c| c.to_string()),
            ["AS", "KS", "QS", "JS", "TS*"]
        );

        // Two straights topped by jokers (K*, no suit) share the win.
        let tie = [
            hand("9S TH JD QC JK"),
            hand("9C TD JH QS JK"),
            hand("2C 2D 5H 7S 9H"),
        ];
        let result = compare(&tie).unwrap();
        assert_eq!(result.winners, vec![0, 1]);
        assert_eq!(result.ranking, vec![vec![0, 1], vec![2]]);
        let high_cards = [
            hand("AS 3C 5D 7H 9C"),
            hand("AH KD QC JH 9D"),
            hand("AD 2S 4C 6H 8D"),
        ];
        assert_eq!(compare(&high_cards).unwrap().winners, vec![0]);

        #[cfg(feature = "serde")]
        {
            let json = serde_json::to_value(&result).unwrap();
            assert_eq!(json["hands"][0]["seat"], 0);
            assert_eq!(json["hands"][0]["category"], "straight");
            assert_eq!(json["hands"][0]["best"][0], "K*");
            assert_eq!(json["winners"], serde_json::json!([0, 1]));
        }
    }

    #[test]
    fn compare_rejects_bad_tables() {
        let one = [hand("AS KS QS JS TS")];
        assert_eq!(compare(&one), Err(PokerError::HandCount { hands: 1 }));
        let twelve: Vec<[Card; HAND_SIZE]> = (0..12).map(|_| hand("JK JK JK JK JK")).collect();
        assert_eq!(compare(&twelve), Err(PokerError::HandCount { hands: 12 }));
        let dup = [hand("AS KS QS JS TS"), hand("AS 2C 3C 4C 5C")];
        assert!(matches!(
            compare(&dup),
            Err(PokerError::DuplicateCard { .. })
        ));
    }
}
