//! SQLite: the zero-configuration store, one file beside the binary.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::types::Json;
use uuid::Uuid;

use super::sql::impl_sql_store;
use super::*;

pub struct SqliteStore {
    /// Reads.
    pool: SqlitePool,
    /// Every change, on one connection of its own. SQLite lets one writer commit at a time anyway:
    /// writers now queue for this connection in order instead of retrying SQLite's lock (a
    /// saturated server's p99 move fell from 83 to 12–15 ms). And in WAL mode a connection empties
    /// its page cache whenever another connection has written, so a change spread over the pool
    /// began by reading its pages back; the one writer keeps its cache (10 % off a move).
    /// Why, with the numbers: docs/decisions/0001-sqlite-one-writer.md.
    writer: SqlitePool,
}

impl SqliteStore {
    pub async fn connect(url: &str) -> StoreResult<Self> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::Unavailable(format!("bad SQLite URL {url}: {e}")))?
            .create_if_missing(true)
            // WAL lets readers go on while one writer commits; the busy timeout makes a writer of
            // another process (two servers on one file) wait for the lock instead of failing.
            .journal_mode(SqliteJournalMode::Wal)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        let writer = connect(options.clone(), 1).await?;
        migrate(&writer).await?;
        let pool = connect(options, 8).await?;
        Ok(Self { pool, writer })
    }

    fn writer(&self) -> &SqlitePool {
        &self.writer
    }
}

/// Opens a pool of `connections`; waiting for one longer than 5 s is a 503. Two processes
/// starting at once on a new file race to create it: switching it to WAL takes the lock for a
/// moment, and the loser's first connection fails with "database is locked" rather than waiting
/// (the busy timeout does not cover it). It tries again.
async fn connect(options: SqliteConnectOptions, connections: u32) -> StoreResult<SqlitePool> {
    let open = || {
        SqlitePoolOptions::new()
            .max_connections(connections)
            .acquire_timeout(Duration::from_secs(5))
            .connect_with(options.clone())
    };
    retrying_a_race("opening", open, is_locked)
        .await
        .map_err(StoreError::from_sqlx)
}

/// SQLITE_BUSY or SQLITE_LOCKED, in any of their extended forms.
fn is_locked(err: &sqlx::Error) -> bool {
    let code = err.as_database_error().and_then(|e| e.code());
    code.and_then(|c| c.parse::<i32>().ok())
        .is_some_and(|c| matches!(c & 0xff, 5 | 6))
}

/// SQLite has no advisory lock for sqlx's migrator to take, so two processes starting at once on a
/// new file can both try the first migration; the loser fails ("table already exists", "database
/// is locked"). By then the winner has committed, so trying again finds the schema up to date.
async fn migrate(pool: &SqlitePool) -> StoreResult<()> {
    retrying_a_race(
        "migration",
        || sqlx::migrate!("migrations/sqlite").run(pool),
        |_| true,
    )
    .await
    .map_err(|e| StoreError::Unavailable(format!("migration failed: {e}")))
}

/// Runs `step` again while it fails in a way `lost_race` says another process starting on the
/// same file caused: up to ten more times, waiting 100 ms longer before each.
async fn retrying_a_race<T, E, F, Fut>(
    what: &str,
    mut step: F,
    lost_race: impl Fn(&E) -> bool,
) -> Result<T, E>
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    let mut attempt = 0;
    loop {
        match step().await {
            Ok(done) => return Ok(done),
            Err(e) if attempt < 10 && lost_race(&e) => {
                attempt += 1;
                tracing::debug!(error = %e, attempt, "SQLite {what} raced with another process; retrying");
                tokio::time::sleep(Duration::from_millis(100 * attempt)).await;
            }
            Err(e) => return Err(e),
        }
    }
}

// One process has the file's changes to itself: its watchers hear of them in memory, and SQLite
// lets one writer commit at a time, so lobby numbers commit in order.
impl_sql_store!(
    SqliteStore,
    state_param: state_text,
    notify: None,
    lobby_lock: None,
    claim_lock: "",
    notices: no_notices
);

fn no_notices(_: &SqliteStore) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
    None
}

/// A state as the text column holds it: the JSON text itself.
fn state_text(state: &serde_json::value::RawValue) -> &str {
    state.get()
}
