//! Where a table's cards come from: a seeded shuffle or an explicit deck, and the generator
//! that reshuffles the discard pile, stored so that a reloaded game goes on identically.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::action::UnoError;
use super::card::Card;

/// Where the deck comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckSource {
    /// Shuffled with a ChaCha8 generator from this seed.
    Seed(u64),
    /// These 108 cards, top first.
    Cards(Vec<Card>),
}

/// The reshuffle generator, stored as its seed and position so that a reloaded game shuffles
/// exactly as the original would have.
#[derive(Clone, Debug)]
pub(super) struct DeckRng {
    /// Only a stored game reads it (with the generator's position).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    seed: u64,
    pub(super) rng: ChaCha8Rng,
}

impl DeckRng {
    pub(super) fn new(seed: u64) -> DeckRng {
        DeckRng {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

#[cfg(feature = "serde")]
#[derive(Serialize, Deserialize)]
struct StoredRng {
    seed: u64,
    word_pos: u64,
}

#[cfg(feature = "serde")]
impl Serialize for DeckRng {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StoredRng {
            seed: self.seed,
            // 2^64 words of output are far beyond any game.
            word_pos: self.rng.get_word_pos() as u64,
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for DeckRng {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let stored = StoredRng::deserialize(d)?;
        let mut rng = DeckRng::new(stored.seed);
        rng.rng.set_word_pos(u128::from(stored.word_pos));
        Ok(rng)
    }
}

/// Checks that `cards` is exactly the 108-card deck in some order.
pub fn check_deck(cards: &[Card]) -> Result<(), UnoError> {
    let mut counts = [0usize; super::card::DISTINCT_CARDS];
    for c in cards {
        counts[c.index()] += 1;
    }
    if cards.len() != 108 {
        return Err(UnoError::Invalid(format!(
            "a deck has 108 cards, this one has {}",
            cards.len()
        )));
    }
    for (i, &n) in counts.iter().enumerate() {
        let card = Card::from_index(i);
        if n != card.copies() {
            return Err(UnoError::Invalid(format!(
                "a deck holds {} × {card}, this one holds {n}",
                card.copies()
            )));
        }
    }
    Ok(())
}

/// A reshuffle seed for an explicit deck: the same deck always reshuffles the same way.
pub(super) fn seed_of_deck(cards: &[Card]) -> u64 {
    cards.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
        (h ^ c.index() as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
