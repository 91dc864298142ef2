//! The search board: a padded array with incrementally updated line patterns, point classes,
//! evaluation sums and a Zobrist hash, so that playing or taking back a stone costs a few dozen
//! table look-ups rather than a rescan of the board.

use std::sync::OnceLock;

use super::super::renju;
use super::super::{Gomoku, Point, Rule, Stone};
use super::patterns::{self, class, pat, slot, DIGIT_BLOCKED, DIGIT_OWN, HALF, POW3, SLOTS};

/// Wall points around the board: as wide as a pattern window reaches, so a window never leaves
/// the array.
const PAD: usize = HALF;
/// Row length of the array: a power of two at least `MAX_SIZE + 2 * PAD`.
const STRIDE: usize = 32;
const ROWS: usize = Gomoku::MAX_SIZE as usize + 2 * PAD;
const CELLS: usize = STRIDE * ROWS;

/// Index steps of the four line directions: along a row, along a column and the two diagonals.
const DIR_STEP: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// A colour as an index: 0 black, 1 white (a stone of colour `c` is stored as `c + 1`).
pub(crate) type Colour = usize;
pub(crate) const BLACK: Colour = 0;

/// Random keys for (colour, point), fixed at compile time so hashes are reproducible.
static ZOBRIST: [[u64; CELLS]; 2] = {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state: u64 = 0x5EED_0F60_0000_0001;
    let mut colour = 0;
    while colour < 2 {
        let mut i = 0;
        while i < CELLS {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[colour][i] = z ^ (z >> 31);
            i += 1;
        }
        colour += 1;
    }
    keys
};

/// `combine` for every set of four line patterns `p`, indexed by the decimal number
/// `p0 p1 p2 p3` (ten patterns per direction); `forbidden_combos` as `combine` takes it.
fn combine_table(forbidden_combos: bool) -> &'static [(u8, i16)] {
    static TABLES: [OnceLock<Vec<(u8, i16)>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[usize::from(forbidden_combos)].get_or_init(|| {
        let n = pat::COUNT;
        (0..n.pow(4))
            .map(|i| {
                let p = [i / (n * n * n), i / (n * n) % n, i / n % n, i % n].map(|x| x as u8);
                let (class, value) = patterns::combine(p, forbidden_combos);
                (
                    class,
                    i16::try_from(value).expect("point values fit in i16"),
                )
            })
            .collect()
    })
}

/// Everything the search keeps about one point, packed into half a cache line: a stone's update
/// touches a few dozen neighbours, and each should cost one memory access.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Spot {
    /// Window keys per direction, one per colour's point of view.
    keys: [[u16; 2]; 4],
    /// Line patterns per colour and direction.
    lines: [[u8; 4]; 2],
    /// Point value per colour.
    value: [i16; 2],
    /// Point class per colour.
    class: [u8; 2],
    /// `EMPTY`, a stone (colour + 1) or `WALL`.
    cell: u8,
    /// Stones within two points (a 5x5 square): where candidate moves come from.
    near: u8,
}

