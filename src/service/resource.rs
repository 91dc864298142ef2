//! The game resource as clients see it, built from a stored record and the rules' typed view.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{seats, ServiceError};
use crate::games::{AiLevel, GameResult, GameStatus, Seat, SeatKind, SeatKindWord, TurnGame};
use crate::store::{GameRow, SeatRow};

/// A seat as clients see it (never its token).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    pub seat: usize,
    /// The player's name; null for an open seat.
    pub name: Option<String>,
    pub kind: SeatKindWord,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<AiLevel>,
    /// Whether a registered player holds the seat (claimed with their key); `false` for a
    /// guest's name, an AI or an open seat.
    pub registered: bool,
}

/// A turn-based game: Gomoku, Go or UNO. `state` is the game's own view (each game's schema is
/// `<Game>Game` in the OpenAPI document).
#[derive(Debug, Serialize, ToSchema)]
pub struct GameResource<V> {
    pub id: Uuid,
    #[schema(example = "gomoku")]
    pub game: String,
    pub status: GameStatus,
    /// +1 on every accepted change; also the `ETag`.
    pub version: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub seats: Vec<SeatView>,
    /// Whether the game moves Glicko-2 ratings when it ends: a rated game (Gomoku, Go), not
    /// created with `"rated": false` (nor, in Go, from an SGF record, handicap stones or an unusual
    /// komi), whose every human seat a registered player claimed with their own key, with no seat
    /// left open. A rated game allows no take-back, hint or preview of the AI's move.
    pub rated: bool,
    /// The seat to act; null when the game is not active.
    pub turn: Option<usize>,
    pub result: Option<GameResult>,
    /// Game-specific state, as the caller's seat may see it.
    pub state: V,
    /// Whose view this is: a seat's, or the public one (`None`). HTTP names its validator after it.
    #[serde(skip)]
    pub viewer: Option<Seat>,
}

pub fn seat_views(seats: &[SeatRow]) -> Result<Vec<SeatView>, ServiceError> {
    seats
        .iter()
        .map(|s| {
            Ok(SeatView {
                seat: s.seat as usize,
                name: s.name.clone(),
                kind: s.kind,
                level: match seats::kind_of(s)? {
                    SeatKind::Ai(level) => Some(level),
                    _ => None,
                },
                registered: s.player.is_some(),
            })
        })
        .collect()
}

/// The status for a game's rules state.
pub fn status_of<G: TurnGame>(game: &G, seats: &[SeatRow]) -> GameStatus {
    match game.result() {
        Some(result) if result.reason == crate::games::EndReason::ABORTED => GameStatus::Aborted,
        Some(_) => GameStatus::Finished,
        None if seats.iter().any(|s| s.kind == SeatKindWord::Open) || !game.started() => {
            GameStatus::Waiting
        }
        None => GameStatus::Active,
    }
}

/// The seat to act: only an active game has one (a game waiting for a seat has none yet).
pub fn turn_of<G: TurnGame>(game: &G, status: GameStatus) -> Option<Seat> {
    game.turn().filter(|_| status == GameStatus::Active)
}

pub fn render<G: TurnGame>(
    row: &GameRow,
    seats: &[SeatRow],
    game: &G,
    viewer: Option<Seat>,
) -> Result<GameResource<G::View>, ServiceError> {
    Ok(GameResource {
        id: row.id,
        game: row.game.clone(),
        status: row.status,
        version: row.version,
        created_at: row.created_at,
        updated_at: row.updated_at,
        seats: seat_views(seats)?,
        rated: super::turns::is_rated(game, seats),
        turn: turn_of(game, row.status),
        result: game.result(),
        state: game.view(viewer),
        viewer,
    })
}
