//! What the table can infer about a hidden hand from a draw by choice.
//!
//! RULES.md lets a seat draw whenever it likes, but the seed's players (and ours) draw only when
//! no card fits, or nearly so: a seat that draws by choice very likely held no card of the colour
//! in play, none with the top card's symbol and no wild. The cards it takes afterwards (that
//! draw's card, penalties, later draws) may be anything, so the fact covers only the cards it
//! held then, and the table counts how many of its cards may have come since.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::card::{Card, Color, Symbol};

/// Bit of a colour (bits 0–3).
fn color_bit(color: Color) -> u32 {
    1 << color.index()
}

/// Bit of a symbol (bits 4–18); both wild symbols count as one kind, because any wild fits.
fn symbol_bit(symbol: Symbol) -> u32 {
    let symbol = if symbol.is_wild() {
        Symbol::Wild
    } else {
        symbol
    };
    1 << (4 + u32::from(symbol.seed_rank()))
}

/// Both wild symbols.
const WILD_BITS: u32 = (1 << (4 + 13)) | (1 << (4 + 14));

/// One seat's publicly inferred gaps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Lacks {
    /// Kinds of card (colour bits, symbol bits) the seat's older cards hold none of.
    kinds: u32,
    /// At most this many of the seat's cards came after the fact and may be anything.
    fresh: u16,
}

impl Lacks {
    /// Nothing known.
    pub const NONE: Lacks = Lacks { kinds: 0, fresh: 0 };

    /// Whether `card` may be among the seat's older cards.
    pub fn allows(self, card: Card) -> bool {
        let bits = card.color().map_or(0, color_bit) | symbol_bit(card.symbol());
        let bits = if card.is_wild() {
            bits | WILD_BITS
        } else {
            bits
        };
        self.kinds & bits == 0
    }

    /// Whether the older cards are known to hold no card of `color`.
    pub fn lacks_color(self, color: Color) -> bool {
        self.kinds & color_bit(color) != 0
    }

    /// Colours the older cards hold none of, as bits of `Color::index`.
    pub fn colors(self) -> u8 {
        (self.kinds & 0xf) as u8
    }

    /// Whether the older cards hold no wild.
    pub fn lacks_wilds(self) -> bool {
        self.kinds & WILD_BITS == WILD_BITS
    }

    /// Whether anything is known.
    pub fn is_known(self) -> bool {
        self.kinds != 0
    }

    /// How many of a hand of `hand_len` cards may be anything; the others obey [`Lacks::allows`].
    pub fn free_cards(self, hand_len: usize) -> usize {
        usize::from(self.fresh).min(hand_len)
    }

    /// The seat draws by choice with `top` showing the colour `color` in play: none of its cards
    /// fits. What was known of its older cards still holds if no card has come since.
    pub fn drew_by_choice(&mut self, top: Card, color: Color) {
        self.learn(color_bit(color) | symbol_bit(top.symbol()) | WILD_BITS);
    }

    /// The seat played a wild on `top` (the colour `color` in play), though it keeps wilds for
    /// need: the cards it still holds likely hold none of that colour or symbol.
    pub fn played_wild(&mut self, top: Card, color: Color) {
        self.learn(color_bit(color) | (symbol_bit(top.symbol()) & !WILD_BITS));
    }

    /// A new fact about every card held now; the older one still holds if no card came since.
    fn learn(&mut self, now: u32) {
        self.kinds = if self.fresh == 0 {
            self.kinds | now
        } else {
            now
        };
        self.fresh = 0;
    }

    /// The seat took `count` cards: they may be anything.
    pub fn took(&mut self, count: u16) {
        if self.kinds != 0 {
            self.fresh = self.fresh.saturating_add(count);
        }
    }

