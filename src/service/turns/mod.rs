//! The road every move travels, once for all turn-based games:
//! auth → load → rules → compare-and-swap save + move log → response.
//!
//! `play` holds creating, reading, moving, AI moves and take-backs; `seating` joining, starting,
//! ending and messages; `log` the move log and the games' reports. This module holds what they
//! share: loading, the seat a token names, and the one way a change is saved.

mod cache;
pub mod follow;
mod log;
mod play;
mod rematch;
mod seating;
pub mod timing;

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use sqlx::types::Json;
use utoipa::ToSchema;
use uuid::Uuid;

use cache::HeldGame;
pub use cache::LoadedGames;
pub use log::{log, report, LogItem};
pub(crate) use play::new_game;
pub use play::{ai_move, create, get, play, take_back, AiMoveRequest, Read, TakeBack};
pub use rematch::rematch;
pub use seating::{
    end, join, message, offer_draw, reissue_token, start, JoinRequest, Joined, MessageRequest,
};
pub use timing::claim_victory;

use super::listing::GameSummary;
use super::resource::{render, status_of, turn_of, GameResource};
use super::tokens::TokenHash;
use super::{seats, ServiceError, ServiceResult, Services};
use crate::games::{
    AiAnalysis, AiLevel, EndReason, GameResult, GameStatus, RuleError, Seat, SeatKind,
    SeatKindWord, TurnGame,
};
use crate::rating::{AiRatings, Rating};
use crate::store::{
    Commit, GameRecord, GameRow, LobbyKind, LobbyNote, Rated, RatedGame, RatedSide, ScoreChange,
    ScoreHolder, SeatRow, StoredState,
};

/// Points a win gains and a loss costs (seed 001).
pub const SCORE_STEP: i64 = 100;
/// AI think time when the request names none, and the most it may ask for.
pub const DEFAULT_AI_TIME_MS: u64 = 500;
pub const MAX_AI_TIME_MS: u64 = 10_000;

/// A human seat's secret, returned once to whoever took the seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatToken {
    pub seat: usize,
    #[schema(example = "6f1c…64 hex characters")]
    pub token: String,
}

/// The code that takes an open seat reserved by invitation (`{"open": "invite"}`), returned
/// once to the creator, who passes it on; the server keeps only its SHA-256 hash.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatInvite {
    pub seat: usize,
    /// `join` takes this seat with `{"name": …, "invite": "<code>"}`.
    #[schema(example = "9b2e…64 hex characters")]
    pub code: String,
}

/// A new game, the tokens of its human seats, and what AI seats did before a human had to act.
#[derive(Debug, Serialize)]
pub struct CreatedGame<G: TurnGame> {
    #[serde(flatten)]
    pub game: GameResource<G::View>,
    pub tokens: Vec<SeatToken>,
    /// One code per seat reserved by invitation, shown only now (empty when none is).
    pub invites: Vec<SeatInvite>,
    /// A table of AIs alone: the token that drives it (`ai-move`, `undo`, `redo`, `end`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_token: Option<String>,
    pub events: Vec<G::Event>,
}

/// Asked before each AI move the server plays by itself (auto-play): the client's AI rate limit,
/// so that the moves a request plays count as the `ai-move`s they stand for. `false` stops
/// auto-play there, and the game waits for the next request.
pub type AiAllowance<'a> = &'a dyn Fn() -> bool;

/// The answer to every change (`moves`, `ai-move`, `undo`, `redo`, `join`, `start`, `end`,
/// `messages`): the game after it, and what happened. `move` and `analysis` are the AI's.
#[derive(Debug, Serialize)]
pub struct Outcome<G: TurnGame> {
    pub game: GameResource<G::View>,
    pub events: Vec<G::Event>,
    /// The AI's move (`ai-move` only), in the form a client posts it.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub chosen: Option<G::Move>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<AiAnalysis>,
    /// Whether the AI's move was played (`ai-move` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
}

impl<G: TurnGame> Outcome<G> {
    fn of(game: GameResource<G::View>, events: Vec<G::Event>) -> Self {
        Outcome {
            game,
            events,
            chosen: None,
            analysis: None,
            applied: None,
        }
    }
}

