//! A state that grows at its end (a Go game's move list) is stored in pieces, so a change late in
//! a long game writes what changed, not the whole state again.
//!
//! The text is cut into pieces of [`PIECE_BYTES`] (less, to end on a character) from its start; the
//! rest, shorter than a piece, is the tail. The cuts depend only on the text before them, so a state
//! that grew at its end has the same leading pieces as before: a change writes the tail, adds the
//! pieces the growth filled, and rewrites pieces only from the first one that differs (an undo).
//! A state no longer than one piece is stored whole, as every state was before pieces.

use serde_json::value::RawValue;

use super::records::Layout;

/// The size of a piece. A stored Go move is three letters, so a piece holds about 170 moves.
pub const PIECE_BYTES: usize = 512;

/// `text` as pieces and a tail.
#[derive(Debug, PartialEq, Eq)]
pub struct Pieces<'a> {
    pub pieces: Vec<&'a str>,
    pub tail: &'a str,
}

impl<'a> Pieces<'a> {
    pub fn of(text: &'a str) -> Self {
        let mut pieces = Vec::new();
        let mut start = 0;
        // A piece is cut only while text remains after it: the tail is never empty.
        while start + PIECE_BYTES < text.len() {
            let end = text.floor_char_boundary(start + PIECE_BYTES);
            pieces.push(&text[start..end]);
            start = end;
        }
        Pieces {
            pieces,
            tail: &text[start..],
        }
    }

    /// How many leading pieces `self` shares with `earlier`: those the store holds already.
    pub fn shared_with(&self, earlier: &Pieces<'_>) -> usize {
        self.pieces
            .iter()
            .zip(&earlier.pieces)
            .take_while(|(now, before)| now == before)
            .count()
    }
}

/// What a write of a state does: the value `games.state` gets, the stored pieces it drops and the
/// pieces it adds.
#[derive(Debug)]
pub struct Plan<'a> {
    /// The tail as a JSON string, when the state goes in pieces; `None`: the whole state.
    pub tail: Option<Box<RawValue>>,
    /// Drop the stored pieces from this index on.
    pub drop_from: Option<i32>,
    /// Pieces to add, with their index.
    pub add: Vec<(i32, &'a str)>,
}

impl<'a> Plan<'a> {
    /// The write of `state` laid out as `layout` asks, by a store that keeps pieces only when
    /// `keeps_pieces` (otherwise the state goes whole, whatever the layout).
    pub fn new(state: &'a RawValue, layout: &Layout, keeps_pieces: bool) -> Plan<'a> {
        let (true, Layout::Pieces { written }) = (keeps_pieces, layout) else {
            return Plan {
                tail: None,
                drop_from: None,
                add: Vec::new(),
            };
        };
        let now = Pieces::of(state.get());
        let before = written.as_deref().map(Pieces::of);
        let shared = before.as_ref().map_or(0, |b| now.shared_with(b));
        // Pieces beyond the shared ones are stale; unknown ones may be.
        let stale = before.as_ref().is_none_or(|b| b.pieces.len() > shared);
        Plan {
            tail: (!now.pieces.is_empty())
                .then(|| serde_json::value::to_raw_value(now.tail).expect("a string serializes")),
            drop_from: stale.then_some(shared as i32),
            add: (shared..now.pieces.len())
                .map(|i| (i as i32, now.pieces[i]))
                .collect(),
        }
    }
}

/// The tail `games.state` holds when the state is in pieces: a JSON string (a whole state is an
/// object).
pub fn tail_of(stored: &RawValue) -> Option<Result<String, serde_json::Error>> {
    stored
        .get()
        .starts_with('"')
        .then(|| serde_json::from_str(stored.get()))
}

/// The state from its pieces, in order, and its tail.
pub fn assemble(pieces: &[String], tail: &str) -> Result<Box<RawValue>, serde_json::Error> {
    RawValue::from_string(pieces.concat() + tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(p: &Pieces<'_>) -> String {
        p.pieces.concat() + p.tail
    }

    #[test]
    fn a_short_state_is_one_tail() {
        let text = "x".repeat(PIECE_BYTES);
        let p = Pieces::of(&text);
        assert!(p.pieces.is_empty());
        assert_eq!(p.tail, text);
    }

    #[test]
    fn pieces_and_tail_join_to_the_text_and_end_on_characters() {
        // Three-byte characters, so cuts fall inside them unless moved back.
        let text = "€a".repeat(700);
        let p = Pieces::of(&text);
        assert_eq!(joined(&p), text);
        assert!(p.pieces.len() >= 3);
        assert!(p.pieces.iter().all(|piece| piece.len() <= PIECE_BYTES));
        assert!(!p.tail.is_empty() && p.tail.len() <= PIECE_BYTES);
    }

    fn plan<'a>(state: &'a RawValue, written: Option<&str>) -> Plan<'a> {
        Plan::new(
            state,
            &Layout::Pieces {
                written: written.map(Into::into),
            },
            true,
        )
    }

