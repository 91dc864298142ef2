//! Following a game: who watches (a seat's token or ticket, or a spectator), what a stream sends
//! first, the changes a watcher has not seen yet, and the long poll for scripts. Every change
//! after the first is read from its replay row ([`crate::store::ChangeRow`]), so a watcher sees
//! each version once, in order, with the events of that change, whichever process made it.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{game_of, load_record, missing_token, parse_state, seat_of, Read};
use crate::games::{GameStatus, Seat, TurnGame};
use crate::service::resource::{render, status_of, turn_of, GameResource};
use crate::service::tokens::{self, TokenHash};
use crate::service::{ServiceError, ServiceResult, Services};
use crate::store::{GameRow, TicketGrant};

/// How long a stream ticket opens a stream.
pub const TICKET_TTL: chrono::Duration = chrono::Duration::seconds(60);
/// The longest long poll.
pub const MAX_WAIT: Duration = Duration::from_secs(60);
/// Changes read from the store at once.
const READ_AT_ONCE: i64 = 64;

/// Opens a game's stream once, within a minute, as the seat whose token asked for it.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamTicket {
    /// Pass as `?ticket=` to `GET …/events`; good once.
    #[schema(example = "3c9a…64 hex characters")]
    pub ticket: String,
    pub expires_at: DateTime<Utc>,
}

/// The game as a stream's viewer sees it: the stream's first event (`event: game`), and the one
/// it sends instead of changes its log no longer holds (`missed`).
#[derive(Debug, Serialize)]
pub struct Snapshot<V> {
    pub game: GameResource<V>,
    /// The client asked to resume from a version whose following changes are no longer kept:
    /// this is the game now, and the changes in between are not sent.
    pub missed: bool,
}

/// One accepted change as a viewer sees it (`event: change`, `id:` its version): the game after
/// it and what it caused, as the change's own answer showed that viewer.
#[derive(Debug, Serialize)]
pub struct Change<V> {
    pub game: GameResource<V>,
    pub events: Value,
}

/// What a watcher is sent next.
pub enum CatchUp<V> {
    /// The changes after the one it saw last, oldest first (empty: none yet).
    Changes(Vec<Change<V>>),
    /// The log no longer holds what it missed.
    Missed(Box<Snapshot<V>>),
}

/// A ticket for the seat whose token asks (`None` for a table's owner, who sees what a
/// spectator sees).
pub async fn stream_ticket<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
) -> ServiceResult<StreamTicket> {
    let token = token.ok_or_else(missing_token)?;
    let fetched = load_record::<G>(svc, id).await?;
    let seat = seat_of(svc, &fetched.record, Some(token)).await?;
    let (ticket, hash) = tokens::issue();
    let expires_at = crate::store::now() + TICKET_TTL;
    let grant = TicketGrant {
        target: id,
        seat: seat.map(|s| s as i32),
        seal: None,
    };
    svc.store.issue_ticket(&hash.0, grant, expires_at).await?;
    Ok(StreamTicket { ticket, expires_at })
}

/// A stream's first event: game `id` now, as the stream's viewer sees it (the resource's
/// `viewer`): the seat of the token, or of the ticket (taken now, so good once); a spectator's
/// without either. An unknown game is 404 either way.
pub async fn open<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    ticket: Option<&str>,
) -> ServiceResult<Snapshot<G::View>> {
    let fetched = load_record::<G>(svc, id).await?;
    let viewer = match ticket {
        None => seat_of(svc, &fetched.record, token).await?,
        Some(ticket) => ticket_seat(svc, id, token, ticket).await?,
    };
    let game = game_of::<G>(svc, &fetched)?;
    let record = &fetched.record;
    Ok(Snapshot {
        game: render(&record.row, &record.seats, &*game, viewer, &svc.timing)?,
        missed: false,
    })
}

