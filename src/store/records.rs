//! Rows as the store reads and writes them.

use chrono::{DateTime, Utc};
use serde_json::value::RawValue;
use serde_json::Value;
use sqlx::types::Json;
use uuid::Uuid;

use crate::games::{AiLevel, GameStatus, SeatKind, SeatKindWord, UnknownWord};
use crate::rating::Rating;

/// A seat as stored: who sits there and, for a human, the hash of its token. Its JSON form (the
/// seats a change left, which a stream replays) has no hashes.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow, serde::Serialize, serde::Deserialize)]
pub struct SeatRow {
    pub seat: i32,
    pub name: Option<String>,
    #[sqlx(try_from = "String")]
    pub kind: SeatKindWord,
    /// The AI level of an `ai` seat.
    pub level: Option<String>,
    #[serde(skip)]
    pub token_hash: Option<Vec<u8>>,
    /// The registered player (canonical name) who claimed the seat with their key.
    pub player: Option<String>,
    /// An open seat reserved by invitation: the SHA-256 hash of its code (shown once at create).
    #[serde(skip)]
    pub invite_hash: Option<Vec<u8>>,
    /// An open seat reserved for a registered player: their canonical name.
    pub reserved_for: Option<String>,
}

impl SeatRow {
    /// The seat's kind as the rules see it; an `ai` seat without a known level is corrupt.
    pub fn kind(&self) -> Result<SeatKind, UnknownWord> {
        match self.kind {
            SeatKindWord::Human => Ok(SeatKind::Human),
            SeatKindWord::Open => Ok(SeatKind::Open),
            SeatKindWord::Ai => {
                let level = self.level.as_deref().unwrap_or_default();
                level
                    .parse::<AiLevel>()
                    .map(SeatKind::Ai)
                    .map_err(|_| UnknownWord::new("AI level", level))
            }
        }
    }
}

/// A game's rules state as stored: JSON text, kept as text. A request that finds the game in the
/// cache of loaded games never parses it, and a save writes what the game serialized, so a long
/// game's state is not built into a JSON tree and back on every move.
pub type StoredState = Box<RawValue>;

#[derive(Clone, Debug)]
pub struct NewGame {
    pub id: Uuid,
    pub game: String,
    pub status: GameStatus,
    pub turn: Option<i32>,
    pub state: StoredState,
    pub seats: Vec<SeatRow>,
    /// Players whose score this game may move; they get a score row at creation.
    pub scored_players: Vec<ScoreHolder>,
    /// What the lobby announces, if the game is listed.
    pub lobby: LobbyNote,
    pub at: DateTime<Utc>,
    /// When a running clock expires, grace included (ms since the Unix epoch).
    pub sweep_at_ms: Option<i64>,
    /// The create options without `players`, which a rematch creates its game from.
    pub options: Option<Value>,
    /// The finished game this one is the rematch of.
    pub rematch_of: Option<Uuid>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct GameRow {
    pub id: Uuid,
    pub game: String,
    #[sqlx(try_from = "String")]
    pub status: GameStatus,
    pub version: i64,
    pub turn: Option<i32>,
    /// `None` when the reader needs no state: a load whose caller already holds this very version
    /// (see [`HeldVersion`]), or a listing.
    pub state: Option<Json<StoredState>>,
    pub result: Option<Json<Value>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// When a running clock expires, grace included (ms since the Unix epoch): a request that
    /// reads the game after it settles the clock first.
    pub sweep_at_ms: Option<i64>,
}

/// A stored version of a game that a reader already holds in memory. Every change moves the
/// version by a compare-and-swap, so a version and its time name one stored state for good; a load
/// that finds the row still there leaves the state out, and a long game's state is neither sent
/// by the database nor decoded for a request the cache answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldVersion {
    pub version: i64,
    pub updated_at: DateTime<Utc>,
}

/// A game with its seats.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
}

/// Whose score a row is: a registered player's (their canonical name) or a guest name's. The two
/// never share a row, so registering a name starts a new record and leaves the guest's alone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoreHolder {
    /// The name shown.
    pub name: String,
    /// The registered player (canonical name); `None` for a guest.
    pub player: Option<String>,
}

impl ScoreHolder {
    pub fn guest(name: &str) -> Self {
        ScoreHolder {
            name: name.to_owned(),
            player: None,
        }
    }

    /// The row's key: `player:<canonical>` or `guest:<name>` (migration 0005).
    pub fn key(&self) -> String {
        match &self.player {
            Some(canonical) => format!("player:{canonical}"),
            None => format!("guest:{}", self.name),
        }
    }
}

