//! Seeks: players asking the lobby for an opponent. A seek names a game and its options; when as
//! many compatible seeks are open as the game seats, the server creates the game and tells each
//! seek, on its own stream only, where it plays.
//!
//! A seek's secret becomes its seat's token: the store keeps only its hash, so the pairing (in
//! any process) writes that hash as the seat's, and only a stream that holds the secret (through
//! `Authorization`, or sealed in its ticket) can hand it back.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use sqlx::types::Json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::live::Live;
use super::players;
use super::seats::PlayerName;
use super::tokens::{self, TokenHash};
use super::turns::follow::{StreamTicket, TICKET_TTL};
use super::{ServiceError, ServiceResult, Services};
use crate::games::{SeatKind, SeatKindWord, TurnGame};
use crate::rating::Rating;
use crate::store::{
    GameStore, Pairing, SeatRow, SeekClosing, SeekRecord, StoreError, StoreResult, TicketGrant,
};

/// How long a seek stays open with nobody following it: its stream (or long poll) pushes this
/// on every [`TOUCH_EVERY`], so a seek lives while its owner follows it.
pub const SEEK_TTL: chrono::Duration = chrono::Duration::minutes(2);
pub const TOUCH_EVERY: Duration = Duration::from_secs(30);
/// Tries at pairing a new seek while other requests pair the same seeks. Each lost try means
/// another pairing succeeded, so this bounds only a pathological storm: many seeks arriving at
/// once all reach for the oldest open one first.
const PAIRING_TRIES: usize = 1000;

/// Body of `POST /v1/{game}/seeks` (documented per game, with that game's `options`).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The seeker's name: required for a guest; with a player key it may be left out (it must
    /// be the key's name).
    #[schema(schema_with = crate::games::player_schema::optional_player_name)]
    pub name: Option<String>,
    /// The game's create options without `players` (default none): a seek pairs only with seeks
    /// whose options are the same JSON.
    #[schema(value_type = Option<Object>)]
    pub options: Option<Map<String, Value>>,
    /// How many players the game seats (default the fewest it takes: 2).
    #[schema(minimum = 2, maximum = 10)]
    pub players: Option<usize>,
    /// The seat asked for (seat 0 moves first: black in Go and Gomoku); default any. Two seeks
    /// asking for the same seat never pair; the seats nobody asked for are drawn at random.
    pub seat: Option<usize>,
    /// The opponents' ratings this registered player accepts (needs its key). A guest has no
    /// rating, so a seek with a range pairs only with registered players in it.
    pub rating_range: Option<RatingRange>,
}

/// Ratings an opponent must have, both ends included; an end left out is open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingRange {
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl RatingRange {
    fn contains(&self, rating: Option<f64>) -> bool {
        rating.is_some_and(|r| self.min.is_none_or(|m| r >= m) && self.max.is_none_or(|m| r <= m))
    }
}

/// Where a seek stands.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Deserialize,
    Serialize,
    ToSchema,
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SeekStatus {
    Open,
    Paired,
    Cancelled,
    Expired,
}

/// A seek as anyone may see it (the lobby lists the open ones): never its secret.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Seek {
    pub id: Uuid,
    /// The game's name (`gomoku`, `go`, `uno`).
    pub game: String,
    pub name: String,
    /// A registered player's rating in this game; none for a guest.
    pub rating: Option<f64>,
    pub rating_range: Option<RatingRange>,
    pub players: usize,
    pub seat: Option<usize>,
    #[schema(value_type = Object)]
    pub options: Value,
    pub status: SeekStatus,
    pub created_at: DateTime<Utc>,
    /// When an open seek nobody follows expires; following it pushes this on.
    pub expires_at: DateTime<Utc>,
    /// The game it was paired into.
    pub game_id: Option<Uuid>,
}

/// What a paired seek's owner gets (`event: paired`): the game, its seat there and that seat's
/// token, which is the seek's secret.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Paired {
    /// The game's name: play at `/v1/{game}/games/{id}`.
    pub game: String,
    pub id: Uuid,
    pub seat: usize,
    #[schema(example = "6f1c…64 hex characters")]
    pub token: String,
}

