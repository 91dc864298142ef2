//! Counting a position ("点目", seed 004). An empty region bordered by stones of one colour only is that
//! colour's territory; a region that touches both colours is split half and half between them (the
//! seed's rule, marked `"?"` in `ownership`). Stones named dead are first taken off the board as
//! prisoners of the other colour, so their points join the region around them.
//!
//! The count works on a plain grid so that it does not depend on the board's internals: index
//! `row * size + col`, row 0 at the bottom, like [`super::vertex::Vertex`].

use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use super::board::Color;

/// How the totals are formed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "openapi", schema(as = GoScoring))]
pub enum Scoring {
    /// Territory plus prisoners (Japanese style); white adds komi.
    #[default]
    Territory,
    /// Stones on the board plus territory (Chinese style); white adds komi.
    Area,
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scoring::Territory => "territory",
            Scoring::Area => "area",
        })
    }
}

/// Stones each colour has taken (`black`: white stones captured by black).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = GoCaptures))]
pub struct Captures {
    pub black: u32,
    pub white: u32,
}

impl Captures {
    pub fn by(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    fn add(&mut self, color: Color, n: u32) {
        match color {
            Color::Black => self.black += n,
            Color::White => self.white += n,
        }
    }
}

/// A position to count: the stones and the prisoners taken so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub size: usize,
    /// `size * size` points, index `row * size + col`, row 0 at the bottom.
    pub grid: Vec<Option<Color>>,
    pub captures: Captures,
}

/// One colour's count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = GoSideScore))]
pub struct SideScore {
    /// Empty points owned, shared regions counting half.
    pub territory: f64,
    /// Living stones on the board.
    pub stones: u32,
    /// Prisoners: stones captured during the game plus the opponent's dead stones.
    pub captures: u32,
    /// What the method adds up, komi included for white.
    pub total: f64,
}

/// The answer of `GET …/score`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = GoScoreReport))]
pub struct ScoreReport {
    pub method: Scoring,
    pub komi: f64,
    pub black: SideScore,
    pub white: SideScore,
    /// `"B+3.5"`, `"W+0.5"` or `"Draw"`.
    pub result: String,
    /// Rows, top row first: `"X"`/`"O"` for a living stone or that colour's territory, `"?"` for a
    /// shared region split half and half, `"."` for a region that touches no stone at all.
    pub ownership: Vec<String>,
}

impl ScoreReport {
    /// Black's total minus white's.
    pub fn margin(&self) -> f64 {
        self.black.total - self.white.total
    }

    /// The winner, `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        let margin = self.margin();
        if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// Formats a result the usual way: `B+3.5`, `W+12`, `Draw`.
pub fn result_text(margin: f64) -> String {
    let amount = margin.abs();
    let amount = if amount.fract() == 0.0 {
        format!("{amount:.0}")
    } else {
        format!("{amount}")
    };
    if margin > 0.0 {
        format!("B+{amount}")
    } else if margin < 0.0 {
        format!("W+{amount}")
    } else {
        "Draw".to_owned()
    }
}

/// What an empty point belongs to once the regions are known.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Stone(Color),
    Territory(Color),
    Shared,
    Neutral,
}

