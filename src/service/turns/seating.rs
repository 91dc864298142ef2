//! Seats after creation: joining an open seat, starting, ending, and messages between seats.

use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{
    check_if_match, driven_by_owner, ensure_active, load, load_as_seat, registration, rendered,
    require_seat, save, seat_kinds, AiAllowance, Change, Loaded, Outcome,
};
use crate::games::{GameStatus, Seat, SeatKind, SeatKindWord, TurnGame};
use crate::service::players;
use crate::service::resource::GameResource;
use crate::service::seats::PlayerName;
use crate::service::tokens::{self, TokenHash};
use crate::service::{ServiceError, ServiceResult, Services};
use crate::store::SeatRow;

/// Body of `join`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "bob"}))]
pub struct JoinRequest {
    /// The joining player's name: 1–32 characters, not only spaces, no control or invisible
    /// characters, not `AI`. Required for a guest; with a player key it may be left out (it must
    /// be the key's name).
    #[schema(schema_with = crate::games::player_schema::optional_player_name)]
    pub name: Option<String>,
    /// The invitation code of a seat reserved by invitation (the create answer's `invites`):
    /// join then takes that seat. Needed for such a seat; a wrong code is refused (403).
    #[schema(example = "9b2e…64 hex characters")]
    pub invite: Option<String>,
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

/// Takes the first open seat, as a guest (a name) or as a registered player (`claimant`, a
/// player key). One transaction: of two players racing for the last seat, one wins and the other
/// gets 409.
pub async fn join<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    if_match: Option<i64>,
    request: JoinRequest,
    claimant: Option<&TokenHash>,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<Joined<G>> {
    let asked = request.name.as_deref().map(PlayerName::parse).transpose()?;
    let key_player = match claimant {
        Some(key) => Some(players::by_key(svc, key).await?),
        None => None,
    };
    let mut loaded = load::<G>(svc, id).await?;
    check_if_match("game", loaded.record.row.version, if_match)?;
    if loaded.game.result().is_some() {
        return Err(ServiceError::GameOver);
    }
    let seat = open_seat_for(
        &loaded.record.seats,
        request.invite.as_deref(),
        key_player.as_ref().map(|p| p.canonical.as_str()),
    )?;
    let limit = loaded.game.seats_per_name();
    let (name, player) =
        joining_player(svc, &loaded.record.seats, seat, asked, key_player, limit).await?;
    let (token, hash) = tokens::issue();
    let action = json!({"action": "join", "seat": seat, "name": name});
    let taken = SeatRow {
        seat: seat as i32,
        name: Some(name),
        kind: SeatKindWord::Human,
        level: None,
        token_hash: Some(hash.0.to_vec()),
        player,
        invite_hash: None,
        reserved_for: None,
    };
    take_open_seat(svc, &mut loaded, taken, token, action, allow_ai).await
}

/// Seats a human in an open seat of a loaded game (`taken`, the seat's new row; `token`, the one
/// its hash is of): the game starts when it was the last open seat (unless it waits for
/// `start`), the change is saved with `action` in the log, and the AI seats answer.
pub(super) async fn take_open_seat<G: TurnGame>(
    svc: &Services,
    loaded: &mut Loaded<G>,
    taken: SeatRow,
    token: String,
    action: serde_json::Value,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<Joined<G>> {
    let seat = taken.seat as Seat;
    let mut kinds = seat_kinds(&loaded.record)?;
    kinds[seat] = SeatKind::Human;
    let mut events = Vec::new();
    if !kinds.contains(&SeatKind::Open) && !loaded.game.waits_for_start() && !loaded.game.started()
    {
        events = loaded.change(svc, |game| game.start(&kinds))?;
    }
    let mut change = Change::by(Some(seat), action);
    if G::SCORED {
        change.scores.extend(registration(&taken));
    }
    change.seats.push(taken);
    change.joined = true;
    save(svc, loaded, change, &events).await?;
    events.extend(super::play::play_ai_seats(svc, loaded, allow_ai).await?);
    Ok(Joined {
        seat,
        token,
        game: rendered(svc, loaded, Some(seat))?,
        events,
    })
}

/// `POST …/draw`: the token's seat offers a draw, or accepts the other seat's offer.
pub async fn offer_draw<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
) -> ServiceResult<Outcome<G>> {
    let (mut loaded, seat) = load_as_seat::<G>(svc, id, token, if_match).await?;
    ensure_active(&loaded)?;
    let kinds = seat_kinds(&loaded.record)?;
    let events = loaded.change(svc, |game| game.offer_draw(seat, &kinds))?;
    let change = Change::by(Some(seat), json!({"action": "draw"}));
    save(svc, &mut loaded, change, &events).await?;
    Ok(Outcome::of(rendered(svc, &loaded, Some(seat))?, events))
}

/// The open seat a join takes: the one an invitation code names (a code that names none is
/// refused, 403), else one reserved for the key's registered player, else the first seat open to
/// anyone. Seats reserved for others are never taken: 403 when only such seats are left, 409 when
/// no seat is open at all.
fn open_seat_for(
    seats: &[SeatRow],
    invite: Option<&str>,
    player: Option<&str>,
) -> ServiceResult<Seat> {
    let open = || seats.iter().filter(|s| s.kind == SeatKindWord::Open);
    if let Some(code) = invite {
        let hash = TokenHash::of(code);
        return open()
            .find(|s| s.invite_hash.as_deref().is_some_and(|h| hash.matches(h)))
            .map(|s| s.seat as Seat)
            .ok_or_else(|| {
                ServiceError::Forbidden(
                    "this invitation code names no open seat of this game (a wrong code, or \
                     its seat is taken)"
                        .into(),
                )
            });
    }
    if let Some(canonical) = player {
        if let Some(mine) = open().find(|s| s.reserved_for.as_deref() == Some(canonical)) {
            return Ok(mine.seat as Seat);
        }
    }
    if let Some(public) = open().find(|s| s.invite_hash.is_none() && s.reserved_for.is_none()) {
        return Ok(public.seat as Seat);
    }
    match open().next() {
        None => Err(ServiceError::Conflict(
            "every seat of this game is taken".into(),
        )),
        Some(_) => Err(ServiceError::Forbidden(
            "the open seats of this game are reserved: one by invitation is joined with its code \
             (`{\"name\": …, \"invite\": \"<code>\"}`), one reserved for a registered player \
             with that player's key"
                .into(),
        )),
    }
}

/// Who takes the seat: the key's registered player (the name, if given, must be theirs), or a
/// guest whose name nobody registered. A name holds at most `limit` seats of a game (the
/// game's `seats_per_name`, 1 unless the creator allowed more): 409 beyond.
async fn joining_player(
    svc: &Services,
    seats: &[SeatRow],
    seat: Seat,
    asked: Option<PlayerName>,
    key_player: Option<crate::store::PlayerRecord>,
    limit: usize,
) -> ServiceResult<(String, Option<String>)> {
    let (name, player) = match key_player {
        None => {
            let name = asked.ok_or_else(|| {
                ServiceError::Invalid(
                    "join needs {\"name\"}, or a player key (`Authorization: Bearer <player key>`)"
                        .into(),
                )
            })?;
            if players::registered(svc, &name).await?.is_some() {
                return Err(super::play::registered_name(seat, &name));
            }
            (name.as_str().to_owned(), None)
        }
        Some(player) => {
            if let Some(name) = asked.filter(|n| n.canonical() != player.canonical) {
                return Err(ServiceError::Forbidden(format!(
                    "this key is {:?}'s, not {:?}'s",
                    player.name,
                    name.as_str()
                )));
            }
            (player.name, Some(player.canonical))
        }
    };
    let canonical = PlayerName::lookup(&name)?.canonical();
    let held: Vec<i32> = seats
        .iter()
        .filter(|s| s.kind == SeatKindWord::Human)
        .filter(|s| {
            (player.is_some() && s.player == player)
                || s.name
                    .as_deref()
                    .and_then(|n| PlayerName::lookup(n).ok())
                    .is_some_and(|n| n.canonical() == canonical)
        })
        .map(|s| s.seat)
        .collect();
    if held.len() >= limit {
        return Err(ServiceError::Conflict(format!(
            "{name:?} already holds seat {} of this game; a name holds at most {limit} seat{} of \
             it (the creator's `seats_per_name`, where the game has it)",
            held[0],
            if limit == 1 { "" } else { "s" }
        )));
    }
    Ok((name, player))
}

/// Starts a waiting game whose seats are all taken (one created with `"start": false`).
pub async fn start<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    allow_ai: AiAllowance<'_>,
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
    let mut events = loaded.change(svc, |game| game.start(&kinds))?;
    let change = Change::by(Some(seat), json!({"action": "start"}));
    save(svc, &mut loaded, change, &events).await?;
    events.extend(super::play::play_ai_seats(svc, &mut loaded, allow_ai).await?);
    Ok(Outcome::of(rendered(svc, &loaded, Some(seat))?, events))
}

