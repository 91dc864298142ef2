//! Time controls and the clock a timed game keeps: pure arithmetic on milliseconds.
//!
//! The rules never read the time. The server passes it in: when a turn begins, and how long the
//! seat took when the seat acts, so a clock can be tested without waiting and is charged only from
//! the server's own instants, never from a client's claim.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use crate::{RuleError, Seat};

const SECOND_MS: u64 = 1_000;
const DAY_MS: u64 = 86_400_000;
/// The longest correspondence turn, in days.
pub const MAX_DAYS: u32 = 30;
/// The most byo-yomi periods.
pub const MAX_PERIODS: u32 = 100;

/// A time control, as the creator asks for it (`"clock"`). Every live control counts in
/// milliseconds and allows at most a day per turn; `correspondence` counts in days.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)
)]
#[cfg_attr(feature = "openapi", schema(example = json!({"type": "fischer", "initial_ms": 180000, "increment_ms": 2000})))]
pub enum TimeControl {
    /// A bank of time that every move adds `increment_ms` to, up to `max_ms` when given.
    Fischer {
        /// 1 s to a day.
        #[cfg_attr(feature = "openapi", schema(minimum = 1000, maximum = 86400000))]
        initial_ms: u64,
        /// 0 to an hour.
        #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 3600000))]
        increment_ms: u64,
        /// The most the bank may hold (at least `initial_ms`, at most a day).
        #[cfg_attr(feature = "serde", serde(default))]
        #[cfg_attr(feature = "openapi", schema(minimum = 1000, maximum = 86400000))]
        max_ms: Option<u64>,
    },
    /// The same time for every move, nothing carried over: 1 s to a day.
    PerMove {
        #[cfg_attr(feature = "openapi", schema(minimum = 1000, maximum = 86400000))]
        move_ms: u64,
    },
    /// Go's byo-yomi: main time, then `periods` periods of `period_ms` each. A move inside a
    /// period keeps it; a period used up is lost; the last one used up loses the game.
    Byoyomi {
        /// 0 (byo-yomi from the first move) to a day.
        #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 86400000))]
        main_ms: u64,
        /// 1 s to a day.
        #[cfg_attr(feature = "openapi", schema(minimum = 1000, maximum = 86400000))]
        period_ms: u64,
        /// 1 to 100.
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
        periods: u32,
    },
    /// A slow game: each turn ends `days` (1 to 30) after it began.
    Correspondence {
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 30))]
        days: u32,
    },
}

/// One seat's time, as it stood when its turn began (or now, when it is not its turn).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct SeatTime {
    /// Fischer: the bank; byo-yomi: the main time left; per move and correspondence: the time
    /// each turn allows.
    pub remaining_ms: u64,
    /// Byo-yomi periods left.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub periods: Option<u32>,
}

/// The turn on the clock: whose, and since when (milliseconds since the Unix epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct TurnTime {
    pub seat: Seat,
    pub started_ms: i64,
    /// The seat has not made its first move: its clock does not run yet, and a live game is
    /// aborted, not lost, if the move does not come in time.
    pub first_move: bool,
}

/// A timed game's clock: the control, each seat's time and the turn running.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Clock {
    pub control: TimeControl,
    pub seats: Vec<SeatTime>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn: Option<TurnTime>,
}

/// What happens when a turn's deadline passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// The seat to move loses on time.
    Timeout(Seat),
    /// The seat never made its first move: the game is aborted (live clocks only).
    Abort(Seat),
}

fn refuse(message: String) -> RuleError {
    RuleError::InvalidOptions(format!("clock: {message}"))
}

fn within(name: &str, value: u64, min: u64, max: u64) -> Result<(), RuleError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(refuse(format!(
            "{name} must be {min} to {max} ms, not {value}"
        )))
    }
}

