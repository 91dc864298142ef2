//! Cards of the 57-card deck: 52 ranked and suited cards plus 5 identical jokers.
//!
//! A [`Card`] is a one-byte index so that hands are `Copy` arrays and the evaluator can use it
//! directly as a table index: `rank * 4 + suit` for the 52 real cards, 52 for a joker.

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "serde")]
use serde::de::{self, Visitor};
#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Cards in a hand.
pub const HAND_SIZE: usize = 5;
/// Cards in the deck: 52 real cards and [`JOKERS_IN_DECK`] jokers.
pub const DECK_SIZE: usize = 57;
/// Jokers in one deck; more than this in one deal or comparison is impossible.
pub const JOKERS_IN_DECK: usize = 5;
/// Real (non-joker) cards in one deck.
pub const REAL_CARDS: usize = 52;

/// A suit, ordered as the seed compares them: club < diamond < heart < spade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    /// Every suit, lowest first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// 0 (clubs) to 3 (spades).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The suit of index `index & 3`.
    pub const fn from_index(index: u8) -> Suit {
        Suit::ALL[(index & 3) as usize]
    }

    /// The letter used in card codes: `C`, `D`, `H` or `S`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    fn from_letter(letter: char) -> Option<Suit> {
        match letter.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// A rank, two lowest. The ace is high except at the bottom of the straight A-2-3-4-5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Two = 0,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// Every rank, lowest first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// 0 (two) to 12 (ace).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The rank of index `index`, `None` past the ace.
    pub const fn from_index(index: u8) -> Option<Rank> {
        if index < 13 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// The character used in canonical card codes: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    pub const fn letter(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }

    pub(crate) fn from_code(code: &str) -> Option<Rank> {
        let rank = match code.to_ascii_uppercase().as_str() {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "T" | "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        };
        Some(rank)
    }
}

/// One card of the 57-card deck. Its code (`"TS"`, `"JK"`) is its `Display`, `FromStr` and serde
/// form. All five jokers are the same card: a joker has neither rank nor suit of its own.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The joker, code `JK`.
    pub const JOKER: Card = Card(REAL_CARDS as u8);

    /// The real card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank as u8 * 4 + suit as u8)
    }

    /// `rank * 4 + suit` for a real card, 52 for the joker: the evaluator's table index.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card of [`Card::index`] `index`, `None` past the joker (52).
    pub const fn from_index(index: u8) -> Option<Card> {
        if index <= REAL_CARDS as u8 {
            Some(Card(index))
        } else {
            None
        }
    }

    pub const fn is_joker(self) -> bool {
        self.0 == Card::JOKER.0
    }

    /// `None` for the joker.
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Rank::from_index(self.0 >> 2)
        }
    }

    /// `None` for the joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index(self.0))
        }
    }
}

/// The 57 cards in canonical order: 2C 2D 2H 2S 3C … AS, then the five jokers.
pub fn full_deck() -> [Card; DECK_SIZE] {
    std::array::from_fn(|i| Card(i.min(REAL_CARDS) as u8))
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(rank), Some(suit)) => write!(f, "{}{}", rank.letter(), suit.letter()),
            _ => f.write_str("JK"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card code could not be read. Malformed input: the HTTP layer answers 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid card code {code:?}: {reason}")]
pub struct ParseCardError {
    /// The offending code (cut to 16 characters, so that a huge string is not echoed back).
    pub code: String,
    pub reason: ParseCardReason,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCardReason {
    #[error("empty code")]
    Empty,
    #[error(
        "a card code is a rank and a suit (e.g. \"TS\", \"10S\", \"2h\") or \"JK\" for a joker"
    )]
    Shape,
    #[error("unknown rank {0:?}; expected 2-9, T or 10, J, Q, K or A")]
    Rank(String),
    #[error("unknown suit {0:?}; expected S, H, D or C")]
    Suit(char),
}

const MAX_ECHOED_CHARS: usize = 16;

