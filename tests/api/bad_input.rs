//! Every kind of bad input gets a problem+json answer with its stable code, never a 500.

use crate::common;

use common::TestApp;
use reqwest::Method;
use serde_json::json;

async fn malformed_bodies_are_400(app: TestApp) {
    let create = "/v1/gomoku/games";
    app.post_raw(create, "{not json")
        .await
        .assert_problem(400, "invalid_request");
    app.post_raw(create, "")
        .await
        .assert_problem(400, "invalid_request");
    for body in [
        json!({"players": "two"}),
        json!({"size": "big", "players": [{"name": "a"}, {"name": "b"}]}),
        json!({"rule": "caro", "players": [{"name": "a"}, {"name": "b"}]}),
        json!({"sise": 15, "players": [{"name": "a"}, {"name": "b"}]}),
        json!({"players": [{"name": "a"}, {"ai": "godlike"}]}),
        json!({"players": [{"name": "a"}, {"nmae": "b"}]}),
        json!([1, 2]),
        json!([15, "freestyle", [{"name": "a"}, {"name": "b"}]]),
    ] {
        app.post(create, body.clone())
            .await
            .assert_problem(400, "invalid_request");
    }
}

async fn out_of_range_values_are_422(app: TestApp) {
    let create = "/v1/gomoku/games";
    for body in [
        json!({"size": 99, "players": [{"name": "a"}, {"name": "b"}]}),
        json!({"size": 8, "players": [{"name": "a"}, {"name": "b"}]}),
        json!({"size": -1, "players": [{"name": "a"}, {"name": "b"}]}),
        json!({"players": [{"name": "a"}]}),
        json!({"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}),
        json!({"players": [{"name": ""}, {"name": "b"}]}),
        json!({"players": [{"name": "x".repeat(33)}, {"name": "b"}]}),
        // The limit counts the name as sent: trimmed spaces make no room (schemathesis).
        json!({"players": [{"name": format!("\u{a0}{}", "x".repeat(32))}, {"name": "b"}]}),
        json!({"players": [{}, {"name": "b"}]}),
        json!({"players": [{"open": false}, {"name": "b"}]}),
        json!({"players": [{"open": true, "name": "x"}, {"name": "b"}]}),
    ] {
        app.post(create, body.clone())
            .await
            .assert_problem(422, "invalid_request");
    }
    app.post(
        "/v1/players",
        json!({"name": format!("\u{a0}{}", "x".repeat(32))}),
    )
    .await
    .assert_problem(422, "invalid_request");
}

async fn bodies_over_the_limit_are_413(app: TestApp) {
    let huge = format!(
        "{{\"players\": [{{\"name\": \"{}\"}}, {{\"name\": \"b\"}}]}}",
        "x".repeat(70 * 1024)
    );
    app.post_raw("/v1/gomoku/games", huge)
        .await
        .assert_problem(413, "payload_too_large");
    // Just under the limit is parsed (and then refused for its value, not its size).
    let near = format!(
        "{{\"players\": [{{\"name\": \"{}\"}}, {{\"name\": \"b\"}}]}}",
        "x".repeat(60 * 1024)
    );
    app.post_raw("/v1/gomoku/games", near)
        .await
        .assert_problem(422, "invalid_request");
}

async fn ids_and_routes_that_do_not_exist_are_404(app: TestApp) {
    app.get("/v1/gomoku/games/not-a-uuid")
        .await
        .assert_problem(404, "not_found");
    app.get("/v1/gomoku/games/0193a000-0000-7000-8000-000000000000")
        .await
        .assert_problem(404, "not_found");
    app.get("/v1/gomoku/games/0193a000-0000-7000-8000-000000000000/moves")
        .await
        .assert_problem(404, "not_found");
    app.get("/v1/chess/games")
        .await
        .assert_problem(404, "not_found");
}

async fn moves_need_the_right_token(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "a"}, {"name": "b"}]}))
        .await;
    let (other, other_tokens) = app
        .create_gomoku(json!({"players": [{"name": "c"}, {"name": "d"}]}))
        .await;
    let black = tokens[0].clone().unwrap();
    let white = tokens[1].clone().unwrap();
    let moves = format!("/v1/gomoku/games/{id}/moves");
    app.post(&moves, json!({"move": "h8"}))
        .await
        .assert_problem(401, "unauthorized");
    app.post_as(&moves, json!({"move": "h8"}), &"0".repeat(64))
        .await
        .assert_problem(401, "unauthorized");
    app.send(
        Method::POST,
        &moves,
        Some(&json!({"move": "h8"})),
        None,
        &[("authorization", "Token abc")],
    )
    .await
    .assert_problem(401, "unauthorized");
    // A valid token, but of another game.
    app.post_as(
        &moves,
        json!({"move": "h8"}),
        other_tokens[0].as_ref().unwrap(),
    )
    .await
    .assert_problem(403, "forbidden");
    // The other seat, out of turn.
    app.post_as(&moves, json!({"move": "h8"}), &white)
        .await
        .assert_problem(409, "not_your_turn");
    // Nothing above changed either game.
    assert_eq!(
        app.get(&format!("/v1/gomoku/games/{id}")).await.body["version"],
        0
    );
    assert_eq!(
        app.get(&format!("/v1/gomoku/games/{other}")).await.body["version"],
        0
    );
    assert_eq!(app.gomoku_move(&id, &black, "h8").await.status, 200);
}

