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
    /// AI requests one client (by IP address) may make per minute; unset: no limit.
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

fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}