/// A stored game and its rules state, as loaded for a change.
struct Loaded<G> {
    record: GameRecord,
    /// Shared with the cache of loaded games until the request changes it (see [`Loaded::change`]).
    game: Arc<G>,
}

impl<G: TurnGame> Loaded<G> {
    /// Runs `rules`, a change of the game. The cache of loaded games lets go of the game first,
    /// so it is changed in place: a copy is made only while a read of the same game still holds
    /// it. The game goes back to the cache only with a saved change (`save`): after a refused
    /// change the cache does not hold it, since a refusal may have left it half-changed, and the
    /// next request reads the stored game.
    fn change<T>(
        &mut self,
        svc: &Services,
        rules: impl FnOnce(&mut G) -> Result<T, RuleError>,
    ) -> Result<T, RuleError> {
        svc.loaded.release(self.record.row.id, &self.game);
        rules(Arc::make_mut(&mut self.game))
    }
}

/// Loads a game for a change. A clock that ran out is settled first, in a change of its own: the
/// request then acts on the game as the clock left it.
async fn load<G: TurnGame>(svc: &Services, id: Uuid) -> ServiceResult<Loaded<G>> {
    let mut loaded = load_unsettled::<G>(svc, id).await?;
    timing::settle(svc, &mut loaded).await?;
    Ok(loaded)
}

/// Loads a game as stored, its clock as it is.
async fn load_unsettled<G: TurnGame>(svc: &Services, id: Uuid) -> ServiceResult<Loaded<G>> {
    let fetched = load_record::<G>(svc, id).await?;
    let game = game_of(svc, &fetched)?;
    Ok(Loaded {
        record: fetched.record,
        game,
    })
}

/// A game's row and seats, and the game as this server held it when the row was read.
struct Fetched {
    record: GameRecord,
    held: Option<HeldGame>,
}

/// The rules state stored in `fetched`: the held game when the store left the state out (the row
/// is at the held version), else parsed from the row (and then held).
fn game_of<G: TurnGame>(svc: &Services, fetched: &Fetched) -> ServiceResult<Arc<G>> {
    let record = &fetched.record;
    match &record.row.state {
        Some(state) => {
            let game = Arc::new(parse_state(record.row.id, state.0.get())?);
            svc.loaded.put(&record.row, &game, state.0.get().len());
            Ok(game)
        }
        None => fetched
            .held
            .as_ref()
            .and_then(HeldGame::game)
            .ok_or_else(|| {
                ServiceError::Internal(format!(
                    "the store left out the state of game {}, which this server does not hold",
                    record.row.id
                ))
            }),
    }
}

async fn load_record<G: TurnGame>(svc: &Services, id: Uuid) -> ServiceResult<Fetched> {
    let held = svc.loaded.held(id);
    let record = svc
        .store
        .load_game(id, held.as_ref().map(|h| h.version))
        .await?
        .filter(|r| r.row.game == G::NAME)
        .ok_or_else(|| ServiceError::not_found(format!("{} game", G::NAME)))?;
    Ok(Fetched { record, held })
}

fn parse_state<G: TurnGame>(id: Uuid, state: &str) -> ServiceResult<G> {
    serde_json::from_str(state).map_err(|e| {
        ServiceError::Internal(format!("stored state of game {id} does not parse: {e}"))
    })
}

/// The seat a token belongs to in this game; 403 for another game's token, 401 for an unknown one.
/// The owner token of a table of AIs alone names no seat: its holder sees what a spectator sees.
async fn seat_of(
    svc: &Services,
    record: &GameRecord,
    token: Option<&TokenHash>,
) -> ServiceResult<Option<Seat>> {
    let Some(token) = token else { return Ok(None) };
    // Every seat is compared, so timing does not say which one (if any) matched.
    let found = record.seats.iter().fold(None, |found, seat| {
        let matched = seat.token_hash.as_deref().is_some_and(|h| token.matches(h));
        if matched {
            Some(seat)
        } else {
            found
        }
    });
    match found {
        Some(seat) if seat.kind == SeatKindWord::Human => Ok(Some(seat.seat as Seat)),
        Some(_) => Ok(None),
        None if svc.store.token_known(&token.0).await? => Err(ServiceError::Forbidden(
            "this token belongs to another game".into(),
        )),
        None => Err(ServiceError::Unauthenticated("unknown seat token".into())),
    }
}

