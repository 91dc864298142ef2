//! The game record: board, move list, turn and outcome.

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::point::Point;
use super::renju::{Forbidden, RenjuBoard};
use super::rule::{Rule, Stone};

/// Why a game cannot be created or a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GomokuError {
    #[error("board size {0} is not supported: it must be between 9 and 19")]
    InvalidSize(u8),
    #[error("{0} is off the board")]
    OffBoard(Point),
    #[error("{0} is already occupied")]
    Occupied(Point),
    /// Under renju, black may not play an overline, a double four or a double three.
    #[error("{0} is forbidden for black: {1}")]
    Forbidden(Point, Forbidden),
    #[error("the game is over")]
    GameOver,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Outcome {
    /// `None` for a draw (a full board, or under renju no point left that black may play).
    pub winner: Option<Stone>,
    /// The winning stones in order along their line (every stone of a freestyle overline);
    /// empty for a draw.
    pub line: Vec<Point>,
}

/// The four line directions as (column step, row step); each line is walked both ways.
pub(crate) const LINE_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A Gomoku game. Serialized as `{"size", "rule", "moves"}` only: deserializing replays the
/// moves, so a stored game can never describe an inconsistent board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gomoku {
    size: u8,
    rule: Rule,
    board: Vec<Option<Stone>>,
    moves: Vec<Point>,
    outcome: Option<Outcome>,
}

impl Default for Gomoku {
    fn default() -> Self {
        Gomoku::new(Gomoku::DEFAULT_SIZE, Rule::default()).expect("the default size is valid")
    }
}

impl Gomoku {
    pub const MIN_SIZE: u8 = 9;
    pub const MAX_SIZE: u8 = 19;
    pub const DEFAULT_SIZE: u8 = 15;

