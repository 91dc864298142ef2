//! Gomoku over real HTTP, on SQLite and on PostgreSQL: whole games, AI levels, scores, undo,
//! versions and listing.

use crate::common;

use common::TestApp;
use reqwest::Method;
use serde_json::{json, Value};

/// Black builds h8..l8 while white answers on row 1: black wins on its fifth stone.
const BLACK: [&str; 5] = ["h8", "i8", "j8", "k8", "l8"];
const WHITE: [&str; 4] = ["a1", "b1", "c1", "d1"];

async fn black_wins_and_scores_move(app: TestApp) {
    let alice = format!("alice-{}", rand::random::<u32>());
    let bob = format!("bob-{}", rand::random::<u32>());
    let created = app
        .post(
            "/v1/gomoku/games",
            json!({"players": [{"name": alice}, {"name": bob}]}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_str().unwrap().to_owned();
    assert_eq!(
        created.header("location"),
        Some(format!("/v1/gomoku/games/{id}").as_str())
    );
    assert_eq!(created.header("etag"), Some("\"0-seat-0\""));
    assert_eq!(created.body["status"], "active");
    assert_eq!(created.body["turn"], 0);
    assert_eq!(created.body["state"]["size"], 15);
    assert_eq!(created.body["state"]["next"], "black");
    let tokens = created.body["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 2);
    let black = tokens[0]["token"].as_str().unwrap().to_owned();
    let white = tokens[1]["token"].as_str().unwrap().to_owned();

    // The score row exists from the start, at 1000.
    let before = app.get(&format!("/v1/players/{alice}")).await;
    assert_eq!(before.body["gomoku"]["score"], 1000, "{}", before.text);

    let mut last = Value::Null;
    let mut events = Value::Null;
    for i in 0..5 {
        let r = app.gomoku_move(&id, &black, BLACK[i]).await;
        assert_eq!(r.status, 200, "{}", r.text);
        last = r.body["game"].clone();
        events = r.body["events"].clone();
        if i < 4 {
            let r = app.gomoku_move(&id, &white, WHITE[i]).await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
    }
    assert_eq!(last["status"], "finished");
    assert_eq!(last["version"], 9);
    assert_eq!(last["turn"], Value::Null);
    assert_eq!(last["result"]["winners"], json!([0]));
    assert_eq!(last["result"]["reason"], "five_in_row");
    assert_eq!(last["state"]["winning_line"], json!(BLACK));
    assert!(events
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["type"] == "game_over"));
    let board = last["state"]["board"].as_array().unwrap();
    assert_eq!(board.len(), 15);
    assert_eq!(
        board[7], ".......XXXXX...",
        "row 8 is the eighth from the top"
    );
    assert_eq!(board[14], "OOOO...........");

    // Any move on a finished game is refused.
    app.gomoku_move(&id, &white, "e1")
        .await
        .assert_problem(409, "game_over");

    // A hot-seat game (the creator holds both tokens) moves no score: only a game against the
    // AI, or between registered players in their own seats, does (players_api.rs).
    for name in [&alice, &bob] {
        let unmoved = app.get(&format!("/v1/players/{name}")).await.body;
        assert_eq!(
            unmoved["gomoku"],
            json!({"score": 1000, "wins": 0, "losses": 0, "draws": 0})
        );
    }

    // The log is gapless, oldest first, and records every move as posted.
    let log = app.get(&format!("/v1/gomoku/games/{id}/moves")).await;
    let entries = log.body.as_array().unwrap();
    assert_eq!(entries.len(), 9);
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e["seq"], i as i64 + 1);
        assert_eq!(e["seat"], i % 2);
    }
    assert_eq!(entries[0]["move"], json!({"move": "h8"}));
    assert_eq!(entries[8]["move"], json!({"move": "l8"}));
}

async fn resigning_is_a_loss(app: TestApp) {
    let carol = format!("carol-{}", rand::random::<u32>());
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": carol}, {"ai": "easy"}]}))
        .await;
    let black = tokens[0].clone().unwrap();
    let r = app.gomoku_move(&id, &black, "resign").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["game"]["result"]["reason"], "resign");
    assert_eq!(r.body["game"]["result"]["winners"], json!([1]));
    let player = app.get(&format!("/v1/players/{carol}")).await.body;
    assert_eq!(player["gomoku"]["score"], 900);
    assert_eq!(player["gomoku"]["losses"], 1);
}

