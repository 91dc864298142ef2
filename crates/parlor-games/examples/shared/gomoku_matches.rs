//! What the Gomoku match examples (`gomoku_match`, `gomoku_versus`) share: reading a level from
//! the command line and the thinking-time tally of one side.

use std::time::Duration;

use parlor_games::AiLevel;

pub fn parse_level(text: &str) -> Result<AiLevel, String> {
    text.parse()
        .map_err(|_| format!("unknown level {text:?} (easy, normal, hard)"))
}

/// Thinking time of one side over a run.
#[derive(Default, Clone)]
pub struct Clock {
    pub moves: u64,
    pub total: Duration,
    pub max: Duration,
    /// Moves that took longer than the limit given to `add`.
    pub over: u64,
}

impl Clock {
    pub fn add(&mut self, took: Duration, limit: Duration) {
        self.moves += 1;
        self.over += u64::from(took > limit);
        self.total += took;
        self.max = self.max.max(took);
    }

    pub fn merge(&mut self, other: &Clock) {
        self.moves += other.moves;
        self.over += other.over;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }

    pub fn average_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total.as_secs_f64() * 1000.0 / self.moves as f64
        }
    }
}
