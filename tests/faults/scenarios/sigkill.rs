//! Scenario 2: `kill -9` mid-load loses no acknowledged move, and the restarted server goes on where the
//! log ends.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::STEADY;
use crate::common::{fresh_database, Db};
use crate::invariants::{acks_of, verify_games};
use crate::load::{
    assert_answers, create_games, http_client, moves_of, point, read_game, summary, wait_until,
    Load, Tolerate,
};
use crate::process::Parlor;
use crate::{deadline, MACHINE, SIZE};
async fn sigkill_loses_nothing(db: Db) {
    let _machine = MACHINE.read().await;
    let Some((url, _dir)) = fresh_database(db).await else {
        return;
    };
    let mut server = Parlor::start("parlor", &url, &[]).await;
    let http = http_client();
    let games = create_games(&http, &server.base, 4).await;

    let load = Load::start(std::slice::from_ref(&server.base), &games, 3, None, STEADY);
    load.wait_acks(40, Duration::from_secs(60)).await;
    // Pull the plug while requests are in flight (sent, not yet answered).
    let progress = load.progress.clone();
    wait_until("requests in flight", Duration::from_secs(30), || {
        (progress.in_flight() >= 2)
            .then_some(())
            .ok_or(format!("{} in flight", progress.in_flight()))
    })
    .await;
    let killed_at = Instant::now();
    assert!(server.kill9(), "the server had died before the kill");
    // The clients find out: wait until some went unanswered since.
    let unanswered_at_kill = progress.unanswered();
    wait_until(
        "clients see the dead server",
        Duration::from_secs(30),
        || {
            (progress.unanswered() > unanswered_at_kill)
                .then_some(())
                .ok_or(format!("{} unanswered", progress.unanswered()))
        },
    )
    .await;
    let records = load.finish().await;
    let acks = acks_of(&records);
    // Sent before the kill and never answered: requests the kill cut.
    let cut = records
        .iter()
        .filter(|r| r.status.is_none() && r.at < killed_at)
        .count();
    eprintln!(
        "kill -9 on {db:?}: {} acknowledged, {cut} cut in flight, {} unanswered in all: {}",
        acks.len(),
        records.iter().filter(|r| r.status.is_none()).count(),
        summary(&records)
    );
    assert!(
        cut >= 1,
        "no request was in flight when the server died: the kill tested nothing"
    );
    assert_answers(
        &records,
        Tolerate {
            unavailable: false,
            no_answer: true,
        },
    );
    assert!(
        records
            .iter()
            .all(|r| r.status.is_some() || r.at + r.elapsed >= killed_at),
        "a request went unanswered before the kill"
    );

    let again = Parlor::start("parlor-restarted", &url, &[]).await;
    let versions = verify_games(&again.base, &games, &acks).await;
    // The restarted server goes on where the log ends.
    for (g, game) in games.iter().enumerate() {
        let state = read_game(&http, &again.base, &game.id).await;
        if state["status"] != "active" {
            continue;
        }
        let turn = state["turn"].as_u64().unwrap() as usize;
        let taken: HashSet<String> = moves_of(&state).into_iter().collect();
        let spot = (0..SIZE)
            .flat_map(|c| (0..SIZE).map(move |r| point(c, r)))
            .find(|p| !taken.contains(p))
            .unwrap();
        let r = http
            .post(format!("{}/v1/gomoku/games/{}/moves", again.base, game.id))
            .bearer_auth(&game.tokens[turn])
            .header("if-match", format!("\"{}\"", versions[g]))
            .json(&json!({"move": spot}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "game {g}: {}", r.text().await.unwrap());
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["game"]["version"], versions[g] + 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_load_loses_no_acknowledged_move_on_postgres() {
    deadline(sigkill_loses_nothing(Db::Postgres)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_load_loses_no_acknowledged_move_on_sqlite() {
    deadline(sigkill_loses_nothing(Db::Sqlite)).await;
}
