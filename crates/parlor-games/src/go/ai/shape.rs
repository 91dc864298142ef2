//! Learned move weights for the tree's priors (Coulom's "Elo ratings of move patterns"): every
//! candidate move is described by one level in each of a few feature groups (the 3×3 shape
//! around it with atari marks, capture, escape, atari, self-atari, distance to the last move,
//! line), each level has a weight γ, and a move's strength is the product of its levels'
//! weights: the chance that it is the move played is its strength over the sum of all.
//!
//! The weights (`shape_weights.txt`) are fitted by minorization–maximization to the moves GNU Go
//! chose in self-play (`examples/go_pattern_train.rs`, games from `tools/go_teacher_games.py`).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::super::board::{Board, Color, Pt, BORDER, EMPTY};
use super::pattern::OFFSETS;
use super::{ladder, playout};

/// Feature groups: shape, capture, escape, atari, self-atari, distance to the last move, line.
pub const GROUPS: usize = 7;
/// Levels of each group after the shape (whose level is a canonical 3×3 code).
pub const LEVELS: [u32; GROUPS] = [0, 5, 4, 3, 3, 12, 10];
pub const GROUP_NAMES: [&str; GROUPS] = [
    "shape",
    "capture",
    "escape",
    "atari",
    "self-atari",
    "distance",
    "line",
];

/// A candidate's level in every group; the shape's is its raw 3×3 code (see [`canonical`]).
pub type Features = [u32; GROUPS];

/// Bit offsets of the eight neighbours in a shape code: the four orthogonal ones take three
/// bits (empty, own, enemy, border, own in atari, enemy in atari), the diagonals two.
const SHIFT: [u32; 8] = [0, 3, 6, 9, 12, 14, 16, 18];
const WIDTH: [u32; 8] = [3, 3, 3, 3, 2, 2, 2, 2];
/// Shape codes fit in 20 bits.
pub const SHAPE_CODES: usize = 1 << 20;

/// The features of `color` playing the empty, legal point `p`; `last` is the opponent's last
/// stone.
pub fn features(board: &Board, color: Color, p: Pt, last: Option<Pt>) -> Features {
    let own = color.cell();
    let (in_atari, several) = board.liberty_classes(p);
    let code = board.neighbourhood(p);
    let mut shape = 0;
    for (slot, shift) in SHIFT.iter().enumerate() {
        let cell = (code >> (2 * slot)) as u8 & 3;
        let mut value: u32 = match cell {
            EMPTY => 0,
            BORDER => 3,
            c if c == own => 1,
            _ => 2,
        };
        if slot < 4 && (value == 1 || value == 2) && in_atari >> (2 * slot) & 1 == 1 {
            value += 3;
        }
        shape |= value << shift;
    }

    // Enemy chains in atari around `p` are captured; a capture that frees an own chain in
    // atari is a rescue.
    let mut captured = 0;
    let mut rescue = false;
    for n in board.chains_among(p, board.stones_next_to(color.opponent(), p) & in_atari) {
        captured += board.chain_len(n);
        rescue |= board
            .chain(n)
            .any(|s| board.stones_next_to(color, s) & board.liberty_classes(s).0 != 0);
    }
    let capture = match captured {
        0 => 0,
        _ if rescue => 4,
        1 => 1,
        2 | 3 => 2,
        _ => 3,
    };

    let self_atari = playout::is_self_atari(board, color, p);
    let own_next = board.stones_next_to(color, p);
    let escape = if own_next & in_atari == 0 || captured > 0 {
        0
    } else if self_atari {
        1
    } else if ladder::caught_after(board, color, p) {
        2
    } else {
        3
    };

    // An atari that is no self-atari: 1 when the ladder that follows captures, else 2.
    let mut atari = 0;
    let mut targets = board.stones_next_to(color.opponent(), p) & several;
    while targets != 0 && !self_atari && atari != 1 {
        let n = board.slot_neighbour(p, targets.trailing_zeros() as usize / 2);
        targets &= targets - 1;
        if board.chain_liberties(n) == 2 {
            atari = if ladder::captures(board, color, p, n) {
                1
            } else {
                2
            };
        }
    }

    let self_atari = match (self_atari, own_next != 0) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    };

    let (col, row) = board.col_row(p);
    let distance = last.map_or(0, |last| {
        let (lc, lr) = board.col_row(last);
        let (dx, dy) = (col.abs_diff(lc), row.abs_diff(lr));
        match dx + dy + dx.max(dy) {
            d @ 2..=8 => d as u32 - 1,
            9 | 10 => 8,
            11..=13 => 9,
            14..=17 => 10,
            _ => 11,
        }
    });

    let size = board.size();
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row).min(4) as u32;
    let open = open_around(board, col, row);
    [
        shape,
        capture,
        escape,
        atari,
        self_atari,
        distance,
        line * 2 + u32::from(open),
    ]
}

