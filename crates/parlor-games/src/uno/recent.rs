//! What the table saw each seat play since it last took a card, and the table each play was
//! made on. Every card a seat has played since its last draw or penalty was in its hand
//! together with all the cards it holds now, so a hand guessed for it now can be checked
//! against each of those plays: a seat that plays by a known rule (seed 000's tree for an
//! `easy` bot) would have made them from that hand. All of it is public: the cards were played
//! face up and the table (top card, colour, hand sizes) is shown to everyone.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::card::{Card, Color};
use super::game::Played;

/// The table as it stood when a seat played in turn, with no penalty pending and no card just
/// drawn: the plain case, where the seat chose among every card matching the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct TableSeen {
    pub top: Card,
    /// The colour in play.
    pub color: Color,
    /// Cards held by the seat after and the seat before the player, in the direction of play.
    pub next_len: u8,
    pub prev_len: u8,
}

impl TableSeen {
    /// Seed 000's matching rule on this table.
    pub fn matches(&self, card: Card) -> bool {
        Played {
            card: self.top,
            color: self.color,
        }
        .takes(card)
    }
}

/// One card a seat played since it last took a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct RecentPlay {
    pub seat: u8,
    pub card: Card,
    /// The colour it set (the named one, for a wild).
    pub color: Color,
    /// The table it chose on; `None` for a jump-in, a stacked +2 or a card just drawn, where
    /// the choice was not among every matching card.
    pub table: Option<TableSeen>,
}

/// The plays of every seat since each last took a card, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct RecentPlays(Vec<RecentPlay>);

impl RecentPlays {
    pub fn played(&mut self, play: RecentPlay) {
        self.0.push(play);
    }

    /// `seat` took cards: its earlier plays no longer describe all of its hand.
    pub fn took(&mut self, seat: usize) {
        self.0.retain(|p| usize::from(p.seat) != seat);
    }

    /// `seat`'s plays since it last took a card, oldest first.
    pub fn of(&self, seat: usize) -> impl DoubleEndedIterator<Item = &RecentPlay> + Clone {
        self.0.iter().filter(move |p| usize::from(p.seat) == seat)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(seat: u8, code: &str) -> RecentPlay {
        let card: Card = code.parse().unwrap();
        RecentPlay {
            seat,
            card,
            color: card.color().unwrap_or(Color::Red),
            table: None,
        }
    }

    #[test]
    fn a_seat_taking_cards_forgets_only_its_own_plays() {
        let mut recent = RecentPlays::default();
        recent.played(play(0, "R1"));
        recent.played(play(1, "R2"));
        recent.played(play(0, "R3"));
        assert_eq!(recent.of(0).count(), 2);
        recent.took(0);
        assert_eq!(recent.of(0).count(), 0);
        assert_eq!(
            recent.of(1).map(|p| p.card.to_string()).collect::<Vec<_>>(),
            ["R2"]
        );
    }

    #[test]
    fn matching_on_a_seen_table() {
        let table = TableSeen {
            top: "R5".parse().unwrap(),
            color: Color::Blue,
            next_len: 3,
            prev_len: 3,
        };
        for (code, fits) in [("B1", true), ("G5", true), ("R1", false), ("W4", true)] {
            assert_eq!(table.matches(code.parse().unwrap()), fits, "{code}");
        }
    }
}