/// Score movement for one player in one game kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreChange {
    pub holder: ScoreHolder,
    pub delta: i64,
    pub win: bool,
    pub loss: bool,
    pub draw: bool,
}

/// One accepted change to a game.
#[derive(Clone, Debug)]
pub struct Commit {
    pub game_id: Uuid,
    pub game: String,
    pub expected_version: i64,
    /// The status the change moves the game to; `None` when it keeps the one stored.
    pub status: Option<GameStatus>,
    pub turn: Option<i32>,
    pub state: StoredState,
    pub result: Option<Value>,
    /// The seat that acted (`None`: the server, e.g. an abort).
    pub seat: Option<i32>,
    /// What was done, as the log records it.
    pub action: Value,
    /// Seats whose row changes (a join).
    pub seats: Vec<SeatRow>,
    pub scores: Vec<ScoreChange>,
    /// The ratings this change moves: set on the change that finishes a rated game.
    pub rating: Option<RatedGame>,
    /// What a stream replays of this change: the events it caused, and every seat after it.
    pub events: Value,
    pub seats_after: Vec<SeatRow>,
    /// What the lobby announces, if anything (a join, a start, an end).
    pub lobby: Option<LobbyNote>,
    pub at: DateTime<Utc>,
    /// When the clock the change leaves running expires, grace included (ms since the epoch).
    pub sweep_at_ms: Option<i64>,
}

/// A lobby announcement: what happened to a game, and its public listing entry after it. The
/// store writes it only for a listed game (see `relist`).
#[derive(Clone, Debug)]
pub struct LobbyNote {
    pub kind: LobbyKind,
    pub status: GameStatus,
    pub entry: Value,
}

/// What the lobby announces of a game.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    strum::AsRefStr,
    strum::EnumString,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LobbyKind {
    Created,
    /// A seat was filled.
    Joined,
    Started,
    Finished,
    Aborted,
    /// A seek was opened (its entry is the seek, not a game).
    SeekOpened,
    /// A seek was paired, cancelled or expired.
    SeekClosed,
}

impl LobbyKind {
    /// Whether the announcement is of a seek rather than a game.
    pub fn of_seek(self) -> bool {
        matches!(self, LobbyKind::SeekOpened | LobbyKind::SeekClosed)
    }
}

/// One stored lobby announcement.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LobbyRow {
    pub seq: i64,
    pub game_id: Uuid,
    pub game: String,
    pub kind: String,
    pub status: String,
    pub entry: Json<Value>,
}

/// One change as a stream replays it: the state and seats it left, and its events.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ChangeRow {
    pub version: i64,
    pub state: Json<StoredState>,
    pub seats: Json<Vec<SeatRow>>,
    pub events: Json<Value>,
    pub at: DateTime<Utc>,
}

/// What a stream ticket opens: a game's stream, as `seat` sees it (`None`: a spectator), or a
/// seek's stream, whose secret travels sealed with the ticket (`seal`, see `service::seeks`).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TicketGrant {
    pub target: Uuid,
    pub seat: Option<i32>,
    pub seal: Option<Vec<u8>>,
}

/// A player asking the lobby for an opponent, as stored. `options` are the game's create options
/// without `players`; two seeks pair only when theirs are equal. `rating` is the seeker's rating
/// (registered players only), `rating_min`/`rating_max` the range it accepts an opponent in.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SeekRecord {
    pub id: Uuid,
    pub game: String,
    pub options: Json<Value>,
    pub players: i32,
    /// The seat it asks for (seat 0 moves first), if any.
    pub seat: Option<i32>,
    pub name: String,
    pub player: Option<String>,
    pub rating: Option<f64>,
    pub rating_min: Option<f64>,
    pub rating_max: Option<f64>,
    pub secret_hash: Vec<u8>,
    /// `open`, `paired`, `cancelled` or `expired`.
    pub status: String,
    pub game_id: Option<Uuid>,
    pub paired_seat: Option<i32>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
}

/// A seek leaving the lobby: how (`paired`, `cancelled`, `expired`), and its lobby entry after.
#[derive(Clone, Debug)]
pub struct SeekClosing {
    pub id: Uuid,
    pub status: &'static str,
    pub entry: Value,
}

/// Seeks paired into a new game: each seek's seat and announcement, and the game.
#[derive(Clone, Debug)]
pub struct Pairing {
    pub seats: Vec<(SeekClosing, i32)>,
    pub game: NewGame,
}

/// A finished rated game, for the rating update the store makes in the finishing transaction
/// (it reads the players' current ratings there, under a row lock).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    pub sides: Vec<RatedSide>,
}

