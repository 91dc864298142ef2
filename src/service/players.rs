//! Players: registration (a protected name and its key), the seed's persistent scores (seed 001)
//! and Glicko-2 ratings, per game, and the leaderboard.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::seats::PlayerName;
use super::tokens::{self, TokenHash};
use super::{ServiceError, ServiceResult, Services};
use crate::rating::Rating;
use crate::store::{
    BoardCursor, BoardQuery, BoardRow, BoardSort, PlayerRecord, PlayerStats, RatingRow,
    ScoreHolder, StoreError,
};

/// Body of `POST /v1/players`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "alice"}))]
pub struct RegisterRequest {
    /// 1–32 characters, not only spaces, no control characters, no invisible characters
    /// (Unicode's Default_Ignorable_Code_Point: zero-width characters, bidirectional controls,
    /// variation selectors …), and not `AI` (reserved for AI seats). Compared without case and
    /// Unicode look-alikes: once "alice" is registered, "Alice" and "ＡＬＩＣＥ" are taken too.
    #[schema(schema_with = crate::games::player_schema::player_name)]
    pub name: String,
}

/// A newly registered player and their key, shown only this once.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"name": "alice", "registered": true, "key": "9b2e…64 hex characters"}))]
pub struct Registered {
    pub name: String,
    pub registered: bool,
    /// The player's secret: `Authorization: Bearer <key>` on create claims seat 0 for this
    /// player, and on `join` the open seat. Stored only as a hash: it cannot be shown again.
    pub key: String,
}

/// A player's record in one game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Stats {
    #[schema(example = 1100)]
    pub score: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// A rating in one game, with how many rated games made it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RatingView {
    #[serde(flatten)]
    pub rating: Rating,
    pub games: i64,
}

/// A player, their score in each scored game and their rating in each rated game.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"name": "alice", "registered": true, "scores": {"gomoku": {"score": 1100, "wins": 1, "losses": 0, "draws": 0}}, "ratings": {"gomoku": {"rating": 1662.3, "deviation": 290.3, "volatility": 0.06, "games": 1}}, "gomoku": {"score": 1100, "wins": 1, "losses": 0, "draws": 0}}))]
pub struct Player {
    #[schema(example = "alice")]
    pub name: String,
    /// Whether this is a registered player's record (a name protected by a key); `false`: a
    /// guest name's record, which registering that name neither inherits nor removes.
    pub registered: bool,
    /// The seed's scores by game: every player starts at 1000, +100 a win, −100 a loss (only in a
    /// game against the AI, or between registered players who each took their own seat).
    pub scores: BTreeMap<String, Stats>,
    /// Glicko-2 ratings by game (registered players, rated games only).
    pub ratings: BTreeMap<String, RatingView>,
    /// The Gomoku score again, where clients of the first API version read it.
    #[deprecated(note = "read `scores.gomoku`")]
    pub gomoku: Option<Stats>,
}

/// One line of the leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct RankedPlayer {
    pub rank: usize,
    pub name: String,
    pub registered: bool,
    /// The seed's score (absent for a player who has a rating in this game but no score).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<i64>,
    /// The Glicko-2 rating, once a rated game moved it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingView>,
}

/// What the leaderboard sorts by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortBy {
    /// The seed's score, highest first; ties: guests before registered players, each by name.
    #[default]
    Score,
    /// The Glicko-2 rating, highest first; ties by name. Lists players with a rating.
    Rating,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    #[schema(example = "gomoku")]
    pub game: String,
    pub sort: SortBy,
    pub players: Vec<RankedPlayer>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// A leaderboard request, checked.
#[derive(Debug)]
pub struct BoardRequest {
    pub game: &'static str,
    pub sort: SortBy,
    pub registered_only: bool,
    pub cursor: Option<String>,
    pub limit: i64,
}

fn stats(s: &PlayerStats) -> Stats {
    Stats {
        score: s.score,
        wins: s.wins,
        losses: s.losses,
        draws: s.draws,
    }
}

fn rating_view(row: &RatingRow) -> RatingView {
    RatingView {
        rating: row.rating(),
        games: row.games,
    }
}

/// What AI seats are called when the creator names them not; reserved.
pub const AI_NAME: &str = "AI";

