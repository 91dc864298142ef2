//! `GET /v1/games`: every game, newest first, cursor-paginated.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::resource::{seat_views, SeatView};
use super::{ServiceError, ServiceResult, Services};
use crate::games::{GameResult, GameStatus};
use crate::store::{GameFilter, GameRow, SeatRow};

/// A listed game: the resource without its state.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: Uuid,
    pub game: String,
    pub status: GameStatus,
    pub version: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub seats: Vec<SeatView>,
    pub turn: Option<usize>,
    pub result: Option<GameResult>,
}

impl GameSummary {
    /// The listing entry of a stored game.
    pub fn of(row: &GameRow, seats: &[SeatRow]) -> ServiceResult<Self> {
        Ok(GameSummary {
            id: row.id,
            game: row.game.clone(),
            status: row.status,
            version: row.version,
            created_at: row.created_at,
            updated_at: row.updated_at,
            seats: seat_views(seats)?,
            turn: row.turn.map(|t| t as usize),
            result: row
                .result
                .as_ref()
                .and_then(|j| serde_json::from_value(j.0.clone()).ok()),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GamePage {
    pub items: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; null on the last one.
    pub next_cursor: Option<String>,
}

/// What to list.
pub struct ListRequest {
    pub game: Option<&'static str>,
    pub status: Option<GameStatus>,
    pub player: Option<String>,
    pub cursor: Option<String>,
    pub limit: i64,
}

pub async fn list(svc: &Services, request: ListRequest) -> ServiceResult<GamePage> {
    // No name holds one (names refuse control characters), and PostgreSQL refuses a NUL in text.
    if request
        .player
        .as_deref()
        .is_some_and(|name| name.chars().any(char::is_control))
    {
        return Err(ServiceError::BadInput(
            "bad player: a player name has no control characters".into(),
        ));
    }
    let before = request
        .cursor
        .as_deref()
        .filter(|c| !c.is_empty())
        .map(|c| {
            Uuid::parse_str(c).map_err(|_| {
                ServiceError::BadInput(
                    "bad cursor: pass the `next_cursor` of the previous page".into(),
                )
            })
        })
        .transpose()?;
    let filter = GameFilter {
        game: request.game.map(str::to_owned),
        status: request.status,
        player: request.player,
        before,
        // One more than asked tells whether another page exists.
        limit: request.limit + 1,
    };
    let mut rows = svc.store.list_games(&filter).await?;
    let next_cursor = if rows.len() as i64 > request.limit {
        rows.truncate(request.limit as usize);
        rows.last().map(|r| r.row.id.to_string())
    } else {
        None
    };
    let items = rows
        .iter()
        .map(|r| GameSummary::of(&r.row, &r.seats))
        .collect::<ServiceResult<Vec<_>>>()?;
    Ok(GamePage { items, next_cursor })
}
