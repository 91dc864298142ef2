//! UNO cards and their codes: `R7` (red seven), `GS` (green skip), `BR` (blue reverse),
//! `YD2` (yellow draw two), `W` (wild) and `W4` (wild draw four).

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};
#[cfg(feature = "openapi")]
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
#[cfg(feature = "openapi")]
use utoipa::openapi::RefOr;
#[cfg(feature = "openapi")]
use utoipa::{PartialSchema, ToSchema};

/// The four colours. A wild has none until its player names one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "openapi", schema(as = UnoColor))]
pub enum Color {
    Red,
    Yellow,
    Green,
    Blue,
}

impl Color {
    pub const ALL: [Color; 4] = [Color::Red, Color::Yellow, Color::Green, Color::Blue];

    /// The code letter (`R`, `Y`, `G`, `B`).
    pub fn letter(self) -> char {
        match self {
            Color::Red => 'R',
            Color::Yellow => 'Y',
            Color::Green => 'G',
            Color::Blue => 'B',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Yellow => "yellow",
            Color::Green => "green",
            Color::Blue => "blue",
        }
    }

    /// A dense index 0..4 for per-colour tables.
    pub fn index(self) -> usize {
        self as usize
    }

    fn from_letter(c: char) -> Option<Color> {
        match c.to_ascii_uppercase() {
            'R' => Some(Color::Red),
            'Y' => Some(Color::Yellow),
            'G' => Some(Color::Green),
            'B' => Some(Color::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a card does, apart from its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Number(u8),
    Skip,
    Reverse,
    DrawTwo,
    Wild,
    WildDrawFour,
}

impl Symbol {
    pub fn is_wild(self) -> bool {
        matches!(self, Symbol::Wild | Symbol::WildDrawFour)
    }

    /// Official points of a card left in a hand.
    pub fn points(self) -> u32 {
        match self {
            Symbol::Number(n) => u32::from(n),
            Symbol::Skip | Symbol::Reverse | Symbol::DrawTwo => 20,
            Symbol::Wild | Symbol::WildDrawFour => 50,
        }
    }

    /// Seed 000's `Content` order: 0–9, Reverse, Skip, +2, Wild, +4.
    pub(super) fn seed_rank(self) -> u8 {
        match self {
            Symbol::Number(n) => n,
            Symbol::Reverse => 10,
            Symbol::Skip => 11,
            Symbol::DrawTwo => 12,
            Symbol::Wild => 13,
            Symbol::WildDrawFour => 14,
        }
    }
}

/// One card. A coloured card always has a colour and a wild never has one: the colour a player
/// names for a wild belongs to the play, not to the card (it is forgotten on a reshuffle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    color: Option<Color>,
    symbol: Symbol,
}

impl Card {
    pub const WILD: Card = Card {
        color: None,
        symbol: Symbol::Wild,
    };
    pub const WILD_DRAW_FOUR: Card = Card {
        color: None,
        symbol: Symbol::WildDrawFour,
    };

    /// A coloured card; `None` for a wild symbol or a number above 9.
    pub fn colored(color: Color, symbol: Symbol) -> Option<Card> {
        match symbol {
            Symbol::Wild | Symbol::WildDrawFour => None,
            Symbol::Number(n) if n > 9 => None,
            _ => Some(Card {
                color: Some(color),
                symbol,
            }),
        }
    }

    pub fn color(self) -> Option<Color> {
        self.color
    }

    pub fn symbol(self) -> Symbol {
        self.symbol
    }

    pub fn is_wild(self) -> bool {
        self.symbol.is_wild()
    }

    pub fn points(self) -> u32 {
        self.symbol.points()
    }

    /// Seed 000 keeps every hand sorted by `(colour << 4) + content`, with colours
    /// none (wilds) < red < blue < green < yellow; its `easy` AI depends on that order.
    pub fn seed_order(self) -> u8 {
        let color = match self.color {
            None => 0,
            Some(Color::Red) => 1,
            Some(Color::Blue) => 2,
            Some(Color::Green) => 3,
            Some(Color::Yellow) => 4,
        };
        (color << 4) + self.symbol.seed_rank()
    }

    /// A dense index 0..54 over the distinct cards (for counting tables).
    pub fn index(self) -> usize {
        match self.color {
            None if self.symbol == Symbol::Wild => 52,
            None => 53,
            Some(c) => c.index() * 13 + usize::from(self.symbol.seed_rank()),
        }
    }

    /// The card with a dense [`Card::index`].
    pub fn from_index(i: usize) -> Card {
        match i {
            52 => Card::WILD,
            53 => Card::WILD_DRAW_FOUR,
            _ => {
                let symbol = match i % 13 {
                    n @ 0..=9 => Symbol::Number(n as u8),
                    10 => Symbol::Reverse,
                    11 => Symbol::Skip,
                    _ => Symbol::DrawTwo,
                };
                Card {
                    color: Some(Color::ALL[i / 13]),
                    symbol,
                }
            }
        }
    }

    /// How many copies of this card the 108-card deck holds.
    pub fn copies(self) -> usize {
        match self.symbol {
            Symbol::Number(0) => 1,
            Symbol::Wild | Symbol::WildDrawFour => 4,
            _ => 2,
        }
    }
}

/// In the API a card is its code, a string.
#[cfg(feature = "openapi")]
impl PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A card code: colour R, Y, G or B and then 0-9, S (skip), R (reverse) or D2 \
                 (draw two); W (wild) and W4 (wild draw four). Case-insensitive on input.",
            ))
            .pattern(Some("^([RYGBrygb]([0-9]|[SRsr]|[Dd]2)|[Ww]4?)$"))
            .examples([serde_json::json!("R7")])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl ToSchema for Card {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("UnoCard")
    }
}