/// Registers a name; 409 when it (or a look-alike) is registered already; 422 for a name no
/// player may take (invisible characters, or "AI", which only AI seats are called).
pub async fn register(svc: &Services, request: RegisterRequest) -> ServiceResult<Registered> {
    let name = PlayerName::parse(&request.name)?;
    let (key, hash) = tokens::issue();
    let record = PlayerRecord {
        canonical: name.canonical(),
        name: name.as_str().to_owned(),
        key_hash: hash.0.to_vec(),
        created_at: crate::store::now(),
    };
    match svc.store.register_player(&record).await {
        Ok(()) => Ok(Registered {
            name: record.name,
            registered: true,
            key,
        }),
        Err(StoreError::Conflict) => Err(ServiceError::Conflict(format!(
            "the name {:?} is registered already (names are compared without case and look-alikes)",
            name.as_str()
        ))),
        Err(e) => Err(e.into()),
    }
}

/// A new key for the player `raw` names, given their current key, which stops working at once.
pub async fn rotate_key(
    svc: &Services,
    raw: &str,
    key: Option<&TokenHash>,
) -> ServiceResult<Registered> {
    let key = key.ok_or_else(|| {
        ServiceError::Unauthenticated(
            "a key is rotated with the current one: `Authorization: Bearer <player key>`".into(),
        )
    })?;
    let player = by_key(svc, key).await?;
    let named = PlayerName::lookup(raw).map(|n| n.canonical());
    if named.ok().as_deref() != Some(player.canonical.as_str()) {
        return Err(ServiceError::Forbidden(format!(
            "this key is {:?}'s, not {:?}'s",
            player.name,
            raw.chars().take(40).collect::<String>()
        )));
    }
    let (fresh, hash) = tokens::issue();
    if !svc.store.rotate_player_key(&key.0, &hash.0).await? {
        return Err(ServiceError::Conflict(
            "the key was rotated by another request meanwhile".into(),
        ));
    }
    Ok(Registered {
        name: player.name,
        registered: true,
        key: fresh,
    })
}

/// The registered player a key belongs to: 401 for an unknown key, 403 for a seat token.
pub async fn by_key(svc: &Services, key: &TokenHash) -> ServiceResult<PlayerRecord> {
    if let Some(player) = svc.store.player_by_key(&key.0).await? {
        return Ok(player);
    }
    if svc.store.token_known(&key.0).await? {
        return Err(ServiceError::Forbidden(
            "this is a seat token, not a player key: a seat is claimed with the key `POST /v1/players` returned".into(),
        ));
    }
    Err(ServiceError::Unauthenticated("unknown player key".into()))
}

/// The registered player holding `name` (compared canonically), if any.
pub async fn registered(svc: &Services, name: &PlayerName) -> ServiceResult<Option<PlayerRecord>> {
    Ok(svc.store.registered_player(&name.canonical()).await?)
}

/// A player by name; 404 for a name neither registered nor ever seated at a scored game. A
/// registered name shows its player's record (never a guest's of the same name, which `guest`
/// asks for); any other name its guest record.
pub async fn player(svc: &Services, raw: &str, guest: bool) -> ServiceResult<Player> {
    let not_found = || {
        ServiceError::NotFound(format!(
            "no {} named {:?} is registered or has played a scored game",
            if guest { "guest" } else { "player" },
            raw.chars().take(40).collect::<String>()
        ))
    };
    let name = PlayerName::lookup(raw).map_err(|_| not_found())?;
    let registered = match guest {
        true => None,
        false => registered(svc, &name).await?,
    };
    let holder = match &registered {
        // A registered player answers to every look-alike of their name.
        Some(p) => ScoreHolder {
            name: p.name.clone(),
            player: Some(p.canonical.clone()),
        },
        None => ScoreHolder::guest(name.as_str()),
    };
    let rows = svc.store.player_stats(&holder).await?;
    let ratings = match &registered {
        Some(p) => svc.store.ratings(&p.canonical).await?,
        None => Vec::new(),
    };
    if rows.is_empty() && registered.is_none() {
        return Err(not_found());
    }
    let scores: BTreeMap<String, Stats> = rows.iter().map(|r| (r.game.clone(), stats(r))).collect();
    #[allow(deprecated)]
    Ok(Player {
        name: holder.name,
        registered: registered.is_some(),
        gomoku: scores.get("gomoku").cloned(),
        scores,
        ratings: ratings
            .iter()
            .map(|r| (r.game.clone(), rating_view(r)))
            .collect(),
    })
}

