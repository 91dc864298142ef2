//! Board coordinates and their notation: a column letter from `a` (left, `i` included) and a row
//! number from 1 (bottom), e.g. `h8`.

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One intersection. `col` 0 is column `a` (left), `row` 0 is row `1` (bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub col: u8,
    pub row: u8,
}

impl Point {
    /// Letters `a..=z` and rows `1..=26`: the notation cannot name anything larger.
    pub const MAX_NOTATION: u8 = 26;

    pub const fn new(col: u8, row: u8) -> Self {
        Point { col, row }
    }
}

/// Text that is not a point in `h8` notation. Only the syntax is checked here; whether the point
/// lies on a given board is for [`crate::gomoku::Gomoku::play`] to say.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{input:?} is not a point: {reason} (expected a column letter a-z and a row number 1-26, like \"h8\")")]
pub struct NotationError {
    input: String,
    reason: &'static str,
}

impl NotationError {
    fn new(input: &str, reason: &'static str) -> Self {
        NotationError {
            input: input.to_owned(),
            reason,
        }
    }

    /// The text that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl FromStr for Point {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = s.as_bytes();
        let Some((&letter, digits)) = bytes.split_first() else {
            return Err(NotationError::new(s, "it is empty"));
        };
        if !letter.is_ascii_alphabetic() {
            return Err(NotationError::new(
                s,
                "it does not start with a column letter",
            ));
        }
        if digits.is_empty() {
            return Err(NotationError::new(s, "the row number is missing"));
        }
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(NotationError::new(
                s,
                "the row is not a plain decimal number",
            ));
        }
        if digits[0] == b'0' {
            return Err(NotationError::new(
                s,
                "the row has a leading zero or is zero",
            ));
        }
        // At most two digits can be in range; checking the length first also rules out overflow.
        let row = if digits.len() > 2 {
            u32::MAX
        } else {
            digits
                .iter()
                .fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0'))
        };
        if row > u32::from(Point::MAX_NOTATION) {
            return Err(NotationError::new(s, "the row is above 26"));
        }
        Ok(Point {
            col: letter.to_ascii_lowercase() - b'a',
            row: row as u8 - 1,
        })
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col < Point::MAX_NOTATION {
            write!(
                f,
                "{}{}",
                char::from(b'a' + self.col),
                u32::from(self.row) + 1
            )
        } else {
            // Only reachable through the public fields; keep Display total rather than panic.
            write!(f, "[{},{}]", self.col, u32::from(self.row) + 1)
        }
    }
}

#[cfg(feature = "serde")]
impl Serialize for Point {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_corners_and_centre() {
        assert_eq!("a1".parse::<Point>().unwrap(), Point::new(0, 0));
        assert_eq!("h8".parse::<Point>().unwrap(), Point::new(7, 7));
        assert_eq!("s19".parse::<Point>().unwrap(), Point::new(18, 18));
        assert_eq!(
            "i9".parse::<Point>().unwrap(),
            Point::new(8, 8),
            "i is a column"
        );
        assert_eq!("z26".parse::<Point>().unwrap(), Point::new(25, 25));
    }

    #[test]
    fn is_case_insensitive_and_displays_lowercase() {
        let upper: Point = "H8".parse().unwrap();
        assert_eq!(upper, "h8".parse().unwrap());
        assert_eq!(upper.to_string(), "h8");
    }

    #[test]
    fn round_trips_every_notation_point() {
        for col in 0..26 {
            for row in 0..26 {
                let p = Point::new(col, row);
                assert_eq!(p.to_string().parse::<Point>().unwrap(), p);
            }
        }
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            "",
            "h",
            "8h",
            "h0",
            "h-1",
            "h+1",
            "h08",
            "h 8",
            " h8",
            "h8 ",
            "hh8",
            "h8x",
            "?",
            "é8",
            "h８",
            "h27",
            "h100",
            "h99999999999999999999",
            "8",
            "-",
            "h1.5",
        ] {
            let err = bad.parse::<Point>().unwrap_err();
            assert_eq!(err.input(), bad);
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serializes_as_a_string() {
        let p = Point::new(7, 7);
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"h8\"");
        assert_eq!(serde_json::from_str::<Point>("\"H8\"").unwrap(), p);
        assert!(serde_json::from_str::<Point>("\"h0\"").is_err());
        assert!(serde_json::from_str::<Point>("[7,7]").is_err());
    }
}
