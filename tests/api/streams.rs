//! Live games over real HTTP, on both databases: a game's event stream (order, ids, the end, resuming
//! at every point), a seat's private stream by token and by ticket, the lobby's stream, the long
//! poll, the cap on open streams, and two servers on one PostgreSQL database.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::sse::{Event, EventStream};
use crate::common::{self, Db, TestApp};
use crate::uno_api::choose;

const WAIT: Duration = Duration::from_secs(20);

async fn stream(app: &TestApp, path: &str, token: Option<&str>, last: Option<i64>) -> EventStream {
    EventStream::open(&app.client, &app.url(path), token, last).await
}

/// Black wins along row 8; white plays along row 1.
const GOMOKU_WIN: [&str; 9] = ["h8", "a1", "i8", "b1", "j8", "c1", "k8", "d1", "l8"];

async fn changes_arrive_in_order_and_resume_from_every_point(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "ann"}, {"name": "ben"}]}))
        .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let events = format!("/v1/gomoku/games/{id}/events");
    let mut spectator = stream(&app, &events, None, None).await;
    assert_eq!(spectator.status, 200);
    assert_eq!(
        spectator.headers["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    assert_eq!(spectator.headers["cache-control"], "no-store");
    let mut seat = stream(&app, &events, Some(&tokens[1]), None).await;
    for s in [&mut spectator, &mut seat] {
        let first = s.next(WAIT).await.expect("the game first");
        assert_eq!((first.name.as_str(), first.id), ("game", Some(0)));
        assert_eq!(first.data["missed"], false);
        assert_eq!(first.data["game"]["version"], 0);
    }

    let mut answers = Vec::new();
    for (i, point) in GOMOKU_WIN.iter().enumerate() {
        let answer = app
            .gomoku_move(&id, &tokens[i % 2], point)
            .await
            .expect(200);
        answers.push(answer.body);
    }
    let live = spectator.until_end(WAIT).await;
    assert_eq!(
        live.len(),
        GOMOKU_WIN.len(),
        "one event per change: {live:?}"
    );
    for (n, (event, answer)) in live.iter().zip(&answers).enumerate() {
        let version = n as i64 + 1;
        assert_eq!((event.name.as_str(), event.id), ("change", Some(version)));
        assert_eq!(event.data["game"]["version"], version);
        assert_eq!(event.data["events"], answer["events"], "version {version}");
        assert_eq!(event.data["game"]["state"], answer["game"]["state"]);
        assert_eq!(
            event.data["game"]["updated_at"],
            answer["game"]["updated_at"]
        );
    }
    assert_eq!(live.last().unwrap().data["game"]["status"], "finished");
    let seat_saw = seat.until_end(WAIT).await;
    assert_eq!(
        seat_saw, live,
        "a seat of a game without secrets sees what everybody sees"
    );

    // A client that dropped after any version gets every later one, once, in order, then the
    // end; after the last one there is nothing more (204 stops EventSource).
    for after in 0..GOMOKU_WIN.len() as i64 {
        let mut resumed = stream(&app, &events, None, Some(after)).await;
        assert_eq!(resumed.status, 200);
        let replayed = resumed.until_end(WAIT).await;
        assert_eq!(replayed, live[after as usize..], "resumed after {after}");
    }
    let since = stream(&app, &format!("{events}?since=4"), None, None).await;
    let mut since = since;
    assert_eq!(since.until_end(WAIT).await, live[4..]);
    let done = stream(&app, &events, None, Some(GOMOKU_WIN.len() as i64)).await;
    assert_eq!(done.status, 204);

    // A fresh stream of a finished game: the game, then the end.
    let mut late = stream(&app, &events, None, None).await;
    let only = late.until_end(WAIT).await;
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].data["game"]["status"], "finished");

    // A version the game never had: the game as it is, marked.
    let mut future = stream(&app, &events, None, Some(99)).await;
    let snapshot = future.until_end(WAIT).await;
    assert_eq!(
        (
            snapshot[0].name.as_str(),
            snapshot[0].data["missed"].clone()
        ),
        ("game", json!(true))
    );

    for (path, status, code) in [
        (
            format!("/v1/gomoku/games/{}/events", uuid::Uuid::now_v7()),
            404,
            "not_found",
        ),
        (format!("/v1/go/games/{id}/events"), 404, "not_found"),
        (format!("{events}?ticket=nonsense"), 401, "unauthorized"),
        (format!("{events}?since=-1"), 400, "invalid_request"),
        (format!("{events}?nope=1"), 400, "invalid_request"),
    ] {
        app.get(&path).await.assert_problem(status, code);
    }
    app.get_as(&events, &"ab".repeat(32))
        .await
        .assert_problem(401, "unauthorized");
}