/// Whether no stone lies within two lines of (`col`, `row`) (a 5×5 square).
fn open_around(board: &Board, col: usize, row: usize) -> bool {
    let size = board.size();
    let (c0, c1) = (col.saturating_sub(2), (col + 2).min(size - 1));
    (row.saturating_sub(2)..=(row + 2).min(size - 1)).all(|r| {
        let first = board.pt(c0, r).idx();
        board.cells[first..=first + c1 - c0]
            .iter()
            .all(|&cell| cell == EMPTY)
    })
}

/// The eight symmetries of the square as maps of the neighbour slots.
fn symmetries() -> &'static [[usize; 8]; 8] {
    static MAPS: OnceLock<[[usize; 8]; 8]> = OnceLock::new();
    MAPS.get_or_init(slot_maps)
}

fn slot_maps() -> [[usize; 8]; 8] {
    type Transform = fn(i32, i32) -> (i32, i32);
    let transforms: [Transform; 8] = [
        |x, y| (x, y),
        |x, y| (-y, x),
        |x, y| (-x, -y),
        |x, y| (y, -x),
        |x, y| (-x, y),
        |x, y| (x, -y),
        |x, y| (y, x),
        |x, y| (-y, -x),
    ];
    transforms.map(|t| {
        std::array::from_fn(|slot| {
            let (x, y) = OFFSETS[slot];
            let to = t(x, y);
            OFFSETS.iter().position(|&o| o == to).expect("a neighbour")
        })
    })
}

/// The smallest code among the eight symmetric images of the shape `code`: one name per shape.
pub fn canonical(code: u32) -> u32 {
    symmetries()
        .iter()
        .map(|map| {
            (0..8).fold(0, |image, slot| {
                let value = (code >> SHIFT[slot]) & ((1 << WIDTH[slot]) - 1);
                image | value << SHIFT[map[slot]]
            })
        })
        .min()
        .expect("eight images")
}

/// The weights: a direct table for the shape codes (every symmetric image filled in) and one
/// list per other group.
pub struct Weights {
    shape: Vec<f32>,
    groups: [Vec<f32>; GROUPS],
}

impl Weights {
    /// The strength of a move with `features`: the product of its levels' weights.
    pub fn strength(&self, features: &Features) -> f32 {
        let levels = features[1..].iter().zip(&self.groups[1..]);
        levels.fold(
            self.shape[features[0] as usize],
            |strength, (&level, weights)| strength * weights[level as usize],
        )
    }

    /// Parses the weights file: `group level gamma` per line, the shape's level a canonical code;
    /// shapes not listed get the `shape rare` weight. Levels left out weigh 1.
    pub fn parse(text: &str) -> Weights {
        let mut rare = 1.0;
        let mut shapes = HashMap::new();
        let mut groups: [Vec<f32>; GROUPS] = std::array::from_fn(|g| vec![1.0; LEVELS[g] as usize]);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let mut fields = line.split_whitespace();
            let (Some(group), Some(level), Some(gamma)) =
                (fields.next(), fields.next(), fields.next())
            else {
                panic!("shape weights: bad line {line:?}");
            };
            let gamma: f32 = gamma.parse().expect("shape weights: a number");
            let g = GROUP_NAMES
                .iter()
                .position(|&n| n == group)
                .expect("shape weights: a known group");
            if g == 0 && level == "rare" {
                rare = gamma;
            } else if g == 0 {
                shapes.insert(level.parse::<u32>().expect("a code"), gamma);
            } else {
                groups[g][level.parse::<usize>().expect("a level")] = gamma;
            }
        }
        let shape = (0..SHAPE_CODES as u32)
            .map(|code| *shapes.get(&canonical(code)).unwrap_or(&rare))
            .collect();
        Weights { shape, groups }
    }
}

/// The committed weights, parsed on first use.
pub fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| Weights::parse(include_str!("shape_weights.txt")))
}

/// Every candidate move of `color` (empty, legal, not filling an own eye) with its features:
/// the choice the weights are trained on and that the search's priors are given for.
pub fn candidates(board: &Board, color: Color) -> Vec<(Pt, Features)> {
    let last = board.last_move();
    board
        .empties()
        .iter()
        .filter(|&&p| is_candidate(board, color, p))
        .map(|&p| (p, features(board, color, p, last)))
        .collect()
}

