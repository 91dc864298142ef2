//! Operations routes, the generated documentation, scores surviving a restart, CORS and slow
//! bodies; the start-up and Docker checks (`ops/startup.rs`) and the README's walkthroughs run as
//! printed (`ops/readme.rs`) share this test binary.

use crate::common;
mod readme;
mod startup;

use common::{Db, TestApp};
use serde_json::json;

#[actix_web::test]
async fn health_ready_metrics_and_docs() {
    let app = common::spawn(Db::Sqlite).await.unwrap();
    let health = app.get("/health").await;
    assert_eq!(health.body["status"], "ok");
    assert!(health
        .header("x-request-id")
        .is_some_and(|id| id.len() >= 32));
    let timing = health.header("server-timing").unwrap_or_default();
    let ms: f64 = timing
        .strip_prefix("app;dur=")
        .and_then(|ms| ms.parse().ok())
        .unwrap_or_else(|| panic!("Server-Timing {timing:?}"));
    assert!((0.0..10_000.0).contains(&ms), "{timing}");
    assert_eq!(app.get("/ready").await.body["status"], "ready");

    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "m"}, {"ai": "easy"}]}))
        .await;
    app.gomoku_move(&id, tokens[0].as_ref().unwrap(), "h8")
        .await
        .expect(200);
    let ai = app
        .post(&format!("/v1/gomoku/games/{id}/ai-move"), json!({}))
        .await
        .expect(200);
    assert_eq!(ai.body["applied"], true, "{}", ai.text);
    app.get("/metrics").await.assert_problem(404, "not_found");
    let spec = app.get("/openapi.json").await;
    assert_eq!(spec.status, 200);
    assert!(spec.body["openapi"].as_str().unwrap().starts_with("3.1"));
    let docs = app.get("/docs/").await;
    assert_eq!(docs.status, 200);
    assert!(docs.text.contains("swagger"), "{}", docs.text);
    let ui_js = app.get("/docs/swagger-ui-bundle.js").await;
    assert_eq!(ui_js.status, 200, "Swagger UI is served from the binary");
}

#[actix_web::test]
async fn start_up_fails_loudly_without_a_database() {
    // Nothing listens on port 1: the server must refuse to start rather than serve 503s forever.
    let config = common::test_config("postgres://postgres@127.0.0.1:1/nothing");
    let failed = parlor::app::Application::build(config).await;
    assert!(failed.is_err());
}

#[actix_web::test]
async fn scores_survive_a_restart() {
    for db in [Db::Sqlite, Db::Postgres] {
        let Some((url, dir)) = common::fresh_database(db).await else {
            continue;
        };
        let name = format!("restart-{}", rand::random::<u32>());
        {
            let app: TestApp = common::spawn_on(&url, None, common::test_config(&url)).await;
            // Against the AI (a hot-seat game moves no score): a resignation, −100.
            let (id, tokens) = app
                .create_gomoku(json!({"players": [{"name": name}, {"ai": "easy"}]}))
                .await;
            let b = tokens[0].clone().unwrap();
            assert_eq!(
                app.gomoku_move(&id, &b, "resign").await.body["game"]["status"],
                "finished"
            );
        }
        // A second start on the same database: migrations are a no-op, the score is still there.
        let again = common::spawn_on(&url, dir, common::test_config(&url)).await;
        let player = again.get(&format!("/v1/players/{name}")).await;
        assert_eq!(
            player.body["gomoku"]["score"], 900,
            "{db:?}: {}",
            player.text
        );
    }
}

#[test]
fn committed_openapi_matches_the_code() {
    let generated = parlor::http::openapi::document_json();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed.trim() != generated.trim() {
        if std::env::var_os("UPDATE_OPENAPI").is_some() {
            std::fs::write(path, generated + "\n").unwrap();
            return;
        }
        panic!(
            "openapi/openapi.json is stale: run `cargo run -- openapi > openapi/openapi.json` \
             (or this test with UPDATE_OPENAPI=1)"
        );
    }
}

