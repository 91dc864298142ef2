//! `GET /v1/games`: every game, newest first, cursor-paginated.

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::error::{ApiError, Problem};
use crate::app::AppState;
use crate::games::GameResult;
use crate::service::resource::{seat_views, SeatView};
use crate::store::GameFilter;

#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    Gomoku,
    Go,
    Uno,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    Waiting,
    Active,
    Finished,
    Aborted,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this game.
    #[param(inline)]
    pub game: Option<GameKind>,
    /// Only games in this status.
    #[param(inline)]
    pub status: Option<GameStatus>,
    /// Only games where a seat has this name.
    pub player: Option<String>,
    /// Page size, 1..=100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// A listed game: the resource without its state.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: Uuid,
    pub game: String,
    pub status: String,
    pub version: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub seats: Vec<SeatView>,
    pub turn: Option<usize>,
    pub result: Option<GameResult>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GamePage {
    pub items: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; null on the last one.
    pub next_cursor: Option<String>,
}

/// Lists games, newest first.
#[utoipa::path(get, path = "/v1/games", tag = "games", params(ListQuery), responses(
    (status = 200, body = GamePage),
    (status = 400, description = "Unknown game or status, bad cursor", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "limit out of range", body = Problem, content_type = "application/problem+json"),
    (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
))]
pub async fn list(
    app: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::page_limit(query.limit, 20)?;
    let before = query
        .cursor
        .as_deref()
        .filter(|c| !c.is_empty())
        .map(|c| Uuid::parse_str(c).map_err(|_| ApiError::BadRequest(format!("bad cursor {c:?}"))))
        .transpose()?;
    let filter = GameFilter {
        game: query.game.map(|g| json_word(&g)),
        status: query.status.map(|s| json_word(&s)),
        player: query.player.clone(),
        before,
        // One more than asked tells whether another page exists.
        limit: limit + 1,
    };
    let mut rows = app.store.list_games(&filter).await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(|r| r.row.id.to_string())
    } else {
        None
    };
    let items = rows
        .into_iter()
        .map(|r| GameSummary {
            id: r.row.id,
            game: r.row.game,
            status: r.row.status,
            version: r.row.version,
            created_at: r.row.created_at,
            updated_at: r.row.updated_at,
            seats: seat_views(&r.seats),
            turn: r.row.turn.map(|t| t as usize),
            result: r.row.result.and_then(|j| serde_json::from_value(j.0).ok()),
        })
        .collect();
    Ok(HttpResponse::Ok().json(GamePage { items, next_cursor }))
}

/// The snake_case word serde gives a unit enum variant.
fn json_word<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/v1/games", "GET").route(web::get().to(list)));
}
