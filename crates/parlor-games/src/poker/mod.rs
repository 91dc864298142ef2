//! Poker with a 57-card deck (52 cards and 5 jokers), after seed 003: hands of five, jokers wild,
//! and the seed's own tie rules (docs/RULES.md, Poker). Pure rules: no I/O.
//!
//! - [`card`]: cards, codes (`"TS"`, `"10s"`, `"JK"`), the deck.
//! - [`eval`]: [`strength`] (fast: table lookups, no allocation) and [`evaluate`] (category and
//!   the `best` interpretation).
//! - [`compare`]: one-deck validation, ranking, the showdown.
//! - [`deck`]: the seeded shuffle, [`deal`], and [`Deck`] sessions (draw, undo, re-select).
//!
//! Errors: a malformed card code is a [`ParseCardError`] (HTTP 400); a well-formed but
//! impossible request is a [`PokerError`] (HTTP 422).

pub mod card;
pub mod category;
pub mod compare;
pub mod deck;
pub mod error;
pub mod eval;

pub use card::{
    full_deck, Card, ParseCardError, ParseCardReason, Rank, Suit, DECK_SIZE, HAND_SIZE,
    JOKERS_IN_DECK,
};
pub use category::Category;
pub use compare::{
    compare, ranking, showdown, validate_one_deck, SeatEval, Showdown, MAX_PLAYERS, MIN_PLAYERS,
};
pub use deck::{deal, shuffled_deck, Deck};
pub use error::PokerError;
pub use eval::{category_of, evaluate, strength, BestCard, Eval};
