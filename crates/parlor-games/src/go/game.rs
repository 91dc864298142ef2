//! A game of Go as Parlor keeps it: the options, the setup stones, the moves and the redo line.
//! Only those are stored; the board, the ko point, the capture counts and the superko history are
//! rebuilt by replaying them, so a loaded game is exactly the game that was saved and an undo
//! restores captures and the ko point without keeping snapshots.

use crate::proposal::DrawOffer;
use crate::takeback::{Takeback, TakebackProposal};
use crate::{EndReason, GameResult};
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use super::board::{Board, Color, Illegal, Pt};
use super::positions::Positions;
use super::score::{self, Captures, Position, ScoreReport, Scoring};
use super::vertex::{GoPlay, Vertex};

/// Serde's view of the board's colour: `"black"` / `"white"`.
#[cfg(feature = "serde")]
#[derive(Serialize, Deserialize)]
#[serde(remote = "Color", rename_all = "lowercase")]
enum ColorDef {
    Black,
    White,
}

/// The name a client reads: `"black"` / `"white"`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Seat 0 plays black, seat 1 white (handicap games included).
pub fn seat_of(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The colour a seat plays: seat 0 black, seat 1 white.
pub fn color_of_seat(seat: usize) -> Option<Color> {
    match seat {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}

/// Rule options given at creation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct GoOptions {
    /// Board size, 5..=25.
    pub size: usize,
    /// Points added to white's total; a multiple of 0.5 with |komi| ≤ 150.
    pub komi: f64,
    pub scoring: Scoring,
    /// Positional superko: no move may recreate an earlier position.
    pub superko: bool,
}

impl Default for GoOptions {
    fn default() -> Self {
        GoOptions {
            size: 19,
            komi: 6.5,
            scoring: Scoring::Territory,
            superko: false,
        }
    }
}

impl GoOptions {
    pub const SIZES: std::ops::RangeInclusive<usize> = 5..=25;
    pub const MAX_KOMI: f64 = 150.0;

    /// Checks the values a client chose, in the client's words.
    pub fn validate(&self) -> Result<(), GoError> {
        if !Self::SIZES.contains(&self.size) {
            return Err(GoError::InvalidOptions(format!(
                "size must be between 5 and 25, not {}",
                self.size
            )));
        }
        if !self.komi.is_finite()
            || self.komi.abs() > Self::MAX_KOMI
            || (self.komi * 2.0).fract() != 0.0
        {
            return Err(GoError::InvalidOptions(format!(
                "komi must be a multiple of 0.5 between -150 and 150, not {}",
                self.komi
            )));
        }
        Ok(())
    }
}

/// Why a stone may not go where it was asked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    Occupied,
    Suicide,
    Ko,
    Superko,
    OffBoard,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalReason::Occupied => "the point is occupied",
            IllegalReason::Suicide => "suicide: the stones would be left without a liberty",
            IllegalReason::Ko => "ko: the stone just captured may not be retaken at once",
            IllegalReason::Superko => "superko: it would repeat an earlier position",
            IllegalReason::OffBoard => "the point is off the board",
        })
    }
}

impl From<Illegal> for IllegalReason {
    fn from(illegal: Illegal) -> Self {
        match illegal {
            Illegal::Occupied => IllegalReason::Occupied,
            Illegal::Suicide => IllegalReason::Suicide,
            Illegal::Ko => IllegalReason::Ko,
            Illegal::OffBoard => IllegalReason::OffBoard,
        }
    }
}

/// Everything the rules can refuse, worded for a client.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// Out-of-range options (maps to 422 `invalid_request`).
    #[error("{0}")]
    InvalidOptions(String),
    /// A well-formed move the rules forbid (maps to 422 `illegal_move`).
    #[error("{at} is not playable: {reason}")]
    Illegal { at: Vertex, reason: IllegalReason },
    #[error("it is {}'s turn, not {}'s", color_name(*expected), color_name(*color))]
    NotYourTurn { color: Color, expected: Color },
    #[error("the game is over")]
    GameOver,
    #[error("there is no move to take back")]
    NothingToUndo,
    #[error("there is no taken-back move to replay")]
    NothingToRedo,
    /// A stone named dead where there is none.
    #[error("{0} has no stone to count as dead")]
    NoStone(Vertex),
    /// The game has as many moves as [`Go::move_cap`] allows: only a pass or a resignation.
    #[error("the game has reached its cap of {0} moves (three times the board's points): pass or resign")]
    MoveCap(usize),
}