    /// The seat put `card` down, holding `left` cards after it.
    pub fn put_down(&mut self, card: Card, left: usize) {
        if !self.allows(card) {
            if self.fresh == 0 {
                // It held the card after all (a draw by choice need not mean nothing fitted).
                *self = Lacks::NONE;
                return;
            }
            // The card must have come after the fact.
            self.fresh -= 1;
        }
        self.fresh = self.fresh.min(left.min(usize::from(u16::MAX)) as u16);
        if left == 0 {
            *self = Lacks::NONE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(code: &str) -> Card {
        code.parse().unwrap()
    }

    #[test]
    fn a_draw_by_choice_rules_out_the_colour_the_symbol_and_wilds() {
        let mut lacks = Lacks::NONE;
        lacks.drew_by_choice(card("R5"), Color::Red);
        for code in ["R1", "RS", "B5", "G5", "W", "W4"] {
            assert!(!lacks.allows(card(code)), "{code}");
        }
        for code in ["B1", "GS", "Y9"] {
            assert!(lacks.allows(card(code)), "{code}");
        }
        assert!(lacks.lacks_color(Color::Red) && lacks.lacks_wilds());
        assert_eq!(lacks.colors(), 1 << Color::Red.index());
        // A wild on top names the colour; its symbol adds nothing beyond "no wild".
        let mut lacks = Lacks::NONE;
        lacks.drew_by_choice(Card::WILD, Color::Green);
        assert!(!lacks.allows(card("G3")) && lacks.allows(card("B3")));
    }

    #[test]
    fn cards_taken_afterwards_may_be_anything() {
        let mut lacks = Lacks::NONE;
        lacks.drew_by_choice(card("R5"), Color::Red);
        lacks.took(1);
        assert_eq!(lacks.free_cards(8), 1);
        lacks.took(2);
        assert_eq!(lacks.free_cards(10), 3);
        assert_eq!(lacks.free_cards(2), 2);
        // A red card can only be one of the fresh ones.
        lacks.put_down(card("R1"), 9);
        assert_eq!(lacks.free_cards(9), 2);
        // A blue card may be an old one: still up to two fresh.
        lacks.put_down(card("B1"), 8);
        assert_eq!(lacks.free_cards(8), 2);
        // Two left: at most two fresh.
        lacks.put_down(card("B2"), 1);
        assert_eq!(lacks.free_cards(1), 1);
        assert!(lacks.is_known());
    }

    #[test]
    fn a_second_draw_keeps_the_first_fact_only_if_nothing_came_between() {
        let mut lacks = Lacks::NONE;
        lacks.drew_by_choice(card("R5"), Color::Red);
        lacks.drew_by_choice(card("B7"), Color::Blue);
        assert!(!lacks.allows(card("R1")) && !lacks.allows(card("B1")));
        lacks.took(1);
        lacks.drew_by_choice(card("G2"), Color::Green);
        assert!(lacks.allows(card("R1")), "the drawn card may have been red");
        assert!(!lacks.allows(card("G1")));
    }

    #[test]
    fn a_wild_played_suggests_the_rest_lacks_the_colour_and_symbol_but_not_wilds() {
        let mut lacks = Lacks::NONE;
        lacks.played_wild(card("B4"), Color::Blue);
        assert!(!lacks.allows(card("B1")) && !lacks.allows(card("G4")));
        assert!(lacks.allows(card("W4")) && lacks.allows(card("G1")));
        // On a wild, only the colour named.
        let mut lacks = Lacks::NONE;
        lacks.played_wild(Card::WILD, Color::Yellow);
        assert!(!lacks.allows(card("Y1")) && lacks.allows(card("W")));
    }

    #[test]
    fn playing_a_card_it_was_thought_to_lack_forgets_the_fact() {
        let mut lacks = Lacks::NONE;
        lacks.drew_by_choice(card("R5"), Color::Red);
        lacks.put_down(card("RR"), 5);
        assert_eq!(lacks, Lacks::NONE);
        // Nothing known: taking cards records nothing.
        lacks.took(3);
        assert_eq!(lacks, Lacks::NONE);
    }
}
