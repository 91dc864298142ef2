//! The contract between a turn-based game's rules and the machinery that stores, serves and plays it.

#[cfg(feature = "turn")]
use std::ops::RangeInclusive;
use std::time::Duration;

#[cfg(feature = "turn")]
use serde::de::DeserializeOwned;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "turn")]
use serde_json::Value;

#[cfg(feature = "turn")]
use crate::clock::Clock;
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// A seat index: 0 moves first.
pub type Seat = usize;

/// AI strength a client asks for.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::EnumString,
)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[strum(serialize_all = "snake_case")]
pub enum AiLevel {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl AiLevel {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A stored word that names no known value: the database holds something this build does not
/// understand, which is an error, never a silent default.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {word:?}")]
pub struct UnknownWord {
    pub what: &'static str,
    pub word: String,
}

impl UnknownWord {
    pub fn new(what: &'static str, word: &str) -> Self {
        Self {
            what,
            word: word.chars().take(40).collect(),
        }
    }
}

/// Who sits in a seat, as the creator asked for it: `{"name": "alice"}`, `{"ai": "hard"}` or
/// `{"open": true}` (a seat somebody joins later with `POST …/join`).
/// Its OpenAPI schema is written out in `player_schema`, with the three shapes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct PlayerSpec {
    /// A human player's name (1–32 characters); optional for an AI seat.
    pub name: Option<String>,
    /// Makes the seat an AI of this level.
    pub ai: Option<AiLevel>,
    /// Leaves the seat open for `join`: to anyone (`true`), to whoever holds the invitation
    /// code the create answer gives (`"invite"`), or to one registered player
    /// (`{"for": "carol"}`).
    pub open: Option<OpenSeat>,
}

/// How an open seat is offered: `true` (anyone), `"invite"` or `{"for": "<registered name>"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum OpenSeat {
    Anyone(bool),
    Invite(InviteWord),
    For(ReservedFor),
}

/// The word `"invite"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum InviteWord {
    #[cfg_attr(feature = "serde", serde(rename = "invite"))]
    Invite,
}

/// `{"for": "carol"}`: the seat waits for that registered player's key.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ReservedFor {
    #[cfg_attr(feature = "serde", serde(rename = "for"))]
    pub player: String,
}

/// What a seat is once the game exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Human,
    Ai(AiLevel),
    Open,
}

impl SeatKind {
    pub fn is_ai(self) -> bool {
        matches!(self, SeatKind::Ai(_))
    }
}

/// The stored and shown word for a seat's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[strum(serialize_all = "snake_case")]
pub enum SeatKindWord {
    Human,
    Ai,
    Open,
}

impl SeatKindWord {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl From<SeatKind> for SeatKindWord {
    fn from(kind: SeatKind) -> Self {
        match kind {
            SeatKind::Human => SeatKindWord::Human,
            SeatKind::Ai(_) => SeatKindWord::Ai,
            SeatKind::Open => SeatKindWord::Open,
        }
    }
}

impl TryFrom<String> for SeatKindWord {
    type Error = UnknownWord;

    fn try_from(s: String) -> Result<Self, UnknownWord> {
        s.parse().map_err(|_| UnknownWord::new("seat kind", &s))
    }
}

/// Where a game is in its life.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::EnumString, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[strum(serialize_all = "snake_case")]
pub enum GameStatus {
    /// Seats are open or the game was created with `"start": false`.
    Waiting,
    Active,
    Finished,
    Aborted,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl TryFrom<String> for GameStatus {
    type Error = UnknownWord;

    fn try_from(s: String) -> Result<Self, UnknownWord> {
        s.parse().map_err(|_| UnknownWord::new("game status", &s))
    }
}

/// Why a game ended. Games name their own reasons (`five_in_row`, `score`, `out_of_cards` …);
/// `resign`, `draw` and `aborted` are shared.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[cfg_attr(feature = "openapi", schema(value_type = String, example = "five_in_row"))]
pub struct EndReason(pub std::borrow::Cow<'static, str>);

impl EndReason {
    pub const RESIGN: EndReason = EndReason::named("resign");
    pub const DRAW: EndReason = EndReason::named("draw");
    pub const ABORTED: EndReason = EndReason::named("aborted");
    /// A seat ran out of time on its clock.
    pub const TIMEOUT: EndReason = EndReason::named("timeout");
    /// A seat stopped acting in an untimed game, and another claimed the win (`claim-victory`).
    pub const ABANDONED: EndReason = EndReason::named("abandoned");

    pub const fn named(word: &'static str) -> Self {
        EndReason(std::borrow::Cow::Borrowed(word))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"winners": [0], "reason": "five_in_row", "summary": "black wins with five in a row"})))]
