//! Creating and reading a game, moves, AI moves and take-backs.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;
use sqlx::types::Json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{
    ai_only, ai_seed, check_if_match, driven_by_owner, ensure_active, game_of, is_rated, load,
    load_as_seat, load_record, missing_token, rendered, save, seat_kinds, seat_of, state_json,
    timing, AiAllowance, Change, CreatedGame, Loaded, Outcome, SeatInvite, SeatToken,
    DEFAULT_AI_TIME_MS, MAX_AI_TIME_MS,
};
use crate::games::{AiBudget, AiLevel, Seat, SeatKind, SeatKindWord, TurnGame};
use crate::service::players;
use crate::service::resource::{render, status_of, turn_of, GameResource};
use crate::service::seats::{PlayerName, Reservation, SeatPlan};
use crate::service::tokens::{self, TokenHash};
use crate::service::{ServiceError, ServiceResult, Services};
use crate::store::{GameRow, NewGame, PlayerRecord, SeatRow};

/// Think time of an AI seat the server plays by itself (`auto_ai`): short, since a human waits for
/// every AI seat before the answer comes.
const AUTO_AI_TIME_MS: u64 = 200;

/// Body of `ai-move`; every field is optional and an empty body is fine.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"time_ms": 500}))]
pub struct AiMoveRequest {
    /// Defaults to the AI seat's level, or `normal` for a hint to a human seat. Refused (409) in
    /// a rated game, whose AI seat plays at its own level.
    pub level: Option<AiLevel>,
    /// Think-time budget, 1..=10000 ms (default 500). Refused (409) in a rated game.
    #[schema(minimum = 1, maximum = 10000)]
    pub time_ms: Option<u64>,
    /// Play the move (default: true for an AI seat; false for a human seat, which gets a hint).
    /// A rated game gives no hint and no preview: only an AI seat's move, played.
    pub apply: Option<bool>,
}

