//! HTTP for every turn-based game, written once: handlers generic over [`TurnGame`], the routes
//! a game gets (from its trait constants), and their OpenAPI description (`docs`).

pub mod docs;
pub mod events;

use std::collections::BTreeMap;

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::auth::{Bearer, BearerSecret};
use super::conditional::{self, IfMatch, View};
use super::error::ApiError;
use super::limits::{AiRateLimit, AutoPlayLimit};
use super::{get_or_head, resource, NoParams, Object, ObjectWithJson};
use crate::app::AppState;
use crate::games::registry::{Games, TurnGameVisitor};
use crate::games::{Report, TurnGame};
use crate::service::resource::GameResource;
use crate::service::turns::{self, AiMoveRequest, JoinRequest, MessageRequest, Read, TakeBack};
use crate::service::ServiceError;

/// `?after=&limit=` of the move log.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LogQuery {
    /// Only entries with a `seq` above this one (default 0: from the start).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// At most this many entries, 1..=1000 (default 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

async fn create<G: TurnGame>(
    app: web::Data<AppState>,
    _: web::Query<NoParams>,
    _quota: super::limits::CreateQuota,
    auto_play: AutoPlayLimit,
    player_key: Bearer,
    body: web::Json<ObjectWithJson<G::Options>>,
) -> Result<HttpResponse, ApiError> {
    let ObjectWithJson(options, json) = body.into_inner();
    let created = turns::create::<G>(&app, options, json, player_key.hash(), &|| {
        auto_play.admits()
    })
    .await?;
    let location = format!("/v1/{}/games/{}", G::NAME, created.game.id);
    Ok(conditional::created(
        &location,
        view_of(&created.game),
        &created,
    ))
}

async fn get<G: TurnGame>(
    app: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<Uuid>,
    query: web::Query<events::ReadQuery>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    match (query.wait, query.after) {
        (Some(wait), after) => return events::wait::<G>(&app, *id, &bearer, wait, after).await,
        (None, Some(_)) => {
            return Err(ApiError::Service(ServiceError::BadInput(
                "`after` goes with `wait`: the seconds to wait for a later version".into(),
            )))
        }
        (None, None) => {}
    }
    let read = turns::get::<G>(&app, *id, bearer.hash(), |version, seat| {
        View { version, seat }.held_by(&req)
    })
    .await?;
    Ok(match read {
        Read::Unchanged(version, seat) => conditional::unchanged(View { version, seat }),
        Read::Fresh(game) => conditional::ok(HttpResponse::Ok(), view_of(&game), &game),
    })
}

async fn play<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    auto_play: AutoPlayLimit,
    bearer: Bearer,
    if_match: IfMatch,
    body: web::Json<Object<G::Move>>,
) -> Result<HttpResponse, ApiError> {
    let mv = body.into_inner().0;
    let allow_ai = || auto_play.admits();
    let outcome = turns::play::<G>(&app, *id, bearer.hash(), if_match.0, mv, &allow_ai).await?;
    Ok(changed(&outcome.game, &outcome))
}

async fn log<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    query: web::Query<LogQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = query.after.unwrap_or(0);
    if after < 0 {
        return Err(ApiError::Service(ServiceError::Invalid(format!(
            "after is a seq (0 or more), not {after}"
        ))));
    }
    let limit = query.limit.unwrap_or(1000);
    if !(1..=1000).contains(&limit) {
        return Err(ApiError::Service(ServiceError::Invalid(format!(
            "limit must be 1 to 1000, not {limit}"
        ))));
    }
    Ok(HttpResponse::Ok().json(turns::log::<G>(&app, *id, after, limit).await?))
}

async fn ai_move<G: TurnGame>(
    app: web::Data<AppState>,
    admitted: AiRateLimit,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    bearer: Bearer,
    if_match: IfMatch,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: AiMoveRequest = super::optional_json(&body)?;
    let allow_ai = || admitted.auto_play().admits();
    let (token, if_match) = (bearer.hash(), if_match.0);
    let outcome = turns::ai_move::<G>(&app, *id, token, if_match, request, &allow_ai).await?;
    Ok(changed(&outcome.game, &outcome))
}