async fn require_seat(
    svc: &Services,
    record: &GameRecord,
    token: Option<&TokenHash>,
) -> ServiceResult<Seat> {
    seat_of(svc, record, token).await?.ok_or_else(missing_token)
}

/// Loads the game for a change by the token's seat: the seat, and the version `If-Match` names.
async fn load_as_seat<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
) -> ServiceResult<(Loaded<G>, Seat)> {
    let loaded = load::<G>(svc, id).await?;
    let seat = require_seat(svc, &loaded.record, token).await?;
    check_if_match("game", loaded.record.row.version, if_match)?;
    Ok((loaded, seat))
}

/// A table of AIs alone plays, and takes back, only on its owner's request: the token its create
/// returned (`owner_token`), which the store keeps as seat 0's.
/// Whether every seat is an AI: a table its owner drives with the create answer's `owner_token`.
fn ai_only(kinds: &[SeatKind]) -> bool {
    kinds.iter().all(|k| k.is_ai())
}

/// Whether the game is a table of AIs alone, once `token` is shown to be its owner's (401 without
/// a token, 403 with another); `false` for any other table, which checks seats instead.
fn driven_by_owner(record: &GameRecord, token: Option<&TokenHash>) -> ServiceResult<bool> {
    if !ai_only(&seat_kinds(record)?) {
        return Ok(false);
    }
    require_owner(record, token)?;
    Ok(true)
}

fn require_owner(record: &GameRecord, token: Option<&TokenHash>) -> ServiceResult<()> {
    let Some(token) = token else {
        return Err(ServiceError::Unauthenticated(
            "a table of AIs alone plays only on its owner's request: \
             `Authorization: Bearer <owner_token>` (the create answer's `owner_token`)"
                .into(),
        ));
    };
    let owner = record.seats.first().and_then(|s| s.token_hash.as_deref());
    if owner.is_some_and(|h| token.matches(h)) {
        Ok(())
    } else {
        Err(ServiceError::Forbidden(
            "only the owner token of this table of AIs (the create answer's `owner_token`) drives it"
                .into(),
        ))
    }
}

fn missing_token() -> ServiceError {
    ServiceError::Unauthenticated("this action needs `Authorization: Bearer <seat token>`".into())
}

/// 412 when the client's `If-Match` names another version than the stored one.
pub(crate) fn check_if_match(what: &str, current: i64, if_match: Option<i64>) -> ServiceResult<()> {
    match if_match {
        Some(v) if v != current => Err(ServiceError::PreconditionFailed(format!(
            "If-Match names version {v}, but the {what} is at version {current}"
        ))),
        _ => Ok(()),
    }
}

/// Moves need a game in play: not over, not waiting for seats or a start.
fn ensure_active<G: TurnGame>(loaded: &Loaded<G>) -> ServiceResult<()> {
    if loaded.game.result().is_some() {
        return Err(ServiceError::GameOver);
    }
    match loaded.record.row.status {
        GameStatus::Active => Ok(()),
        GameStatus::Waiting => Err(ServiceError::NotStarted),
        GameStatus::Finished | GameStatus::Aborted => Err(ServiceError::GameOver),
    }
}

/// The rules state as the store keeps it, serialized straight to text (no JSON tree between).
fn state_json<G: TurnGame>(game: &G) -> ServiceResult<StoredState> {
    serde_json::value::to_raw_value(game)
        .map_err(|e| ServiceError::Internal(format!("state to JSON: {e}")))
}

/// One change to save: who acted, what the log records, seats that changed.
struct Change {
    seat: Option<Seat>,
    action: Value,
    seats: Vec<SeatRow>,
    scores: Vec<ScoreChange>,
    /// Whether a seat was filled (the lobby announces it).
    joined: bool,
}

impl Change {
    fn by(seat: Option<Seat>, action: Value) -> Self {
        Change {
            seat,
            action,
            seats: Vec::new(),
            scores: Vec::new(),
            joined: false,
        }
    }
}

