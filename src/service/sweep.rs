//! The periodic sweep that removes what clients left behind: games still `waiting` that nobody
//! changed for `--waiting-game-ttl-hours`, and poker decks nobody changed for
//! `--idle-deck-ttl-hours`, lobby announcements older than [`LOBBY_KEEP`] and expired stream
//! tickets. Every server process runs one; the store's removals are idempotent
//! (`DELETE … WHERE … updated_at < cut-off`), so several processes on one database may sweep at
//! the same moment.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::config::Expiry;
use crate::store::{GameStore, StoreResult};

/// How often the sweep runs (and once right at start-up).
pub const SWEEP_EVERY: Duration = Duration::from_secs(10 * 60);

/// How long the lobby's announcements are kept for streams to replay.
pub const LOBBY_KEEP: chrono::Duration = chrono::Duration::hours(1);

/// What one sweep removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub waiting_games: u64,
    pub idle_decks: u64,
    /// Lobby announcements and stream tickets.
    pub announcements: u64,
}

/// The sweep of one server: the store and what expires.
#[derive(Clone)]
pub struct Sweeper {
    store: Arc<dyn GameStore>,
    expiry: Expiry,
}

impl Sweeper {
    pub fn new(store: Arc<dyn GameStore>, expiry: Expiry) -> Self {
        Sweeper { store, expiry }
    }

    /// Removes what expired as of `now`.
    pub async fn sweep(&self, now: DateTime<Utc>) -> StoreResult<Swept> {
        let mut swept = Swept::default();
        if let Some(ttl) = self.expiry.waiting_games {
            swept.waiting_games = self.store.remove_waiting_games(now - ttl).await?;
        }
        if let Some(ttl) = self.expiry.idle_decks {
            swept.idle_decks = self.store.remove_idle_decks(now - ttl).await?;
        }
        swept.announcements = self
            .store
            .remove_old_announcements(now - LOBBY_KEEP)
            .await?;
        Ok(swept)
    }

    /// Sweeps now and then every [`SWEEP_EVERY`], for good; a failed sweep is logged and the next
    /// one tries again.
    pub async fn run(self) {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match self.sweep(crate::store::now()).await {
                Ok(swept) if swept != Swept::default() => tracing::info!(
                    waiting_games = swept.waiting_games,
                    idle_decks = swept.idle_decks,
                    announcements = swept.announcements,
                    "swept expired games, decks and announcements"
                ),
                Ok(_) => {}
                Err(err) => {
                    tracing::warn!(error = %err, "the sweep of expired games and decks failed")
                }
            }
        }
    }
}
