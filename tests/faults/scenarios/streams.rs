//! Streams under faults: a watcher on one process follows moves taken on another while the
//! database restarts under them, and SIGTERM ends every stream before the server stops.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::cluster::{private_cluster, PgCluster};
use crate::common::sse::EventStream;
use crate::process::Parlor;
use crate::{deadline, MACHINE};

const WAIT: Duration = Duration::from_secs(60);

/// A two-human Gomoku game: its id and the seats' tokens.
async fn gomoku(http: &reqwest::Client, base: &str) -> (String, [String; 2]) {
    let created: Value = http
        .post(format!("{base}/v1/gomoku/games"))
        .json(&json!({"players": [{"name": "ann"}, {"name": "ben"}]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = |seat: usize| {
        created["tokens"][seat]["token"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    (
        created["id"].as_str().unwrap().to_owned(),
        [token(0), token(1)],
    )
}

/// Plays `point` for the seat, trying again while the database is away; the version it made.
async fn play(http: &reqwest::Client, base: &str, id: &str, token: &str, point: &str) -> i64 {
    let started = Instant::now();
    loop {
        let answer = http
            .post(format!("{base}/v1/gomoku/games/{id}/moves"))
            .bearer_auth(token)
            .json(&json!({"move": point}))
            .send()
            .await;
        if let Ok(answer) = answer {
            if answer.status() == 200 {
                let body: Value = answer.json().await.unwrap();
                return body["game"]["version"].as_i64().unwrap();
            }
            assert_eq!(
                answer.status(),
                503,
                "{point}: {}",
                answer.text().await.unwrap()
            );
        }
        assert!(started.elapsed() < WAIT, "the database did not come back");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn stream_across_a_restart(cluster: PgCluster) {
    cluster.start().expect("the private cluster starts");
    let cluster = Arc::new(cluster);
    let watched = Parlor::start("watched", &cluster.url(), &[]).await;
    let mover = Parlor::start("mover", &cluster.url(), &[]).await;
    let http = reqwest::Client::new();
    let (id, tokens) = gomoku(&http, &mover.base).await;
    let url = format!("{}/v1/gomoku/games/{id}/events", watched.base);
    let mut stream = EventStream::open(&http, &url, None, None).await;
    assert_eq!(stream.next(WAIT).await.unwrap().id, Some(0));
    let points = ["h8", "a1", "i8", "b1", "j8", "c1"];
    let mut played = Vec::new();
    for (i, point) in points.iter().enumerate() {
        if i == 2 {
            // The watcher's process loses its listening connection with the database, and its
            // stream cannot read until the database is back.
            let stopper = cluster.clone();
            tokio::task::spawn_blocking(move || stopper.stop("fast"))
                .await
                .unwrap()
                .expect("pg_ctl stop");
            tokio::time::sleep(Duration::from_secs(1)).await;
            let starter = cluster.clone();
            tokio::task::spawn_blocking(move || starter.start())
                .await
                .unwrap()
                .expect("pg_ctl start");
        }
        played.push(play(&http, &mover.base, &id, &tokens[i % 2], point).await);
    }
    let mut seen = Vec::new();
    while seen.last() != played.last() {
        let event = stream.next(WAIT).await.expect("the stream stays open");
        assert_eq!(event.name, "change");
        seen.push(event.id.unwrap());
    }
    assert_eq!(
        seen, played,
        "every version once, in order, across the restart"
    );
}

/// Two processes on one private cluster; the database restarts between two moves. The stream on
/// the first process follows moves taken on the second, losing none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_follows_another_process_across_a_database_restart() {
    let _machine = MACHINE.read().await;
    let Some(cluster) = private_cluster().await else {
        return;
    };
    deadline(stream_across_a_restart(cluster)).await;
}

/// SIGTERM: every open stream ends at once (its client reconnects elsewhere) and the server exits
/// cleanly, without waiting for the streams.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_the_streams_and_the_server() {
    let _machine = MACHINE.read().await;
    deadline(async {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("p.db").display());
        let mut server = Parlor::start("parlor", &url, &[]).await;
        let http = reqwest::Client::new();
        let (id, _) = gomoku(&http, &server.base).await;
        let game = format!("{}/v1/gomoku/games/{id}/events", server.base);
        let lobby = format!("{}/v1/games/events", server.base);
        let mut streams = [
            EventStream::open(&http, &game, None, None).await,
            EventStream::open(&http, &lobby, None, None).await,
        ];
        for stream in &mut streams {
            assert!(stream.next(WAIT).await.is_some());
        }
        let started = Instant::now();
        server.terminate();
        for stream in &mut streams {
            assert!(
                stream.next(Duration::from_secs(10)).await.is_none(),
                "the stream ended"
            );
        }
        let status = server.wait_exit(Duration::from_secs(10));
        assert!(status.success(), "the server exits cleanly: {status}");
        assert!(started.elapsed() < Duration::from_secs(10));
    })
    .await;
}
