//! A game's move list written out, a move at a time, in the two forms requests need: the answer's
//! JSON list of names (`["D4","pass"]`) and the store's packed string (`"BddW.."`). Written anew
//! for every request, both grew with the game, so a move at move 300 cost more than one at the
//! start (docs/PERFORMANCE.md, "a move late in a long game"); kept written, a request copies them.

use super::game::{Turn, ROOM};
use super::stored_turn::packed_turns;
use super::vertex::GoPlay;

#[derive(Debug, PartialEq, Eq)]
pub(super) struct MoveText {
    /// A JSON list of the moves' names.
    names: String,
    /// The moves packed as the store keeps them, three ASCII letters a move, as a JSON string.
    packed: String,
}

impl Default for MoveText {
    fn default() -> Self {
        MoveText {
            names: "[]".to_owned(),
            packed: "\"\"".to_owned(),
        }
    }
}

/// Copies with room for [`ROOM`] more moves (see `GoGame`'s `Clone`).
impl Clone for MoveText {
    fn clone(&self) -> Self {
        let roomy = |text: &str, per_move: usize| {
            let mut copy = String::with_capacity(text.len() + ROOM * per_move);
            copy.push_str(text);
            copy
        };
        MoveText {
            // `,"Z25"` and `Byy`.
            names: roomy(&self.names, 6),
            packed: roomy(&self.packed, 3),
        }
    }
}

impl MoveText {
    pub fn push(&mut self, turn: Turn) {
        self.names.pop(); // the closing bracket
        if self.names.len() > 1 {
            self.names.push(',');
        }
        self.names.push('"');
        // A name is `A1`..`Z25` or `pass`: nothing in it needs escaping.
        self.names.push_str(match turn.play {
            GoPlay::Resign => unreachable!("a resignation is not part of the move list"),
            play => play.name(),
        });
        self.names.push_str("\"]");
        // Packing writes letters and dots only: nothing to escape.
        self.packed.pop(); // the closing quote
        self.packed.extend(packed_turns::pack(turn).map(char::from));
        self.packed.push('"');
    }

    /// `["D4","Q16","pass"]`.
    pub fn names(&self) -> &str {
        &self.names
    }

    /// `"BddWpp"` with its quotes: the JSON [`packed_turns`] writes for the same moves.
    pub fn packed(&self) -> &str {
        &self.packed
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Color;
    use super::super::vertex::Vertex;
    use super::*;

    fn turns() -> Vec<Turn> {
        vec![
            Turn {
                color: Color::Black,
                play: GoPlay::Stone(Vertex::new(3, 3)),
            },
            Turn {
                color: Color::White,
                play: GoPlay::Pass,
            },
            Turn {
                color: Color::Black,
                play: GoPlay::Stone(Vertex::new(24, 24)),
            },
        ]
    }

    #[test]
    fn names_and_packs_as_the_list_would_be_written_whole() {
        let mut text = MoveText::default();
        assert_eq!(text.names(), "[]");
        for turn in turns() {
            text.push(turn);
        }
        let plays: Vec<GoPlay> = turns().iter().map(|t| t.play).collect();
        assert_eq!(text.names(), serde_json::to_string(&plays).unwrap());
        assert_eq!(text.names(), r#"["D4","pass","Z25"]"#);
        let mut packed = serde_json::Serializer::new(Vec::new());
        packed_turns::serialize(&turns(), &mut packed).unwrap();
        assert_eq!(
            text.packed(),
            String::from_utf8(packed.into_inner()).unwrap()
        );
        assert_eq!(text.packed(), "\"BddW..Byy\"");
    }
}
