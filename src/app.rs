//! Builds the server from a [`Config`]: used by `main` and by the tests, which start it on a
//! random port against a fresh database.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::{middleware, web, App, HttpServer};
use actix_web_prom::PrometheusMetricsBuilder;
use tracing_actix_web::TracingLogger;

use crate::config::Config;
use crate::games::registry::{self, BuiltinGames, GameInfo, Games};
use crate::http;
use crate::service::ai_pool::AiPool;
use crate::service::live::Live;
use crate::service::metrics::Metrics;
use crate::service::sweep::Sweeper;
use crate::service::turns::timing::{sweep_clocks, Settlers};
use crate::service::turns::LoadedGames;
use crate::service::Services;
use crate::store::{self, GameStore, StoreError};

/// What every handler shares: the services, and the HTTP layer's own per-client AI limit.
pub struct AppState {
    pub services: Services,
    /// Per-client limit on AI requests; `None` when not configured.
    pub ai_limit: Option<crate::http::limits::RateLimiter>,
    /// Per-client limit on creating games, decks and players; `None` when turned off.
    pub create_limit: Option<crate::http::limits::RateLimiter>,
    /// The turn-based games this app serves (the list it was built with), for the listing's
    /// `game` filter and the leaderboard.
    pub games: Vec<GameInfo>,
}

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}

/// Why the server did not start. Each says, in one line, what could not be done: `main` prints it
/// as is. None quotes the `DATABASE_URL` (it may hold a password), only [`store::describe`].
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot listen on {address}: {}", plain_io(.source))]
    Listen {
        address: String,
        source: std::io::Error,
    },
    #[error("cannot open the database ({database}): {}", plain_store(.source))]
    Store {
        database: String,
        source: StoreError,
    },
    #[error("cannot start the server: {}", plain_io(.0))]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Config(String),
}

pub struct Application {
    server: Server,
    address: std::net::SocketAddr,
    admin: Option<Admin>,
    /// Removes expired waiting games, idle decks and old announcements while the server runs.
    sweeper: Sweeper,
    /// Ends the turns whose clocks ran out, whether or not anybody looks at their games.
    clocks: ClockSweep,
    live: Arc<Live>,
    /// What other processes on the database announce, for `live` (PostgreSQL only).
    notices: Option<(
        Arc<dyn GameStore>,
        tokio::sync::mpsc::UnboundedReceiver<store::Notice>,
    )>,
}

/// The sweep for games whose clocks ran out, every `every`.
struct ClockSweep {
    state: web::Data<AppState>,
    settlers: Settlers,
    every: std::time::Duration,
}

impl ClockSweep {
    async fn run(self) {
        let mut ticks = tokio::time::interval(self.every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if let Err(e) = sweep_clocks(&self.state, &self.settlers).await {
                tracing::warn!(error = %e, "the clock sweep failed; it runs again shortly");
            }
        }
    }
}

/// The admin listener's server and address.
struct Admin {
    server: Server,
    address: std::net::SocketAddr,
}

