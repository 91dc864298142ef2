//! SQLite: the zero-configuration store, one file beside the binary.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::types::Json;
use uuid::Uuid;

use super::sql::impl_sql_store;
use super::*;

pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    pub async fn connect(url: &str) -> StoreResult<Self> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::Unavailable(format!("bad SQLite URL {url}: {e}")))?
            .create_if_missing(true)
            // WAL lets readers go on while one writer commits; the busy timeout makes writers queue
            // for the lock instead of failing at once.
            .journal_mode(SqliteJournalMode::Wal)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(5))
            .connect_with(options)
            .await
            .map_err(StoreError::from_sqlx)?;
        sqlx::migrate!("migrations/sqlite")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Unavailable(format!("migration failed: {e}")))?;
        Ok(Self { pool })
    }
}

impl_sql_store!(SqliteStore);