impl TimeControl {
    /// Refuses values out of range, and byo-yomi for a game that does not take it.
    pub fn validate(&self, byoyomi: bool) -> Result<(), RuleError> {
        match *self {
            TimeControl::Fischer {
                initial_ms,
                increment_ms,
                max_ms,
            } => {
                within("initial_ms", initial_ms, SECOND_MS, DAY_MS)?;
                within("increment_ms", increment_ms, 0, DAY_MS / 24)?;
                if let Some(max) = max_ms {
                    within("max_ms", max, initial_ms, DAY_MS)?;
                }
                Ok(())
            }
            TimeControl::PerMove { move_ms } => within("move_ms", move_ms, SECOND_MS, DAY_MS),
            TimeControl::Byoyomi {
                main_ms,
                period_ms,
                periods,
            } => {
                if !byoyomi {
                    return Err(refuse(
                        "byo-yomi is Go's time control; use fischer, per_move or correspondence"
                            .into(),
                    ));
                }
                within("main_ms", main_ms, 0, DAY_MS)?;
                within("period_ms", period_ms, SECOND_MS, DAY_MS)?;
                if !(1..=MAX_PERIODS).contains(&periods) {
                    return Err(refuse(format!(
                        "periods must be 1 to {MAX_PERIODS}, not {periods}"
                    )));
                }
                Ok(())
            }
            TimeControl::Correspondence { days } => {
                if (1..=MAX_DAYS).contains(&days) {
                    Ok(())
                } else {
                    Err(refuse(format!("days must be 1 to {MAX_DAYS}, not {days}")))
                }
            }
        }
    }

    /// Whether the clock counts in real time (everything but correspondence).
    pub fn live(&self) -> bool {
        !matches!(self, TimeControl::Correspondence { .. })
    }

    fn fresh_seat(&self) -> SeatTime {
        match *self {
            TimeControl::Fischer { initial_ms, .. } => SeatTime {
                remaining_ms: initial_ms,
                periods: None,
            },
            TimeControl::PerMove { move_ms } => SeatTime {
                remaining_ms: move_ms,
                periods: None,
            },
            TimeControl::Byoyomi {
                main_ms, periods, ..
            } => SeatTime {
                remaining_ms: main_ms,
                periods: Some(periods),
            },
            TimeControl::Correspondence { days } => SeatTime {
                remaining_ms: u64::from(days) * DAY_MS,
                periods: None,
            },
        }
    }
}

impl Clock {
    /// A clock for `seats` seats, each with its full time and no turn running. `byoyomi`: whether
    /// the game takes byo-yomi.
    pub fn new(control: TimeControl, seats: usize, byoyomi: bool) -> Result<Self, RuleError> {
        control.validate(byoyomi)?;
        Ok(Clock {
            control,
            seats: vec![control.fresh_seat(); seats],
            turn: None,
        })
    }

    /// How long `seat` may take over a turn from its start before it flags.
    pub fn allowance_ms(&self, seat: Seat) -> u64 {
        let time = self.seats.get(seat).copied().unwrap_or_default();
        match self.control {
            TimeControl::Byoyomi { period_ms, .. } => {
                time.remaining_ms + u64::from(time.periods.unwrap_or(0)) * period_ms
            }
            _ => time.remaining_ms,
        }
    }

    /// When the running turn expires, and what happens then; `first_move_ms` is how long a live
    /// game waits for a seat's first move.
    pub fn deadline(&self, first_move_ms: u64) -> Option<(i64, Expiry)> {
        let turn = self.turn?;
        if turn.first_move && self.control.live() {
            let at = turn.started_ms.saturating_add(first_move_ms as i64);
            return Some((at, Expiry::Abort(turn.seat)));
        }
        let at = turn
            .started_ms
            .saturating_add(self.allowance_ms(turn.seat) as i64);
        Some((at, Expiry::Timeout(turn.seat)))
    }

    /// Starts `seat`'s turn at `now_ms`; `first_move`: it has not moved yet in this game.
    pub fn begin_turn(&mut self, seat: Seat, now_ms: i64, first_move: bool) {
        self.turn = Some(TurnTime {
            seat,
            started_ms: now_ms,
            first_move,
        });
    }

    /// Stops the clock (the game is over or waits).
    pub fn stop(&mut self) {
        self.turn = None;
    }