pub struct GameResult {
    /// Winning seats; empty for a draw.
    pub winners: Vec<usize>,
    /// `five_in_row`, `resign`, `score`, `draw`, `out_of_cards`, `timeout`, `abandoned` or
    /// `aborted`.
    pub reason: EndReason,
    /// A short human summary, e.g. `"black wins with five in a row"` or `"B+3.5"`.
    pub summary: String,
}

impl GameResult {
    pub fn aborted() -> Self {
        GameResult {
            winners: Vec::new(),
            reason: EndReason::ABORTED,
            summary: "the game was ended before it finished".into(),
        }
    }
}

/// A seat that lost without a move of the rules' own: out of time or gone (see
/// [`TurnGame::forfeit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Forfeit {
    pub seat: Seat,
    pub reason: EndReason,
}

impl Forfeit {
    /// Records in a two-seat game's `slot` that `seat` forfeited for `reason`, unless the game is
    /// `over` already; answers the result.
    pub fn record(
        slot: &mut Option<Forfeit>,
        over: bool,
        seat: Seat,
        reason: EndReason,
    ) -> Result<GameResult, RuleError> {
        if over {
            return Err(RuleError::GameOver);
        }
        let forfeit = slot.insert(Forfeit { seat, reason });
        Ok(forfeit.result())
    }

    /// The result of a two-seat game that `seat` forfeited: the other seat wins.
    pub fn result(&self) -> GameResult {
        let winner = 1 - self.seat.min(1);
        let why = if self.reason == EndReason::TIMEOUT {
            "ran out of time"
        } else {
            "left the game"
        };
        GameResult {
            winners: vec![winner],
            reason: self.reason.clone(),
            summary: format!("seat {} {why}; seat {winner} wins", self.seat),
        }
    }
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
    /// The game has not started yet (seats are open or it waits for `start`).
    #[error("the game has not started yet")]
    NotStarted,
    /// The action exists in the API but not for this game or not in this position.
    #[error("{0}")]
    Unsupported(String),
    /// The table moved on before the action arrived (UNO: a jump-in after the window closed,
    /// or after another request played the card): 409, fetch the game and decide again.
    #[error("{0}")]
    Conflict(String),
}

/// A move chosen by an AI, with what the engine says about it.
#[derive(Clone, Debug)]
pub struct AiChoice<M> {
    pub chosen: M,
    pub analysis: Option<AiAnalysis>,
}

/// What an AI says about its move, in one vocabulary for every game; each engine fills the
/// fields it has (a search by nodes has `nodes` and `depth`, one by playouts `playouts` and
/// `win_rate`).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"level": "hard", "principal_variation": ["h8", "i9", "j10"], "score": 120, "nodes": 48211, "depth": 9, "elapsed_ms": 498, "candidates": []})))]
pub struct AiAnalysis {
    pub level: AiLevel,
    /// The expected line, starting with the chosen move, in the game's notation.
    pub principal_variation: Vec<String>,
    /// The search's evaluation from the mover's side (higher is better; a forced win in `n`
    /// plies is `1000000 - n`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub score: Option<i64>,
    /// The chance that the mover wins, 0 to 1, as the search sees it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub win_rate: Option<f64>,
    /// Positions searched.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub nodes: Option<u64>,
    /// Simulated games (playouts or determinised games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub playouts: Option<u64>,
    /// Plies searched.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub depth: Option<u32>,
    /// Time the AI thought, in milliseconds.
    pub elapsed_ms: u64,
    /// The moves the search weighed most, best first, with their visits.
    pub candidates: Vec<AiCandidate>,
}

