//! Scenario 3: The database restarted under load, twice (a clean `fast` stop, then a crash-like
//! `immediate` one), on a private cluster: while it is down every route that needs it answers a
//! proper 503 at once and `/health` stays 200; when it is back Parlor serves again by itself, and
//! no acknowledged change is lost.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use reqwest::Method;
use serde_json::{json, Value};

use super::STEADY;
use crate::cluster::{private_cluster, PgCluster};
use crate::invariants::{acks_of, verify_games};
use crate::load::{
    assert_answers, assert_refused, count, create_games, http_client, point, summary, Exchange,
    GameRef, Load, Record, Tolerate,
};
use crate::process::Parlor;
use crate::{deadline, MACHINE};

/// The pool's acquire timeout is 3 s: an outage answers within that (plus room for a busy
/// machine), not after a hang.
const OUTAGE_ANSWER: Duration = Duration::from_secs(6);

/// A probe while the database is down (or coming back).
async fn probe(
    http: &reqwest::Client,
    base: &str,
    method: Method,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> Record {
    let what = format!("probe {method} {path}");
    Exchange::new(http, base)
        .send(method, path, what, body, token, None)
        .await
        .0
}

/// One outage: stops the cluster (`mode`), checks that Parlor answers 503 (and /health 200) while it
/// is down, starts it again and waits until Parlor serves again by itself.
async fn outage(
    cluster: &Arc<PgCluster>,
    mode: &'static str,
    server: &Parlor,
    games: &[GameRef],
    load: &Load,
) {
    let http = http_client();
    let stopper = cluster.clone();
    tokio::task::spawn_blocking(move || stopper.stop(mode))
        .await
        .unwrap()
        .expect("pg_ctl stop");
    let acks_before = load.acks();

    // Every route that needs the database answers 503 (concurrently, so the probes cost one
    // acquire timeout, not five); meanwhile /health keeps answering, fast.
    let game = &games[0];
    let game_path = format!("/v1/gomoku/games/{}", game.id);
    let log_path = format!("{game_path}/moves");
    let move_body = json!({"move": point(0, 0)});
    let create_body = json!({"players": [{"name": "x"}, {"name": "y"}]});
    let needs_the_database: [(Method, &str, Option<&Value>, Option<&str>); 5] = [
        (Method::GET, "/ready", None, None),
        (Method::GET, &game_path, None, None),
        (Method::GET, &log_path, None, None),
        (
            Method::POST,
            &log_path,
            Some(&move_body),
            Some(&game.tokens[0]),
        ),
        (Method::POST, "/v1/gomoku/games", Some(&create_body), None),
    ];
    let probing = Arc::new(AtomicBool::new(true));
    let health_loop = {
        let (http, base, probing) = (http.clone(), server.base.clone(), probing.clone());
        tokio::spawn(async move {
            let mut seen = Vec::new();
            while probing.load(Ordering::SeqCst) || seen.is_empty() {
                seen.push(probe(&http, &base, Method::GET, "/health", None, None).await);
                // Pacing, not synchronisation: a few probes per outage are enough.
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            seen
        })
    };
    let down = join_all(
        needs_the_database
            .iter()
            .map(|(method, path, body, token)| {
                probe(&http, &server.base, method.clone(), path, *body, *token)
            }),
    )
    .await;
    probing.store(false, Ordering::SeqCst);
    for r in &down {
        assert_refused(r, OUTAGE_ANSWER);
    }
    // Readiness answers within its own 800 ms ping timeout, not after the pool's 3 s acquire
    // timeout.
    let ready = &down[0];
    assert!(
        ready.elapsed < Duration::from_millis(2500),
        "/ready took {:?} to say 503",
        ready.elapsed
    );
    let healths = health_loop.await.unwrap();
    for h in &healths {
        assert_eq!(h.status, Some(200), "{}", h.describe());
        assert!(h.elapsed < Duration::from_secs(2), "{}", h.describe());
    }
    let slowest_probe = down.iter().map(|r| r.elapsed).max().unwrap();

    // Up again, Parlor untouched: /ready turns 200 (503 until then), then moves are accepted.
    let starter = cluster.clone();
    tokio::task::spawn_blocking(move || starter.start())
        .await
        .unwrap()
        .expect("pg_ctl start again");
    let up_at = Instant::now();
    let mut ready_after = None;
    while ready_after.is_none() {
        assert!(
            up_at.elapsed() < Duration::from_secs(20),
            "/ready is not 200 within 20 s of the database's return"
        );
        let ready = probe(&http, &server.base, Method::GET, "/ready", None, None).await;
        match ready.status {
            Some(200) => ready_after = Some(up_at.elapsed()),
            Some(503) => assert_refused(&ready, OUTAGE_ANSWER),
            _ => panic!("/ready while the database starts: {}", ready.describe()),
        }
        // Pacing: a refused connection answers at once.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let acks_at_return = load.acks();
    load.wait_acks(acks_at_return + 20, Duration::from_secs(20))
        .await;
    eprintln!(
        "database stopped ({mode}) after {acks_before} acknowledged changes: 503s took up to {slowest_probe:?}, {} /health probes all 200; /ready 200 {:?} and 20 more changes {:?} after the restart",
        healths.len(),
        ready_after.unwrap(),
        up_at.elapsed()
    );
}

async fn database_restarted(cluster: PgCluster) {
    cluster.start().expect("the private cluster starts");
    let cluster = Arc::new(cluster);
    let server = Parlor::start("parlor", &cluster.url(), &[]).await;
    let http = http_client();
    let games = create_games(&http, &server.base, 4).await;
    let load = Load::start(std::slice::from_ref(&server.base), &games, 3, None, STEADY);
    load.wait_acks(30, Duration::from_secs(60)).await;

    // A clean shutdown (sessions are told), then a crash-like one (backends killed, crash
    // recovery at the next start).
    for mode in ["fast", "immediate"] {
        outage(&cluster, mode, &server, &games, &load).await;
    }

    let records = load.finish().await;
    eprintln!(
        "database restarts: {} requests: {}",
        records.len(),
        summary(&records)
    );
    for r in records.iter().filter(|r| r.status == Some(503)) {
        assert_refused(r, OUTAGE_ANSWER);
    }
    assert_answers(
        &records,
        Tolerate {
            unavailable: true,
            no_answer: false,
        },
    );
    assert!(
        count(&records, 503, "unavailable") > 0,
        "the load never saw the outage"
    );
    verify_games(&server.base, &games, &acks_of(&records)).await;
}

/// Needs no `TEST_DATABASE_URL`: the cluster is the test's own. Without `initdb` (or, as root,
/// a `postgres` user) it is a skip, and in CI a failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_restarted_under_load() {
    let _machine = MACHINE.read().await;
    let Some(cluster) = private_cluster().await else {
        return;
    };
    deadline(database_restarted(cluster)).await;
}
