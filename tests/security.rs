//! Security properties seen from outside: no token in logs, seat isolation, nothing hidden leaks.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::TestApp;
use reqwest::Method;
use serde_json::{json, Value};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The real binary at debug log level: tokens (and their hashes) never reach the log.
#[actix_web::test]
async fn tokens_never_reach_the_logs() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let log_path = dir.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("p.db").display()),
        )
        .env("PORT", port.to_string())
        .env("RUST_LOG", "debug")
        .env("PARLOR_LOG_FORMAT", "json")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let mut up = false;
    for _ in 0..100 {
        if client.get(format!("{base}/health")).send().await.is_ok() {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "server did not start");
    let created: Value = client
        .post(format!("{base}/v1/gomoku/games"))
        .json(&json!({"players": [{"name": "ann"}, {"name": "ben"}]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap();
    let token = created["tokens"][0]["token"].as_str().unwrap().to_owned();
    let other = created["tokens"][1]["token"].as_str().unwrap().to_owned();
    for (t, mv) in [(&token, "h8"), (&other, "a1"), (&other, "b1")] {
        client
            .post(format!("{base}/v1/gomoku/games/{id}/moves"))
            .bearer_auth(t)
            .json(&json!({"move": mv}))
            .send()
            .await
            .unwrap();
    }
    client
        .get(format!("{base}/v1/gomoku/games/{id}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    let mut text = String::new();
    std::fs::File::open(&log_path)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert!(
        text.contains("request_id"),
        "logs are structured with a request id"
    );
    assert!(text.contains("/v1/gomoku/games"), "requests are logged");
    for secret in [&token, &other] {
        let hash = hex::encode(parlor::service::tokens::TokenHash::of(secret).0);
        assert!(!text.contains(secret.as_str()), "a token is in the log");
        assert!(!text.contains(&hash), "a token hash is in the log");
    }
}

async fn seats_are_isolated(app: TestApp) {
    let (a, a_tokens) = app
        .create_gomoku(json!({"players": [{"name": "a0"}, {"name": "a1"}]}))
        .await;
    let (b, b_tokens) = app
        .create_gomoku(json!({"players": [{"name": "b0"}, {"name": "b1"}]}))
        .await;
    let a1 = a_tokens[1].clone().unwrap();
    let b0 = b_tokens[0].clone().unwrap();
    // Game A's tokens act in no way on game B: move, undo, hint, private read.
    for (method, path, body) in [
        (
            Method::POST,
            format!("/v1/gomoku/games/{b}/moves"),
            Some(json!({"move": "h8"})),
        ),
        (Method::POST, format!("/v1/gomoku/games/{b}/undo"), None),
        (
            Method::POST,
            format!("/v1/gomoku/games/{b}/ai-move"),
            Some(json!({})),
        ),
        (Method::GET, format!("/v1/gomoku/games/{b}"), None),
    ] {
        for token in a_tokens.iter().flatten() {
            app.send(method.clone(), &path, body.as_ref(), Some(token), &[])
                .await
                .assert_problem(403, "forbidden");
        }
    }
    // Seat 1 cannot play seat 0's turn, nor ask for seat 0's hint.
    app.gomoku_move(&a, &a1, "h8")
        .await
        .assert_problem(409, "not_your_turn");
    app.post_as(&format!("/v1/gomoku/games/{a}/ai-move"), json!({}), &a1)
        .await
        .assert_problem(403, "forbidden");
    // Nothing moved anywhere; B's own token still works.
    assert_eq!(
        app.get(&format!("/v1/gomoku/games/{a}")).await.body["version"],
        0
    );
    assert_eq!(app.gomoku_move(&b, &b0, "h8").await.status, 200);
}

/// A deck session never shows the order, or even the identity, of the cards still in it.
async fn decks_reveal_only_drawn_cards(app: TestApp) {
    let codes: Vec<String> = [
        "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A",
    ]
    .iter()
    .flat_map(|r| ["S", "H", "D", "C"].map(|s| format!("{r}{s}")))
    .collect();
    let created = app.post("/v1/poker/decks", json!({"seed": 99})).await;
    let id = created.body["id"].as_str().unwrap().to_owned();
    let mut bodies = vec![created.text.clone()];
    let drawn = app
        .post(&format!("/v1/poker/decks/{id}/draw"), json!({"count": 6}))
        .await;
    bodies.push(drawn.text.clone());
    let shown: Vec<String> = drawn.body["deck"]["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    bodies.push(app.get(&format!("/v1/poker/decks/{id}")).await.text);
    bodies.push(
        app.post(&format!("/v1/poker/decks/{id}/undo"), json!({}))
            .await
            .text,
    );
    for body in &bodies {
        for code in &codes {
            if body.contains(&format!("\"{code}\"")) {
                assert!(
                    shown.contains(code),
                    "{code} is still in the deck but was shown: {body}"
                );
            }
        }
    }
}

on_both_stores!(seats_are_isolated, decks_reveal_only_drawn_cards);
