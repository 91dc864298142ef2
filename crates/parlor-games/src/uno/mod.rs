//! UNO (seeds 000 and 002): the 108-card game for 2–10 seats with the options `max_hand`,
//! `draw_then_play`, `stacking` and `jump_in`, seed 002's shouts and rooms, and three AIs
//! (`easy` is seed 000's decision tree). Pure rules: no I/O; `turn` puts them on the road.

mod action;
pub mod ai;
mod card;
mod deck;
mod game;
mod lacks;
mod options;
mod recent;
#[cfg(feature = "turn")]
mod turn;
mod view;

#[cfg(test)]
mod tests;
#[cfg(all(test, feature = "turn"))]
mod twins;

pub use action::{Outcome, UnoAction, UnoError, UnoEvent};
pub use card::{full_deck, Card, CardCodeError, Color, Symbol, DISTINCT_CARDS};
pub use deck::{check_deck, DeckSource};
pub use game::{
    Direction, JumpWindow, Played, Shout, Status, Uno, HAND_SIZE, MAX_SEATS, MAX_SHOUT_CHARS,
    MIN_SEATS,
};
pub use lacks::Lacks;
pub use options::Rules;
pub use recent::{RecentPlay, RecentPlays, TableSeen};
#[cfg(feature = "turn")]
pub use turn::{UnoGame, UnoOptions, OUT_OF_CARDS};
pub use view::{
    CardFace, DeckOrigin, HandCard, HandCount, JumpWindowView, Message, ShoutSeen, UnoView,
};