/// What the lobby announces of a change from `before` to `after`: an end, a start, a filled seat.
fn lobby_kind(before: GameStatus, after: GameStatus, joined: bool) -> Option<LobbyKind> {
    let moved = match (before, after) {
        (before, after) if before == after => None,
        (_, GameStatus::Finished) => Some(LobbyKind::Finished),
        (_, GameStatus::Aborted) => Some(LobbyKind::Aborted),
        (GameStatus::Waiting, GameStatus::Active) => Some(LobbyKind::Started),
        _ => None,
    };
    moved.or(joined.then_some(LobbyKind::Joined))
}

/// The lobby's note of a game as `row` and `seats` show it.
pub(crate) fn lobby_note(
    kind: LobbyKind,
    row: &GameRow,
    seats: &[SeatRow],
) -> ServiceResult<LobbyNote> {
    let entry = GameSummary::of(row, seats)?;
    Ok(LobbyNote {
        kind,
        status: row.status,
        entry: serde_json::to_value(entry).map_err(|e| ServiceError::Internal(e.to_string()))?,
    })
}

/// Stores `loaded.game` as the successor of the loaded record, with the `events` the change
/// caused, and makes the record current, so that a further change in the same request (an AI's
/// answer) chains on it. Watchers of the game in this process hear of it at once.
async fn save<G: TurnGame>(
    svc: &Services,
    loaded: &mut Loaded<G>,
    change: Change,
    events: &[G::Event],
) -> ServiceResult<()> {
    let events = serde_json::to_value(events).map_err(|e| ServiceError::Internal(e.to_string()))?;
    save_json(svc, loaded, change, events).await
}

/// [`save`] with the change's events as JSON: the server's own events (a rematch) are not the
/// rules' events.
async fn save_json<G: TurnGame>(
    svc: &Services,
    loaded: &mut Loaded<G>,
    change: Change,
    events: Value,
) -> ServiceResult<()> {
    let now = svc.timing.time.now();
    let mut seats = loaded.record.seats.clone();
    for changed in &change.seats {
        if let Some(slot) = seats.iter_mut().find(|s| s.seat == changed.seat) {
            *slot = changed.clone();
        }
    }
    let status = status_of(&*loaded.game, &seats);
    if loaded.game.clock().is_some() {
        let now_ms = svc.timing.time.now_ms();
        loaded.change(svc, |game| {
            timing::run_clock(game, change.seat, status, now_ms);
            Ok(())
        })?;
    }
    let record = &loaded.record;
    let result = loaded.game.result();
    let mut scores = change.scores;
    let mut rating = None;
    // Scores and ratings move once, in the transaction that finishes the game.
    if let (Some(result), None) = (&result, &record.row.result) {
        if G::SCORED && moves_scores(&seats) {
            scores.extend(score_changes(&seats, result));
        }
        if let Some(ai) = G::RATINGS.filter(|_| is_rated(&*loaded.game, &seats)) {
            rating = rated_game(&seats, result, &ai)?;
        }
    }
    let sweep_at_ms = timing::sweep_at(&*loaded.game, status, &svc.timing);
    let mut row = GameRow {
        id: record.row.id,
        game: record.row.game.clone(),
        status,
        version: record.row.version + 1,
        turn: turn_of(&*loaded.game, status).map(|t| t as i32),
        // Filled in after the commit, which takes the state (no copy of a long game's record).
        state: None,
        result: result
            .as_ref()
            .map(|r| serde_json::to_value(r).map(Json))
            .transpose()
            .map_err(|e| ServiceError::Internal(e.to_string()))?,
        created_at: record.row.created_at,
        updated_at: now,
        sweep_at_ms,
    };
    let lobby = lobby_kind(record.row.status, row.status, change.joined)
        .map(|kind| lobby_note(kind, &row, &seats))
        .transpose()?;
    let commit = Commit {
        game_id: row.id,
        game: row.game.clone(),
        expected_version: record.row.version,
        status: (row.status != record.row.status).then_some(row.status),
        turn: row.turn,
        state: state_json(&*loaded.game)?,
        result: row.result.as_ref().map(|r| r.0.clone()),
        seat: change.seat.map(|s| s as i32),
        action: change.action,
        seats: change.seats,
        scores,
        rating,
        events,
        seats_after: seats,
        lobby,
        at: now,
        sweep_at_ms,
    };
    let announced = svc.store.commit(&commit).await?;
    svc.live.game_moved(row.id, row.version);
    if let Some(seq) = announced {
        svc.live.lobby_moved(seq);
    }
    let bytes = commit.state.get().len();
    row.state = Some(Json(commit.state));
    svc.loaded.put(&row, &loaded.game, bytes);
    loaded.record = GameRecord {
        row,
        seats: commit.seats_after,
    };
    Ok(())
}