/// Counts `position` with the stones at `dead` (grid indices; empty points are ignored) removed.
pub fn score(position: &Position, dead: &[usize], komi: f64, method: Scoring) -> ScoreReport {
    let size = position.size;
    let mut grid = position.grid.clone();
    let mut captures = position.captures;
    for &p in dead {
        if let Some(color) = grid.get(p).copied().flatten() {
            grid[p] = None;
            captures.add(color.opponent(), 1);
        }
    }

    let mut owner: Vec<Option<Owner>> = grid.iter().map(|s| s.map(Owner::Stone)).collect();
    let mut territory = [0.0f64; 2];
    let mut region = Vec::new();
    for start in 0..grid.len() {
        if owner[start].is_some() {
            continue;
        }
        // Flood one empty region, noting which colours border it.
        region.clear();
        region.push(start);
        owner[start] = Some(Owner::Neutral);
        let (mut touches_black, mut touches_white) = (false, false);
        let mut next = 0;
        while next < region.len() {
            let p = region[next];
            next += 1;
            for q in neighbours(p, size) {
                match grid[q] {
                    Some(Color::Black) => touches_black = true,
                    Some(Color::White) => touches_white = true,
                    None if owner[q].is_none() => {
                        owner[q] = Some(Owner::Neutral);
                        region.push(q);
                    }
                    None => {}
                }
            }
        }
        let points = region.len() as f64;
        let region_owner = match (touches_black, touches_white) {
            (true, false) => {
                territory[0] += points;
                Owner::Territory(Color::Black)
            }
            (false, true) => {
                territory[1] += points;
                Owner::Territory(Color::White)
            }
            (true, true) => {
                territory[0] += points / 2.0;
                territory[1] += points / 2.0;
                Owner::Shared
            }
            (false, false) => Owner::Neutral,
        };
        for &p in &region {
            owner[p] = Some(region_owner);
        }
    }

    let stones = |color| grid.iter().filter(|s| **s == Some(color)).count() as u32;
    let side = |color: Color, territory: f64| {
        let stones = stones(color);
        let captures = captures.by(color);
        let base = match method {
            Scoring::Territory => territory + f64::from(captures),
            Scoring::Area => territory + f64::from(stones),
        };
        let total = if color == Color::White {
            base + komi
        } else {
            base
        };
        SideScore {
            territory,
            stones,
            captures,
            total,
        }
    };
    let black = side(Color::Black, territory[0]);
    let white = side(Color::White, territory[1]);

    let ownership = (0..size)
        .rev()
        .map(|row| {
            (0..size)
                .map(|col| match owner[row * size + col] {
                    Some(Owner::Stone(Color::Black) | Owner::Territory(Color::Black)) => 'X',
                    Some(Owner::Stone(Color::White) | Owner::Territory(Color::White)) => 'O',
                    Some(Owner::Shared) => '?',
                    Some(Owner::Neutral) | None => '.',
                })
                .collect()
        })
        .collect();

    ScoreReport {
        method,
        komi,
        result: result_text(black.total - white.total),
        black,
        white,
        ownership,
    }
}

