#![doc = include_str!("../README.md")]

pub mod clock;
pub mod go;
pub mod gomoku;
#[cfg(feature = "turn")]
pub mod player_schema;
pub mod poker;
pub mod proposal;
#[cfg(all(test, feature = "turn"))]
mod refusals;
#[cfg(feature = "turn")]
pub mod registry;
#[cfg(feature = "turn")]
pub mod seed;
#[cfg(feature = "turn")]
pub mod table;
pub mod takeback;
mod turn;
pub mod uno;

#[cfg(feature = "turn")]
pub use turn::{schema_of, Example, Report, ReportParam, ReportQuery, ReportSpec, TurnGame};
pub use turn::{
    AiAnalysis, AiBudget, AiCandidate, AiChoice, AiLevel, AiRatings, EndReason, Forfeit,
    GameResult, GameStatus, InviteWord, OpenSeat, PlayerSpec, ReservedFor, RuleError, Seat,
    SeatKind, SeatKindWord, UnknownWord,
};
