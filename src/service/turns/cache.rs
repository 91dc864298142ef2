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
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use lru::LruCache;
use uuid::Uuid;

use crate::games::{GameStatus, TurnGame};
use crate::store::{GameRow, HeldVersion};

/// How many bytes of stored state the cache holds by default (`--game-cache-mb`).
pub const CACHE_BYTES: usize = 64 * 1024 * 1024;

/// What an entry weighs besides its state text: the entry, the map's slot, a small game's own
/// fields. Keeps a budget from holding an unbounded number of tiny games.
const ENTRY_OVERHEAD: usize = 512;

/// Games as the last request left them, least recently used out first once the entries weigh more
/// than the budget. An entry weighs the length of its stored state text and [`ENTRY_OVERHEAD`]:
/// the rules state in memory grows with it.
pub struct LoadedGames {
    budget: usize,
    inner: Mutex<Entries>,
}

struct Entries {
    by_id: LruCache<Uuid, Entry>,
    /// What the entries weigh together.
    bytes: usize,
}

/// A game as the cache holds it: the stored version it is, and the game.
#[derive(Clone)]
pub struct HeldGame {
    pub version: HeldVersion,
    game: Arc<dyn Any + Send + Sync>,
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
    /// What it counts for against the budget.
    weight: usize,
}

impl Default for LoadedGames {
    fn default() -> Self {
        LoadedGames::with_budget(CACHE_BYTES)
    }
}

impl LoadedGames {
    /// A cache holding at most `budget` bytes (0: holds nothing).
    pub fn with_budget(budget: usize) -> Self {
        LoadedGames {
            budget,
            inner: Mutex::new(Entries {
                by_id: LruCache::unbounded(),
                bytes: 0,
            }),
        }
    }

    /// The game this server holds for `id`, and the stored version it is.
    pub fn held(&self, id: Uuid) -> Option<HeldGame> {
        let mut entries = self.lock();
        let entry = entries.by_id.get(&id)?;
        Some(HeldGame {
            version: HeldVersion {
                version: entry.version,
                updated_at: entry.updated_at,
            },
            game: Arc::clone(&entry.game),
        })
    }

    /// Remembers `game` as the state stored in `row`, whose state text is `state_bytes` long. The
    /// cache shares the game with the request that
    /// saved it: nothing is copied. A finished or aborted game is not held (it is rarely read
    /// again; a read parses it), nor one heavier than the whole budget; either drops what the
    /// cache held for that id.
    pub fn put<G: TurnGame>(&self, row: &GameRow, game: &Arc<G>, state_bytes: usize) {
        let weight = state_bytes.saturating_add(ENTRY_OVERHEAD);
        let over = matches!(row.status, GameStatus::Finished | GameStatus::Aborted);
        let mut entries = self.lock();
        if let Some(old) = entries.by_id.pop(&row.id) {
            entries.bytes -= old.weight;
        }
        if over || weight > self.budget {
            return;
        }
        while entries.bytes + weight > self.budget {
            match entries.by_id.pop_lru() {
                Some((_, oldest)) => entries.bytes -= oldest.weight,
                None => break,
            }
        }
        let game: Arc<dyn Any + Send + Sync> = Arc::clone(game) as _;
        entries.bytes += weight;
        entries.by_id.put(
            row.id,
            Entry {
                version: row.version,
                updated_at: row.updated_at,
                game,
                weight,
            },
        );
    }

