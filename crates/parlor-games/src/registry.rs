//! The one list of turn-based games. Adding a game is: write `crates/parlor-games/src/<game>/`, add one line
//! to [`BuiltinGames`]. Routes, the OpenAPI document, the `game` filter of the listing, the
//! leaderboard's games and the conformance suite all come from the list an app is built with.

use super::go::GoGame;
use super::gomoku::GomokuGame;
use super::uno::UnoGame;
use super::TurnGame;

/// Something done once per turn-based game, with the game's type in hand.
pub trait TurnGameVisitor {
    fn visit<G: TurnGame>(&mut self);
}

/// A list of turn-based games an app serves: `main` serves [`BuiltinGames`]; a test may serve
/// those and a game of its own.
pub trait Games: 'static {
    /// Calls `visitor` once per game, in the order of the documentation.
    fn visit(visitor: &mut impl TurnGameVisitor);
}

/// The games Parlor ships.
pub struct BuiltinGames;

impl Games for BuiltinGames {
    fn visit(visitor: &mut impl TurnGameVisitor) {
        visitor.visit::<GomokuGame>();
        visitor.visit::<GoGame>();
        visitor.visit::<UnoGame>();
    }
}

/// What the listing and the leaderboard need to know of a game without its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub name: &'static str,
    pub scored: bool,
    pub rated: bool,
}

/// Every game of `R`: its name and whether it keeps scores or ratings.
pub fn turn_games<R: Games>() -> Vec<GameInfo> {
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
    R::visit(&mut collect);
    collect.0
}
