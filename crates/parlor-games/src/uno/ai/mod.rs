//! Computer players. `easy` is seed 000's decision tree; `normal` counts cards; `hard` searches
//! over determinised hidden hands with `normal` finishing each game.

pub mod easy;
mod fit;
pub mod hard;
pub mod normal;

use std::time::Instant;

#[cfg(feature = "serde")]
use serde::Serialize;

use super::action::UnoAction;
use super::game::Uno;
use crate::AiLevel;
pub use hard::{Candidate, InfoSet, Limits};

/// `hard`'s iteration cap when only a time budget is given.
pub const DEFAULT_MAX_ITERATIONS: u64 = 1_000_000;

/// What an AI reports about its choice.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Analysis {
    pub level: AiLevel,
    /// Determinised games played (`hard`); 0 for the heuristics.
    pub iterations: u64,
    pub elapsed_ms: u64,
    /// `hard`: every candidate move with its visits and win rate.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub candidates: Vec<Candidate>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Decision {
    pub action: UnoAction,
    pub analysis: Analysis,
}

/// The move `level` makes for `seat`, the seat to act, thinking at most `limits` (`hard`
/// only); `seed` drives `hard`'s sampling, so the same seed and iteration count give the same
/// move. `easy_seats` are the seats the table shows as `easy` bots: `hard` reads their plays
/// as seed 000's tree's (see [`InfoSet::easy_seats`]). A seat that is not to act gets its
/// jump-in (`normal`/`hard`) or `Draw`, which the engine then refuses.
pub fn decide(
    game: &Uno,
    seat: usize,
    level: AiLevel,
    limits: Limits,
    seed: u64,
    easy_seats: &[usize],
) -> Decision {
    let start = Instant::now();
    let (action, iterations, candidates) = match level {
        AiLevel::Easy => (easy::choose(game, seat), 0, Vec::new()),
        AiLevel::Normal => (normal::choose(game, seat), 0, Vec::new()),
        AiLevel::Hard if game.turn() != Some(seat) => (normal::choose(game, seat), 0, Vec::new()),
        AiLevel::Hard => {
            let info = InfoSet::of(game, seat).with_easy_seats(easy_seats);
            let found = hard::search(&info, limits, seed);
            (found.action, found.iterations, found.candidates)
        }
    };
    Decision {
        action,
        analysis: Analysis {
            level,
            iterations,
            elapsed_ms: start.elapsed().as_millis().min(u128::from(u64::MAX)) as u64,
            candidates,
        },
    }
}

/// Whether an AI at `level` in `seat` (not the seat to act) jumps in now: the seed's `easy`
/// never does; `normal` and `hard` do whenever they hold the identical card.
pub fn jump_in(game: &Uno, seat: usize, level: AiLevel) -> Option<UnoAction> {
    match level {
        AiLevel::Easy => None,
        AiLevel::Normal | AiLevel::Hard => normal::jump_in(game, seat),
    }
}
