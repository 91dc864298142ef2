//! Poker: deal, compare and evaluate (stateless), and deck sessions stored like games.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::auth::Bearer;
use super::conditional::{self, IfMatch, View};
use super::error::ApiError;
use super::limits::CreateQuota;
use super::problems::{
    BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, PreconditionFailed,
    TooManyRequests, Unauthorized, Unavailable, Unprocessable,
};
use super::Object;
use crate::app::AppState;
use crate::games::poker::{
    self, Card, Eval, PokerError, Showdown, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS,
};
use crate::seed::Seed;
use crate::service::decks::{self, DeckAction, DeckChange, DeckView, OwnedDeck};
use crate::service::ServiceError;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"players": 4, "seed": 42}))]
pub struct DealRequest {
    /// 2..=11 players (57 cards hold eleven hands of five).
    #[schema(minimum = 2, maximum = 11)]
    pub players: i64,
    /// Makes the deal reproducible; random when absent (and returned either way).
    pub seed: Option<Seed>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DealResult {
    pub seed: Seed,
    #[serde(flatten)]
    pub showdown: Showdown,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"hands": [["AS", "AH", "JK", "7C", "2D"], ["TS", "JS", "QS", "KS", "JK"]]}))]
pub struct CompareRequest {
    /// 2..=11 hands of five card codes; together at most one deck's worth of each card.
    #[schema(value_type = Vec<FiveCards>, min_items = 2, max_items = 11)]
    pub hands: Vec<Vec<Card>>,
}

/// A hand in a request: five card codes (schema only; the body reads `Vec<Card>`).
pub struct FiveCards;

impl utoipa::PartialSchema for FiveCards {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ArrayBuilder::new()
            .items(utoipa::openapi::Ref::from_schema_name(Card::name()))
            .min_items(Some(5))
            .max_items(Some(5))
            .into()
    }
}

impl ToSchema for FiveCards {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("PokerHand")
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        schemas.push((
            Card::name().into_owned(),
            <Card as utoipa::PartialSchema>::schema(),
        ));
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"cards": ["KS", "JK", "KD", "7C", "7H"]}))]
pub struct EvaluateRequest {
    /// Five card codes: rank `2`..`9`, `T` (or `10`), `J`, `Q`, `K`, `A` + suit `S` `H` `D` `C`; joker `JK`.
    #[schema(value_type = Vec<Card>, min_items = 5, max_items = 5)]
    pub cards: Vec<Card>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seed": 7}))]
pub struct NewDeckRequest {
    /// Makes the shuffle reproducible, and public: the answers show it (`"seeded": true`) and
    /// anyone who knows it can predict the deck. Without it the deck is shuffled from a secret key
    /// that no answer shows (`"seeded": false`).
    pub seed: Option<Seed>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"count": 5}))]
pub struct DrawRequest {
    #[schema(minimum = 1, maximum = 57)]
    pub count: i64,
}

fn hand(cards: &[Card], which: &str) -> Result<[Card; HAND_SIZE], ApiError> {
    cards.try_into().map_err(|_| {
        ApiError::Service(ServiceError::Invalid(format!(
            "{which} must have exactly {HAND_SIZE} cards, not {}",
            cards.len()
        )))
    })
}

fn invalid(err: PokerError) -> ApiError {
    ApiError::Service(ServiceError::Invalid(err.to_string()))
}

/// Deals five cards to each player from a seeded shuffle and ranks the hands.
#[utoipa::path(post, path = "/v1/poker/deal", tag = "poker", request_body = DealRequest, responses(
    (status = 200, body = DealResult),
    (status = 400, response = BadRequest),
    (status = 413, response = PayloadTooLarge),
    (status = 422, response = Unprocessable),
))]
pub async fn deal(
    _: web::Query<super::NoParams>,
    body: web::Json<Object<DealRequest>>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner().0;
    let players = usize::try_from(body.players)
        .ok()
        .filter(|p| (MIN_PLAYERS..=MAX_PLAYERS).contains(p))
        .ok_or_else(|| {
            ApiError::Service(ServiceError::Invalid(format!(
                "players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {}",
                body.players
            )))
        })?;
    let seed = body.seed.map_or_else(rand::random, |s| s.0);
    let hands = poker::deal(players, seed).map_err(invalid)?;
    Ok(HttpResponse::Ok().json(DealResult {
        seed: Seed(seed),
        showdown: poker::showdown(&hands),
    }))
}

