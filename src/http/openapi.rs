//! The OpenAPI 3.1 document, generated from the handlers and types; `openapi/openapi.json` is this,
//! committed, and a test fails when the two differ.

use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::{games, ops, players, poker, problems, seeks, stream, turns};
use crate::games::registry::{BuiltinGames, Games};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Parlor",
        description = "Games as a service: create games, read state, post moves and ask for AI moves over REST/JSON.\n\n\
            Errors are RFC 9457 problem details with a stable `code`. Every game has a `version` (the `ETag`); \
            mutations accept `If-Match`, reads `If-None-Match`. Seat actions need `Authorization: Bearer <token>`, \
            the token returned once when the game is created.",
        license(name = "MIT")
    ),
    paths(
        ops::index, ops::health, ops::ready, games::list, players::get, players::leaderboard, players::register, players::rotate_key,
        poker::deal, poker::compare, poker::evaluate, poker::create_deck, poker::get_deck,
        poker::draw, poker::undo, poker::reselect, poker::shuffle, poker::claim_deck,
        stream::lobby, seeks::get, seeks::cancel, seeks::stream_ticket, seeks::events,
    ),
    components(schemas(super::error::Problem)),
    modifiers(&SeatToken),
    tags(
        (name = "poker", description = "Poker with five jokers: deal, compare, evaluate and deck sessions"),
        (name = "games", description = "Every game, listed"),
        (name = "live", description = "Event streams: a game's, the lobby's"),
        (name = "seeks", description = "Pairing in the lobby: a seek waits for an opponent; once paired, its stream says where to play"),
        (name = "players", description = "Registered players, scores, ratings and the leaderboard"),
        (name = "ops", description = "Health and readiness (metrics are on the admin listener)"),
    )
)]
struct ApiDoc;

struct SeatToken;

impl Modify for SeatToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut seat = Http::new(HttpAuthScheme::Bearer);
        seat.description = Some("A seat's token: returned once, by create or join".into());
        components.add_security_scheme("seat_token", SecurityScheme::Http(seat));
        let mut player = Http::new(HttpAuthScheme::Bearer);
        player.description = Some(
            "A registered player's key: returned once, by POST /v1/players. On create it claims seat 0, on join the open seat".into(),
        );
        components.add_security_scheme("player_key", SecurityScheme::Http(player));
        let mut deck = Http::new(HttpAuthScheme::Bearer);
        deck.description = Some(
            "A poker deck's owner token: returned once, by POST /v1/poker/decks (or by claim for a deck stored before decks had owners)".into(),
        );
        components.add_security_scheme("deck_token", SecurityScheme::Http(deck));
        let mut seek = Http::new(HttpAuthScheme::Bearer);
        seek.description = Some(
            "A seek's secret: returned once, by POST /v1/{game}/seeks; once paired it is the seat's token".into(),
        );
        components.add_security_scheme("seek_secret", SecurityScheme::Http(seek));
    }
}

/// The whole document of an app serving the turn-based games `R` lists.
pub fn document<R: Games>() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    problems::add_components(&mut doc);
    turns::docs::add_turn_games::<R>(&mut doc);
    games::document_game_names::<R>(&mut doc);
    doc
}

/// The document of the server `main` runs (the built-in games), as `openapi/openapi.json` holds it.
pub fn document_json() -> String {
    document::<BuiltinGames>()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}