/// A UNO table of two humans and an AI (`auto_ai`): each seat streams its own hand, by ticket or
/// by token; the spectator sees no hand; the AI's moves come one by one; tickets open once.
async fn each_seat_streams_its_own_hand(app: TestApp) {
    let created = app
        .post(
            "/v1/uno/games",
            json!({"players": [{"name": "ann"}, {"name": "bob"}, {"ai": "easy"}], "seed": 7}),
        )
        .await
        .expect(201);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let tokens: Vec<String> = created.body["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["token"].as_str().unwrap().to_owned())
        .collect();
    let path = |action: &str| format!("/v1/uno/games/{id}/{action}");
    let game_path = format!("/v1/uno/games/{id}");

    // Seat 0 as a browser would: a ticket, good once.
    let ticket = app
        .send(
            reqwest::Method::POST,
            &path("stream-ticket"),
            None,
            Some(&tokens[0]),
            &[],
        )
        .await
        .expect(200);
    assert_eq!(ticket.header("cache-control"), Some("no-store"));
    let ticket = ticket.body["ticket"].as_str().unwrap().to_owned();
    let with_ticket = format!("{}?ticket={ticket}", path("events"));
    let mut streams = [
        stream(&app, &with_ticket, None, None).await,
        stream(&app, &path("events"), Some(&tokens[1]), None).await,
        stream(&app, &path("events"), None, None).await,
    ];
    assert!(streams.iter().all(|s| s.status == 200));
    app.get(&with_ticket)
        .await
        .assert_problem(401, "unauthorized");
    app.post(&path("stream-ticket"), json!(null))
        .await
        .assert_problem(401, "unauthorized");
    let other = app
        .create_gomoku(json!({"players": [{"name": "x"}, {"name": "y"}]}))
        .await;
    let elsewhere = app
        .send(
            reqwest::Method::POST,
            &path("stream-ticket"),
            None,
            Some(&tokens[1]),
            &[],
        )
        .await
        .body["ticket"]
        .as_str()
        .unwrap()
        .to_owned();
    app.get(&format!(
        "/v1/gomoku/games/{}/events?ticket={elsewhere}",
        other.0
    ))
    .await
    .assert_problem(403, "forbidden");

    // The humans play from their own views until the game ends or 60 actions.
    let mut version = created.body["version"].as_i64().unwrap();
    for _ in 0..60 {
        let public = app.get(&game_path).await.body;
        if public["status"] != "active" {
            break;
        }
        let Some(turn) = public["turn"].as_u64().map(|t| t as usize) else {
            break;
        };
        if turn == 2 {
            break;
        }
        let mine = app.get_as(&game_path, &tokens[turn]).await;
        let answer = app
            .post_as(&path("moves"), choose(&mine.body["state"]), &tokens[turn])
            .await
            .expect(200);
        version = answer.body["game"]["version"].as_i64().unwrap();
    }
    let ended = app.post_as(&path("end"), json!(null), &tokens[0]).await;
    if ended.status == 200 {
        version = ended.body["game"]["version"].as_i64().unwrap();
    }

    let mut seen = Vec::new();
    for (viewer, s) in streams.iter_mut().enumerate() {
        let mut events: Vec<Event> = Vec::new();
        while events.last().and_then(|e| e.id) != Some(version) {
            match s.next(WAIT).await {
                Some(event) => events.push(event),
                None => break,
            }
        }
        let ids: Vec<i64> = events.iter().filter_map(|e| e.id).collect();
        let first = ids[0];
        assert_eq!(
            ids,
            (first..=version).collect::<Vec<_>>(),
            "viewer {viewer}"
        );
        for event in &events {
            let state = &event.data["game"]["state"];
            let hand = &state["hand"];
            if viewer < 2 {
                let count = state["hands"][viewer]["count"].as_u64().unwrap() as usize;
                assert_eq!(
                    hand.as_array().map(Vec::len),
                    Some(count),
                    "seat {viewer}'s own hand"
                );
            } else {
                assert!(hand.is_null(), "the spectator sees no hand: {state}");
            }
            assert!(!state["deck"].is_array(), "the deck's order stays hidden");
        }
        seen.push(events);
    }
    // Every viewer saw the same changes, with the same events; the AI's moves among them, each
    // its own change.
    for events in &seen[1..] {
        let names = |e: &[Event]| {
            e.iter()
                .map(|e| (e.id, e.data["events"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(events), names(&seen[0]));
    }
    let log = app.get(&path("moves")).await.body;
    let by_ai: Vec<i64> = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 2)
        .map(|m| m["seq"].as_i64().unwrap())
        .collect();
    assert!(!by_ai.is_empty(), "the AI moved");
    for seq in by_ai {
        let change = seen[2]
            .iter()
            .find(|e| e.id == Some(seq))
            .expect("each AI move streamed");
        let acted = change.data["events"].as_array().unwrap();
        assert!(acted.iter().any(|e| e["seat"] == 2), "{change:?}");
    }
}

async fn the_lobby_announces_created_started_and_finished_games(app: TestApp) {
    let mut lobby = stream(&app, "/v1/games/events?game=gomoku", None, None).await;
    assert_eq!(lobby.status, 200);
    let first = lobby.next(WAIT).await.unwrap();
    assert_eq!(first.name, "lobby");
    let start = first.id.unwrap();
    app.post(
        "/v1/go/games",
        json!({"players": [{"name": "a"}, {"ai": "easy"}]}),
    )
    .await
    .expect(201);
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "ann"}, {"open": true}]}))
        .await;
    let joined = app
        .post(
            &format!("/v1/gomoku/games/{id}/join"),
            json!({"name": "ben"}),
        )
        .await
        .expect(200);
    let tokens = [
        tokens[0].clone().unwrap(),
        joined.body["token"].as_str().unwrap().to_owned(),
    ];
    for (i, point) in GOMOKU_WIN.iter().enumerate() {
        app.gomoku_move(&id, &tokens[i % 2], point)
            .await
            .expect(200);
    }
    let mut seen = Vec::new();
    while seen.len() < 3 {
        seen.push(lobby.next(WAIT).await.expect("an announcement"));
    }
    let kinds: Vec<(&str, &Value, &Value)> = seen
        .iter()
        .map(|e| {
            (
                e.name.as_str(),
                &e.data["game"]["id"],
                &e.data["game"]["status"],
            )
        })
        .collect();
    let id = json!(id);
    assert_eq!(
        kinds,
        [
            ("created", &id, &json!("waiting")),
            ("started", &id, &json!("active")),
            ("finished", &id, &json!("finished")),
        ],
        "the go game is filtered out"
    );
    assert!(seen.windows(2).all(|w| w[0].id < w[1].id));
    assert!(seen[0].id.unwrap() > start);
    // Resuming after the first announcement sends the rest.
    let mut resumed = stream(&app, "/v1/games/events?game=gomoku", None, seen[0].id).await;
    assert_eq!(resumed.next(WAIT).await.unwrap(), seen[1]);
    assert_eq!(resumed.next(WAIT).await.unwrap(), seen[2]);
    assert!(resumed.quiet_for(Duration::from_millis(300)).await);
    app.get("/v1/games/events?game=chess")
        .await
        .assert_problem(400, "invalid_request");
}

