//! The `easy` level: seed 001's `calculateScore` / `actionByAI`, kept quirk for quirk.
//!
//! The seed played the AI as white against a human black. Here "itself" is the side to move and
//! "the opponent" is the other side, so the heuristic works for either colour.
//!
//! The seed's text lost its `+` signs in copying (`row i * y` is `row + i * y`,
//! `scoreMap[row][col] = 10` is `+= 10`): scores add up over the four directions and both colours.
//!
//! Quirks copied on purpose, because `easy` *is* the seed's player:
//! - the seed's board is indexed `[row][col]` with row 0 at the TOP, so its row `r` is our row
//!   `size - 1 - r`;
//! - the scan of the opponent's stones checks bounds with `>= 0`, but the scan of its own stones
//!   uses `> 0`, so for its own stones the seed's row 0 (our top row) and column 0 (`a`) count as
//!   off the board (even the candidate's own row or column, for the direction along it);
//! - an empty-count of 0 adds nothing to the "two" and "three" cases;
//! - the opponent's count must be exactly 4 (`== 4`): an overline point adds nothing, whereas
//!   its own count uses `>= 4`;
//! - its own count of 0 still adds 5 per direction, so every empty point scores at least 20 on
//!   an open board and the first move of a game is uniformly random.

use rand::Rng;

use super::super::{Gomoku, Point, Stone};

/// The seed's four directions as (x = column step, y = row step), each scanned both ways.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (1, 1), (0, 1), (-1, 1)];

/// The heuristic score of every point, in the seed's layout: `map[r][c]` with `r = 0` the TOP
/// row. Occupied points score 0.
pub(crate) fn score_map(game: &Gomoku) -> Vec<Vec<i32>> {
    let size = i32::from(game.size());
    let me = game.next();
    let them = me.opponent();
    // The seed's chessMap[row][col] with row 0 at the top.
    let at = |r: i32, c: i32| game.stone_at(Point::new(c as u8, (size - 1 - r) as u8));

    // Counts `stone`s contiguous with (row, col) along (x, y) in both directions, up to four
    // each way, and how many of the two runs ended on an empty point. `low` is the smallest
    // index the seed treats as on the board: 0 for the opponent scan, 1 for the own scan.
    let scan = |row: i32, col: i32, (x, y): (i32, i32), low: i32, stone: Stone| {
        let mut count = 0;
        let mut empty = 0;
        for sign in [1, -1] {
            for i in 1..=4 {
                let r = row + sign * i * y;
                let c = col + sign * i * x;
                if r < low || r >= size || c < low || c >= size {
                    break;
                }
                match at(r, c) {
                    Some(s) if s == stone => count += 1,
                    None => {
                        empty += 1;
                        break;
                    }
                    Some(_) => break,
                }
            }
        }
        (count, empty)
    };

    let mut map = vec![vec![0; size as usize]; size as usize];
    for row in 0..size {
        for col in 0..size {
            if at(row, col).is_some() {
                continue;
            }
            let mut score = 0;
            for direction in DIRECTIONS {
                // The opponent's stones ("personNum"): bounds are `>= 0`.
                score += match scan(row, col, direction, 0, them) {
                    (1, _) => 10,
                    (2, 1) => 30,
                    (2, 2) => 40,
                    (3, 1) => 60,
                    (3, 2) => 200,
                    (4, _) => 20000,
                    _ => 0,
                };
                // Its own stones ("botNum"): the seed's bounds are `> 0` here (quirk kept).
                score += match scan(row, col, direction, 1, me) {
                    (0, _) => 5,
                    (1, _) => 10,
                    (2, 1) => 25,
                    (2, 2) => 50,
                    (3, 1) => 55,
                    (3, 2) => 300,
                    (n, _) if n >= 4 => 30000,
                    _ => 0,
                };
            }
            map[row as usize][col as usize] = score;
        }
    }
    map
}