async fn bad_moves_are_400_or_422(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"size": 9, "players": [{"name": "a"}, {"name": "b"}]}))
        .await;
    let black = tokens[0].clone().unwrap();
    let white = tokens[1].clone().unwrap();
    for notation in ["", "h", "8h", "h0", "h08", "hh8", "h 8", "?", "h8x", "e-1"] {
        app.gomoku_move(&id, &black, notation)
            .await
            .assert_problem(400, "invalid_request");
    }
    let moves = format!("/v1/gomoku/games/{id}/moves");
    for body in [
        json!({"move": 5}),
        json!({}),
        json!({"move": "e5", "extra": 1}),
    ] {
        app.post_as(&moves, body, &black)
            .await
            .assert_problem(400, "invalid_request");
    }
    // Well-formed but off this 9x9 board, or occupied: illegal.
    app.gomoku_move(&id, &black, "j5")
        .await
        .assert_problem(422, "illegal_move");
    app.gomoku_move(&id, &black, "e10")
        .await
        .assert_problem(422, "illegal_move");
    assert_eq!(app.gomoku_move(&id, &black, "E5").await.status, 200);
    app.gomoku_move(&id, &white, "e5")
        .await
        .assert_problem(422, "illegal_move");
    let game = app.get(&format!("/v1/gomoku/games/{id}")).await.body;
    assert_eq!(game["version"], 1);
    assert_eq!(game["state"]["moves"], json!(["e5"]));
}

async fn bad_headers_and_queries_are_400(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "a"}, {"name": "b"}]}))
        .await;
    app.send(
        Method::POST,
        &format!("/v1/gomoku/games/{id}/moves"),
        Some(&json!({"move": "h8"})),
        tokens[0].as_deref(),
        &[("if-match", "yesterday")],
    )
    .await
    .assert_problem(400, "invalid_request");
    app.get("/v1/players?game=uno")
        .await
        .assert_problem(400, "invalid_request");
    app.get("/v1/players?limit=1000")
        .await
        .assert_problem(422, "invalid_request");
    app.get("/v1/games?limit=ten")
        .await
        .assert_problem(400, "invalid_request");
}

