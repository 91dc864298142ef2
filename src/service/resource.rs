//! The game resource as clients see it, built from a stored record and the rules' typed view.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::time::Timing;
use super::{seats, ServiceError};
use crate::games::clock::{Clock, Expiry, SeatTime, TimeControl};
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
    /// Where the clocks stand, for a game created with a time control (`"clock"`); absent
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// A timed game's: the server's time when it answered, which a client counting a clock down
    /// compares with its own to correct for skew.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_time: Option<DateTime<Utc>>,
    /// Whose view this is: a seat's, or the public one (`None`). HTTP names its validator after it.
    #[serde(skip)]
    pub viewer: Option<Seat>,
}

/// A timed game's clocks. Each seat's time is as it stood when the running turn began: a client
/// counts the running seat down from `turn.started_at` to `turn.deadline_at`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"control": {"type": "byoyomi", "main_ms": 600000, "period_ms": 30000, "periods": 5}, "seats": [{"remaining_ms": 581200, "periods": 5}, {"remaining_ms": 600000, "periods": 5}], "turn": {"seat": 1, "started_at": "2026-11-26T18:00:00Z", "started_ms": 1795716000000_i64, "deadline_at": "2026-11-26T18:12:30Z", "deadline_ms": 1795716750000_i64, "expires": "timeout"}}))]
pub struct ClockView {
    pub control: TimeControl,
    /// Each seat's time, by seat.
    pub seats: Vec<SeatTime>,
    /// The turn running: null when the game is not active.
    pub turn: Option<TurnClock>,
}

/// The turn on the clock.
#[derive(Debug, Serialize, ToSchema)]
pub struct TurnClock {
    pub seat: usize,
    pub started_at: DateTime<Utc>,
    /// `started_at` in milliseconds since the Unix epoch.
    pub started_ms: i64,
    /// When the turn expires (the server allows a short grace after it for network lag).
    pub deadline_at: DateTime<Utc>,
    pub deadline_ms: i64,
    pub expires: Expires,
}

/// What happens at a turn's deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Expires {
    /// The seat loses on time.
    Timeout,
    /// The seat has not made its first move: the game is aborted, and nobody loses.
    Abort,
}

fn instant(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

impl ClockView {
    pub fn of(clock: &Clock, first_move_ms: u64) -> Self {
        let turn =
            clock
                .turn
                .zip(clock.deadline(first_move_ms))
                .map(|(turn, (deadline, expiry))| TurnClock {
                    seat: turn.seat,
                    started_at: instant(turn.started_ms),
                    started_ms: turn.started_ms,
                    deadline_at: instant(deadline),
                    deadline_ms: deadline,
                    expires: match expiry {
                        Expiry::Timeout(_) => Expires::Timeout,
                        Expiry::Abort(_) => Expires::Abort,
                    },
                });
        ClockView {
            control: clock.control,
            seats: clock.seats.clone(),
            turn,
        }
    }
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

/// The resource of `game` for `viewer`, at the service's time `timing`.
pub fn render<G: TurnGame>(
    row: &GameRow,
    seats: &[SeatRow],
    game: &G,
    viewer: Option<Seat>,
    timing: &Timing,
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
        clock: game
            .clock()
            .map(|clock| ClockView::of(clock, timing.first_move_ms)),
        server_time: game.clock().map(|_| timing.time.now()),
        viewer,
    })
}
