//! Game clocks as the service runs them: charged with the service's own time on every change,
//! settled when they run out (by the next request that touches the game, or by the sweeper), and
//! the win an untimed game's seat may claim when its opponent walks away.

use std::collections::HashMap;
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::StreamExt;
use serde_json::json;
use uuid::Uuid;

use super::{load_as_seat, load_unsettled, rendered, save, Change, Loaded, Outcome};
use crate::games::clock::{Expiry, TimeControl};
use crate::games::registry::{Games, TurnGameVisitor};
use crate::games::{EndReason, GameStatus, Seat, SeatKindWord, TurnGame};
use crate::service::resource::turn_of;
use crate::service::time::Timing;
use crate::service::tokens::TokenHash;
use crate::service::{ServiceError, ServiceResult, Services};

/// How long a sweeper's claim on an overdue game holds before another sweeper may take it.
const CLAIM_LEASE_MS: i64 = 10_000;
/// Overdue games one sweep claims at a time.
const CLAIM_BATCH: i64 = 200;
/// Claimed games settled at once: their loads and commits overlap on the database's connections.
const SETTLING_AT_ONCE: usize = 8;
/// What an AI keeps in hand on a clock: its move must arrive before the deadline.
const AI_SAFETY_MS: i64 = 300;

/// Moves the clock on for a change by `mover` that leaves the game in `status`. When the turn
/// passes to another seat, the seat whose turn ran is charged if it made the change (a jump-in
/// or another seat's take-back charges nobody), and the next seat's turn starts now.
pub(super) fn run_clock<G: TurnGame>(
    game: &mut G,
    mover: Option<Seat>,
    status: GameStatus,
    now_ms: i64,
) {
    let next = turn_of(game, status);
    let first_move = next.is_some_and(|seat| !game.has_moved(seat));
    let Some(clock) = game.clock_mut() else {
        return;
    };
    let running = clock.turn.map(|t| t.seat);
    if running == next {
        return;
    }
    if let Some(seat) = running.filter(|seat| mover == Some(*seat)) {
        clock.charge(seat, now_ms);
    }
    match next {
        Some(seat) => clock.begin_turn(seat, now_ms, first_move),
        None => clock.stop(),
    }
}

/// When the sweeper should look at the game: its running turn's deadline plus the grace.
pub(super) fn sweep_at<G: TurnGame>(game: &G, status: GameStatus, timing: &Timing) -> Option<i64> {
    if status != GameStatus::Active {
        return None;
    }
    let (deadline, _) = game.clock()?.deadline(timing.first_move_ms)?;
    Some(deadline.saturating_add(timing.grace_ms))
}

/// What the clock says at `now_ms`: the running turn's expiry once its deadline and the grace
/// have passed.
fn expired<G: TurnGame>(
    game: &G,
    status: GameStatus,
    timing: &Timing,
    now_ms: i64,
) -> Option<Expiry> {
    if status != GameStatus::Active {
        return None;
    }
    let (deadline, expiry) = game.clock()?.deadline(timing.first_move_ms)?;
    (now_ms > deadline.saturating_add(timing.grace_ms)).then_some(expiry)
}

/// Ends the running turn of a loaded game whose clock ran out, in a change of its own: the seat
/// loses on time, or (no first move yet) the game is aborted. Answers whether it did.
pub(super) async fn settle<G: TurnGame>(
    svc: &Services,
    loaded: &mut Loaded<G>,
) -> ServiceResult<bool> {
    let now_ms = svc.timing.time.now_ms();
    let Some(expiry) = expired(&*loaded.game, loaded.record.row.status, &svc.timing, now_ms) else {
        return Ok(false);
    };
    let (events, action) = match expiry {
        Expiry::Timeout(seat) => (
            loaded.change(svc, |game| game.forfeit(seat, EndReason::TIMEOUT))?,
            json!({"timeout": seat}),
        ),
        Expiry::Abort(seat) => (
            loaded.change(svc, |game| Ok(game.abort()))?,
            json!({"abort": "no first move", "seat": seat}),
        ),
    };
    save(svc, loaded, Change::by(None, action), &events).await?;
    svc.metrics.clock_flags.with_label_values(&[G::NAME]).inc();
    Ok(true)
}

/// The think time of an AI seat on a clock: what was asked, else a share of its time that grows
/// with what it has (on a bank, a twenty-fifth plus half the increment or period), never more
/// than leaves it time to answer before its deadline. Without its turn on a clock, `asked` or
/// `default`.
pub(super) fn ai_time<G: TurnGame>(
    game: &G,
    seat: Seat,
    timing: &Timing,
    asked: Option<Duration>,
    default: Duration,
) -> Duration {
    let Some(clock) = game.clock() else {
        return asked.unwrap_or(default);
    };
    let Some((deadline, _)) = clock
        .deadline(timing.first_move_ms)
        .filter(|_| clock.turn.is_some_and(|t| t.seat == seat))
    else {
        return asked.unwrap_or(default);
    };
    let left = (deadline - timing.time.now_ms() - AI_SAFETY_MS).max(1) as u64;
    let share = match clock.control {
        TimeControl::Fischer { increment_ms, .. } => left / 25 + increment_ms / 2,
        TimeControl::Byoyomi { period_ms, .. } => left / 25 + period_ms / 2,
        TimeControl::PerMove { .. } => left / 2,
        TimeControl::Correspondence { .. } => default.as_millis() as u64,
    };
    let wanted = asked.map_or(share, |asked| asked.as_millis() as u64);
    Duration::from_millis(wanted.clamp(1, left).min(super::MAX_AI_TIME_MS))
}

