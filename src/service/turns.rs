//! The road every move travels, once for all turn-based games:
//! auth → load → rules → compare-and-swap save + move log → response.

use std::time::{Duration, Instant};

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::types::Json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::resource::{render, status_of, GameResource};
use super::seats::{self, SeatPlan};
use super::tokens::{self, TokenHash};
use crate::app::AppState;
use crate::games::{AiLevel, GameResult, Seat, SeatKind, TurnGame};
use crate::http::error::ApiError;
use crate::store::{Commit, GameRecord, GameRow, NewGame, ScoreChange, SeatRow};

/// Points a win gains and a loss costs (seed 001).
pub const SCORE_STEP: i64 = 100;
/// AI think time when the request names none, and the most it may ask for.
pub const DEFAULT_AI_TIME_MS: u64 = 500;
pub const MAX_AI_TIME_MS: u64 = 10_000;

/// A human seat's secret, returned once at creation.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatToken {
    pub seat: usize,
    #[schema(example = "6f1c…64 hex characters")]
    pub token: String,
}

/// A new game and the tokens of its human seats.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedGame {
    #[serde(flatten)]
    pub game: GameResource,
    pub tokens: Vec<SeatToken>,
}

/// The game after an accepted change, with what happened.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveOutcome {
    #[serde(flatten)]
    pub game: GameResource,
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
}

/// Body of `ai-move`; every field is optional and an empty body is fine.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"level": "hard", "time_ms": 500, "apply": true}))]
pub struct AiMoveRequest {
    /// Defaults to the AI seat's level, or `normal` for a hint to a human seat.
    pub level: Option<AiLevel>,
    /// Think-time budget, 1..=10000 ms (default 500).
    #[schema(minimum = 1, maximum = 10000)]
    pub time_ms: Option<u64>,
    /// Play the move (default: true for an AI seat; false for a human seat, which gets a hint).
    pub apply: Option<bool>,
}

/// What an AI chose, and the game (after the move when it was applied).
#[derive(Debug, Serialize, ToSchema)]
pub struct AiMoveOutcome {
    /// The move, in the same form a client posts to `moves`.
    #[serde(rename = "move")]
    #[schema(value_type = Object)]
    pub chosen: Value,
    #[schema(value_type = Option<Object>)]
    pub analysis: Option<Value>,
    pub applied: bool,
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    pub game: GameResource,
}

pub async fn create<G: TurnGame>(
    app: &AppState,
    options: G::Options,
) -> Result<CreatedGame, ApiError> {
    let specs = G::players(&options);
    let range = G::seat_range();
    if !range.contains(&specs.len()) {
        return Err(ApiError::Unprocessable(format!(
            "{} takes {} to {} players, not {}",
            G::NAME,
            range.start(),
            range.end(),
            specs.len()
        )));
    }
    let open_allowed = G::OPEN_SEATS;
    let plans = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| SeatPlan::parse(i, spec, open_allowed))
        .collect::<Result<Vec<_>, _>>()?;
    let kinds: Vec<SeatKind> = plans.iter().map(|p| p.kind).collect();
    let game = G::new(&options, &kinds, rand::random())?;

    let mut tokens = Vec::new();
    let mut seat_rows = Vec::new();
    for (seat, plan) in plans.iter().enumerate() {
        let token_hash = if plan.kind == SeatKind::Human {
            let (token, hash) = tokens::issue();
            tokens.push(SeatToken { seat, token });
            Some(hash.0.to_vec())
        } else {
            None
        };
        seat_rows.push(SeatRow {
            seat: seat as i32,
            name: plan.name.as_ref().map(|n| n.as_str().to_owned()),
            kind: seats::kind_word(plan.kind).into(),
            level: match plan.kind {
                SeatKind::Ai(level) => Some(level.as_str().into()),
                _ => None,
            },
            token_hash,
        });
    }
    let scored_players = if G::SCORED {
        plans
            .iter()
            .filter(|p| p.kind == SeatKind::Human)
            .filter_map(|p| p.name.as_ref().map(|n| n.as_str().to_owned()))
            .collect()
    } else {
        Vec::new()
    };
    let now = Utc::now();
    let row = GameRow {
        id: Uuid::now_v7(),
        game: G::NAME.into(),
        status: status_of(&game, &seat_rows).into(),
        version: 0,
        turn: game.turn().map(|t| t as i32),
        state: Json(state_json(&game)?),
        result: None,
        created_at: now,
        updated_at: now,
    };
    app.store
        .create_game(&NewGame {
            id: row.id,
            game: row.game.clone(),
            status: row.status.clone(),
            turn: row.turn,
            state: row.state.0.clone(),
            seats: seat_rows.clone(),
            scored_players,
            at: now,
        })
        .await?;
    Ok(CreatedGame {
        game: render(&row, &seat_rows, &game, None),
        tokens,
    })
}