async fn hostile_bodies_are_refused_cleanly(app: TestApp) {
    // Nesting deeper than serde_json's recursion limit, inside the size limit.
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    app.post_raw("/v1/gomoku/games", deep)
        .await
        .assert_problem(400, "invalid_request");
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "a"}, {"name": "b"}]}))
        .await;
    // A 60 KiB "move": refused, and the problem does not echo it back whole.
    let long = "h".repeat(60 * 1024);
    let r = app
        .gomoku_move(&id, tokens[0].as_ref().unwrap(), &long)
        .await;
    r.assert_problem(400, "invalid_request");
    assert!(r.text.len() < 2048, "detail echoes {} bytes", r.text.len());
    // Control characters and unicode in names are handled without a 500.
    for name in [r"\u0000", "😀😀", r"a\tb"] {
        let body = format!("{{\"players\": [{{\"name\": \"{name}\"}}, {{\"name\": \"b\"}}]}}");
        let r = app.post_raw("/v1/gomoku/games", body).await;
        assert!(r.status == 201 || r.status == 422, "{name}: {}", r.text);
    }
}

/// POSTs `body` as it is written (a `serde_json::Value` cannot hold a key twice), with a token.
async fn post_text(app: &TestApp, path: &str, body: &str, token: Option<&str>) -> common::Reply {
    let mut request = app
        .client
        .post(app.url(path))
        .header("content-type", "application/json")
        .body(body.to_owned());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    common::Reply::from(request.send().await.expect("request sent")).await
}

async fn duplicate_keys_are_400(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "a"}, {"name": "b"}]}))
        .await;
    let black = tokens[0].as_deref();
    let moves = format!("/v1/gomoku/games/{id}/moves");
    // Once a 400, not the last one played.
    let r = post_text(&app, &moves, r#"{"move": "h8", "move": "a1"}"#, black).await;
    r.assert_problem(400, "invalid_request");
    let detail = r.body["detail"].as_str().unwrap();
    assert!(
        detail.contains(r#"duplicate key "move" in the JSON body"#),
        "{detail}"
    );
    let game = app.get(&format!("/v1/gomoku/games/{id}")).await.body;
    assert_eq!(game["version"], 0, "nothing was played");
    // At any depth: a seat inside the players array of a create.
    post_text(
        &app,
        "/v1/gomoku/games",
        r#"{"players": [{"name": "a", "name": "b"}, {"name": "c"}]}"#,
        None,
    )
    .await
    .assert_problem(400, "invalid_request");
    // Poker: a body wrapped in `Object` and an optional body (`optional_json`).
    for (path, body) in [
        (
            "/v1/poker/evaluate",
            r#"{"cards": ["AS", "KS", "QS", "JS", "TS"], "cards": ["2C", "3D", "4H", "5S", "7C"]}"#,
        ),
        (
            "/v1/poker/deal",
            r#"{"players": 2, "seed": 1, "players": 3}"#,
        ),
        ("/v1/poker/decks", r#"{"seed": 1, "seed": 2}"#),
        ("/v1/players", r#"{"name": "dup", "name": "dup2"}"#),
    ] {
        let r = post_text(&app, path, body, None).await;
        r.assert_problem(400, "invalid_request");
        assert!(
            r.body["detail"].as_str().unwrap().contains("duplicate key"),
            "{path}: {}",
            r.text
        );
    }
    let deck = app
        .post("/v1/poker/decks", json!({"seed": 1}))
        .await
        .expect(201);
    let draw = format!("/v1/poker/decks/{}/draw", deck.body["id"].as_str().unwrap());
    post_text(&app, &draw, r#"{"count": 1, "count": 2}"#, None)
        .await
        .assert_problem(400, "invalid_request");
    // The same key in two different objects is fine.
    post_text(
        &app,
        "/v1/gomoku/games",
        r#"{"players": [{"name": "a"}, {"name": "c"}]}"#,
        None,
    )
    .await
    .expect(201);
    post_text(&app, &moves, r#"{"move": "h8"}"#, black)
        .await
        .expect(200);
}

on_both_stores!(
    duplicate_keys_are_400,
    hostile_bodies_are_refused_cleanly,
    malformed_bodies_are_400,
    out_of_range_values_are_422,
    bodies_over_the_limit_are_413,
    ids_and_routes_that_do_not_exist_are_404,
    moves_need_the_right_token,
    bad_moves_are_400_or_422,
    bad_headers_and_queries_are_400,
);