/// What a seek's stream sends (for the OpenAPI document): `event: seek`, then `event: paired`.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum SeekEvent {
    Seek(Seek),
    Paired(Paired),
}

/// A seek as its owner sees it: once paired, where it plays.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct OwnSeek {
    pub seek: Seek,
    pub paired: Option<Paired>,
}

/// A new seek (it may be paired at once) and its secret, shown only now: it follows and cancels
/// the seek, and becomes the seat's token in the game the seek is paired into.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeekCreated {
    pub seek: Seek,
    pub paired: Option<Paired>,
    #[schema(example = "9d41…64 hex characters")]
    pub secret: String,
}

/// The public view of a stored seek.
pub fn view(record: &SeekRecord) -> ServiceResult<Seek> {
    let status = record.status.parse().map_err(|_| {
        ServiceError::Internal(format!("seek {} has status {:?}", record.id, record.status))
    })?;
    Ok(Seek {
        id: record.id,
        game: record.game.clone(),
        name: record.name.clone(),
        rating: record.rating,
        rating_range: rating_range(record),
        players: record.players as usize,
        seat: record.seat.map(|s| s as usize),
        options: record.options.0.clone(),
        status,
        created_at: record.created_at,
        expires_at: record.expires_at,
        game_id: record.game_id,
    })
}

/// The range a stored seek accepts its opponents' ratings in, if it set one.
fn rating_range(record: &SeekRecord) -> Option<RatingRange> {
    (record.rating_min.is_some() || record.rating_max.is_some()).then_some(RatingRange {
        min: record.rating_min,
        max: record.rating_max,
    })
}

fn entry(seek: &Seek) -> ServiceResult<Value> {
    serde_json::to_value(seek).map_err(|e| ServiceError::Internal(e.to_string()))
}

fn own_view(record: &SeekRecord, secret: &str) -> ServiceResult<OwnSeek> {
    let paired = match (record.game_id, record.paired_seat) {
        (Some(id), Some(seat)) => Some(Paired {
            game: record.game.clone(),
            id,
            seat: seat as usize,
            token: secret.to_owned(),
        }),
        _ => None,
    };
    Ok(OwnSeek {
        seek: view(record)?,
        paired,
    })
}

/// Opens a seek for game `G`, by a guest (`name`) or a registered player (`claimant`, its key),
/// and pairs it at once if it can.
pub async fn create<G: TurnGame>(
    svc: &Services,
    request: SeekRequest,
    claimant: Option<&TokenHash>,
) -> ServiceResult<SeekCreated> {
    let seeker = seeker(svc, request.name.as_deref(), claimant, G::NAME).await?;
    let range = request.rating_range;
    if let Some(range) = range {
        if seeker.rating.is_none() {
            return Err(ServiceError::Invalid(
                "a rating range needs a registered player's key (`Authorization: Bearer <player \
                 key>`): a guest has no rating to be matched by"
                    .into(),
            ));
        }
        let finite = [range.min, range.max]
            .iter()
            .flatten()
            .all(|r| r.is_finite());
        if !finite || range.min.zip(range.max).is_some_and(|(lo, hi)| lo > hi) {
            return Err(ServiceError::Invalid(
                "`rating_range` needs finite numbers with `min` at most `max`".into(),
            ));
        }
    }
    let seats = G::seat_range();
    let players = request.players.unwrap_or(*seats.start());
    if !seats.contains(&players) {
        return Err(ServiceError::Invalid(format!(
            "{} seats {} to {} players, not {players}",
            G::NAME,
            seats.start(),
            seats.end()
        )));
    }
    if let Some(seat) = request.seat.filter(|s| *s >= players) {
        return Err(ServiceError::Invalid(format!(
            "seat {seat} is not one of the game's {players} seats (0 to {})",
            players - 1
        )));
    }
    let options = request.options.unwrap_or_default();
    check_options::<G>(&options, players)?;
    let (secret, hash) = tokens::issue();
    let now = crate::store::now();
    let record = SeekRecord {
        id: Uuid::now_v7(),
        game: G::NAME.into(),
        options: Json(Value::Object(options)),
        players: players as i32,
        seat: request.seat.map(|s| s as i32),
        name: seeker.name,
        player: seeker.player,
        rating: seeker.rating,
        rating_min: range.and_then(|r| r.min),
        rating_max: range.and_then(|r| r.max),
        secret_hash: hash.0.to_vec(),
        status: "open".into(),
        game_id: None,
        paired_seat: None,
        created_at: now,
        expires_at: now + SEEK_TTL,
        closed_at: None,
    };
    let seq = svc
        .store
        .create_seek(&record, &entry(&view(&record)?)?)
        .await?;
    svc.live.lobby_moved(seq);
    // The seek stands even if pairing fails now: the next seek that comes pairs with it.
    if let Err(err) = pair::<G>(svc, record.id).await {
        tracing::warn!(error = %err, "cannot pair a new seek now");
    }
    let record = svc.store.load_seek(record.id).await?.unwrap_or(record);
    let own = own_view(&record, &secret)?;
    Ok(SeekCreated {
        seek: own.seek,
        paired: own.paired,
        secret,
    })
}