/// A server on SQLite whose clients may ask for `rate` AI moves a minute.
async fn app_with_ai_rate_per_minute(rate: u32) -> common::TestApp {
    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.ai_rate_per_minute = Some(rate);
    common::spawn_on(&url, dir, config).await
}

#[actix_web::test]
async fn ai_requests_are_rate_limited_per_client_when_configured() {
    let app = app_with_ai_rate_per_minute(2).await;
    let (id, owner) = app
        .create_ai_table(
            "gomoku",
            json!({"players": [{"ai": "easy"}, {"ai": "easy"}]}),
        )
        .await;
    let path = format!("/v1/gomoku/games/{id}/ai-move");
    for _ in 0..2 {
        let reply = app.post_as(&path, json!({"time_ms": 10}), &owner).await;
        assert_eq!(reply.status, 200);
    }
    let limited = app.post_as(&path, json!({"time_ms": 10}), &owner).await;
    limited.assert_problem(429, "rate_limited");
    assert!(limited.header("retry-after").is_some());
    // Plain reads are not limited.
    assert_eq!(app.get(&format!("/v1/gomoku/games/{id}")).await.status, 200);
}

/// The AI moves the server plays by itself (`auto_ai`) count against the same per-client limit as
/// `ai-move`: once it is spent, the AI seat waits for the next request.
#[actix_web::test]
async fn auto_played_ai_moves_count_against_the_ai_limit() {
    let app = app_with_ai_rate_per_minute(2).await;
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "ann"}, {"ai": "easy"}], "auto_ai": true}))
        .await;
    let ann = tokens[0].clone().unwrap();
    let moves = format!("/v1/gomoku/games/{id}/moves");
    let mut corners = ["a1", "o15", "a15", "o1", "b1", "n15"].into_iter();
    let mut version = 0;
    for expected_ai_answers in [true, true, false] {
        let mut reply;
        loop {
            let corner = corners.next().expect("a free corner");
            reply = app.post_as(&moves, json!({"move": corner}), &ann).await;
            if reply.status == 200 {
                break;
            }
            reply.assert_problem(422, "illegal_move");
        }
        let answered = reply.body["game"]["version"].as_i64().unwrap() - version == 2;
        assert_eq!(answered, expected_ai_answers, "{}", reply.text);
        version = reply.body["game"]["version"].as_i64().unwrap();
    }
    assert_eq!(
        app.get(&format!("/v1/gomoku/games/{id}")).await.body["turn"],
        1
    );
    let limited = app
        .post(&format!("/v1/gomoku/games/{id}/ai-move"), json!(null))
        .await;
    limited.assert_problem(429, "rate_limited");
}

#[actix_web::test]
async fn ai_rate_limit_is_off_by_default() {
    let app = common::spawn(Db::Sqlite).await.unwrap();
    let (id, owner) = app
        .create_ai_table(
            "gomoku",
            json!({"size": 9, "players": [{"ai": "easy"}, {"ai": "easy"}]}),
        )
        .await;
    for _ in 0..12 {
        let r = app
            .post_as(
                &format!("/v1/gomoku/games/{id}/ai-move"),
                json!({"time_ms": 5}),
                &owner,
            )
            .await;
        assert!(
            r.status == 200 || r.body["code"] == "game_over",
            "{}",
            r.text
        );
    }
}

/// Every documented route, with its path parameters filled in, and its methods.
async fn documented_routes(app: &TestApp) -> Vec<(String, String)> {
    let doc = app.get("/openapi.json").await.body;
    let mut routes = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let concrete = path
            .replace("{id}", "0193a0b0-0000-7000-8000-000000000000")
            .replace("{seat}", "0")
            .replace("{name}", "alice");
        for method in item.as_object().unwrap().keys() {
            routes.push((method.to_uppercase(), concrete.clone()));
        }
    }
    assert!(routes.len() > 20, "{routes:?}");
    routes
}

