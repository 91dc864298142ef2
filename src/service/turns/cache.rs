//! Games as the last request on them left them, so the next request skips parsing the stored state
//! and rebuilding the game from it (a stored Go game is its move list: without the cache a move at
//! move 300 replays 300 moves first).
//!
//! An entry is keyed by the game's id and names the version and `updated_at` it holds. A version
//! names one stored state for good (every change is a compare-and-swap that moves it), so a hit is
//! exactly the game parsing the row would give, on one server or on several sharing a database: a
//! change made elsewhere moves the version and the entry no longer matches. The load hands the
//! held version to the store, which leaves the state out of the row when it still matches: a hit
//! costs neither sending nor decoding the stored state.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::games::TurnGame;
use crate::store::{GameRow, HeldVersion};

/// How many games the cache holds; the least recently used one goes first. A long 19×19 Go game
/// is a few tens of KiB in memory.
pub const CACHED_GAMES: usize = 512;

pub struct LoadedGames {
    capacity: usize,
    inner: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    by_id: HashMap<Uuid, Entry>,
    /// A counter that orders uses, for eviction.
    clock: u64,
}

/// A game as the cache holds it: the stored version it is, and the game.
#[derive(Clone)]
pub struct HeldGame {
    pub version: HeldVersion,
    game: Arc<dyn Any + Send + Sync>,
    /// The state as this server wrote it at this version, for a game whose state the store keeps
    /// in pieces (the next write compares against it); `None` when the game was read, not written.
    pub written: Option<Arc<str>>,
}

impl HeldGame {
    /// The game, shared with the cache; `None` if it is not a `G`. A request that changes it has
    /// the cache let go of it first ([`LoadedGames::release`]), so it changes it in place.
    pub fn game<G: TurnGame>(&self) -> Option<Arc<G>> {
        Arc::clone(&self.game).downcast::<G>().ok()
    }
}

struct Entry {
    version: i64,
    updated_at: DateTime<Utc>,
    game: Arc<dyn Any + Send + Sync>,
    written: Option<Arc<str>>,
    used: u64,
}

impl Default for LoadedGames {
    fn default() -> Self {
        LoadedGames::with_capacity(CACHED_GAMES)
    }
}

impl LoadedGames {
    pub fn with_capacity(capacity: usize) -> Self {
        LoadedGames {
            capacity,
            inner: Mutex::new(Entries::default()),
        }
    }

    /// The game this server holds for `id`, and the stored version it is.
    pub fn held(&self, id: Uuid) -> Option<HeldGame> {
        let mut entries = self.lock();
        entries.clock += 1;
        let now = entries.clock;
        let entry = entries.by_id.get_mut(&id)?;
        entry.used = now;
        Some(HeldGame {
            version: HeldVersion {
                version: entry.version,
                updated_at: entry.updated_at,
            },
            game: Arc::clone(&entry.game),
            written: entry.written.clone(),
        })
    }

    /// Remembers `game` as the state stored in `row`, and the text this server wrote for it, if
    /// any. The cache shares the game with the request that saved it: nothing is copied.
    pub fn put<G: TurnGame>(&self, row: &GameRow, game: &Arc<G>, written: Option<Arc<str>>) {
        if self.capacity == 0 {
            return;
        }
        let game: Arc<dyn Any + Send + Sync> = Arc::clone(game) as _;
        let mut entries = self.lock();
        entries.clock += 1;
        let used = entries.clock;
        if entries.by_id.len() >= self.capacity && !entries.by_id.contains_key(&row.id) {
            let oldest = entries
                .by_id
                .iter()
                .min_by_key(|(_, entry)| entry.used)
                .map(|(id, _)| *id);
            if let Some(oldest) = oldest {
                entries.by_id.remove(&oldest);
            }
        }
        entries.by_id.insert(
            row.id,
            Entry {
                version: row.version,
                updated_at: row.updated_at,
                game,
                written,
                used,
            },
        );
    }

