//! What the HTTP handlers call: the one road every move travels, written once for all turn-based
//! games, plus the pieces it needs (tokens, the AI pool, metrics). Nothing here knows HTTP.

pub mod ai_pool;
pub mod decks;
pub mod error;
pub mod listing;
pub mod live;
pub mod metrics;
pub mod players;
pub mod resource;
pub mod seats;
pub mod seeks;
pub mod sweep;
pub mod time;
pub mod tokens;
pub mod turns;

use std::sync::Arc;

pub use error::ServiceError;

use crate::store::GameStore;

/// Everything the services need, and nothing of HTTP.
pub struct Services {
    pub store: Arc<dyn GameStore>,
    pub ai: ai_pool::AiPool,
    pub metrics: metrics::Metrics,
    /// Games as the last request left them (`turns::LoadedGames`).
    pub loaded: turns::LoadedGames,
    /// Reports that search (Go's estimate), kept per game version and query.
    pub reports: ReportCache,
    /// The games and lobby this process's streams watch.
    pub live: Arc<live::Live>,
    /// The time, and how game clocks run.
    pub timing: time::Timing,
}

/// Which report of which version of a game, for which query.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReportKey {
    pub id: uuid::Uuid,
    pub version: i64,
    pub name: String,
    pub query: crate::games::ReportQuery,
}

/// The answers of reports that search, least recently used first out: a version names one
/// position for good, so a kept answer never goes stale.
pub struct ReportCache(std::sync::Mutex<lru::LruCache<ReportKey, crate::games::Report>>);

impl ReportCache {
    /// How many answers are kept.
    const CAPACITY: usize = 256;

    pub fn get(&self, key: &ReportKey) -> Option<crate::games::Report> {
        self.0.lock().ok()?.get(key).cloned()
    }

    pub fn put(&self, key: ReportKey, report: crate::games::Report) {
        if let Ok(mut kept) = self.0.lock() {
            kept.put(key, report);
        }
    }
}

impl Default for ReportCache {
    fn default() -> Self {
        let capacity = std::num::NonZeroUsize::new(Self::CAPACITY).expect("not zero");
        ReportCache(std::sync::Mutex::new(lru::LruCache::new(capacity)))
    }
}

pub type ServiceResult<T> = Result<T, ServiceError>;

impl Services {
    /// Answers when the database does.
    pub async fn ping(&self) -> ServiceResult<()> {
        Ok(self.store.ping().await?)
    }
}
