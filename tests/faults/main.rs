//! Fault tests against the real binary: two server processes racing on one database, `kill -9` under
//! load, the database restarted under load, and a flood of slow AI requests beside plain reads.
//!
//! Every test starts its own Parlor processes (`CARGO_BIN_EXE_parlor`) on free ports, drives them
//! with concurrent HTTP clients, and then checks the database through the API: every acknowledged
//! (200) change is in the move log at the `seq` its response named, the log is gapless (1..=version),
//! and the stored state is the replay of the log. Child processes (and the private PostgreSQL cluster)
//! are stopped by Drop guards, also when a test fails; a failing test prints the server logs
//! (`FAULTS_RUST_LOG` overrides their `RUST_LOG`, default `warn,actix_server=info`, which also shows
//! a stray signal that stopped a server).
//!
//! The modules: `process` (a Parlor child process), `cluster` (a private PostgreSQL cluster),
//! `load` (the clients and what they saw), `invariants` (what must hold afterwards, through the
//! API) and `scenarios` (the tests).

#[path = "../common/mod.rs"]
mod common;

mod cluster;
mod invariants;
mod load;
mod process;
mod scenarios;

use std::time::Duration;

/// The load tests (one to three) may share the machine; the AI tests take it alone, so their
/// timing assertions measure Parlor and not a neighbour's load.
static MACHINE: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// Longest any one fault test may run before it counts as a hang.
const TEST_DEADLINE: Duration = Duration::from_secs(120);

/// Board size of the games under load.
const SIZE: u8 = 15;

/// Runs a fault test within [`TEST_DEADLINE`].
async fn deadline<F: std::future::Future<Output = ()>>(test: F) {
    tokio::time::timeout(TEST_DEADLINE, test)
        .await
        .expect("the fault test hung (a server stopped answering?)");
}
