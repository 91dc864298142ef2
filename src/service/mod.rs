//! What the HTTP handlers call: the one road every move travels, written once for all turn-based
//! games, plus the pieces it needs (tokens, the AI pool, metrics).

pub mod ai_pool;
pub mod decks;
pub mod metrics;
pub mod resource;
pub mod seats;
pub mod tokens;
pub mod turns;
