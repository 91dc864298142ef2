//! The promises a client relies on, each found by trying the API as a new user would: one answer
//! shape for every change, seeds as strings, problem+json everywhere, HEAD where GET is, unknown
//! query parameters refused, the move log paged, messages in a client's words, scores by game.

use crate::common;

use common::TestApp;
use reqwest::Method;
use serde_json::{json, Value};

async fn new_game(app: &TestApp) -> (String, String, String) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "ann"}, {"name": "ben"}]}))
        .await;
    (id, tokens[0].clone().unwrap(), tokens[1].clone().unwrap())
}

async fn moves_and_ai_moves_answer_in_one_shape(app: TestApp) {
    let (id, black, _) = new_game(&app).await;
    let moved = app.gomoku_move(&id, &black, "h8").await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let hint = app
        .post_as(
            &format!("/v1/gomoku/games/{id}/ai-move"),
            json!({"time_ms": 20}),
            &app.create_gomoku(json!({"players": [{"name": "x"}, {"ai": "easy"}]}))
                .await
                .1[0]
                .clone()
                .unwrap(),
        )
        .await;
    // A token of another game asking for a hint here is refused; the shape is checked below.
    hint.assert_problem(403, "forbidden");
    let (ai_game, tokens) = app
        .create_gomoku(json!({"players": [{"name": "cy"}, {"ai": "easy"}]}))
        .await;
    app.gomoku_move(&ai_game, tokens[0].as_deref().unwrap(), "h8")
        .await;
    let ai = app
        .post(&format!("/v1/gomoku/games/{ai_game}/ai-move"), json!({}))
        .await;
    assert_eq!(ai.status, 200, "{}", ai.text);
    for (what, body) in [("moves", &moved.body), ("ai-move", &ai.body)] {
        assert!(body["game"]["id"].is_string(), "{what}: {body}");
        assert!(body["game"]["state"]["board"].is_array(), "{what}: {body}");
        assert!(body["events"].is_array(), "{what}: {body}");
        assert!(
            body.get("id").is_none(),
            "{what} puts the game at the top level: {body}"
        );
    }
    assert!(ai.body["move"]["move"].is_string());
    assert_eq!(ai.body["applied"], true);
}

async fn seeds_travel_as_strings(app: TestApp) {
    let big = "18446744073709551557";
    let deck = app.post("/v1/poker/decks", json!({"seed": big})).await;
    assert_eq!(deck.status, 201, "{}", deck.text);
    assert_eq!(deck.body["seed"], big, "a seed above 2^53 survives JSON");
    let as_number = app
        .post("/v1/poker/deal", json!({"players": 2, "seed": 42}))
        .await;
    let as_string = app
        .post("/v1/poker/deal", json!({"players": 2, "seed": "42"}))
        .await;
    assert_eq!(as_number.body, as_string.body);
    app.post("/v1/poker/deal", json!({"players": 2, "seed": "-1"}))
        .await
        .assert_problem(400, "invalid_request");
}

async fn every_error_is_a_problem(app: TestApp) {
    app.get("/docs/no-such-file.js")
        .await
        .assert_problem(404, "not_found");
    app.get("/nowhere").await.assert_problem(404, "not_found");
    let docs = app.get("/docs/").await;
    assert_eq!(docs.status, 200);
    let root = app.get("/").await;
    assert_eq!(root.status, 200);
    assert_eq!(root.body["docs"], "/docs/");
}

async fn head_answers_where_get_does(app: TestApp) {
    let (id, _, _) = new_game(&app).await;
    for path in [
        "/health".to_owned(),
        "/v1/games".to_owned(),
        format!("/v1/gomoku/games/{id}"),
        format!("/v1/gomoku/games/{id}/moves"),
        "/v1/players".to_owned(),
    ] {
        let get = app.get(&path).await;
        let head = app.send(Method::HEAD, &path, None, None, &[]).await;
        assert_eq!(head.status, get.status, "HEAD {path}");
        assert!(head.text.is_empty(), "HEAD {path} sent a body");
    }
}

async fn unknown_query_parameters_are_refused_everywhere(app: TestApp) {
    let (id, black, _) = new_game(&app).await;
    for path in [
        format!("/v1/gomoku/games/{id}?x=1"),
        format!("/v1/gomoku/games/{id}/moves?since=3"),
        "/v1/games?colour=red".to_owned(),
        "/v1/players?sort=fast".to_owned(),
        "/health?verbose=1".to_owned(),
    ] {
        app.get(&path).await.assert_problem(400, "invalid_request");
    }
    app.post_as(
        &format!("/v1/gomoku/games/{id}/moves?dry_run=1"),
        json!({"move": "h8"}),
        &black,
    )
    .await
    .assert_problem(400, "invalid_request");
}

