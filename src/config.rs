//! Configuration: command-line flags, each with an environment variable, defaulting to a setup
//! that runs with nothing set (127.0.0.1:8080, SQLite file `parlor.db` in the working directory).

use clap::Args;

/// Settings for `parlor serve`.
#[derive(Args, Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// `sqlite://path` or `postgres://user@host/db`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://parlor.db")]
    pub database_url: String,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "PARLOR_BODY_LIMIT", default_value_t = 64 * 1024)]
    pub body_limit: usize,
    /// Threads that think for AI moves (default: the number of cores).
    #[arg(long, env = "PARLOR_AI_WORKERS")]
    pub ai_workers: Option<usize>,
    /// AI requests allowed to wait for a thread before new ones get 503.
    #[arg(long, env = "PARLOR_AI_QUEUE", default_value_t = 16)]
    pub ai_queue: usize,
    /// AI moves one client (by IP address) may ask for per minute, `ai-move`s and the moves the
    /// server auto-plays for it alike; unset: no limit.
    #[arg(long, env = "PARLOR_AI_RATE_PER_MINUTE")]
    pub ai_rate_per_minute: Option<u32>,
    /// Games, decks and players one client (by IP address) may create per minute, together;
    /// 0 turns the quota off.
    #[arg(long, env = "PARLOR_CREATE_RATE_PER_MINUTE", default_value_t = 600)]
    pub create_rate_per_minute: u32,
    /// HTTP worker threads (default: the number of cores).
    #[arg(long, env = "PARLOR_WORKERS")]
    pub workers: Option<usize>,
    /// Log format: `text` or `json`.
    #[arg(long, env = "PARLOR_LOG_FORMAT", default_value = "text")]
    pub log_format: String,
    /// Origins whose pages may call the API: `*` (any), a comma-separated list of origins
    /// (`https://a.example,http://localhost:3000`), or `none` (no CORS headers at all).
    #[arg(long, env = "PARLOR_CORS_ORIGINS", default_value = "*")]
    pub cors_origins: String,
    /// Seconds a request's body may take to arrive before the answer is 408 and the connection
    /// closes.
    #[arg(long, env = "PARLOR_BODY_TIMEOUT", default_value_t = 10)]
    pub body_timeout: u64,
    /// Port of the admin listener, which serves `/metrics` (unset: no admin listener and no
    /// metrics route; the public port never serves them).
    #[arg(long, env = "PARLOR_ADMIN_PORT")]
    pub admin_port: Option<u16>,
    /// Address the admin listener binds.
    #[arg(long, env = "PARLOR_ADMIN_HOST", default_value = "127.0.0.1")]
    pub admin_host: String,
    /// Hours a game still `waiting` (open seats, or created with `"start": false`) may go unchanged
    /// before a sweep removes it; 0 keeps waiting games forever.
    #[arg(long, env = "PARLOR_WAITING_GAME_TTL_HOURS", default_value_t = 24)]
    pub waiting_game_ttl_hours: u64,
    /// Hours a poker deck may go unchanged before a sweep removes it; 0 keeps decks forever.
    #[arg(long, env = "PARLOR_IDLE_DECK_TTL_HOURS", default_value_t = 7 * 24)]
    pub idle_deck_ttl_hours: u64,
    /// Mebibytes of stored game state the cache of loaded games may hold (least recently used
    /// out first); 0 turns the cache off.
    #[arg(long, env = "PARLOR_GAME_CACHE_MB", default_value_t = 64)]
    pub game_cache_mb: usize,
    /// Event streams (and long polls) this process keeps open at once; one more is refused with
    /// 503 and `Retry-After`.
    #[arg(long, env = "PARLOR_MAX_STREAMS", default_value_t = 10_000)]
    pub max_streams: usize,
    /// Milliseconds a timed turn may overrun its clock before it loses: the network's lag.
    #[arg(long, env = "PARLOR_CLOCK_GRACE_MS", default_value_t = 500)]
    pub clock_grace_ms: u64,
    /// Milliseconds between two sweeps for games whose clock ran out.
    #[arg(long, env = "PARLOR_CLOCK_SWEEP_MS", default_value_t = 1_000)]
    pub clock_sweep_ms: u64,
    /// Seconds a game with a live clock waits for each seat's first move before it is aborted.
    #[arg(long, env = "PARLOR_FIRST_MOVE_SECS", default_value_t = 60)]
    pub first_move_secs: u64,
    /// Seconds a human seat of an untimed game waits for its opponent before it may claim the
    /// win (`claim-victory`).
    #[arg(long, env = "PARLOR_CLAIM_AFTER_SECS", default_value_t = 3 * 24 * 3600)]
    pub claim_after_secs: u64,
    /// Where the service reads the time: the system's clock (tests give a fake one).
    #[arg(skip)]
    pub time: crate::service::time::Time,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 8080,
            database_url: "sqlite://parlor.db".into(),
            body_limit: 64 * 1024,
            ai_workers: None,
            ai_queue: 16,
            ai_rate_per_minute: None,
            create_rate_per_minute: 600,
            workers: None,
            log_format: "text".into(),
            cors_origins: "*".into(),
            body_timeout: 10,
            admin_port: None,
            admin_host: "127.0.0.1".into(),
            waiting_game_ttl_hours: 24,
            idle_deck_ttl_hours: 7 * 24,
            game_cache_mb: 64,
            max_streams: 10_000,
            clock_grace_ms: 500,
            clock_sweep_ms: 1_000,
            first_move_secs: 60,
            claim_after_secs: 3 * 24 * 3600,
            time: Default::default(),
        }
    }
}

