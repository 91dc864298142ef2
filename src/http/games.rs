//! `GET /v1/games`: every game, newest first, cursor-paginated; and the game-name parameters
//! whose allowed values come from the app's list of games.

use std::marker::PhantomData;

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::openapi::path::ParameterIn;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{OpenApi, RefOr};
use utoipa::IntoParams;

use super::error::ApiError;
use super::problems::{BadRequest, Unavailable, Unprocessable};
use crate::app::AppState;
use crate::games::registry::{turn_games, GameInfo, Games};
use crate::games::GameStatus;
use crate::service::listing::{self, GamePage, ListRequest};
use crate::service::ServiceError;

/// Which games a name parameter accepts.
pub trait GameSet {
    fn accepts(game: &GameInfo) -> bool;
    fn what() -> &'static str;
}

/// Every turn-based game.
#[derive(Debug)]
pub struct AnyGame;
impl GameSet for AnyGame {
    fn accepts(_: &GameInfo) -> bool {
        true
    }
    fn what() -> &'static str {
        "game"
    }
}

/// Games with a leaderboard: they keep the seed's scores, or ratings.
#[derive(Debug)]
pub struct RankedGame;
impl GameSet for RankedGame {
    fn accepts(game: &GameInfo) -> bool {
        game.scored || game.rated
    }
    fn what() -> &'static str {
        "game with scores or ratings"
    }
}

/// A game's name as a query parameter, as the client wrote it: [`GameName::of`] checks it
/// against the games the app serves (the set `S` of them), which a deserializer cannot see.
#[derive(Debug)]
pub struct GameName<S>(String, PhantomData<S>);

impl<'de, S> Deserialize<'de> for GameName<S> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|word| GameName(word, PhantomData))
    }
}

impl<S: GameSet> GameName<S> {
    fn names(games: &[GameInfo]) -> Vec<&'static str> {
        games
            .iter()
            .filter(|g| S::accepts(g))
            .map(|g| g.name)
            .collect()
    }

    /// The game named, one of the set's among `games`; else a 400 naming those it could be.
    pub fn of(&self, games: &[GameInfo]) -> Result<GameInfo, ApiError> {
        games
            .iter()
            .find(|g| S::accepts(g) && g.name == self.0)
            .copied()
            .ok_or_else(|| {
                ApiError::Service(ServiceError::BadInput(format!(
                    "invalid query string: unknown {} {:?}; expected one of: {}",
                    S::what(),
                    self.0.chars().take(40).collect::<String>(),
                    Self::names(games).join(", ")
                )))
            })
    }

    /// The set's first game among `games` (the default where one is needed).
    pub fn first(games: &[GameInfo]) -> Option<GameInfo> {
        games.iter().find(|g| S::accepts(g)).copied()
    }
}

/// The parameter's schema: a string, one of the set's game names.
fn names_schema<S: GameSet>(games: &[GameInfo]) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(GameName::<S>::names(games)))
        .into()
}

/// Writes the games `R` lists into the `game` query parameters of the listing and the
/// leaderboard, as the enum of names they accept.
pub fn document_game_names<R: Games>(doc: &mut OpenApi) {
    let games = turn_games::<R>();
    for (path, schema) in [
        ("/v1/games", names_schema::<AnyGame>(&games)),
        ("/v1/games/events", names_schema::<AnyGame>(&games)),
        ("/v1/players", names_schema::<RankedGame>(&games)),
    ] {
        let Some(get) = doc.paths.paths.get_mut(path).and_then(|p| p.get.as_mut()) else {
            continue;
        };
        for param in get.parameters.iter_mut().flatten() {
            if param.name == "game" && param.parameter_in == ParameterIn::Query {
                param.schema = Some(RefOr::T(schema.clone()));
            }
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this game.
    #[param(value_type = Option<String>)]
    pub game: Option<GameName<AnyGame>>,
    /// Only games in this status.
    #[param(inline)]
    pub status: Option<GameStatus>,
    /// Only games where a seat has this name.
    pub player: Option<String>,
    /// Page size, 1..=100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// Lists games, newest first.
#[utoipa::path(get, path = "/v1/games", tag = "games", params(ListQuery), responses(
    (status = 200, body = GamePage),
    (status = 400, response = BadRequest),
    (status = 422, response = Unprocessable),
    (status = 503, response = Unavailable),
))]
pub async fn list(
    app: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let game = match &query.game {
        Some(name) => Some(name.of(&app.games)?.name),
        None => None,
    };
    let page = listing::list(
        &app,
        ListRequest {
            game,
            status: query.status,
            player: query.player,
            cursor: query.cursor,
            limit: super::page_limit(query.limit, 20)?,
        },
    )
    .await?;
    Ok(HttpResponse::Ok().json(page))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/v1/games", "GET, HEAD").route(super::get_or_head().to(list)))
        .service(
            super::resource("/v1/games/events", "GET").route(web::get().to(super::stream::lobby)),
        );
}