/// Who seeks: a name, and for a registered player its canonical name and rating in `game`.
struct Seeker {
    name: String,
    player: Option<String>,
    rating: Option<f64>,
}

async fn seeker(
    svc: &Services,
    name: Option<&str>,
    claimant: Option<&TokenHash>,
    game: &str,
) -> ServiceResult<Seeker> {
    let asked = name.map(PlayerName::parse).transpose()?;
    let Some(key) = claimant else {
        let name = asked.ok_or_else(|| {
            ServiceError::Invalid(
                "a guest's seek needs `name` (a registered player sends its key instead)".into(),
            )
        })?;
        if players::registered(svc, &name).await?.is_some() {
            return Err(ServiceError::Forbidden(format!(
                "{:?} is a registered name; only its player's key seeks as it \
                 (`Authorization: Bearer <player key>`)",
                name.as_str()
            )));
        }
        return Ok(Seeker {
            name: name.as_str().to_owned(),
            player: None,
            rating: None,
        });
    };
    let player = players::by_key(svc, key).await?;
    if let Some(asked) = asked.filter(|a| a.canonical() != player.canonical) {
        return Err(ServiceError::Forbidden(format!(
            "this key is {:?}'s, but the seek names {:?}",
            player.name,
            asked.as_str()
        )));
    }
    let ratings = svc.store.ratings(&player.canonical).await?;
    let rating = ratings
        .iter()
        .find(|r| r.game == game)
        .map_or(Rating::NEW.rating, |r| r.rating);
    Ok(Seeker {
        name: player.name,
        player: Some(player.canonical),
        rating: Some(rating),
    })
}

/// The game's create options with these players seated by name.
fn game_options<G: TurnGame>(
    options: &Map<String, Value>,
    names: &[String],
) -> ServiceResult<G::Options> {
    let mut body = options.clone();
    let players = names.iter().map(|name| json!({ "name": name })).collect();
    body.insert("players".into(), Value::Array(players));
    serde_json::from_value(Value::Object(body)).map_err(|e| {
        ServiceError::Invalid(format!(
            "`options` are not {}'s create options: {e}",
            G::NAME
        ))
    })
}

/// Refuses options that make no game, or a game whose creator would know more than the others
/// (a fixed deal) or that would not start when paired.
fn check_options<G: TurnGame>(options: &Map<String, Value>, players: usize) -> ServiceResult<()> {
    if options.contains_key("players") {
        return Err(ServiceError::Invalid(
            "`options` leave out `players`: the paired seeks are the players".into(),
        ));
    }
    let names: Vec<String> = (0..players).map(|i| format!("player {i}")).collect();
    let parsed = game_options::<G>(options, &names)?;
    if let Some(option) = G::fixed_deal(&parsed) {
        return Err(ServiceError::Invalid(format!(
            "`{option}` fixes the deal in advance: a paired game is dealt by the server"
        )));
    }
    if G::test_table(&parsed) {
        return Err(ServiceError::Invalid(
            "a paired game cannot be a test table".into(),
        ));
    }
    let game = G::new(&parsed, &vec![SeatKind::Human; players], 0)?;
    if game.waits_for_start() {
        return Err(ServiceError::Invalid(
            "a paired game starts at once: leave out `\"start\": false`".into(),
        ));
    }
    Ok(())
}

