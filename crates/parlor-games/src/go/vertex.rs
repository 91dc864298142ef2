//! GTP vertices (`D4`): a column letter `A`..`Z` without `I` (left to right), a row number from 1 at
//! the bottom, case-insensitive; and a play as a client posts it: a vertex, `pass` or `resign`.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why text that starts with something other than a column letter is not a vertex.
const NOT_A_COLUMN: &str = "it does not start with a column letter";

/// The column letters in order: GTP skips `I` so it cannot be mistaken for `J` or `1`.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// One intersection. `col` 0 is column `A` (left), `row` 0 is row `1` (bottom). The notation names
/// boards up to 25×25; whether a vertex lies on a given board is for the game to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    pub col: u8,
    pub row: u8,
}

impl Vertex {
    /// The largest board the notation can name.
    pub const MAX_SIZE: u8 = 25;

    pub const fn new(col: u8, row: u8) -> Self {
        Vertex { col, row }
    }

    /// Whether the vertex lies on a `size`×`size` board.
    pub fn fits(self, size: usize) -> bool {
        usize::from(self.col) < size && usize::from(self.row) < size
    }
}

/// Text that is not a GTP vertex. Only the syntax is checked here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{input:?} is not a point: {reason} (expected a column letter A-Z without I and a row number 1-25, like \"D4\")")]
pub struct VertexError {
    input: String,
    reason: &'static str,
}

impl VertexError {
    fn new(input: &str, reason: &'static str) -> Self {
        VertexError {
            input: input.to_owned(),
            reason,
        }
    }

    /// The text that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl FromStr for Vertex {
    type Err = VertexError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = s.as_bytes();
        let Some((&letter, digits)) = bytes.split_first() else {
            return Err(VertexError::new(s, "it is empty"));
        };
        let letter = letter.to_ascii_uppercase();
        if letter == b'I' {
            return Err(VertexError::new(s, "there is no column I"));
        }
        let Some(col) = COLUMNS.iter().position(|&c| c == letter) else {
            return Err(VertexError::new(s, NOT_A_COLUMN));
        };
        if digits.is_empty() {
            return Err(VertexError::new(s, "the row number is missing"));
        }
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(VertexError::new(s, "the row is not a plain decimal number"));
        }
        if digits[0] == b'0' {
            return Err(VertexError::new(s, "the row has a leading zero or is zero"));
        }
        // Two digits at most can be in range; checking the length first also rules out overflow.
        let row: usize = if digits.len() > 2 {
            usize::MAX
        } else {
            digits
                .iter()
                .fold(0, |n, &d| n * 10 + usize::from(d - b'0'))
        };
        if row > usize::from(Vertex::MAX_SIZE) {
            return Err(VertexError::new(s, "the row is above 25"));
        }
        Ok(Vertex::new(col as u8, (row - 1) as u8))
    }
}

/// Every vertex's name, `A1` to `Z25`, made once: an answer names every move of its game, and
/// looking a name up costs less than writing it.
static VERTEX_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..Vertex::MAX_SIZE)
        .flat_map(|col| {
            (0..Vertex::MAX_SIZE)
                .map(move |row| format!("{}{}", char::from(COLUMNS[usize::from(col)]), row + 1))
        })
        .collect()
});

impl Vertex {
    /// The GTP name, `D4`.
    fn name(self) -> &'static str {
        let size = usize::from(Vertex::MAX_SIZE);
        &VERTEX_NAMES[usize::from(self.col) * size + usize::from(self.row)]
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl Serialize for Vertex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Vertex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A play as a client writes it: `"D4"`, `"pass"` or `"resign"` (case-insensitive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoPlay {
    Stone(Vertex),
    Pass,
    Resign,
}

impl FromStr for GoPlay {
    type Err = VertexError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("pass") {
            Ok(GoPlay::Pass)
        } else if s.eq_ignore_ascii_case("resign") {
            Ok(GoPlay::Resign)
        } else {
            s.parse().map(GoPlay::Stone).map_err(|e: VertexError| {
                // Say that the words are also accepted where the text cannot be a point at all.
                if e.reason == NOT_A_COLUMN {
                    VertexError::new(s, "it is neither a point nor \"pass\" or \"resign\"")
                } else {
                    e
                }
            })
        }
    }
}

impl GoPlay {
    /// `D4`, `pass` or `resign`.
    pub(super) fn name(self) -> &'static str {
        match self {
            GoPlay::Stone(v) => v.name(),
            GoPlay::Pass => "pass",
            GoPlay::Resign => "resign",
        }
    }
}

