//! Persistent player scores (seed 001): a player by name, and the leaderboard.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::error::ApiError;
use super::games::{GameName, ScoredGame};
use super::problems::{BadRequest, NotFound, Unavailable, Unprocessable};
use super::NoParams;
use crate::app::AppState;
use crate::service::players::{self, Leaderboard, Player};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// A game that keeps scores (default: the first, `gomoku`).
    #[param(schema_with = super::games::scored_game_schema)]
    pub game: Option<GameName<ScoredGame>>,
    /// How many players, 1..=100 (default 10).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// A player's scores, by game. A name becomes known when it first sits at a scored game.
#[utoipa::path(get, path = "/v1/players/{name}", tag = "players",
    params(("name" = String, Path, description = "Player name")),
    responses(
        (status = 200, body = Player),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 503, response = Unavailable),
    ))]
pub async fn get(
    app: web::Data<AppState>,
    name: web::Path<String>,
    _: web::Query<NoParams>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(players::player(&app, &name).await?))
}

/// The leaderboard: highest score first, ties by name.
#[utoipa::path(get, path = "/v1/players", tag = "players", params(LeaderboardQuery),
    responses(
        (status = 200, body = Leaderboard),
        (status = 400, response = BadRequest),
        (status = 422, response = Unprocessable),
        (status = 503, response = Unavailable),
    ))]
pub async fn leaderboard(
    app: web::Data<AppState>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::page_limit(query.limit, 10)?;
    let game = query.into_inner().game.unwrap_or_else(GameName::first).0;
    Ok(HttpResponse::Ok().json(players::leaderboard(&app, game, limit).await?))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    use super::{get_or_head, resource};
    cfg.service(resource("/v1/players", "GET, HEAD").route(get_or_head().to(leaderboard)))
        .service(resource("/v1/players/{name}", "GET, HEAD").route(get_or_head().to(get)));
}