/// A new game. `claimant` is a player key (`Authorization` on create): it seats its registered
/// player at seat 0. Every other seat that names a registered player is refused (403): only the
/// player's own key seats them, here or through `join`. A table of AIs alone gets an owner token.
pub async fn create<G: TurnGame>(
    svc: &Services,
    options: G::Options,
    mut options_json: serde_json::Value,
    claimant: Option<&TokenHash>,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<CreatedGame<G>> {
    let specs = G::players(&options);
    let range = G::seat_range();
    if !range.contains(&specs.len()) {
        let wanted = if range.start() == range.end() {
            format!("exactly {}", range.start())
        } else {
            format!("{} to {}", range.start(), range.end())
        };
        return Err(ServiceError::Invalid(format!(
            "{} needs {wanted} players, not {}",
            G::NAME,
            specs.len()
        )));
    }
    let plans = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| SeatPlan::parse(i, spec))
        .collect::<Result<Vec<_>, _>>()?;
    let holders = claimed_seats(svc, &plans, claimant).await?;
    let kinds: Vec<SeatKind> = plans.iter().map(|p| p.kind).collect();
    // A fixed deal with a seat open to others lets the creator know that seat's cards: only a
    // test table may, and only with seats whose guests are invited (and see `deck`).
    let open_to_anyone = |p: &SeatPlan| p.kind == SeatKind::Open && p.reserved.is_none();
    let refused = match G::test_table(&options) {
        true => plans.iter().position(open_to_anyone),
        false => kinds.iter().position(|k| *k == SeatKind::Open),
    };
    if let (Some(option), Some(open)) = (G::fixed_deal(&options), refused) {
        return Err(ServiceError::Invalid(format!(
            "`{option}` fixes the deal in advance, so whoever created the game would know the \
             cards of whoever joins seat {open}: a game with `{option}` has no open seat (name \
             every human seat, as in a hot-seat game, or seat AIs), unless it is a test table \
             (`\"test\": true`) whose open seats are by invitation"
        )));
    }
    let reserved_for = reserved_players(svc, &plans).await?;
    let mut game = G::new(&options, &kinds, rand::random())?;
    if let Some(object) = options_json.as_object_mut() {
        object.remove("players");
    }
    if !kinds.contains(&SeatKind::Open) && !game.waits_for_start() {
        game.start(&kinds)?;
    }

    let mut tokens = Vec::new();
    let mut invites = Vec::new();
    let mut seat_rows = Vec::new();
    let owner = ai_only(&kinds).then(tokens::issue);
    for (seat, plan) in plans.iter().enumerate() {
        let invite_hash = if plan.reserved == Some(Reservation::Invite) {
            let (code, hash) = tokens::issue();
            invites.push(SeatInvite { seat, code });
            Some(hash.0.to_vec())
        } else {
            None
        };
        let token_hash = if plan.kind == SeatKind::Human {
            let (token, hash) = tokens::issue();
            tokens.push(SeatToken { seat, token });
            Some(hash.0.to_vec())
        } else {
            None
        };
        // A table of AIs alone keeps its owner token as seat 0's.
        let token_hash = match (seat, &owner) {
            (0, Some((_, hash))) => Some(hash.0.to_vec()),
            _ => token_hash,
        };
        let holder = holders.get(&seat);
        seat_rows.push(SeatRow {
            seat: seat as i32,
            // A registered player's seat shows the name as registered.
            name: holder
                .map(|p| p.name.clone())
                .or_else(|| plan.name.as_ref().map(|n| n.as_str().to_owned())),
            player: holder.map(|p| p.canonical.clone()),
            kind: SeatKindWord::from(plan.kind),
            level: match plan.kind {
                SeatKind::Ai(level) => Some(level.as_str().into()),
                _ => None,
            },
            token_hash,
            invite_hash,
            reserved_for: reserved_for.get(&seat).cloned(),
        });
    }
    let (mut row, new_game) = new_game(svc, &mut game, seat_rows.clone(), Some(options_json))?;
    if let Some(seq) = svc.store.create_game(&new_game).await? {
        svc.live.lobby_moved(seq);
    }
    let bytes = new_game.state.get().len();
    row.state = Some(Json(new_game.state));
    let game = Arc::new(game);
    svc.loaded.put(&row, &game, bytes);
    // AI seats to act first (UNO with `auto_ai`) play before the creator gets the game.
    let mut loaded = Loaded {
        record: crate::store::GameRecord {
            row,
            seats: seat_rows,
        },
        game,
    };
    let events = if loaded.record.row.status == crate::games::GameStatus::Active {
        play_ai_seats(svc, &mut loaded, allow_ai).await?
    } else {
        Vec::new()
    };
    // The creator sees the game as its first human seat would (its own hand, if any).
    let viewer = tokens.first().map(|t| t.seat);
    Ok(CreatedGame {
        game: rendered(svc, &loaded, viewer)?,
        tokens,
        invites,
        owner_token: owner.map(|(token, _)| token),
        events,
    })
}

/// A new game's row, and what the store inserts of it: the state, the seats, the score rows of its
/// players, the lobby's announcement and the create `options` (without `players`). A game that
/// starts at once starts its clock.
pub(crate) fn new_game<G: TurnGame>(
    svc: &Services,
    game: &mut G,
    seats: Vec<SeatRow>,
    options: Option<serde_json::Value>,
) -> ServiceResult<(GameRow, NewGame)> {
    let scored_players = if G::SCORED {
        seats
            .iter()
            .filter(|s| s.kind == SeatKindWord::Human)
            .filter_map(super::score_holder)
            .collect()
    } else {
        Vec::new()
    };
    let now = svc.timing.time.now();
    let status = status_of(&*game, &seats);
    super::timing::run_clock(game, None, status, svc.timing.time.now_ms());
    let sweep_at_ms = super::timing::sweep_at(&*game, status, &svc.timing);
    let row = GameRow {
        id: Uuid::now_v7(),
        game: G::NAME.into(),
        status,
        version: 0,
        turn: turn_of(game, status).map(|t| t as i32),
        // Filled in after the insert, which takes the state.
        state: None,
        result: None,
        created_at: now,
        updated_at: now,
        sweep_at_ms,
    };
    let lobby = super::lobby_note(crate::store::LobbyKind::Created, &row, &seats)?;
    let new_game = NewGame {
        id: row.id,
        game: row.game.clone(),
        status: row.status,
        turn: row.turn,
        state: state_json(&*game)?,
        seats,
        scored_players,
        lobby,
        at: now,
        sweep_at_ms,
        options,
        rematch_of: None,
    };
    Ok((row, new_game))
}

