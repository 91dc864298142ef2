//! Prometheus metrics of our own, beside the per-route request metrics of actix-web-prom.

use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry};

#[derive(Clone)]
pub struct Metrics {
    pub registry: Registry,
    pub moves_applied: IntCounterVec,
    pub ai_think_seconds: HistogramVec,
    pub clock_flags: IntCounterVec,
}

impl Metrics {
    pub fn new() -> Self {
        let registry = Registry::new();
        let moves_applied = IntCounterVec::new(
            Opts::new("parlor_moves_applied_total", "Moves accepted and stored"),
            &["game"],
        )
        .expect("valid metric");
        let ai_think_seconds = HistogramVec::new(
            HistogramOpts::new(
                "parlor_ai_think_seconds",
                "Time an AI spent choosing a move",
            )
            .buckets(vec![
                0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
            ]),
            &["game", "level"],
        )
        .expect("valid metric");
        let clock_flags = IntCounterVec::new(
            Opts::new(
                "parlor_clock_expiries_total",
                "Turns that ran out of time: a seat lost on time, or a game without a first move was aborted",
            ),
            &["game"],
        )
        .expect("valid metric");
        registry
            .register(Box::new(clock_flags.clone()))
            .expect("registered once");
        registry
            .register(Box::new(moves_applied.clone()))
            .expect("registered once");
        registry
            .register(Box::new(ai_think_seconds.clone()))
            .expect("registered once");
        Self {
            registry,
            moves_applied,
            ai_think_seconds,
            clock_flags,
        }
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}