/// A human (always taking the first empty point near the centre) against each AI level to the
/// end; the result and the score must agree.
async fn full_games_against_every_level(app: TestApp) {
    for level in ["easy", "normal", "hard"] {
        let name = format!("dave-{level}-{}", rand::random::<u32>());
        let (id, tokens) = app
            .create_gomoku(json!({"size": 9, "players": [{"name": name}, {"ai": level}]}))
            .await;
        let human = tokens[0].clone().unwrap();
        assert!(tokens[1].is_none(), "AI seats have no token");
        let mut game = app.get(&format!("/v1/gomoku/games/{id}")).await.body;
        let mut plies = 0;
        while game["status"] == "active" {
            if game["turn"] == 0 {
                let point = first_empty(&game["state"]);
                let r = app.gomoku_move(&id, &human, &point).await;
                assert_eq!(r.status, 200, "{}", r.text);
                game = r.body["game"].clone();
            } else {
                let r = app
                    .post(
                        &format!("/v1/gomoku/games/{id}/ai-move"),
                        json!({"time_ms": 50}),
                    )
                    .await;
                assert_eq!(r.status, 200, "{level}: {}", r.text);
                assert_eq!(r.body["applied"], true);
                assert!(r.body["move"]["move"].is_string());
                assert_eq!(r.body["analysis"]["level"], level);
                game = r.body["game"].clone();
            }
            plies += 1;
            assert!(plies <= 81, "a 9x9 game cannot last longer");
        }
        assert_eq!(game["status"], "finished");
        let score = app.get(&format!("/v1/players/{name}")).await.body["gomoku"]["score"].clone();
        let expected = match game["result"]["winners"].as_array().unwrap().as_slice() {
            [w] if w == 0 => 1100,
            [_] => 900,
            _ => 1000,
        };
        assert_eq!(score, expected, "{level}: {}", game["result"]);
        if level != "easy" {
            // The naive human never beats a searching AI.
            assert_eq!(game["result"]["winners"], json!([1]), "{level}");
        }
    }
}

/// The point nearest the centre that is empty, scanning outward row by row.
fn first_empty(state: &Value) -> String {
    let rows: Vec<&str> = state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let size = rows.len();
    let mut best: Option<(usize, usize, usize)> = None;
    for (top, row) in rows.iter().enumerate() {
        for (col, c) in row.chars().enumerate() {
            if c == '.' {
                let d = top.abs_diff(size / 2) + col.abs_diff(size / 2);
                if best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, top, col));
                }
            }
        }
    }
    let (_, top, col) = best.expect("an empty point");
    format!("{}{}", (b'a' + col as u8) as char, size - top)
}

async fn ai_hints_and_ai_seat_rules(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "erin"}, {"name": "frank"}]}))
        .await;
    let black = tokens[0].clone().unwrap();
    let white = tokens[1].clone().unwrap();
    let path = format!("/v1/gomoku/games/{id}/ai-move");
    // A human seat's hint needs that seat's token.
    app.post(&path, json!({}))
        .await
        .assert_problem(401, "unauthorized");
    app.post_as(&path, json!({}), &white)
        .await
        .assert_problem(403, "forbidden");
    // An empty body is all defaults: a hint, not applied.
    let hint = app.send(Method::POST, &path, None, Some(&black), &[]).await;
    assert_eq!(hint.status, 200, "{}", hint.text);
    assert_eq!(hint.body["applied"], false);
    assert_eq!(hint.body["game"]["version"], 0);
    // With apply, the AI plays for the human.
    let played = app
        .post_as(&path, json!({"apply": true, "level": "easy"}), &black)
        .await
        .expect(200);
    assert_eq!(played.body["applied"], true);
    assert_eq!(played.body["game"]["version"], 1);
    for bad in [json!({"time_ms": 0}), json!({"time_ms": 10001})] {
        app.post_as(&path, bad, &white)
            .await
            .assert_problem(422, "invalid_request");
    }
    app.post_as(&path, json!({"level": "godlike"}), &white)
        .await
        .assert_problem(400, "invalid_request");
}