/// The registered players open seats are reserved for (`{"open": {"for": …}}`), by seat: their
/// canonical names. A name nobody registered is refused (422): no key could ever take the seat.
async fn reserved_players(
    svc: &Services,
    plans: &[SeatPlan],
) -> ServiceResult<HashMap<Seat, String>> {
    let mut reserved = HashMap::new();
    for (seat, plan) in plans.iter().enumerate() {
        let Some(Reservation::Player(name)) = &plan.reserved else {
            continue;
        };
        match players::registered(svc, name).await? {
            Some(player) => {
                reserved.insert(seat, player.canonical);
            }
            None => {
                return Err(ServiceError::Invalid(format!(
                    "seat {seat} is reserved for {:?}, but no player registered that name: \
                     a seat reserved for a player waits for that player's key",
                    name.as_str()
                )))
            }
        }
    }
    Ok(reserved)
}

/// The seats a create request may fill with registered players: seat 0 for the key's player,
/// and no other seat named after a registered player.
async fn claimed_seats(
    svc: &Services,
    plans: &[SeatPlan],
    claimant: Option<&TokenHash>,
) -> ServiceResult<HashMap<Seat, PlayerRecord>> {
    let mut holders = HashMap::new();
    if let Some(key) = claimant {
        let player = players::by_key(svc, key).await?;
        let first = &plans[0];
        let named = first
            .name
            .as_ref()
            .filter(|_| first.kind == SeatKind::Human);
        match named {
            None => {
                return Err(ServiceError::Invalid(format!(
                    "a player key claims seat 0 for {:?}: seat 0 must be {{\"name\": {:?}}}",
                    player.name, player.name
                )))
            }
            Some(name) if name.canonical() != player.canonical => {
                return Err(ServiceError::Forbidden(format!(
                    "this key is {:?}'s, but seat 0 names {:?}",
                    player.name,
                    name.as_str()
                )))
            }
            Some(_) => {
                holders.insert(0, player);
            }
        }
    }
    for (seat, plan) in plans.iter().enumerate() {
        let Some(name) = &plan.name else { continue };
        // "AI" is what unnamed AI seats are called; nobody can register it.
        let default_ai_name = plan.kind.is_ai() && name.as_str() == players::AI_NAME;
        if holders.contains_key(&seat) || default_ai_name {
            continue;
        }
        if players::registered(svc, name).await?.is_some() {
            return Err(registered_name(seat, name));
        }
    }
    Ok(holders)
}

/// 403 for a seat that names a registered player without that player's key.
pub(super) fn registered_name(seat: Seat, name: &PlayerName) -> ServiceError {
    ServiceError::Forbidden(format!(
        "seat {seat}: {:?} is a registered name; only its player's key seats it \
         (`Authorization: Bearer <player key>` on create for seat 0, or on join)",
        name.as_str()
    ))
}

/// A conditional read's answer.
pub enum Read<V> {
    /// The client holds the current version of its view (304): the version and the viewer.
    Unchanged(i64, Option<Seat>),
    Fresh(Box<GameResource<V>>),
}

