//! Seeks: `POST /v1/{game}/seeks` opens one (registered with each turn game's routes); the rest,
//! under `/v1/seeks/{id}`, is the owner's: read or long-poll it, follow it as a stream, cancel it.

use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::auth::{Bearer, BearerSecret};
use super::conditional;
use super::error::ApiError;
use super::problems::{BadRequest, Conflict, Forbidden, NotFound, Unauthorized, Unavailable};
use super::stream::{admit, Outbox};
use super::{NoParams, Object};
use crate::app::AppState;
use crate::games::TurnGame;
use crate::service::live::GameWatch;
use crate::service::seeks::{self, OwnSeek, SeekRequest};
use crate::service::ServiceError;
use crate::store::SeekRecord;

/// `POST /v1/{game}/seeks`.
pub async fn create<G: TurnGame>(
    app: web::Data<AppState>,
    _: web::Query<NoParams>,
    _quota: super::limits::CreateQuota,
    player_key: Bearer,
    body: web::Json<Object<SeekRequest>>,
) -> Result<HttpResponse, ApiError> {
    let created = seeks::create::<G>(&app, body.into_inner().0, player_key.hash()).await?;
    let location = format!("/v1/seeks/{}", created.seek.id);
    Ok(conditional::secret(
        HttpResponse::Created()
            .insert_header((actix_web::http::header::LOCATION, location))
            .json(created),
    ))
}

/// `?wait=` of a seek's read: a long poll.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SeekQuery {
    /// Wait up to this many seconds (1 to 60) for the seek to be paired (or to close); 304 when
    /// it is still open then.
    #[param(minimum = 1, maximum = 60)]
    pub wait: Option<u64>,
}

/// The seek as its owner sees it; once paired, `paired` says where it plays, with the seat's
/// token (the seek's secret).
#[utoipa::path(get, path = "/v1/seeks/{id}", tag = "seeks",
    params(("id" = Uuid, Path, description = "The seek's id"), SeekQuery),
    security(("seek_secret" = [])),
    responses(
        (status = 200, body = OwnSeek),
        (status = 304, description = "`wait` passed and the seek is still open"),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 503, response = Unavailable),
    ))]
pub async fn get(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    query: web::Query<SeekQuery>,
    secret: BearerSecret,
) -> Result<HttpResponse, ApiError> {
    let own = match query.wait {
        None => Some(seeks::get(&app, *id, secret.get()).await?),
        Some(wait) if (1..=60).contains(&wait) => {
            let _permit = admit(&app)?;
            seeks::wait(&app, *id, secret.get(), Duration::from_secs(wait)).await?
        }
        Some(wait) => {
            return Err(ApiError::Service(ServiceError::BadInput(format!(
                "`wait` is 1 to 60 seconds, not {wait}"
            ))))
        }
    };
    Ok(match own {
        Some(own) => conditional::secret(HttpResponse::Ok().json(own)),
        None => conditional::secret(HttpResponse::NotModified().finish()),
    })
}

/// Cancels an open seek; a cancelled or expired one stays so (204). 409 once it is paired.
#[utoipa::path(delete, path = "/v1/seeks/{id}", tag = "seeks",
    params(("id" = Uuid, Path, description = "The seek's id")),
    security(("seek_secret" = [])),
    responses(
        (status = 204, description = "The seek is closed"),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 503, response = Unavailable),
    ))]
pub async fn cancel(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    secret: BearerSecret,
) -> Result<HttpResponse, ApiError> {
    seeks::cancel(&app, *id, secret.get()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A ticket that opens the seek's stream once, within 60 s: `GET /v1/seeks/{id}/events?ticket=…`.
/// For browsers, whose `EventSource` cannot send `Authorization`.
#[utoipa::path(post, path = "/v1/seeks/{id}/stream-ticket", tag = "seeks",
    params(("id" = Uuid, Path, description = "The seek's id")),
    security(("seek_secret" = [])),
    responses(
        (status = 200, body = crate::service::turns::follow::StreamTicket),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 503, response = Unavailable),
    ))]
