//! Gomoku (seed 001): five in a row on a 9x9 to 19x19 board, freestyle, standard or renju rule, with
//! the seed's scoring heuristic as the `easy` AI and a threat-space alpha-beta search above it.

pub mod ai;
mod game;
mod point;
mod renju;
mod rule;
#[cfg(feature = "turn")]
mod turn;

pub use game::{Gomoku, GomokuError, Outcome};
pub use point::{NotationError, Point};
pub use renju::Forbidden;
pub use rule::{Rule, Stone};
#[cfg(feature = "turn")]
pub use turn::{
    Color, GomokuEvent, GomokuGame, GomokuMove, GomokuOptions, GomokuPlay, GomokuView, FIVE_IN_ROW,
};
