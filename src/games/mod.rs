//! Game rules: pure Rust, no HTTP and no SQL. Each game is a library of its own; the turn-based ones
//! implement [`TurnGame`] so that the HTTP layer and the store drive them all the same way, and
//! [`registry`] lists them.

pub mod go;
pub mod gomoku;
#[cfg(test)]
mod growth;
pub mod player_schema;
pub mod poker;
pub mod ready_json;
#[cfg(test)]
mod refusals;
pub mod registry;
pub mod takeback;
mod turn;
pub mod uno;

pub use turn::{
    schema_of, AiAnalysis, AiBudget, AiCandidate, AiChoice, AiLevel, EndReason, Example,
    GameResult, GameStatus, InviteWord, OpenSeat, PlayerSpec, Report, ReportParam, ReportQuery,
    ReportSpec, ReservedFor, RuleError, Seat, SeatKind, SeatKindWord, TurnGame, UnknownWord,
};
