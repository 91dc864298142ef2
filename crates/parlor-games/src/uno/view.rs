//! What a client may see: the public table (seed 002's room info) and one seat's private part.
//! Nothing else about the state leaves the server; the tests serialize every view and check it.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use super::action::UnoEvent;
use super::card::{Card, Color};
use super::game::{Direction, Status, Uno};
use super::options::Rules;

/// Cards shown in `recent` (seed 000 shows the last five played).
const RECENT: usize = 5;
/// Shouts listed in the public view.
const SHOUTS_SHOWN: usize = 10;

/// A face-up card with the colour it set (a wild's named colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UnoCardFace))]
pub struct CardFace {
    pub code: Card,
    pub color: Color,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UnoHandCount))]
pub struct HandCount {
    pub seat: usize,
    pub count: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UnoJumpWindow))]
pub struct JumpWindowView {
    /// The card an identical one may jump in on.
    pub card: Card,
    /// Who played it.
    pub seat: usize,
}

/// That a shout happened; the text is the recipient's alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UnoShoutSeen))]
pub struct ShoutSeen {
    pub from: usize,
    pub to: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UnoHandCard))]
pub struct HandCard {
    pub code: Card,
    /// The seat may play this card now, in turn (seed 000 shows these bright).
    pub playable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UnoMessage))]
pub struct Message {
    pub from: usize,
    pub text: String,
}

/// Where the deck order came from: `random` (the server shuffled it; nobody knows it),
/// `seeded` (shuffled from the creator's `seed`) or `fixed` (the creator's `deck`). With `seeded`
/// or `fixed` the creator knows every hand; such a game never had a seat open to others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DeckOrigin {
    #[default]
    Random,
    Seeded,
    Fixed,
}

/// The `state` of an UNO game as a spectator (`seat: None`) or one seat sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct UnoView {
    /// `waiting`, `active`, `finished` or `aborted`.
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "active"))]
    pub status: &'static str,
    pub turn: Option<usize>,
    pub top: Option<CardFace>,
    /// The colour in play.
    pub color: Option<Color>,
    pub direction: Direction,
    pub deck_count: usize,
    /// Where the deck order came from: `random`, `seeded` or `fixed`.
    pub deck: DeckOrigin,
    /// Cards on the discard pile, its top card included.
    pub discard_count: usize,
    /// The last ≤ 5 cards played, oldest first, as codes.
    pub recent: Vec<Card>,
    /// The same cards with the colours they set (a wild's named colour).
    pub recent_cards: Vec<CardFace>,
    /// Cards in each hand (0 for a seat that is out: its cards went under the deck).
    pub hands: Vec<HandCount>,
    /// Seats out of the game (out of time or gone), in the order they left; play passes them by.
    /// Absent while every seat is in.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub out: Vec<usize>,
    /// Cards a pending +2 makes its victim (the seat to act) draw.
    pub pending_draw: u16,
    /// The seat to act drew by choice under `draw_then_play` and must play that card or pass; true whatever the card (only its own hand shows whether it fits).
    pub awaiting_pass: bool,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub jump_window: Option<JumpWindowView>,
    pub shouts: Vec<ShoutSeen>,
    pub log: Vec<UnoEvent>,
    pub rules: Rules,
    pub winner: Option<usize>,
    /// The winner's score: official points left in the other hands (none when the others
    /// forfeited).
    pub points: Option<u32>,
    /// The seat this view belongs to.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seat: Option<usize>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub hand: Option<Vec<HandCard>>,
    /// The seat holds the card identical to the one just played and may jump in.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub can_jump_in: Option<bool>,
    /// Shouts sent to this seat, oldest first.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub messages: Option<Vec<Message>>,
}

impl Uno {
    /// What everybody may see.
    pub fn public_view(&self) -> UnoView {
        let (status, winner, points) = match self.status() {
            Status::Waiting => ("waiting", None, None),
            Status::Active => ("active", None, None),
            Status::Finished { winner, points } => ("finished", Some(winner), Some(points)),
            Status::LastStanding { winner } => ("finished", Some(winner), None),
            Status::Aborted => ("aborted", None, None),
        };
        let discard = self.discard();
        let recent = &discard[discard.len().saturating_sub(RECENT)..];
        let face = |p: &super::game::Played| CardFace {
            code: p.card,
            color: p.color,
        };
        let shouts: Vec<ShoutSeen> = self
            .shouts()
            .map(|s| ShoutSeen {
                from: s.from,
                to: s.to,
            })
            .collect();
        UnoView {
            status,
            turn: self.turn(),
            top: discard.last().map(face),
            color: self.current_color(),
            direction: self.direction(),
            deck_count: self.deck_count(),
            deck: DeckOrigin::Random,
            discard_count: discard.len(),
            recent: recent.iter().map(|p| p.card).collect(),
            recent_cards: recent.iter().map(face).collect(),
            hands: (0..self.seats())
                .map(|seat| HandCount {
                    seat,
                    count: self.hand_len(seat),
                })
                .collect(),
            out: self.out().iter().map(|f| f.seat).collect(),
            pending_draw: self.pending_draw(),
            awaiting_pass: self.drawn().is_some(),
            jump_window: self.jump_window().map(|w| JumpWindowView {
                card: w.card,
                seat: w.seat,
            }),
            shouts: shouts[shouts.len().saturating_sub(SHOUTS_SHOWN)..].to_vec(),
            log: self.log().cloned().collect(),
            rules: *self.rules(),
            winner,
            points,
            seat: None,
            hand: None,
            can_jump_in: None,
            messages: None,
        }
    }

    /// What `seat` may see: the public table, its own hand with `playable` flags, and the
    /// shouts sent to it. A seat number out of range gets the public view.
    pub fn seat_view(&self, seat: usize) -> UnoView {
        let mut view = self.public_view();
        if seat >= self.seats() {
            return view;
        }
        view.seat = Some(seat);
        view.hand = Some(
            self.hand(seat)
                .iter()
                .map(|&code| HandCard {
                    code,
                    playable: self.is_playable(seat, code),
                })
                .collect(),
        );
        view.can_jump_in = Some(self.can_jump_in(seat));
        view.messages = Some(
            self.shouts()
                .filter(|s| s.to == seat)
                .map(|s| Message {
                    from: s.from,
                    text: s.text.clone(),
                })
                .collect(),
        );
        view
    }
}
