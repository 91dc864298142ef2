//! The game resource as clients see it (API.md), built from a stored record and the rules' view.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{AiLevel, GameResult, Seat, TurnGame};
use crate::store::{GameRow, SeatRow};

/// A seat as clients see it (never its token).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    pub seat: usize,
    pub name: Option<String>,
    /// `human`, `ai` or `open`.
    #[schema(example = "human")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<AiLevel>,
}

/// A turn-based game: Gomoku, Go or UNO.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameResource {
    pub id: Uuid,
    #[schema(example = "gomoku")]
    pub game: String,
    /// `waiting`, `active`, `finished` or `aborted`.
    #[schema(example = "active")]
    pub status: String,
    /// +1 on every accepted change; also the `ETag`.
    pub version: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub seats: Vec<SeatView>,
    /// The seat to act; null when the game is not active.
    pub turn: Option<usize>,
    pub result: Option<GameResult>,
    /// Game-specific state (see API.md), as the caller's seat may see it.
    #[schema(value_type = Object)]
    pub state: Value,
}

pub fn seat_views(seats: &[SeatRow]) -> Vec<SeatView> {
    seats
        .iter()
        .map(|s| SeatView {
            seat: s.seat as usize,
            name: s.name.clone(),
            kind: s.kind.clone(),
            level: match super::seats::kind_of(s) {
                crate::games::SeatKind::Ai(level) => Some(level),
                _ => None,
            },
        })
        .collect()
}

/// The status word for a game's rules state.
pub fn status_of<G: TurnGame>(game: &G, seats: &[SeatRow]) -> &'static str {
    match game.result() {
        Some(result) if result.reason == crate::games::EndReason::Aborted => "aborted",
        Some(_) => "finished",
        None if seats.iter().any(|s| s.kind == "open") || game.turn().is_none() => "waiting",
        None => "active",
    }
}

pub fn render<G: TurnGame>(
    row: &GameRow,
    seats: &[SeatRow],
    game: &G,
    viewer: Option<Seat>,
) -> GameResource {
    GameResource {
        id: row.id,
        game: row.game.clone(),
        status: row.status.clone(),
        version: row.version,
        created_at: row.created_at,
        updated_at: row.updated_at,
        seats: seat_views(seats),
        turn: game.turn(),
        result: game.result(),
        state: game.view(viewer),
    }
}
