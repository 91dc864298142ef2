//! What a two-seat board game keeps beside its board: the creator's choices (`auto_ai`,
//! `rated`, the clock, the take-back rule), the proposals waiting for an answer, and the endings
//! that come from outside the rules (ended, forfeited, drawn by agreement). Go and Gomoku share
//! it, so those rules are written once.

use std::ops::Not;

use serde::{Deserialize, Serialize};

use crate::clock::{Clock, TimeControl};
use crate::proposal::{self, DrawOffer};
use crate::takeback::{Takeback, TakebackAction, TakebackProposal, TakebackRule, Verdict};
use crate::{EndReason, Forfeit, GameResult, RuleError, Seat, SeatKind};

/// The events the table causes, as each game's own event type spells them.
pub trait TableEvent: Sized {
    fn game_over(result: GameResult) -> Self;
    fn draw_offered(by: Seat) -> Self;
    fn draw_declined(by: Seat) -> Self;
    fn takeback_proposed(proposal: TakebackProposal) -> Self;
    fn takeback_declined(proposal: TakebackProposal) -> Self;
}

/// Implements [`TableEvent`] for an event enum with the variants `GameOver { result }`,
/// `DrawOffered { by }`, `DrawDeclined { by }`, `TakebackProposed { proposal }` and
/// `TakebackDeclined { proposal }`.
macro_rules! table_events {
    ($event:ty) => {
        impl $crate::table::TableEvent for $event {
            fn game_over(result: $crate::GameResult) -> Self {
                Self::GameOver { result }
            }
            fn draw_offered(by: $crate::Seat) -> Self {
                Self::DrawOffered { by }
            }
            fn draw_declined(by: $crate::Seat) -> Self {
                Self::DrawDeclined { by }
            }
            fn takeback_proposed(proposal: $crate::takeback::TakebackProposal) -> Self {
                Self::TakebackProposed { proposal }
            }
            fn takeback_declined(proposal: $crate::takeback::TakebackProposal) -> Self {
                Self::TakebackDeclined { proposal }
            }
        }
    };
}
pub(crate) use table_events;

/// The table of a two-seat game. A game stores it flattened into its own state, so its fields
/// keep the names they had when each game kept them itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Table {
    #[serde(default, skip_serializing_if = "Not::not")]
    aborted: bool,
    #[serde(default)]
    takeback: Takeback,
    /// Created with `auto_ai`: the server plays AI seats after each human change.
    #[serde(default, skip_serializing_if = "Not::not")]
    auto_ai: bool,
    /// Created with `"rated": false` (or, for Go, from an SGF record).
    #[serde(default, skip_serializing_if = "Not::not")]
    unrated: bool,
    /// A seat that lost on time or was claimed gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forfeit: Option<Forfeit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<Clock>,
    /// A draw one seat offered and the other has not answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw_offer: Option<DrawOffer>,
    /// The seats agreed to a draw.
    #[serde(default, skip_serializing_if = "Not::not")]
    drawn: bool,
}

impl Table {
    /// A table for a new game. `byoyomi`: whether the game takes byo-yomi time controls.
    pub fn new(
        takeback: Option<TakebackRule>,
        auto_ai: Option<bool>,
        unrated: bool,
        clock: Option<TimeControl>,
        byoyomi: bool,
    ) -> Result<Table, RuleError> {
        Ok(Table {
            aborted: false,
            takeback: Takeback::new(takeback.unwrap_or_default()),
            auto_ai: auto_ai.unwrap_or(false),
            unrated,
            forfeit: None,
            clock: clock
                .map(|control| Clock::new(control, 2, byoyomi))
                .transpose()?,
            draw_offer: None,
            drawn: false,
        })
    }

    pub fn auto_ai(&self) -> bool {
        self.auto_ai
    }

    /// Whether the creator left the game rated (the game may still have reasons of its own).
    pub fn rated(&self) -> bool {
        !self.unrated
    }

    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    pub fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.clock.as_mut()
    }

    /// The take-back rule and waiting proposal, as the state shows them.
    pub fn takeback(&self) -> Takeback {
        self.takeback
    }

    /// The draw offer waiting for an answer, as the state shows it.
    pub fn draw_offer(&self) -> Option<DrawOffer> {
        self.draw_offer
    }

    /// How the game ended outside the rules, if it did: ended, forfeited or drawn by agreement.
    /// No take-back reopens such a game.
    pub fn ending(&self) -> Option<GameResult> {
        if self.aborted {
            Some(GameResult::aborted())
        } else if let Some(forfeit) = &self.forfeit {
            Some(forfeit.result())
        } else if self.drawn {
            Some(DrawOffer::agreed())
        } else {
            None
        }
    }

    /// Ends the game at once (`POST …/end`).
    pub fn abort<E: TableEvent>(&mut self) -> Vec<E> {
        self.aborted = true;
        vec![E::game_over(GameResult::aborted())]
    }

    /// `seat` loses without a move, unless the game is `over` already.
    pub fn forfeit<E: TableEvent>(
        &mut self,
        over: bool,
        seat: Seat,
        reason: EndReason,
    ) -> Result<Vec<E>, RuleError> {
        let result = Forfeit::record(&mut self.forfeit, over, seat, reason)?;
        Ok(vec![E::game_over(result)])
    }

    /// `by` offers a draw, or accepts the other seat's offer, unless the game is `over`.
    pub fn offer_draw<E: TableEvent>(
        &mut self,
        over: bool,
        by: Seat,
        seats: &[SeatKind],
    ) -> Result<Vec<E>, RuleError> {
        if over {
            return Err(RuleError::GameOver);
        }
        Ok(match DrawOffer::offer(&mut self.draw_offer, by, seats)? {
            proposal::Verdict::Proposed(offer) => vec![E::draw_offered(offer.by)],
            proposal::Verdict::Now => {
                self.drawn = true;
                vec![E::game_over(DrawOffer::agreed())]
            }
        })
    }

    /// Puts `by`'s take-back to the game's rule: `Some(events)` when it became a proposal for
    /// the other seat, `None` when it happens now.
    pub fn ask_takeback<E: TableEvent>(
        &mut self,
        by: Seat,
        action: TakebackAction,
        seats: &[SeatKind],
    ) -> Result<Option<Vec<E>>, RuleError> {
        Ok(match self.takeback.request(by, action, seats)? {
            Verdict::Proposed(proposal) => Some(vec![E::takeback_proposed(proposal)]),
            Verdict::Now => None,
        })
    }

    /// A move was played: the proposals waiting for an answer are declined, and their events go
    /// before the move's.
    pub fn declined_by_move<E: TableEvent>(&mut self, events: &mut Vec<E>) {
        if let Some(proposal) = self.takeback.declined_by_move() {
            events.insert(0, E::takeback_declined(proposal));
        }
        if let Some(offer) = proposal::declined_by_move(&mut self.draw_offer) {
            events.insert(0, E::draw_declined(offer.by));
        }
    }
}
