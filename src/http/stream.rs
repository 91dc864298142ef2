//! Server-sent events, for games (`turns::events`) and the lobby: the framing is actix-web-lab's;
//! here are the parts every stream shares (the cap on open streams, where a client resumes, the
//! bounded queue that drops a slow reader) and the lobby's stream.

use std::time::Duration;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse, Responder};
use actix_web_lab::sse;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use utoipa::{IntoParams, ToSchema};

use super::error::ApiError;
use super::games::{AnyGame, GameName};
use super::problems::{BadRequest, Unavailable};
use crate::app::AppState;
use crate::games::GameStatus;
use crate::service::listing::{self, GameSummary, ListRequest};
use crate::service::live::StreamPermit;
use crate::service::seeks::{self, Seek};
use crate::service::ServiceError;
use crate::store::{LobbyKind, LobbyRow};

/// Events queued for one client before it counts as too slow and its stream is dropped (it
/// reconnects with `Last-Event-ID` and loses nothing).
pub const QUEUE: usize = 64;
/// A comment line this often keeps proxies from closing a quiet stream.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A place among the process's open streams, or 503 with `Retry-After`.
pub fn admit(app: &AppState) -> Result<StreamPermit, ApiError> {
    app.live.admit().ok_or_else(|| {
        ApiError::Service(ServiceError::Unavailable {
            message: "this server has as many streams open as it allows (PARLOR_MAX_STREAMS); \
                      try again, or another server"
                .into(),
            retry_after: 5,
        })
    })
}

/// Where a client resumes: `Last-Event-ID` (what `EventSource` sends when it reconnects), else
/// `?since=`; `None` for a fresh stream.
pub fn resume_point(req: &HttpRequest, since: Option<i64>) -> Result<Option<i64>, ApiError> {
    let header = req.headers().get("last-event-id");
    let text = header.map(|v| v.to_str().map(str::trim).unwrap_or("not text"));
    let resumed = match text {
        None | Some("") => since,
        Some(text) => Some(text.parse::<i64>().map_err(|_| {
            ApiError::Service(ServiceError::BadInput(
                "Last-Event-ID must be an event id this stream sent (a number)".into(),
            ))
        })?),
    };
    match resumed {
        Some(n) if n < 0 => Err(ApiError::Service(ServiceError::BadInput(format!(
            "a stream resumes after an event id (0 or more), not {n}"
        )))),
        other => Ok(other),
    }
}

/// The sending end of one client's stream: events queue up to [`QUEUE`]; a client that lets the
/// queue fill is dropped.
pub struct Outbox {
    sender: mpsc::Sender<sse::Event>,
    _permit: StreamPermit,
}

impl Outbox {
    /// The outbox and the response that streams what it sends.
    pub fn open(req: &HttpRequest, permit: StreamPermit) -> (Self, HttpResponse) {
        let (sender, receiver) = mpsc::channel(QUEUE);
        let mut response = sse::Sse::from_infallible_receiver(receiver)
            .with_keep_alive(KEEP_ALIVE)
            .respond_to(req)
            .map_into_boxed_body();
        // A stream may carry a seat's private view: no cache keeps any of it.
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(
            header::HeaderName::from_static("x-accel-buffering"),
            HeaderValue::from_static("no"),
        );
        let outbox = Outbox {
            sender,
            _permit: permit,
        };
        (outbox, response)
    }

    /// Queues one event; `false` when the stream is over (the client left, or is too slow).
    pub fn send(&self, name: &str, id: i64, data: &impl Serialize) -> bool {
        let event = match sse::Data::new_json(data) {
            Ok(data) => data.event(name.to_owned()).id(id.to_string()),
            Err(err) => {
                tracing::error!(error = %err, "an event does not serialize");
                return false;
            }
        };
        match self.sender.try_send(event.into()) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::info!("a stream's client reads too slowly; dropping it");
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Resolves once the client has gone.
    pub async fn closed(&self) {
        self.sender.closed().await;
    }
}

/// `?game=&status=&since=` of the lobby's stream.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LobbyQuery {
    /// Only games of this kind.
    #[param(value_type = Option<String>)]
    pub game: Option<GameName<AnyGame>>,
    /// Only games in this status, and the announcements of games leaving it.
    pub status: Option<GameStatus>,
    /// Resume after this announcement (as `Last-Event-ID` does).
    #[param(minimum = 0)]
    pub since: Option<i64>,
}

/// The lobby's first event (`event: lobby`), and the one it sends instead of announcements it no
/// longer holds: the listed games the filter selects, newest first (at most 100), and the open
/// seeks of the game filtered for (of every game without a filter), oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct LobbySnapshot {
    pub games: Vec<GameSummary>,
    pub seeks: Vec<Seek>,
    /// The client resumed after announcements that are no longer kept: this is the lobby now.
    pub missed: bool,
}

/// One announcement (`event:` its kind, `id:` its lobby number): what happened to a listed game,
/// with its listing entry after it (`game`), or to a seek, with the seek after it (`seek`: kinds
/// `seek_opened` and `seek_closed`).
#[derive(Debug, Serialize, ToSchema)]
pub struct LobbyEvent {
    pub kind: LobbyKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<GameSummary>)]
    pub game: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Seek>)]
    pub seek: Option<serde_json::Value>,
}

/// What the lobby's stream sends (for the OpenAPI document).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LobbyStreamEvent {
    Snapshot(LobbySnapshot),
    Announcement(LobbyEvent),
}

/// What a lobby stream shows.
#[derive(Clone)]
struct LobbyFilter {
    game: Option<&'static str>,
    status: Option<GameStatus>,
}

