//! The contract between a turn-based game's rules and the machinery that stores, serves and plays it.

use std::ops::RangeInclusive;
use std::time::Duration;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// A seat index: 0 moves first.
pub type Seat = usize;

/// AI strength a client asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AiLevel {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl AiLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            AiLevel::Easy => "easy",
            AiLevel::Normal => "normal",
            AiLevel::Hard => "hard",
        }
    }
}

/// Who sits in a seat, as the creator asked for it: `{"name": "alice"}`, `{"ai": "hard"}` or
/// `{"open": true}` (a seat somebody joins later, where the game allows it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    /// A human player's name (1–32 characters); optional for an AI seat.
    #[schema(example = "alice", min_length = 1, max_length = 32)]
    pub name: Option<String>,
    /// Makes the seat an AI of this level.
    pub ai: Option<AiLevel>,
    /// Leaves the seat open for `join`.
    pub open: Option<bool>,
}

/// What a seat is once the game exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Human,
    Ai(AiLevel),
    Open,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    FiveInRow,
    Resign,
    Score,
    Draw,
    OutOfCards,
    Aborted,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameResult {
    /// Winning seats; empty for a draw.
    pub winners: Vec<Seat>,
    pub reason: EndReason,
    /// A short human summary, e.g. `"black wins with five in a row"` or `"B+3.5"`.
    pub summary: String,
}

/// A rule said no. The HTTP layer maps each variant to one stable error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A well-formed move the rules forbid (occupied point, suicide, unplayable card …).
    #[error("{0}")]
    Illegal(String),
    /// Well-formed options whose values are out of range (board size 99 …).
    #[error("{0}")]
    InvalidOptions(String),
    #[error("it is seat {expected}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: Seat, expected: Seat },
    #[error("the game is over")]
    GameOver,
    /// The action exists in the API but not for this game or not in this position.
    #[error("{0}")]
    Unsupported(String),
}

/// A move chosen by an AI, with whatever the engine wants to say about it.
#[derive(Clone, Debug)]
pub struct AiChoice<M> {
    pub chosen: M,
    pub analysis: Option<Value>,
}

/// A turn-based game as the framework sees it: pure state and functions, the way boardgame.io
/// describes a game. The state is persisted with serde (it may hold hidden information, such as a
/// deck order); what a client may see is [`TurnGame::view`].
pub trait TurnGame: Clone + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The path segment and `game` field: `"gomoku"`, `"go"`, `"uno"`.
    const NAME: &'static str;
    /// Whether finished games update the players' persistent scores.
    const SCORED: bool = false;
    /// Whether a seat may be left open at creation and joined later.
    const OPEN_SEATS: bool = false;
    /// Options a client gives at creation (the create body, players included).
    type Options: DeserializeOwned + Send + 'static;
    /// One move as a client posts it; also what the move log records.
    type Move: Clone + Serialize + DeserializeOwned + Send + 'static;

    /// How many seats the game takes.
    fn seat_range() -> RangeInclusive<usize>;
    /// The players named in the options.
    fn players(options: &Self::Options) -> &[PlayerSpec];
    /// A fresh game. `seed` makes every random choice reproducible.
    fn new(options: &Self::Options, seats: &[SeatKind], seed: u64) -> Result<Self, RuleError>;
    /// The seat to act, `None` once the game is over.
    fn turn(&self) -> Option<Seat>;
    /// Applies `mv` for `seat`, returning the events it caused.
    fn apply(&mut self, seat: Seat, mv: &Self::Move) -> Result<Vec<Value>, RuleError>;
    /// The result, once the game has ended.
    fn result(&self) -> Option<GameResult>;
    /// The state as `seat` may see it (`None`: a spectator).
    fn view(&self, seat: Option<Seat>) -> Value;
    /// A move for `seat`, searched within `budget`; `seed` drives any random choice.
    fn choose_move(
        &self,
        seat: Seat,
        level: AiLevel,
        budget: Duration,
        seed: u64,
    ) -> Result<AiChoice<Self::Move>, RuleError>;

    /// Takes back moves: the last one, or against an AI back to the human's last turn.
    fn undo(&mut self, by: Seat, seats: &[SeatKind]) -> Result<Vec<Value>, RuleError> {
        let _ = (by, seats);
        Err(RuleError::Unsupported(format!(
            "{} has no undo",
            Self::NAME
        )))
    }

    /// Replays the last taken-back move.
    fn redo(&mut self, by: Seat, seats: &[SeatKind]) -> Result<Vec<Value>, RuleError> {
        let _ = (by, seats);
        Err(RuleError::Unsupported(format!(
            "{} has no redo",
            Self::NAME
        )))
    }
}