impl fmt::Display for GoPlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl Serialize for GoPlay {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for GoPlay {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_corners_and_the_column_after_h() {
        assert_eq!("A1".parse::<Vertex>().unwrap(), Vertex::new(0, 0));
        assert_eq!("d4".parse::<Vertex>().unwrap(), Vertex::new(3, 3));
        assert_eq!("J9".parse::<Vertex>().unwrap(), Vertex::new(8, 8));
        assert_eq!("t19".parse::<Vertex>().unwrap(), Vertex::new(18, 18));
        assert_eq!("Z25".parse::<Vertex>().unwrap(), Vertex::new(24, 24));
        for text in ["A1", "H8", "J9", "Q16", "T19", "Z25"] {
            assert_eq!(text.parse::<Vertex>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn every_vertex_round_trips() {
        for col in 0..Vertex::MAX_SIZE {
            for row in 0..Vertex::MAX_SIZE {
                let v = Vertex::new(col, row);
                assert_eq!(v.to_string().parse::<Vertex>().unwrap(), v);
                assert_eq!(v.to_string().to_lowercase().parse::<Vertex>().unwrap(), v);
            }
        }
    }

    #[test]
    fn rejects_bad_input_with_a_reason() {
        let cases = [
            ("", "empty"),
            ("D", "row number is missing"),
            ("4D", "column letter"),
            ("I5", "no column I"),
            ("i5", "no column I"),
            ("A0", "zero"),
            ("A05", "leading zero"),
            ("Z99", "above 25"),
            ("A26", "above 25"),
            ("A123456789012345678901", "above 25"),
            ("D4x", "plain decimal"),
            ("D-4", "plain decimal"),
            ("D+4", "plain decimal"),
            ("D 4", "plain decimal"),
            (" D4", "column letter"),
            ("Д4", "column letter"),
            ("D４", "plain decimal"),
            ("é4", "column letter"),
            ("44", "column letter"),
        ];
        for (input, reason) in cases {
            let err = input.parse::<Vertex>().unwrap_err();
            let text = err.to_string();
            assert!(text.contains(reason), "{input:?}: {text}");
            assert!(!text.contains("Vertex"), "no type names in {text}");
            assert_eq!(err.input(), input);
        }
    }

    #[test]
    fn fits_checks_the_board_size() {
        let v: Vertex = "J9".parse().unwrap();
        assert!(v.fits(9));
        assert!(!v.fits(8));
    }

    #[test]
    fn parses_plays() {
        assert_eq!("PASS".parse::<GoPlay>().unwrap(), GoPlay::Pass);
        assert_eq!("Resign".parse::<GoPlay>().unwrap(), GoPlay::Resign);
        assert_eq!(
            "q16".parse::<GoPlay>().unwrap(),
            GoPlay::Stone(Vertex::new(15, 15))
        );
        let err = "passe".parse::<GoPlay>().unwrap_err().to_string();
        assert!(err.contains("plain decimal"), "{err}");
        let err = "tenuki!".parse::<GoPlay>().unwrap_err().to_string();
        assert!(err.contains("plain decimal"), "{err}");
        let err = "!".parse::<GoPlay>().unwrap_err().to_string();
        assert!(err.contains("neither a point nor"), "{err}");
        for play in ["D4", "pass", "resign"] {
            assert_eq!(play.parse::<GoPlay>().unwrap().to_string(), play);
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serde_uses_the_notation() {
        let v: Vertex = "C3".parse().unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"C3\"");
        assert_eq!(
            serde_json::from_str::<GoPlay>("\"pass\"").unwrap(),
            GoPlay::Pass
        );
        assert!(serde_json::from_str::<Vertex>("\"I3\"").is_err());
    }
}