async fn undo_against_an_ai_returns_to_the_human(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "gina"}, {"ai": "easy"}]}))
        .await;
    let human = tokens[0].clone().unwrap();
    app.gomoku_move(&id, &human, "h8").await.expect(200);
    let ai = app
        .post(&format!("/v1/gomoku/games/{id}/ai-move"), json!({}))
        .await
        .expect(200);
    assert_eq!(ai.body["game"]["turn"], 0);
    // The AI never takes a1 here (it answers next to h8), so a1 is free.
    app.gomoku_move(&id, &human, "a1").await.expect(200);
    let ai = app
        .post(&format!("/v1/gomoku/games/{id}/ai-move"), json!({}))
        .await
        .expect(200);
    assert_eq!(ai.body["game"]["version"], 4);
    // Undo takes back the AI's answer and the human's move: the human is to play again.
    let undo_path = format!("/v1/gomoku/games/{id}/undo");
    app.send(Method::POST, &undo_path, None, None, &[])
        .await
        .assert_problem(401, "unauthorized");
    let undone = app
        .send(Method::POST, &undo_path, None, Some(&human), &[])
        .await;
    assert_eq!(undone.status, 200, "{}", undone.text);
    assert_eq!(
        undone.body["game"]["state"]["moves"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(undone.body["game"]["turn"], 0);
    assert_eq!(undone.body["game"]["version"], 5);
    let log = app.get(&format!("/v1/gomoku/games/{id}/moves")).await.body;
    assert_eq!(log[4]["move"], json!({"action": "undo"}));
}

async fn versions_etags_and_races(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "hal"}, {"name": "ida"}]}))
        .await;
    let black = tokens[0].clone().unwrap();
    let white = tokens[1].clone().unwrap();
    let path = format!("/v1/gomoku/games/{id}");
    let first = app.get(&path).await;
    assert_eq!(first.header("etag"), Some("\"0\""));
    let unchanged = app
        .send(
            Method::GET,
            &path,
            None,
            None,
            &[("if-none-match", "\"0\"")],
        )
        .await;
    assert_eq!(unchanged.status, 304);
    assert_eq!(unchanged.header("etag"), Some("\"0\""));
    // A conditional read still checks the token first.
    app.send(
        Method::GET,
        &path,
        None,
        Some(&"0".repeat(64)),
        &[("if-none-match", "\"0\"")],
    )
    .await
    .assert_problem(401, "unauthorized");
    let moves = format!("{path}/moves");
    let stale = app
        .send(
            Method::POST,
            &moves,
            Some(&json!({"move": "h8"})),
            Some(&black),
            &[("if-match", "\"3\"")],
        )
        .await;
    stale.assert_problem(412, "precondition_failed");
    let fresh = app
        .send(
            Method::POST,
            &moves,
            Some(&json!({"move": "h8"})),
            Some(&black),
            &[("if-match", "\"0\"")],
        )
        .await;
    assert_eq!(fresh.status, 200);
    assert_eq!(fresh.header("etag"), Some("\"1-seat-0\""));
    let changed = app
        .send(
            Method::GET,
            &path,
            None,
            None,
            &[("if-none-match", "\"0\"")],
        )
        .await;
    assert_eq!(changed.status, 200);

    // Twenty racing writers at the same version: exactly one wins, the rest are refused cleanly.
    let mut racers = Vec::new();
    for i in 0..20 {
        let app_base = app.base.clone();
        let white = white.clone();
        let moves = moves.clone();
        racers.push(tokio::spawn(async move {
            let point = format!("{}{}", (b'a' + (i % 15) as u8) as char, 1 + i / 15);
            reqwest::Client::new()
                .post(format!("{app_base}{moves}"))
                .bearer_auth(white)
                .header("if-match", "\"1\"")
                .json(&json!({"move": point}))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for r in racers {
        statuses.push(r.await.unwrap());
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| [200, 409, 412].contains(s)),
        "{statuses:?}"
    );
    let log = app.get(&format!("{path}/moves")).await.body;
    assert_eq!(log.as_array().unwrap().len(), 2);
}

async fn listing_is_newest_first_and_paginated(app: TestApp) {
    let player = format!("lister-{}", rand::random::<u32>());
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (id, _) = app
            .create_gomoku(json!({"players": [{"name": player}, {"ai": "easy"}]}))
            .await;
        ids.push(id);
    }
    ids.reverse();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/games?player={player}&limit=2&game=gomoku&status=active");
        if let Some(c) = &cursor {
            path += &format!("&cursor={c}");
        }
        let page = app.get(&path).await;
        assert_eq!(page.status, 200, "{}", page.text);
        for item in page.body["items"].as_array().unwrap() {
            assert!(item.get("state").is_none());
            seen.push(item["id"].as_str().unwrap().to_owned());
        }
        match page.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.into()),
            None => break,
        }
    }
    assert_eq!(seen, ids);
    let none = app
        .get(&format!("/v1/games?player={player}&status=finished"))
        .await;
    assert_eq!(none.body["items"], json!([]));
    app.get("/v1/games?game=chess")
        .await
        .assert_problem(400, "invalid_request");
    app.get("/v1/games?limit=0")
        .await
        .assert_problem(422, "invalid_request");
    app.get("/v1/games?cursor=nope")
        .await
        .assert_problem(400, "invalid_request");
    // A NUL (which PostgreSQL refuses in text) or another control character names nobody.
    app.get("/v1/games?player=al%00ice&game=go")
        .await
        .assert_problem(400, "invalid_request");
}

