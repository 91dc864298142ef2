//! Builds the server from a [`Config`]: used by `main` and by the tests, which start it on a
//! random port against a fresh database.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::{middleware, web, App, HttpServer};
use actix_web_prom::PrometheusMetricsBuilder;
use tracing_actix_web::TracingLogger;

use crate::config::Config;
use crate::http;
use crate::service::ai_pool::AiPool;
use crate::service::metrics::Metrics;
use crate::service::Services;
use crate::store::{self, GameStore, StoreError};

/// What every handler shares: the services, and the HTTP layer's own per-client AI limit.
pub struct AppState {
    pub services: Services,
    /// Per-client limit on AI requests; `None` when not configured.
    pub ai_limit: Option<crate::http::limits::AiRateLimiter>,
}

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    #[error("cannot listen: {0}")]
    Io(#[from] std::io::Error),
}

pub struct Application {
    server: Server,
    address: std::net::SocketAddr,
}

impl Application {
    pub async fn build(config: Config) -> Result<Self, StartError> {
        let store = store::connect(&config.database_url).await?;
        Self::with_store(config, store)
    }

    /// Starts on an already opened store (tests share one between two servers, for instance).
    pub fn with_store(config: Config, store: Arc<dyn GameStore>) -> Result<Self, StartError> {
        let listener = TcpListener::bind((config.host.as_str(), config.port))?;
        let address = listener.local_addr()?;
        let metrics = Metrics::new();
        let state = web::Data::new(AppState {
            services: Services {
                store,
                ai: AiPool::new(config.ai_workers(), config.ai_queue),
                metrics: metrics.clone(),
                loaded: Default::default(),
            },
            ai_limit: config
                .ai_rate_per_minute
                .map(crate::http::limits::AiRateLimiter::per_minute),
        });
        let prometheus = PrometheusMetricsBuilder::new("parlor")
            .registry(metrics.registry.clone())
            .mask_unmatched_patterns("UNMATCHED")
            .build()
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let body_limit = config.body_limit;
        let server = HttpServer::new(move || {
            App::new()
                .wrap(middleware::from_fn(http::middleware::problems_everywhere))
                .wrap(middleware::from_fn(http::middleware::catch_panics))
                .wrap(prometheus.clone())
                .wrap(middleware::from_fn(http::middleware::request_id))
                .wrap(TracingLogger::default())
                .wrap(middleware::from_fn(http::middleware::server_timing))
                .app_data(state.clone())
                .configure(|cfg| http::configure(cfg, body_limit))
        })
        .workers(config.workers())
        .listen(listener)?
        .run();
        Ok(Self { server, address })
    }

    pub fn address(&self) -> std::net::SocketAddr {
        self.address
    }

    pub fn port(&self) -> u16 {
        self.address.port()
    }

    pub async fn run(self) -> std::io::Result<()> {
        self.server.await
    }

    /// Runs the server in the background (tests) and returns a handle to stop it.
    pub fn spawn(self) -> actix_web::dev::ServerHandle {
        let handle = self.server.handle();
        tokio::spawn(self.server);
        handle
    }
}