/// An I/O error as words: `address already in use`, without std's ` (os error 98)`.
pub fn plain_io(err: &std::io::Error) -> String {
    let text = err.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => &text[..at],
        _ => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A store error without the wrapping ("the database is unavailable", "error returned from
/// database") that "cannot open the database" already says.
fn plain_store(err: &StoreError) -> String {
    match err {
        // At start-up the pool keeps trying a refused connection until its timeout.
        StoreError::Unavailable(why) if why.starts_with("pool timed out") => {
            "no connection before the timeout (is the database running and reachable?)".into()
        }
        StoreError::Unavailable(why) => why.clone(),
        StoreError::Database(sqlx::Error::Database(db)) => db.message().to_owned(),
        StoreError::Database(other) => other.to_string(),
        other => other.to_string(),
    }
}

/// SIGTERM or SIGINT (Ctrl-C), whichever comes first.
async fn stop_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}

/// `host:port`, with brackets around an IPv6 address.
fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

impl Application {
    /// Binds the port first, then opens the database (running its migrations): a port that is
    /// taken stops the start before the database is touched. Serves [`BuiltinGames`].
    pub async fn build(config: Config) -> Result<Self, StartError> {
        Self::build_with::<BuiltinGames>(config).await
    }

    /// [`Application::build`] serving the turn-based games `R` lists.
    pub async fn build_with<R: Games>(config: Config) -> Result<Self, StartError> {
        // Settings first: a mistake in them should not wait for a database.
        let cors = http::middleware::CorsPolicy::parse(&config.cors_origins)
            .map_err(StartError::Config)?;
        let listener = Self::listen(&config)?;
        let database = store::describe(&config.database_url);
        tracing::info!(
            address = %listener.local_addr()?,
            %database,
            "port bound; opening the database"
        );
        let store = store::connect(&config.database_url)
            .await
            .map_err(|source| StartError::Store { database, source })?;
        Self::serve::<R>(config, cors, listener, store)
    }

    /// Starts on an already opened store (tests share one between two servers, for instance).
    pub fn with_store(config: Config, store: Arc<dyn GameStore>) -> Result<Self, StartError> {
        let listener = Self::listen(&config)?;
        Self::on_listener(config, listener, store)
    }

    /// Binds `config.host:config.port` (port 0: a free one).
    pub fn listen(config: &Config) -> Result<TcpListener, StartError> {
        TcpListener::bind((config.host.as_str(), config.port)).map_err(|source| {
            StartError::Listen {
                address: host_port(&config.host, config.port),
                source,
            }
        })
    }

    /// Starts serving on a port [`Application::listen`] bound, with an opened store.
    pub fn on_listener(
        config: Config,
        listener: TcpListener,
        store: Arc<dyn GameStore>,
    ) -> Result<Self, StartError> {
        Self::on_listener_with::<BuiltinGames>(config, listener, store)
    }

    /// [`Application::on_listener`] serving the turn-based games `R` lists.
    pub fn on_listener_with<R: Games>(
        config: Config,
        listener: TcpListener,
        store: Arc<dyn GameStore>,
    ) -> Result<Self, StartError> {
        let cors = http::middleware::CorsPolicy::parse(&config.cors_origins)
            .map_err(StartError::Config)?;
        Self::serve::<R>(config, cors, listener, store)
    }

    fn serve<R: Games>(
        config: Config,
        cors_policy: http::middleware::CorsPolicy,
        listener: TcpListener,
        store: Arc<dyn GameStore>,
    ) -> Result<Self, StartError> {
        let address = listener.local_addr()?;
        let metrics = Metrics::new();
        let live = Live::new(config.max_streams);
        let sweeper = Sweeper::new(Arc::clone(&store), config.expiry(), Arc::clone(&live));
        let notices = store.notices().map(|n| (Arc::clone(&store), n));
        let state = web::Data::new(AppState {
            services: Services {
                store,
                ai: AiPool::new(config.ai_workers(), config.ai_queue),
                metrics: metrics.clone(),
                loaded: LoadedGames::with_budget(config.game_cache_bytes()),
                reports: Default::default(),
                live: live.clone(),
                timing: config.timing(),
            },
            ai_limit: config
                .ai_rate_per_minute
                .map(crate::http::limits::RateLimiter::per_minute),
            create_limit: Some(config.create_rate_per_minute)
                .filter(|&rate| rate > 0)
                .map(crate::http::limits::RateLimiter::per_minute),
            games: registry::turn_games::<R>(),
        });
        let prometheus = PrometheusMetricsBuilder::new("parlor")
            .registry(metrics.registry.clone())
            .mask_unmatched_patterns("UNMATCHED")
            .build()
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let body_limit = config.body_limit;
        let body_timeout = std::time::Duration::from_secs(config.body_timeout.max(1));
        let shared = state.clone();
        let shared_clocks = state.clone();
        let server = HttpServer::new(move || {
            let cors = cors_policy.middleware();
            App::new()
                .wrap(middleware::from_fn(move |req, next| {
                    http::middleware::body_deadline(req, next, body_timeout, body_limit)
                }))
                .wrap(middleware::from_fn(http::middleware::problems_everywhere))
                .wrap(middleware::from_fn(http::middleware::catch_panics))
                .wrap(prometheus.clone())
                .wrap(middleware::from_fn(http::middleware::request_id))
                .wrap(TracingLogger::<http::middleware::PathOnlySpans>::new())
                .wrap(middleware::from_fn(http::middleware::server_timing))
                .wrap(middleware::Condition::new(
                    cors.is_some(),
                    cors.unwrap_or_default(),
                ))
                .app_data(state.clone())
                .configure(|cfg| http::configure::<R>(cfg, body_limit))
        })
        .workers(config.workers())
        // `run` handles SIGTERM and Ctrl-C: streams must end before a graceful stop can.
        .disable_signals()
        .listen(listener)?
        .run();
        let admin = match config.admin_port {
            Some(port) => Some(Self::admin(&config.admin_host, port, shared)?),
            None => None,
        };
        Ok(Self {
            server,
            address,
            admin,
            sweeper,
            clocks: ClockSweep {
                state: shared_clocks,
                settlers: Settlers::of::<R>(),
                every: std::time::Duration::from_millis(config.clock_sweep_ms.max(10)),
            },
            live,
            notices,
        })
    }

    /// The admin listener: `/metrics` on a port of its own, so the public port never shows the
    /// server's internals.
    fn admin(host: &str, port: u16, state: web::Data<AppState>) -> Result<Admin, StartError> {
        let listener = TcpListener::bind((host, port)).map_err(|source| StartError::Listen {
            address: host_port(host, port),
            source,
        })?;
        let address = listener.local_addr()?;
        let server = HttpServer::new(move || {
            App::new()
                .wrap(middleware::from_fn(http::middleware::problems_everywhere))
                .app_data(state.clone())
                .configure(http::ops::configure_admin)
        })
        .workers(1)
        .listen(listener)?
        .run();
        Ok(Admin { server, address })
    }

    /// Where the admin listener (`/metrics`) is, when it is on.
    pub fn admin_address(&self) -> Option<std::net::SocketAddr> {
        self.admin.as_ref().map(|a| a.address)
    }

    pub fn address(&self) -> std::net::SocketAddr {
        self.address
    }

    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// Serves until the public server stops (SIGTERM, Ctrl-C, or its handle); the admin listener
    /// and the sweep stop with it. On a signal every event stream ends first, so that the graceful
    /// stop does not wait for them and their clients reconnect to another process.
    pub async fn run(self) -> std::io::Result<()> {
        let (live, handle) = (Arc::clone(&self.live), self.server.handle());
        let signals = tokio::spawn(async move {
            stop_signal().await;
            tracing::info!("stopping: ending event streams, then finishing requests");
            live.close();
            handle.stop(true).await;
        });
        let served = self.serve_until_stopped().await;
        signals.abort();
        served
    }

    /// Serves until the public server is stopped through its handle.
    async fn serve_until_stopped(self) -> std::io::Result<()> {
        let sweeping = tokio::spawn(self.sweeper.run());
        let clocking = tokio::spawn(self.clocks.run());
        let following = self
            .notices
            .map(|(store, notices)| tokio::spawn(Arc::clone(&self.live).follow(store, notices)));
        let admin = self.admin.map(|admin| {
            let handle = admin.server.handle();
            tokio::spawn(admin.server);
            handle
        });
        let served = self.server.await;
        if let Some(admin) = admin {
            admin.stop(true).await;
        }
        sweeping.abort();
        clocking.abort();
        if let Some(following) = following {
            following.abort();
        }
        served
    }

    /// Runs the server in the background (tests), deaf to signals, and returns a handle to stop
    /// it.
    pub fn spawn(self) -> actix_web::dev::ServerHandle {
        let handle = self.server.handle();
        tokio::spawn(self.serve_until_stopped());
        handle
    }
}