/// Keys, lines, classes and values are kept current for empty points only. An occupied point is
/// skipped by updates: moves are taken back last-in first-out, so every change made while it is
/// occupied has been undone by the time it is empty again.
#[derive(Clone)]
pub(crate) struct Position {
    size: usize,
    /// How far a stone changes its neighbours' patterns: four points under freestyle (a five
    /// through a point lies within four of it), five under standard (the point beyond a five
    /// tells it from an overline).
    reach: isize,
    /// Pattern tables per colour (they differ under renju).
    patterns: [&'static [u8]; 2],
    /// Black's forbidden points count (renju).
    renju: bool,
    /// Classes and values of line pattern sets, per colour (black's differ under renju).
    combos: [&'static [(u8, i16)]; 2],
    spots: Vec<Spot>,
    /// Empty points per colour and class.
    class_count: [[u32; class::COUNT]; 2],
    /// Sum of point values over the empty points, per colour.
    value_sum: [i32; 2],
    hash: u64,
    history: Vec<usize>,
    board: Vec<usize>,
}

impl Position {
    pub(crate) fn new(size: u8, rule: Rule) -> Self {
        let size = usize::from(size);
        let mut spots = vec![
            Spot {
                cell: WALL,
                ..Spot::default()
            };
            CELLS
        ];
        let mut board = Vec::with_capacity(size * size);
        for row in 0..size {
            for col in 0..size {
                let i = (row + PAD) * STRIDE + col + PAD;
                spots[i].cell = EMPTY;
                board.push(i);
            }
        }
        let mut pos = Position {
            size,
            reach: match rule {
                Rule::Freestyle => HALF as isize - 1,
                Rule::Standard | Rule::Renju => HALF as isize,
            },
            patterns: [
                patterns::table(rule, Stone::Black),
                patterns::table(rule, Stone::White),
            ],
            renju: rule == Rule::Renju,
            combos: [combine_table(rule == Rule::Renju), combine_table(false)],
            spots,
            class_count: [[0; class::COUNT]; 2],
            value_sum: [0; 2],
            hash: 0,
            history: Vec::with_capacity(size * size),
            board,
        };
        for bi in 0..pos.board.len() {
            let i = pos.board[bi];
            for (d, &step) in DIR_STEP.iter().enumerate() {
                for offset in (-(HALF as isize)..=HALF as isize).filter(|&o| o != 0) {
                    let n = (i as isize + offset * step) as usize;
                    if pos.spots[n].cell == WALL {
                        let digit = DIGIT_BLOCKED * POW3[slot(offset as i32)];
                        pos.spots[i].keys[d][0] += digit;
                        pos.spots[i].keys[d][1] += digit;
                    }
                }
            }
            for c in 0..2 {
                for d in 0..4 {
                    pos.spots[i].lines[c][d] =
                        pos.patterns[c][usize::from(pos.spots[i].keys[d][c])];
                }
                let (new_class, new_value) = pos.combo(c, pos.spots[i].lines[c]);
                pos.spots[i].class[c] = new_class;
                pos.spots[i].value[c] = new_value;
                pos.class_count[c][usize::from(new_class)] += 1;
                pos.value_sum[c] += i32::from(new_value);
            }
        }
        pos
    }

    pub(crate) fn from_game(game: &Gomoku) -> Self {
        let mut pos = Position::new(game.size(), game.rule());
        for &p in game.moves() {
            pos.play(pos.index(p));
        }
        pos
    }

    pub(crate) fn index(&self, p: Point) -> usize {
        (usize::from(p.row) + PAD) * STRIDE + usize::from(p.col) + PAD
    }

    pub(crate) fn point(&self, i: usize) -> Point {
        Point::new((i % STRIDE - PAD) as u8, (i / STRIDE - PAD) as u8)
    }

    pub(crate) fn size(&self) -> usize {
        self.size
    }

    pub(crate) fn to_move(&self) -> Colour {
        self.history.len() % 2
    }

    pub(crate) fn move_count(&self) -> usize {
        self.history.len()
    }

    pub(crate) fn is_full(&self) -> bool {
        self.history.len() == self.board.len()
    }

    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    pub(crate) fn is_empty(&self, i: usize) -> bool {
        self.spots[i].cell == EMPTY
    }

    /// On-board points, row by row from the bottom.
    pub(crate) fn board(&self) -> &[usize] {
        &self.board
    }

    pub(crate) fn has_neighbour(&self, i: usize) -> bool {
        self.spots[i].near > 0
    }

    pub(crate) fn class(&self, colour: Colour, i: usize) -> u8 {
        self.spots[i].class[colour]
    }

    pub(crate) fn value(&self, colour: Colour, i: usize) -> i32 {
        i32::from(self.spots[i].value[colour])
    }

    /// Whether `colour` may play on the empty point `i`: always, except black on a point renju
    /// forbids. Only shapes that can hide a forbidden one (two threes, a four with more, an
    /// open or double four, a long run) go to the full check, which recurses into the threes.
    pub(crate) fn allowed(&self, colour: Colour, i: usize) -> bool {
        if !self.renju || colour != BLACK {
            return true;
        }
        let class = self.spots[i].class[BLACK];
        let suspect = matches!(
            class,
            class::DOUBLE_THREE | class::FOUR_THREE | class::FLEX4
        ) || (class != class::FIVE && self.long_run(i));
        if !suspect {
            return true;
        }
        let p = self.point(i);
        renju::forbidden_at(
            self.size as u8,
            |x, y| match self.spots[self.index(Point::new(x as u8, y as u8))].cell {
                EMPTY | WALL => None,
                cell if usize::from(cell) == BLACK + 1 => Some(Stone::Black),
                _ => Some(Stone::White),
            },
            i32::from(p.col),
            i32::from(p.row),
        )
        .is_none()
    }

    /// Whether a black stone on `i` would join a run of six or more.
    fn long_run(&self, i: usize) -> bool {
        let black = BLACK as u8 + 1;
        DIR_STEP.iter().any(|&step| {
            let run = |sign: isize| {
                (1..=5)
                    .take_while(|&k| {
                        self.spots[(i as isize + sign * k * step) as usize].cell == black
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 6
        })
    }

    /// Whether `colour` has an empty point of class `c` it may play.
    pub(crate) fn has_allowed(&self, colour: Colour, c: u8) -> bool {
        if !self.renju || colour != BLACK {
            return self.count(colour, c) > 0;
        }
        self.find_allowed(colour, c).is_some()
    }

    /// The first empty point where `colour` would make something of class `c` and may play,
    /// if there is one.
    pub(crate) fn find_allowed(&self, colour: Colour, c: u8) -> Option<usize> {
        if self.count(colour, c) == 0 {
            return None;
        }
        self.board
            .iter()
            .copied()
            .find(|&i| self.is_empty(i) && self.class(colour, i) == c && self.allowed(colour, i))
    }

    /// Empty points where `colour` would make something of class `c`.
    pub(crate) fn count(&self, colour: Colour, c: u8) -> u32 {
        self.class_count[colour][usize::from(c)]
    }

    /// Empty points where `colour` would make a four or a five.
    pub(crate) fn four_points(&self, colour: Colour) -> u32 {
        self.class_count[colour][usize::from(class::BLOCK4)..]
            .iter()
            .sum()
    }

    pub(crate) fn value_sum(&self, colour: Colour) -> i32 {
        self.value_sum[colour]
    }

    /// The first empty point where `colour` would make something of class `c`; the caller
    /// knows from [`Position::count`] that there is one.
    pub(crate) fn find_class(&self, colour: Colour, c: u8) -> usize {
        self.board
            .iter()
            .copied()
            .find(|&i| self.is_empty(i) && self.class(colour, i) == c)
            .expect("class counts match the board")
    }

    /// An empty point within four steps of `i` along its lines where `colour` would make five:
    /// after a four at `i`, its five point.
    pub(crate) fn five_point_near(&self, i: usize, colour: Colour) -> Option<usize> {
        for &step in &DIR_STEP {
            for offset in (-4isize..=4).filter(|&o| o != 0) {
                let n = (i as isize + offset * step) as usize;
                let spot = &self.spots[n];
                if spot.cell == EMPTY && spot.class[colour] == class::FIVE {
                    return Some(n);
                }
            }
        }
        None
    }

    /// Places a stone of the colour to move on the empty on-board point `i`.
    pub(crate) fn play(&mut self, i: usize) {
        debug_assert_eq!(self.spots[i].cell, EMPTY, "play on a non-empty point");
        let colour = self.to_move();
        for c in 0..2 {
            self.class_count[c][usize::from(self.spots[i].class[c])] -= 1;
            self.value_sum[c] -= i32::from(self.spots[i].value[c]);
        }
        self.spots[i].cell = colour as u8 + 1;
        self.hash ^= ZOBRIST[colour][i];
        self.history.push(i);
        self.update_lines(i, colour, true);
        self.update_near(i, true);
    }

    /// Takes back the last stone.
    pub(crate) fn undo(&mut self) {
        let i = self.history.pop().expect("undo with no stones");
        let colour = self.history.len() % 2;
        self.spots[i].cell = EMPTY;
        self.hash ^= ZOBRIST[colour][i];
        self.update_lines(i, colour, false);
        self.update_near(i, false);
        // The point's own windows never saw its stone, so its patterns are still current.
        for c in 0..2 {
            self.class_count[c][usize::from(self.spots[i].class[c])] += 1;
            self.value_sum[c] += i32::from(self.spots[i].value[c]);
        }
    }

    fn update_near(&mut self, i: usize, add: bool) {
        for dr in -2isize..=2 {
            for dc in -2isize..=2 {
                let near = &mut self.spots[(i as isize + dr * STRIDE as isize + dc) as usize].near;
                if add {
                    *near += 1;
                } else {
                    *near -= 1;
                }
            }
        }
    }

    /// Adds or removes the stone of `colour` at `i` in the windows of the empty points that see
    /// it, and refreshes their patterns.
    fn update_lines(&mut self, i: usize, colour: Colour, add: bool) {
        let digits = [
            if colour == 0 {
                DIGIT_OWN
            } else {
                DIGIT_BLOCKED
            },
            if colour == 1 {
                DIGIT_OWN
            } else {
                DIGIT_BLOCKED
            },
        ];
        for (d, &step) in DIR_STEP.iter().enumerate() {
            for sign in [-1isize, 1] {
                for distance in 1..=self.reach {
                    let n = (i as isize + sign * distance * step) as usize;
                    let cell = self.spots[n].cell;
                    if cell == WALL {
                        // Walls run on to the end of the padding.
                        break;
                    }
                    if cell != EMPTY {
                        continue;
                    }
                    // Seen from `n`, the stone is `-sign * distance` away.
                    let s = slot((-sign * distance) as i32);
                    debug_assert!(s < SLOTS);
                    let keys = &mut self.spots[n].keys[d];
                    for c in 0..2 {
                        let delta = digits[c] * POW3[s];
                        if add {
                            keys[c] += delta;
                        } else {
                            keys[c] -= delta;
                        }
                    }
                    self.refresh_line(n, d);
                }
            }
        }
    }

    fn combo(&self, colour: Colour, p: [u8; 4]) -> (u8, i16) {
        let index = ((usize::from(p[0]) * 10 + usize::from(p[1])) * 10 + usize::from(p[2])) * 10
            + usize::from(p[3]);
        self.combos[colour][index]
    }

    /// Recomputes the pattern of the empty point `n` along direction `d`, then its class and
    /// value, keeping the counts and sums in step. A stone far along a line often leaves the
    /// pattern as it was, and then the class and value stand too.
    fn refresh_line(&mut self, n: usize, d: usize) {
        for c in 0..2 {
            let key = self.spots[n].keys[d][c];
            let line = self.patterns[c][usize::from(key)];
            if line == self.spots[n].lines[c][d] {
                continue;
            }
            self.spots[n].lines[c][d] = line;
            let (new_class, new_value) = self.combo(c, self.spots[n].lines[c]);
            let spot = &mut self.spots[n];
            self.class_count[c][usize::from(spot.class[c])] -= 1;
            self.class_count[c][usize::from(new_class)] += 1;
            self.value_sum[c] += i32::from(new_value) - i32::from(spot.value[c]);
            spot.class[c] = new_class;
            spot.value[c] = new_value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    type Snapshot = (
        Vec<(usize, [u8; 2], [i32; 2])>,
        [[u32; class::COUNT]; 2],
        [i32; 2],
        u64,
    );

    /// Everything the search reads, for the empty points (occupied ones may hold stale data).
    fn snapshot(pos: &Position) -> Snapshot {
        let points = pos
            .board()
            .iter()
            .filter(|&&i| pos.is_empty(i))
            .map(|&i| {
                (
                    i,
                    [pos.class(0, i), pos.class(1, i)],
                    [pos.value(0, i), pos.value(1, i)],
                )
            })
            .collect();
        (points, pos.class_count, pos.value_sum, pos.hash)
    }

    fn rebuilt(pos: &Position, size: u8, rule: Rule) -> Position {
        let mut fresh = Position::new(size, rule);
        for &i in &pos.history {
            fresh.play(i);
        }
        fresh
    }

    #[test]
    fn incremental_updates_match_a_rebuild() {
        for (size, rule, seed) in [
            (15, Rule::Freestyle, 1),
            (9, Rule::Standard, 2),
            (19, Rule::Freestyle, 3),
        ] {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut pos = Position::new(size, rule);
            let empty = snapshot(&pos);
            for step in 0..300 {
                if !pos.history.is_empty() && (pos.is_full() || rng.gen_bool(0.3)) {
                    pos.undo();
                } else {
                    let free: Vec<usize> = pos
                        .board()
                        .iter()
                        .copied()
                        .filter(|&i| pos.is_empty(i))
                        .collect();
                    pos.play(free[rng.gen_range(0..free.len())]);
                }
                if step % 7 == 0 {
                    assert!(
                        snapshot(&pos) == snapshot(&rebuilt(&pos, size, rule)),
                        "diverged at step {step}"
                    );
                }
            }
            while !pos.history.is_empty() {
                pos.undo();
            }
            assert!(snapshot(&pos) == empty);
            assert_eq!(pos.hash(), 0);
        }
    }

    #[test]
    fn points_map_back_and_forth() {
        let pos = Position::new(19, Rule::Freestyle);
        for &i in pos.board() {
            assert_eq!(pos.index(pos.point(i)), i);
        }
        assert_eq!(pos.point(pos.board()[0]), Point::new(0, 0));
    }

    #[test]
    fn classes_of_a_simple_position() {
        // Black h8 i8 j8 (an open three): g8 and k8 make open fours for black.
        let game = Gomoku::from_moves(
            15,
            Rule::Freestyle,
            &["h8", "a1", "i8", "a3", "j8", "a5"].map(|m| m.parse().unwrap()),
        )
        .unwrap();
        let pos = Position::from_game(&game);
        let at = |m: &str| pos.index(m.parse().unwrap());
        assert_eq!(pos.class(0, at("g8")), class::FLEX4);
        assert_eq!(pos.class(0, at("k8")), class::FLEX4);
        assert_eq!(pos.class(0, at("f8")), class::BLOCK4);
        assert_eq!(pos.count(0, class::FLEX4), 2);
        assert_eq!(pos.five_point_near(at("h8"), 0), None);
        assert!(pos.has_neighbour(at("f6")) && !pos.has_neighbour(at("e8")));
    }

    #[test]
    fn under_renju_a_black_double_three_is_worth_nothing_to_black() {
        // Black h9 h10 i8 j8: h8 makes two open threes, forbidden to black under renju.
        let moves = ["h9", "a1", "h10", "a3", "i8", "a5", "j8", "a7"].map(|m| m.parse().unwrap());
        for (rule, worth) in [(Rule::Standard, true), (Rule::Renju, false)] {
            let pos = Position::from_game(&Gomoku::from_moves(15, rule, &moves).unwrap());
            let h8 = pos.index("h8".parse().unwrap());
            assert_eq!(pos.class(BLACK, h8), class::DOUBLE_THREE, "{rule:?}");
            assert_eq!(pos.value(BLACK, h8) > 0, worth, "{rule:?}");
            assert!(!pos.allowed(BLACK, h8) || rule != Rule::Renju);
        }
    }
}
