//! Security properties seen from outside: no token in logs, seat isolation, nothing hidden leaks.

use crate::common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// The real binary at debug log level: tokens and stream tickets (and their hashes) never reach
/// the log, not even a ticket in a URL.
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
    // Polls until it answers; the deadline is generous for a busy 2-core machine.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut up = false;
    while !up && Instant::now() < deadline {
        up = client.get(format!("{base}/health")).send().await.is_ok();
        if !up {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
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
    // Two accepted moves and one refused (white out of turn): tokens on every path.
    for (t, mv, status) in [
        (&token, "h8", 200),
        (&other, "a1", 200),
        (&other, "b1", 409),
    ] {
        let r = client
            .post(format!("{base}/v1/gomoku/games/{id}/moves"))
            .bearer_auth(t)
            .json(&json!({"move": mv}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), status, "{mv}: {}", r.text().await.unwrap());
    }
    let read = client
        .get(format!("{base}/v1/gomoku/games/{id}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), 200);
    // A seat's stream, opened with a ticket in the URL and with the token in a header.
    let ticket: Value = client
        .post(format!("{base}/v1/gomoku/games/{id}/stream-ticket"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ticket = ticket["ticket"].as_str().unwrap().to_owned();
    let events = format!("{base}/v1/gomoku/games/{id}/events");
    let mut by_ticket =
        common::sse::EventStream::open(&client, &format!("{events}?ticket={ticket}"), None, None)
            .await;
    let mut by_token = common::sse::EventStream::open(&client, &events, Some(&other), None).await;
    for stream in [&mut by_ticket, &mut by_token] {
        assert_eq!(stream.status, 200);
        let first = stream.next(Duration::from_secs(10)).await.unwrap();
        assert_eq!(first.name, "game");
    }
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
    for secret in [&token, &other, &ticket] {
        let hash = hex::encode(parlor::service::tokens::TokenHash::of(secret).0);
        assert!(
            !text.contains(secret.as_str()),
            "a token or ticket is in the log"
        );
        assert!(
            !text.contains(&hash),
            "a token or ticket hash is in the log"
        );
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

/// Whether `token` reads as a card code: `AS`, `th`, `10H`, `JK`, `joker` (any case).
fn is_card_code(token: &str) -> bool {
    let t = token.to_ascii_uppercase();
    let suit = |c: &u8| "SHDC".contains(char::from(*c));
    t == "JK"
        || t == "JOKER"
        || match t.as_bytes() {
            [rank, s] => "23456789TJQKA".contains(char::from(*rank)) && suit(s),
            [b'1', b'0', s] => suit(s),
            _ => false,
        }
}

/// The names of the fields that list cards a client has been shown.
const CARD_LISTS: [&str; 3] = ["drawn", "cards", "returned"];

/// Splits a reply into the card lists (every `drawn`, `cards` and `returned` array, at any
/// depth) and the rest of the body with those lists taken out.
fn card_lists(body: &Value, lists: &mut Vec<Vec<String>>) -> Value {
    match body {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter_map(|(key, value)| {
                    if CARD_LISTS.contains(&key.as_str()) {
                        let cards = value.as_array().expect("a card list is an array");
                        lists.push(
                            cards
                                .iter()
                                .map(|c| c.as_str().expect("a card code").to_owned())
                                .collect(),
                        );
                        None
                    } else {
                        Some((key.clone(), card_lists(value, lists)))
                    }
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| card_lists(v, lists)).collect()),
        other => other.clone(),
    }
}

/// A deck session never shows the order, or even the identity, of the cards still in it: the
/// card lists hold only cards drawn so far (jokers included: never more jokers than were
/// drawn), and nothing else in a reply names a card, quoted or not, in any case or spelling.
async fn decks_reveal_only_drawn_cards(app: TestApp) {
    let created = app
        .post("/v1/poker/decks", json!({"seed": 99}))
        .await
        .expect(201);
    let id = created.body["id"].as_str().unwrap().to_owned();
    // The owner token every deck route needs (shown in the create answer only).
    let token = created.body["token"].as_str().unwrap().to_owned();
    let mut replies = vec![(created, 0)];
    // Enough cards that some jokers are drawn and some are still in the deck.
    let drawn = app
        .post_as(
            &format!("/v1/poker/decks/{id}/draw"),
            json!({"count": 10}),
            &token,
        )
        .await
        .expect(200);
    let shown: Vec<String> = drawn.body["deck"]["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    let jokers_shown = shown.iter().filter(|c| *c == "JK").count();
    assert!(
        (1..5).contains(&jokers_shown),
        "seed 99 should draw some jokers and leave some in the deck: {shown:?}"
    );
    replies.push((drawn, 10));
    replies.push((
        app.get_as(&format!("/v1/poker/decks/{id}"), &token)
            .await
            .expect(200),
        10,
    ));
    replies.push((
        app.post_as(&format!("/v1/poker/decks/{id}/undo"), json!({}), &token)
            .await
            .expect(200),
        10,
    ));
    for (reply, drawn_so_far) in &replies {
        let seen = &shown[..*drawn_so_far];
        let mut lists = Vec::new();
        let rest = card_lists(&reply.body, &mut lists);
        assert!(
            !lists.is_empty() || *drawn_so_far == 0,
            "no card list in {}",
            reply.text
        );
        for list in &lists {
            for card in list {
                let allowed = seen.iter().filter(|c| *c == card).count();
                let listed = list.iter().filter(|c| *c == card).count();
                assert!(
                    listed <= allowed,
                    "{card} is listed {listed} times but was drawn {allowed} times: {}",
                    reply.text
                );
            }
        }
        let rest = rest.to_string();
        let named: Vec<&str> = rest
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|token| is_card_code(token))
            .collect();
        assert!(
            named.is_empty(),
            "{named:?} named outside the card lists: {}",
            reply.text
        );
    }
}

#[test]
fn card_codes_are_recognised_in_every_spelling() {
    for code in ["AS", "th", "10H", "2c", "JK", "joker", "Joker"] {
        assert!(is_card_code(code), "{code}");
    }
    for other in ["id", "1S", "XX", "AX", "11H", "seed", "0193a000"] {
        assert!(!is_card_code(other), "{other}");
    }
}

on_both_stores!(seats_are_isolated, decks_reveal_only_drawn_cards);
