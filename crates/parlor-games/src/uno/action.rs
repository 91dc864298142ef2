//! What seats do, what the table sees happen, and why an action is refused.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use super::card::{Card, Color};
use super::game::Direction;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "reason", rename_all = "snake_case"))]
pub enum Outcome {
    /// `winner` emptied its hand; `points` are the official points left in the other hands.
    OutOfCards {
        winner: usize,
        points: u32,
    },
    /// Every other seat forfeited (see [`Uno::forfeit`](super::Uno::forfeit)).
    LastStanding {
        winner: usize,
    },
    Aborted,
}

/// One thing a seat does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)
)]
#[cfg_attr(feature = "openapi", schema(as = UnoMove, example = json!({"action": "play", "card": "W4", "color": "blue"})))]
pub enum UnoAction {
    /// Play a card from the hand; a wild needs `color`, any other card must not have one.
    Play {
        card: Card,
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        color: Option<Color>,
    },
    /// Take one card (or the pending +2 total) and end the turn.
    Draw,
    /// End the turn after a draw under `draw_then_play`.
    Pass,
    /// Play the card identical to the one just played, out of turn.
    JumpIn { card: Card },
}

/// What happened, as the whole table may see it: a draw says how many cards, never which.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum UnoEvent {
    Dealt {
        seats: usize,
        cards_each: usize,
    },
    /// A wild turned up as the start card went to the bottom of the deck (seed 000).
    StartCardBuried {
        card: Card,
    },
    StartCard {
        card: Card,
        color: Color,
    },
    Played {
        seat: usize,
        card: Card,
        color: Color,
    },
    JumpedIn {
        seat: usize,
        card: Card,
        /// Whose card was jumped on.
        over: usize,
    },
    Skipped {
        seat: usize,
    },
    Reversed {
        direction: Direction,
    },
    /// A +2 waits for `seat` to answer: draw `total` or (stacking) add a +2.
    DrawPending {
        seat: usize,
        total: u16,
    },
    Drew {
        seat: usize,
        count: u16,
        /// Drawn as a +2 / +4 penalty rather than by choice.
        penalty: bool,
    },
    /// The seat holds `cap` cards and could not take `missed` more (seed 000's 14-card cap).
    HandFull {
        seat: usize,
        cap: u8,
        missed: u16,
    },
    /// Deck and discard pile were both empty: `missed` cards could not be drawn.
    NoCardsLeft {
        seat: usize,
        missed: u16,
    },
    /// The discard pile but its top card went back into the deck, wild colours cleared.
    Reshuffled {
        cards: usize,
    },
    Passed {
        seat: usize,
    },
    /// A shout happened; its text is for the recipient alone.
    Shouted {
        from: usize,
        to: usize,
    },
    Won {
        seat: usize,
        points: u32,
    },
    /// `seat` forfeited (`timeout` or `abandoned`) and is out of the game: play passes it by.
    SeatOut {
        seat: usize,
        reason: crate::EndReason,
    },
    Aborted,
    /// The game ended: the result as `game.result` shows it (after `won` or `aborted`).
    GameOver {
        result: crate::GameResult,
    },
}

/// Why an action was refused. Each message is a plain sentence for the client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnoError {
    #[error("it is seat {expected}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: usize, expected: usize },
    #[error("the game is over")]
    GameOver,
    #[error("the game has not started yet")]
    NotStarted,
    #[error("the game has already started")]
    AlreadyStarted,
    /// The seat forfeited earlier: it can no longer act or forfeit again.
    #[error("seat {0} is out of the game")]
    Out(usize),
    /// A jump-in with no card to jump on: the window closed (the next seat acted, or another
    /// seat jumped first) or never opened. Racing clients lose here, so it maps to 409.
    #[error("there is nothing to jump in on: a jump-in comes after a card is played and before the next seat acts")]
    NoJumpWindow,
    /// A well-formed action the rules forbid.
    #[error("{0}")]
    Illegal(String),
    /// A value out of range (seat count, seat number, deck, shout length).
    #[error("{0}")]
    Invalid(String),
}
