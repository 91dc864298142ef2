//! Scenario 1: Two server processes on one database, racing clients: every version is one acknowledged
//! change, whichever server took it.

use std::time::Instant;

use crate::common::{fresh_database, Db};
use crate::invariants::{acks_of, verify_games};
use crate::load::{
    assert_answers, count, create_games, http_client, read_game, summary, Load, Style, Tolerate,
};
use crate::process::Parlor;
use crate::{deadline, MACHINE};

/// Racing play: half the changes with `If-Match`, a few undos and a few stones out of turn.
const RACE: Style = Style {
    if_match: 0.5,
    undo: 0.08,
    wrong_seat: 0.05,
};

async fn two_servers_race(db: Db) {
    let _machine = MACHINE.read().await;
    let Some((url, _dir)) = fresh_database(db).await else {
        return;
    };
    // Both start at once on an empty database: their migrations race too, as two replicas' would
    // (PostgreSQL serialises them with an advisory lock; on SQLite the loser retries).
    let (a, b) = tokio::join!(
        Parlor::start("parlor-a", &url, &[]),
        Parlor::start("parlor-b", &url, &[])
    );
    let bases = [a.base.clone(), b.base.clone()];
    let http = http_client();
    let games = create_games(&http, &a.base, 6).await;

    let started = Instant::now();
    let load = Load::start(&bases, &games, 6, Some(30), RACE);
    let records = load.join().await;
    let elapsed = started.elapsed();

    eprintln!(
        "two servers on {db:?}: {} requests in {elapsed:?}: {}",
        records.len(),
        summary(&records)
    );
    assert_answers(
        &records,
        Tolerate {
            unavailable: false,
            no_answer: false,
        },
    );
    let acks = acks_of(&records);
    for server in 0..2 {
        assert!(
            records
                .iter()
                .any(|r| r.server == server && r.ack.is_some()),
            "server {server} acknowledged nothing"
        );
    }
    assert!(
        count(&records, 409, "conflict") + count(&records, 412, "") > 0,
        "no request lost a race: the test did not race"
    );

    let versions = verify_games(&a.base, &games, &acks).await;
    // Both servers see the same games, and every version comes from one acknowledged change.
    for (g, game) in games.iter().enumerate() {
        let via_b = read_game(&http, &b.base, &game.id).await;
        assert_eq!(
            via_b["version"], versions[g],
            "game {g} differs between servers"
        );
        let acked = acks.iter().filter(|x| x.game == g).count() as i64;
        assert_eq!(
            acked, versions[g],
            "game {g}: {acked} acknowledged changes but version {}: a change nobody was told about",
            versions[g]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_race_on_postgres() {
    deadline(two_servers_race(Db::Postgres)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_race_on_one_sqlite_file() {
    deadline(two_servers_race(Db::Sqlite)).await;
}
