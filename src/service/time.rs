//! The one clock the service reads the time from: the system's, or a test's that stands still
//! until the test moves it, so every timed path can be driven without sleeping.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, Utc};

/// How the service runs game clocks (from the configuration).
#[derive(Clone, Debug, Default)]
pub struct Timing {
    pub time: Time,
    /// How long a turn may overrun its deadline before it loses (network lag).
    pub grace_ms: i64,
    /// How long a live game waits for each seat's first move before it is aborted.
    pub first_move_ms: u64,
    /// How long an untimed game's seat must have waited before it may claim the win.
    pub claim_after_ms: i64,
}

/// Where the time comes from.
#[derive(Clone, Debug, Default)]
pub enum Time {
    #[default]
    System,
    /// Milliseconds since the Unix epoch, moved only by [`Time::advance`].
    Fake(Arc<AtomicI64>),
}

impl Time {
    /// A clock standing at the system's present time until moved.
    pub fn fake() -> Self {
        Time::Fake(Arc::new(AtomicI64::new(Utc::now().timestamp_millis())))
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match self {
            Time::System => Utc::now().timestamp_millis(),
            Time::Fake(ms) => ms.load(Ordering::SeqCst),
        }
    }

    /// The time as the store keeps it: a game's changes are stamped with it, so that how long a
    /// seat has waited is measured on one clock.
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Time::System => crate::store::now(),
            Time::Fake(_) => DateTime::from_timestamp_millis(self.now_ms()).unwrap_or_default(),
        }
    }

    /// Moves a fake clock on by `ms`; the system's cannot be moved.
    pub fn advance(&self, ms: i64) {
        match self {
            Time::System => panic!("the system clock cannot be moved"),
            Time::Fake(now) => {
                now.fetch_add(ms, Ordering::SeqCst);
            }
        }
    }
}