/// Ends a game before it finished (`aborted`, which moves no score or rating): any seat of the
/// game may, until every seat has made its first move. After that a game between two or more
/// humans ends early only by a resignation, so that `end` is no escape from a loss. A table of
/// AIs alone is ended by its owner.
pub async fn end<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
) -> ServiceResult<Outcome<G>> {
    let mut loaded = load::<G>(svc, id).await?;
    let kinds = seat_kinds(&loaded.record)?;
    let seat = if driven_by_owner(&loaded.record, token)? {
        None
    } else {
        Some(require_seat(svc, &loaded.record, token).await?)
    };
    check_if_match("game", loaded.record.row.version, if_match)?;
    if loaded.game.result().is_some() {
        return Err(ServiceError::GameOver);
    }
    let humans = kinds.iter().filter(|k| **k == SeatKind::Human).count();
    let under_way = loaded.record.row.status == GameStatus::Active
        && (0..kinds.len()).all(|s| loaded.game.has_moved(s));
    if humans >= 2 && under_way {
        return Err(ServiceError::Conflict(
            "every seat has moved, so the game can no longer be ended without a result: \
             resign instead (`{\"move\": \"resign\"}`) where the game allows it"
                .into(),
        ));
    }
    let events = loaded.change(svc, |game| Ok(game.abort()))?;
    let change = Change::by(seat, json!({"action": "end"}));
    save(svc, &mut loaded, change, &events).await?;
    Ok(Outcome::of(rendered(svc, &loaded, seat)?, events))
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
    crate::service::seats::check_visible(&request.text, "a message")?;
    let (mut loaded, seat) = load_as_seat::<G>(svc, id, token, if_match).await?;
    ensure_active(&loaded)?;
    if request.to >= loaded.record.seats.len() {
        return Err(ServiceError::Invalid(format!(
            "there is no seat {}; seats are 0 to {}",
            request.to,
            loaded.record.seats.len() - 1
        )));
    }
    let events = loaded.change(svc, |game| game.message(seat, request.to, &request.text))?;
    let change = Change::by(Some(seat), json!({"action": "message", "to": request.to}));
    save(svc, &mut loaded, change, &events).await?;
    Ok(Outcome::of(rendered(svc, &loaded, Some(seat))?, events))
}