fn rendered<G: TurnGame>(
    svc: &Services,
    loaded: &Loaded<G>,
    viewer: Option<Seat>,
) -> ServiceResult<GameResource<G::View>> {
    render(
        &loaded.record.row,
        &loaded.record.seats,
        &*loaded.game,
        viewer,
        &svc.timing,
    )
}

/// Whether a finished game moves the seed's scores: a game of one human against the AI (the
/// seed's own case), or one whose every human seat a registered player took with their own key
/// (seat 0 at create, the others by `join`; one seat each). A creator who holds every human seat's
/// token (hot seat, or a guest name they made up joining their own game) moves nothing: that
/// would be a score anyone can give themselves, or take from any guest name.
fn moves_scores(seats: &[SeatRow]) -> bool {
    let humans: Vec<&SeatRow> = seats
        .iter()
        .filter(|s| s.kind == SeatKindWord::Human)
        .collect();
    let against_ai = seats.iter().any(|s| s.kind == SeatKindWord::Ai);
    match humans.len() {
        0 => false,
        1 => against_ai,
        _ => humans.iter().all(|s| s.player.is_some()),
    }
}

/// Whose score a seat moves: its registered player's, or its guest name's.
fn score_holder(seat: &SeatRow) -> Option<ScoreHolder> {
    let name = seat.name.clone()?;
    Some(ScoreHolder {
        name,
        player: seat.player.clone(),
    })
}

/// Seed 001's scoring, for every named human seat: +100 a win, −100 a loss, a draw counted.
fn score_changes(seats: &[SeatRow], result: &GameResult) -> Vec<ScoreChange> {
    if result.reason == EndReason::ABORTED {
        return Vec::new();
    }
    seats
        .iter()
        .filter(|s| s.kind == SeatKindWord::Human)
        .filter_map(|s| {
            let holder = score_holder(s)?;
            let outcome = SeatOutcome::of(result, s);
            Some(ScoreChange {
                holder,
                delta: match outcome {
                    SeatOutcome::Win => SCORE_STEP,
                    SeatOutcome::Loss => -SCORE_STEP,
                    SeatOutcome::Draw => 0,
                },
                win: outcome == SeatOutcome::Win,
                loss: outcome == SeatOutcome::Loss,
                draw: outcome == SeatOutcome::Draw,
            })
        })
        .collect()
}

/// How a finished game went for one seat: what both the seed's score and the rating read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeatOutcome {
    Win,
    Loss,
    Draw,
}

impl SeatOutcome {
    fn of(result: &GameResult, seat: &SeatRow) -> Self {
        if result.winners.is_empty() {
            SeatOutcome::Draw
        } else if result.winners.contains(&(seat.seat as Seat)) {
            SeatOutcome::Win
        } else {
            SeatOutcome::Loss
        }
    }

    /// Glicko-2's points: 1 a win, ½ a draw, 0 a loss.
    fn points(self) -> f64 {
        match self {
            SeatOutcome::Win => 1.0,
            SeatOutcome::Draw => 0.5,
            SeatOutcome::Loss => 0.0,
        }
    }
}

/// Whether a game moves ratings: a rated game, not created unrated (see [`TurnGame::rated`]),
/// whose every human seat is held by a registered player who claimed it with their key (one seat
/// each), with nothing left open. Such a game allows no take-back, hint or preview, and its AI
/// seats play at their own level and think time (see `play::ai_move`).
pub(crate) fn is_rated<G: TurnGame>(game: &G, seats: &[SeatRow]) -> bool {
    G::RATINGS.is_some()
        && game.rated()
        && seats.iter().any(|s| s.kind == SeatKindWord::Human)
        && seats.iter().all(|s| match s.kind {
            SeatKindWord::Human => s.player.is_some(),
            SeatKindWord::Ai => true,
            SeatKindWord::Open => false,
        })
}

