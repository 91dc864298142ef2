//! Structured logs, set up once. `RUST_LOG` filters (default `info`).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

pub fn init(format: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colour codes only for a person at a terminal: a log file or collector gets plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal());
    // `try_init`: tests start many apps in one process; only the first installs the subscriber.
    let _ = if format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