/// Ranks the given hands; ties share the win.
#[utoipa::path(post, path = "/v1/poker/compare", tag = "poker", request_body = CompareRequest, responses(
    (status = 200, body = Showdown),
    (status = 400, response = BadRequest),
    (status = 413, response = PayloadTooLarge),
    (status = 422, response = Unprocessable),
))]
pub async fn compare(
    _: web::Query<super::NoParams>,
    body: web::Json<Object<CompareRequest>>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner().0;
    let hands = body
        .hands
        .iter()
        .enumerate()
        .map(|(i, cards)| hand(cards, &format!("hand {i}")))
        .collect::<Result<Vec<_>, _>>()?;
    let showdown = poker::compare(&hands).map_err(invalid)?;
    Ok(HttpResponse::Ok().json(showdown))
}

/// One hand: its category, its best interpretation and its strength.
#[utoipa::path(post, path = "/v1/poker/evaluate", tag = "poker", request_body = EvaluateRequest, responses(
    (status = 200, body = Eval),
    (status = 400, response = BadRequest),
    (status = 413, response = PayloadTooLarge),
    (status = 422, response = Unprocessable),
))]
pub async fn evaluate(
    _: web::Query<super::NoParams>,
    body: web::Json<Object<EvaluateRequest>>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner().0;
    let cards = hand(&body.cards, "cards")?;
    poker::validate_one_deck(&[cards]).map_err(invalid)?;
    Ok(HttpResponse::Ok().json(poker::evaluate(&cards)))
}

/// A new deck session: 57 cards shuffled from the client's `seed` (shown, reproducible) or, without
/// one, from a secret key that never leaves the server. The body may be empty. The answer holds
/// the owner `token`, shown only here, that every deck route requires.
#[utoipa::path(post, path = "/v1/poker/decks", tag = "poker", request_body(content = Option<NewDeckRequest>), responses(
    (status = 201, description = "The deck and its owner token (`Cache-Control: no-store`)", body = OwnedDeck,
        headers(("Location" = String), ("ETag" = String), ("Cache-Control" = String, description = "`no-store`"))),
    (status = 400, response = BadRequest),
    (status = 413, response = PayloadTooLarge),
    (status = 429, response = TooManyRequests),
    (status = 503, response = Unavailable),
))]
pub async fn create_deck(
    _: web::Query<super::NoParams>,
    _quota: CreateQuota,
    app: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: NewDeckRequest = super::optional_json(&body)?;
    let owned = decks::create(&app, request.seed.map(|s| s.0)).await?;
    let location = format!("/v1/poker/decks/{}", owned.deck.id);
    Ok(conditional::created(
        &location,
        View::public(owned.deck.version),
        &owned,
    ))
}

/// An answer for a deck's owner alone: no shared cache keeps it.
fn owners(mut response: HttpResponse) -> HttpResponse {
    if !response.status().is_client_error() && !response.status().is_server_error() {
        response.headers_mut().insert(
            actix_web::http::header::CACHE_CONTROL,
            actix_web::http::header::HeaderValue::from_static("private, no-cache"),
        );
    }
    response
}

/// A deck session: how many cards remain and which were drawn (never the order of the rest).
#[utoipa::path(get, path = "/v1/poker/decks/{id}", tag = "poker",
    params(("id" = Uuid, Path, description = "Deck id")),
    security(("deck_token" = [])),
    responses(
        (status = 200, body = DeckView, headers(("ETag" = String))),
        (status = 304, description = "Unchanged since the `If-None-Match` version"),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 503, response = Unavailable),
    ))]
pub async fn get_deck(
    _: web::Query<super::NoParams>,
    app: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<Uuid>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let deck = decks::get(&app, *id, bearer.hash()).await?;
    Ok(owners(conditional::respond(
        &req,
        View::public(deck.version),
        &deck,
    )))
}

async fn change(
    app: &crate::service::Services,
    id: Uuid,
    bearer: Bearer,
    if_match: IfMatch,
    action: DeckAction,
) -> Result<HttpResponse, ApiError> {
    let change = decks::change(app, id, bearer.hash(), if_match.0, action).await?;
    Ok(owners(conditional::ok(
        HttpResponse::Ok(),
        View::public(change.deck.version),
        &change,
    )))
}

/// Draws cards from the top of the deck.
#[utoipa::path(post, path = "/v1/poker/decks/{id}/draw", tag = "poker", request_body = DrawRequest,
    params(("id" = Uuid, Path, description = "Deck id")),
    security(("deck_token" = [])),
    responses(
        (status = 200, description = "`cards` were drawn", body = DeckChange, headers(("ETag" = String))),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 412, response = PreconditionFailed),
        (status = 413, response = PayloadTooLarge),
        (status = 422, response = Unprocessable),
        (status = 503, response = Unavailable),
    ))]