/// The game as the token's seat (or a spectator) sees it.
/// `unchanged` says whether the client already holds a version (`If-None-Match`); it is asked before
/// the state is parsed and rendered, so a 304 costs only the row load.
pub async fn get<G: TurnGame>(
    app: &AppState,
    id: Uuid,
    token: Option<&TokenHash>,
    unchanged: impl FnOnce(i64) -> bool,
) -> Result<Read, ApiError> {
    let record = load_record::<G>(app, id).await?;
    // The token is checked first: a 304 must not tell a wrong token anything either.
    let viewer = seat_of(app, &record, token).await?;
    if unchanged(record.row.version) {
        return Ok(Read::Unchanged(record.row.version));
    }
    let game: G = parse_state(&record)?;
    let resource = render(&record.row, &record.seats, &game, viewer);
    Ok(Read::Fresh(Box::new(resource)))
}

/// A conditional read's answer.
pub enum Read {
    /// The client's version is current (304).
    Unchanged(i64),
    Fresh(Box<GameResource>),
}

/// One move for the token's seat.
pub async fn play<G: TurnGame>(
    app: &AppState,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    mv: G::Move,
) -> Result<MoveOutcome, ApiError> {
    let (record, mut game) = load::<G>(app, id).await?;
    let seat = require_seat(app, &record, token).await?;
    check_version(&record, if_match)?;
    ensure_running(&game)?;
    let events = game.apply(seat, &mv)?;
    let action = serde_json::to_value(&mv).map_err(|e| ApiError::Internal(e.to_string()))?;
    let row = save(app, &record, &game, Some(seat), action).await?;
    app.metrics
        .moves_applied
        .with_label_values(&[G::NAME])
        .inc();
    Ok(MoveOutcome {
        game: render(&row, &record.seats, &game, Some(seat)),
        events,
    })
}

/// An AI move for the seat to act: played for an AI seat, a hint (unless `apply`) for a human one.
pub async fn ai_move<G: TurnGame>(
    app: &AppState,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    request: AiMoveRequest,
) -> Result<AiMoveOutcome, ApiError> {
    let time_ms = request.time_ms.unwrap_or(DEFAULT_AI_TIME_MS);
    if !(1..=MAX_AI_TIME_MS).contains(&time_ms) {
        return Err(ApiError::Unprocessable(format!(
            "time_ms must be 1 to {MAX_AI_TIME_MS}, not {time_ms}"
        )));
    }
    let (record, mut game) = load::<G>(app, id).await?;
    check_version(&record, if_match)?;
    ensure_running(&game)?;
    let Some(seat) = game.turn() else {
        return Err(ApiError::IllegalMove("no seat is to act".into()));
    };
    let viewer = seat_of(app, &record, token).await?;
    let (level, apply) = match seats::kind_of(&record.seats[seat]) {
        SeatKind::Ai(level) => (
            request.level.unwrap_or(level),
            request.apply.unwrap_or(true),
        ),
        _ => {
            // A human seat's hint may reveal what only that seat sees: its token is required.
            match viewer {
                Some(v) if v == seat => {}
                Some(_) => {
                    return Err(ApiError::Forbidden(format!(
                        "only seat {seat}'s token may ask for a move for seat {seat}"
                    )))
                }
                None => {
                    return Err(ApiError::Unauthorized(format!(
                        "seat {seat} is human: asking an AI move for it needs its token"
                    )))
                }
            }
            (
                request.level.unwrap_or_default(),
                request.apply.unwrap_or(false),
            )
        }
    };

    let thinker = game.clone();
    let seed = ai_seed(id, record.row.version);
    let budget = Duration::from_millis(time_ms);
    let started = Instant::now();
    let choice = app
        .ai
        .run(move || thinker.choose_move(seat, level, budget, seed))
        .await??;
    app.metrics
        .ai_think_seconds
        .with_label_values(&[G::NAME, level.as_str()])
        .observe(started.elapsed().as_secs_f64());

    let chosen =
        serde_json::to_value(&choice.chosen).map_err(|e| ApiError::Internal(e.to_string()))?;
    if !apply {
        return Ok(AiMoveOutcome {
            chosen,
            analysis: choice.analysis,
            applied: false,
            events: Vec::new(),
            game: render(&record.row, &record.seats, &game, viewer),
        });
    }
    let events = game.apply(seat, &choice.chosen)?;
    let row = save(app, &record, &game, Some(seat), chosen.clone()).await?;
    app.metrics
        .moves_applied
        .with_label_values(&[G::NAME])
        .inc();
    Ok(AiMoveOutcome {
        chosen,
        analysis: choice.analysis,
        applied: true,
        events,
        game: render(&row, &record.seats, &game, viewer),
    })
}

