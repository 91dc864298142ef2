//! What the HTTP handlers call: the one road every move travels, written once for all turn-based
//! games, plus the pieces it needs (tokens, the AI pool, metrics). Nothing here knows HTTP.

pub mod ai_pool;
pub mod decks;
pub mod error;
pub mod listing;
pub mod metrics;
pub mod players;
pub mod resource;
pub mod seats;
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
}

pub type ServiceResult<T> = Result<T, ServiceError>;

impl Services {
    /// Answers when the database does.
    pub async fn ping(&self) -> ServiceResult<()> {
        Ok(self.store.ping().await?)
    }
}