/// Stones placed before the first move (handicap, or an SGF record's `AB`/`AW`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = GoSetup))]
pub struct Setup {
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>, example = json!(["D4", "Q16"])))]
    pub black: Vec<Vertex>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub white: Vec<Vertex>,
}

impl Setup {
    pub fn is_empty(&self) -> bool {
        self.black.is_empty() && self.white.is_empty()
    }
}

/// One entry of the move list: who played and what (a stone or a pass; a resignation is kept apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub color: Color,
    pub play: GoPlay,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum GoEndReason {
    Resign,
    Score,
    /// Ended from outside before it finished (`POST …/end`); the rules never produce it.
    Aborted,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GoResult {
    /// `"black"` or `"white"`; `null` for a draw (a count that ends level).
    #[cfg_attr(feature = "serde", serde(serialize_with = "opt_color_name"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "black"))]
    pub winner: Option<Color>,
    pub reason: GoEndReason,
    /// `"B+3.5"`, `"W+0.5"`, `"Draw"`, or `"B+R"` / `"W+R"` after a resignation.
    #[cfg_attr(feature = "openapi", schema(example = "B+3.5"))]
    pub summary: String,
    /// The count that decided a game ended by two passes (no stones marked dead, as in the seed).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub score: Option<ScoreReport>,
}

/// Why a Go game ended by a count, as `game.result.reason` says it.
pub const SCORE: EndReason = EndReason::named("score");

impl GoResult {
    /// The result in the shape every game shares (`game.result`): winners as seats.
    pub fn shared(&self) -> GameResult {
        GameResult {
            winners: self.winner.map(seat_of).into_iter().collect(),
            reason: match self.reason {
                GoEndReason::Resign => EndReason::RESIGN,
                GoEndReason::Score => SCORE,
                GoEndReason::Aborted => EndReason::ABORTED,
            },
            summary: self.summary.clone(),
        }
    }
}

#[cfg(feature = "serde")]
fn opt_color_name<S: serde::Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    c.map(color_name).serialize(s)
}

/// What a change did, for the response's `events` and the event stream.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum GoEvent {
    Stone {
        seat: usize,
        color: &'static str,
        #[cfg_attr(feature = "openapi", schema(value_type = String, example = "D4"))]
        at: Vertex,
        /// The stones this move took off the board.
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
        captured: Vec<Vertex>,
    },
    Pass {
        seat: usize,
        color: &'static str,
    },
    Resign {
        seat: usize,
        color: &'static str,
    },
    /// Moves taken back, the last one first.
    Undo {
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
        taken_back: Vec<GoPlay>,
    },
    /// Moves replayed, in order.
    Redo {
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
        replayed: Vec<GoPlay>,
    },
    /// A seat asked to take back (or replay); the other seat accepts by asking the same.
    TakebackProposed {
        proposal: TakebackProposal,
    },
    /// A move declined the waiting proposal.
    TakebackDeclined {
        proposal: TakebackProposal,
    },
    /// A seat offered a draw; the other seat accepts by offering too.
    DrawOffered {
        by: usize,
    },
    /// A move declined the draw `by` offered.
    DrawDeclined {
        by: usize,
    },
    /// The game ended: the result as `game.result` shows it.
    GameOver {
        result: GameResult,
    },
}

