//! PostgreSQL: the production store.

use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::types::Json;
use uuid::Uuid;

use super::sql::impl_sql_store;
use super::*;

pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    pub async fn connect(url: &str) -> StoreResult<Self> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            // A short acquire timeout turns a database outage into 503s (after at most this long)
            // instead of stalled requests; the pool reconnects by itself once the database is back.
            .acquire_timeout(Duration::from_secs(3))
            .connect(url)
            .await
            .map_err(StoreError::from_sqlx)?;
        sqlx::migrate!("migrations/postgres")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Unavailable(format!("migration failed: {e}")))?;
        Ok(Self { pool })
    }

    /// Changes run on the same pool as reads: PostgreSQL keeps its cache in the server, shared by
    /// every connection.
    fn writer(&self) -> &PgPool {
        &self.pool
    }
}

impl_sql_store!(PgStore, state_param: Json);