/// Pairs seek `id` with other open seeks of `G` if enough compatible ones are open.
async fn pair<G: TurnGame>(svc: &Services, id: Uuid) -> ServiceResult<()> {
    for _ in 0..PAIRING_TRIES {
        let open = open(svc, G::NAME).await?;
        let Some(me) = open.iter().find(|s| s.id == id) else {
            return Ok(());
        };
        let Some(group) = group_for(me, &open) else {
            return Ok(());
        };
        if start_game::<G>(svc, &group).await? {
            return Ok(());
        }
    }
    Ok(())
}

/// The oldest compatible seeks that fill a game with `me`, if there are enough.
fn group_for<'a>(me: &'a SeekRecord, open: &'a [SeekRecord]) -> Option<Vec<&'a SeekRecord>> {
    let mut group = vec![me];
    for other in open {
        let same_game = other.options == me.options && other.players == me.players;
        if other.id != me.id && same_game && group.iter().all(|s| compatible(s, other)) {
            group.push(other);
            if group.len() == me.players as usize {
                return Some(group);
            }
        }
    }
    None
}

/// Whether two seeks may sit at one table: different players, different seats asked for, and
/// each one's rating in the other's range.
fn compatible(a: &SeekRecord, b: &SeekRecord) -> bool {
    let accepts = |s: &SeekRecord, other: &SeekRecord| {
        rating_range(s).is_none_or(|r| r.contains(other.rating))
    };
    let same_player = match (&a.player, &b.player) {
        (Some(x), Some(y)) => x == y,
        _ => a.name.to_lowercase() == b.name.to_lowercase(),
    };
    !same_player && (a.seat.is_none() || a.seat != b.seat) && accepts(a, b) && accepts(b, a)
}

/// Which seek sits in each seat: the seats asked for, then the others at random.
fn seating(group: &[&SeekRecord]) -> Vec<usize> {
    let mut seats: Vec<Option<usize>> = vec![None; group.len()];
    for (i, seek) in group.iter().enumerate() {
        if let Some(seat) = seek.seat {
            seats[seat as usize] = Some(i);
        }
    }
    let mut rest: Vec<usize> = (0..group.len())
        .filter(|i| group[*i].seat.is_none())
        .collect();
    rest.shuffle(&mut rand::thread_rng());
    let mut rest = rest.into_iter();
    seats
        .into_iter()
        .map(|s| s.or_else(|| rest.next()).unwrap_or_default())
        .collect()
}

/// Creates the game of `group` and closes its seeks, in one transaction; `false` when one of
/// them was paired, cancelled or expired meanwhile (nothing is written).
async fn start_game<G: TurnGame>(svc: &Services, group: &[&SeekRecord]) -> ServiceResult<bool> {
    let order = seating(group);
    let names: Vec<String> = order.iter().map(|&i| group[i].name.clone()).collect();
    let Value::Object(options) = &group[0].options.0 else {
        return Err(ServiceError::Internal(
            "a seek's options are no object".into(),
        ));
    };
    let options = game_options::<G>(options, &names)?;
    let kinds = vec![SeatKind::Human; group.len()];
    let mut game = G::new(&options, &kinds, rand::random())?;
    if !game.started() {
        game.start(&kinds)?;
    }
    let seats = order
        .iter()
        .enumerate()
        .map(|(seat, &i)| SeatRow {
            seat: seat as i32,
            name: Some(group[i].name.clone()),
            kind: SeatKindWord::Human,
            level: None,
            token_hash: Some(group[i].secret_hash.clone()),
            player: group[i].player.clone(),
            invite_hash: None,
            reserved_for: None,
        })
        .collect();
    let kept = Some(group[0].options.0.clone());
    let (row, new_game) = super::turns::new_game(svc, &mut game, seats, kept)?;
    let mut closings = Vec::with_capacity(group.len());
    for (seat, &i) in order.iter().enumerate() {
        let mut seek = view(group[i])?;
        seek.status = SeekStatus::Paired;
        seek.game_id = Some(row.id);
        let closing = SeekClosing {
            id: seek.id,
            status: SeekStatus::Paired.into(),
            entry: entry(&seek)?,
        };
        closings.push((closing, seat as i32));
    }
    let pairing = Pairing {
        seats: closings,
        game: new_game,
    };
    match svc.store.pair_seeks(&pairing).await {
        Ok(head) => {
            svc.live.lobby_moved(head);
            for seek in group {
                svc.live.game_moved(seek.id, 1);
            }
            Ok(true)
        }
        Err(StoreError::Conflict) => Ok(false),
        Err(err) => Err(err.into()),
    }
}

