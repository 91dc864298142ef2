//! Who follows what, in this process: the games and the lobby that open streams (and long polls)
//! watch. A change's version (a lobby announcement's number) is published here after its commit,
//! by this process or, through the store's notices, by another one on the same database. A
//! watcher learns only that something moved; it reads what it sends from the database, so a
//! notice lost or repeated costs nothing but a read.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use crate::store::{GameStore, Notice};

/// The watchers of one process.
pub struct Live {
    /// Per watched game, the newest version published; an entry goes with its last watcher.
    games: Mutex<HashMap<Uuid, watch::Sender<i64>>>,
    /// The newest lobby number published.
    lobby: watch::Sender<i64>,
    /// Turns true when the server shuts down: every stream ends, and its client reconnects to
    /// another process.
    closing: watch::Sender<bool>,
    open: AtomicUsize,
    max_streams: usize,
}

impl Live {
    pub fn new(max_streams: usize) -> Arc<Self> {
        Arc::new(Live {
            games: Mutex::default(),
            lobby: watch::Sender::new(0),
            closing: watch::Sender::new(false),
            open: AtomicUsize::new(0),
            max_streams,
        })
    }

    /// A place for one more open stream, or `None` when `max_streams` are open.
    pub fn admit(self: &Arc<Self>) -> Option<StreamPermit> {
        let admitted = self
            .open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
                (open < self.max_streams).then_some(open + 1)
            })
            .is_ok();
        admitted.then(|| StreamPermit(Arc::clone(self)))
    }

    /// How many streams are open.
    pub fn open_streams(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }

    /// Starts watching game `id`: the watch wakes when a version is published for it.
    pub fn watch_game(self: &Arc<Self>, id: Uuid) -> GameWatch {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let sender = games.entry(id).or_insert_with(|| watch::Sender::new(0));
        let mut receiver = sender.subscribe();
        receiver.mark_unchanged();
        GameWatch {
            id,
            receiver: Some(receiver),
            live: Arc::clone(self),
        }
    }

    /// Game `id` is at `version` (or later).
    pub fn game_moved(&self, id: Uuid, version: i64) {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sender) = games.get(&id) {
            sender.send_if_modified(|newest| {
                let newer = version > *newest;
                if newer {
                    *newest = version;
                }
                newer
            });
        }
    }

    /// Starts watching the lobby.
    pub fn watch_lobby(&self) -> watch::Receiver<i64> {
        let mut receiver = self.lobby.subscribe();
        receiver.mark_unchanged();
        receiver
    }

    /// The lobby has announcement `seq` (or later).
    pub fn lobby_moved(&self, seq: i64) {
        self.lobby.send_if_modified(|newest| {
            let newer = seq > *newest;
            if newer {
                *newest = seq;
            }
            newer
        });
    }

    /// Turns true when the server shuts down.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Ends every stream (the server is shutting down).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    fn watched(&self) -> Vec<Uuid> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.keys().copied().collect()
    }

    /// Publishes what other processes announce, for as long as the store listens. After the
    /// listening connection was lost, every watched game and the lobby are read again, so a
    /// change whose notice went missing still reaches its watchers.
    pub async fn follow(
        self: Arc<Self>,
        store: Arc<dyn GameStore>,
        mut notices: mpsc::UnboundedReceiver<Notice>,
    ) {
        while let Some(notice) = notices.recv().await {
            match notice {
                Notice::Game { id, version } => self.game_moved(id, version),
                Notice::Lobby { seq } => self.lobby_moved(seq),
                Notice::Resumed => {
                    if let Err(err) = self.read_again(&*store).await {
                        tracing::warn!(error = %err, "cannot read what watchers missed");
                    }
                }
            }
        }
    }

    async fn read_again(&self, store: &dyn GameStore) -> crate::store::StoreResult<()> {
        for (id, version) in store.versions(&self.watched()).await? {
            self.game_moved(id, version);
        }
        self.lobby_moved(store.lobby_head().await?);
        Ok(())
    }
}

/// One open stream's place; given back when dropped.
pub struct StreamPermit(Arc<Live>);

impl Drop for StreamPermit {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A watch on one game; the game is forgotten with its last watch.
pub struct GameWatch {
    id: Uuid,
    receiver: Option<watch::Receiver<i64>>,
    live: Arc<Live>,
}

impl GameWatch {
    /// Waits until a version newer than the last one seen is published, and answers it.
    pub async fn changed(&mut self) -> i64 {
        let Some(receiver) = &mut self.receiver else {
            return std::future::pending().await;
        };
        // The sender stays in the map as long as this watch does, so this never fails.
        if receiver.changed().await.is_err() {
            return std::future::pending().await;
        }
        *receiver.borrow_and_update()
    }
}

impl Drop for GameWatch {
    fn drop(&mut self) {
        drop(self.receiver.take());
        let mut games = self.live.games.lock().unwrap_or_else(|e| e.into_inner());
        if games
            .get(&self.id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            games.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_watch_wakes_for_newer_versions_only_and_is_forgotten_with_its_last_watcher() {
        let live = Live::new(2);
        let id = Uuid::now_v7();
        let mut watch = live.watch_game(id);
        live.game_moved(id, 3);
        watch.changed().await;
        live.game_moved(id, 2);
        let woke = tokio::time::timeout(std::time::Duration::from_millis(20), watch.changed());
        assert!(woke.await.is_err(), "an older version wakes nobody");
        drop(watch);
        assert!(live.watched().is_empty());
    }

    #[test]
    fn permits_are_capped_and_given_back() {
        let live = Live::new(1);
        let permit = live.admit().expect("one place");
        assert!(live.admit().is_none());
        drop(permit);
        assert!(live.admit().is_some());
    }
}