impl ParseCardError {
    pub(crate) fn new(code: &str, reason: ParseCardReason) -> ParseCardError {
        ParseCardError {
            code: code.chars().take(MAX_ECHOED_CHARS).collect(),
            reason,
        }
    }
}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Reads `TS`, `10S`, `ts`, `JK`, `jk` …: rank `2`-`9`, `T` or `10`, `J`, `Q`, `K`, `A` then
    /// suit `S` `H` `D` `C`, any case.
    fn from_str(code: &str) -> Result<Card, ParseCardError> {
        let fail = |reason| ParseCardError::new(code, reason);
        if code.is_empty() {
            return Err(fail(ParseCardReason::Empty));
        }
        if code.eq_ignore_ascii_case("JK") {
            return Ok(Card::JOKER);
        }
        let char_count = code.chars().count();
        if !(2..=3).contains(&char_count) {
            return Err(fail(ParseCardReason::Shape));
        }
        let suit_letter = code.chars().next_back().unwrap_or_default();
        let rank_code = &code[..code.len() - suit_letter.len_utf8()];
        // The suit is checked first: "10" (a ten without its suit) then reads "unknown suit '0'".
        let suit = Suit::from_letter(suit_letter)
            .ok_or_else(|| fail(ParseCardReason::Suit(suit_letter)))?;
        let rank = Rank::from_code(rank_code)
            .ok_or_else(|| fail(ParseCardReason::Rank(rank_code.to_owned())))?;
        Ok(Card::new(rank, suit))
    }
}

/// In the API a card is its code, a string (what [`Card::from_str`] reads).
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Card {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A card code: rank 2-9, T (or 10), J, Q, K, A then suit S, H, D or C; JK for a \
                 joker. Case-insensitive.",
            ))
            .pattern(Some("^(([2-9TtJjQqKkAa]|10)[SHDCshdc]|[Jj][Kk])$"))
            .examples([serde_json::json!("AS")])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Card {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("PokerCard")
    }
}