/// The public state, as API.md gives it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GoView {
    pub size: usize,
    pub komi: f64,
    pub scoring: Scoring,
    pub superko: bool,
    /// Rows, top row first: `"X"` black, `"O"` white, `"."` empty.
    pub board: Vec<String>,
    /// The colour to move (the colour that would move, once the game is over).
    #[cfg_attr(feature = "openapi", schema(example = "black"))]
    pub next: &'static str,
    pub captures: Captures,
    /// The point the side to move may not retake at once.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "D4"))]
    pub ko: Option<Vertex>,
    /// Every move so far, in order: points, `"pass"`.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>, example = json!(["D4", "Q16", "pass"])))]
    pub moves: Vec<GoPlay>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Setup::is_empty"))]
    pub setup: Setup,
    pub consecutive_passes: usize,
    pub can_undo: bool,
    pub can_redo: bool,
    /// Who may undo and redo, and a proposal waiting for the other seat.
    pub takeback: Takeback,
    /// An AI seat may resign a lost game (`ai_resign`); left out when it may not, so views
    /// stored or documented before it stay the same.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub ai_resign: bool,
    /// A draw one seat offered, waiting for the other seat (who accepts by offering too); left
    /// out while none waits, so views stored or documented before draw offers stay the same.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "openapi", schema(example = json!({"by": 0})))]
    pub draw_offer: Option<DrawOffer>,
}

/// What is persisted: small, and enough to rebuild everything else. The moves are named as the
/// answers name them (`"D4"`, `"pass"`); their colours alternate from `first`.
#[cfg(feature = "serde")]
#[derive(Serialize, Deserialize)]
struct StoredGame {
    options: GoOptions,
    #[serde(default, skip_serializing_if = "Setup::is_empty")]
    setup: Setup,
    #[serde(with = "ColorDef")]
    first: Color,
    moves: Vec<GoPlay>,
    /// Taken-back moves, the next one to replay last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    redo: Vec<GoPlay>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resigned: Option<Resigned>,
}

/// Who resigned (a newtype so that the colour keeps serde's remote derive).
#[cfg(feature = "serde")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Resigned(#[serde(with = "ColorDef")] Color);

/// A game of Go. Serializes as its [`StoredGame`] record; deserializing replays it.
#[derive(Clone)]
#[cfg_attr(feature = "serde", derive(Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StoredGame"))]
pub struct Go {
    options: GoOptions,
    setup: Setup,
    first: Color,
    moves: Vec<Turn>,
    redo: Vec<Turn>,
    resigned: Option<Color>,
    /// Rebuilt from the fields above.
    board: Board,
    /// Every position so far (after the setup, after each move), each once: for positional superko
    /// and the AI's tree reuse. Loading a stored game replays it, adding each position.
    history: Positions,
}

#[cfg(feature = "serde")]
impl Serialize for Go {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StoredGame {
            options: self.options,
            setup: self.setup.clone(),
            first: self.first,
            moves: self.moves.iter().map(|turn| turn.play).collect(),
            redo: self.redo.iter().map(|turn| turn.play).collect(),
            resigned: self.resigned.map(Resigned),
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl TryFrom<StoredGame> for Go {
    type Error = String;

    fn try_from(stored: StoredGame) -> Result<Self, String> {
        let mut game = Go::with_setup(stored.options, stored.setup, stored.first)
            .map_err(|e| format!("stored Go game: {e}"))?;
        for (n, &play) in stored.moves.iter().enumerate() {
            if play == GoPlay::Resign {
                return Err(format!(
                    "stored Go game, move {}: a resignation is no move",
                    n + 1
                ));
            }
            let turn = Turn {
                color: game.next(),
                play,
            };
            game.advance(turn)
                .map_err(|e| format!("stored Go game, move {}: {e}", n + 1))?;
        }
        // The next move to replay is the last; colours alternate back from the side to move.
        let mut color = game.next();
        for &play in stored.redo.iter().rev() {
            if play == GoPlay::Resign {
                return Err("stored Go game: a resignation in the redo line".into());
            }
            game.redo.push(Turn { color, play });
            color = color.opponent();
        }
        game.redo.reverse();
        game.resigned = stored.resigned.map(|r| r.0);
        Ok(game)
    }
}

impl PartialEq for Go {
    /// Two games are equal when their records are; the board follows from the record.
    fn eq(&self, other: &Self) -> bool {
        self.options == other.options
            && self.setup == other.setup
            && self.first == other.first
            && self.moves == other.moves
            && self.redo == other.redo
            && self.resigned == other.resigned
    }
}

impl fmt::Debug for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Go")
            .field("options", &self.options)
            .field("setup", &self.setup)
            .field("first", &self.first)
            .field("moves", &self.moves)
            .field("redo", &self.redo)
            .field("resigned", &self.resigned)
            .finish()
    }
}

