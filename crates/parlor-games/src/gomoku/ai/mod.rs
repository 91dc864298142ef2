//! Computer players. `easy` is seed 001's one-move scoring heuristic; `normal` and `hard` search.

mod budget;
mod easy;
mod patterns;
mod position;
mod search;
mod table;
mod threat;
mod vcf;
mod vct;

use std::time::{Duration, Instant};

use rand::Rng;
#[cfg(feature = "serde")]
use serde::Serialize;

use super::{Gomoku, Point};
use crate::AiLevel;
use position::Position;
use search::Limits;

/// The move an AI chose and how it got there.
#[derive(Clone, Debug)]
pub struct Decision {
    pub point: Point,
    pub analysis: Analysis,
}

/// What the AI reports about its thinking.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Analysis {
    pub level: AiLevel,
    /// From the mover's point of view. `easy`: the heuristic value of the chosen point. The
    /// searches: the evaluation of the principal variation; a forced win in `n` plies is
    /// `1_000_000 - n`, a forced loss the negative.
    pub score: i32,
    /// Plies searched (0 for `easy`).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    /// The expected continuation, starting with the chosen move.
    pub principal_variation: Vec<Point>,
}

/// Chooses a move for the side to move within about `budget` of thinking (the searches stop on
/// their own clock; `easy` is instant). `hard` searches on `threads` threads, the others on one.
/// `rng` breaks `easy`'s ties, so a seeded rng replays a game exactly; the searches are
/// deterministic on one thread apart from where the clock stops them.
/// Returns `None` only when the game is over.
pub fn choose_move(
    game: &Gomoku,
    level: AiLevel,
    budget: Duration,
    threads: usize,
    rng: &mut impl Rng,
) -> Option<Decision> {
    if game.is_over() {
        return None;
    }
    let start = Instant::now();
    let elapsed_ms = |start: Instant| start.elapsed().as_millis().min(u128::from(u64::MAX)) as u64;
    if level == AiLevel::Easy {
        let (point, score, nodes) = easy::choose(game, rng)?;
        return Some(Decision {
            point,
            analysis: Analysis {
                level,
                score,
                depth: 0,
                nodes,
                elapsed_ms: elapsed_ms(start),
                principal_variation: vec![point],
            },
        });
    }

    let limits = match level {
        AiLevel::Easy => unreachable!("handled above"),
        AiLevel::Normal => normal_limits(budget),
        AiLevel::Hard => hard_limits(budget),
    };
    let pos = Position::from_game(game);
    let threads = if level == AiLevel::Hard { threads } else { 1 };
    let found = search::search(pos.clone(), limits, start, threads);
    Some(Decision {
        point: pos.point(found.best),
        analysis: Analysis {
            level,
            score: found.score,
            depth: found.depth,
            nodes: found.nodes,
            elapsed_ms: elapsed_ms(start),
            principal_variation: found.pv.iter().map(|&i| pos.point(i)).collect(),
        },
    })
}

/// The part of the budget a search may use. The clock is wall time on a possibly busy machine:
/// a thread can lose the CPU right at its deadline, so a fifth of the budget (at most 40 ms)
/// is kept in reserve.
fn usable(budget: Duration) -> Duration {
    budget.saturating_sub((budget / 5).min(Duration::from_millis(40)))
}

/// `normal`: four plies, narrow, a third of the budget at most, short VCFs only.
fn normal_limits(budget: Duration) -> Limits {
    let usable = usable(budget);
    Limits {
        max_depth: 4,
        soft: usable / 8,
        hard: usable / 3,
        root_vcf_fours: 8,
        root_vcf_nodes: 5_000,
        root_vct_threats: 0,
        root_vct_nodes: 0,
        root_width: 12,
        width: 8,
    }
}

/// `hard`: everything, as deep as the budget allows. An iteration cut short by the clock still
/// counts for the root moves it finished, so iterations go on until the budget is spent.
fn hard_limits(budget: Duration) -> Limits {
    let usable = usable(budget);
    Limits {
        max_depth: 40,
        soft: usable,
        hard: usable,
        root_vcf_fours: 24,
        root_vcf_nodes: 50_000,
        root_vct_threats: 4,
        root_vct_nodes: 50_000,
        root_width: 20,
        width: 12,
    }
}