/// Number of distinct cards (see [`Card::index`]).
pub const DISTINCT_CARDS: usize = 54;

/// Copies of each card (by [`Card::index`]) the deck holds besides the `known` cards: what a seat
/// has not seen, given its hand and the discard pile. A card known more often than the deck holds
/// it counts 0.
pub fn copies_left(known: impl IntoIterator<Item = Card>) -> [usize; DISTINCT_CARDS] {
    let mut left: [usize; DISTINCT_CARDS] = std::array::from_fn(|i| Card::from_index(i).copies());
    for card in known {
        let n = &mut left[card.index()];
        *n = n.saturating_sub(1);
    }
    left
}

/// The 108-card deck in a fixed order: per colour one 0, two each of 1–9, Skip, Reverse and
/// Draw Two; then 4 Wild and 4 Wild Draw Four.
pub fn full_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(108);
    for i in 0..DISTINCT_CARDS {
        let card = Card::from_index(i);
        deck.extend(std::iter::repeat_n(card, card.copies()));
    }
    deck
}

/// A card code a client sent that names no card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CardCodeError(String);

impl FromStr for Card {
    type Err = CardCodeError;

    fn from_str(s: &str) -> Result<Self, CardCodeError> {
        let shown: String = s.chars().take(12).collect();
        let bad = |why: &str| {
            CardCodeError(format!(
                "{shown:?} is not a card code: {why} (codes look like R7, GS, BR, YD2, W, W4)"
            ))
        };
        let code = s.trim();
        if code.is_empty() {
            return Err(bad("it is empty"));
        }
        let upper = code.to_ascii_uppercase();
        match upper.as_str() {
            "W" => return Ok(Card::WILD),
            "W4" => return Ok(Card::WILD_DRAW_FOUR),
            _ => {}
        }
        let mut chars = upper.chars();
        let first = chars.next().expect("not empty");
        let color = Color::from_letter(first)
            .ok_or_else(|| bad("it must start with a colour R, Y, G or B, or be W or W4"))?;
        let symbol = match chars.as_str() {
            "" => return Err(bad("a colour needs a number 0-9, S, R or D2 after it")),
            "S" => Symbol::Skip,
            "R" => Symbol::Reverse,
            "D2" => Symbol::DrawTwo,
            rest => match rest.as_bytes() {
                [d @ b'0'..=b'9'] => Symbol::Number(d - b'0'),
                _ => return Err(bad("after the colour comes a number 0-9, S, R or D2")),
            },
        };
        Ok(Card::colored(color, symbol).expect("a coloured symbol"))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.color, self.symbol) {
            (_, Symbol::Wild) => f.write_str("W"),
            (_, Symbol::WildDrawFour) => f.write_str("W4"),
            (Some(c), s) => {
                write!(f, "{}", c.letter())?;
                match s {
                    Symbol::Number(n) => write!(f, "{n}"),
                    Symbol::Skip => f.write_str("S"),
                    Symbol::Reverse => f.write_str("R"),
                    _ => f.write_str("D2"),
                }
            }
            (None, _) => unreachable!("coloured symbols always carry a colour"),
        }
    }
}