    /// Ends the running turn of `seat` at `now_ms` with its move: charges the time it took
    /// (nothing for a first move, whose clock did not run) and adds the increment or resets the
    /// period. A move that came after the allowance (inside the server's grace) keeps the
    /// least: an empty Fischer bank plus its increment, or the last period.
    pub fn charge(&mut self, seat: Seat, now_ms: i64) {
        let Some(turn) = self.turn.filter(|t| t.seat == seat) else {
            return;
        };
        self.turn = None;
        if turn.first_move {
            return;
        }
        let elapsed = now_ms.saturating_sub(turn.started_ms).max(0) as u64;
        let control = self.control;
        let Some(time) = self.seats.get_mut(seat) else {
            return;
        };
        match control {
            TimeControl::Fischer {
                increment_ms,
                max_ms,
                ..
            } => {
                let banked = time.remaining_ms.saturating_sub(elapsed) + increment_ms;
                time.remaining_ms = max_ms.map_or(banked, |max| banked.min(max));
            }
            TimeControl::Byoyomi { period_ms, .. } => {
                let over = elapsed.saturating_sub(time.remaining_ms);
                time.remaining_ms = time.remaining_ms.saturating_sub(elapsed);
                let periods = time.periods.unwrap_or(0);
                let used = (over / period_ms).min(u64::from(periods.saturating_sub(1))) as u32;
                time.periods = Some(periods - used);
            }
            TimeControl::PerMove { .. } | TimeControl::Correspondence { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(initial_ms: u64, increment_ms: u64, max_ms: Option<u64>) -> Clock {
        let control = TimeControl::Fischer {
            initial_ms,
            increment_ms,
            max_ms,
        };
        Clock::new(control, 2, false).unwrap()
    }

    /// Plays one move of `seat` that took `took` ms, its clock running.
    fn took(clock: &mut Clock, seat: Seat, took: i64) {
        clock.begin_turn(seat, 1_000, false);
        clock.charge(seat, 1_000 + took);
    }

    #[test]
    fn fischer_charges_the_move_and_adds_the_increment_up_to_the_cap() {
        let mut clock = fischer(60_000, 2_000, Some(61_000));
        took(&mut clock, 0, 10_000);
        assert_eq!(clock.seats[0].remaining_ms, 52_000);
        took(&mut clock, 0, 500);
        assert_eq!(clock.seats[0].remaining_ms, 53_500);
        for _ in 0..10 {
            took(&mut clock, 0, 0);
        }
        assert_eq!(clock.seats[0].remaining_ms, 61_000, "the cap holds");
        assert_eq!(
            clock.seats[1].remaining_ms, 60_000,
            "the other seat is untouched"
        );
        // A move in the grace after the bank ran out keeps an empty bank plus the increment.
        took(&mut clock, 1, 60_400);
        assert_eq!(clock.seats[1].remaining_ms, 2_000);
    }

    #[test]
    fn the_deadline_is_the_turn_start_plus_the_allowance_and_a_first_move_aborts() {
        let mut clock = fischer(60_000, 0, None);
        clock.begin_turn(0, 5_000, true);
        assert_eq!(clock.deadline(30_000), Some((35_000, Expiry::Abort(0))));
        clock.charge(0, 20_000);
        assert_eq!(clock.seats[0].remaining_ms, 60_000, "a first move is free");
        clock.begin_turn(1, 20_000, false);
        assert_eq!(clock.deadline(30_000), Some((80_000, Expiry::Timeout(1))));
        clock.stop();
        assert_eq!(clock.deadline(30_000), None);
        let mut slow = Clock::new(TimeControl::Correspondence { days: 2 }, 2, false).unwrap();
        slow.begin_turn(0, 0, true);
        assert_eq!(
            slow.deadline(30_000),
            Some((2 * DAY_MS as i64, Expiry::Timeout(0))),
            "correspondence never aborts: the first move has its days"
        );
    }

    #[test]
    fn byoyomi_uses_main_time_then_loses_periods_one_by_one() {
        let control = TimeControl::Byoyomi {
            main_ms: 10_000,
            period_ms: 5_000,
            periods: 3,
        };
        let mut clock = Clock::new(control, 2, true).unwrap();
        assert_eq!(clock.allowance_ms(0), 25_000);
        took(&mut clock, 0, 8_000);
        assert_eq!(
            clock.seats[0],
            SeatTime {
                remaining_ms: 2_000,
                periods: Some(3)
            }
        );
        // 2 s of main time, then 4 s into the first period: the period is kept.
        took(&mut clock, 0, 6_000);
        assert_eq!(
            clock.seats[0],
            SeatTime {
                remaining_ms: 0,
                periods: Some(3)
            }
        );
        // 6 s: the first period is used up, the second kept.
        took(&mut clock, 0, 6_000);
        assert_eq!(clock.seats[0].periods, Some(2));
        took(&mut clock, 0, 7_000);
        assert_eq!(clock.seats[0].periods, Some(1));
        assert_eq!(clock.allowance_ms(0), 5_000, "one period left");
        took(&mut clock, 0, 4_999);
        assert_eq!(
            clock.seats[0].periods,
            Some(1),
            "a move inside the last period keeps it"
        );
    }

    #[test]
    fn per_move_and_correspondence_allow_the_same_each_turn() {
        let mut clock = Clock::new(TimeControl::PerMove { move_ms: 3_000 }, 2, false).unwrap();
        took(&mut clock, 1, 2_900);
        assert_eq!(clock.allowance_ms(1), 3_000);
        let slow = Clock::new(TimeControl::Correspondence { days: 3 }, 2, false).unwrap();
        assert_eq!(slow.allowance_ms(0), 3 * DAY_MS);
        assert!(!slow.control.live());
    }

    #[test]
    fn bad_controls_are_refused_with_the_field_named() {
        let refused = |control: TimeControl, byoyomi: bool| match control.validate(byoyomi) {
            Err(RuleError::InvalidOptions(message)) => message,
            other => panic!("{control:?} was not refused: {other:?}"),
        };
        let zero = TimeControl::Fischer {
            initial_ms: 0,
            increment_ms: 0,
            max_ms: None,
        };
        assert!(refused(zero, false).contains("initial_ms"));
        let long_period = TimeControl::Byoyomi {
            main_ms: 0,
            period_ms: DAY_MS + 1,
            periods: 1,
        };
        assert!(refused(long_period, true).contains("period_ms"));
        let byoyomi = TimeControl::Byoyomi {
            main_ms: 0,
            period_ms: 10_000,
            periods: 1,
        };
        assert!(refused(byoyomi, false).contains("Go"));
        byoyomi.validate(true).unwrap();
        let low_cap = TimeControl::Fischer {
            initial_ms: 10_000,
            increment_ms: 0,
            max_ms: Some(5_000),
        };
        assert!(refused(low_cap, false).contains("max_ms"));
        assert!(refused(TimeControl::Correspondence { days: 0 }, false).contains("days"));
        assert!(refused(TimeControl::PerMove { move_ms: 999 }, false).contains("move_ms"));
    }
}

/// The bounds the OpenAPI schema states are the ones `validate` enforces: the schema needs them
/// as literals, so this test keeps the two from drifting apart.
#[cfg(all(test, feature = "openapi", feature = "serde"))]
mod schema_bounds {
    use super::TimeControl;
    use serde_json::{json, Map, Value};
    use utoipa::PartialSchema;

    #[test]
    fn every_bound_in_the_schema_is_the_edge_validate_keeps() {
        let schema = serde_json::to_value(TimeControl::schema()).unwrap();
        let variants = schema["oneOf"].as_array().unwrap();
        let mut checked = 0;
        for variant in variants {
            let fields = variant["properties"].as_object().unwrap();
            let required = variant["required"].as_array().unwrap();
            // Every required field at its minimum makes a valid control.
            let lowest: Map<String, Value> = fields
                .iter()
                .filter(|(name, _)| required.contains(&json!(name)))
                .map(|(name, field)| {
                    let value = match name.as_str() {
                        "type" => field["enum"][0].clone(),
                        _ => field["minimum"].clone(),
                    };
                    (name.clone(), value)
                })
                .collect();
            let valid = |control: &Map<String, Value>| {
                serde_json::from_value::<TimeControl>(Value::Object(control.clone()))
                    .is_ok_and(|c| c.validate(true).is_ok())
            };
            assert!(valid(&lowest), "{lowest:?}");
            for (name, field) in fields.iter().filter(|(name, _)| *name != "type") {
                let min = field["minimum"].as_u64().unwrap();
                let max = field["maximum"].as_u64().unwrap();
                let with = |value: u64| {
                    let mut control = lowest.clone();
                    control.insert(name.clone(), json!(value));
                    control
                };
                assert!(valid(&with(max)), "{name} = {max}");
                assert!(!valid(&with(max + 1)), "{name} = {}", max + 1);
                if min > 0 {
                    assert!(!valid(&with(min - 1)), "{name} = {}", min - 1);
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 8, "every bounded field");
    }
}