/// Positions shared by the AI tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::super::{Gomoku, Point, Rule};

    pub(crate) fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// A 15x15 freestyle game where black played `black` and white `white`, alternating from
    /// black; `white` may have one move fewer than `black` (white to move) or as many (black
    /// to move).
    pub(crate) fn position(black: &[&str], white: &[&str]) -> Gomoku {
        position_with(Rule::Freestyle, black, white)
    }

    /// [`position`] under `rule`.
    pub(crate) fn position_with(rule: Rule, black: &[&str], white: &[&str]) -> Gomoku {
        assert!(black.len() == white.len() || black.len() == white.len() + 1);
        let mut game = Gomoku::new(15, rule).unwrap();
        for (i, b) in black.iter().enumerate() {
            game.play(pt(b)).unwrap();
            if let Some(w) = white.get(i) {
                game.play(pt(w)).unwrap();
            }
        }
        assert!(!game.is_over());
        game
    }

    /// Black has two closed threes (c3 d3 e3 against b3, c6 d6 e6 against b6) and f4 f5:
    /// f3 or f6 is a four whose forced answer lets the other make a double four.
    pub(crate) fn short_vcf() -> Gomoku {
        position(
            &["c3", "d3", "e3", "f4", "f5", "c6", "d6", "e6"],
            &["b3", "b6", "f7", "a1", "o1", "a15", "o15", "h15"],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{position, position_with, pt, short_vcf};
    use super::*;
    use crate::gomoku::{Rule, Stone};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const LEVELS: [AiLevel; 2] = [AiLevel::Normal, AiLevel::Hard];

    fn decide(game: &Gomoku, level: AiLevel, ms: u64) -> Decision {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        choose_move(game, level, Duration::from_millis(ms), 1, &mut rng).unwrap()
    }

    #[test]
    fn opens_in_the_centre() {
        for level in LEVELS {
            let d = decide(&Gomoku::default(), level, 50);
            assert_eq!(d.point, pt("h8"));
            assert_eq!(d.analysis.level, level);
        }
        let small = Gomoku::new(9, Rule::Freestyle).unwrap();
        assert_eq!(decide(&small, AiLevel::Hard, 50).point, pt("e5"));
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let mut game = position(&["a1", "b1", "c1", "d1"], &["a9", "b9", "c9", "d9"]);
        game.play(pt("e1")).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for level in [AiLevel::Easy, AiLevel::Normal, AiLevel::Hard] {
            assert!(choose_move(&game, level, Duration::from_millis(10), 1, &mut rng).is_none());
        }
    }

    #[test]
    fn takes_an_immediate_win() {
        // Black to move with h8..k8 (g8 blocked): l8 wins at once, for either colour's AI.
        let game = position(&["h8", "i8", "j8", "k8"], &["g8", "a1", "a3", "a5"]);
        for level in LEVELS {
            let d = decide(&game, level, 100);
            assert_eq!(d.point, pt("l8"), "{level:?}");
            assert!(d.analysis.score > 900_000);
        }
        // The same shape for white.
        let game = position(&["g8", "a1", "a3", "a5", "c13"], &["h8", "i8", "j8", "k8"]);
        assert_eq!(game.next(), Stone::White);
        for level in LEVELS {
            assert_eq!(decide(&game, level, 100).point, pt("l8"), "{level:?}");
        }
    }

    #[test]
    fn an_overline_only_wins_in_freestyle() {
        // Black b8 c8 . e8 f8 g8: d8 makes six. White h2..k2 is a four (g2 is black's): under
        // freestyle black wins at d8, under standard it must block at l2.
        let black = ["b8", "c8", "e8", "f8", "g8", "g2"];
        let white = ["h2", "i2", "j2", "k2", "a1", "a15"];
        for level in LEVELS {
            let free = position_with(Rule::Freestyle, &black, &white);
            assert_eq!(decide(&free, level, 100).point, pt("d8"), "{level:?}");
            let standard = position_with(Rule::Standard, &black, &white);
            assert_eq!(decide(&standard, level, 100).point, pt("l2"), "{level:?}");
        }
    }

    /// Black f8 g8 and h9 h10: h8 makes two open threes, which wins under freestyle (white has
    /// no four) and is forbidden to black under renju. White has i9 j10 k11 on the diagonal
    /// through h8, closed by black's g7 and m13.
    fn double_three_at_h8(rule: Rule, white_to_move: bool) -> Gomoku {
        let black = ["f8", "g8", "h9", "h10", "g7", "m13"];
        let white = ["i9", "j10", "k11", "a1", "a15", "o1"];
        let white = &white[..if white_to_move { 5 } else { 6 }];
        position_with(rule, &black, white)
    }

    #[test]
    fn renju_black_never_takes_a_forbidden_point() {
        for level in LEVELS {
            let free = double_three_at_h8(Rule::Freestyle, false);
            assert_eq!(decide(&free, level, 100).point, pt("h8"), "{level:?}");
            let renju = double_three_at_h8(Rule::Renju, false);
            assert!(renju.forbidden_shape(pt("h8")).is_some());
            let d = decide(&renju, level, 100);
            assert!(
                renju.forbidden_shape(d.point).is_none(),
                "{level:?}: {}",
                d.point
            );
        }
    }

    #[test]
    fn renju_white_aims_at_a_point_black_may_not_take() {
        // l12 makes white's four i9-l12 (m13 is black's), whose only five point is h8: black
        // may not block there, so under renju the four wins at once.
        let renju = double_three_at_h8(Rule::Renju, true);
        assert_eq!(renju.next(), Stone::White);
        for level in LEVELS {
            let d = decide(&renju, level, 100);
            assert_eq!(d.point, pt("l12"), "{level:?}");
            assert!(d.analysis.score > 900_000, "{level:?} sees the win");
        }
    }

    #[test]
    fn blocks_a_four() {
        // White h8..k8 against black g8: black must take l8.
        let game = position(&["g8", "a1", "a3", "n14"], &["h8", "i8", "j8", "k8"]);
        assert_eq!(game.next(), Stone::Black);
        for level in LEVELS {
            assert_eq!(decide(&game, level, 100).point, pt("l8"), "{level:?}");
        }
    }

    #[test]
    fn answers_an_open_three() {
        // White h8 i8 j8 with room on both sides; black has nothing. Only g8 and k8 hold: after
        // a far block (f8, l8) white still makes an open four on the other side.
        let game = position(&["b2", "n2", "b14"], &["h8", "i8", "j8"]);
        for level in LEVELS {
            let d = decide(&game, level, 150);
            assert!(
                ["g8", "k8"].contains(&d.point.to_string().as_str()),
                "{level:?}: {}",
                d.point
            );
        }
    }

    #[test]
    fn hard_on_several_threads_answers_like_one() {
        let three = position(&["b2", "n2", "b14"], &["h8", "i8", "j8"]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for threads in [2, 3] {
            let d = choose_move(
                &three,
                AiLevel::Hard,
                Duration::from_millis(150),
                threads,
                &mut rng,
            )
            .unwrap();
            assert!(
                ["g8", "k8"].contains(&d.point.to_string().as_str()),
                "{threads}: {}",
                d.point
            );
            assert_eq!(d.analysis.principal_variation[0], d.point);
            let d = choose_move(
                &short_vcf(),
                AiLevel::Hard,
                Duration::from_millis(150),
                threads,
                &mut rng,
            )
            .unwrap();
            assert!(d.analysis.score > 900_000, "{threads} threads see the win");
        }
    }

    #[test]
    fn finds_a_short_vcf() {
        let game = short_vcf();
        for level in LEVELS {
            let d = decide(&game, level, 200);
            assert!(
                ["f3", "f6"].contains(&d.point.to_string().as_str()),
                "{level:?}: {}",
                d.point
            );
            assert!(d.analysis.score > 900_000, "{level:?} sees the win");
            assert!(d.analysis.principal_variation.len() >= 3);
        }
    }

    #[test]
    fn respects_a_small_budget() {
        // A busy middle game with threats for both sides.
        let game = position(
            &["h8", "i9", "g9", "j7", "h10", "f8", "k9"],
            &["i8", "h9", "j9", "g7", "i7", "f9", "e10"],
        );
        for (level, budget) in [
            (AiLevel::Hard, 30),
            (AiLevel::Hard, 5),
            (AiLevel::Normal, 30),
        ] {
            let started = Instant::now();
            let d = decide(&game, level, budget);
            let took = started.elapsed().as_millis() as u64;
            assert!(took <= budget + 10, "{level:?} took {took} ms of {budget}");
            assert!(d.analysis.elapsed_ms <= budget + 10);
            assert!(game.stone_at(d.point).is_none());
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn analysis_serializes() {
        let d = decide(&short_vcf(), AiLevel::Hard, 100);
        let json = serde_json::to_value(&d.analysis).unwrap();
        assert_eq!(json["level"], "hard");
        assert_eq!(json["principal_variation"][0], d.point.to_string());
        let easy = decide(&short_vcf(), AiLevel::Easy, 100);
        assert_eq!(easy.analysis.depth, 0);
        assert_eq!(easy.analysis.principal_variation, vec![easy.point]);
    }

    /// Plays a whole game; returns the winner.
    fn play_out(black: AiLevel, white: AiLevel, ms: u64, seed: u64) -> Option<Stone> {
        let mut game = Gomoku::default();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !game.is_over() {
            let level = if game.next() == Stone::Black {
                black
            } else {
                white
            };
            let d = choose_move(&game, level, Duration::from_millis(ms), 1, &mut rng).unwrap();
            game.play(d.point).unwrap();
        }
        game.outcome().unwrap().winner
    }

    #[test]
    fn hard_beats_easy_from_both_sides() {
        assert_eq!(
            play_out(AiLevel::Hard, AiLevel::Easy, 50, 11),
            Some(Stone::Black)
        );
        assert_eq!(
            play_out(AiLevel::Easy, AiLevel::Hard, 50, 12),
            Some(Stone::White)
        );
    }
}