/// Which way a take-back goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeBack {
    Undo,
    Redo,
}

/// Undo or redo. Any seat token of the game may ask; a game of AIs alone needs none.
pub async fn take_back<G: TurnGame>(
    app: &AppState,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    direction: TakeBack,
) -> Result<MoveOutcome, ApiError> {
    let (record, mut game) = load::<G>(app, id).await?;
    let kinds = seats::kinds(&record.seats);
    let by = match seat_of(app, &record, token).await? {
        Some(seat) => seat,
        None if kinds.iter().all(|k| matches!(k, SeatKind::Ai(_))) => game.turn().unwrap_or(0),
        None => return Err(missing_token()),
    };
    check_version(&record, if_match)?;
    ensure_running(&game)?;
    let (events, word) = match direction {
        TakeBack::Undo => (game.undo(by, &kinds)?, "undo"),
        TakeBack::Redo => (game.redo(by, &kinds)?, "redo"),
    };
    let row = save(app, &record, &game, Some(by), json!({ "action": word })).await?;
    Ok(MoveOutcome {
        game: render(&row, &record.seats, &game, Some(by)),
        events,
    })
}

/// The move log, oldest first.
pub async fn log<G: TurnGame>(app: &AppState, id: Uuid) -> Result<Vec<LogItem>, ApiError> {
    // Loading first turns an unknown id (or another game's id) into 404 rather than an empty log.
    load_record::<G>(app, id).await?;
    let entries = app.store.move_log(id).await?;
    Ok(entries
        .into_iter()
        .map(|e| LogItem {
            seq: e.seq,
            seat: e.seat.map(|s| s as usize),
            action: e.action.0,
            at: e.at,
        })
        .collect())
}

/// One entry of a game's move log.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogItem {
    /// 1, 2, 3 …: equals the version the change produced.
    pub seq: i64,
    pub seat: Option<usize>,
    /// The move as it was posted (or `{"action": "undo"}` …).
    #[serde(rename = "move")]
    #[schema(value_type = Object)]
    pub action: Value,
    pub at: chrono::DateTime<Utc>,
}

async fn load<G: TurnGame>(app: &AppState, id: Uuid) -> Result<(GameRecord, G), ApiError> {
    let record = load_record::<G>(app, id).await?;
    let game = parse_state(&record)?;
    Ok((record, game))
}

async fn load_record<G: TurnGame>(app: &AppState, id: Uuid) -> Result<GameRecord, ApiError> {
    app.store
        .load_game(id)
        .await?
        .filter(|r| r.row.game == G::NAME)
        .ok_or_else(|| ApiError::not_found(format!("{} game", G::NAME)))
}

fn parse_state<G: TurnGame>(record: &GameRecord) -> Result<G, ApiError> {
    serde_json::from_value(record.row.state.0.clone()).map_err(|e| {
        ApiError::Internal(format!(
            "stored state of game {} does not parse: {e}",
            record.row.id
        ))
    })
}

/// The seat a token belongs to in this game; 403 for another game's token, 401 for an unknown one.
pub async fn seat_of(
    app: &AppState,
    record: &GameRecord,
    token: Option<&TokenHash>,
) -> Result<Option<Seat>, ApiError> {
    let Some(token) = token else { return Ok(None) };
    // Every seat is compared, so timing does not say which one (if any) matched.
    let found = record.seats.iter().fold(None, |found, seat| {
        let matched = seat.token_hash.as_deref().is_some_and(|h| token.matches(h));
        if matched {
            Some(seat.seat as Seat)
        } else {
            found
        }
    });
    match found {
        Some(seat) => Ok(Some(seat)),
        None if app.store.token_known(&token.0).await? => Err(ApiError::Forbidden(
            "this token belongs to another game".into(),
        )),
        None => Err(ApiError::Unauthorized("unknown seat token".into())),
    }
}

async fn require_seat(
    app: &AppState,
    record: &GameRecord,
    token: Option<&TokenHash>,
) -> Result<Seat, ApiError> {
    seat_of(app, record, token).await?.ok_or_else(missing_token)
}

fn missing_token() -> ApiError {
    ApiError::Unauthorized("this action needs `Authorization: Bearer <seat token>`".into())
}

fn check_version(record: &GameRecord, if_match: Option<i64>) -> Result<(), ApiError> {
    check_if_match("game", record.row.version, if_match)
}