#[cfg(feature = "serde")]
impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        struct CodeVisitor;

        impl Visitor<'_> for CodeVisitor {
            type Value = Card;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card code such as \"TS\", \"10H\" or \"JK\"")
            }

            fn visit_str<E: de::Error>(self, code: &str) -> Result<Card, E> {
                code.parse().map_err(E::custom)
            }
        }

        deserializer.deserialize_str(CodeVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(code: &str) -> Result<Card, ParseCardError> {
        code.parse()
    }

    #[test]
    fn canonical_codes_round_trip_for_the_whole_deck() {
        let deck = full_deck();
        assert_eq!(deck.iter().filter(|c| c.is_joker()).count(), JOKERS_IN_DECK);
        for card in deck {
            assert_eq!(parse(&card.to_string()), Ok(card));
        }
        assert_eq!(Card::new(Rank::Ten, Suit::Spades).to_string(), "TS");
        assert_eq!(Card::JOKER.to_string(), "JK");
        assert_eq!(deck[0].to_string(), "2C");
        assert_eq!(deck[51].to_string(), "AS");
    }

    #[test]
    fn every_accepted_spelling() {
        let ten_of_spades = Card::new(Rank::Ten, Suit::Spades);
        for code in ["TS", "ts", "tS", "Ts", "10S", "10s"] {
            assert_eq!(parse(code), Ok(ten_of_spades), "{code}");
        }
        for code in ["JK", "jk", "Jk", "jK"] {
            assert_eq!(parse(code), Ok(Card::JOKER), "{code}");
        }
        assert_eq!(parse("2c"), Ok(Card::new(Rank::Two, Suit::Clubs)));
        assert_eq!(parse("9D"), Ok(Card::new(Rank::Nine, Suit::Diamonds)));
        assert_eq!(parse("jh"), Ok(Card::new(Rank::Jack, Suit::Hearts)));
        assert_eq!(parse("QS"), Ok(Card::new(Rank::Queen, Suit::Spades)));
        assert_eq!(parse("KC"), Ok(Card::new(Rank::King, Suit::Clubs)));
        assert_eq!(parse("aS"), Ok(Card::new(Rank::Ace, Suit::Spades)));
    }

    #[test]
    fn every_bad_code_form_is_a_parse_error_naming_the_code() {
        let cases: &[(&str, ParseCardReason)] = &[
            ("", ParseCardReason::Empty),
            ("S", ParseCardReason::Shape),
            ("T", ParseCardReason::Shape),
            ("J", ParseCardReason::Shape),
            ("10SS", ParseCardReason::Shape),
            ("JKR", ParseCardReason::Suit('R')),
            ("JOKER", ParseCardReason::Shape),
            ("1S", ParseCardReason::Rank("1".into())),
            ("0S", ParseCardReason::Rank("0".into())),
            ("11S", ParseCardReason::Rank("11".into())),
            ("01S", ParseCardReason::Rank("01".into())),
            ("XS", ParseCardReason::Rank("X".into())),
            ("BS", ParseCardReason::Rank("B".into())),
            (" S", ParseCardReason::Rank(" ".into())),
            ("TX", ParseCardReason::Suit('X')),
            ("T1", ParseCardReason::Suit('1')),
            ("AA", ParseCardReason::Suit('A')),
            ("KK", ParseCardReason::Suit('K')),
            ("TS ", ParseCardReason::Suit(' ')),
            ("10", ParseCardReason::Suit('0')),
            ("S1", ParseCardReason::Suit('1')),
            ("ST", ParseCardReason::Suit('T')),
            ("é", ParseCardReason::Shape),
            ("Aé", ParseCardReason::Suit('é')),
            ("éS", ParseCardReason::Rank("é".into())),
        ];
        for (code, reason) in cases {
            let err = parse(code).expect_err(code);
            assert_eq!(&err.reason, reason, "{code:?}");
            assert_eq!(err.code, *code);
            assert!(err.to_string().contains(&format!("{code:?}")), "{err}");
        }
        let huge = "X".repeat(10_000);
        let err = parse(&huge).unwrap_err();
        assert_eq!(err.code.len(), MAX_ECHOED_CHARS);
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serde_uses_the_code() {
        let hand = [
            Card::new(Rank::Ten, Suit::Spades),
            Card::JOKER,
            Card::new(Rank::Two, Suit::Hearts),
        ];
        let json = serde_json::to_string(&hand).unwrap();
        assert_eq!(json, r#"["TS","JK","2H"]"#);
        let back: [Card; 3] = serde_json::from_str(r#"["10s","jk","2H"]"#).unwrap();
        assert_eq!(back, hand);
        let err = serde_json::from_str::<Card>(r#""1S""#).unwrap_err();
        assert!(
            err.to_string().contains("invalid card code \"1S\""),
            "{err}"
        );
        assert!(serde_json::from_str::<Card>("7").is_err());
    }

    #[test]
    fn accessors_and_order() {
        let card = Card::new(Rank::King, Suit::Hearts);
        assert_eq!(card.rank(), Some(Rank::King));
        assert_eq!(card.suit(), Some(Suit::Hearts));
        assert!(!card.is_joker());
        assert_eq!(Card::JOKER.rank(), None);
        assert_eq!(Card::JOKER.suit(), None);
        assert_eq!(Card::from_index(52), Some(Card::JOKER));
        assert_eq!(Card::from_index(53), None);
        assert!(Suit::Clubs < Suit::Diamonds && Suit::Diamonds < Suit::Hearts);
        assert!(Suit::Hearts < Suit::Spades);
        assert!(Rank::Two < Rank::Ace);
    }

    proptest! {
        #[test]
        fn display_parse_round_trip(index in 0u8..=52, lower in any::<bool>()) {
            let card = Card::from_index(index).unwrap();
            let code = if lower { card.to_string().to_lowercase() } else { card.to_string() };
            prop_assert_eq!(parse(&code), Ok(card));
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,6}") {
            if let Ok(card) = parse(&text) {
                prop_assert!(text.eq_ignore_ascii_case(&card.to_string())
                    || text.eq_ignore_ascii_case(&card.to_string().replace('T', "10")));
            }
        }
    }
}
