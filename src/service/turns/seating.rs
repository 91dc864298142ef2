//! Seats after creation: joining an open seat, starting, ending, and messages between seats.

use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{
    check_if_match, ensure_active, load, load_as_seat, registration, rendered, save, seat_kinds,
    Change, Outcome,
};
use crate::games::{GameStatus, Seat, SeatKind, SeatKindWord, TurnGame};
use crate::service::resource::GameResource;
use crate::service::seats::PlayerName;
use crate::service::tokens::{self, TokenHash};
use crate::service::{ServiceError, ServiceResult, Services};
use crate::store::SeatRow;

/// Body of `join`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "bob"}))]
pub struct JoinRequest {
    /// The joining player's name: 1–32 characters, not only spaces, no control characters.
    #[schema(
        min_length = 1,
        max_length = 32,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$"
    )]
    pub name: String,
}

/// The seat a player took, its token (shown only now) and the game as that seat sees it.
#[derive(Debug, Serialize)]
pub struct Joined<G: TurnGame> {
    pub seat: usize,
    pub token: String,
    pub game: GameResource<G::View>,
    /// What joining caused (the deal, when the last seat filled).
    pub events: Vec<G::Event>,
}

/// Takes the first open seat. One transaction: of two players racing for the last seat, one
/// wins and the other gets 409.
pub async fn join<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    if_match: Option<i64>,
    request: JoinRequest,
) -> ServiceResult<Joined<G>> {
    let name = PlayerName::parse(&request.name)?;
    let mut loaded = load::<G>(svc, id).await?;
    check_if_match("game", loaded.record.row.version, if_match)?;
    if loaded.game.result().is_some() {
        return Err(ServiceError::GameOver);
    }
    let Some(open) = loaded
        .record
        .seats
        .iter()
        .find(|s| s.kind == SeatKindWord::Open)
    else {
        return Err(ServiceError::Conflict(
            "every seat of this game is taken".into(),
        ));
    };
    let seat = open.seat as Seat;
    let (token, hash) = tokens::issue();
    let taken = SeatRow {
        seat: open.seat,
        name: Some(name.as_str().to_owned()),
        kind: SeatKindWord::Human,
        level: None,
        token_hash: Some(hash.0.to_vec()),
    };
    let mut kinds = seat_kinds(&loaded.record)?;
    kinds[seat] = SeatKind::Human;
    let mut events = Vec::new();
    if !kinds.contains(&SeatKind::Open) && !loaded.game.waits_for_start() && !loaded.game.started()
    {
        events = loaded.game.start(&kinds)?;
    }
    let mut change = Change::by(
        Some(seat),
        json!({"action": "join", "seat": seat, "name": name.as_str()}),
    );
    change.seats.push(taken);
    if G::SCORED {
        change.scores.push(registration(name.as_str()));
    }
    save(svc, &mut loaded, change).await?;
    events.extend(super::play::play_ai_seats(svc, &mut loaded).await?);
    Ok(Joined {
        seat,
        token,
        game: rendered(&loaded, Some(seat))?,
        events,
    })
}

/// Starts a waiting game whose seats are all taken (one created with `"start": false`).
pub async fn start<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
) -> ServiceResult<Outcome<G>> {
    let (mut loaded, seat) = load_as_seat::<G>(svc, id, token, if_match).await?;
    match loaded.record.row.status {
        GameStatus::Waiting => {}
        GameStatus::Active => {
            return Err(ServiceError::Conflict(
                "the game has already started".into(),
            ))
        }
        GameStatus::Finished | GameStatus::Aborted => return Err(ServiceError::GameOver),
    }
    let kinds = seat_kinds(&loaded.record)?;
    if let Some(open) = kinds.iter().position(|k| *k == SeatKind::Open) {
        return Err(ServiceError::Conflict(format!(
            "seat {open} is still open; a game starts when every seat is taken"
        )));
    }
    let mut events = loaded.game.start(&kinds)?;
    save(
        svc,
        &mut loaded,
        Change::by(Some(seat), json!({"action": "start"})),
    )
    .await?;
    events.extend(super::play::play_ai_seats(svc, &mut loaded).await?);
    Ok(Outcome::of(rendered(&loaded, Some(seat))?, events))
}

/// Ends a game before it finished (`aborted`): any seat of the game may.
pub async fn end<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
) -> ServiceResult<Outcome<G>> {
    let (mut loaded, seat) = load_as_seat::<G>(svc, id, token, if_match).await?;
    if loaded.game.result().is_some() {
        return Err(ServiceError::GameOver);
    }
    let events = loaded.game.abort();
    save(
        svc,
        &mut loaded,
        Change::by(Some(seat), json!({"action": "end"})),
    )
    .await?;
    Ok(Outcome::of(rendered(&loaded, Some(seat))?, events))
}

/// Body of `messages`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"to": 1, "text": "UNO!"}))]
pub struct MessageRequest {
    /// The receiving seat.
    pub to: usize,
    /// At most 200 characters; only the receiving seat sees it.
    #[schema(max_length = 200)]
    pub text: String,
}

/// A message from the token's seat to another; the log records that it happened, not the text.
pub async fn message<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    request: MessageRequest,
) -> ServiceResult<Outcome<G>> {
    let (mut loaded, seat) = load_as_seat::<G>(svc, id, token, if_match).await?;
    ensure_active(&loaded)?;
    if request.to >= loaded.record.seats.len() {
        return Err(ServiceError::Invalid(format!(
            "there is no seat {}; seats are 0 to {}",
            request.to,
            loaded.record.seats.len() - 1
        )));
    }
    let events = loaded.game.message(seat, request.to, &request.text)?;
    save(
        svc,
        &mut loaded,
        Change::by(Some(seat), json!({"action": "message", "to": request.to})),
    )
    .await?;
    Ok(Outcome::of(rendered(&loaded, Some(seat))?, events))
}