impl LobbyFilter {
    fn shows(&self, row: &LobbyRow, kind: LobbyKind) -> bool {
        if self.game.is_some_and(|game| game != row.game) {
            return false;
        }
        // Seeks are shown whatever the status filtered for: each is a game about to begin.
        let Some(wanted) = self.status.filter(|_| !kind.of_seek()) else {
            return true;
        };
        // A game leaving the status watched is announced too, so the client can drop it.
        row.status == wanted.as_str()
            || match wanted {
                GameStatus::Waiting => matches!(kind, LobbyKind::Started | LobbyKind::Aborted),
                GameStatus::Active => matches!(kind, LobbyKind::Finished | LobbyKind::Aborted),
                _ => false,
            }
    }
}

/// The lobby, live: `event: lobby` first (the listed games and the open seeks), then one event
/// per announcement, named by its kind, `id:` its lobby number. A seek is announced opened and
/// closed (paired, cancelled or expired) whatever `status` filters. Reconnecting with
/// `Last-Event-ID` (or `?since=`) sends the announcements after it; when they are no longer kept
/// (after an hour), one `event: lobby` with `missed: true` instead.
#[utoipa::path(get, path = "/v1/games/events", tag = "live", params(LobbyQuery),
    responses(
        (status = 200, description = "Server-sent events: `event: lobby` (a `LobbySnapshot`) first, then one `LobbyEvent` per announcement; a `: keep-alive` comment every 15 s",
            content_type = "text/event-stream", body = LobbyStreamEvent),
        (status = 400, response = BadRequest),
        (status = 503, response = Unavailable),
    ))]
pub async fn lobby(
    app: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<LobbyQuery>,
) -> Result<HttpResponse, ApiError> {
    let permit = admit(&app)?;
    let query = query.into_inner();
    let game = match &query.game {
        Some(name) => Some(name.of(&app.games)?.name),
        None => None,
    };
    let filter = LobbyFilter {
        game,
        status: query.status,
    };
    let since = resume_point(&req, query.since)?;
    let watch = app.live.watch_lobby();
    let head = app.store.lobby_head().await.map_err(ServiceError::from)?;
    let (outbox, response) = Outbox::open(&req, permit);
    let last = match since {
        Some(since) if since <= head => since,
        _ => {
            if !send_lobby_snapshot(&app, &outbox, &filter, head, since.is_some()).await? {
                return Ok(response);
            }
            head
        }
    };
    actix_web::rt::spawn(follow_lobby(app, outbox, filter, last, watch));
    Ok(response)
}

async fn send_lobby_snapshot(
    app: &AppState,
    outbox: &Outbox,
    filter: &LobbyFilter,
    head: i64,
    missed: bool,
) -> Result<bool, ServiceError> {
    let page = listing::list(
        app,
        ListRequest {
            game: filter.game,
            status: filter.status,
            player: None,
            cursor: None,
            limit: 100,
        },
    )
    .await?;
    let mut seeks = Vec::new();
    for game in app
        .games
        .iter()
        .filter(|g| filter.game.is_none_or(|f| f == g.name))
    {
        for record in seeks::open(app, game.name).await? {
            seeks.push(seeks::view(&record)?);
        }
    }
    let snapshot = LobbySnapshot {
        games: page.items,
        seeks,
        missed,
    };
    Ok(outbox.send("lobby", head, &snapshot))
}

/// Sends the lobby's announcements after `last` as they come, until the client leaves or the
/// server stops.
async fn follow_lobby(
    app: web::Data<AppState>,
    outbox: Outbox,
    filter: LobbyFilter,
    mut last: i64,
    mut watch: tokio::sync::watch::Receiver<i64>,
) {
    let mut closing = app.live.closing();
    loop {
        loop {
            let rows = match app.store.lobby_after(last, 256).await {
                Ok(rows) => rows,
                Err(err) => {
                    tracing::warn!(error = %err, "a lobby stream cannot read; ending it");
                    return;
                }
            };
            let Some(first) = rows.first() else { break };
            if first.seq != last + 1 {
                // Announcements in between are gone: the lobby as it is now instead.
                let head = rows.last().map_or(last, |r| r.seq);
                match send_lobby_snapshot(&app, &outbox, &filter, head, true).await {
                    Ok(true) => {
                        last = head;
                        continue;
                    }
                    _ => return,
                }
            }
            for row in rows {
                last = row.seq;
                let Ok(kind) = row.kind.parse::<LobbyKind>() else {
                    continue;
                };
                if filter.shows(&row, kind) {
                    let (game, seek) = match kind.of_seek() {
                        true => (None, Some(row.entry.0)),
                        false => (Some(row.entry.0), None),
                    };
                    let event = LobbyEvent { kind, game, seek };
                    if !outbox.send(kind.as_ref(), row.seq, &event) {
                        return;
                    }
                }
            }
        }
        tokio::select! {
            changed = watch.changed() => if changed.is_err() { return },
            _ = outbox.closed() => return,
            _ = closing.wait_for(|closing| *closing) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::live::Live;

    #[actix_web::test]
    async fn a_reader_that_lets_its_queue_fill_is_dropped_and_its_place_given_back() {
        let live = Live::new(1);
        let req = actix_web::test::TestRequest::default().to_http_request();
        let (outbox, response) = Outbox::open(&req, live.admit().unwrap());
        // Nobody reads the response: the queue fills, then the stream is over.
        for id in 0..QUEUE as i64 {
            assert!(outbox.send("change", id, &serde_json::json!({"n": id})));
        }
        assert!(!outbox.send("change", QUEUE as i64, &serde_json::json!({})));
        assert_eq!(live.open_streams(), 1);
        drop(outbox);
        drop(response);
        assert_eq!(live.open_streams(), 0);
        assert!(live.admit().is_some());
    }
}
