//! Players: registration, a player by name (scores and ratings), and the leaderboard.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::error::ApiError;
use super::games::{GameName, RankedGame};
use super::problems::{
    BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
    Unavailable, Unprocessable,
};
use super::{NoParams, Object};
use crate::app::AppState;
use crate::games::registry::GameInfo;
use crate::service::players::{
    self, BoardRequest, Leaderboard, Player, RegisterRequest, Registered, SortBy,
};
use crate::service::ServiceError;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// A game with scores or ratings (default: the first, `gomoku`).
    #[param(value_type = Option<String>)]
    pub game: Option<GameName<RankedGame>>,
    /// `score` (the seed's) or `rating` (Glicko-2: players with a rating only). Default: `score`
    /// for a game that keeps the seed's scores (Gomoku), `rating` for one that keeps ratings only
    /// (Go).
    pub sort: Option<SortBy>,
    /// `true`: registered players only.
    pub registered: Option<bool>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// How many players, 1..=100 (default 10).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlayerQuery {
    /// `true`: the guest record of exactly this name, even where the name is registered now (a
    /// registered player's record and a guest's of the same name are two records).
    pub guest: Option<bool>,
}

/// A player's scores and ratings, by game. A name is known once registered or once it sat at a
/// scored game; a registered player answers to every look-alike of their name, and their record
/// is theirs alone: a guest's record of the same name is `?guest=true`.
#[utoipa::path(get, path = "/v1/players/{name}", tag = "players",
    params(("name" = String, Path, min_length = 1, pattern = r"^[^/?#%]*[^/?#%.][^/?#%]*$", description = "Player name (a name with `/`, `?`, `#` or `%` is looked up percent-encoded)"), PlayerQuery),
    responses(
        (status = 200, body = Player),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 503, response = Unavailable),
    ))]
pub async fn get(
    app: web::Data<AppState>,
    name: web::Path<String>,
    query: web::Query<PlayerQuery>,
) -> Result<HttpResponse, ApiError> {
    let guest = query.guest.unwrap_or(false);
    Ok(HttpResponse::Ok().json(players::player(&app, &name, guest).await?))
}

/// The leaderboard: highest score (or rating) first, ties in a fixed order, in pages. A registered
/// player and a guest of the same name are two lines.
#[utoipa::path(get, path = "/v1/players", tag = "players", params(LeaderboardQuery),
    responses(
        (status = 200, body = Leaderboard),
        (status = 400, response = BadRequest),
        (status = 422, response = Unprocessable),
        (status = 503, response = Unavailable),
    ))]
pub async fn leaderboard(
    app: web::Data<AppState>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let game = match &query.game {
        Some(name) => name.of(&app.games)?,
        None => GameName::<RankedGame>::first(&app.games).ok_or_else(|| {
            ApiError::Service(ServiceError::BadInput(
                "this server has no game with scores or ratings".into(),
            ))
        })?,
    };
    let limit = super::page_limit(query.limit, 10)?;
    let query = query.into_inner();
    let request = BoardRequest {
        game: game.name,
        sort: query.sort.unwrap_or_else(|| default_sort(game)),
        registered_only: query.registered.unwrap_or(false),
        cursor: query.cursor,
        limit,
    };
    Ok(HttpResponse::Ok().json(players::leaderboard(&app, request).await?))
}

/// What a game's leaderboard sorts by when the client does not say: its seed score when it keeps
/// one, else its rating (a game without scores would list nobody by score).
fn default_sort(game: GameInfo) -> SortBy {
    if !game.scored && game.rated {
        SortBy::Rating
    } else {
        SortBy::Score
    }
}

/// Registers a player: the name becomes theirs (compared without case and Unicode look-alikes),
/// and the answer holds their key, shown only now.
#[utoipa::path(post, path = "/v1/players", tag = "players",
    request_body = RegisterRequest,
    responses(
        (status = 201, body = Registered, description = "Registered; `key` is shown only now",
            headers(("Location" = String, description = "The player's URL"))),
        (status = 400, response = BadRequest),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 422, response = Unprocessable),
        (status = 429, response = TooManyRequests),
        (status = 503, response = Unavailable),
    ))]
pub async fn register(
    app: web::Data<AppState>,
    _: web::Query<NoParams>,
    _quota: super::limits::CreateQuota,
    body: web::Json<Object<RegisterRequest>>,
) -> Result<HttpResponse, ApiError> {
    let registered = players::register(&app, body.into_inner().0).await?;
    let location = format!("/v1/players/{}", path_segment(&registered.name));
    Ok(super::conditional::secret(
        HttpResponse::Created()
            .insert_header((actix_web::http::header::LOCATION, location))
            .json(registered),
    ))
}

/// Replaces a player's key: the current key (`Authorization: Bearer <player key>`) proves who
/// asks and stops working at once; the answer holds the new key, shown only now.
#[utoipa::path(post, path = "/v1/players/{name}/key", tag = "players",
    params(("name" = String, Path, min_length = 1, pattern = r"^[^/?#%]*[^/?#%.][^/?#%]*$", description = "Player name (a name with `/`, `?`, `#` or `%` is looked up percent-encoded)")),
    security(("player_key" = [])),
    responses(
        (status = 200, body = Registered, description = "The new key, shown only now (`Cache-Control: no-store`)"),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 503, response = Unavailable),
    ))]
pub async fn rotate_key(
    app: web::Data<AppState>,
    name: web::Path<String>,
    _: web::Query<NoParams>,
    key: super::auth::Bearer,
) -> Result<HttpResponse, ApiError> {
    let rotated = players::rotate_key(&app, &name, key.hash()).await?;
    Ok(super::conditional::secret(HttpResponse::Ok().json(rotated)))
}

/// A name as one URL path segment: all but unreserved characters percent-encoded.
fn path_segment(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    use super::{get_or_head, resource};
    cfg.service(
        resource("/v1/players", "GET, HEAD, POST")
            .route(get_or_head().to(leaderboard))
            .route(web::post().to(register)),
    )
    .service(resource("/v1/players/{name}", "GET, HEAD").route(get_or_head().to(get)))
    .service(resource("/v1/players/{name}/key", "POST").route(web::post().to(rotate_key)));
}