impl Go {
    /// A fresh game on an empty board; black moves first.
    pub fn new(options: GoOptions) -> Result<Self, GoError> {
        Self::with_setup(options, Setup::default(), Color::Black)
    }

    /// A game that starts from setup stones (handicap), with `first` to move.
    pub fn with_setup(options: GoOptions, setup: Setup, first: Color) -> Result<Self, GoError> {
        options.validate()?;
        let mut board = Board::new(options.size);
        for (color, stones) in [(Color::Black, &setup.black), (Color::White, &setup.white)] {
            for &v in stones {
                if !v.fits(options.size) {
                    return Err(GoError::Illegal {
                        at: v,
                        reason: IllegalReason::OffBoard,
                    });
                }
                board
                    .place_setup(color, pt(&board, v))
                    .map_err(|e| GoError::Illegal {
                        at: v,
                        reason: e.into(),
                    })?;
            }
        }
        // Setup stones are placed, not played: nothing is captured, so a chain they leave without
        // a liberty would be a position no game can reach.
        if let Some(p) = board
            .points()
            .find(|&p| board.stone(p).is_some() && board.liberties(p) == 0)
        {
            let (col, row) = board.col_row(p);
            return Err(GoError::Illegal {
                at: Vertex::new(col as u8, row as u8),
                reason: IllegalReason::Suicide,
            });
        }
        let history = Positions::starting_at(board.hash());
        Ok(Go {
            options,
            setup,
            first,
            moves: Vec::new(),
            redo: Vec::new(),
            resigned: None,
            board,
            history,
        })
    }

    /// The usual fixed handicap points for `stones` (2..=9) on boards of 7 and up, black stones
    /// placed and white to move.
    pub fn with_handicap(options: GoOptions, stones: usize) -> Result<Self, GoError> {
        let points = handicap_points(options.size, stones).ok_or_else(|| {
            GoError::InvalidOptions(format!(
                "a handicap of {stones} stones is not available on a {0}×{0} board",
                options.size
            ))
        })?;
        let setup = Setup {
            black: points,
            white: Vec::new(),
        };
        Self::with_setup(options, setup, Color::White)
    }

    pub fn options(&self) -> &GoOptions {
        &self.options
    }

    pub fn size(&self) -> usize {
        self.options.size
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The board after the last move (for the AI).
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn moves(&self) -> &[Turn] {
        &self.moves
    }

    /// Taken-back moves, the next one to replay last.
    pub fn redo_line(&self) -> &[Turn] {
        &self.redo
    }

    /// The hashes of every position so far ([`Board::hash`]), oldest first, each once: what the
    /// AI needs for positional superko.
    pub fn history_hashes(&self) -> &[u64] {
        self.history.in_order()
    }

    /// Who resigned, if anybody did.
    pub fn resigned(&self) -> Option<Color> {
        self.resigned
    }

    /// The colour to move.
    pub fn next(&self) -> Color {
        self.moves
            .last()
            .map_or(self.first, |turn| turn.color.opponent())
    }

    /// The number of passes at the end of the move list.
    pub fn consecutive_passes(&self) -> usize {
        self.moves
            .iter()
            .rev()
            .take_while(|turn| turn.play == GoPlay::Pass)
            .count()
    }

    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.consecutive_passes() >= 2
    }

    /// A resignation is final; anything else can be taken back.
    pub fn can_undo(&self) -> bool {
        self.resigned.is_none() && !self.moves.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        self.resigned.is_none() && !self.redo.is_empty()
    }

    pub fn captures(&self) -> Captures {
        Captures {
            black: self.board.captures(Color::Black),
            white: self.board.captures(Color::White),
        }
    }

    /// The stones as a plain grid (index `row * size + col`, row 0 at the bottom).
    pub fn grid(&self) -> Vec<Option<Color>> {
        let size = self.size();
        (0..size * size)
            .map(|i| self.board.stone(self.board.pt(i % size, i / size)))
            .collect()
    }

    /// The position with its prisoners, ready for [`score::score`].
    pub fn position(&self) -> Position {
        Position {
            size: self.size(),
            grid: self.grid(),
            captures: self.captures(),
        }
    }