/// The game as the token's seat (or a spectator) sees it.
/// `unchanged` says whether the client already holds that version of that viewer's view
/// (`If-None-Match`); it is asked before the state is parsed and rendered, so a 304 costs only the
/// row load.
pub async fn get<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    unchanged: impl FnOnce(i64, Option<Seat>) -> bool,
) -> ServiceResult<Read<G::View>> {
    let fetched = load_record::<G>(svc, id).await?;
    let record = &fetched.record;
    // The token is checked first: a 304 must not tell a wrong token anything either.
    let viewer = seat_of(svc, record, token).await?;
    // A clock that ran out is settled before anybody sees the game.
    let now_ms = svc.timing.time.now_ms();
    if record.row.sweep_at_ms.is_some_and(|at| at < now_ms) {
        let loaded = load::<G>(svc, id).await?;
        if unchanged(loaded.record.row.version, viewer) {
            return Ok(Read::Unchanged(loaded.record.row.version, viewer));
        }
        return Ok(Read::Fresh(Box::new(rendered(svc, &loaded, viewer)?)));
    }
    if unchanged(record.row.version, viewer) {
        return Ok(Read::Unchanged(record.row.version, viewer));
    }
    let game = game_of::<G>(svc, &fetched)?;
    let resource = render(&record.row, &record.seats, &*game, viewer, &svc.timing)?;
    Ok(Read::Fresh(Box::new(resource)))
}

/// One move for the token's seat, then (for a game with `auto_ai`) the AI seats' answers.
pub async fn play<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    mv: G::Move,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<Outcome<G>> {
    let (mut loaded, seat) = load_as_seat::<G>(svc, id, token, if_match).await?;
    ensure_active(&loaded)?;
    if !loaded.game.may_act(seat, &mv) {
        return Err(match loaded.game.turn() {
            Some(expected) => ServiceError::NotYourTurn(format!(
                "it is seat {expected}'s turn, not seat {seat}'s"
            )),
            None => ServiceError::GameOver,
        });
    }
    let mut events = loaded.change(svc, |game| game.apply(seat, &mv))?;
    let change = Change::by(Some(seat), G::log_entry(&mv));
    save(svc, &mut loaded, change, &events).await?;
    svc.metrics
        .moves_applied
        .with_label_values(&[G::NAME])
        .inc();
    events.extend(play_ai_seats(svc, &mut loaded, allow_ai).await?);
    Ok(Outcome::of(rendered(svc, &loaded, Some(seat))?, events))
}