/// The rating update of a finished rated game: each seat with its points (1, ½ or 0); an AI
/// seat at its level's fixed rating. An ended (aborted) game moves nothing.
fn rated_game(
    seats: &[SeatRow],
    result: &GameResult,
    ai: &AiRatings,
) -> ServiceResult<Option<RatedGame>> {
    if result.reason == EndReason::ABORTED {
        return Ok(None);
    }
    let sides = seats
        .iter()
        .map(|s| {
            let who = match (seats::kind_of(s)?, &s.player) {
                (SeatKind::Ai(level), _) => Rated::Fixed(Rating::fixed(match level {
                    AiLevel::Easy => ai.easy,
                    AiLevel::Normal => ai.normal,
                    AiLevel::Hard => ai.hard,
                })),
                (_, Some(player)) => Rated::Player(player.clone()),
                (_, None) => {
                    return Err(ServiceError::Internal(format!(
                        "seat {} of a rated game has no player",
                        s.seat
                    )))
                }
            };
            let points = SeatOutcome::of(result, s).points();
            Ok(RatedSide { who, points })
        })
        .collect::<ServiceResult<Vec<_>>>()?;
    Ok(Some(RatedGame { sides }))
}

/// A score row for a player who sits down at a scored game, so the leaderboard knows them.
fn registration(seat: &SeatRow) -> Option<ScoreChange> {
    Some(ScoreChange {
        holder: score_holder(seat)?,
        delta: 0,
        win: false,
        loss: false,
        draw: false,
    })
}

/// A reproducible seed per position: the same game at the same version thinks the same way.
fn ai_seed(id: Uuid, version: i64) -> u64 {
    let bits = id.as_u128();
    ((bits >> 64) as u64) ^ (bits as u64) ^ (version as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn seat_kinds(record: &GameRecord) -> ServiceResult<Vec<SeatKind>> {
    seats::kinds(&record.seats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(i: i32, name: &str, kind: SeatKindWord) -> SeatRow {
        SeatRow {
            seat: i,
            name: Some(name.into()),
            kind,
            level: None,
            token_hash: None,
            player: None,
            invite_hash: None,
            reserved_for: None,
        }
    }

    #[test]
    fn scores_move_against_the_ai_and_between_players_in_their_own_seats() {
        let registered = |i, name: &str| SeatRow {
            player: Some(name.into()),
            ..seat(i, name, SeatKindWord::Human)
        };
        let guest = |i, name: &str| seat(i, name, SeatKindWord::Human);
        let ai = seat(1, "AI", SeatKindWord::Ai);
        assert!(moves_scores(&[guest(0, "g"), ai.clone()]));
        assert!(moves_scores(&[registered(0, "a"), ai]));
        assert!(moves_scores(&[registered(0, "a"), registered(1, "b")]));
        // Hot seat, or a guest seat the creator may hold: nothing moves.
        assert!(!moves_scores(&[registered(0, "a"), guest(1, "g")]));
        assert!(!moves_scores(&[guest(0, "g"), guest(1, "h")]));
        // Scores are a player's, not a name's.
        let a = score_holder(&registered(0, "a")).unwrap();
        assert_eq!(a.key(), "player:a");
        assert_eq!(score_holder(&guest(0, "a")).unwrap().key(), "guest:a");
    }

    #[test]
    fn scores_follow_seed_001() {
        let seats = [
            seat(0, "alice", SeatKindWord::Human),
            seat(1, "AI", SeatKindWord::Ai),
        ];
        let win = GameResult {
            winners: vec![0],
            reason: EndReason::named("five_in_row"),
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
            reason: EndReason::DRAW,
            ..win.clone()
        };
        let d = &score_changes(&seats, &draw)[0];
        assert_eq!((d.delta, d.draw, d.win, d.loss), (0, true, false, false));
        let aborted = GameResult {
            reason: EndReason::ABORTED,
            ..win
        };
        assert!(score_changes(&seats, &aborted).is_empty());
    }
}
