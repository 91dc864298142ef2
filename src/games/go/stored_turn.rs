//! How one move of a stored game is written: `"B D4"`, `"W pass"`. A long game is loaded on
//! every request, and a string a move parses several times faster than the object form games
//! were first stored in (`{"color": "black", "play": "D4"}`), which still loads.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::board::Color;
use super::game::Turn;
use super::vertex::{GoPlay, ShortName};

impl Serialize for Turn {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = ShortName::new();
        text.push(match self.color {
            Color::Black => b"B ",
            Color::White => b"W ",
        });
        self.play.append_to(&mut text);
        s.serialize_str(text.as_str())
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn turn(color: Color, play: &str) -> Turn {
        Turn {
            color,
            play: play.parse().unwrap(),
        }
    }

    #[test]
    fn a_move_is_stored_as_one_string_and_read_back() {
        for (t, text) in [
            (turn(Color::Black, "D4"), "B D4"),
            (turn(Color::White, "pass"), "W pass"),
            (turn(Color::Black, "Z25"), "B Z25"),
            (turn(Color::Black, "A1"), "B A1"),
            (turn(Color::Black, "J10"), "B J10"),
            // The longest stored move: eight bytes, the stack buffer's size.
            (turn(Color::White, "resign"), "W resign"),
        ] {
            assert_eq!(serde_json::to_value(t).unwrap(), json!(text));
            assert_eq!(serde_json::from_value::<Turn>(json!(text)).unwrap(), t);
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
