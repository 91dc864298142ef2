//! Rematches: the seats of a finished game play again, colours swapped. The first seat to ask
//! creates the follow-up game (once: the store allows one rematch per game); every human seat that
//! asks takes its seat there, and the follow-up starts when the last one has. AI seats carry over.
//!
//! A seat proves itself with its token in the old game, and its token in the follow-up is derived
//! from that token and the follow-up's id: asking again answers the same token, and the server
//! still keeps only hashes.

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::seating::{take_open_seat, Joined};
use super::{
    load, missing_token, new_game, rendered, require_seat, save_json, AiAllowance, Change, Loaded,
};
use crate::games::{GameStatus, Seat, SeatKind, SeatKindWord, TurnGame};
use crate::service::tokens::TokenHash;
use crate::service::{seats, ServiceError, ServiceResult, Services};
use crate::store::{SeatRow, StoreError};

/// Races to take seats in the follow-up a request retries before it answers 409.
const ATTEMPTS: usize = 3;

/// `POST …/rematch` by a seat of finished game `id` (its raw `token`): the follow-up game as the
/// seat sees it there, with its token.
pub async fn rematch<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&str>,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<Joined<G>> {
    let token = token.ok_or_else(missing_token)?;
    let hash = TokenHash::of(token);
    let old = load::<G>(svc, id).await?;
    let held = require_seat(svc, &old.record, Some(&hash)).await?;
    let previous = old.record.seats[held].clone();
    if old.record.row.status != GameStatus::Finished {
        return Err(ServiceError::Conflict(format!(
            "a rematch follows a finished game; this one is {}",
            old.record.row.status
        )));
    }
    let next = match svc.store.rematch_of(id).await? {
        Some(next) => next,
        None => create_follow_up(svc, old).await?,
    };
    let mut last = None;
    for _ in 0..ATTEMPTS {
        match take_seat::<G>(svc, next, &previous, token, allow_ai).await {
            Err(ServiceError::Conflict(message)) => last = Some(message),
            answer => return answer,
        }
    }
    Err(ServiceError::Conflict(last.unwrap_or_default()))
}

/// The token of the seat that `token` held in the old game, in follow-up `next`.
fn follow_up_token(token: &str, next: Uuid) -> String {
    let mut digest = Sha256::new();
    digest.update(b"parlor rematch seat\0");
    digest.update(token.as_bytes());
    digest.update(next.as_bytes());
    hex::encode(digest.finalize())
}

/// Creates the follow-up of `old` and announces it on `old`'s stream; answers its id (another
/// request's, if that one created it first).
async fn create_follow_up<G: TurnGame>(svc: &Services, mut old: Loaded<G>) -> ServiceResult<Uuid> {
    let id = old.record.row.id;
    let Some(kept) = svc.store.game_options(id).await? else {
        return Err(ServiceError::Conflict(
            "this game's options were not kept (it was created before rematches), so it has no rematch"
                .into(),
        ));
    };
    let mut options = kept.0;
    if let Some(object) = options.as_object_mut() {
        // A fixed deal would deal the same cards again: the follow-up shuffles afresh.
        for key in G::FIXED_DEAL_OPTIONS {
            object.remove(*key);
        }
    }
    // New seat i is old seat i + 1 (wrapping): with two seats, the colours swap.
    let count = old.record.seats.len();
    let from: Vec<&SeatRow> = (0..count)
        .map(|i| &old.record.seats[(i + 1) % count])
        .collect();
    let kinds = from
        .iter()
        .map(|s| {
            Ok(match seats::kind_of(s)? {
                SeatKind::Ai(level) => SeatKind::Ai(level),
                _ => SeatKind::Open,
            })
        })
        .collect::<ServiceResult<Vec<_>>>()?;
    let players: Vec<Value> = from
        .iter()
        .zip(&kinds)
        .map(|(s, kind)| match kind {
            SeatKind::Ai(level) => json!({"ai": level, "name": s.name}),
            _ => json!({"open": "invite"}),
        })
        .collect();
    let mut body = options.clone();
    body["players"] = Value::Array(players);
    let typed: G::Options = serde_json::from_value(body)
        .map_err(|e| ServiceError::Internal(format!("kept options of game {id}: {e}")))?;
    let mut game = G::new(&typed, &kinds, rand::random())?;
    // A human seat waits for its player, who proves it with their old seat's token: the seat's
    // invitation is that token's hash.
    let seat_rows = from
        .iter()
        .zip(&kinds)
        .enumerate()
        .map(|(i, (s, kind))| SeatRow {
            seat: i as i32,
            name: kind.is_ai().then(|| s.name.clone()).flatten(),
            kind: SeatKindWord::from(*kind),
            level: s.level.clone().filter(|_| kind.is_ai()),
            token_hash: None,
            player: None,
            invite_hash: s.token_hash.clone().filter(|_| !kind.is_ai()),
            reserved_for: None,
        })
        .collect();
    let (row, mut fresh) = new_game(svc, &mut game, seat_rows, Some(options))?;
    fresh.rematch_of = Some(id);
    match svc.store.create_game(&fresh).await {
        Ok(seq) => {
            if let Some(seq) = seq {
                svc.live.lobby_moved(seq);
            }
        }
        Err(StoreError::Conflict) => {
            return svc
                .store
                .rematch_of(id)
                .await?
                .ok_or_else(ServiceError::race)
        }
        Err(e) => return Err(e.into()),
    }
    let announced = json!([{"type": "rematch", "id": row.id}]);
    let change = Change::by(None, json!({"rematch": row.id}));
    save_json(svc, &mut old, change, announced).await?;
    Ok(row.id)
}

/// Seats the player who held `previous` (with `token`) in the old game in follow-up `next` (or
/// finds them seated), starting it when the last human seat fills.
async fn take_seat<G: TurnGame>(
    svc: &Services,
    next: Uuid,
    previous: &SeatRow,
    token: &str,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<Joined<G>> {
    let mut loaded = load::<G>(svc, next).await?;
    let new_token = follow_up_token(token, next);
    let new_hash = TokenHash::of(&new_token);
    let seats = &loaded.record.seats;
    let seated = seats
        .iter()
        .find(|s| s.token_hash.as_deref().is_some_and(|h| new_hash.matches(h)));
    if let Some(seat) = seated {
        let seat = seat.seat as Seat;
        return Ok(Joined {
            seat,
            token: new_token,
            game: rendered(svc, &loaded, Some(seat))?,
            events: Vec::new(),
        });
    }
    let hash = TokenHash::of(token);
    let waiting = seats
        .iter()
        .find(|s| {
            s.kind == SeatKindWord::Open
                && s.invite_hash.as_deref().is_some_and(|h| hash.matches(h))
        })
        .ok_or_else(|| {
            ServiceError::Conflict("the rematch has no seat waiting for this token".into())
        })?;
    let seat = waiting.seat;
    let taken = SeatRow {
        seat,
        name: previous.name.clone(),
        kind: SeatKindWord::Human,
        level: None,
        token_hash: Some(new_hash.0.to_vec()),
        player: previous.player.clone(),
        invite_hash: None,
        reserved_for: None,
    };
    let action = json!({"action": "rematch", "seat": seat});
    take_open_seat(svc, &mut loaded, taken, new_token, action, allow_ai).await
}