/// One page of a game's leaderboard.
pub async fn leaderboard(svc: &Services, request: BoardRequest) -> ServiceResult<Leaderboard> {
    let after = request
        .cursor
        .as_deref()
        .map(|c| Cursor::decode(c, request.sort))
        .transpose()?;
    let sort = match request.sort {
        SortBy::Score => BoardSort::Score,
        SortBy::Rating => BoardSort::Rating,
    };
    // One row more than asked says whether a next page exists.
    let mut rows = svc
        .store
        .leaderboard(&BoardQuery {
            game: request.game.to_owned(),
            sort,
            registered_only: request.registered_only,
            after: after.as_ref().map(|c| c.key.clone()),
            limit: request.limit + 1,
        })
        .await?;
    let more = rows.len() as i64 > request.limit;
    rows.truncate(request.limit as usize);
    let first_rank = after.as_ref().map_or(1, |c| c.rank + 1);
    let next_cursor = match rows.last() {
        Some(last) if more => Some(
            Cursor {
                rank: first_rank + rows.len() - 1,
                key: BoardCursor {
                    value: sort_value(last, request.sort),
                    name: last.key.clone(),
                },
            }
            .encode(),
        ),
        _ => None,
    };
    let players = rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| ranked(first_rank + i, row))
        .collect();
    Ok(Leaderboard {
        game: request.game.into(),
        sort: request.sort,
        players,
        next_cursor,
    })
}

fn sort_value(row: &BoardRow, sort: SortBy) -> f64 {
    match sort {
        SortBy::Score => row.score.unwrap_or_default() as f64,
        SortBy::Rating => row.rating.unwrap_or_default(),
    }
}

fn ranked(rank: usize, row: BoardRow) -> RankedPlayer {
    let rating = match (row.rating, row.deviation, row.volatility, row.rated_games) {
        (Some(rating), Some(deviation), Some(volatility), Some(games)) => Some(RatingView {
            rating: Rating {
                rating,
                deviation,
                volatility,
            },
            games,
        }),
        _ => None,
    };
    RankedPlayer {
        rank,
        name: row.name,
        registered: row.registered,
        score: row.score,
        wins: row.wins,
        losses: row.losses,
        draws: row.draws,
        rating,
    }
}

/// Where the next page starts: the last row's rank, sort value and name. Opaque to clients (hex
/// of `rank:value:name`).
#[derive(Debug, Clone, PartialEq)]
struct Cursor {
    rank: usize,
    key: BoardCursor,
}

impl Cursor {
    fn encode(&self) -> String {
        hex::encode(format!(
            "{}:{:?}:{}",
            self.rank, self.key.value, self.key.name
        ))
    }

    fn decode(text: &str, sort: SortBy) -> ServiceResult<Cursor> {
        let bad = || {
            ServiceError::BadInput(
                "cursor is not one this leaderboard returned (pass `next_cursor` as it came)"
                    .into(),
            )
        };
        let bytes = hex::decode(text).map_err(|_| bad())?;
        let text = String::from_utf8(bytes).map_err(|_| bad())?;
        let mut parts = text.splitn(3, ':');
        let (rank, value, name) = (
            parts.next().ok_or_else(bad)?,
            parts.next().ok_or_else(bad)?,
            parts.next().ok_or_else(bad)?,
        );
        let rank: usize = rank.parse().map_err(|_| bad())?;
        let value: f64 = value.parse().map_err(|_| bad())?;
        if !value.is_finite() || (sort == SortBy::Score && value.fract() != 0.0) {
            return Err(bad());
        }
        Ok(Cursor {
            rank,
            key: BoardCursor {
                value,
                name: name.to_owned(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_what_they_did_not_make() {
        let cursor = Cursor {
            rank: 20,
            key: BoardCursor {
                value: 1_562.312_345_678_9,
                name: "a:b é".into(),
            },
        };
        assert_eq!(
            Cursor::decode(&cursor.encode(), SortBy::Rating).unwrap(),
            cursor
        );
        assert!(
            Cursor::decode(&cursor.encode(), SortBy::Score).is_err(),
            "a score is a whole number"
        );
        for bad in [
            "",
            "zz",
            &hex::encode("x:1:a"),
            &hex::encode("1:inf:a"),
            &hex::encode("1:2"),
        ] {
            assert!(Cursor::decode(bad, SortBy::Score).is_err(), "{bad}");
        }
    }
}