/// `POST …/claim-victory`: a human seat of an untimed game whose opponent (the seat to act) has
/// not acted for the configured time takes the win; 409 before then, or in a timed game, whose
/// clock decides.
pub async fn claim_victory<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
) -> ServiceResult<Outcome<G>> {
    let (mut loaded, seat) = load_as_seat::<G>(svc, id, token, if_match).await?;
    super::ensure_active(&loaded)?;
    if loaded.game.clock().is_some() {
        return Err(ServiceError::Conflict(
            "this game has a clock: a seat that does not move loses on time".into(),
        ));
    }
    let Some(idle) = loaded.game.turn() else {
        return Err(ServiceError::GameOver);
    };
    if idle == seat {
        return Err(ServiceError::Conflict(format!(
            "it is your own turn (seat {seat}): only the seat waiting for another may claim the win"
        )));
    }
    if loaded.record.seats[idle].kind != SeatKindWord::Human {
        return Err(ServiceError::Conflict(format!(
            "seat {idle} is an AI: ask it for its move with `ai-move`"
        )));
    }
    let waited = svc.timing.time.now_ms() - loaded.record.row.updated_at.timestamp_millis();
    let needed = svc.timing.claim_after_ms;
    if waited < needed {
        return Err(ServiceError::Conflict(format!(
            "seat {idle} has had the turn for {} s; the win may be claimed after {} s",
            waited / 1000,
            needed / 1000
        )));
    }
    let events = loaded.change(svc, |game| game.forfeit(idle, EndReason::ABANDONED))?;
    let change = Change::by(Some(seat), json!({"claim_victory": idle}));
    save(svc, &mut loaded, change, &events).await?;
    Ok(Outcome::of(rendered(svc, &loaded, Some(seat))?, events))
}

/// Settles one game found overdue, by its type.
type Settle = for<'a> fn(&'a Services, Uuid) -> BoxFuture<'a, ServiceResult<bool>>;

/// Each served game's settling, by name: the sweeper knows a game only by its row.
pub struct Settlers(HashMap<&'static str, Settle>);

impl Settlers {
    pub fn of<R: Games>() -> Self {
        struct Collect(HashMap<&'static str, Settle>);
        impl TurnGameVisitor for Collect {
            fn visit<G: TurnGame>(&mut self) {
                self.0
                    .insert(G::NAME, |svc, id| Box::pin(settle_by_id::<G>(svc, id)));
            }
        }
        let mut collect = Collect(HashMap::new());
        R::visit(&mut collect);
        Settlers(collect.0)
    }
}

async fn settle_by_id<G: TurnGame>(svc: &Services, id: Uuid) -> ServiceResult<bool> {
    let mut loaded = load_unsettled::<G>(svc, id).await?;
    settle(svc, &mut loaded).await
}

/// One sweep: claims the games whose clocks ran out and settles each; answers how many this
/// sweep ended. A game another process settled first (its change won the compare-and-swap) is
/// not counted, and not an error.
pub async fn sweep_clocks(svc: &Services, settlers: &Settlers) -> ServiceResult<u64> {
    let mut settled = 0;
    loop {
        let now_ms = svc.timing.time.now_ms();
        // A read first: most sweeps find nothing, and the claim is a write (SQLite's one writer).
        if !svc.store.any_overdue(now_ms).await? {
            return Ok(settled);
        }
        let claimed = svc
            .store
            .claim_overdue(now_ms, CLAIM_LEASE_MS, CLAIM_BATCH)
            .await?;
        let full = claimed.len() as i64 == CLAIM_BATCH;
        let settling = claimed.into_iter().filter_map(|(id, game)| {
            let settle = *settlers.0.get(game.as_str())?;
            Some(async move { (id, settle(svc, id).await) })
        });
        let outcomes: Vec<_> = futures_util::stream::iter(settling)
            .buffer_unordered(SETTLING_AT_ONCE)
            .collect()
            .await;
        for (id, outcome) in outcomes {
            match outcome {
                Ok(true) => settled += 1,
                // Another change (a move, another process's sweep) came first.
                Ok(false) | Err(ServiceError::Conflict(_)) | Err(ServiceError::NotFound(_)) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "a clock's flag failed"),
            }
        }
        if !full {
            return Ok(settled);
        }
    }
}
