//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), computed by the
//! `skillratings` crate. Every rated game is its own rating period: a player's rating moves at once
//! when the game ends, against every other seat of the game.
//!
//! Pure arithmetic: the store calls [`after_game`] inside the transaction that finishes the game,
//! with the ratings it has just locked.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use utoipa::ToSchema;

pub use crate::games::AiRatings;

/// A Glicko-2 rating on the familiar (Elo-like) scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"rating": 1562.3, "deviation": 187.4, "volatility": 0.06}))]
pub struct Rating {
    pub rating: f64,
    /// How uncertain the rating is: about a 95 % interval of ±2 deviations.
    pub deviation: f64,
    /// How erratic the player's results are.
    pub volatility: f64,
}

impl Rating {
    /// Where every player starts (Glickman's suggested values).
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// A computer player's fixed rating: its measured strength, held with a small deviation.
    pub const fn fixed(rating: f64) -> Rating {
        Rating {
            rating,
            deviation: AI_DEVIATION,
            volatility: 0.06,
        }
    }

    fn to_glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The deviation an AI level's rating is held at: its rating comes from hundreds of measured games.
pub const AI_DEVIATION: f64 = 50.0;

/// One seat of a finished rated game: its rating before the game and what it scored
/// (1 a win, 0 a loss, ½ a draw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub before: Rating,
    pub points: f64,
}

/// Every seat's rating after the game: one rating period in which each seat met every other,
/// winning against a lower score, losing against a higher one, drawing an equal one.
pub fn after_game(standings: &[Standing]) -> Vec<Rating> {
    let config = Glicko2Config::new();
    standings
        .iter()
        .enumerate()
        .map(|(i, me)| {
            let results: Vec<(Glicko2Rating, Outcomes)> = standings
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, other)| (other.before.to_glicko(), outcome(me.points, other.points)))
                .collect();
            Rating::from_glicko(glicko2_rating_period(
                &me.before.to_glicko(),
                &results,
                &config,
            ))
        })
        .collect()
}

fn outcome(mine: f64, theirs: f64) -> Outcomes {
    if mine > theirs {
        Outcomes::WIN
    } else if mine < theirs {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman's worked example: a 1500/200/0.06 player beats a 1400/30, loses to a 1550/100
    /// and to a 1700/300, with τ = 0.5; the paper's answer is 1464.06, 151.52, 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0).to_glicko(), Outcomes::WIN),
            (opponent(1550.0, 100.0).to_glicko(), Outcomes::LOSS),
            (opponent(1700.0, 300.0).to_glicko(), Outcomes::LOSS),
        ];
        let after = Rating::from_glicko(glicko2_rating_period(
            &player.to_glicko(),
            &results,
            &Glicko2Config::new(),
        ));
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_win_moves_both_players_and_a_draw_between_equals_moves_neither() {
        let start = Standing {
            before: Rating::NEW,
            points: 1.0,
        };
        let after = after_game(&[
            start,
            Standing {
                points: 0.0,
                ..start
            },
        ]);
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!(close(
            after[0].rating - 1500.0,
            1500.0 - after[1].rating,
            1e-9
        ));
        assert!(after[0].deviation < 350.0, "a game makes the rating surer");
        let drawn = after_game(&[
            Standing {
                points: 0.5,
                ..start
            },
            Standing {
                points: 0.5,
                ..start
            },
        ]);
        assert!(close(drawn[0].rating, 1500.0, 1e-9));
    }

    #[test]
    fn beating_a_strong_ai_gains_more_than_beating_a_weak_one() {
        let me = Standing {
            before: Rating::NEW,
            points: 1.0,
        };
        let against = |rating| {
            after_game(&[
                me,
                Standing {
                    before: Rating::fixed(rating),
                    points: 0.0,
                },
            ])[0]
                .rating
        };
        assert!(against(2000.0) > against(1200.0));
    }
}
