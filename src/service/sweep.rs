//! The periodic sweep that removes what clients left behind: games still `waiting` that nobody
//! changed for `--waiting-game-ttl-hours`, and poker decks nobody changed for
//! `--idle-deck-ttl-hours`, lobby announcements older than [`LOBBY_KEEP`] and expired stream
//! tickets. Every server process runs one; the store's removals are idempotent
//! (`DELETE … WHERE … updated_at < cut-off`), so several processes on one database may sweep at
//! the same moment.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::live::Live;
use super::seeks;
use super::ServiceResult;
use crate::config::Expiry;
use crate::games::GameStatus;
use crate::store::{GameStore, LobbyKind};

/// Listed waiting games removed (and announced) in one sweep, at most.
const SWEEP_BATCH: i64 = 500;

/// How often the sweep runs (and once right at start-up).
pub const SWEEP_EVERY: Duration = Duration::from_secs(10 * 60);
/// How often seeks whose time ran out are closed (and announced).
pub const SEEKS_EVERY: Duration = Duration::from_secs(10);

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
    live: Arc<Live>,
}

impl Sweeper {
    pub fn new(store: Arc<dyn GameStore>, expiry: Expiry, live: Arc<Live>) -> Self {
        Sweeper {
            store,
            expiry,
            live,
        }
    }

    /// Removes what expired as of `now`.
    pub async fn sweep(&self, now: DateTime<Utc>) -> ServiceResult<Swept> {
        let mut swept = Swept::default();
        if let Some(ttl) = self.expiry.waiting_games {
            let before = now - ttl;
            swept.waiting_games = self.remove_listed_waiting_games(before).await?;
            swept.waiting_games += self.store.remove_waiting_games(before).await?;
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

    /// Removes the listed games still waiting since `before` one at a time, each announced to
    /// the lobby as aborted, so a lobby's client drops it; answers how many went.
    async fn remove_listed_waiting_games(&self, before: DateTime<Utc>) -> ServiceResult<u64> {
        let mut removed = 0;
        loop {
            let stale = self.store.stale_listed_games(before, SWEEP_BATCH).await?;
            let gone = self.remove_announced(&stale, before).await?;
            removed += gone;
            // A full batch of games that all changed meanwhile is left to the next sweep.
            if stale.len() < SWEEP_BATCH as usize || gone == 0 {
                return Ok(removed);
            }
        }
    }

    async fn remove_announced(
        &self,
        ids: &[uuid::Uuid],
        before: DateTime<Utc>,
    ) -> ServiceResult<u64> {
        let mut removed = 0;
        for &id in ids {
            let Some(record) = self.store.load_game(id, None).await? else {
                continue;
            };
            let mut row = record.row;
            row.status = GameStatus::Aborted;
            let note = super::turns::lobby_note(LobbyKind::Aborted, &row, &record.seats)?;
            if let Some(seq) = self.store.remove_waiting_game(id, before, &note).await? {
                self.live.lobby_moved(seq);
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Sweeps now and then every [`SWEEP_EVERY`], and closes expired seeks every
    /// [`SEEKS_EVERY`], for good; a failed sweep is logged and the next one tries again.
    pub async fn run(self) {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut seeks = tokio::time::interval(SEEKS_EVERY);
        seeks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = seeks.tick() => {
                    let expired = seeks::expire(&*self.store, &self.live, crate::store::now()).await;
                    if let Err(err) = expired {
                        tracing::warn!(error = %err, "closing expired seeks failed");
                    }
                    continue;
                }
            }
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