    fn raw(text: String) -> Box<RawValue> {
        RawValue::from_string(text).unwrap()
    }

    #[test]
    fn a_write_adds_the_pieces_growth_filled_and_drops_only_stale_ones() {
        let moves = |n: usize| raw(format!("{{\"moves\":\"{}\"}}", "Bdd".repeat(n)));
        let (short, long, longer) = (moves(100), moves(400), moves(600));
        // Whole: no pieces, nothing dropped.
        let whole = Plan::new(&long, &Layout::Whole, true);
        assert!(whole.tail.is_none() && whole.drop_from.is_none() && whole.add.is_empty());
        // A store that keeps states whole: whole, whatever the layout asks.
        let offered = Layout::Pieces { written: None };
        let kept_whole = Plan::new(&long, &offered, false);
        assert!(kept_whole.tail.is_none() && kept_whole.drop_from.is_none());
        assert!(kept_whole.add.is_empty());
        // A short state in pieces is still stored whole.
        let p = plan(&short, Some(short.get()));
        assert!(p.tail.is_none() && p.drop_from.is_none() && p.add.is_empty());
        // Unknown earlier writes: every piece again, after dropping all.
        let p = plan(&long, None);
        assert_eq!((p.drop_from, p.add.len()), (Some(0), 2));
        // Grown from a known write: only the new piece, nothing dropped.
        let p = plan(&longer, Some(long.get()));
        assert_eq!(p.drop_from, None);
        assert_eq!(p.add.iter().map(|a| a.0).collect::<Vec<_>>(), vec![2]);
        let tail: String = serde_json::from_str(p.tail.as_ref().unwrap().get()).unwrap();
        let stored = Pieces::of(longer.get());
        assert_eq!(tail, stored.tail);
        // Shrunk back (an undo): the pieces past the shared ones are dropped.
        let p = plan(&long, Some(longer.get()));
        assert_eq!((p.drop_from, p.add.len()), (Some(2), 0));
        assert_eq!(
            tail_of(p.tail.as_ref().unwrap()).unwrap().unwrap(),
            Pieces::of(long.get()).tail
        );
        assert!(tail_of(&long).is_none(), "a whole state is an object");
        let pieces: Vec<String> = stored.pieces.iter().map(|s| s.to_string()).collect();
        assert_eq!(assemble(&pieces, stored.tail).unwrap().get(), longer.get());
    }

    #[test]
    fn growth_at_the_end_keeps_the_leading_pieces() {
        let before = format!("{{\"moves\":\"{}\",\"redo\":\"\"}}", "Bdd".repeat(400));
        let after = format!("{{\"moves\":\"{}Wpp\",\"redo\":\"\"}}", "Bdd".repeat(400));
        let (b, a) = (Pieces::of(&before), Pieces::of(&after));
        assert_eq!(b.pieces.len(), 2);
        assert_eq!(a.shared_with(&b), 2);
        // A change inside the first piece shares nothing.
        let changed = after.replacen("Bdd", "Bee", 1);
        assert_eq!(Pieces::of(&changed).shared_with(&b), 0);
        // Shrinking (an undo) shares the pieces that are still whole.
        let undone = format!("{{\"moves\":\"{}\",\"redo\":\"Wpp\"}}", "Bdd".repeat(300));
        assert_eq!(Pieces::of(&undone).shared_with(&b), 1);
    }
}