async fn a_long_poll_answers_at_the_next_version_or_304(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "ann"}, {"name": "ben"}]}))
        .await;
    let game = format!("/v1/gomoku/games/{id}");
    let started = std::time::Instant::now();
    let timed_out = app.get(&format!("{game}?wait=1&after=0")).await;
    assert_eq!(timed_out.status, 304);
    assert!(started.elapsed() >= Duration::from_millis(900));

    let waiting = {
        let (client, url, token) = (
            app.client.clone(),
            app.url(&format!("{game}?wait=30&after=0")),
            tokens[1].clone().unwrap(),
        );
        tokio::spawn(async move {
            common::Reply::from(client.get(url).bearer_auth(token).send().await.unwrap()).await
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = std::time::Instant::now();
    app.gomoku_move(&id, tokens[0].as_deref().unwrap(), "h8")
        .await
        .expect(200);
    let answered = waiting.await.unwrap().expect(200);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(answered.body["version"], 1);
    assert_eq!(answered.header("etag"), Some("\"1-seat-1\""));
    for bad in ["?after=0", "?wait=0&after=0", "?wait=61&after=0", "?wait=5"] {
        app.get(&format!("{game}{bad}"))
            .await
            .assert_problem(400, "invalid_request");
    }
}

on_both_stores!(
    changes_arrive_in_order_and_resume_from_every_point,
    each_seat_streams_its_own_hand,
    the_lobby_announces_created_started_and_finished_games,
    a_long_poll_answers_at_the_next_version_or_304,
);

/// `PARLOR_MAX_STREAMS`: one stream more than allowed is 503 with `Retry-After`; a closed stream
/// gives its place back.
#[actix_web::test]
async fn streams_beyond_the_cap_are_refused() {
    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let config = parlor::config::Config {
        max_streams: 2,
        ..common::test_config(&url)
    };
    let app = common::spawn_on(&url, dir, config).await;
    let (id, _) = app
        .create_gomoku(json!({"players": [{"name": "ann"}, {"name": "ben"}]}))
        .await;
    let events = format!("/v1/gomoku/games/{id}/events");
    let first = stream(&app, &events, None, None).await;
    let _lobby = stream(&app, "/v1/games/events", None, None).await;
    let refused = app.get(&events).await;
    refused.assert_problem(503, "unavailable");
    assert!(refused.header("retry-after").is_some());
    // The server learns that a client left when it next writes to it: at the latest with the
    // keep-alive, every 15 s.
    drop(first);
    let mut again = None;
    for _ in 0..250 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let s = stream(&app, &events, None, None).await;
        if s.status == 200 {
            again = Some(s);
            break;
        }
    }
    assert!(again.is_some(), "the closed stream's place came back");
}

/// Two servers on one PostgreSQL database: a watcher on each sees every change once, in order,
/// whichever server took it; a game created on one is announced in the other's lobby.
#[actix_web::test]
async fn two_processes_on_postgres_deliver_every_change_to_every_watcher() {
    let Some((url, _)) = common::fresh_database(Db::Postgres).await else {
        return;
    };
    let apps = [
        common::spawn_on(&url, None, common::test_config(&url)).await,
        common::spawn_on(&url, None, common::test_config(&url)).await,
    ];
    let mut lobby = stream(&apps[1], "/v1/games/events?game=gomoku", None, None).await;
    lobby.next(WAIT).await.expect("the lobby first");
    let (id, tokens) = apps[0]
        .create_gomoku(json!({"players": [{"name": "ann"}, {"name": "ben"}]}))
        .await;
    let created = lobby.next(WAIT).await.expect("the game announced");
    assert_eq!(
        (created.name.as_str(), created.data["game"]["id"].as_str()),
        ("created", Some(id.as_str()))
    );
    let events = format!("/v1/gomoku/games/{id}/events");
    let mut watchers = Vec::new();
    for app in &apps {
        let mut watcher = stream(app, &events, None, None).await;
        assert_eq!(watcher.next(WAIT).await.unwrap().id, Some(0));
        watchers.push(watcher);
    }
    for (i, point) in GOMOKU_WIN.iter().enumerate() {
        apps[i % 2]
            .gomoku_move(&id, tokens[i % 2].as_deref().unwrap(), point)
            .await
            .expect(200);
    }
    let expected: Vec<Option<i64>> = (1..=GOMOKU_WIN.len() as i64).map(Some).collect();
    let mut seen = Vec::new();
    for watcher in &mut watchers {
        let events = watcher.until_end(WAIT).await;
        assert_eq!(events.iter().map(|e| e.id).collect::<Vec<_>>(), expected);
        seen.push(events);
    }
    assert_eq!(seen[0], seen[1]);
}

/// A client that stops reading is dropped over a real socket, not only in the queue's unit test:
/// its receive buffer is tiny and it reads nothing while changes are made, until its stream's
/// place (the server allows one) is free again. It then finds its stream ended short of the last
/// version, and resuming from what it got loses nothing.
#[actix_web::test]
async fn a_reader_that_stops_reading_is_dropped_and_resumes_without_a_gap() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let config = parlor::config::Config {
        max_streams: 1,
        ..common::test_config(&url)
    };
    let app = common::spawn_on(&url, dir, config).await;
    let (id, tokens) = app
        .create_gomoku(json!({"takeback": "any", "players": [{"name": "ann"}, {"name": "ben"}]}))
        .await;
    let black = tokens[0].clone().unwrap();
    let address = app.base.trim_start_matches("http://");
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut slow = socket.connect(address.parse().unwrap()).await.unwrap();
    let request = format!(
        "GET /v1/gomoku/games/{id}/events HTTP/1.1\r\nHost: {address}\r\n\
         Accept: text/event-stream\r\n\r\n"
    );
    slow.write_all(request.as_bytes()).await.unwrap();

    // Each move and each undo is a change. Every 20 of them, a long poll asks for the one place
    // the slow stream holds: 503 while it holds it.
    let undo = format!("/v1/gomoku/games/{id}/undo");
    let mut version = 0;
    loop {
        for _ in 0..10 {
            app.gomoku_move(&id, &black, "h8").await.expect(200);
            app.post_as(&undo, json!({}), &black).await.expect(200);
            version += 2;
        }
        let probe = app
            .get(&format!("/v1/gomoku/games/{id}?wait=1&after={version}"))
            .await;
        if probe.status != 503 {
            assert_eq!(probe.status, 304);
            break;
        }
        assert!(
            version < 5000,
            "a client that reads nothing was never dropped"
        );
    }

    // It reads at last: its stream ended (the last chunk came, or the connection closed) before
    // the newest version. The server may keep the connection open after the last chunk, so the
    // read stops at that chunk rather than waiting for the close.
    let mut raw = Vec::new();
    let ended = tokio::time::timeout(WAIT, async {
        let mut chunk = [0u8; 8192];
        loop {
            match slow.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => raw.extend_from_slice(&chunk[..n]),
            }
            if raw.ends_with(b"\r\n0\r\n\r\n") {
                return;
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the slow stream was never ended");
    let text = String::from_utf8_lossy(&raw);
    let ids: Vec<i64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("id: ")?.trim().parse().ok())
        .collect();
    let last = *ids.last().expect("some events came first");
    assert!(
        last < version,
        "dropped before version {version}, so it ends before"
    );

    // A new client: the shared one's pooled connections may have idled past the server's
    // keep-alive while the slow stream was drained, and a request on a closing one fails.
    let events = format!("{}/v1/gomoku/games/{id}/events", app.base);
    let mut resumed = EventStream::open(&reqwest::Client::new(), &events, None, Some(last)).await;
    for expected in last + 1..=version {
        let event = resumed.next(WAIT).await.expect("every later change");
        assert_eq!((event.name.as_str(), event.id), ("change", Some(expected)));
    }
}
