//! Hand evaluation with jokers and the seed's tie rules (docs/RULES.md, Poker).
//!
//! A joker stands for any card, even one already in the hand, and a hand takes the
//! interpretation that ranks highest. Outside a flush a joker stands for a rank only: it has no
//! suit, so it loses every suit comparison (a pair of a real K and a joker has the K's suit).
//! Inside a flush or straight flush it is a card of the flush's suit that the hand lacks, so a
//! flush always has five different ranks (A♠ 7♠ 5♠ 3♠ + joker is A K 7 5 3, not A A 7 5 3).
//!
//! [`strength`] is the fast path: two table lookups, no allocation (see `tables`).
//! [`evaluate`] adds the category and the `best` explanation, rebuilt from the strength.

mod best;
mod layout;
mod patterns;
mod tables;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "serde")]
use serde::de::{self, Visitor};
#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::card::{Card, ParseCardError, ParseCardReason, Rank, Suit, HAND_SIZE};
use super::category::Category;

/// One card of a hand's best interpretation, as `best` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BestCard {
    /// A real card of the hand: `"KS"`.
    Real(Card),
    /// A joker standing for a rank, `"K*"`, or, inside a flush or straight flush, for a card of
    /// the flush's suit, `"KS*"`.
    Wild { rank: Rank, suit: Option<Suit> },
    /// One of five jokers, which stand for nothing but themselves: `"JK"`.
    Joker,
}

impl fmt::Display for BestCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BestCard::Real(card) => write!(f, "{card}"),
            BestCard::Wild { rank, suit: None } => write!(f, "{}*", rank.letter()),
            BestCard::Wild {
                rank,
                suit: Some(suit),
            } => write!(f, "{}{}*", rank.letter(), suit.letter()),
            BestCard::Joker => f.write_str("JK"),
        }
    }
}

impl FromStr for BestCard {
    type Err = ParseCardError;

    /// Reads what `Display` writes (`"KS"`, `"K*"`, `"KS*"`, `"JK"`), any case.
    fn from_str(code: &str) -> Result<BestCard, ParseCardError> {
        let Some(wild) = code.strip_suffix('*') else {
            let card: Card = code.parse()?;
            return Ok(if card.is_joker() {
                BestCard::Joker
            } else {
                BestCard::Real(card)
            });
        };
        // "K" or "10": a rank alone; "KS" or "10S": a card of a flush.
        if let Some(rank) = Rank::from_code(wild) {
            return Ok(BestCard::Wild { rank, suit: None });
        }
        match wild.parse::<Card>() {
            Ok(card) => match (card.rank(), card.suit()) {
                (Some(rank), suit @ Some(_)) => Ok(BestCard::Wild { rank, suit }),
                _ => Err(ParseCardError::new(code, ParseCardReason::Shape)),
            },
            Err(err) => Err(ParseCardError::new(code, err.reason)),
        }
    }
}

#[cfg(feature = "serde")]
impl Serialize for BestCard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for BestCard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<BestCard, D::Error> {
        struct CodeVisitor;

        impl Visitor<'_> for CodeVisitor {
            type Value = BestCard;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card code such as \"KS\", \"K*\", \"KS*\" or \"JK\"")
            }

            fn visit_str<E: de::Error>(self, code: &str) -> Result<BestCard, E> {
                code.parse().map_err(E::custom)
            }
        }

        deserializer.deserialize_str(CodeVisitor)
    }
}

/// A hand explained: what it is, how it is read, and its strength.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Eval {
    /// The cards as given.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>, example = json!(["KS", "JK", "KD", "7C", "7H"])))]
    pub cards: [Card; HAND_SIZE],
    pub category: Category,
    /// The best interpretation, in the order the tie rules compare its cards; the cards no rule
    /// reaches (kickers of a pair or two pair, the rest of a high card) follow, best first.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>, example = json!(["KS", "KD", "K*", "7H", "7C"])))]
    pub best: [BestCard; HAND_SIZE],
    /// Higher wins; equal strength is a tie (bit layout in `eval/layout.rs`).
    pub strength: u32,
}

/// The strength of five cards: distinct real cards plus up to five jokers (validate with
/// [`validate_one_deck`](super::validate_one_deck); a real card twice gives a meaningless value,
/// never a panic). Orders any two hands exactly as docs/RULES.md does.
#[inline]
pub fn strength(cards: &[Card; HAND_SIZE]) -> u32 {
    tables::tables().strength(cards)
}

/// The category of a strength returned by [`strength`].
pub fn category_of(strength: u32) -> Category {
    layout::category(strength)
}

/// The full explanation of five cards (same precondition as [`strength`]).
pub fn evaluate(cards: &[Card; HAND_SIZE]) -> Eval {
    let strength = strength(cards);
    Eval {
        cards: *cards,
        category: layout::category(strength),
        best: best::best_cards(cards, strength),
        strength,
    }
}