/// 412 when the client's `If-Match` names another version than the stored one.
pub(crate) fn check_if_match(
    what: &str,
    current: i64,
    if_match: Option<i64>,
) -> Result<(), ApiError> {
    match if_match {
        Some(v) if v != current => Err(ApiError::PreconditionFailed(format!(
            "If-Match names version {v}, but the {what} is at version {current}"
        ))),
        _ => Ok(()),
    }
}

fn ensure_running<G: TurnGame>(game: &G) -> Result<(), ApiError> {
    match game.result() {
        Some(_) => Err(ApiError::GameOver),
        None => Ok(()),
    }
}

fn state_json<G: TurnGame>(game: &G) -> Result<Value, ApiError> {
    serde_json::to_value(game).map_err(|e| ApiError::Internal(format!("state to JSON: {e}")))
}

/// Stores `game` as the successor of `record`; the row as it now is.
async fn save<G: TurnGame>(
    app: &AppState,
    record: &GameRecord,
    game: &G,
    seat: Option<Seat>,
    action: Value,
) -> Result<GameRow, ApiError> {
    let now = Utc::now();
    let result = game.result();
    // Scores move once, in the transaction that finishes the game.
    let scores = match (&result, record.row.result.is_none()) {
        (Some(result), true) if G::SCORED => score_changes(&record.seats, result),
        _ => Vec::new(),
    };
    let row = GameRow {
        id: record.row.id,
        game: record.row.game.clone(),
        status: status_of(game, &record.seats).into(),
        version: record.row.version + 1,
        turn: game.turn().map(|t| t as i32),
        state: Json(state_json(game)?),
        result: result
            .as_ref()
            .map(|r| serde_json::to_value(r).map(Json))
            .transpose()
            .map_err(|e| ApiError::Internal(e.to_string()))?,
        created_at: record.row.created_at,
        updated_at: now,
    };
    app.store
        .commit(&Commit {
            game_id: row.id,
            game: row.game.clone(),
            expected_version: record.row.version,
            status: row.status.clone(),
            turn: row.turn,
            state: row.state.0.clone(),
            result: row.result.as_ref().map(|r| r.0.clone()),
            seat: seat.map(|s| s as i32),
            action,
            seats: Vec::new(),
            scores,
            at: now,
        })
        .await?;
    Ok(row)
}

/// Seed 001's scoring, for every named human seat: +100 a win, −100 a loss, a draw counted.
fn score_changes(seats: &[SeatRow], result: &GameResult) -> Vec<ScoreChange> {
    if result.reason == crate::games::EndReason::Aborted {
        return Vec::new();
    }
    seats
        .iter()
        .filter(|s| s.kind == "human")
        .filter_map(|s| {
            let name = s.name.clone()?;
            let draw = result.winners.is_empty();
            let win = !draw && result.winners.contains(&(s.seat as Seat));
            Some(ScoreChange {
                name,
                delta: if draw {
                    0
                } else if win {
                    SCORE_STEP
                } else {
                    -SCORE_STEP
                },
                win,
                loss: !draw && !win,
                draw,
            })
        })
        .collect()
}

/// A reproducible seed per position: the same game at the same version thinks the same way.
fn ai_seed(id: Uuid, version: i64) -> u64 {
    let bits = id.as_u128();
    ((bits >> 64) as u64) ^ (bits as u64) ^ (version as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::EndReason;

    fn seat(i: i32, name: &str, kind: &str) -> SeatRow {
        SeatRow {
            seat: i,
            name: Some(name.into()),
            kind: kind.into(),
            level: None,
            token_hash: None,
        }
    }

    #[test]
    fn scores_follow_seed_001() {
        let seats = [seat(0, "alice", "human"), seat(1, "AI", "ai")];
        let win = GameResult {
            winners: vec![0],
            reason: EndReason::FiveInRow,
            summary: String::new(),
        };
        let changes = score_changes(&seats, &win);
        assert_eq!(changes.len(), 1, "AI seats have no score");
        assert_eq!((changes[0].delta, changes[0].win), (100, true));
        let loss = GameResult {
            winners: vec![1],
            ..win.clone()
        };
        assert_eq!(score_changes(&seats, &loss)[0].delta, -100);
        let draw = GameResult {
            winners: vec![],
            reason: EndReason::Draw,
            ..win.clone()
        };
        let d = &score_changes(&seats, &draw)[0];
        assert_eq!((d.delta, d.draw, d.win, d.loss), (0, true, false, false));
        let aborted = GameResult {
            reason: EndReason::Aborted,
            ..win
        };
        assert!(score_changes(&seats, &aborted).is_empty());
    }
}
