//! HTTP for every turn-based game, written once. [`turn_game_routes!`] gives a game its documented
//! routes; the bodies below do the work for any [`TurnGame`].

use actix_web::{web, HttpRequest, HttpResponse};
use uuid::Uuid;

use super::auth::Bearer;
use super::conditional::{self, IfMatch};
use super::error::ApiError;
use super::limits::AiRateLimit;
use super::Object;
use crate::app::AppState;
use crate::games::TurnGame;
use crate::service::turns::{self, AiMoveRequest, Read, TakeBack};

pub async fn create<G: TurnGame>(
    app: web::Data<AppState>,
    body: web::Json<Object<G::Options>>,
) -> Result<HttpResponse, ApiError> {
    let created = turns::create::<G>(&app, body.into_inner().0).await?;
    let location = format!("/v1/{}/games/{}", G::NAME, created.game.id);
    Ok(conditional::created(
        &location,
        created.game.version,
        &created,
    ))
}

pub async fn get<G: TurnGame>(
    app: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<Uuid>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let read = turns::get::<G>(&app, *id, bearer.hash(), |version| {
        conditional::not_modified(&req, version)
    })
    .await?;
    Ok(match read {
        Read::Unchanged(version) => conditional::unchanged(version),
        Read::Fresh(game) => conditional::ok_with_etag(HttpResponse::Ok(), game.version, &game),
    })
}

pub async fn play<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    bearer: Bearer,
    if_match: IfMatch,
    body: web::Json<Object<G::Move>>,
) -> Result<HttpResponse, ApiError> {
    let outcome =
        turns::play::<G>(&app, *id, bearer.hash(), if_match.0, body.into_inner().0).await?;
    Ok(conditional::ok_with_etag(
        HttpResponse::Ok(),
        outcome.game.version,
        &outcome,
    ))
}

pub async fn ai_move<G: TurnGame>(
    app: web::Data<AppState>,
    _allowed: AiRateLimit,
    id: web::Path<Uuid>,
    bearer: Bearer,
    if_match: IfMatch,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: AiMoveRequest = super::optional_json(&body)?;
    let outcome = turns::ai_move::<G>(&app, *id, bearer.hash(), if_match.0, request).await?;
    Ok(conditional::ok_with_etag(
        HttpResponse::Ok(),
        outcome.game.version,
        &outcome,
    ))
}

pub async fn log<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(turns::log::<G>(&app, *id).await?))
}

pub async fn take_back<G: TurnGame>(
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    bearer: Bearer,
    if_match: IfMatch,
    direction: TakeBack,
) -> Result<HttpResponse, ApiError> {
    let outcome = turns::take_back::<G>(&app, *id, bearer.hash(), if_match.0, direction).await?;
    Ok(conditional::ok_with_etag(
        HttpResponse::Ok(),
        outcome.game.version,
        &outcome,
    ))
}