    pub fn new(size: u8, rule: Rule) -> Result<Self, GomokuError> {
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size) {
            return Err(GomokuError::InvalidSize(size));
        }
        let cells = usize::from(size) * usize::from(size);
        Ok(Gomoku {
            size,
            rule,
            board: vec![None; cells],
            moves: Vec::with_capacity(cells),
            outcome: None,
        })
    }

    /// A new game with `moves` played in order; the first illegal move is the error.
    pub fn from_moves(size: u8, rule: Rule, moves: &[Point]) -> Result<Self, GomokuError> {
        let mut game = Gomoku::new(size, rule)?;
        for &p in moves {
            game.play(p)?;
        }
        Ok(game)
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// Whose turn it is, by move parity (also after the game has ended).
    pub fn next(&self) -> Stone {
        if self.moves.len().is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        }
    }

    pub fn contains(&self, p: Point) -> bool {
        p.col < self.size && p.row < self.size
    }

    pub fn stone_at(&self, p: Point) -> Option<Stone> {
        if self.contains(p) {
            self.board[self.index(p)]
        } else {
            None
        }
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn play(&mut self, p: Point) -> Result<(), GomokuError> {
        if self.outcome.is_some() {
            return Err(GomokuError::GameOver);
        }
        if !self.contains(p) {
            return Err(GomokuError::OffBoard(p));
        }
        let index = self.index(p);
        if self.board[index].is_some() {
            return Err(GomokuError::Occupied(p));
        }
        let stone = self.next();
        if stone == Stone::Black {
            if let Some(shape) = self.forbidden_shape(p) {
                return Err(GomokuError::Forbidden(p, shape));
            }
        }
        self.board[index] = Some(stone);
        self.moves.push(p);
        if let Some(line) = self.winning_line_through(p, stone) {
            self.outcome = Some(Outcome {
                winner: Some(stone),
                line,
            });
        } else if self.moves.len() == self.board.len() || !self.black_can_move() {
            self.outcome = Some(Outcome {
                winner: None,
                line: Vec::new(),
            });
        }
        Ok(())
    }

    /// Under renju, the shape that forbids a black stone on the empty point `p`; `None` when
    /// black may play there (also when the stone makes five), when `p` is occupied or off the
    /// board, and under the other rules. It does not depend on whose turn it is.
    pub fn forbidden_shape(&self, p: Point) -> Option<Forbidden> {
        if self.rule != Rule::Renju || !self.contains(p) || self.stone_at(p).is_some() {
            return None;
        }
        self.renju_board()
            .forbidden(i32::from(p.col), i32::from(p.row))
    }

    /// Under renju, every empty point forbidden for black, in [`Point`]'s order (column, then
    /// row); empty under the other rules.
    pub fn forbidden_points(&self) -> Vec<Point> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        self.renju_board().forbidden_points()
    }

    /// The board as the renju check reads it: x the column, y the row.
    pub(crate) fn renju_board(&self) -> RenjuBoard {
        RenjuBoard::from_fn(self.size, |x, y| {
            self.stone_at(Point::new(x as u8, y as u8))
        })
    }

    /// False only under renju when black is to move and every empty point is forbidden for
    /// black: with no move left, the game is a draw as on a full board.
    fn black_can_move(&self) -> bool {
        self.rule != Rule::Renju
            || self.next() != Stone::Black
            || self.renju_board().has_allowed_point()
    }

    /// Takes back the last move. A game can only have ended on its last move, so the outcome is
    /// simply cleared.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        let index = self.index(p);
        self.board[index] = None;
        self.outcome = None;
        Some(p)
    }

    /// The board as text, top row first: `X` black, `O` white, `.` empty.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .rev()
            .map(|row| {
                (0..self.size)
                    .map(|col| match self.board[self.index(Point::new(col, row))] {
                        Some(stone) => stone.symbol(),
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    fn index(&self, p: Point) -> usize {
        usize::from(p.row) * usize::from(self.size) + usize::from(p.col)
    }

    fn offset(&self, p: Point, (dc, dr): (i8, i8), steps: i32) -> Option<Point> {
        let col = i32::from(p.col) + i32::from(dc) * steps;
        let row = i32::from(p.row) + i32::from(dr) * steps;
        let size = i32::from(self.size);
        ((0..size).contains(&col) && (0..size).contains(&row))
            .then(|| Point::new(col as u8, row as u8))
    }

    /// The first line through `p` that wins for `stone` under the rule, walked from one end to
    /// the other. Under `standard` a move may complete an overline in one direction and a five in
    /// another; the five still wins, so every direction is tried.
    fn winning_line_through(&self, p: Point, stone: Stone) -> Option<Vec<Point>> {
        for dir in LINE_DIRECTIONS {
            let mut start = p;
            while let Some(q) = self.offset(start, dir, -1) {
                if self.stone_at(q) != Some(stone) {
                    break;
                }
                start = q;
            }
            let mut line = vec![start];
            while let Some(q) = self.offset(*line.last().expect("non-empty"), dir, 1) {
                if self.stone_at(q) != Some(stone) {
                    break;
                }
                line.push(q);
            }
            if self.rule.wins(stone, line.len()) {
                return Some(line);
            }
        }
        None
    }
}

#[cfg(feature = "serde")]
#[derive(Serialize)]
struct GomokuRecordRef<'a> {
    size: u8,
    rule: Rule,
    moves: &'a [Point],
}

#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct GomokuRecord {
    #[serde(default = "default_size")]
    size: u8,
    #[serde(default)]
    rule: Rule,
    #[serde(default)]
    moves: Vec<Point>,
}

#[cfg(feature = "serde")]
fn default_size() -> u8 {
    Gomoku::DEFAULT_SIZE
}

#[cfg(feature = "serde")]
impl Serialize for Gomoku {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GomokuRecordRef {
            size: self.size,
            rule: self.rule,
            moves: &self.moves,
        }
        .serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Gomoku {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let record = GomokuRecord::deserialize(deserializer)?;
        let mut game = Gomoku::new(record.size, record.rule).map_err(serde::de::Error::custom)?;
        for (number, &p) in record.moves.iter().enumerate() {
            game.play(p).map_err(|err| {
                serde::de::Error::custom(format_args!("move {} ({p}): {err}", number + 1))
            })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn game_from(size: u8, rule: Rule, moves: &str) -> Gomoku {
        let moves: Vec<Point> = moves.split_whitespace().map(pt).collect();
        Gomoku::from_moves(size, rule, &moves).unwrap()
    }

    /// Black plays `black` in order, white answers each with a move from `white`.
    fn interleave(black: &[&str], white: &[&str]) -> String {
        let mut out = Vec::new();
        for (i, b) in black.iter().enumerate() {
            out.push(*b);
            if let Some(w) = white.get(i) {
                out.push(*w);
            }
        }
        out.join(" ")
    }

    #[test]
    fn sizes() {
        assert_eq!(
            Gomoku::new(8, Rule::Freestyle),
            Err(GomokuError::InvalidSize(8))
        );
        assert_eq!(
            Gomoku::new(20, Rule::Freestyle),
            Err(GomokuError::InvalidSize(20))
        );
        assert_eq!(Gomoku::new(9, Rule::Standard).unwrap().size(), 9);
        assert_eq!(Gomoku::default().size(), 15);
        assert_eq!(Gomoku::default().rule(), Rule::Freestyle);
    }

    #[test]
    fn errors() {
        let mut game = Gomoku::new(9, Rule::Freestyle).unwrap();
        assert_eq!(game.play(pt("j1")), Err(GomokuError::OffBoard(pt("j1"))));
        assert_eq!(game.play(pt("a10")), Err(GomokuError::OffBoard(pt("a10"))));
        game.play(pt("e5")).unwrap();
        assert_eq!(game.play(pt("e5")), Err(GomokuError::Occupied(pt("e5"))));
        assert_eq!(
            game.next(),
            Stone::White,
            "a rejected move does not pass the turn"
        );
        assert_eq!(
            GomokuError::OffBoard(pt("j1")).to_string(),
            "j1 is off the board"
        );
    }

    #[test]
    fn wins_in_all_four_directions_including_edges() {
        let lines: [[&str; 5]; 4] = [
            // Horizontal along the bottom edge.
            ["a1", "b1", "c1", "d1", "e1"],
            // Vertical along the right edge.
            ["i1", "i2", "i3", "i4", "i5"],
            // Diagonal from the corner, played out of order.
            ["e5", "a1", "b2", "d4", "c3"],
            // Anti-diagonal ending in the top-left corner.
            ["e5", "d6", "c7", "b8", "a9"],
        ];
        for black in lines {
            let white: Vec<&str> = ["a9", "c9", "e9", "g9", "i9"]
                .into_iter()
                .filter(|w| !black.contains(w))
                .take(4)
                .collect();
            let game = game_from(9, Rule::Freestyle, &interleave(&black, &white));
            let outcome = game.outcome().expect("five wins");
            assert_eq!(outcome.winner, Some(Stone::Black));
            let mut expected: Vec<Point> = black.iter().map(|s| pt(s)).collect();
            let mut line = outcome.line.clone();
            expected.sort();
            line.sort();
            assert_eq!(line, expected);
        }
    }

    #[test]
    fn white_can_win_and_line_is_in_order() {
        let game = game_from(15, Rule::Freestyle, "a1 h8 a3 h10 a5 h9 a7 h12 a9 h11");
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winner, Some(Stone::White));
        let names: Vec<String> = outcome.line.iter().map(Point::to_string).collect();
        assert_eq!(names, ["h8", "h9", "h10", "h11", "h12"]);
    }

    #[test]
    fn overline_wins_freestyle_but_not_standard() {
        // Black builds b5 c5 d5 and f5 g5 h5, then fills e5: seven in a row.
        let black = ["b5", "c5", "d5", "h5", "g5", "f5"];
        let white = ["b1", "c1", "d1", "e1", "a9"];
        let moves = interleave(&black, &white) + " a8 e5";
        let free = game_from(9, Rule::Freestyle, &moves);
        let outcome = free.outcome().expect("seven in a row wins in freestyle");
        assert_eq!(outcome.winner, Some(Stone::Black));
        assert_eq!(outcome.line.len(), 7);
        assert_eq!(outcome.line.first(), Some(&pt("b5")));
        assert_eq!(outcome.line.last(), Some(&pt("h5")));

        let standard = game_from(9, Rule::Standard, &moves);
        assert_eq!(
            standard.outcome(),
            None,
            "an overline does not win in standard"
        );

        // Exactly five wins under both rules.
        for rule in [Rule::Freestyle, Rule::Standard] {
            let game = game_from(9, rule, "a5 a1 b5 b1 c5 c1 d5 d1 e5");
            assert_eq!(game.outcome().unwrap().winner, Some(Stone::Black));
            assert_eq!(game.outcome().unwrap().line.len(), 5);
        }
    }

    #[test]
    fn six_in_standard_is_no_win_but_a_five_across_it_is() {
        // e5 completes both b5..g5 (six: no win in standard) and e1..e5 (five: a win).
        let black = ["b5", "c5", "d5", "f5", "g5", "e1", "e2", "e3", "e4"];
        let white = ["a1", "a2", "a3", "a4", "a6", "a7", "a8", "a9", "i9"];
        let moves = interleave(&black, &white) + " e5";
        let game = game_from(9, Rule::Standard, &moves);
        let outcome = game.outcome().expect("the vertical five wins");
        let names: Vec<String> = outcome.line.iter().map(Point::to_string).collect();
        assert_eq!(names, ["e1", "e2", "e3", "e4", "e5"]);
    }

    /// A 9x9 filling with no five for either colour: colour by (col + 2*row) mod 4, which gives
    /// runs of at most two in every direction.
    fn full_board_moves() -> Vec<Point> {
        let mut blacks = Vec::new();
        let mut whites = Vec::new();
        for row in 0..9u8 {
            for col in 0..9u8 {
                let p = Point::new(col, row);
                if (col + 2 * row) % 4 < 2 {
                    blacks.push(p);
                } else {
                    whites.push(p);
                }
            }
        }
        assert_eq!(
            blacks.len(),
            41,
            "black moves first and plays the odd stone"
        );
        assert_eq!(whites.len(), 40);
        let mut moves = Vec::new();
        for (i, b) in blacks.iter().enumerate() {
            moves.push(*b);
            if let Some(w) = whites.get(i) {
                moves.push(*w);
            }
        }
        moves
    }

    #[test]
    fn full_board_is_a_draw() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let moves = full_board_moves();
            let mut game = Gomoku::new(9, rule).unwrap();
            for (i, &p) in moves.iter().enumerate() {
                assert_eq!(game.outcome(), None, "no five before move {i}");
                game.play(p).unwrap();
            }
            let outcome = game.outcome().expect("a full board ends the game");
            assert_eq!(outcome.winner, None);
            assert!(outcome.line.is_empty());
            assert_eq!(game.play(pt("a1")), Err(GomokuError::GameOver));
        }
    }

    #[test]
    fn a_full_board_with_only_an_overline_is_a_draw_in_standard() {
        // Swap one black and one white stone of the no-five filling so that black gets a line of
        // six on row 1 (a1..f1), which only freestyle counts as a win.
        let mut moves = full_board_moves();
        let row1: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].row == 0).collect();
        // Row 1 reads X X O O X X O O X; c1 and d1 trade places in the move list with the black
        // a3 and b3, which leaves every other line at four or fewer.
        let c1 = row1
            .iter()
            .copied()
            .find(|&i| moves[i] == pt("c1"))
            .unwrap();
        let d1 = row1
            .iter()
            .copied()
            .find(|&i| moves[i] == pt("d1"))
            .unwrap();
        let black_a = moves.iter().position(|&p| p == pt("a3")).unwrap();
        let black_b = moves.iter().position(|&p| p == pt("b3")).unwrap();
        moves.swap(c1, black_a);
        moves.swap(d1, black_b);
        let standard = Gomoku::from_moves(9, Rule::Standard, &moves).unwrap();
        assert_eq!(standard.outcome().unwrap().winner, None);
        assert_eq!(standard.rows()[8], "XXXXXXOOX");
        // In freestyle the six ends the game, so the rest of the list is rejected.
        assert_eq!(
            Gomoku::from_moves(9, Rule::Freestyle, &moves),
            Err(GomokuError::GameOver)
        );
    }

    #[test]
    fn renju_is_a_draw_when_black_has_only_forbidden_points() {
        // The filling of the test above with black's d1 moved to the very end: then d1 is the
        // last empty point and would make the overline a1..f1, so black has no move left.
        let mut moves = full_board_moves();
        let row1: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].row == 0).collect();
        let find = |moves: &[Point], name: &str| moves.iter().position(|&p| p == pt(name));
        let (c1, d1) = (find(&moves, "c1").unwrap(), find(&moves, "d1").unwrap());
        assert!(row1.contains(&c1) && row1.contains(&d1));
        let (a3, b3) = (find(&moves, "a3").unwrap(), find(&moves, "b3").unwrap());
        moves.swap(c1, a3);
        moves.swap(d1, b3);
        let d1 = find(&moves, "d1").unwrap();
        let last = moves.len() - 1;
        moves.swap(d1, last);
        let game = Gomoku::from_moves(9, Rule::Renju, &moves[..last]).unwrap();
        assert_eq!(game.forbidden_points(), vec![pt("d1")]);
        let outcome = game.outcome().expect("black cannot move: a draw");
        assert_eq!(outcome.winner, None);
        assert!(outcome.line.is_empty());
    }

    #[test]
    fn undo_restores_turn_and_clears_outcome() {
        let mut game = game_from(9, Rule::Freestyle, "a1 a9 b1 b9 c1 c9 d1 d9 e1");
        assert_eq!(game.outcome().unwrap().winner, Some(Stone::Black));
        assert_eq!(game.undo(), Some(pt("e1")));
        assert_eq!(game.outcome(), None);
        assert_eq!(game.next(), Stone::Black);
        assert_eq!(game.stone_at(pt("e1")), None);
        game.play(pt("i5")).unwrap();
        assert_eq!(game.next(), Stone::White);
        let mut empty = Gomoku::default();
        assert_eq!(empty.undo(), None);
    }

    #[test]
    fn rows_top_first() {
        let game = game_from(9, Rule::Freestyle, "a1 i9 b1");
        let rows = game.rows();
        assert_eq!(rows.len(), 9);
        assert_eq!(rows[0], "........O");
        assert_eq!(rows[8], "XX.......");
        assert_eq!(game.stone_at(pt("i9")), Some(Stone::White));
        assert_eq!(game.stone_at(pt("z26")), None);
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serde_round_trip_replays_moves() {
        let game = game_from(15, Rule::Standard, "h8 h9 i8 j10");
        let json = serde_json::to_string(&game).unwrap();
        assert_eq!(
            json,
            r#"{"size":15,"rule":"standard","moves":["h8","h9","i8","j10"]}"#
        );
        let back: Gomoku = serde_json::from_str(&json).unwrap();
        assert_eq!(back, game);
        assert_eq!(back.stone_at(pt("j10")), Some(Stone::White));

        let finished = game_from(9, Rule::Freestyle, "a1 a9 b1 b9 c1 c9 d1 d9 e1");
        let back: Gomoku =
            serde_json::from_str(&serde_json::to_string(&finished).unwrap()).unwrap();
        assert_eq!(back.outcome(), finished.outcome());
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serde_rejects_inconsistent_records() {
        for (json, needle) in [
            (
                r#"{"size":15,"rule":"freestyle","moves":["h8","h8"]}"#,
                "occupied",
            ),
            (
                r#"{"size":9,"rule":"freestyle","moves":["j1"]}"#,
                "off the board",
            ),
            (r#"{"size":30,"rule":"freestyle","moves":[]}"#, "size"),
            (
                r#"{"size":15,"rule":"freestyle","moves":["h0"]}"#,
                "not a point",
            ),
            (r#"{"size":15,"rule":"caro","moves":[]}"#, "caro"),
            (
                r#"{"size":9,"rule":"freestyle","moves":["a1","a9","b1","b9","c1","c9","d1","d9","e1","e9"]}"#,
                "over",
            ),
        ] {
            let err = serde_json::from_str::<Gomoku>(json)
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{json}: {err}");
        }
        let defaults: Gomoku = serde_json::from_str("{}").unwrap();
        assert_eq!(defaults, Gomoku::default());
    }
}
