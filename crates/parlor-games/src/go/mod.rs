//! Go (seed 004): boards of 5 to 25, captures, suicide forbidden, the seed's simple ko and an optional
//! positional superko, pass and resign, undo ("悔棋") and redo ("不悔了") to any depth, the seed's count
//! ("点目") by territory or area, and SGF records in and out.

pub mod ai;
pub mod board;
pub mod game;
mod positions;
pub mod score;
pub mod sgf;
#[cfg(feature = "turn")]
pub mod turn;
pub mod vertex;

#[cfg(test)]
mod tests;

pub use game::{
    color_name, color_of_seat, handicap_points, seat_of, Go, GoEndReason, GoError, GoEvent,
    GoOptions, GoResult, GoView, IllegalReason, Setup, Turn,
};
pub use score::{Captures, ScoreReport, Scoring, SideScore};
pub use sgf::{SgfError, SgfMeta};
#[cfg(feature = "turn")]
pub use turn::{GoCreate, GoGame, GoMove, GoScore};
pub use vertex::{GoPlay, Vertex, VertexError};