    /// Whether `color` may play at `at` now (turn order aside).
    pub fn check(&self, color: Color, at: Vertex) -> Result<(), GoError> {
        let illegal = |reason| Err(GoError::Illegal { at, reason });
        if !at.fits(self.size()) {
            return illegal(IllegalReason::OffBoard);
        }
        let p = pt(&self.board, at);
        if let Err(e) = self.board.check(color, p) {
            return illegal(e.into());
        }
        if self.options.superko {
            let after = self.board.hash_after(color, p);
            if after.is_some_and(|hash| self.history.contains(hash)) {
                return illegal(IllegalReason::Superko);
            }
        }
        Ok(())
    }

    /// Plays `play` for `color`: a stone, a pass or a resignation. A new move clears the redo line.
    pub fn play(&mut self, color: Color, play: GoPlay) -> Result<Vec<GoEvent>, GoError> {
        if self.is_over() {
            return Err(GoError::GameOver);
        }
        // A resignation is accepted at any time, from either colour.
        let expected = self.next();
        if color != expected && play != GoPlay::Resign {
            return Err(GoError::NotYourTurn { color, expected });
        }
        if matches!(play, GoPlay::Stone(_)) && self.moves.len() >= self.move_cap() {
            return Err(GoError::MoveCap(self.move_cap()));
        }
        if play == GoPlay::Resign {
            self.resigned = Some(color);
            self.redo.clear();
            let mut events = vec![GoEvent::Resign {
                seat: seat_of(color),
                color: color_name(color),
            }];
            events.extend(self.result().map(|result| GoEvent::GameOver {
                result: result.shared(),
            }));
            return Ok(events);
        }
        let turn = Turn { color, play };
        let events = self.apply(turn)?;
        self.redo.clear();
        Ok(events)
    }

    /// The most moves a game holds: three times the board's points. Real games end long before;
    /// the cap keeps two clients that never pass from growing a game without end.
    pub fn move_cap(&self) -> usize {
        3 * self.options.size * self.options.size
    }

    /// Takes back the last move (captures, ko point and capture counts come back exactly).
    pub fn undo(&mut self) -> Result<Vec<GoEvent>, GoError> {
        self.undo_until(|_| true)
    }

    /// Takes back moves until `is_human` says the colour to move is a human's, at least one move.
    /// Against an AI this goes back to the human's last turn. A game ended by two passes reopens;
    /// a resignation is final.
    pub fn undo_until(
        &mut self,
        is_human: impl Fn(Color) -> bool,
    ) -> Result<Vec<GoEvent>, GoError> {
        if self.resigned.is_some() {
            return Err(GoError::GameOver);
        }
        if self.moves.is_empty() {
            return Err(GoError::NothingToUndo);
        }
        // Taking back k moves leaves the player of move len-k to move.
        let count = (1..=self.moves.len())
            .find(|&k| is_human(self.moves[self.moves.len() - k].color))
            .unwrap_or(1);
        let keep = self.moves.len() - count;
        let taken: Vec<Turn> = self.moves.drain(keep..).rev().collect();
        self.redo.extend(taken.iter().copied());
        let remaining = std::mem::take(&mut self.moves);
        self.rebuild(&remaining);
        Ok(vec![GoEvent::Undo {
            taken_back: taken.iter().map(|turn| turn.play).collect(),
        }])
    }

    /// Replays the last taken-back move.
    pub fn redo(&mut self) -> Result<Vec<GoEvent>, GoError> {
        self.redo_until(|_| true)
    }

    /// Replays taken-back moves, at least one, until `is_human` says a human is to move (or the
    /// line runs out): the mirror of [`Go::undo_until`].
    pub fn redo_until(
        &mut self,
        is_human: impl Fn(Color) -> bool,
    ) -> Result<Vec<GoEvent>, GoError> {
        if self.resigned.is_some() || self.is_over() {
            return Err(GoError::GameOver);
        }
        if self.redo.is_empty() {
            return Err(GoError::NothingToRedo);
        }
        let mut replayed = Vec::new();
        let mut events = Vec::new();
        while let Some(turn) = self.redo.pop() {
            match self.apply(turn) {
                Ok(more) => events.extend(more),
                Err(e) => {
                    // Cannot happen for a line this game produced; keep the game consistent anyway.
                    self.redo.push(turn);
                    return Err(e);
                }
            }
            replayed.push(turn.play);
            if self.is_over() || is_human(self.next()) {
                break;
            }
        }
        events.insert(0, GoEvent::Redo { replayed });
        Ok(events)
    }

