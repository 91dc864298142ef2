//! Persistent player scores (seed 001): a player by name, and the leaderboard.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::error::{ApiError, Problem};
use crate::app::AppState;
use crate::store::PlayerStats;

/// A player's record in one game.
#[derive(Debug, Serialize, ToSchema)]
pub struct Stats {
    #[schema(example = 1100)]
    pub score: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Player {
    #[schema(example = "alice")]
    pub name: String,
    /// Gomoku score: starts at 1000, +100 a win, −100 a loss.
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

/// Games that keep scores.
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScoredGame {
    #[default]
    Gomoku,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// The game (default `gomoku`, the only one with scores).
    #[param(inline)]
    pub game: Option<ScoredGame>,
    /// How many players, 1..=100 (default 10).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

fn stats(s: &PlayerStats) -> Stats {
    Stats {
        score: s.score,
        wins: s.wins,
        losses: s.losses,
        draws: s.draws,
    }
}

/// A player's scores. A name becomes known when it first sits at a scored game.
#[utoipa::path(get, path = "/v1/players/{name}", tag = "players",
    params(("name" = String, Path, description = "Player name")),
    responses(
        (status = 200, body = Player),
        (status = 404, description = "Never played a scored game", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn get(
    app: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let rows = app.store.player_stats(name.trim()).await?;
    if rows.is_empty() {
        return Err(ApiError::NotFound(format!(
            "no player named {name:?} has played a scored game"
        )));
    }
    Ok(HttpResponse::Ok().json(Player {
        name: rows[0].name.clone(),
        gomoku: rows.iter().find(|r| r.game == "gomoku").map(stats),
    }))
}

/// The leaderboard: highest score first, ties by name.
#[utoipa::path(get, path = "/v1/players", tag = "players", params(LeaderboardQuery),
    responses(
        (status = 200, body = Leaderboard),
        (status = 400, description = "Unknown game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "limit out of range", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn leaderboard(
    app: web::Data<AppState>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::page_limit(query.limit, 10)?;
    let game = match query.game.unwrap_or_default() {
        ScoredGame::Gomoku => "gomoku",
    };
    let rows = app.store.leaderboard(game, limit).await?;
    let players = rows
        .iter()
        .enumerate()
        .map(|(i, r)| RankedPlayer {
            rank: i + 1,
            name: r.name.clone(),
            stats: stats(r),
        })
        .collect();
    Ok(HttpResponse::Ok().json(Leaderboard {
        game: game.into(),
        players,
    }))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/v1/players", "GET").route(web::get().to(leaderboard)))
        .service(super::resource("/v1/players/{name}", "GET").route(web::get().to(get)));
}