async fn leaderboard_orders_by_score(app: TestApp) {
    let tag = rand::random::<u32>();
    let (winner, loser) = (format!("w{tag}"), format!("l{tag}"));
    // Scores move between registered players who each took their own seat.
    let mut keys = Vec::new();
    for name in [&winner, &loser] {
        let registered = app.post("/v1/players", json!({ "name": name })).await;
        keys.push(
            registered.expect(201).body["key"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let created = app
        .post_as(
            "/v1/gomoku/games",
            json!({"players": [{"name": winner}, {"open": true}]}),
            &keys[0],
        )
        .await
        .expect(201);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let b = created.body["tokens"][0]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let joined = app
        .post_as(&format!("/v1/gomoku/games/{id}/join"), json!({}), &keys[1])
        .await
        .expect(200);
    let w = joined.body["token"].as_str().unwrap().to_owned();
    for i in 0..5 {
        app.gomoku_move(&id, &b, BLACK[i]).await.expect(200);
        if i < 4 {
            app.gomoku_move(&id, &w, WHITE[i]).await.expect(200);
        }
    }
    let board = app.get("/v1/players?game=gomoku&limit=100").await;
    assert_eq!(board.status, 200);
    let players = board.body["players"].as_array().unwrap();
    let scores: Vec<i64> = players
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let pos = |n: &str| players.iter().position(|p| p["name"] == n).unwrap();
    assert!(pos(&winner) < pos(&loser));
    app.get("/v1/players/nobody-ever-played-here")
        .await
        .assert_problem(404, "not_found");
}

/// A renju game: black's forbidden points are listed while black is to move, and playing one is
/// a 422 `illegal_move` that names the shape.
async fn renju_refuses_a_forbidden_black_move(app: TestApp) {
    let rita = format!("rita-{}", rand::random::<u32>());
    let walt = format!("walt-{}", rand::random::<u32>());
    let created = app
        .post(
            "/v1/gomoku/games",
            json!({"rule": "renju", "players": [{"name": rita}, {"name": walt}]}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.body["state"]["rule"], "renju");
    assert_eq!(created.body["state"]["forbidden"], json!([]));
    let id = created.body["id"].as_str().unwrap().to_owned();
    let black = created.body["tokens"][0]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let white = created.body["tokens"][1]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    // Black h9 h10 i8 j8: h8 would make two open threes.
    for (b, w) in [("h9", "a1"), ("h10", "a3"), ("i8", "a5"), ("j8", "a7")] {
        let r = app.gomoku_move(&id, &black, b).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert!(
            r.body["game"]["state"].get("forbidden").is_none(),
            "white to move"
        );
        let r = app.gomoku_move(&id, &white, w).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let game = app.get(&format!("/v1/gomoku/games/{id}")).await;
    assert_eq!(
        game.body["state"]["forbidden"],
        json!(["h8"]),
        "{}",
        game.text
    );
    let refused = app.gomoku_move(&id, &black, "h8").await;
    refused.assert_problem(422, "illegal_move");
    assert!(
        refused.body["detail"]
            .as_str()
            .unwrap()
            .contains("h8 is forbidden for black: double three"),
        "{}",
        refused.text
    );
    // Nothing changed: black is still to move and may play elsewhere.
    let after = app.get(&format!("/v1/gomoku/games/{id}")).await;
    assert_eq!(after.body["version"], game.body["version"]);
    app.gomoku_move(&id, &black, "g7").await.expect(200);
}

on_both_stores!(
    black_wins_and_scores_move,
    renju_refuses_a_forbidden_black_move,
    resigning_is_a_loss,
    full_games_against_every_level,
    ai_hints_and_ai_seat_rules,
    undo_against_an_ai_returns_to_the_human,
    versions_etags_and_races,
    listing_is_newest_first_and_paginated,
    leaderboard_orders_by_score,
);
