//! The winning rule and the two colours.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Which lines win.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", schema(as = GomokuRule))]
pub enum Rule {
    /// Five or more in a row wins (seed 001's check).
    #[default]
    Freestyle,
    /// Exactly five wins; an overline of six or more does not.
    Standard,
    /// The world championships' rule: black must make exactly five and may not play an
    /// overline, a double four or a double three; white wins with five or more.
    Renju,
}

impl Rule {
    /// Whether an unbroken line of `len` stones of `stone`'s colour wins under this rule.
    pub fn wins(self, stone: Stone, len: usize) -> bool {
        match (self, stone) {
            (Rule::Freestyle, _) | (Rule::Renju, Stone::White) => len >= 5,
            (Rule::Standard, _) | (Rule::Renju, Stone::Black) => len == 5,
        }
    }
}

/// A stone colour. Black is seat 0 and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Stone {
    Black,
    White,
}

impl Stone {
    pub fn opponent(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }

    /// The seat that plays this colour: 0 for black, 1 for white.
    pub fn seat(self) -> usize {
        match self {
            Stone::Black => 0,
            Stone::White => 1,
        }
    }

    /// The character used in [`crate::gomoku::Gomoku::rows`].
    pub fn symbol(self) -> char {
        match self {
            Stone::Black => 'X',
            Stone::White => 'O',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_lengths() {
        for stone in [Stone::Black, Stone::White] {
            assert!(!Rule::Freestyle.wins(stone, 4));
            assert!(Rule::Freestyle.wins(stone, 5) && Rule::Freestyle.wins(stone, 6));
            assert!(Rule::Standard.wins(stone, 5));
            assert!(!Rule::Standard.wins(stone, 6) && !Rule::Standard.wins(stone, 4));
            assert!(Rule::Renju.wins(stone, 5) && !Rule::Renju.wins(stone, 4));
        }
        assert!(
            !Rule::Renju.wins(Stone::Black, 6),
            "black's overline does not win"
        );
        assert!(Rule::Renju.wins(Stone::White, 6), "white's does");
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serde_names() {
        assert_eq!(
            serde_json::to_string(&Rule::Standard).unwrap(),
            "\"standard\""
        );
        assert_eq!(serde_json::to_string(&Rule::Renju).unwrap(), "\"renju\"");
        assert_eq!(
            serde_json::from_str::<Rule>("\"renju\"").unwrap(),
            Rule::Renju
        );
        assert_eq!(Rule::default(), Rule::Freestyle);
        assert_eq!(serde_json::to_string(&Stone::White).unwrap(), "\"white\"");
        assert_eq!(Stone::Black.opponent(), Stone::White);
    }
}