pub async fn draw(
    _: web::Query<super::NoParams>,
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    if_match: IfMatch,
    body: web::Json<Object<DrawRequest>>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let action = DeckAction::draw(body.into_inner().0.count)?;
    change(&app, *id, bearer, if_match, action).await
}

/// A body-less deck action: its handler and documentation, written once for the three.
macro_rules! deck_action {
    ($(#[doc = $doc:literal])* $name:ident, $path:literal, $action:expr, $ok:literal) => {
        $(#[doc = $doc])*
        #[utoipa::path(post, path = $path, tag = "poker",
            params(("id" = Uuid, Path, description = "Deck id")),
            security(("deck_token" = [])),
            responses(
                (status = 200, description = $ok, body = DeckChange, headers(("ETag" = String))),
                (status = 400, response = BadRequest),
                (status = 401, response = Unauthorized),
                (status = 403, response = Forbidden),
                (status = 404, response = NotFound),
                (status = 409, response = Conflict),
                (status = 412, response = PreconditionFailed),
                (status = 503, response = Unavailable),
            ))]
        pub async fn $name(
            _: web::Query<super::NoParams>,
            app: web::Data<AppState>,
            id: web::Path<Uuid>,
            if_match: IfMatch,
            bearer: Bearer,
        ) -> Result<HttpResponse, ApiError> {
            change(&app, *id, bearer, if_match, $action).await
        }
    };
}

deck_action!(
    /// The seed's undo: the last drawn card goes back on top (409 `conflict` when nothing is
    /// drawn).
    undo, "/v1/poker/decks/{id}/undo", DeckAction::Undo, "`returned` went back"
);
deck_action!(
    /// The seed's re-select: the last drawn card goes back to a random place and a card is drawn
    /// (409 `conflict` when nothing is drawn). A random deck draws the place from its secret key.
    reselect, "/v1/poker/decks/{id}/reselect", DeckAction::Reselect,
    "`returned` went back, `cards` holds the new card"
);
deck_action!(
    /// Every drawn card back, and the whole deck shuffled again (a random deck from its secret
    /// key, a seeded one reproducibly from its seed).
    shuffle, "/v1/poker/decks/{id}/shuffle", DeckAction::Shuffle, "`returned` went back"
);

/// Takes ownership of a deck stored before decks had owners (which is open to anyone with its
/// id until then): the answer holds its owner `token`, shown only here, and the cards not yet
/// drawn are reshuffled from a fresh secret key, so the deck is a random one (`seeded: false`)
/// from then on. 409 `conflict` for a deck that has an owner (every deck created since).
#[utoipa::path(post, path = "/v1/poker/decks/{id}/claim", tag = "poker",
    params(("id" = Uuid, Path, description = "Deck id")),
    responses(
        (status = 200, description = "The deck and its owner token (`Cache-Control: no-store`)", body = OwnedDeck,
            headers(("ETag" = String), ("Cache-Control" = String, description = "`no-store`"))),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 412, response = PreconditionFailed),
        (status = 503, response = Unavailable),
    ))]
pub async fn claim_deck(
    _: web::Query<super::NoParams>,
    app: web::Data<AppState>,
    id: web::Path<Uuid>,
    if_match: IfMatch,
) -> Result<HttpResponse, ApiError> {
    let owned = decks::claim(&app, *id, if_match.0).await?;
    Ok(conditional::secret(conditional::ok(
        HttpResponse::Ok(),
        View::public(owned.deck.version),
        &owned,
    )))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    use super::resource;
    cfg.service(resource("/v1/poker/deal", "POST").route(web::post().to(deal)))
        .service(resource("/v1/poker/compare", "POST").route(web::post().to(compare)))
        .service(resource("/v1/poker/evaluate", "POST").route(web::post().to(evaluate)))
        .service(resource("/v1/poker/decks", "POST").route(web::post().to(create_deck)))
        .service(
            resource("/v1/poker/decks/{id}", "GET, HEAD").route(super::get_or_head().to(get_deck)),
        )
        .service(resource("/v1/poker/decks/{id}/draw", "POST").route(web::post().to(draw)))
        .service(resource("/v1/poker/decks/{id}/undo", "POST").route(web::post().to(undo)))
        .service(resource("/v1/poker/decks/{id}/reselect", "POST").route(web::post().to(reselect)))
        .service(resource("/v1/poker/decks/{id}/shuffle", "POST").route(web::post().to(shuffle)))
        .service(resource("/v1/poker/decks/{id}/claim", "POST").route(web::post().to(claim_deck)));
}
