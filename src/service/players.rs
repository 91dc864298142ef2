//! Persistent player scores (seed 001), kept per game for every game that keeps them.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::{ServiceError, ServiceResult, Services};
use crate::store::PlayerStats;

/// A player's record in one game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Stats {
    #[schema(example = 1100)]
    pub score: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// A player and their score in each scored game they played.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"name": "alice", "scores": {"gomoku": {"score": 1100, "wins": 1, "losses": 0, "draws": 0}}, "gomoku": {"score": 1100, "wins": 1, "losses": 0, "draws": 0}}))]
pub struct Player {
    #[schema(example = "alice")]
    pub name: String,
    /// Scores by game: every player starts at 1000, +100 a win, −100 a loss.
    pub scores: BTreeMap<String, Stats>,
    /// The Gomoku score again, where clients of the first API version read it.
    #[deprecated(note = "read `scores.gomoku`")]
    pub gomoku: Option<Stats>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RankedPlayer {
    pub rank: usize,
    pub name: String,
    #[serde(flatten)]
    pub stats: Stats,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    #[schema(example = "gomoku")]
    pub game: String,
    pub players: Vec<RankedPlayer>,
}

fn stats(s: &PlayerStats) -> Stats {
    Stats {
        score: s.score,
        wins: s.wins,
        losses: s.losses,
        draws: s.draws,
    }
}

/// A player by name; 404 until the name has sat at a scored game.
pub async fn player(svc: &Services, name: &str) -> ServiceResult<Player> {
    let rows = svc.store.player_stats(name.trim()).await?;
    let Some(first) = rows.first() else {
        return Err(ServiceError::NotFound(format!(
            "no player named {:?} has played a scored game",
            name.chars().take(40).collect::<String>()
        )));
    };
    let scores: BTreeMap<String, Stats> = rows.iter().map(|r| (r.game.clone(), stats(r))).collect();
    #[allow(deprecated)]
    Ok(Player {
        name: first.name.clone(),
        gomoku: scores.get("gomoku").cloned(),
        scores,
    })
}

/// The leaderboard of one scored game: highest score first, ties by name.
pub async fn leaderboard(svc: &Services, game: &str, limit: i64) -> ServiceResult<Leaderboard> {
    let rows = svc.store.leaderboard(game, limit).await?;
    let players = rows
        .iter()
        .enumerate()
        .map(|(i, r)| RankedPlayer {
            rank: i + 1,
            name: r.name.clone(),
            stats: stats(r),
        })
        .collect();
    Ok(Leaderboard {
        game: game.into(),
        players,
    })
}
