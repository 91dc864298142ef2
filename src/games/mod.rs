//! Game rules: pure Rust, no HTTP and no SQL. Each game is a library of its own; the turn-based ones
//! implement [`TurnGame`] so that the HTTP layer and the store drive them all the same way.

pub mod gomoku;
pub mod poker;
mod turn;

pub use turn::{
    AiChoice, AiLevel, EndReason, GameResult, PlayerSpec, RuleError, Seat, SeatKind, TurnGame,
};