/// A fresh token for `seat`, held by the registered player whose key this is; the seat's old
/// token stops working in the same transaction. A guest's seat cannot be recovered: its token
/// is the only proof of who holds it.
pub async fn reissue_token<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    seat: Seat,
    key: Option<&TokenHash>,
) -> ServiceResult<Joined<G>> {
    let key = key.ok_or_else(|| {
        ServiceError::Unauthenticated(
            "a seat's token is reissued to its registered player: send `Authorization: Bearer <player key>`"
                .into(),
        )
    })?;
    let player = players::by_key(svc, key).await?;
    let mut loaded = load::<G>(svc, id).await?;
    let Some(row) = loaded.record.seats.iter().find(|s| s.seat as Seat == seat) else {
        return Err(ServiceError::NotFound(format!("seat {seat} of this game")));
    };
    match &row.player {
        Some(holder) if *holder == player.canonical => {}
        Some(_) => {
            return Err(ServiceError::Forbidden(format!(
                "seat {seat} is held by another registered player"
            )))
        }
        None => {
            return Err(ServiceError::Forbidden(format!(
                "seat {seat} is not held by a registered player: a guest's or an AI's seat has \
                 no key to recover it with (a guest keeps its seat token)"
            )))
        }
    }
    let (token, hash) = tokens::issue();
    let renewed = SeatRow {
        token_hash: Some(hash.0.to_vec()),
        ..row.clone()
    };
    let mut change = Change::by(Some(seat), json!({"action": "token", "seat": seat}));
    change.seats.push(renewed);
    save(svc, &mut loaded, change, &[]).await?;
    Ok(Joined {
        seat,
        token,
        game: rendered(svc, &loaded, Some(seat))?,
        events: Vec::new(),
    })
}