async fn join<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    auto_play: AutoPlayLimit,
    player_key: Bearer,
    if_match: IfMatch,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: JoinRequest = super::optional_json(&body)?;
    let (key, allow_ai) = (player_key.hash(), || auto_play.admits());
    let joined = turns::join::<G>(&app, *id, if_match.0, request, key, &allow_ai).await?;
    // The answer carries the new seat's token.
    Ok(conditional::secret(changed(&joined.game, &joined)))
}

async fn reissue_token<G: TurnGame>(
    app: web::Data<AppState>,
    path: web::Path<(Uuid, usize)>,
    _: web::Query<NoParams>,
    player_key: Bearer,
) -> Result<HttpResponse, ApiError> {
    let (id, seat) = path.into_inner();
    let renewed = turns::reissue_token::<G>(&app, id, seat, player_key.hash()).await?;
    Ok(conditional::secret(changed(&renewed.game, &renewed)))
}

/// The seat actions without a body, by number (const generics take no enums).
const UNDO: u8 = 0;
const REDO: u8 = 1;
const START: u8 = 2;
const END: u8 = 3;
const DRAW: u8 = 4;
const CLAIM_VICTORY: u8 = 5;

/// `undo`, `redo`, `start`, `end`, `draw` or `claim-victory`: a seat token, an optional
/// `If-Match`, no body.
async fn seat_action<G: TurnGame, const ACTION: u8>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    auto_play: AutoPlayLimit,
    bearer: Bearer,
    if_match: IfMatch,
) -> Result<HttpResponse, ApiError> {
    let (id, token, if_match) = (*id, bearer.hash(), if_match.0);
    let allow_ai = || auto_play.admits();
    let outcome = match ACTION {
        UNDO => turns::take_back::<G>(&app, id, token, if_match, TakeBack::Undo).await?,
        REDO => turns::take_back::<G>(&app, id, token, if_match, TakeBack::Redo).await?,
        START => turns::start::<G>(&app, id, token, if_match, &allow_ai).await?,
        DRAW => turns::offer_draw::<G>(&app, id, token, if_match).await?,
        CLAIM_VICTORY => turns::claim_victory::<G>(&app, id, token, if_match).await?,
        _ => turns::end::<G>(&app, id, token, if_match).await?,
    };
    Ok(changed(&outcome.game, &outcome))
}

/// `rematch`: the old game's seat token, no body; the answer holds the seat's token in the
/// follow-up.
async fn rematch<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    auto_play: AutoPlayLimit,
    secret: BearerSecret,
) -> Result<HttpResponse, ApiError> {
    let allow_ai = || auto_play.admits();
    let joined = turns::rematch::<G>(&app, *id, secret.get(), &allow_ai).await?;
    Ok(conditional::secret(changed(&joined.game, &joined)))
}

async fn message<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    _: web::Query<NoParams>,
    bearer: Bearer,
    if_match: IfMatch,
    body: web::Json<Object<MessageRequest>>,
) -> Result<HttpResponse, ApiError> {
    let outcome =
        turns::message::<G>(&app, *id, bearer.hash(), if_match.0, body.into_inner().0).await?;
    Ok(changed(&outcome.game, &outcome))
}

async fn report<G: TurnGame>(
    app: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(Uuid, String)>,
    query: web::Query<BTreeMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    let (id, name) = path.into_inner();
    let spec = G::reports()
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(|| {
            ApiError::Service(ServiceError::NotFound(format!(
                "{} has no report {name:?}",
                G::NAME
            )))
        })?;
    if let Some(unknown) = query
        .keys()
        .find(|k| !spec.params.iter().any(|p| p.name == k.as_str()))
    {
        return Err(ApiError::Service(ServiceError::BadInput(format!(
            "unknown query parameter {:?} for {}",
            unknown.chars().take(40).collect::<String>(),
            spec.name
        ))));
    }
    if (spec.thinks)(&query) {
        super::limits::admit_ai(&req).await?;
    }
    Ok(match turns::report::<G>(&app, id, &name, &query).await? {
        Report::Json(value) => HttpResponse::Ok().json(value),
        Report::Text(text) => HttpResponse::Ok()
            .content_type(spec.content_type)
            .body(text),
    })
}