async fn the_move_log_pages(app: TestApp) {
    let (id, black, white) = new_game(&app).await;
    for (b, w) in [("a1", "b1"), ("a2", "b2"), ("a3", "b3")] {
        assert_eq!(app.gomoku_move(&id, &black, b).await.status, 200);
        assert_eq!(app.gomoku_move(&id, &white, w).await.status, 200);
    }
    let all = app.get(&format!("/v1/gomoku/games/{id}/moves")).await.body;
    assert_eq!(all.as_array().unwrap().len(), 6);
    let page = app
        .get(&format!("/v1/gomoku/games/{id}/moves?after=2&limit=3"))
        .await
        .body;
    let seqs: Vec<i64> = page
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, [3, 4, 5]);
    assert_eq!(page[0]["move"], json!({"move": "a2"}));
    app.get(&format!("/v1/gomoku/games/{id}/moves?limit=0"))
        .await
        .assert_problem(422, "invalid_request");
}

async fn messages_speak_a_clients_words(app: TestApp) {
    let detail = |v: &Value| v["detail"].as_str().unwrap_or_default().to_owned();
    let one = app
        .post("/v1/gomoku/games", json!({"players": [{"name": "solo"}]}))
        .await;
    one.assert_problem(422, "invalid_request");
    assert!(detail(&one.body).contains("exactly 2"), "{}", one.text);
    let wrong_type = app
        .post(
            "/v1/poker/decks/00000000-0000-7000-8000-000000000000/draw",
            json!({"count": "many"}),
        )
        .await;
    for rust in ["u64", "i64", "usize", "struct", "Object<"] {
        assert!(
            !detail(&wrong_type.body).contains(rust),
            "{}",
            wrong_type.text
        );
    }
    let malformed = app.get("/v1/gomoku/games/not-a-uuid").await;
    malformed.assert_problem(404, "not_found");
    assert!(
        detail(&malformed.body).contains("not a valid UUID"),
        "{}",
        malformed.text
    );
    let long = "z".repeat(5000);
    let echoed = app
        .post(
            "/v1/gomoku/games",
            json!({"players": [{"name": long}, {"name": "b"}]}),
        )
        .await;
    assert!(
        detail(&echoed.body).chars().count() <= 401,
        "{}",
        echoed.text.len()
    );
}

async fn scores_are_keyed_by_game(app: TestApp) {
    let name = format!("keyed-{}", rand::random::<u32>());
    // Against the AI: a hot-seat game (both tokens one creator's) moves no score.
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": name}, {"ai": "easy"}]}))
        .await;
    app.gomoku_move(&id, tokens[0].as_deref().unwrap(), "resign")
        .await;
    let player = app.get(&format!("/v1/players/{name}")).await;
    assert_eq!(player.status, 200, "{}", player.text);
    assert_eq!(player.body["scores"]["gomoku"]["score"], 900);
    assert_eq!(
        player.body["gomoku"], player.body["scores"]["gomoku"],
        "the old field stays"
    );
    app.get("/v1/players?game=poker")
        .await
        .assert_problem(400, "invalid_request");
}

on_both_stores!(
    moves_and_ai_moves_answer_in_one_shape,
    seeds_travel_as_strings,
    every_error_is_a_problem,
    head_answers_where_get_does,
    unknown_query_parameters_are_refused_everywhere,
    the_move_log_pages,
    messages_speak_a_clients_words,
    scores_are_keyed_by_game,
);

/// Logs written to a pipe or a file carry no ANSI colour codes (they are for a person at a
/// terminal), in the real binary.
#[test]
fn logs_to_a_pipe_have_no_colour_codes() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    let dir = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("p.db").display()),
        )
        .env("PORT", "0")
        .env("RUST_LOG", "info")
        .env_remove("PARLOR_LOG_FORMAT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdout = server.stdout.take().unwrap();
    let stderr = server.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    for stream in [
        Box::new(stdout) as Box<dyn std::io::Read + Send>,
        Box::new(stderr),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    // The start-up lines are enough: they are written with the same formatter as every other.
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(std::time::Duration::from_secs(20)) {
        lines.push(line);
        if lines
            .last()
            .is_some_and(|l| l.contains("parlor is serving"))
        {
            break;
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        lines.iter().any(|l| l.contains("parlor is serving")),
        "the server did not log its start: {lines:?}"
    );
    for line in &lines {
        assert!(
            !line.contains('\u{1b}'),
            "a colour code in a piped log line: {line:?}"
        );
    }
}