/// The seek, once `secret` shows its owner: 401 without one, 403 with another.
async fn owned(svc: &Services, id: Uuid, secret: Option<&str>) -> ServiceResult<SeekRecord> {
    let secret = secret.ok_or_else(|| {
        ServiceError::Unauthenticated(
            "a seek is followed and cancelled with its secret: `Authorization: Bearer <secret>` \
             (the create answer's `secret`)"
                .into(),
        )
    })?;
    let record = svc
        .store
        .load_seek(id)
        .await?
        .ok_or_else(|| ServiceError::not_found("seek"))?;
    if !TokenHash::of(secret).matches(&record.secret_hash) {
        return Err(ServiceError::Forbidden(
            "this is not this seek's secret".into(),
        ));
    }
    Ok(record)
}

/// The seek as its owner sees it.
pub async fn get(svc: &Services, id: Uuid, secret: Option<&str>) -> ServiceResult<OwnSeek> {
    let record = owned(svc, id, secret).await?;
    own_view(&record, secret.unwrap_or_default())
}

/// The long poll: the seek once it is no longer open, or `None` if it still is after `wait`.
/// Polling keeps it open, as a stream does.
pub async fn wait(
    svc: &Services,
    id: Uuid,
    secret: Option<&str>,
    wait: Duration,
) -> ServiceResult<Option<OwnSeek>> {
    // Watching before reading: a pairing committed in between still wakes the poll.
    let mut watch = svc.live.watch_game(id);
    let record = owned(svc, id, secret).await?;
    let secret = secret.unwrap_or_default();
    if record.status != "open" {
        return own_view(&record, secret).map(Some);
    }
    touch(svc, id).await?;
    tokio::select! {
        _ = watch.changed() => {}
        _ = tokio::time::sleep(wait) => {}
    }
    let record = owned(svc, id, Some(secret)).await?;
    if record.status == "open" {
        touch(svc, id).await?;
        return Ok(None);
    }
    own_view(&record, secret).map(Some)
}

/// Pushes an open seek's expiry on; `false` when it is no longer open.
pub async fn touch(svc: &Services, id: Uuid) -> ServiceResult<bool> {
    Ok(svc
        .store
        .touch_seek(id, crate::store::now() + SEEK_TTL)
        .await?)
}

/// Cancels an open seek (a cancelled or expired one stays so); 409 once it is paired.
pub async fn cancel(svc: &Services, id: Uuid, secret: Option<&str>) -> ServiceResult<()> {
    let mut record = owned(svc, id, secret).await?;
    if record.status == "open" {
        if close(&*svc.store, &svc.live, &record, SeekStatus::Cancelled).await? {
            return Ok(());
        }
        // Paired (or expired) meanwhile.
        record = owned(svc, id, secret).await?;
    }
    match record.game_id {
        Some(game) => Err(ServiceError::Conflict(format!(
            "this seek is paired already: its game is {}/{game}",
            record.game
        ))),
        None => Ok(()),
    }
}