/// 200 with the game's view after a change as the validator.
fn changed<V, T: serde::Serialize>(game: &GameResource<V>, body: &T) -> HttpResponse {
    conditional::ok(HttpResponse::Ok(), view_of(game), body)
}

fn view_of<V>(game: &GameResource<V>) -> View {
    View {
        version: game.version,
        seat: game.viewer,
    }
}

/// A game's paths, relative to `/v1/{game}`.
pub struct GamePaths {
    pub games: String,
    pub game: String,
    pub seeks: String,
}

impl GamePaths {
    pub fn of<G: TurnGame>() -> Self {
        let games = format!("/v1/{}/games", G::NAME);
        let game = format!("{games}/{{id}}");
        let seeks = format!("/v1/{}/seeks", G::NAME);
        GamePaths { games, game, seeks }
    }

    pub fn action(&self, action: &str) -> String {
        format!("{}/{action}", self.game)
    }

    /// Where a registered player takes a seat back.
    pub fn seat_token(&self) -> String {
        format!("{}/seats/{{seat}}/token", self.game)
    }
}

/// Registers one game's routes.
fn routes<G: TurnGame>(cfg: &mut web::ServiceConfig) {
    let paths = GamePaths::of::<G>();
    cfg.service(resource(&paths.games, "POST").route(web::post().to(create::<G>)))
        .service(resource(&paths.game, "GET, HEAD").route(get_or_head().to(get::<G>)))
        .service(
            resource(&paths.action("moves"), "GET, HEAD, POST")
                .route(web::post().to(play::<G>))
                .route(get_or_head().to(log::<G>)),
        )
        .service(resource(&paths.action("ai-move"), "POST").route(web::post().to(ai_move::<G>)))
        .service(resource(&paths.action("join"), "POST").route(web::post().to(join::<G>)))
        .service(
            resource(&paths.action("start"), "POST").route(web::post().to(seat_action::<G, START>)),
        )
        .service(
            resource(&paths.action("end"), "POST").route(web::post().to(seat_action::<G, END>)),
        )
        .service(resource(&paths.seat_token(), "POST").route(web::post().to(reissue_token::<G>)))
        .service(
            resource(&paths.action("claim-victory"), "POST")
                .route(web::post().to(seat_action::<G, CLAIM_VICTORY>)),
        )
        .service(resource(&paths.action("rematch"), "POST").route(web::post().to(rematch::<G>)))
        .service(resource(&paths.action("events"), "GET").route(web::get().to(events::events::<G>)))
        .service(
            resource(&paths.action("stream-ticket"), "POST")
                .route(web::post().to(events::stream_ticket::<G>)),
        )
        .service(resource(&paths.seeks, "POST").route(web::post().to(super::seeks::create::<G>)));
    if G::UNDO {
        cfg.service(
            resource(&paths.action("undo"), "POST").route(web::post().to(seat_action::<G, UNDO>)),
        );
    }
    if G::REDO {
        cfg.service(
            resource(&paths.action("redo"), "POST").route(web::post().to(seat_action::<G, REDO>)),
        );
    }
    if G::DRAWS {
        cfg.service(
            resource(&paths.action("draw"), "POST").route(web::post().to(seat_action::<G, DRAW>)),
        );
    }
    if G::MESSAGES {
        cfg.service(
            resource(&paths.action("messages"), "POST").route(web::post().to(message::<G>)),
        );
    }
    for spec in G::reports() {
        cfg.service(
            resource(&paths.action(spec.name), "GET, HEAD").route(get_or_head().to(
                move |app, req, id: web::Path<Uuid>, query| {
                    let path = web::Path::from((id.into_inner(), spec.name.to_owned()));
                    report::<G>(app, req, path, query)
                },
            )),
        );
    }
}

/// The routes of every turn-based game `R` lists.
pub fn configure<R: Games>(cfg: &mut web::ServiceConfig) {
    struct Routes<'a>(&'a mut web::ServiceConfig);
    impl TurnGameVisitor for Routes<'_> {
        fn visit<G: TurnGame>(&mut self) {
            routes::<G>(self.0);
        }
    }
    R::visit(&mut Routes(cfg));
}