/// The seed's `actionByAI`: the highest-scoring empty point, ties broken uniformly at random.
/// Under renju, black's forbidden points are skipped (the seed knew no renju). Returns the point
/// and its score, or `None` when no point is left.
pub(crate) fn choose(game: &Gomoku, rng: &mut impl Rng) -> Option<(Point, i32, u64)> {
    let map = score_map(game);
    // Empty except under renju with black to move.
    let forbidden = if game.next() == Stone::Black {
        game.forbidden_points()
    } else {
        Vec::new()
    };
    let size = usize::from(game.size());
    let mut best = 0;
    let mut ties: Vec<Point> = Vec::new();
    let mut scored = 0u64;
    // Scan in the seed's order (top row first) so a seeded rng picks the way the seed would.
    for (r, line) in map.iter().enumerate() {
        for (c, &score) in line.iter().enumerate() {
            let p = Point::new(c as u8, (size - 1 - r) as u8);
            if game.stone_at(p).is_some() || forbidden.contains(&p) {
                continue;
            }
            scored += 1;
            if score > best {
                best = score;
                ties.clear();
                ties.push(p);
            } else if score == best {
                ties.push(p);
            }
        }
    }
    if ties.is_empty() {
        return None;
    }
    let pick = ties[rng.gen_range(0..ties.len())];
    Some((pick, best, scored))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::Rule;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn game(moves: &str) -> Gomoku {
        let moves: Vec<Point> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        Gomoku::from_moves(9, Rule::Freestyle, &moves).unwrap()
    }

    /// Score of our point `p` from the seed-layout map.
    fn score(game: &Gomoku, p: &str) -> i32 {
        let p: Point = p.parse().unwrap();
        let size = usize::from(game.size());
        score_map(game)[size - 1 - usize::from(p.row)][usize::from(p.col)]
    }

    #[test]
    fn empty_board_scores_twenty_everywhere_but_the_quirky_edges() {
        let g = game("");
        // Away from the top row and column a: 4 directions x own-count 0 -> 5 each.
        assert_eq!(score(&g, "e5"), 20);
        // Every point has own-count 0 in every direction (there are no stones), so the `> 0`
        // bound changes nothing yet: the whole board ties.
        assert_eq!(score(&g, "a9"), 20);
        assert_eq!(score(&g, "a1"), 20);
    }

    #[test]
    fn hand_checked_scores_after_one_black_stone() {
        // Black e5; white (the side to move) is scored. For white, black is the opponent.
        let g = game("e5");
        // d5: horizontal has one black neighbour (+10); own scan 0 stones in every direction
        // (+5 x 4 = 20). Total 30.
        assert_eq!(score(&g, "d5"), 30);
        // d4: diagonal neighbour -> +10, plus 20 for own-count 0: 30.
        assert_eq!(score(&g, "d4"), 30);
        // c5: not adjacent (the scan stops at the empty d5): 20.
        assert_eq!(score(&g, "c5"), 20);
        assert_eq!(score(&g, "e5"), 0, "occupied points score 0");
    }

    #[test]
    fn dead_and_live_counts() {
        // Black d5 e5, white f5 (blocks the right side), black to move... make it white to move:
        // black d5 e5 g1, white f5 a1 -> white to move after 5 moves.
        let g = game("d5 f5 e5 a1 i1");
        assert_eq!(g.next(), Stone::White);
        // c5 for white: opponent scan to the right sees d5 e5 then f5 (white): count 2, left
        // sees b5 empty: empty 1 -> dead three 30. Own scan: horizontal right stops at d5
        // (black): 0 own -> 5. Other three directions: nothing, own 0 -> 15.
        // Total 30 + 5 + 15 = 50.
        assert_eq!(score(&g, "c5"), 50);
        // g5 for white: opponent scan left sees f5 (white) -> 0. Own scan left: f5 white (1),
        // then e5 black stops: own 1, right h5 empty -> +10. Diagonals/vertical: own 0 -> 15.
        // Total 25.
        assert_eq!(score(&g, "g5"), 25);
    }

    #[test]
    fn live_three_of_own_and_block_four() {
        // White (to move) has c5 d5 open on both sides; black has b2 c2 d2 e2.
        let g = game("b2 c5 c2 d5 d2 a9 e2");
        assert_eq!(g.next(), Stone::White);
        // e5 for white: own horizontal c5 d5 + empty f5 and empty b5 -> own 2, empty 2 -> 50.
        // Other directions own 0: 15. Opponent: vertical down e4 empty, e3 empty... stops at
        // e4 (empty) -> 0; diagonal d4 empty -> 0. Total 65.
        assert_eq!(score(&g, "e5"), 65);
        // f2: opponent run b2..e2 = 4 -> 20000; own 0 x 4 = 20. Total 20020.
        assert_eq!(score(&g, "f2"), 20020);
        // a2: same four from the other side, but own scan at column a: the `> 0` quirk makes
        // every own neighbour off-board; own 0 -> 5 x 4 still. Total 20020.
        assert_eq!(score(&g, "a2"), 20020);
    }

    #[test]
    fn own_scan_treats_top_row_and_column_a_as_off_board() {
        // White (to move) has a5 and a6; a column-a point sees them only through the opponent
        // scan bounds, never the own scan.
        let g = game("e5 a5 e6 a6 i1");
        assert_eq!(g.next(), Stone::White);
        // a4 for white: vertical own scan looks at column a, which the `> 0` bound treats as
        // off the board -> own 0 -> +5 instead of the 2-stone live/dead score. Opponent: none
        // adjacent. Other directions: own 0 -> 15. Total 20.
        assert_eq!(score(&g, "a4"), 20);
        // b4 for white (column b is on the board for the own scan): diagonal up-left is a5
        // (column a: off) -> 0; every direction own 0 -> 20.
        assert_eq!(score(&g, "b4"), 20);
        // The same stones one column to the right do count: white b5 b6 -> b4 vertical own 2,
        // ends b3 empty and b7 empty -> live 50. Other directions 15: 65.
        let h = game("e5 b5 e6 b6 i1");
        assert_eq!(score(&h, "b4"), 65);
        // Top row (row 9 is the seed's row 0): white h9 i9? Use white c9 d9 and score e9:
        // the horizontal own scan runs along the seed's row 0 -> off board -> 5.
        let t = game("e5 c9 e6 d9 i1");
        assert_eq!(score(&t, "e9"), 20);
        // The opponent scan has no such quirk: black stones on the top row are seen from b9.
        let u = game("c9 a1 d9 a3 e9");
        // b9 for white: opponent run c9 d9 e9 = 3, left a9 empty, right f9 empty -> 200; own 0
        // in all four directions -> 20. Total 220.
        assert_eq!(score(&u, "b9"), 220);
    }

    #[test]
    fn opponent_overline_point_scores_nothing_but_own_overline_does() {
        // Black a5 b5 c5 _ e5 f5: d5 would make six for black. White to move.
        let g = game("a5 a1 b5 b1 c5 i1 e5 i3 f5");
        assert_eq!(g.next(), Stone::White);
        // d5: opponent count 5 -> the seed's `== 4` adds nothing; own 0 -> 20.
        assert_eq!(score(&g, "d5"), 20);
    }

    #[test]
    fn skips_black_forbidden_points_under_renju() {
        // Black h9 h10 i8 j8: h8 joins two open twos, the best point by far, and under renju
        // a double three.
        let moves: Vec<Point> = "h9 a1 h10 a3 i8 a5 j8 a7"
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        let h8: Point = "h8".parse().unwrap();
        let free = Gomoku::from_moves(15, Rule::Freestyle, &moves).unwrap();
        let renju = Gomoku::from_moves(15, Rule::Renju, &moves).unwrap();
        assert_eq!(renju.forbidden_points(), vec![h8]);
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            assert_eq!(choose(&free, &mut rng).unwrap().0, h8);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let (p, _, scored) = choose(&renju, &mut rng).unwrap();
            assert_ne!(p, h8);
            assert_eq!(scored, 15 * 15 - 8 - 1);
        }
    }

    #[test]
    fn picks_the_best_and_is_reproducible() {
        let g = game("b2 c5 c2 d5 d2 a9 e2");
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (p, score, _) = choose(&g, &mut rng).unwrap();
        assert!(["a2", "f2"].contains(&p.to_string().as_str()));
        assert_eq!(score, 20020);

        // On an empty board every point ties: the choice depends only on the seed.
        let empty = game("");
        let picks = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..5)
                .map(|_| choose(&empty, &mut rng).unwrap().0)
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(1), picks(1));
        assert_ne!(picks(1), picks(2));
    }
}