fn preflight(app: &TestApp, origin: &str, method: &str, path: &str) -> reqwest::RequestBuilder {
    app.client
        .request(reqwest::Method::OPTIONS, app.url(path))
        .header("origin", origin)
        .header("access-control-request-method", method)
        .header(
            "access-control-request-headers",
            "authorization, content-type, if-match, if-none-match, last-event-id",
        )
}

#[actix_web::test]
async fn browsers_on_any_origin_may_call_every_route_by_default() {
    let app = common::spawn(Db::Sqlite).await.unwrap();
    for (method, path) in documented_routes(&app).await {
        let answer = preflight(&app, "http://localhost:3000", &method, &path)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "preflight of {method} {path}");
        let header = |name: &str| {
            answer
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_ascii_lowercase()
        };
        assert_eq!(
            header("access-control-allow-origin"),
            "*",
            "{method} {path}"
        );
        assert!(header("access-control-allow-methods").contains(&method.to_ascii_lowercase()));
        let allowed = header("access-control-allow-headers");
        for name in [
            "authorization",
            "content-type",
            "if-match",
            "if-none-match",
            "last-event-id",
        ] {
            assert!(
                allowed.contains(name),
                "{name} not allowed on {method} {path}: {allowed}"
            );
        }
        assert!(answer
            .headers()
            .get("access-control-allow-credentials")
            .is_none());
    }
    // The answers themselves, errors included, let the page read what it needs.
    let created = app
        .send(
            reqwest::Method::POST,
            "/v1/gomoku/games",
            Some(&json!({"players": [{"name": "a"}, {"name": "b"}]})),
            None,
            &[("Origin", "http://localhost:3000")],
        )
        .await
        .expect(201);
    assert_eq!(created.header("access-control-allow-origin"), Some("*"));
    let exposed = created
        .header("access-control-expose-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    for name in ["etag", "location", "retry-after", "x-request-id"] {
        assert!(exposed.contains(name), "{name} is not exposed: {exposed}");
    }
    let missing = app
        .send(
            reqwest::Method::GET,
            "/v1/gomoku/games/0193a0b0-0000-7000-8000-000000000000",
            None,
            None,
            &[("Origin", "http://localhost:3000")],
        )
        .await;
    missing.assert_problem(404, "not_found");
    assert_eq!(missing.header("access-control-allow-origin"), Some("*"));
}

#[actix_web::test]
async fn cors_narrows_to_a_list_of_origins_or_turns_off() {
    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.cors_origins = "http://a.example, https://b.example:8443".into();
    let app = common::spawn_on(&url, dir, config).await;
    for origin in ["http://a.example", "https://b.example:8443"] {
        let answer = preflight(&app, origin, "POST", "/v1/go/games")
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
        assert_eq!(
            answer.headers()["access-control-allow-origin"]
                .to_str()
                .unwrap(),
            origin
        );
    }
    let stranger = app
        .send(
            reqwest::Method::GET,
            "/v1/games",
            None,
            None,
            &[("Origin", "http://c.example")],
        )
        .await
        .expect(200);
    assert_eq!(stranger.header("access-control-allow-origin"), None);

    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.cors_origins = "none".into();
    let app = common::spawn_on(&url, dir, config).await;
    let answer = preflight(&app, "http://a.example", "POST", "/v1/go/games")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.headers().get("access-control-allow-origin"), None);
    let read = app
        .send(
            reqwest::Method::GET,
            "/v1/games",
            None,
            None,
            &[("Origin", "http://a.example")],
        )
        .await
        .expect(200);
    assert_eq!(read.header("access-control-allow-origin"), None);

    let mut config = common::test_config(&url);
    config.cors_origins = "localhost:3000".into();
    let refused = parlor::app::Application::build(config).await;
    let error = refused
        .err()
        .expect("a bad origin stops the start")
        .to_string();
    assert!(error.contains("localhost:3000"), "{error}");
}