/// The seat a stream ticket for game `id` opens (`None`: a spectator's view).
async fn ticket_seat(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    ticket: &str,
) -> ServiceResult<Option<Seat>> {
    if token.is_some() {
        return Err(ServiceError::BadInput(
            "send a seat token or a ticket, not both".into(),
        ));
    }
    let unknown = || {
        ServiceError::Unauthenticated(
            "this ticket is unknown, used or expired: ask `POST …/stream-ticket` for another"
                .into(),
        )
    };
    if !tokens::well_formed(ticket) {
        return Err(unknown());
    }
    let hash = TokenHash::of(&ticket.to_ascii_lowercase());
    let grant = svc
        .store
        .take_ticket(&hash.0, crate::store::now())
        .await?
        .ok_or_else(unknown)?;
    if grant.target != id {
        return Err(ServiceError::Forbidden(
            "this ticket opens another game's stream".into(),
        ));
    }
    Ok(grant.seat.map(|s| s as Seat))
}

/// The game now, as `viewer` sees it.
pub async fn snapshot<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    viewer: Option<Seat>,
    missed: bool,
) -> ServiceResult<Snapshot<G::View>> {
    let fetched = load_record::<G>(svc, id).await?;
    let game = game_of::<G>(svc, &fetched)?;
    let record = &fetched.record;
    Ok(Snapshot {
        game: render(&record.row, &record.seats, &*game, viewer, &svc.timing)?,
        missed,
    })
}

/// The changes of game `id` after version `after` as `viewer` sees them; `newest` is a version
/// known to exist (what woke the watcher), so that a log emptied of it reads as missed.
/// `created_at` is the game's, which no change moves.
pub async fn catch_up<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    created_at: DateTime<Utc>,
    viewer: Option<Seat>,
    after: i64,
    newest: i64,
) -> ServiceResult<CatchUp<G::View>> {
    let rows = svc.store.changes_after(id, after, READ_AT_ONCE).await?;
    let gap = match rows.first() {
        Some(first) => first.version != after + 1,
        None => newest > after,
    };
    if gap {
        return Ok(CatchUp::Missed(Box::new(
            snapshot::<G>(svc, id, viewer, true).await?,
        )));
    }
    let changes = rows
        .into_iter()
        .map(|row| {
            let game: G = parse_state(id, row.state.0.get())?;
            let seats = row.seats.0;
            let status = status_of(&game, &seats);
            let stored = GameRow {
                id,
                game: G::NAME.into(),
                status,
                version: row.version,
                turn: turn_of(&game, status).map(|t| t as i32),
                state: None,
                result: None,
                created_at,
                updated_at: row.at,
                sweep_at_ms: None,
            };
            Ok(Change {
                game: render(&stored, &seats, &game, viewer, &svc.timing)?,
                events: row.events.0,
            })
        })
        .collect::<ServiceResult<Vec<_>>>()?;
    Ok(CatchUp::Changes(changes))
}

/// Whether a game in this status changes no more: its stream ends.
pub fn ended(status: GameStatus) -> bool {
    matches!(status, GameStatus::Finished | GameStatus::Aborted)
}

/// The game as the token's seat sees it once it is past version `after`, waiting up to `wait`;
/// [`Read::Unchanged`] when the time is up first.
pub async fn wait_past<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    after: i64,
    wait: Duration,
) -> ServiceResult<Read<G::View>> {
    let deadline = tokio::time::Instant::now() + wait.min(MAX_WAIT);
    // Watching before reading: a change between the read and the wait still wakes it.
    let mut watch = svc.live.watch_game(id);
    loop {
        let fetched = load_record::<G>(svc, id).await?;
        let viewer = seat_of(svc, &fetched.record, token).await?;
        let version = fetched.record.row.version;
        if version > after {
            let game = game_of::<G>(svc, &fetched)?;
            let record = &fetched.record;
            let resource = render(&record.row, &record.seats, &*game, viewer, &svc.timing)?;
            return Ok(Read::Fresh(Box::new(resource)));
        }
        let mut closing = svc.live.closing();
        tokio::select! {
            _ = watch.changed() => {}
            _ = tokio::time::sleep_until(deadline) => return Ok(Read::Unchanged(version, viewer)),
            _ = closing.wait_for(|closing| *closing) => return Ok(Read::Unchanged(version, viewer)),
        }
    }
}
