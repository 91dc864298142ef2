//! A game's move list written out, a move at a time, in the two forms requests need: the answer's
//! JSON list of names (`["D4","pass"]`) and the store's packed string (`"BddW.."`). Written anew
//! for every request, both grew with the game, so a move at move 300 cost more than one at the
//! start (what it costs now: docs/PERFORMANCE.md, "Go: a move late in a long game"). Kept
//! written, a save copies the packed string into the stored state, and an answer shares the list
//! of names (an `Arc`): the answer is written and dropped before the next move appends to it,
//! which then needs no copy.

use std::sync::Arc;

use super::game::{Turn, ROOM};
use super::stored_turn::packed_turns;
use super::vertex::GoPlay;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MoveText {
    /// A JSON list of the moves' names, shared with the answers that show it.
    names: Arc<String>,
    /// The moves packed as the store keeps them, three ASCII letters a move, as a JSON string.
    packed: Arc<String>,
}

impl Default for MoveText {
    fn default() -> Self {
        MoveText {
            names: Arc::new("[]".to_owned()),
            packed: Arc::new("\"\"".to_owned()),
        }
    }
}

/// `text`, to append to: as it is when nothing else holds it (the usual case: an answer that
/// shared it is gone by the next move), else a copy of it with room for [`ROOM`] more moves of
/// `per_move` bytes, so that the moves played on a copied game do not copy it again.
fn unshared(text: &mut Arc<String>, per_move: usize) -> &mut String {
    if Arc::get_mut(text).is_none() {
        let mut copy = String::with_capacity(text.len() + ROOM * per_move);
        copy.push_str(text);
        *text = Arc::new(copy);
    }
    Arc::get_mut(text).expect("unshared just now")
}

impl MoveText {
    pub fn push(&mut self, turn: Turn) {
        // `,"Z25"` and `Byy`.
        let names = unshared(&mut self.names, 6);
        names.pop(); // the closing bracket
        if names.len() > 1 {
            names.push(',');
        }
        names.push('"');
        // A name is `A1`..`Z25` or `pass`: nothing in it needs escaping.
        names.push_str(match turn.play {
            GoPlay::Resign => unreachable!("a resignation is not part of the move list"),
            play => play.name(),
        });
        names.push_str("\"]");
        // Packing writes letters and dots only: nothing to escape.
        let packed = unshared(&mut self.packed, 3);
        packed.pop(); // the closing quote
        packed.extend(packed_turns::pack(turn).map(char::from));
        packed.push('"');
    }

    /// `["D4","Q16","pass"]`.
    #[cfg(test)]
    pub fn names(&self) -> &str {
        &self.names
    }

    /// The same list, shared (for an answer).
    pub fn shared_names(&self) -> Arc<String> {
        Arc::clone(&self.names)
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

    #[test]
    fn an_answer_shares_the_names_and_a_move_after_it_copies_only_while_it_is_held() {
        let mut text = MoveText::default();
        text.push(turns()[0]);
        let answer = text.shared_names();
        text.push(turns()[1]);
        assert_eq!(*answer, r#"["D4"]"#, "the answer keeps what it was given");
        assert_eq!(text.names(), r#"["D4","pass"]"#);
        drop(answer);
        let before = text.names().as_ptr();
        text.push(turns()[2]);
        assert_eq!(
            text.names().as_ptr(),
            before,
            "appended in place, with room"
        );
        assert_eq!(text.names(), r#"["D4","pass","Z25"]"#);
    }
}
