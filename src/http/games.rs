//! `GET /v1/games`: every game, newest first, cursor-paginated; and the game-name parameters
//! whose allowed values come from the registry.

use std::marker::PhantomData;

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Deserializer};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::IntoParams;

use super::error::ApiError;
use super::problems::{BadRequest, Unavailable, Unprocessable};
use crate::app::AppState;
use crate::games::registry::{turn_games, GameInfo};
use crate::games::GameStatus;
use crate::service::listing::{self, GamePage, ListRequest};

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

/// A game's name as a query parameter: one of the registry's games (of the set `S`).
#[derive(Debug)]
pub struct GameName<S>(pub &'static str, PhantomData<S>);

impl<S: GameSet> GameName<S> {
    fn names() -> Vec<&'static str> {
        turn_games()
            .into_iter()
            .filter(S::accepts)
            .map(|g| g.name)
            .collect()
    }

    /// The set's first game (the default where one is needed).
    pub fn first() -> Self {
        GameName(Self::names()[0], PhantomData)
    }
}

impl<'de, S: GameSet> Deserialize<'de> for GameName<S> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        let names = Self::names();
        names
            .iter()
            .find(|n| **n == word)
            .map(|n| GameName(n, PhantomData))
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown {} {:?}; expected one of: {}",
                    S::what(),
                    word.chars().take(40).collect::<String>(),
                    names.join(", ")
                ))
            })
    }
}

/// The parameter's schema: a string, one of the set's game names.
fn names_schema<S: GameSet>() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(GameName::<S>::names()))
        .into()
}

pub fn any_game_schema() -> Schema {
    names_schema::<AnyGame>()
}

pub fn ranked_game_schema() -> Schema {
    names_schema::<RankedGame>()
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this game.
    #[param(schema_with = any_game_schema)]
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
    let page = listing::list(
        &app,
        ListRequest {
            game: query.game.map(|g| g.0),
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
    cfg.service(super::resource("/v1/games", "GET, HEAD").route(super::get_or_head().to(list)));
}