/// Whether the search considers the empty point `p` for `color`: legal, and not filling what
/// looks like an own eye.
pub fn is_candidate(board: &Board, color: Color, p: Pt) -> bool {
    !board.is_eyeish(color, p) && playout::playable(board, color, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{Go, GoPlay};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Features with the shape named by its canonical code, so that images compare equal.
    fn named(board: &Board, color: Color, p: Pt, last: Option<Pt>) -> Features {
        let mut f = features(board, color, p, last);
        f[0] = canonical(f[0]);
        f
    }

    #[test]
    fn a_position_and_its_seven_images_have_the_same_features() {
        let size = 9;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        type Image = fn(usize, usize, usize) -> (usize, usize);
        let images: [Image; 8] = [
            |c, r, _| (c, r),
            |c, r, s| (s - 1 - r, c),
            |c, r, s| (s - 1 - c, s - 1 - r),
            |c, r, s| (r, s - 1 - c),
            |c, r, s| (s - 1 - c, r),
            |c, r, s| (c, s - 1 - r),
            |c, r, _| (r, c),
            |c, r, s| (s - 1 - r, s - 1 - c),
        ];
        let mut boards: Vec<Board> = (0..8).map(|_| Board::new(size)).collect();
        let mut color = Color::Black;
        let mut compared = 0;
        for _ in 0..120 {
            let legal = boards[0].legal_moves(color);
            if legal.is_empty() {
                break;
            }
            let (c, r) = boards[0].col_row(legal[playout::below(&mut rng, legal.len())]);
            for (board, image) in boards.iter_mut().zip(images) {
                let (ic, ir) = image(c, r, size);
                board
                    .play(color, board.pt(ic, ir))
                    .expect("legal in every image");
            }
            color = color.opponent();
            for (p, f) in candidates(&boards[0], color) {
                let (c, r) = boards[0].col_row(p);
                let mut f = f;
                f[0] = canonical(f[0]);
                for (board, image) in boards.iter().zip(images).skip(1) {
                    let (ic, ir) = image(c, r, size);
                    let q = board.pt(ic, ir);
                    assert_eq!(
                        named(board, color, q, board.last_move()),
                        f,
                        "{p:?}\n{board:?}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    #[test]
    fn features_name_captures_escapes_ataris_self_ataris_distances_and_lines() {
        let b = Board::from_rows(&[
            ".........",
            ".......X.",
            "......XO.",
            ".........",
            "...O.....",
            "..OXO....",
            "....O....",
            "O........",
            ".........",
        ]);
        let at = |s: &str| {
            let col = usize::from(s.as_bytes()[0] - b'a');
            b.pt(col, s[1..].parse::<usize>().unwrap() - 1)
        };
        let black = |s: &str| features(&b, Color::Black, at(s), None);
        // Black d4 is in atari: White d3 captures it, Black d3 extends it into a ladder.
        assert_eq!(features(&b, Color::White, at("d3"), None)[1], 1);
        assert_eq!(black("d3")[2], 2);
        assert_eq!(black("d3")[1], 0);
        // White h7 has two liberties: h6 gives atari and the ladder along the edge captures;
        // i7 gives atari, and White escapes to h6.
        assert_eq!(black("h6")[3], 1);
        assert_eq!(black("i7")[3], 2);
        // a1 is a lone stone's self-atari, on the first line beside a white stone.
        assert_eq!(black("a1")[4], 1);
        assert_eq!(black("a1")[6], 0);
        assert_eq!(black("a9")[6], 1, "first line, nothing within two lines");
        assert_eq!(black("e5")[6], 8, "fifth line, crowded");
        let last = Some(at("d4"));
        assert_eq!(features(&b, Color::Black, at("d3"), last)[5], 1);
        assert_eq!(features(&b, Color::Black, at("f4"), last)[5], 3);
    }

    #[test]
    fn the_committed_weights_predict_gnu_go_better_than_chance() {
        let weights = weights();
        let (mut top, mut positions, mut chance) = (0, 0, 0.0);
        for file in ["19-9-0000.sgf", "19-9-0001.sgf", "19-9-0002.sgf"] {
            let path = format!("{}/fixtures/go/teacher/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a teacher game");
            let (game, _) = Go::from_sgf(&text).expect("an SGF game");
            let mut board = Board::new(game.size());
            for turn in game.moves() {
                let GoPlay::Stone(v) = turn.play else {
                    board.pass();
                    continue;
                };
                let p = board.pt(usize::from(v.col), usize::from(v.row));
                let moves = candidates(&board, turn.color);
                if let Some(best) = moves
                    .iter()
                    .max_by(|a, b| weights.strength(&a.1).total_cmp(&weights.strength(&b.1)))
                {
                    top += usize::from(best.0 == p);
                    chance += 1.0 / moves.len() as f64;
                    positions += 1;
                }
                board.play(turn.color, p).expect("a legal move");
            }
        }
        let share = top as f64 / positions as f64;
        assert!(positions > 300, "{positions}");
        assert!(
            share > 0.15 && share > 20.0 * chance / positions as f64,
            "{share}"
        );
    }

    #[test]
    fn unknown_shapes_get_the_rare_weight_and_levels_their_own() {
        let w = Weights::parse("# a comment\nshape rare 0.5\nshape 5 3\ncapture 1 4\n");
        let mut f: Features = [5, 1, 0, 0, 0, 0, 0];
        assert_eq!(w.strength(&f), 12.0);
        f[0] = 6;
        assert_eq!(w.strength(&f), 2.0);
    }
}