impl Config {
    pub fn ai_workers(&self) -> usize {
        self.ai_workers.unwrap_or_else(cores).max(1)
    }

    pub fn workers(&self) -> usize {
        self.workers.unwrap_or_else(cores).max(1)
    }
}

/// How long a waiting game or a deck may go unchanged before the sweep removes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// `None`: waiting games are kept forever.
    pub waiting_games: Option<chrono::Duration>,
    /// `None`: decks are kept forever.
    pub idle_decks: Option<chrono::Duration>,
}

impl Config {
    /// What the sweep removes, from `--waiting-game-ttl-hours` and `--idle-deck-ttl-hours`.
    pub fn expiry(&self) -> Expiry {
        Expiry {
            waiting_games: hours(self.waiting_game_ttl_hours),
            idle_decks: hours(self.idle_deck_ttl_hours),
        }
    }

    /// How the service runs game clocks, from the clock flags.
    pub fn timing(&self) -> crate::service::time::Timing {
        crate::service::time::Timing {
            time: self.time.clone(),
            grace_ms: self.clock_grace_ms as i64,
            first_move_ms: self.first_move_secs.saturating_mul(1_000),
            claim_after_ms: self.claim_after_secs.saturating_mul(1_000) as i64,
        }
    }

    /// The byte budget of the cache of loaded games, from `--game-cache-mb`.
    pub fn game_cache_bytes(&self) -> usize {
        self.game_cache_mb.saturating_mul(1024 * 1024)
    }
}

/// `n` hours; `None` for 0 (never), and capped at a century so a huge value cannot overflow.
fn hours(n: u64) -> Option<chrono::Duration> {
    (n > 0).then(|| chrono::Duration::hours(n.min(100 * 366 * 24) as i64))
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: Config,
    }

    fn parsed(args: &[&str]) -> Config {
        let args = std::iter::once("parlor").chain(args.iter().copied());
        Cli::try_parse_from(args).expect("parses").config
    }

    #[test]
    fn expiry_and_cache_budget_default_and_follow_their_flags() {
        // What clap defaults to is what `Config::default()` says (the tests build on the latter).
        // The variables are not set in tests, so the flags' defaults show.
        for var in [
            "PARLOR_WAITING_GAME_TTL_HOURS",
            "PARLOR_IDLE_DECK_TTL_HOURS",
            "PARLOR_GAME_CACHE_MB",
        ] {
            assert!(std::env::var_os(var).is_none(), "{var} set while testing");
        }
        let defaults = parsed(&[]);
        assert_eq!(
            (
                defaults.waiting_game_ttl_hours,
                defaults.idle_deck_ttl_hours,
                defaults.game_cache_mb
            ),
            (24, 168, 64)
        );
        let plain = Config::default();
        assert_eq!(plain.expiry(), defaults.expiry());
        assert_eq!(
            defaults.expiry(),
            Expiry {
                waiting_games: Some(chrono::Duration::hours(24)),
                idle_decks: Some(chrono::Duration::days(7)),
            }
        );
        assert_eq!(defaults.game_cache_bytes(), 64 << 20);
        assert_eq!(plain.game_cache_bytes(), 64 << 20);

        let set = parsed(&[
            "--waiting-game-ttl-hours",
            "2",
            "--idle-deck-ttl-hours",
            "0",
            "--game-cache-mb",
            "1",
        ]);
        assert_eq!(
            set.expiry(),
            Expiry {
                waiting_games: Some(chrono::Duration::hours(2)),
                idle_decks: None,
            }
        );
        assert_eq!(set.game_cache_bytes(), 1 << 20);
        let never = parsed(&["--waiting-game-ttl-hours", "0", "--game-cache-mb", "0"]);
        assert_eq!(never.expiry().waiting_games, None);
        assert_eq!(never.game_cache_bytes(), 0);
        let huge = parsed(&["--waiting-game-ttl-hours", &u64::MAX.to_string()]);
        assert!(
            huge.expiry().waiting_games.is_some(),
            "capped, not overflowed"
        );
    }
}
