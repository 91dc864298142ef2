#![doc = include_str!("../README.md")]

pub mod go;
pub mod gomoku;
pub mod player_schema;
pub mod poker;
#[cfg(test)]
mod refusals;
pub mod registry;
pub mod seed;
pub mod takeback;
mod turn;
pub mod uno;

pub use turn::{
    schema_of, AiAnalysis, AiBudget, AiCandidate, AiChoice, AiLevel, AiRatings, EndReason, Example,
    GameResult, GameStatus, InviteWord, OpenSeat, PlayerSpec, Report, ReportParam, ReportQuery,
    ReportSpec, ReservedFor, RuleError, Seat, SeatKind, SeatKindWord, TurnGame, UnknownWord,
};