/// The on-board orthogonal neighbours of grid index `p`.
fn neighbours(p: usize, size: usize) -> impl Iterator<Item = usize> {
    let (col, row) = (p % size, p / size);
    [
        (col > 0).then(|| p - 1),
        (col + 1 < size).then(|| p + 1),
        (row > 0).then(|| p - size),
        (row + 1 < size).then(|| p + size),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a position from rows drawn top row first, `X` black, `O` white.
    fn position(rows: &[&str], captures: Captures) -> Position {
        let size = rows.len();
        let mut grid = vec![None; size * size];
        for (i, line) in rows.iter().enumerate() {
            let row = size - 1 - i;
            assert_eq!(line.len(), size);
            for (col, c) in line.chars().enumerate() {
                grid[row * size + col] = match c {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
            }
        }
        Position {
            size,
            grid,
            captures,
        }
    }

    /// Grid index of a point given as (col, row from the top) in the drawing.
    fn at(size: usize, col: usize, row_from_top: usize) -> usize {
        (size - 1 - row_from_top) * size + col
    }

    #[test]
    fn walls_split_the_board_into_two_territories() {
        let pos = position(
            &["..XO.", "..XO.", "..XO.", "..XO.", "..XO."],
            Captures { black: 2, white: 1 },
        );
        let r = score(&pos, &[], 6.5, Scoring::Territory);
        assert_eq!(r.black.territory, 10.0);
        assert_eq!(r.white.territory, 5.0);
        assert_eq!(r.black.total, 12.0);
        assert_eq!(r.white.total, 5.0 + 1.0 + 6.5);
        assert_eq!(r.result, "W+0.5");
        assert_eq!(r.ownership[0], "XXXOO");

        let r = score(&pos, &[], 6.5, Scoring::Area);
        assert_eq!(r.black.total, 15.0);
        assert_eq!(r.white.total, 10.0 + 6.5);
        assert_eq!(r.result, "W+1.5");
        assert_eq!(r.black.captures, 2, "area still reports prisoners");
    }

    #[test]
    fn a_shared_region_is_split_half_and_half() {
        // The middle column touches both colours: the seed splits its 5 points.
        let pos = position(
            &["XX.OO", "XX.OO", "XX.OO", "XX.OO", "XX.OO"],
            Captures::default(),
        );
        let r = score(&pos, &[], 0.0, Scoring::Territory);
        assert_eq!(r.black.territory, 2.5);
        assert_eq!(r.white.territory, 2.5);
        assert_eq!(r.result, "Draw");
        assert_eq!(r.winner(), None);
        assert!(r.ownership.iter().all(|row| row == "XX?OO"));
    }

    #[test]
    fn seki_like_shared_liberties_are_split_and_eyes_counted() {
        // B5 and B4 are liberties that the black and the white group share (seki-like): the seed
        // splits them. The rest of the board touches white only.
        let pos = position(
            &["X.O..", "X.O..", "XXO..", "OOO..", "....."],
            Captures::default(),
        );
        let r = score(&pos, &[], 0.0, Scoring::Territory);
        assert_eq!(r.ownership, ["X?OOO", "X?OOO", "XXOOO", "OOOOO", "OOOOO"]);
        assert_eq!(r.black.territory, 1.0);
        assert_eq!(r.white.territory, 13.0 + 1.0);
        assert_eq!((r.black.stones, r.white.stones), (4, 6));
        assert_eq!(r.result, "W+13");

        // A one-point shared liberty gives half a point to each side.
        let pos = position(
            &["O.X..", "OOX..", "XXX..", ".....", "....."],
            Captures::default(),
        );
        let r = score(&pos, &[], 0.0, Scoring::Area);
        assert_eq!(r.ownership[0], "O?XXX");
        assert_eq!(r.black.territory, 16.5);
        assert_eq!(r.white.territory, 0.5);
        assert_eq!(r.black.total, 16.5 + 5.0);
        assert_eq!(r.white.total, 0.5 + 3.0);
    }

    /// A white wall on column B, a black wall on column C, and a white stone at D2 on black's side.
    const WALLS: [&str; 5] = [".OX..", ".OX..", ".OX..", ".OXO.", ".OX.."];

    #[test]
    fn dead_stones_become_prisoners_and_their_points_the_captors_territory() {
        let pos = position(&WALLS, Captures { black: 0, white: 3 });
        let dead = [at(5, 3, 3)];
        let r = score(&pos, &dead, 0.5, Scoring::Territory);
        assert_eq!(r.black.captures, 1);
        assert_eq!(r.black.territory, 10.0);
        assert_eq!(r.white.captures, 3);
        assert_eq!(r.white.territory, 5.0);
        assert_eq!(r.ownership[3], "OOXXX");
        assert_eq!(r.black.total, 11.0);
        assert_eq!(r.white.total, 8.5);
        assert_eq!(r.result, "B+2.5");

        // Left on the board, the white stone makes black's side a shared region.
        let r = score(&pos, &[], 0.5, Scoring::Territory);
        assert_eq!(r.ownership[3], "OOXO?");
        assert_eq!(r.ownership[0], "OOX??");
        assert_eq!(r.black.territory, 4.5);
        assert_eq!(r.white.total, 5.0 + 4.5 + 3.0 + 0.5);
        assert_eq!(r.result, "W+8.5");
        // Naming an empty point dead changes nothing.
        assert_eq!(score(&pos, &[at(5, 0, 0)], 0.5, Scoring::Territory), r);
    }

    #[test]
    fn area_counts_stones_and_territory_without_prisoners() {
        let pos = position(&WALLS, Captures { black: 7, white: 3 });
        let r = score(&pos, &[at(5, 3, 3)], 7.0, Scoring::Area);
        assert_eq!((r.black.stones, r.white.stones), (5, 5));
        assert_eq!((r.black.territory, r.white.territory), (10.0, 5.0));
        assert_eq!(r.black.total, 15.0);
        assert_eq!(r.white.total, 17.0);
        assert_eq!(r.black.captures, 8, "area still reports prisoners");
        assert_eq!(r.result, "W+2");
        assert_eq!(r.winner(), Some(Color::White));
    }

    #[test]
    fn an_empty_board_is_neutral() {
        let pos = position(
            &[".....", ".....", ".....", ".....", "....."],
            Captures::default(),
        );
        let r = score(&pos, &[], 6.5, Scoring::Territory);
        assert_eq!(r.black.territory, 0.0);
        assert_eq!(r.white.territory, 0.0);
        assert_eq!(r.result, "W+6.5");
        assert!(r.ownership.iter().all(|row| row == "....."));
    }

    #[test]
    fn results_read_like_go_records() {
        assert_eq!(result_text(3.5), "B+3.5");
        assert_eq!(result_text(-0.5), "W+0.5");
        assert_eq!(result_text(12.0), "B+12");
        assert_eq!(result_text(0.0), "Draw");
    }
}
