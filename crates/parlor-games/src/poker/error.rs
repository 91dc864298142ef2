use super::card::Card;

/// A well-formed request the rules cannot serve: the HTTP layer answers 422, or 409 for
/// [`NothingDrawn`](PokerError::NothingDrawn) (the deck's state, like a game's nothing to undo).
///
/// (A malformed card code is a [`ParseCardError`](super::ParseCardError) instead: 400.)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PokerError {
    #[error("card {card} appears more than once, but one deck holds each card once")]
    DuplicateCard { card: Card },
    #[error("{count} jokers given, but one deck holds only 5")]
    TooManyJokers { count: usize },
    #[error("{players} players asked for; a deal seats 2 to 11 players")]
    PlayerCount { players: usize },
    #[error("{hands} hands given; a comparison takes 2 to 11 hands")]
    HandCount { hands: usize },
    #[error("cannot draw {count} cards; a draw takes 1 to 57 cards")]
    DrawCount { count: usize },
    #[error("cannot draw {requested} cards: only {remaining} are left in the deck")]
    NotEnoughCards { requested: usize, remaining: usize },
    #[error("no card has been drawn, so there is none to take back")]
    NothingDrawn,
}