#[cfg(feature = "serde")]
impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_left_are_the_deck_less_what_is_known() {
        assert_eq!(copies_left([]).iter().sum::<usize>(), 108);
        assert!(copies_left(full_deck()).iter().all(|&n| n == 0));
        let r5: Card = "R5".parse().unwrap();
        let left = copies_left([r5, Card::WILD, r5, r5]);
        assert_eq!(
            left[r5.index()],
            0,
            "known more often than the deck holds it"
        );
        assert_eq!(left[Card::WILD.index()], 3);
        assert_eq!(left.iter().sum::<usize>(), 108 - 2 - 1);
    }

    #[test]
    fn codes_round_trip_and_are_case_insensitive() {
        for (input, canonical) in [
            ("R7", "R7"),
            ("r7", "R7"),
            ("RR", "RR"),
            ("gd2", "GD2"),
            ("bS", "BS"),
            ("Y0", "Y0"),
            ("w", "W"),
            ("w4", "W4"),
            (" B9 ", "B9"),
        ] {
            let card: Card = input.parse().unwrap();
            assert_eq!(card.to_string(), canonical, "{input}");
        }
        let rr: Card = "RR".parse().unwrap();
        assert_eq!(rr.color(), Some(Color::Red));
        assert_eq!(rr.symbol(), Symbol::Reverse);
    }

    #[test]
    fn every_bad_code_is_refused_in_plain_words() {
        for bad in [
            "", "  ", "R", "X7", "R10", "RD", "RD3", "RSS", "W5", "W44", "WR", "7", "D2", "R-1",
            "R 7", "RS2", "Ｒ7", "R７", "WW", "4W",
        ] {
            let err = bad.parse::<Card>().unwrap_err();
            assert!(
                err.to_string().contains("is not a card code"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn the_deck_has_108_cards_with_official_counts() {
        let deck = full_deck();
        assert_eq!(deck.len(), 108);
        let count = |code: &str| {
            let c: Card = code.parse().unwrap();
            deck.iter().filter(|&&d| d == c).count()
        };
        assert_eq!(count("R0"), 1);
        assert_eq!(count("Y9"), 2);
        assert_eq!(count("GS"), 2);
        assert_eq!(count("BR"), 2);
        assert_eq!(count("BD2"), 2);
        assert_eq!(count("W"), 4);
        assert_eq!(count("W4"), 4);
        let total: u32 = deck.iter().map(|c| c.points()).sum();
        // Per colour: 0 + 2*(1+..+9) + 6*20 = 210; wilds 8*50.
        assert_eq!(total, 4 * 210 + 400);
    }

    #[test]
    fn index_and_seed_order_are_consistent() {
        for i in 0..DISTINCT_CARDS {
            assert_eq!(Card::from_index(i).index(), i);
        }
        let order = |code: &str| code.parse::<Card>().unwrap().seed_order();
        assert!(order("W") < order("W4"));
        assert!(order("W4") < order("R0"));
        assert!(
            order("R9") < order("RR") && order("RR") < order("RS") && order("RS") < order("RD2")
        );
        assert!(
            order("RD2") < order("B0") && order("BD2") < order("G0") && order("GD2") < order("Y0")
        );
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serde_uses_codes_and_lowercase_colours() {
        let card: Card = serde_json::from_str("\"yd2\"").unwrap();
        assert_eq!(serde_json::to_string(&card).unwrap(), "\"YD2\"");
        assert!(serde_json::from_str::<Card>("\"Q\"").is_err());
        assert_eq!(serde_json::to_string(&Color::Blue).unwrap(), "\"blue\"");
        assert!(serde_json::from_str::<Color>("\"purple\"").is_err());
    }
}