/// Closes an open seek as `status` and announces it; `false` when it was no longer open.
async fn close(
    store: &dyn GameStore,
    live: &Live,
    record: &SeekRecord,
    status: SeekStatus,
) -> ServiceResult<bool> {
    let mut seek = view(record)?;
    seek.status = status;
    let closing = SeekClosing {
        id: record.id,
        status: status.into(),
        entry: entry(&seek)?,
    };
    match store.close_seek(&closing, crate::store::now()).await? {
        Some(seq) => {
            live.lobby_moved(seq);
            live.game_moved(record.id, 1);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Closes every open seek whose time ran out by `now`; answers how many. Several processes may
/// do it at once: each seek is closed once.
pub async fn expire(store: &dyn GameStore, live: &Live, now: DateTime<Utc>) -> ServiceResult<u64> {
    let mut closed = 0;
    for record in store.expired_seeks(now).await? {
        closed += u64::from(close(store, live, &record, SeekStatus::Expired).await?);
    }
    Ok(closed)
}

/// The open seeks of `game`, oldest first.
pub async fn open(svc: &Services, game: &str) -> StoreResult<Vec<SeekRecord>> {
    svc.store.open_seeks(game, crate::store::now()).await
}

/// A ticket that opens the seek's stream once (for `EventSource`, which sends no headers). It
/// carries the secret sealed with a pad derived from the ticket, which the store never keeps, so
/// the stream can hand the secret back as the seat's token.
pub async fn stream_ticket(
    svc: &Services,
    id: Uuid,
    secret: Option<&str>,
) -> ServiceResult<StreamTicket> {
    owned(svc, id, secret).await?;
    let secret = secret.unwrap_or_default();
    let (ticket, hash) = tokens::issue();
    let expires_at = crate::store::now() + TICKET_TTL;
    let grant = TicketGrant {
        target: id,
        seat: None,
        seal: Some(xor_pad(&hex::decode(secret).unwrap_or_default(), &ticket)),
    };
    svc.store.issue_ticket(&hash.0, grant, expires_at).await?;
    Ok(StreamTicket { ticket, expires_at })
}

/// `bytes` XOR a pad only `ticket` gives: seals the secret, and unseals it again.
fn xor_pad(bytes: &[u8], ticket: &str) -> Vec<u8> {
    let pad = Sha256::new()
        .chain_update(b"parlor seek seal\0")
        .chain_update(ticket.as_bytes())
        .finalize();
    bytes.iter().zip(pad).map(|(b, p)| b ^ p).collect()
}

/// What a seek's stream follows, and the secret it hands back once the seek is paired: the
/// `secret` sent, or the one sealed in the `ticket` (taken now, so good once).
pub async fn open_stream(
    svc: &Services,
    id: Uuid,
    secret: Option<&str>,
    ticket: Option<&str>,
) -> ServiceResult<(SeekRecord, String)> {
    let Some(ticket) = ticket else {
        let record = owned(svc, id, secret).await?;
        return Ok((record, secret.unwrap_or_default().to_owned()));
    };
    let unknown = || {
        ServiceError::Unauthenticated(
            "unknown, used or expired stream ticket; ask `POST /v1/seeks/{id}/stream-ticket` \
             for another"
                .into(),
        )
    };
    if !tokens::well_formed(ticket) {
        return Err(unknown());
    }
    let grant = svc
        .store
        .take_ticket(&TokenHash::of(ticket).0, crate::store::now())
        .await?
        .filter(|g| g.target == id)
        .ok_or_else(unknown)?;
    let sealed = grant.seal.ok_or_else(unknown)?;
    let secret = hex::encode(xor_pad(&sealed, ticket));
    let record = owned(svc, id, Some(&secret)).await?;
    Ok((record, secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_with_its_ticket() {
        let (secret, _) = tokens::issue();
        let (ticket, _) = tokens::issue();
        let (other, _) = tokens::issue();
        let raw = hex::decode(&secret).unwrap();
        let sealed = xor_pad(&raw, &ticket);
        assert_ne!(sealed, raw);
        assert_eq!(hex::encode(xor_pad(&sealed, &ticket)), secret);
        assert_ne!(hex::encode(xor_pad(&sealed, &other)), secret);
    }

    #[test]
    fn ranges_hold_their_ends_and_refuse_the_unrated() {
        let range = RatingRange {
            min: Some(1400.0),
            max: Some(1600.0),
        };
        assert!(range.contains(Some(1400.0)) && range.contains(Some(1600.0)));
        assert!(!range.contains(Some(1399.9)) && !range.contains(None));
        assert!(RatingRange::default().contains(Some(0.0)));
    }
}
