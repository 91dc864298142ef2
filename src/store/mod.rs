//! Persistence behind one trait, with a PostgreSQL and a SQLite implementation.
//!
//! A game is a JSON state plus a `version`. Every accepted change is one transaction that
//! compare-and-swaps the version and appends one entry to the move log, so the log's `seq` equals the
//! version it produced: gapless, and the state is always the replay of the log.

mod location;
mod postgres;
mod records;
mod sql;
mod sqlite;

use async_trait::async_trait;
use uuid::Uuid;

pub use location::describe;
pub use postgres::PgStore;
pub use records::*;
pub use sqlite::SqliteStore;

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The expected version was stale: somebody else changed the row first.
    #[error("the row changed since it was read")]
    Conflict,
    /// The database cannot be reached or is overloaded; worth retrying later.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A row holds a value this build does not understand (an unknown seat kind or status).
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Sorts sqlx errors into "try again later" and real faults.
    pub(crate) fn from_sqlx(err: sqlx::Error) -> Self {
        match &err {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::WorkerCrashed => StoreError::Unavailable(err.to_string()),
            sqlx::Error::Database(db) => {
                // SQLite's busy/locked and PostgreSQL's serialization, shutdown and connection
                // classes are transient: the client may retry.
                let code = db.code().unwrap_or_default();
                if matches!(code.as_ref(), "5" | "6" | "517" | "261" | "40001" | "40P01")
                    || code.starts_with("57P")
                    || code.starts_with("08")
                {
                    StoreError::Unavailable(err.to_string())
                } else if db.is_unique_violation() {
                    StoreError::Conflict
                } else {
                    StoreError::Database(err)
                }
            }
            _ => StoreError::Database(err),
        }
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// The current time at the precision both databases keep (microseconds), so that what a change
/// answers and what a later read returns are the same instant.
pub fn now() -> chrono::DateTime<chrono::Utc> {
    use chrono::SubsecRound;
    chrono::Utc::now().trunc_subsecs(6)
}

/// Everything Parlor keeps. Implementations must make [`GameStore::commit`] atomic.
#[async_trait]
pub trait GameStore: Send + Sync + 'static {
    /// Answers when the database does.
    async fn ping(&self) -> StoreResult<()>;

    /// Stores a new game with its seats (version 0, empty log) and registers its named players;
    /// answers the lobby's sequence number of its announcement, if it is listed.
    async fn create_game(&self, game: &NewGame) -> StoreResult<Option<i64>>;
    /// The game with its seats; its state is left out (`None`) when the row is at `held`.
    async fn load_game(
        &self,
        id: Uuid,
        held: Option<HeldVersion>,
    ) -> StoreResult<Option<GameRecord>>;
    /// One accepted change: compare-and-swap on `expected_version`, log entry, seat and score
    /// changes, the stream's replay row and the lobby's announcement, all or nothing. A stale
    /// version is [`StoreError::Conflict`]. Answers the announcement's lobby sequence number.
    async fn commit(&self, change: &Commit) -> StoreResult<Option<i64>>;
    /// Whether any game's clock expired by `now_ms` (a read, before a claim).
    async fn any_overdue(&self, now_ms: i64) -> StoreResult<bool>;
    /// Claims up to `limit` games whose clock expired by `now_ms` (`sweep_at_ms`, grace included)
    /// for `lease_ms`: their `sweep_at_ms` moves past the lease, so another sweeper (another
    /// process) takes other games, and a claim whose sweeper died is taken again after it. The
    /// flag itself is a change like any other, decided by its compare-and-swap.
    async fn claim_overdue(
        &self,
        now_ms: i64,
        lease_ms: i64,
        limit: i64,
    ) -> StoreResult<Vec<(Uuid, String)>>;
    /// A game's create options without `players` (`None` for a game stored before they were
    /// kept, or created by a table whose options are not kept).
    async fn game_options(
        &self,
        id: Uuid,
    ) -> StoreResult<Option<sqlx::types::Json<serde_json::Value>>>;
    /// The rematch of finished game `id`, once created.
    async fn rematch_of(&self, id: Uuid) -> StoreResult<Option<Uuid>>;
    /// The replay rows of a game's changes after version `after`, oldest first, at most `limit`.
    /// Only the latest [`REPLAY_KEEP`] changes of a game are kept.
    async fn changes_after(&self, id: Uuid, after: i64, limit: i64) -> StoreResult<Vec<ChangeRow>>;
    /// The current version of each of these games (a removed game is left out), and version 1 of
    /// each of these seeks that is closed (what a seek's stream watches for).
    async fn versions(&self, ids: &[Uuid]) -> StoreResult<Vec<(Uuid, i64)>>;
    /// Lobby announcements after sequence number `after`, oldest first, at most `limit`.
    async fn lobby_after(&self, after: i64, limit: i64) -> StoreResult<Vec<LobbyRow>>;
    /// The newest lobby sequence number (0 before the first announcement).
    async fn lobby_head(&self) -> StoreResult<i64>;
    /// Keeps a stream ticket (its hash) until `expires_at`.
    async fn issue_ticket(
        &self,
        ticket_hash: &[u8],
        grant: TicketGrant,
        expires_at: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<()>;
    /// Takes a ticket once: what it opens, if it exists and has not expired by `now`. It is gone
    /// either way.
    async fn take_ticket(
        &self,
        ticket_hash: &[u8],
        now: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<Option<TicketGrant>>;
    /// Stores a new open seek and announces it in the lobby with its public `entry`; answers the
    /// announcement's number.
    async fn create_seek(&self, seek: &SeekRecord, entry: &serde_json::Value) -> StoreResult<i64>;
    async fn load_seek(&self, id: Uuid) -> StoreResult<Option<SeekRecord>>;
    /// A game's open seeks not expired by `now`, oldest first (at most 1,000).
    async fn open_seeks(
        &self,
        game: &str,
        now: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<Vec<SeekRecord>>;
    /// Creates the game the seeks are paired into, all or nothing: each seek must still be open
    /// (else [`StoreError::Conflict`] and nothing is written), so one seek never lands in two
    /// games. Answers the lobby's newest number after it.
    async fn pair_seeks(&self, pairing: &Pairing) -> StoreResult<i64>;
    /// Closes a seek that is still open (cancelled, expired) and announces it; `None` when it was
    /// not open any more.
    async fn close_seek(
        &self,
        closing: &SeekClosing,
        at: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<Option<i64>>;
    /// Pushes an open seek's expiry on to `expires_at`; `false` when it is not open.
    async fn touch_seek(
        &self,
        id: Uuid,
        expires_at: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<bool>;
    /// Open seeks whose time ran out by `now` (at most 500), for the sweep to close.
    async fn expired_seeks(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<Vec<SeekRecord>>;
    /// Notices of changes other processes on the same database commit (PostgreSQL's
    /// `LISTEN/NOTIFY`), from one listening connection; `None` where one process has the database
    /// to itself (SQLite).
    fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        None
    }
    /// Log entries with `seq > after`, oldest first, at most `limit`.
    async fn move_log(&self, id: Uuid, after: i64, limit: i64) -> StoreResult<Vec<LogEntry>>;
    async fn list_games(&self, filter: &GameFilter) -> StoreResult<Vec<GameRecord>>;
    /// Whether any seat of any game holds this token hash.
    async fn token_known(&self, token_hash: &[u8]) -> StoreResult<bool>;

    /// The score rows of one holder (a registered player, or a guest name), by game.
    async fn player_stats(&self, holder: &ScoreHolder) -> StoreResult<Vec<PlayerStats>>;
    /// One page of a game's leaderboard.
    async fn leaderboard(&self, query: &BoardQuery) -> StoreResult<Vec<BoardRow>>;

    /// A new registered player; [`StoreError::Conflict`] when the name (canonically) is taken.
    async fn register_player(&self, player: &PlayerRecord) -> StoreResult<()>;
    async fn player_by_key(&self, key_hash: &[u8]) -> StoreResult<Option<PlayerRecord>>;
    async fn registered_player(&self, canonical: &str) -> StoreResult<Option<PlayerRecord>>;
    /// Replaces the key whose hash is `old_hash` with `new_hash`, in one statement: of two
    /// rotations with the same old key one wins. `false` when no player holds `old_hash` (any more).
    async fn rotate_player_key(&self, old_hash: &[u8], new_hash: &[u8]) -> StoreResult<bool>;
    /// A registered player's ratings, by game.
    async fn ratings(&self, canonical: &str) -> StoreResult<Vec<RatingRow>>;

    async fn create_deck(&self, deck: &DeckRecord) -> StoreResult<()>;
    async fn load_deck(&self, id: Uuid) -> StoreResult<Option<DeckRecord>>;
    /// Compare-and-swap on the deck's version (it writes the state and the owner's token hash);
    /// bumps it by one.
    async fn save_deck(&self, deck: &DeckRecord, expected_version: i64) -> StoreResult<()>;
    /// Whether some deck's owner token hashes to `token_hash` (a wrong token is then another
    /// deck's, 403, rather than nobody's, 401).
    async fn deck_token_known(&self, token_hash: &[u8]) -> StoreResult<bool>;

    /// Listed games still `waiting` that nobody changed since `before` (at most `limit`): the
    /// lobby announces their removal one by one ([`GameStore::remove_waiting_game`]).
    async fn stale_listed_games(
        &self,
        before: chrono::DateTime<chrono::Utc>,
        limit: i64,
    ) -> StoreResult<Vec<Uuid>>;
    /// Removes game `id` if it is still `waiting` and nobody changed it since `before`, with the
    /// lobby's announcement `note`, in one transaction; its lobby number, or `None` when the game
    /// changed or went meanwhile.
    async fn remove_waiting_game(
        &self,
        id: Uuid,
        before: chrono::DateTime<chrono::Utc>,
        note: &LobbyNote,
    ) -> StoreResult<Option<i64>>;
    /// Removes every game still `waiting` that nobody changed since `before` (its seats and log go
    /// with it); answers how many went. Idempotent, so several servers on one database may sweep
    /// at once.
    async fn remove_waiting_games(&self, before: chrono::DateTime<chrono::Utc>)
        -> StoreResult<u64>;
    /// Removes every poker deck nobody changed since `before`; answers how many went.
    async fn remove_idle_decks(&self, before: chrono::DateTime<chrono::Utc>) -> StoreResult<u64>;
    /// Removes lobby announcements made before `before`, tickets expired by then, and seeks
    /// closed before then.
    async fn remove_old_announcements(
        &self,
        before: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<u64>;
}

/// How many of a game's latest changes the store keeps for streams to replay.
pub const REPLAY_KEEP: i64 = 128;

/// A change another process committed, as its notification names it: the watcher reads what it
/// sends from the database, never from the notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    Game {
        id: Uuid,
        version: i64,
    },
    Lobby {
        seq: i64,
    },
    /// The listening connection was lost and is back: notices in between may be lost, so what
    /// watchers follow must be read again.
    Resumed,
}

impl Notice {
    /// The notification payload: `g <id> <version>` or `l <seq>`.
    pub fn payload(&self) -> String {
        match self {
            Notice::Game { id, version } => format!("g {id} {version}"),
            Notice::Lobby { seq } => format!("l {seq}"),
            Notice::Resumed => "r".into(),
        }
    }

    pub fn parse(payload: &str) -> Option<Self> {
        let mut words = payload.split(' ');
        match (words.next()?, words.next(), words.next()) {
            ("g", Some(id), Some(version)) => Some(Notice::Game {
                id: id.parse().ok()?,
                version: version.parse().ok()?,
            }),
            ("l", Some(seq), None) => Some(Notice::Lobby {
                seq: seq.parse().ok()?,
            }),
            _ => None,
        }
    }
}

/// Opens the store a `DATABASE_URL` names and brings its schema up to date. Errors never quote
/// the URL (it may hold a password): [`describe`] says which database it was.
pub async fn connect(url: &str) -> StoreResult<std::sync::Arc<dyn GameStore>> {
    if location::is_postgres(url) {
        Ok(std::sync::Arc::new(PgStore::connect(url).await?))
    } else if location::is_sqlite(url) {
        Ok(std::sync::Arc::new(SqliteStore::connect(url).await?))
    } else {
        Err(StoreError::Unavailable(format!(
            "DATABASE_URL must start with sqlite:// or postgres:// (it has {})",
            location::scheme(url)
        )))
    }
}