    /// The result once the game is over: by resignation, or the count after two passes.
    pub fn result(&self) -> Option<GoResult> {
        if let Some(loser) = self.resigned {
            let winner = loser.opponent();
            let letter = if winner == Color::Black { 'B' } else { 'W' };
            return Some(GoResult {
                winner: Some(winner),
                reason: GoEndReason::Resign,
                summary: format!("{letter}+R"),
                score: None,
            });
        }
        if self.consecutive_passes() >= 2 {
            let report = self.count(&[], self.options.scoring);
            return Some(GoResult {
                winner: report.winner(),
                reason: GoEndReason::Score,
                summary: report.result.clone(),
                score: Some(report),
            });
        }
        None
    }

    /// Counts the position with the stones at `dead` removed, by `method` (the game's own method
    /// when `None`).
    pub fn score(&self, dead: &[Vertex], method: Option<Scoring>) -> Result<ScoreReport, GoError> {
        let mut indices = Vec::with_capacity(dead.len());
        for &v in dead {
            if !v.fits(self.size()) || self.board.stone(pt(&self.board, v)).is_none() {
                return Err(GoError::NoStone(v));
            }
            indices.push(usize::from(v.row) * self.size() + usize::from(v.col));
        }
        Ok(self.count(&indices, method.unwrap_or(self.options.scoring)))
    }

    fn count(&self, dead: &[usize], method: Scoring) -> ScoreReport {
        score::score(&self.position(), dead, self.options.komi, method)
    }

