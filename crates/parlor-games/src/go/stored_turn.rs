//! How the moves of a stored game are written: all of them in one string, three letters a move
//! (see [`packed_turns`]). Every change rewrites the stored state, so its size is what a move late
//! in a long game costs more than an early one; packed, a 19×19 game of 375 moves stores 1.1 KB
//! of moves instead of 3 KB. The earlier forms still load: a list of `"B D4"` strings, and before
//! that a list of `{"color": "black", "play": "D4"}` objects.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serializer};

use super::board::Color;
use super::game::Turn;
use super::vertex::{GoPlay, Vertex};

impl<'de> Deserialize<'de> for Turn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TurnVisitor)
    }
}

struct TurnVisitor;

fn color_named<E: de::Error>(name: &str) -> Result<Color, E> {
    match name {
        "B" | "black" => Ok(Color::Black),
        "W" | "white" => Ok(Color::White),
        other => Err(E::custom(format!("{other:?} is not a colour"))),
    }
}

fn play_named<E: de::Error>(text: &str) -> Result<GoPlay, E> {
    text.parse().map_err(E::custom)
}

impl<'de> Visitor<'de> for TurnVisitor {
    type Value = Turn;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a move as \"B D4\" or {\"color\", \"play\"}")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Turn, E> {
        let (color, play) = text
            .split_once(' ')
            .ok_or_else(|| E::custom(format!("{text:?} is not a stored move")))?;
        Ok(Turn {
            color: color_named(color)?,
            play: play_named(play)?,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Turn, A::Error> {
        let (mut color, mut play) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value::<String>()?;
            match key.as_str() {
                "color" => color = Some(color_named(&value)?),
                "play" => play = Some(play_named(&value)?),
                other => return Err(de::Error::unknown_field(other, &["color", "play"])),
            }
        }
        Ok(Turn {
            color: color.ok_or_else(|| de::Error::missing_field("color"))?,
            play: play.ok_or_else(|| de::Error::missing_field("play"))?,
        })
    }
}

/// A move list as one string, three ASCII letters a move: the colour (`B`, `W`), then the column
/// and the row of the stone as letters from `a` (column A, row 1), or `..` for a pass and `!!`
/// for a resignation. `"BddWpp"` is black D4, white Q16.
pub(super) mod packed_turns {
    use super::*;

    const PASS: [u8; 2] = *b"..";
    const RESIGN: [u8; 2] = *b"!!";

    fn letter(index: u8) -> u8 {
        b'a' + index
    }

    /// One move packed.
    pub(in crate::go) fn pack(turn: Turn) -> [u8; 3] {
        let color = match turn.color {
            Color::Black => b'B',
            Color::White => b'W',
        };
        let [col, row] = match turn.play {
            GoPlay::Stone(v) => [letter(v.col), letter(v.row)],
            GoPlay::Pass => PASS,
            GoPlay::Resign => RESIGN,
        };
        [color, col, row]
    }

    pub fn serialize<S: Serializer>(turns: &[Turn], s: S) -> Result<S::Ok, S::Error> {
        let text: Vec<u8> = turns.iter().flat_map(|&turn| pack(turn)).collect();
        // Only ASCII is ever packed.
        s.serialize_str(std::str::from_utf8(&text).unwrap_or_default())
    }

    /// The packed string, or a list of moves in an earlier form.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Turn>, D::Error> {
        d.deserialize_any(TurnsVisitor)
    }

    /// One packed move.
    fn unpack<E: de::Error>(packed: &[u8]) -> Result<Turn, E> {
        let bad = || {
            E::custom(format!(
                "{:?} is not a packed move",
                String::from_utf8_lossy(packed)
            ))
        };
        let color = match packed[0] {
            b'B' => Color::Black,
            b'W' => Color::White,
            _ => return Err(bad()),
        };
        let play = match [packed[1], packed[2]] {
            PASS => GoPlay::Pass,
            RESIGN => GoPlay::Resign,
            [col, row] => {
                let index = |c: u8| c.checked_sub(b'a').filter(|&i| i < Vertex::MAX_SIZE);
                let (Some(col), Some(row)) = (index(col), index(row)) else {
                    return Err(bad());
                };
                GoPlay::Stone(Vertex::new(col, row))
            }
        };
        Ok(Turn { color, play })
    }

    struct TurnsVisitor;

    impl<'de> Visitor<'de> for TurnsVisitor {
        type Value = Vec<Turn>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("packed moves (\"BddWpp\") or a list of moves")
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<Turn>, E> {
            let bytes = text.as_bytes();
            if !bytes.len().is_multiple_of(3) {
                return Err(E::custom(format!(
                    "packed moves are three letters each, not {} letters",
                    bytes.len()
                )));
            }
            bytes.chunks_exact(3).map(unpack).collect()
        }

        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Turn>, A::Error> {
            let mut turns = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(turn) = seq.next_element::<Turn>()? {
                turns.push(turn);
            }
            Ok(turns)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::json;

    fn turn(color: Color, play: &str) -> Turn {
        Turn {
            color,
            play: play.parse().unwrap(),
        }
    }

    #[test]
    fn a_move_stored_as_one_string_still_loads() {
        for (t, text) in [
            (turn(Color::Black, "D4"), "B D4"),
            (turn(Color::White, "pass"), "W pass"),
            (turn(Color::Black, "Z25"), "B Z25"),
            (turn(Color::Black, "A1"), "B A1"),
            (turn(Color::Black, "J10"), "B J10"),
            (turn(Color::White, "resign"), "W resign"),
        ] {
            assert_eq!(serde_json::from_value::<Turn>(json!(text)).unwrap(), t);
        }
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Moves(#[serde(with = "packed_turns")] Vec<Turn>);

    #[test]
    fn a_move_list_is_packed_three_letters_a_move_and_read_back() {
        let moves = Moves(vec![
            turn(Color::Black, "D4"),
            turn(Color::White, "Q16"),
            turn(Color::Black, "pass"),
            turn(Color::White, "A1"),
            turn(Color::Black, "Z25"),
            turn(Color::White, "resign"),
        ]);
        let packed = json!("BddWppB..WaaByy W!!".replace(' ', ""));
        assert_eq!(serde_json::to_value(&moves).unwrap(), packed);
        assert_eq!(serde_json::from_value::<Moves>(packed).unwrap(), moves);
        assert_eq!(serde_json::to_value(Moves(Vec::new())).unwrap(), json!(""));
    }

    #[test]
    fn a_list_of_moves_in_an_earlier_form_still_loads() {
        let earlier = json!(["B D4", {"color": "white", "play": "Q16"}]);
        assert_eq!(
            serde_json::from_value::<Moves>(earlier).unwrap(),
            Moves(vec![turn(Color::Black, "D4"), turn(Color::White, "Q16")])
        );
    }

    #[test]
    fn damaged_packed_moves_are_refused() {
        for bad in ["Bd", "Xdd", "B.d", "Bzz", "BdD", "B!.", "Bdd W"] {
            assert!(
                serde_json::from_value::<Moves>(json!(bad)).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_first_stored_form_still_loads() {
        let old = json!({"color": "white", "play": "Q16"});
        assert_eq!(
            serde_json::from_value::<Turn>(old).unwrap(),
            turn(Color::White, "Q16")
        );
    }

    #[test]
    fn damaged_moves_are_refused() {
        for bad in [
            json!("B"),
            json!("X D4"),
            json!("B I9"),
            json!({"color": "black"}),
            json!({"color": "black", "play": "D4", "extra": "x"}),
            json!(3),
        ] {
            assert!(
                serde_json::from_value::<Turn>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }
}