#[actix_web::test]
async fn a_body_that_never_completes_gets_408_and_the_connection_closes() {
    use std::io::{Read, Write};
    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.body_timeout = 1;
    let app = common::spawn_on(&url, dir, config).await;
    let address = app.base.trim_start_matches("http://").to_owned();
    let answer = tokio::task::spawn_blocking(move || {
        let mut socket = std::net::TcpStream::connect(address).unwrap();
        socket
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        socket
            .write_all(
                b"POST /v1/gomoku/games HTTP/1.1\r\nHost: parlor\r\n\
                  Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"players\"",
            )
            .unwrap();
        let started = std::time::Instant::now();
        let mut answer = Vec::new();
        // Reads to the end: the server must close the connection, not wait for the rest.
        socket
            .read_to_end(&mut answer)
            .expect("the server closes the connection");
        (
            String::from_utf8_lossy(&answer).into_owned(),
            started.elapsed(),
        )
    })
    .await
    .unwrap();
    let (text, waited) = answer;
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("request_timeout"), "{text}");
    assert!(waited < std::time::Duration::from_secs(5), "{waited:?}");
    // A body that arrives whole is served as before.
    app.post(
        "/v1/gomoku/games",
        json!({"players": [{"name": "a"}, {"name": "b"}]}),
    )
    .await
    .expect(201);
}

