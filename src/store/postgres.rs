//! PostgreSQL: the production store.

use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use sqlx::types::Json;
use uuid::Uuid;

use super::sql::impl_sql_store;
use super::*;

/// The channel changes are announced on (`pg_notify` in every change's transaction), followed by
/// the schema's name: notifications reach every session of the database, and a lobby number of
/// one schema means nothing in another.
const CHANNEL: &str = "parlor_changes_";

pub struct PgStore {
    pool: PgPool,
    /// [`CHANNEL`] and the schema the store works in.
    channel: String,
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
        let schema: String = sqlx::query_scalar("SELECT current_schema()")
            .fetch_one(&pool)
            .await
            .map_err(StoreError::from_sqlx)?;
        let channel = format!("{CHANNEL}{schema}");
        Ok(Self { pool, channel })
    }

    /// Listens on one connection of its own and passes every notice on; after the connection
    /// was lost it says [`Notice::Resumed`] once it listens again.
    fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        let (pool, channel) = (self.pool.clone(), self.channel.clone());
        tokio::spawn(async move {
            let mut first = true;
            while !sender.is_closed() {
                let mut listener = match PgListener::connect_with(&pool).await {
                    Ok(listener) => listener,
                    Err(err) => {
                        tracing::warn!(error = %err, "cannot listen for changes; trying again");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                if let Err(err) = listener.listen(&channel).await {
                    tracing::warn!(error = %err, "cannot listen for changes; trying again");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                if !std::mem::take(&mut first) && sender.send(Notice::Resumed).is_err() {
                    return;
                }
                // `Ok(None)`: the connection was lost; a new listener takes over.
                while let Ok(Some(notification)) = listener.try_recv().await {
                    if let Some(notice) = Notice::parse(notification.payload()) {
                        if sender.send(notice).is_err() {
                            return;
                        }
                    }
                }
                tracing::warn!("the connection listening for changes was lost; listening again");
            }
        });
        Some(receiver)
    }

    /// Changes run on the same pool as reads: PostgreSQL keeps its cache in the server, shared by
    /// every connection.
    fn writer(&self) -> &PgPool {
        &self.pool
    }
}

impl_sql_store!(
    PgStore,
    state_param: Json,
    notify: Some("SELECT pg_notify('parlor_changes_' || current_schema(), $1)"),
    // Held to the commit: a lobby number is taken only once every smaller one has committed, so a
    // reader that has seen number n never finds a smaller one later.
    lobby_lock: Some("SELECT pg_advisory_xact_lock(7100001)"),
    // Two processes' sweepers claim disjoint overdue games: rows another claim holds are skipped.
    claim_lock: " FOR UPDATE SKIP LOCKED",
    notices: PgStore::notices
);