/// A move an AI weighed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct AiCandidate {
    /// The move in the game's notation.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub play: String,
    pub visits: u64,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub win_rate: Option<f64>,
}

/// What an AI search may use.
#[derive(Clone, Copy, Debug)]
pub struct AiBudget {
    /// Wall-clock time to think.
    pub time: Duration,
    /// Threads the AI pool grants this search (1 or more).
    pub threads: usize,
    /// Drives every random choice: the same seed and budget think the same way.
    pub seed: u64,
}

/// A turn-based game as the framework sees it: pure state and functions, the way boardgame.io
/// describes a game. The state is persisted with serde (it may hold hidden information, such as a
/// deck order); what a client may see is [`TurnGame::view`], and nothing else leaves the server.
#[cfg(feature = "turn")]
pub trait TurnGame: Clone + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The path segment and `game` field: `"gomoku"`, `"go"`, `"uno"`.
    const NAME: &'static str;
    /// One line for the OpenAPI tag.
    const DESCRIPTION: &'static str;
    /// Whether finished games update the players' persistent scores.
    const SCORED: bool = false;
    /// Whether the game is rated (Glicko-2, two seats), and then its AI levels' fixed ratings.
    const RATINGS: Option<AiRatings> = None;
    /// Whether the game has `undo` / `redo` routes.
    const UNDO: bool = false;
    const REDO: bool = false;
    /// Whether seats may send each other messages (`POST …/messages`).
    const MESSAGES: bool = false;
    /// Whether one seat may offer a draw that the other accepts (`POST …/draw`).
    const DRAWS: bool = false;
    /// Whether the game takes Go's byo-yomi time control.
    const BYOYOMI: bool = false;
    /// Whether a seat's view holds something other seats may not see (UNO hands); the
    /// conformance suite then checks that no other view, event or log entry carries it.
    const PRIVATE_VIEWS: bool = false;

    /// Options a client gives at creation (the create body, players included).
    type Options: DeserializeOwned + ToSchema + Send + 'static;
    /// One move as a client posts it.
    type Move: Clone + Serialize + DeserializeOwned + ToSchema + Send + 'static;
    /// The game-specific `state` of the resource, as one seat (or a spectator) may see it.
    type View: Serialize + ToSchema + Send + 'static;
    /// What a change caused, as everybody may see it.
    type Event: Clone + Serialize + ToSchema + Send + Sync + 'static;

    /// The game's own example of play: the OpenAPI document shows it as the create and move
    /// examples, and the conformance suite and the refusal check play it.
    fn example() -> Example;
    /// How many seats the game takes.
    fn seat_range() -> RangeInclusive<usize>;
    /// The players named in the options.
    fn players(options: &Self::Options) -> &[PlayerSpec];
    /// The create options that can fix the deal in advance (UNO's `deck` and `seed`).
    const FIXED_DEAL_OPTIONS: &'static [&'static str] = &[];
    /// The create option that fixes the deal in advance (one of [`Self::FIXED_DEAL_OPTIONS`]), if
    /// given: the creator would then know every hand, so it is refused when a seat is open to
    /// others.
    fn fixed_deal(options: &Self::Options) -> Option<&'static str> {
        let _ = options;
        None
    }
    /// Whether the creator asked for a test table (UNO's `"test": true`): a fixed deal is then
    /// allowed with seats open by invitation, whose guests see `deck` in the game's state.
    fn test_table(options: &Self::Options) -> bool {
        let _ = options;
        false
    }
    /// How many seats of this game one name may hold (`join` refuses more, 409).
    fn seats_per_name(&self) -> usize {
        1
    }
    /// Whether the game waits for `POST …/start` even once every seat is filled (created with
    /// `"start": false`); otherwise it starts by itself when the last seat is taken.
    fn waits_for_start(&self) -> bool {
        false
    }
    /// Whether the server plays AI seats by itself after each human action (`"auto_ai"`).
    fn auto_ai(&self) -> bool {
        false
    }
    /// Whether the creator's options let a rated game ([`TurnGame::RATINGS`]) move ratings: not
    /// when created with `"rated": false`, nor from a start the AI levels' ratings were not
    /// measured from (Go: an SGF record, handicap stones, an unusual komi).
    fn rated(&self) -> bool {
        true
    }
    /// A fresh game. `seed` makes every random choice reproducible. Open seats are filled later.
    fn new(options: &Self::Options, seats: &[SeatKind], seed: u64) -> Result<Self, RuleError>;
    /// Begins play once every seat is taken (deal the cards …). Games with nothing to do at the
    /// start keep the default.
    fn start(&mut self, seats: &[SeatKind]) -> Result<Vec<Self::Event>, RuleError> {
        let _ = seats;
        Ok(Vec::new())
    }
    /// Whether play has begun.
    fn started(&self) -> bool {
        true
    }
    /// The seat to act, `None` once the game is over or before it started.
    fn turn(&self) -> Option<Seat>;
    /// Whether `seat` may post `mv` now: the seat to act, or any seat resigning a game in play.
    /// UNO's jump-in also lets a seat holding the same card act out of turn.
    fn may_act(&self, seat: Seat, mv: &Self::Move) -> bool {
        self.turn() == Some(seat) || (Self::resigns(mv) && self.result().is_none())
    }
    /// Whether `mv` is a resignation, which a seat may post at any time (not only on its turn).
    fn resigns(mv: &Self::Move) -> bool {
        let _ = mv;
        false
    }
    /// Whether `seat` has made a move of its own in this game. Until every seat has, `end` may
    /// abort a game between humans; after that only a resignation ends it early.
    fn has_moved(&self, seat: Seat) -> bool;
    /// Whether a human could still act out of turn now (UNO's jump-in window): the server then
    /// stops playing AI seats by itself so the human gets the chance.
    fn humans_may_interject(&self, seats: &[SeatKind]) -> bool {
        let _ = seats;
        false
    }
    /// Applies `mv` for `seat`, returning the events it caused.
    fn apply(&mut self, seat: Seat, mv: &Self::Move) -> Result<Vec<Self::Event>, RuleError>;
    /// The game's clock, when it was created with one (`"clock"` in the options). The rules keep
    /// it with the state but never run it: the server charges it with its own time.
    fn clock(&self) -> Option<&Clock>;
    fn clock_mut(&mut self) -> Option<&mut Clock>;
    /// `seat` loses without a move: out of time (`reason` [`EndReason::TIMEOUT`]) or gone
    /// ([`EndReason::ABANDONED`]). With two seats the other wins; UNO with more seats goes on
    /// without it, and the last seat standing wins.
    fn forfeit(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<Self::Event>, RuleError>;
    /// What the public move log records for `mv`: the move itself unless it carries something
    /// secret.
    fn log_entry(mv: &Self::Move) -> Value {
        serde_json::to_value(mv).unwrap_or(Value::Null)
    }
    /// Ends the game at once (`POST …/end`).
    fn abort(&mut self) -> Vec<Self::Event>;
    /// The result, once the game has ended.
    fn result(&self) -> Option<GameResult>;
    /// The state as `seat` may see it (`None`: a spectator).
    fn view(&self, seat: Option<Seat>) -> Self::View;
    /// A move for `seat`, searched within `budget`.
    fn choose_move(
        &self,
        seat: Seat,
        level: AiLevel,
        budget: AiBudget,
    ) -> Result<AiChoice<Self::Move>, RuleError>;

    /// Takes back moves: the last one, or against an AI back to the human's last turn.
    fn undo(&mut self, by: Seat, seats: &[SeatKind]) -> Result<Vec<Self::Event>, RuleError> {
        let _ = (by, seats);
        Err(RuleError::Unsupported(format!(
            "{} has no undo",
            Self::NAME
        )))
    }

    /// Replays the last taken-back move (against an AI: up to the human's next turn).
    fn redo(&mut self, by: Seat, seats: &[SeatKind]) -> Result<Vec<Self::Event>, RuleError> {
        let _ = (by, seats);
        Err(RuleError::Unsupported(format!(
            "{} has no redo",
            Self::NAME
        )))
    }

    /// `by` offers a draw, or accepts the other seat's offer, which ends the game in a draw. Only
    /// between humans; a move declines a waiting offer, as it declines a take-back.
    fn offer_draw(&mut self, by: Seat, seats: &[SeatKind]) -> Result<Vec<Self::Event>, RuleError> {
        let _ = (by, seats);
        Err(RuleError::Unsupported(format!(
            "{} has no draw offers",
            Self::NAME
        )))
    }

    /// A message from one seat to another (UNO's shout).
    fn message(&mut self, from: Seat, to: Seat, text: &str) -> Result<Vec<Self::Event>, RuleError> {
        let _ = (from, to, text);
        Err(RuleError::Unsupported(format!(
            "{} has no messages",
            Self::NAME
        )))
    }

    /// Read-only reports beyond the state (Go's `score` and `sgf`), by name.
    fn reports() -> &'static [ReportSpec] {
        &[]
    }

    /// Renders the report `name` (one of [`TurnGame::reports`]) for the query parameters given;
    /// `names` are the seats' names as the game resource shows them (`None` for an open seat).
    fn report(
        &self,
        name: &str,
        query: &ReportQuery,
        names: &[Option<String>],
    ) -> Result<Report, RuleError> {
        let _ = (query, names);
        Err(RuleError::Unsupported(format!(
            "{} has no report {name:?}",
            Self::NAME
        )))
    }
}