#[actix_web::test]
async fn metrics_are_served_only_on_the_admin_listener() {
    let (url, _dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.admin_port = Some(0);
    let app = parlor::app::Application::build(config).await.unwrap();
    let base = format!("http://{}", app.address());
    let admin = format!("http://{}", app.admin_address().expect("an admin listener"));
    let _handle = app.spawn();
    let client = reqwest::Client::new();
    let created: serde_json::Value = client
        .post(format!("{base}/v1/gomoku/games"))
        .json(&json!({"players": [{"name": "m"}, {"ai": "easy"}]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let (id, token) = (
        created["id"].as_str().unwrap(),
        created["tokens"][0]["token"].as_str().unwrap(),
    );
    let moved = client
        .post(format!("{base}/v1/gomoku/games/{id}/moves"))
        .bearer_auth(token)
        .json(&json!({"move": "h8"}))
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status(), 200);
    let ai = client
        .post(format!("{base}/v1/gomoku/games/{id}/ai-move"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(ai.status(), 200);
    let public = client.get(format!("{base}/metrics")).send().await.unwrap();
    assert_eq!(public.status(), 404, "the public port shows no metrics");
    let metrics = client
        .get(format!("{admin}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for needle in [
        "parlor_moves_applied_total{game=\"gomoku\"} 2",
        "parlor_ai_think_seconds_count{game=\"gomoku\",level=\"easy\"} 1",
        "parlor_http_requests_total",
        "parlor_http_requests_duration_seconds_bucket",
        "/v1/gomoku/games/{id}/moves",
    ] {
        assert!(metrics.contains(needle), "missing {needle}:\n{metrics}");
    }
    let other = client
        .get(format!("{admin}/v1/games"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        other.status(),
        404,
        "the admin listener serves only /metrics"
    );
}

#[actix_web::test]
async fn creations_share_a_per_client_quota() {
    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.create_rate_per_minute = 3;
    let app = common::spawn_on(&url, dir, config).await;
    app.post(
        "/v1/gomoku/games",
        json!({"players": [{"name": "a"}, {"name": "b"}]}),
    )
    .await
    .expect(201);
    app.post("/v1/poker/decks", json!({})).await.expect(201);
    app.post("/v1/players", json!({"name": "quota"}))
        .await
        .expect(201);
    for (path, body) in [
        (
            "/v1/go/games",
            json!({"size": 9, "players": [{"name": "a"}, {"name": "b"}]}),
        ),
        ("/v1/poker/decks", json!({})),
        ("/v1/players", json!({"name": "quota2"})),
    ] {
        let refused = app.post(path, body).await;
        refused.assert_problem(429, "rate_limited");
        assert!(refused.header("retry-after").is_some(), "{path}");
        assert!(refused.body["detail"]
            .as_str()
            .unwrap()
            .contains("creations"));
    }
    // Reads and moves are not creations.
    assert_eq!(app.get("/v1/games").await.status, 200);

    let (url, dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.create_rate_per_minute = 0;
    let app = common::spawn_on(&url, dir, config).await;
    for _ in 0..5 {
        app.post("/v1/poker/decks", json!({})).await.expect(201);
    }
}

/// Waits (20 s at most) until `$gone` (an expression awaited each time) is true.
macro_rules! eventually {
    ($what:expr, $gone:expr) => {{
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !$gone {
            assert!(std::time::Instant::now() < deadline, "{} never went", $what);
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }};
}

/// The sweep as the server runs it: started with the server (it sweeps at once), and following
/// `--waiting-game-ttl-hours` and `--idle-deck-ttl-hours` (0: never).
async fn the_server_sweeps_what_expired(db: Db) {
    use parlor::games::GameStatus;
    use parlor::store::{DeckRecord, NewGame};

    let Some((url, dir)) = common::fresh_database(db).await else {
        return;
    };
    let store = common::open_store(&url).await;
    let now = parlor::store::now();
    let waiting = |at| NewGame {
        id: uuid::Uuid::now_v7(),
        game: "gomoku".into(),
        status: GameStatus::Waiting,
        turn: None,
        state: serde_json::value::to_raw_value(&json!({"moves": []})).unwrap(),
        seats: Vec::new(),
        scored_players: Vec::new(),
        lobby: parlor::store::LobbyNote {
            kind: parlor::store::LobbyKind::Created,
            status: GameStatus::Waiting,
            entry: json!({}),
        },
        at,
        sweep_at_ms: None,
        options: None,
        rematch_of: None,
    };
    let stale = waiting(now - chrono::Duration::hours(25));
    let fresh = waiting(now - chrono::Duration::hours(23));
    store.create_game(&stale).await.unwrap();
    store.create_game(&fresh).await.unwrap();
    let deck = DeckRecord {
        id: uuid::Uuid::now_v7(),
        version: 0,
        state: sqlx::types::Json(json!({})),
        owner_token_hash: None,
        created_at: now - chrono::Duration::days(8),
        updated_at: now - chrono::Duration::days(8),
    };
    store.create_deck(&deck).await.unwrap();

    // Waiting games never expire here: the sweep at start removes the deck and nothing else.
    let mut config = common::test_config(&url);
    config.waiting_game_ttl_hours = 0;
    let keeping = common::spawn_on(&url, None, config).await;
    eventually!(
        "the idle deck",
        store.load_deck(deck.id).await.unwrap().is_none()
    );
    assert!(store.load_game(stale.id, None).await.unwrap().is_some());
    drop(keeping);

    // The defaults: waiting games expire after 24 hours.
    let app = common::spawn_on(&url, dir, common::test_config(&url)).await;
    eventually!(
        "the stale waiting game",
        store.load_game(stale.id, None).await.unwrap().is_none()
    );
    assert!(store.load_game(fresh.id, None).await.unwrap().is_some());
    app.get(&format!("/v1/gomoku/games/{}", stale.id))
        .await
        .assert_problem(404, "not_found");
}

#[actix_web::test]
async fn sqlite_server_sweeps_expired_waiting_games_and_idle_decks() {
    the_server_sweeps_what_expired(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_server_sweeps_expired_waiting_games_and_idle_decks() {
    the_server_sweeps_what_expired(Db::Postgres).await;
}
