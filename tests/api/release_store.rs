//! Games stored by the last release before the state was stored plainly (commit 0a301b8) still
//! load, and answer exactly as that release answered. `tests/fixtures/release_store/` holds their
//! rows, dumped from a database that release made (`make.py` says how), and its answers. The
//! database is brought to that release's schema (migrations 0001–0008), filled with the rows, and
//! then opened by today's server, which migrates it the rest of the way.

use std::borrow::Cow;
use std::str::FromStr;

use serde_json::Value;

use crate::common::{self, Db};

/// The last migration of the release the fixture comes from.
const RELEASE_MIGRATION: i64 = 8;

async fn fill_at_release_schema(db: Db, url: &str) {
    let (migrations, rows) = match db {
        Db::Sqlite => (
            sqlx::migrate!("./migrations/sqlite"),
            include_str!("../fixtures/release_store/sqlite.sql"),
        ),
        Db::Postgres => (
            sqlx::migrate!("./migrations/postgres"),
            include_str!("../fixtures/release_store/postgres.sql"),
        ),
    };
    let mut at_release = migrations;
    at_release.migrations = Cow::Owned(
        at_release
            .migrations
            .iter()
            .filter(|m| m.version <= RELEASE_MIGRATION)
            .cloned()
            .collect(),
    );
    match db {
        Db::Sqlite => {
            let options = sqlx::sqlite::SqliteConnectOptions::from_str(url)
                .unwrap()
                .create_if_missing(true);
            let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
            at_release.run(&pool).await.expect("the release's schema");
            sqlx::raw_sql(rows).execute(&pool).await.expect("the rows");
            pool.close().await;
        }
        Db::Postgres => {
            let pool = sqlx::PgPool::connect(url).await.unwrap();
            at_release.run(&pool).await.expect("the release's schema");
            sqlx::raw_sql(rows).execute(&pool).await.expect("the rows");
            pool.close().await;
        }
    }
}

async fn answers_as_the_release_did(db: Db) {
    let Some((url, dir)) = common::fresh_database(db).await else {
        return;
    };
    fill_at_release_schema(db, &url).await;
    let app = common::spawn_on(&url, dir, common::test_config(&url)).await;
    let expected: Value = serde_json::from_str(match db {
        Db::Sqlite => include_str!("../fixtures/release_store/sqlite.json"),
        Db::Postgres => include_str!("../fixtures/release_store/postgres.json"),
    })
    .unwrap();
    for game in expected.as_array().unwrap() {
        let (kind, id) = (game["game"].as_str().unwrap(), game["id"].as_str().unwrap());
        let path = format!("/v1/{kind}/games/{id}");
        for (viewer, answer) in game["answers"].as_object().unwrap() {
            let reply = match viewer.as_str() {
                "public" => app.get(&path).await,
                "moves" => app.get(&format!("{path}/moves?limit=1000")).await,
                seat => {
                    let seat: usize = seat.strip_prefix("seat ").unwrap().parse().unwrap();
                    let token = game["tokens"][seat].as_str().unwrap();
                    app.get_as(&path, token).await
                }
            };
            assert_eq!(&reply.body, answer, "{kind} game {id}, read by {viewer}");
        }
    }
    // And they play on: the long Go game takes a redo, a move and an undo.
    let go = &expected[0];
    let (id, token) = (
        go["id"].as_str().unwrap(),
        go["tokens"][0].as_str().unwrap(),
    );
    let redone = app
        .post_as(
            &format!("/v1/go/games/{id}/redo"),
            serde_json::json!({}),
            token,
        )
        .await
        .expect(200);
    let moves = redone.body["game"]["state"]["moves"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(moves, 398, "{}", redone.text);
}

#[actix_web::test]
async fn sqlite_games_of_the_last_release_answer_as_they_did() {
    answers_as_the_release_did(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_games_of_the_last_release_answer_as_they_did() {
    answers_as_the_release_did(Db::Postgres).await;
}