/// A game's example of play ([`TurnGame::example`]): a known start and its first two moves.
#[cfg(feature = "turn")]
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// A create body with two human seats, after which the game is under way with seat 0 to
    /// move (UNO gives its deck in the standard order, so the hands are known).
    pub create: Value,
    /// A legal first move for seat 0, and then a legal answer for seat 1.
    pub first: Value,
    pub second: Value,
    /// The move that resigns, for a game that has one.
    pub resign: Option<Value>,
}

/// A report a game offers at `GET /v1/{game}/games/{id}/{name}`.
#[cfg(feature = "turn")]
pub struct ReportSpec {
    pub name: &'static str,
    pub summary: &'static str,
    /// Query parameters.
    pub params: &'static [ReportParam],
    /// `application/json` or another media type (`application/x-go-sgf`).
    pub content_type: &'static str,
    /// Whether this query of the report searches (Go's `estimate=true` runs playouts): it then
    /// runs on the AI pool, under the client's AI limit, and its answer is kept per version.
    pub thinks: fn(&ReportQuery) -> bool,
    /// The JSON schema of the answer (for JSON reports): its component name and schema first,
    /// then the schemas it refers to.
    pub schema: fn() -> Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
}

/// A query parameter of a report.
#[cfg(feature = "turn")]
pub struct ReportParam {
    pub name: &'static str,
    pub description: &'static str,
    /// The values it takes, when they are a closed set (documented as an enum).
    pub values: &'static [&'static str],
    /// A pattern its values match, when they are free-form (documented as the schema's pattern).
    pub pattern: Option<&'static str>,
}

/// Query parameters of a report, by name.
#[cfg(feature = "turn")]
pub type ReportQuery = std::collections::BTreeMap<String, String>;

/// A rendered report.
#[cfg(feature = "turn")]
#[derive(Clone, Debug)]
pub enum Report {
    Json(Value),
    Text(String),
}

/// The component name and schema of a `ToSchema` type, for [`ReportSpec::schema`], then the
/// schemas it refers to (which the document must hold too).
#[cfg(feature = "turn")]
pub fn schema_of<T: ToSchema>() -> Vec<(
    String,
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
)> {
    let mut schemas = vec![(T::name().into_owned(), T::schema())];
    T::schemas(&mut schemas);
    schemas
}

/// The fixed Glicko-2 ratings of a game's AI levels, which rated games against them count with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AiRatings {
    pub easy: f64,
    pub normal: f64,
    pub hard: f64,
}
