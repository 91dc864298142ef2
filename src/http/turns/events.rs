//! A game's live routes: its event stream, the ticket that opens it from a browser, and the long
//! poll of `GET …/games/{id}?wait=&after=`.

use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::super::auth::Bearer;
use super::super::conditional::{self, View};
use super::super::error::ApiError;
use super::super::stream::{admit, resume_point, Outbox};
use super::{view_of, NoParams};
use crate::app::AppState;
use crate::games::{Seat, TurnGame};
use crate::service::turns::follow::{self, CatchUp};
use crate::service::turns::Read;
use crate::service::ServiceError;

/// How often, and how long apart, a stream tries again to read a database that is away before
/// it ends (its client then reconnects, and loses nothing).
const READ_RETRIES: u32 = 60;
const READ_RETRY_AFTER: Duration = Duration::from_secs(1);

/// `?since=&ticket=` of a game's stream.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Resume after this version (as `Last-Event-ID` does): every later change is sent first.
    #[param(minimum = 0)]
    pub since: Option<i64>,
    /// A ticket from `POST …/stream-ticket`, good once: the stream shows that seat's view.
    pub ticket: Option<String>,
}

/// `GET /v1/{game}/games/{id}/events`.
pub async fn events<G: TurnGame>(
    app: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<Uuid>,
    query: web::Query<EventsQuery>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let id = *id;
    let permit = admit(&app)?;
    let since = resume_point(&req, query.since)?;
    // Watching before reading: a change committed in between still wakes the stream.
    let watch = app.live.watch_game(id);
    let now = follow::open::<G>(&app, id, bearer.hash(), query.ticket.as_deref()).await?;
    let (version, status, created_at) = (now.game.version, now.game.status, now.game.created_at);
    let viewer = now.game.viewer;
    if since == Some(version) && follow::ended(status) {
        // Nothing more will come: 204 tells `EventSource` not to reconnect.
        return Ok(HttpResponse::NoContent().finish());
    }
    let (outbox, response) = Outbox::open(&req, permit);
    let last = match since {
        Some(since) if since <= version => since,
        // A fresh stream, or one resuming from a version this game never had.
        _ => {
            let snapshot = follow::Snapshot {
                missed: since.is_some(),
                ..now
            };
            if !outbox.send("game", version, &snapshot) || follow::ended(status) {
                return Ok(response);
            }
            version
        }
    };
    let stream = GameStream {
        app: app.clone(),
        id,
        created_at,
        viewer,
        outbox,
    };
    actix_web::rt::spawn(stream.follow::<G>(last, version, watch));
    Ok(response)
}

/// One client's stream of one game.
struct GameStream {
    app: web::Data<AppState>,
    id: Uuid,
    created_at: chrono::DateTime<chrono::Utc>,
    viewer: Option<Seat>,
    outbox: Outbox,
}

impl GameStream {
    /// Sends every change after `last` (`newest` is known to exist), then each one as it comes,
    /// until the game ends, the client leaves or the server stops.
    async fn follow<G: TurnGame>(
        self,
        mut last: i64,
        mut newest: i64,
        mut watch: crate::service::live::GameWatch,
    ) {
        let mut closing = self.app.live.closing();
        let mut failures = 0;
        loop {
            match self.catch_up::<G>(&mut last, newest).await {
                Ok(true) => failures = 0,
                Ok(false) => return,
                // The database is away (a restart): keep the stream and read again soon; the
                // keep-alives go on meanwhile.
                Err(err) if failures < READ_RETRIES => {
                    failures += 1;
                    tracing::warn!(error = %err, game = %self.id, "a game stream cannot read; trying again");
                    tokio::select! {
                        _ = tokio::time::sleep(READ_RETRY_AFTER) => continue,
                        _ = self.outbox.closed() => return,
                    }
                }
                Err(err) => {
                    tracing::warn!(error = %err, game = %self.id, "a game stream cannot read; ending it");
                    return;
                }
            }
            tokio::select! {
                version = watch.changed() => newest = version,
                _ = self.outbox.closed() => return,
                _ = closing.wait_for(|closing| *closing) => return,
            }
        }
    }

    /// Sends what the client has not seen; `false` once the stream is over.
    async fn catch_up<G: TurnGame>(
        &self,
        last: &mut i64,
        newest: i64,
    ) -> Result<bool, ServiceError> {
        loop {
            let next = follow::catch_up::<G>(
                &self.app,
                self.id,
                self.created_at,
                self.viewer,
                *last,
                newest,
            )
            .await?;
            match next {
                CatchUp::Missed(snapshot) => {
                    *last = snapshot.game.version;
                    let ended = follow::ended(snapshot.game.status);
                    return Ok(self.outbox.send("game", *last, &snapshot) && !ended);
                }
                CatchUp::Changes(changes) if changes.is_empty() => return Ok(true),
                CatchUp::Changes(changes) => {
                    for change in changes {
                        *last = change.game.version;
                        let ended = follow::ended(change.game.status);
                        if !self.outbox.send("change", *last, &change) || ended {
                            return Ok(false);
                        }
                    }
                }
            }
        }
    }
}

/// `POST /v1/{game}/games/{id}/stream-ticket`.
pub async fn stream_ticket<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let ticket = follow::stream_ticket::<G>(&app, *id, bearer.hash()).await?;
    Ok(conditional::secret(HttpResponse::Ok().json(ticket)))
}

/// `?wait=&after=` of a game's read: a long poll.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReadQuery {
    /// Wait up to this many seconds (1 to 60) for a version after `after`; 304 when none came.
    #[param(minimum = 1, maximum = 60)]
    pub wait: Option<u64>,
    /// The version the client holds (with `wait`).
    #[param(minimum = 0)]
    pub after: Option<i64>,
}

/// The long poll: the game once it is past `after`, or 304 after `wait` seconds.
pub async fn wait<G: TurnGame>(
    app: &AppState,
    id: Uuid,
    bearer: &Bearer,
    wait: u64,
    after: Option<i64>,
) -> Result<HttpResponse, ApiError> {
    let after = after.ok_or_else(|| {
        ApiError::Service(ServiceError::BadInput(
            "`wait` needs `after`: the version the client holds".into(),
        ))
    })?;
    if !(1..=60).contains(&wait) || after < 0 {
        return Err(ApiError::Service(ServiceError::BadInput(format!(
            "`wait` is 1 to 60 seconds and `after` a version (0 or more), not {wait} and {after}"
        ))));
    }
    let _permit = admit(app)?;
    let read =
        follow::wait_past::<G>(app, id, bearer.hash(), after, Duration::from_secs(wait)).await?;
    Ok(match read {
        Read::Unchanged(version, seat) => conditional::unchanged(View { version, seat }),
        Read::Fresh(game) => conditional::ok(HttpResponse::Ok(), view_of(&game), &game),
    })
}
