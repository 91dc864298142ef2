//! The one list of turn-based games. Adding a game is: write `crates/parlor-games/src/<game>/`, add one line
//! to [`visit_turn_games`]. Routes, the OpenAPI document, the `game` filter of the listing and the
//! leaderboard's games all come from this list.

use super::go::GoGame;
use super::gomoku::GomokuGame;
use super::uno::UnoGame;
use super::TurnGame;

/// Something done once per turn-based game, with the game's type in hand.
pub trait TurnGameVisitor {
    fn visit<G: TurnGame>(&mut self);
}

/// Calls `visitor` once per game, in this order (the order of the documentation, too).
pub fn visit_turn_games(visitor: &mut impl TurnGameVisitor) {
    visitor.visit::<GomokuGame>();
    visitor.visit::<GoGame>();
    visitor.visit::<UnoGame>();
}

/// What the listing and the leaderboard need to know of a game without its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub name: &'static str,
    pub scored: bool,
    pub rated: bool,
}

/// Every turn-based game's name and whether it keeps scores.
pub fn turn_games() -> Vec<GameInfo> {
    struct Collect(Vec<GameInfo>);
    impl TurnGameVisitor for Collect {
        fn visit<G: TurnGame>(&mut self) {
            self.0.push(GameInfo {
                name: G::NAME,
                scored: G::SCORED,
                rated: G::RATINGS.is_some(),
            });
        }
    }
    let mut collect = Collect(Vec::new());
    visit_turn_games(&mut collect);
    collect.0
}

/// The turn-based game called `name`.
pub fn find(name: &str) -> Option<GameInfo> {
    turn_games().into_iter().find(|g| g.name == name)
}