    /// Lets go of `game` for `id`: a request is about to change it. The cache then no longer
    /// shares it, so the change needs no copy (unless a read of the same game holds it still),
    /// and the request puts the game back when it is saved. Nothing is dropped if the cache holds
    /// another game for `id` by now.
    pub fn release<G: TurnGame>(&self, id: Uuid, game: &Arc<G>) {
        let mut entries = self.lock();
        let held = entries
            .by_id
            .peek(&id)
            .is_some_and(|entry| std::ptr::addr_eq(Arc::as_ptr(&entry.game), Arc::as_ptr(game)));
        if let Some(entry) = held.then(|| entries.by_id.pop(&id)).flatten() {
            entries.bytes -= entry.weight;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        // A panic while the lock was held leaves nothing half-written (the weight is adjusted
        // right after each insert or removal, which do not panic), so a poisoned lock is usable.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lock().bytes
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
            sweep_at_ms: None,
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
        let cache = LoadedGames::with_budget(1 << 20);
        let stored = row(1, 3);
        cache.put(&stored, &Arc::new(game()), 100);
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
        cache.put(&row(1, 4), &Arc::new(game()), 100);
        assert_eq!(
            held_version(&cache, 1),
            Some(4),
            "a newer version replaces it"
        );
    }

    #[test]
    fn a_released_game_is_no_longer_shared_so_a_change_copies_nothing() {
        let cache = LoadedGames::with_budget(1 << 20);
        cache.put(&row(1, 0), &Arc::new(game()), 100);
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

    /// What an entry put with `state_bytes` weighs.
    fn weight(state_bytes: usize) -> usize {
        state_bytes + ENTRY_OVERHEAD
    }

    #[test]
    fn a_full_cache_drops_the_least_recently_used_game() {
        let cache = LoadedGames::with_budget(2 * weight(1000));
        cache.put(&row(1, 0), &Arc::new(game()), 1000);
        cache.put(&row(2, 0), &Arc::new(game()), 1000);
        assert!(held_version(&cache, 1).is_some());
        cache.put(&row(3, 0), &Arc::new(game()), 1000);
        assert_eq!(cache.len(), 2);
        assert!(held_version(&cache, 1).is_some());
        assert!(held_version(&cache, 2).is_none(), "used least recently");
        assert!(held_version(&cache, 3).is_some());
    }

    #[test]
    fn the_byte_budget_evicts_as_many_games_as_a_heavy_one_needs() {
        let cache = LoadedGames::with_budget(4 * weight(1000));
        for id in 1..=4 {
            cache.put(&row(id, 0), &Arc::new(game()), 1000);
        }
        assert_eq!(cache.len(), 4);
        assert_eq!(cache.bytes(), 4 * weight(1000));
        held_version(&cache, 1);
        // Weighs as much as three small ones: the three least recently used go.
        cache.put(
            &row(5, 0),
            &Arc::new(game()),
            3 * weight(1000) - ENTRY_OVERHEAD,
        );
        assert_eq!(cache.len(), 2);
        assert!(held_version(&cache, 1).is_some(), "used recently");
        assert!(held_version(&cache, 5).is_some());
        for id in 2..=4 {
            assert!(held_version(&cache, id).is_none(), "game {id}");
        }
        assert!(cache.bytes() <= 4 * weight(1000));
    }

    #[test]
    fn a_game_heavier_than_the_budget_is_not_held() {
        let cache = LoadedGames::with_budget(weight(1000));
        cache.put(&row(1, 0), &Arc::new(game()), 1000);
        cache.put(&row(1, 1), &Arc::new(game()), 1001);
        assert_eq!(held_version(&cache, 1), None, "nor its older version");
        assert_eq!((cache.len(), cache.bytes()), (0, 0));
        let off = LoadedGames::with_budget(0);
        off.put(&row(1, 0), &Arc::new(game()), 0);
        assert_eq!(off.len(), 0);
    }

    #[test]
    fn finished_and_aborted_games_are_not_held() {
        let cache = LoadedGames::with_budget(1 << 20);
        for (id, status) in [(1, GameStatus::Finished), (2, GameStatus::Aborted)] {
            cache.put(&row(id, 0), &Arc::new(game()), 100);
            assert_eq!(held_version(&cache, id), Some(0));
            let mut over = row(id, 1);
            over.status = status;
            cache.put(&over, &Arc::new(game()), 100);
            assert_eq!(
                held_version(&cache, id),
                None,
                "{status:?}: the active version goes too"
            );
        }
        assert_eq!((cache.len(), cache.bytes()), (0, 0));
        let mut waiting = row(3, 0);
        waiting.status = GameStatus::Waiting;
        cache.put(&waiting, &Arc::new(game()), 100);
        assert_eq!(held_version(&cache, 3), Some(0), "a waiting game is held");
    }

    #[test]
    fn a_released_game_gives_back_its_weight() {
        let cache = LoadedGames::with_budget(1 << 20);
        let held = Arc::new(game());
        cache.put(&row(1, 0), &held, 700);
        cache.release(Uuid::from_u128(1), &Arc::new(game()));
        assert_eq!(cache.len(), 1, "another game for the id stays");
        cache.release(Uuid::from_u128(1), &held);
        assert_eq!((cache.len(), cache.bytes()), (0, 0));
    }
}
