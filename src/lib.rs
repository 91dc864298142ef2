//! Parlor: games as a service over REST/JSON.
//!
//! `games` holds the rules (pure Rust), `store` the persistence, `service` the one road every move
//! travels, `http` the routes and their documentation, `app` the server that ties them together.

pub mod app;
pub mod config;
pub mod http;
pub mod rating;
pub mod service;
pub mod store;
pub mod telemetry;

/// The rules and AIs, a crate of their own (`crates/parlor-games`).
pub use parlor_games as games;
pub use parlor_games::seed;