    /// Lets go of `game` for `id`: a request is about to change it. The cache then no longer
    /// shares it, so the change needs no copy (unless a read of the same game holds it still),
    /// and the request puts the game back when it is saved, or unchanged when the change fails.
    /// Nothing is dropped if the cache holds another game for `id` by now.
    pub fn release<G: TurnGame>(&self, id: Uuid, game: &Arc<G>) {
        let mut entries = self.lock();
        let held = entries
            .by_id
            .get(&id)
            .is_some_and(|entry| std::ptr::addr_eq(Arc::as_ptr(&entry.game), Arc::as_ptr(game)));
        if held {
            entries.by_id.remove(&id);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        // A panic while the lock was held leaves nothing half-written (every change is one insert
        // or remove), so a poisoned lock is still usable.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().by_id.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::GomokuGame;
    use crate::games::SeatKind;
    use serde_json::json;

    fn row(id: u128, version: i64) -> GameRow {
        let at = DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        GameRow {
            id: Uuid::from_u128(id),
            game: "gomoku".into(),
            status: crate::games::GameStatus::Active,
            version,
            turn: Some(0),
            state: None,
            result: None,
            created_at: at,
            updated_at: at,
        }
    }

    fn game() -> GomokuGame {
        let options = serde_json::from_value(json!({"players": [{"name": "a"}, {"name": "b"}]}));
        GomokuGame::new(&options.unwrap(), &[SeatKind::Human, SeatKind::Human], 1).unwrap()
    }

    /// What the cache holds for game `id`: its version, if it holds a `GomokuGame`.
    fn held_version(cache: &LoadedGames, id: u128) -> Option<i64> {
        let held = cache.held(Uuid::from_u128(id))?;
        held.game::<GomokuGame>()?;
        Some(held.version.version)
    }

    #[test]
    fn a_game_is_held_as_the_version_it_was_put_with() {
        let cache = LoadedGames::with_capacity(4);
        let stored = row(1, 3);
        cache.put(&stored, &Arc::new(game()), None);
        let held = cache.held(stored.id).expect("held");
        assert_eq!(
            held.version,
            HeldVersion {
                version: 3,
                updated_at: stored.updated_at
            }
        );
        assert!(held.game::<GomokuGame>().is_some());
        assert!(cache.held(Uuid::from_u128(2)).is_none(), "another game");
        cache.put(&row(1, 4), &Arc::new(game()), None);
        assert_eq!(
            held_version(&cache, 1),
            Some(4),
            "a newer version replaces it"
        );
    }

    #[test]
    fn a_released_game_is_no_longer_shared_so_a_change_copies_nothing() {
        let cache = LoadedGames::with_capacity(4);
        cache.put(&row(1, 0), &Arc::new(game()), None);
        let mut held = cache
            .held(Uuid::from_u128(1))
            .unwrap()
            .game::<GomokuGame>()
            .unwrap();
        let before = Arc::as_ptr(&held);
        cache.release(Uuid::from_u128(2), &held);
        cache.release(Uuid::from_u128(1), &Arc::new(game()));
        assert_eq!(
            held_version(&cache, 1),
            Some(0),
            "another id or another game: kept"
        );
        cache.release(Uuid::from_u128(1), &held);
        assert_eq!(held_version(&cache, 1), None);
        Arc::make_mut(&mut held);
        assert_eq!(Arc::as_ptr(&held), before, "changed in place, not copied");
    }

    #[test]
    fn a_full_cache_drops_the_least_recently_used_game() {
        let cache = LoadedGames::with_capacity(2);
        cache.put(&row(1, 0), &Arc::new(game()), None);
        cache.put(&row(2, 0), &Arc::new(game()), None);
        assert!(held_version(&cache, 1).is_some());
        cache.put(&row(3, 0), &Arc::new(game()), None);
        assert_eq!(cache.len(), 2);
        assert!(held_version(&cache, 1).is_some());
        assert!(held_version(&cache, 2).is_none(), "used least recently");
        assert!(held_version(&cache, 3).is_some());
    }
}