/// Gives a [`TurnGame`] its routes and their OpenAPI documentation: create, get, moves (post and
/// log), ai-move, and undo/redo when the game has them. Expands to handler functions, a
/// `configure` function and an `Api` OpenAPI fragment in the calling module.
macro_rules! turn_game_routes {
    (
        game: $game:ty,
        tag: $tag:literal,
        games: $games_path:literal,
        game_path: $game_path:literal,
        moves: $moves_path:literal,
        ai: $ai_path:literal,
        options: $options:ty,
        move_body: $move_body:ty,
        $(undo: $undo_path:literal => $undo:ident,)?
        $(redo: $redo_path:literal => $redo:ident,)?
    ) => {
        use actix_web::{web, HttpRequest, HttpResponse};
        use uuid::Uuid;
        use $crate::app::AppState;
        use $crate::http::auth::Bearer;
        use $crate::http::conditional::IfMatch;
        use $crate::http::error::{ApiError, Problem};
        use $crate::service::turns::{AiMoveOutcome, AiMoveRequest, CreatedGame, LogItem, MoveOutcome};
        use $crate::service::resource::GameResource;

        /// Creates a game. The response holds each human seat's token: it is shown only once.
        #[utoipa::path(post, path = $games_path, tag = $tag, request_body = $options,
            responses(
                (status = 201, description = "Created; `tokens` are shown only now", body = CreatedGame,
                    headers(("Location" = String, description = "The new game"), ("ETag" = String, description = "\"0\""))),
                (status = 400, description = "Not JSON, wrong types, unknown values", body = Problem, content_type = "application/problem+json"),
                (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
                (status = 422, description = "Values out of range", body = Problem, content_type = "application/problem+json"),
                (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
            ))]
        pub async fn create(app: web::Data<AppState>, body: web::Json<$crate::http::Object<$options>>) -> Result<HttpResponse, ApiError> {
            $crate::http::turns::create::<$game>(app, body).await
        }

        /// The game; with a seat token, that seat's private view. `If-None-Match` gives 304.
        #[utoipa::path(get, path = $game_path, tag = $tag,
            params(("id" = Uuid, Path, description = "Game id")),
            security((), ("seat_token" = [])),
            responses(
                (status = 200, description = "The game", body = GameResource, headers(("ETag" = String))),
                (status = 304, description = "Unchanged since the `If-None-Match` version"),
                (status = 401, description = "Unknown or malformed token", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "A token of another game", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
                (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
            ))]
        pub async fn get(app: web::Data<AppState>, req: HttpRequest, id: web::Path<Uuid>, bearer: Bearer) -> Result<HttpResponse, ApiError> {
            $crate::http::turns::get::<$game>(app, req, id, bearer).await
        }

        /// Plays one move for the token's seat. `If-Match` makes it conditional on the version.
        #[utoipa::path(post, path = $moves_path, tag = $tag, request_body = $move_body,
            params(("id" = Uuid, Path, description = "Game id")),
            security(("seat_token" = [])),
            responses(
                (status = 200, description = "The game after the move, with its events", body = MoveOutcome, headers(("ETag" = String))),
                (status = 400, description = "Not JSON or bad notation", body = Problem, content_type = "application/problem+json"),
                (status = 401, description = "No valid seat token", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "A token of another game", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
                (status = 409, description = "`not_your_turn`, `game_over` or `conflict` (lost a race)", body = Problem, content_type = "application/problem+json"),
                (status = 412, description = "`If-Match` version is stale", body = Problem, content_type = "application/problem+json"),
                (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
                (status = 422, description = "Illegal move", body = Problem, content_type = "application/problem+json"),
                (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
            ))]
        pub async fn play(app: web::Data<AppState>, id: web::Path<Uuid>, bearer: Bearer, if_match: IfMatch, body: web::Json<$crate::http::Object<$move_body>>) -> Result<HttpResponse, ApiError> {
            $crate::http::turns::play::<$game>(app, id, bearer, if_match, body).await
        }

        /// The move log, oldest first; `seq` equals the version each change produced.
        #[utoipa::path(get, path = $moves_path, tag = $tag,
            params(("id" = Uuid, Path, description = "Game id")),
            responses(
                (status = 200, description = "The log", body = Vec<LogItem>),
                (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
                (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
            ))]
        pub async fn log(app: web::Data<AppState>, id: web::Path<Uuid>) -> Result<HttpResponse, ApiError> {
            $crate::http::turns::log::<$game>(app, id).await
        }

        /// Asks the AI for the seat to act. An AI seat needs no token and the move is played; for a
        /// human seat it is a hint (`apply` defaults to false) and needs that seat's token. The body
        /// may be empty.
        #[utoipa::path(post, path = $ai_path, tag = $tag, request_body(content = Option<AiMoveRequest>),
            params(("id" = Uuid, Path, description = "Game id")),
            security((), ("seat_token" = [])),
            responses(
                (status = 200, description = "The chosen move and the game", body = AiMoveOutcome, headers(("ETag" = String))),
                (status = 400, description = "Not JSON, unknown level", body = Problem, content_type = "application/problem+json"),
                (status = 401, description = "A human seat's hint without its token", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "A token of another seat or game", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
                (status = 409, description = "`game_over` or `conflict`", body = Problem, content_type = "application/problem+json"),
                (status = 412, description = "`If-Match` version is stale", body = Problem, content_type = "application/problem+json"),
                (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
                (status = 422, description = "`time_ms` out of range", body = Problem, content_type = "application/problem+json"),
                (status = 429, description = "Per-client AI rate limit (when configured; see Retry-After)", body = Problem, content_type = "application/problem+json",
                    headers(("Retry-After" = String))),
                (status = 503, description = "AI pool full or database unavailable (see Retry-After)", body = Problem, content_type = "application/problem+json",
                    headers(("Retry-After" = String))),
            ))]
        pub async fn ai_move(app: web::Data<AppState>, allowed: $crate::http::limits::AiRateLimit, id: web::Path<Uuid>, bearer: Bearer, if_match: IfMatch, body: web::Bytes) -> Result<HttpResponse, ApiError> {
            $crate::http::turns::ai_move::<$game>(app, allowed, id, bearer, if_match, body).await
        }

        $(
        /// Takes back the last move (against an AI: back to the human's last turn).
        #[utoipa::path(post, path = $undo_path, tag = $tag,
            params(("id" = Uuid, Path, description = "Game id")),
            security(("seat_token" = [])),
            responses(
                (status = 200, description = "The game after the take-back", body = MoveOutcome, headers(("ETag" = String))),
                (status = 401, description = "No valid seat token", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "A token of another game", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
                (status = 409, description = "`game_over` or `conflict`", body = Problem, content_type = "application/problem+json"),
                (status = 412, description = "`If-Match` version is stale", body = Problem, content_type = "application/problem+json"),
                (status = 422, description = "Nothing to take back", body = Problem, content_type = "application/problem+json"),
                (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
            ))]
        pub async fn $undo(app: web::Data<AppState>, id: web::Path<Uuid>, bearer: Bearer, if_match: IfMatch) -> Result<HttpResponse, ApiError> {
            $crate::http::turns::take_back::<$game>(app, id, bearer, if_match, $crate::service::turns::TakeBack::Undo).await
        }
        )?

        $(
        /// Replays the last taken-back move; a new move clears the redo line.
        #[utoipa::path(post, path = $redo_path, tag = $tag,
            params(("id" = Uuid, Path, description = "Game id")),
            security(("seat_token" = [])),
            responses(
                (status = 200, description = "The game after the redo", body = MoveOutcome, headers(("ETag" = String))),
                (status = 401, description = "No valid seat token", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "A token of another game", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
                (status = 409, description = "`game_over` or `conflict`", body = Problem, content_type = "application/problem+json"),
                (status = 412, description = "`If-Match` version is stale", body = Problem, content_type = "application/problem+json"),
                (status = 422, description = "Nothing to redo", body = Problem, content_type = "application/problem+json"),
                (status = 503, description = "Database unavailable", body = Problem, content_type = "application/problem+json"),
            ))]
        pub async fn $redo(app: web::Data<AppState>, id: web::Path<Uuid>, bearer: Bearer, if_match: IfMatch) -> Result<HttpResponse, ApiError> {
            $crate::http::turns::take_back::<$game>(app, id, bearer, if_match, $crate::service::turns::TakeBack::Redo).await
        }
        )?

        /// This game's routes.
        pub fn configure(cfg: &mut web::ServiceConfig) {
            use $crate::http::resource;
            cfg.service(resource($games_path, "POST").route(web::post().to(create)))
                .service(resource($game_path, "GET").route(web::get().to(get)))
                .service(
                    resource($moves_path, "GET, POST")
                        .route(web::post().to(play))
                        .route(web::get().to(log)),
                )
                .service(resource($ai_path, "POST").route(web::post().to(ai_move)));
            $( cfg.service(resource($undo_path, "POST").route(web::post().to($undo))); )?
            $( cfg.service(resource($redo_path, "POST").route(web::post().to($redo))); )?
        }

        /// This game's part of the OpenAPI document.
        #[derive(utoipa::OpenApi)]
        #[openapi(paths(create, get, play, log, ai_move $(, $undo)? $(, $redo)?))]
        pub struct Api;
    };
}

pub(crate) use turn_game_routes;