/// Plays AI seats for a game with `auto_ai` until a human must (or could) act or the game ends:
/// at most two rounds of the table, each move admitted by `allow_ai`. A table of AIs alone is
/// not auto-played: it plays a move per `ai-move` of its owner.
pub(super) async fn play_ai_seats<G: TurnGame>(
    svc: &Services,
    loaded: &mut Loaded<G>,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<Vec<G::Event>> {
    let mut events = Vec::new();
    let kinds = seat_kinds(&loaded.record)?;
    if !loaded.game.auto_ai() || !kinds.contains(&SeatKind::Human) {
        return Ok(events);
    }
    for _ in 0..2 * kinds.len() {
        if loaded.game.result().is_some() || loaded.game.humans_may_interject(&kinds) {
            break;
        }
        let Some(seat) = loaded.game.turn() else {
            break;
        };
        let SeatKind::Ai(level) = kinds[seat] else {
            break;
        };
        if !allow_ai() {
            break;
        }
        let auto = Duration::from_millis(AUTO_AI_TIME_MS);
        let budget = timing::ai_time(&*loaded.game, seat, &svc.timing, Some(auto), auto);
        let choice = think(svc, loaded, seat, level, budget).await?;
        // The clock ran out while it thought: the flag ends its turn instead.
        if timing::settle(svc, loaded).await? {
            break;
        }
        let caused = loaded.change(svc, |game| game.apply(seat, &choice.chosen))?;
        let change = Change::by(Some(seat), G::log_entry(&choice.chosen));
        save(svc, loaded, change, &caused).await?;
        events.extend(caused);
    }
    Ok(events)
}

/// Runs the AI for `seat` on the pool and records how long it thought.
async fn think<G: TurnGame>(
    svc: &Services,
    loaded: &Loaded<G>,
    seat: Seat,
    level: AiLevel,
    time: Duration,
) -> ServiceResult<crate::games::AiChoice<G::Move>> {
    let thinker = loaded.game.clone();
    let seed = ai_seed(loaded.record.row.id, loaded.record.row.version);
    let started = Instant::now();
    let choice = svc
        .ai
        .run_wide(move |threads| {
            thinker.choose_move(
                seat,
                level,
                AiBudget {
                    time,
                    threads,
                    seed,
                },
            )
        })
        .await??;
    svc.metrics
        .ai_think_seconds
        .with_label_values(&[G::NAME, level.as_str()])
        .observe(started.elapsed().as_secs_f64());
    Ok(choice)
}

/// An AI move for the seat to act: played for an AI seat, a hint (unless `apply`) for a human one.
/// A table of AIs alone plays only on its owner's request.
pub async fn ai_move<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    request: AiMoveRequest,
    allow_ai: AiAllowance<'_>,
) -> ServiceResult<Outcome<G>> {
    let time_ms = request.time_ms.unwrap_or(DEFAULT_AI_TIME_MS);
    if request.time_ms.is_some() && !(1..=MAX_AI_TIME_MS).contains(&time_ms) {
        return Err(ServiceError::Invalid(format!(
            "time_ms must be 1 to {MAX_AI_TIME_MS}, not {time_ms}"
        )));
    }
    let mut loaded = load::<G>(svc, id).await?;
    check_if_match("game", loaded.record.row.version, if_match)?;
    ensure_active(&loaded)?;
    let Some(seat) = loaded.game.turn() else {
        return Err(ServiceError::IllegalMove("no seat is to act".into()));
    };
    let viewer = seat_of(svc, &loaded.record, token).await?;
    driven_by_owner(&loaded.record, token)?;
    if is_rated(&*loaded.game, &loaded.record.seats) {
        rated_ai_move(seat, seat_kinds(&loaded.record)?[seat], viewer, &request)?;
    }
    let (level, apply) = match seat_kinds(&loaded.record)?[seat] {
        SeatKind::Ai(level) => {
            let apply = request.apply.unwrap_or(true);
            // An AI seat's unplayed choice would show a card of a hidden hand.
            if !apply && G::PRIVATE_VIEWS {
                return Err(ServiceError::Invalid(format!(
                    "seat {seat} is an AI with a hidden hand: its move can only be played (`apply`: true)"
                )));
            }
            (request.level.unwrap_or(level), apply)
        }
        _ => {
            // A human seat's hint may reveal what only that seat sees: its token is required.
            match viewer {
                Some(v) if v == seat => {}
                Some(_) => {
                    return Err(ServiceError::Forbidden(format!(
                        "only seat {seat}'s token may ask for a move for seat {seat}"
                    )))
                }
                None => {
                    return Err(ServiceError::Unauthenticated(format!(
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
    let asked = request.time_ms.map(Duration::from_millis);
    let default = Duration::from_millis(DEFAULT_AI_TIME_MS);
    let time = match apply {
        // A played move thinks within the seat's clock; a hint is the asker's own time.
        true => timing::ai_time(&*loaded.game, seat, &svc.timing, asked, default),
        false => asked.unwrap_or(default),
    };
    let choice = think(svc, &loaded, seat, level, time).await?;
    // The clock ran out while it thought: the flag ends the turn, and the move is not played.
    if apply && timing::settle(svc, &mut loaded).await? {
        return Ok(Outcome {
            game: rendered(svc, &loaded, viewer)?,
            events: Vec::new(),
            chosen: Some(choice.chosen),
            analysis: None,
            applied: Some(false),
        });
    }
    // What the AI saw of a hidden hand stays with that hand's seat.
    let analysis = if G::PRIVATE_VIEWS && viewer != Some(seat) {
        None
    } else {
        choice.analysis
    };
    let mut events = Vec::new();
    if apply {
        events = loaded.change(svc, |game| game.apply(seat, &choice.chosen))?;
        let change = Change::by(Some(seat), G::log_entry(&choice.chosen));
        save(svc, &mut loaded, change, &events).await?;
        svc.metrics
            .moves_applied
            .with_label_values(&[G::NAME])
            .inc();
        events.extend(play_ai_seats(svc, &mut loaded, allow_ai).await?);
    }
    Ok(Outcome {
        game: rendered(svc, &loaded, viewer)?,
        events,
        chosen: Some(choice.chosen),
        analysis,
        applied: Some(apply),
    })
}

/// What a rated game allows of `ai-move`: its AI seat's own move, at the seat's level and the
/// server's think time, played, and asked for by a seat token of the game (or by the server
/// itself, `auto_ai`). No hint for a human seat, no preview, no level or time of the caller's:
/// the rating counts the game as one against that AI level, and as the human's own play.
fn rated_ai_move(
    seat: Seat,
    kind: SeatKind,
    viewer: Option<Seat>,
    request: &AiMoveRequest,
) -> ServiceResult<()> {
    let unrated = "create the game with \"rated\": false for hints, previews and take-backs";
    if viewer.is_none() {
        return Err(ServiceError::Unauthenticated(format!(
            "this game is rated: its AI seat's move is asked for with a seat token of this game \
             (`Authorization: Bearer <seat token>`); {unrated}"
        )));
    }
    if !kind.is_ai() {
        return Err(ServiceError::Conflict(format!(
            "this game is rated: seat {seat} is human and plays its own moves, so the AI gives it \
             no hint; {unrated}"
        )));
    }
    if request.level.is_some() || request.time_ms.is_some() {
        return Err(ServiceError::Conflict(format!(
            "this game is rated: AI seat {seat} plays at its own level and think time, so `level` \
             and `time_ms` are refused; {unrated}"
        )));
    }
    if request.apply == Some(false) {
        return Err(ServiceError::Conflict(format!(
            "this game is rated: AI seat {seat}'s move is played, not previewed (`apply`: false); \
             {unrated}"
        )));
    }
    Ok(())
}

/// Which way a take-back goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeBack {
    Undo,
    Redo,
}

/// Undo or redo. Any seat token of the game may ask; a table of AIs alone, its owner token.
pub async fn take_back<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    direction: TakeBack,
) -> ServiceResult<Outcome<G>> {
    let mut loaded = load::<G>(svc, id).await?;
    let kinds = seat_kinds(&loaded.record)?;
    let by = if driven_by_owner(&loaded.record, token)? {
        loaded.game.turn().unwrap_or(0)
    } else {
        seat_of(svc, &loaded.record, token)
            .await?
            .ok_or_else(missing_token)?
    };
    check_if_match("game", loaded.record.row.version, if_match)?;
    // A rated game allows no take-back: its result is final and rates once (an undo of the
    // finishing move would let it finish, and rate, again).
    if is_rated(&*loaded.game, &loaded.record.seats) {
        return Err(ServiceError::Conflict(format!(
            "this game is rated: {word} would take back a move of a rated game (and reopen a \
             finished one); create the game with \"rated\": false for take-backs and hints",
            word = match direction {
                TakeBack::Undo => "undo",
                TakeBack::Redo => "redo",
            }
        )));
    }
    // A scored game's result is final: its scores have moved. Others may take back the end
    // (two passes in Go), never an abort.
    let status = loaded.record.row.status;
    if status == crate::games::GameStatus::Aborted
        || (G::SCORED && status == crate::games::GameStatus::Finished)
    {
        return Err(ServiceError::GameOver);
    }
    let (events, word) = match direction {
        TakeBack::Undo => (loaded.change(svc, |game| game.undo(by, &kinds))?, "undo"),
        TakeBack::Redo => (loaded.change(svc, |game| game.redo(by, &kinds))?, "redo"),
    };
    let change = Change::by(Some(by), json!({ "action": word }));
    save(svc, &mut loaded, change, &events).await?;
    Ok(Outcome::of(rendered(svc, &loaded, Some(by))?, events))
}