pub async fn stream_ticket(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    secret: BearerSecret,
) -> Result<HttpResponse, ApiError> {
    let ticket = seeks::stream_ticket(&app, *id, secret.get()).await?;
    Ok(conditional::secret(HttpResponse::Ok().json(ticket)))
}

/// `?ticket=` of a seek's stream.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SeekEventsQuery {
    /// A ticket from `POST /v1/seeks/{id}/stream-ticket`, good once.
    pub ticket: Option<String>,
}

/// Follows a seek: `event: seek` (the seek) first; then, once it is paired, `event: paired` with
/// the game, the seat and the seat's token, and the stream ends (a cancelled or expired seek
/// ends it with one more `event: seek`). While the stream is open the seek stays open; without
/// it (or a long poll) it expires after two minutes. Only the seek's owner may follow it: with
/// `Authorization: Bearer <secret>`, or `?ticket=`.
#[utoipa::path(get, path = "/v1/seeks/{id}/events", tag = "seeks",
    params(("id" = Uuid, Path, description = "The seek's id"), SeekEventsQuery),
    security(("seek_secret" = []), ()),
    responses(
        (status = 200, description = "Server-sent events: `event: seek` (a `Seek`), then `event: paired` (a `Paired`) or a last `event: seek`; a `: keep-alive` comment every 15 s",
            content_type = "text/event-stream", body = crate::service::seeks::SeekEvent),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 503, response = Unavailable),
    ))]
pub async fn events(
    app: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<Uuid>,
    query: web::Query<SeekEventsQuery>,
    secret: BearerSecret,
) -> Result<HttpResponse, ApiError> {
    let permit = admit(&app)?;
    // Watching before reading: a pairing committed in between still wakes the stream.
    let watch = app.live.watch_game(*id);
    let (record, secret) =
        seeks::open_stream(&app, *id, secret.get(), query.ticket.as_deref()).await?;
    let (outbox, response) = Outbox::open(&req, permit);
    actix_web::rt::spawn(follow(app, outbox, record, secret, watch));
    Ok(response)
}

/// Sends the seek, then how it closed; keeps it open meanwhile.
async fn follow(
    app: web::Data<AppState>,
    outbox: Outbox,
    record: SeekRecord,
    secret: String,
    mut watch: GameWatch,
) {
    let Ok(seek) = seeks::view(&record) else {
        return;
    };
    if !outbox.send("seek", 0, &seek) {
        return;
    }
    let mut closing = app.live.closing();
    let mut touch = tokio::time::interval(seeks::TOUCH_EVERY);
    let mut open = record.status == "open";
    while open {
        tokio::select! {
            _ = watch.changed() => open = false,
            _ = touch.tick() => match seeks::touch(&app, record.id).await {
                Ok(still) => open = still,
                Err(err) => tracing::warn!(error = %err, "a seek's stream cannot keep it open"),
            },
            _ = outbox.closed() => return,
            _ = closing.wait_for(|closing| *closing) => return,
        }
    }
    match seeks::get(&app, record.id, Some(&secret)).await {
        Ok(OwnSeek {
            paired: Some(paired),
            ..
        }) => outbox.send("paired", 1, &paired),
        Ok(OwnSeek { seek, .. }) => outbox.send("seek", 1, &seek),
        Err(err) => {
            tracing::warn!(error = %err, "a seek's stream cannot read it");
            false
        }
    };
}

/// The routes under `/v1/seeks`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        super::resource("/v1/seeks/{id}", "GET, HEAD, DELETE")
            .route(super::get_or_head().to(get))
            .route(web::delete().to(cancel)),
    )
    .service(
        super::resource("/v1/seeks/{id}/stream-ticket", "POST")
            .route(web::post().to(stream_ticket)),
    )
    .service(super::resource("/v1/seeks/{id}/events", "GET").route(web::get().to(events)));
}