    /// The public state.
    pub fn view(&self) -> GoView {
        let size = self.size();
        let grid = self.grid();
        let board = (0..size)
            .rev()
            .map(|row| {
                grid[row * size..(row + 1) * size]
                    .iter()
                    .map(|stone| match stone {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        GoView {
            size,
            komi: self.options.komi,
            scoring: self.options.scoring,
            superko: self.options.superko,
            board,
            next: color_name(self.next()),
            captures: self.captures(),
            ko: self.board.ko_point().map(|p| vertex(&self.board, p)),
            moves: self.moves.iter().map(|turn| turn.play).collect(),
            setup: self.setup.clone(),
            consecutive_passes: self.consecutive_passes(),
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
            takeback: Takeback::default(),
            ai_resign: false,
            draw_offer: None,
        }
    }

    /// Plays one turn of the move list (checked), returning its events.
    fn apply(&mut self, turn: Turn) -> Result<Vec<GoEvent>, GoError> {
        if self.is_over() {
            return Err(GoError::GameOver);
        }
        let Turn { color, play } = turn;
        let seat = seat_of(color);
        let mut events = Vec::with_capacity(2);
        match play {
            GoPlay::Stone(at) => {
                self.check(color, at)?;
                let captured = self.captured_by(color, pt(&self.board, at));
                self.place(turn)?;
                events.push(GoEvent::Stone {
                    seat,
                    color: color_name(color),
                    at,
                    captured,
                });
            }
            GoPlay::Pass => {
                self.place(turn)?;
                events.push(GoEvent::Pass {
                    seat,
                    color: color_name(color),
                });
            }
            GoPlay::Resign => unreachable!("a resignation is not part of the move list"),
        }
        events.extend(self.result().map(|result| GoEvent::GameOver {
            result: result.shared(),
        }));
        Ok(events)
    }

    /// Plays one turn of the move list (checked) without telling what happened: what loading a
    /// stored game repeats for every move, so it leaves out the events and their captured lists.
    fn advance(&mut self, turn: Turn) -> Result<(), GoError> {
        if self.is_over() {
            return Err(GoError::GameOver);
        }
        if let GoPlay::Stone(at) = turn.play {
            self.check(turn.color, at)?;
        }
        self.place(turn)
    }

    /// Plays one turn that [`Go::check`] has passed (the live path checks it before it counts
    /// the captures, and need not check it twice).
    fn place(&mut self, turn: Turn) -> Result<(), GoError> {
        let Turn { color, play } = turn;
        match play {
            GoPlay::Stone(at) => {
                let p = pt(&self.board, at);
                if let Err(e) = self.board.play(color, p) {
                    return Err(GoError::Illegal {
                        at,
                        reason: e.into(),
                    });
                }
                let hash = self.board.hash();
                self.history.add(hash);
            }
            GoPlay::Pass => self.board.pass(),
            GoPlay::Resign => unreachable!("a resignation is not part of the move list"),
        }
        self.moves.push(turn);
        Ok(())
    }

    /// The stones a legal move of `color` at `p` takes: the opponent chains next to `p` whose only
    /// liberty is `p`.
    fn captured_by(&self, color: Color, p: Pt) -> Vec<Vertex> {
        let mut taken: Vec<Pt> = Vec::new();
        for n in self.board.neighbors(p) {
            if self.board.stone(n) == Some(color.opponent())
                && self.board.liberties(n) == 1
                && !taken.contains(&n)
            {
                taken.extend(self.board.chain(n));
            }
        }
        taken.sort();
        taken.into_iter().map(|q| vertex(&self.board, q)).collect()
    }

    /// Replays `moves` on top of the current position; on failure, the 1-based number of the move
    /// that failed (counted from the start of the game) and why.
    pub(super) fn replay(&mut self, moves: &[Turn]) -> Result<(), (usize, GoError)> {
        for &turn in moves {
            if turn.color != self.next() {
                let expected = self.next();
                return Err((
                    self.moves.len() + 1,
                    GoError::NotYourTurn {
                        color: turn.color,
                        expected,
                    },
                ));
            }
            self.advance(turn).map_err(|e| (self.moves.len() + 1, e))?;
        }
        Ok(())
    }

    /// Records a resignation read from an SGF record (whoever was to move).
    pub(super) fn mark_resigned(&mut self, loser: Color) {
        self.resigned = Some(loser);
        self.redo.clear();
    }

    /// Rebuilds the board from the setup and `moves`, which this game played before.
    fn rebuild(&mut self, moves: &[Turn]) {
        let fresh = Go::with_setup(self.options, self.setup.clone(), self.first)
            .expect("the setup was accepted before");
        let redo = std::mem::take(&mut self.redo);
        let resigned = self.resigned;
        *self = fresh;
        self.replay(moves)
            .expect("moves that were legal stay legal when replayed");
        self.redo = redo;
        self.resigned = resigned;
    }
}

/// The board point of a vertex known to fit.
fn pt(board: &Board, v: Vertex) -> Pt {
    board.pt(usize::from(v.col), usize::from(v.row))
}

fn vertex(board: &Board, p: Pt) -> Vertex {
    let (col, row) = board.col_row(p);
    Vertex::new(col as u8, row as u8)
}

/// Fixed handicap points (the usual star points), `None` where there are not enough of them.
pub fn handicap_points(size: usize, stones: usize) -> Option<Vec<Vertex>> {
    if !(2..=9).contains(&stones) || size < 7 {
        return None;
    }
    // The star points lie on the 3rd line on small boards, the 4th from 13×13 up.
    let edge = if size >= 13 { 3 } else { 2 };
    let (low, high) = (edge, size - 1 - edge);
    let middle = size / 2;
    let has_middle = size % 2 == 1;
    if stones > 4 && !has_middle {
        return None;
    }
    let v = |c: usize, r: usize| Vertex::new(c as u8, r as u8);
    // Order as GNU Go places them: corners first, then sides, then the centre for odd counts.
    let mut points = vec![v(high, high), v(low, low), v(low, high), v(high, low)];
    points.truncate(stones.min(4));
    if stones == 3 {
        points.truncate(3);
    }
    match stones {
        5 | 7 | 9 => {
            if stones >= 7 {
                points.extend([v(low, middle), v(high, middle)]);
            }
            if stones == 9 {
                points.extend([v(middle, low), v(middle, high)]);
            }
            points.push(v(middle, middle));
        }
        6 | 8 => {
            points.extend([v(low, middle), v(high, middle)]);
            if stones == 8 {
                points.extend([v(middle, low), v(middle, high)]);
            }
        }
        _ => {}
    }
    Some(points)
}