/// One seat of a rated game: a registered player, or an AI level at its fixed rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSide {
    pub who: Rated,
    /// 1 a win, 0 a loss, ½ a draw.
    pub points: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Rated {
    /// A registered player's canonical name.
    Player(String),
    Fixed(Rating),
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayerRecord {
    pub canonical: String,
    pub name: String,
    pub key_hash: Vec<u8>,
    pub created_at: DateTime<Utc>,
}

/// A player's rating in one game.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
}

impl RatingRow {
    pub fn rating(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// What the leaderboard sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardSort {
    Score,
    Rating,
}

/// Where a leaderboard page starts: after this sort value and tie-break key (a row's
/// [`BoardRow::key`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BoardCursor {
    pub value: f64,
    pub name: String,
}

#[derive(Clone, Debug)]
pub struct BoardQuery {
    pub game: String,
    pub sort: BoardSort,
    pub registered_only: bool,
    pub after: Option<BoardCursor>,
    pub limit: i64,
}

/// One leaderboard line: the seed's score (when the player has one in this game) and the rating
/// (when a rated game moved it).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct BoardRow {
    pub name: String,
    /// What breaks a tie of the sort value, unique in the board: the score row's owner
    /// (`guest:<name>` or `player:<canonical>`) by score, the player's name by rating.
    pub key: String,
    pub registered: bool,
    pub score: Option<i64>,
    pub wins: Option<i64>,
    pub losses: Option<i64>,
    pub draws: Option<i64>,
    pub rating: Option<f64>,
    pub deviation: Option<f64>,
    pub volatility: Option<f64>,
    pub rated_games: Option<i64>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LogEntry {
    pub seq: i64,
    pub seat: Option<i32>,
    pub action: Json<Value>,
    pub at: DateTime<Utc>,
}

#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    pub game: Option<String>,
    pub status: Option<GameStatus>,
    pub player: Option<String>,
    /// Only games with an id below this one (the cursor: ids are time-ordered UUIDv7).
    pub before: Option<Uuid>,
    pub limit: i64,
}

impl GameFilter {
    /// The listing's query for this filter: placeholders `$1, $2 …` for the filters given, in the
    /// order game, status, player, before, then the limit; waiting games whose open seats are all
    /// reserved are left out (`listed`). Every combination is served by an
    /// index on both databases (`games_by_game_status`, `games_by_status`, `seats_by_name`, the
    /// key), which the store's contract tests check with `EXPLAIN`.
    pub fn listing_sql(&self) -> String {
        let mut sql = String::from(
            "SELECT id, game, status, version, turn, NULL AS state, result, created_at, updated_at, \
             sweep_at_ms FROM games WHERE 1 = 1",
        );
        let mut n = 0;
        let mut next = || {
            n += 1;
            format!("${n}")
        };
        if self.game.is_some() {
            sql += &format!(" AND game = {}", next());
        }
        if self.status.is_some() {
            sql += &format!(" AND status = {}", next());
        }
        if self.player.is_some() {
            sql += &format!(
                " AND id IN (SELECT game_id FROM seats WHERE name = {})",
                next()
            );
        }
        if self.before.is_some() {
            sql += &format!(" AND id < {}", next());
        }
        // A waiting game whose open seats are all reserved is for its invitees alone.
        sql += " AND (status <> 'waiting' OR listed)";
        sql += &format!(" ORDER BY id DESC LIMIT {}", next());
        sql
    }
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayerStats {
    pub name: String,
    /// Whether the row is a registered player's (else a guest name's).
    pub registered: bool,
    pub game: String,
    pub score: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// A poker deck session.
#[derive(Clone, sqlx::FromRow)]
pub struct DeckRecord {
    pub id: Uuid,
    pub version: i64,
    /// The deck, with a random deck's secret key: never shown, never logged.
    pub state: Json<Value>,
    /// The SHA-256 hash of the owner's token; `None` for a deck stored before decks had owners.
    pub owner_token_hash: Option<Vec<u8>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl std::fmt::Debug for DeckRecord {
    // The state holds the order of the cards left and a random deck's key; the hash identifies
    // the owner: none of them belongs in a log line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeckRecord")
            .field("id", &self.id)
            .field("version", &self.version)
            .field("owned", &self.owner_token_hash.is_some())
            .finish_non_exhaustive()
    }
}

/// Every named player starts here (seed 001).
pub const INITIAL_SCORE: i64 = 1000;

/// A seat with its game's id, as the listing reads every listed game's seats at once.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ListedSeat {
    pub game_id: Uuid,
    #[sqlx(flatten)]
    pub seat: SeatRow,
}
