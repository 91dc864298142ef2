//! Go over real HTTP, on SQLite and on PostgreSQL: captures, ko and suicide, undo and redo, the end
//! by two passes and the score route, resignation, SGF out and in, the AI and its analysis, the
//! estimated count.

use crate::common;

use common::{Reply, TestApp};
use reqwest::Method;
use serde_json::{json, Value};

/// Creates a Go game; returns (id, tokens by seat).
async fn create(app: &TestApp, body: Value) -> (String, Vec<Option<String>>) {
    let reply = app.post("/v1/go/games", body).await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    let id = reply.body["id"].as_str().expect("id").to_owned();
    let mut tokens = vec![None, None];
    for t in reply.body["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().into());
    }
    (id, tokens)
}

/// A game between two humans; returns (id, black's token, white's token).
async fn two_humans(app: &TestApp, options: Value) -> (String, String, String) {
    let mut body = options;
    body["players"] = json!([{"name": "alice"}, {"name": "bob"}]);
    // The seed's hot-seat take-backs (any seat, at once); consent is tested in players_api.
    if body.get("takeback").is_none() {
        body["takeback"] = json!("any");
    }
    let (id, tokens) = create(app, body).await;
    let [black, white] = [0, 1].map(|s| tokens[s].clone().expect("a human seat has a token"));
    (id, black, white)
}

async fn play(app: &TestApp, id: &str, token: &str, play: &str) -> Reply {
    app.post_as(
        &format!("/v1/go/games/{id}/moves"),
        json!({"move": play}),
        token,
    )
    .await
}

/// Plays `moves` alternately, black first, each expected to be accepted; the last answer.
async fn play_all(app: &TestApp, id: &str, tokens: [&str; 2], moves: &[&str]) -> Reply {
    let mut last = None;
    for (i, m) in moves.iter().enumerate() {
        let reply = play(app, id, tokens[i % 2], m).await;
        assert_eq!(reply.status, 200, "move {} ({m}): {}", i + 1, reply.text);
        last = Some(reply);
    }
    last.expect("at least one move")
}

async fn take_back(app: &TestApp, id: &str, token: &str, action: &str) -> Reply {
    app.send(
        Method::POST,
        &format!("/v1/go/games/{id}/{action}"),
        None,
        Some(token),
        &[],
    )
    .await
}

/// The stone at a GTP vertex of a `state.board` (rows top first).
fn at(state: &Value, vertex: &str) -> char {
    let size = state["size"].as_u64().unwrap() as usize;
    let columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let col = columns.find(&vertex[..1]).unwrap();
    let row: usize = vertex[1..].parse().unwrap();
    let line = state["board"][size - row].as_str().unwrap();
    line.as_bytes()[col] as char
}

/// Black surrounds white's D5 from three sides; white's E6, F5 and E4 wait around E5, so black's
/// capture at E5 leaves a ko at D5.
const KO_SETUP: [&str; 8] = ["D6", "E6", "C5", "F5", "D4", "E4", "J9", "D5"];

async fn captures_ko_and_suicide(app: TestApp) {
    let (id, black, white) = two_humans(&app, json!({"size": 9})).await;
    play_all(&app, &id, [&black, &white], &KO_SETUP).await;
    let captured = play(&app, &id, &black, "e5").await;
    assert_eq!(captured.status, 200, "{}", captured.text);
    let events = captured.body["events"].as_array().unwrap();
    assert_eq!(events[0]["type"], "stone", "{}", captured.text);
    assert_eq!(events[0]["at"], "E5");
    assert_eq!(events[0]["captured"], json!(["D5"]));
    let state = &captured.body["game"]["state"];
    assert_eq!(at(state, "D5"), '.');
    assert_eq!(state["captures"], json!({"black": 1, "white": 0}));
    assert_eq!(state["ko"], "D5");
    assert_eq!(captured.body["game"]["turn"], 1);

    let refused = play(&app, &id, &white, "D5").await;
    refused.assert_problem(422, "illegal_move");
    assert!(
        refused.body["detail"].as_str().unwrap().contains("ko"),
        "{}",
        refused.text
    );

    // A move elsewhere lifts the ko; white's stone in black's corner has no liberty: suicide.
    play_all(&app, &id, [&white, &black], &["H1", "A8", "H2", "B9"]).await;
    let suicide = play(&app, &id, &white, "A9").await;
    suicide.assert_problem(422, "illegal_move");
    assert!(
        suicide.body["detail"].as_str().unwrap().contains("suicide"),
        "{}",
        suicide.text
    );
    let occupied = play(&app, &id, &white, "A8").await;
    occupied.assert_problem(422, "illegal_move");
    assert!(
        occupied.body["detail"]
            .as_str()
            .unwrap()
            .contains("occupied"),
        "{}",
        occupied.text
    );
    // Syntax is the body's problem, not the rules'.
    play(&app, &id, &white, "I5")
        .await
        .assert_problem(400, "invalid_request");
    let game = app.get(&format!("/v1/go/games/{id}")).await;
    assert_eq!(game.body["state"]["moves"].as_array().unwrap().len(), 13);
}

/// `ai_resign` is on by default against `hard` only, and the state says so while it is on.
async fn ai_resign_defaults_to_on_against_hard(app: TestApp) {
    let cases = [
        (json!([{"name": "alice"}, {"ai": "hard"}]), None, Some(true)),
        (
            json!([{"ai": "hard"}, {"name": "alice"}]),
            Some(false),
            None,
        ),
        (json!([{"name": "alice"}, {"ai": "normal"}]), None, None),
        (
            json!([{"name": "alice"}, {"ai": "normal"}]),
            Some(true),
            Some(true),
        ),
        (json!([{"name": "alice"}, {"name": "bob"}]), None, None),
    ];
    for (players, asked, shown) in cases {
        let mut body = json!({"size": 9, "players": players});
        if let Some(on) = asked {
            body["ai_resign"] = json!(on);
        }
        let (id, _) = create(&app, body.clone()).await;
        let read = app.get(&format!("/v1/go/games/{id}")).await.body;
        assert_eq!(read["state"]["ai_resign"].as_bool(), shown, "{body}");
    }
}

/// The superko option reaches the rules, from options and alongside a record (the rule itself is
/// tested against simple ko in the engine's tests).
async fn superko_is_an_option(app: TestApp) {
    let (id, black, white) = two_humans(&app, json!({"size": 9, "superko": true})).await;
    let state = play_all(&app, &id, [&black, &white], &KO_SETUP).await;
    assert_eq!(state.body["game"]["state"]["superko"], true);
    play(&app, &id, &black, "E5").await.expect(200);
    play(&app, &id, &white, "D5")
        .await
        .assert_problem(422, "illegal_move");
    let record = "(;GM[1]FF[4]SZ[9];B[ee];W[cc])";
    let (copy, _) = create(
        &app,
        json!({"sgf": record, "superko": true, "players": [{"name": "hal"}, {"name": "ivy"}]}),
    )
    .await;
    let read = app.get(&format!("/v1/go/games/{copy}")).await.body;
    assert_eq!(read["state"]["superko"], true);
    assert_eq!(read["state"]["moves"], json!(["E5", "C7"]));
    assert_eq!(read["state"]["size"], 9);
}

async fn undo_and_redo_restore_captures(app: TestApp) {
    let (id, black, white) = two_humans(&app, json!({"size": 9})).await;
    play_all(&app, &id, [&black, &white], &KO_SETUP).await;
    let captured = play(&app, &id, &black, "E5").await.expect(200).body["game"]["state"].clone();

    let undone = take_back(&app, &id, &white, "undo").await.expect(200);
    assert_eq!(undone.body["events"][0]["type"], "undo");
    assert_eq!(undone.body["events"][0]["taken_back"], json!(["E5"]));
    let state = &undone.body["game"]["state"];
    assert_eq!(at(state, "D5"), 'O', "the captured stone is back");
    assert_eq!(at(state, "E5"), '.');
    assert_eq!(state["captures"], json!({"black": 0, "white": 0}));
    assert_eq!(state["ko"], Value::Null);
    assert_eq!(state["can_redo"], true);
    assert_eq!(undone.body["game"]["turn"], 0);

    // Any depth: two more back, then all three forward again.
    take_back(&app, &id, &black, "undo").await.expect(200);
    let deep = take_back(&app, &id, &black, "undo").await.expect(200);
    assert_eq!(
        deep.body["game"]["state"]["moves"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    for _ in 0..3 {
        take_back(&app, &id, &white, "redo").await.expect(200);
    }
    let redone = app.get(&format!("/v1/go/games/{id}")).await.body;
    assert_eq!(
        redone["state"], captured,
        "redo restores the capture, the counts and the ko"
    );
    take_back(&app, &id, &white, "redo")
        .await
        .assert_problem(409, "conflict");

    // A new move clears the redo line.
    take_back(&app, &id, &white, "undo").await.expect(200);
    let fresh = play(&app, &id, &black, "A1").await.expect(200);
    assert_eq!(fresh.body["game"]["state"]["can_redo"], false);
    take_back(&app, &id, &white, "redo")
        .await
        .assert_problem(409, "conflict");
    let log = app.get(&format!("/v1/go/games/{id}/moves")).await.body;
    assert!(log
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["move"] == json!({"action": "redo"})));
}

async fn two_passes_end_and_the_score_route_counts(app: TestApp) {
    let (id, black, white) = two_humans(&app, json!({"size": 5})).await;
    play(&app, &id, &black, "C3").await.expect(200);
    play(&app, &id, &white, "pass").await.expect(200);
    let ended = play(&app, &id, &black, "PASS").await.expect(200);
    let game = &ended.body["game"];
    assert_eq!(game["status"], "finished", "{}", ended.text);
    assert_eq!(game["turn"], Value::Null);
    // 24 points of territory against komi 6.5.
    assert_eq!(
        game["result"],
        json!({"winners": [0], "reason": "score", "summary": "B+17.5"})
    );
    assert_eq!(game["state"]["consecutive_passes"], 2);
    let over = ended.body["events"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(over["type"], "game_over");
    assert_eq!(over["result"]["reason"], "score");
    play(&app, &id, &white, "A1")
        .await
        .assert_problem(409, "game_over");

    let score = app.get(&format!("/v1/go/games/{id}/score")).await;
    assert_eq!(score.status, 200, "{}", score.text);
    assert_eq!(score.body["result"], "B+17.5");
    assert_eq!(score.body["method"], "territory");
    assert_eq!(score.body["komi"], 6.5);
    assert_eq!(
        score.body["black"],
        json!({"territory": 24.0, "stones": 1, "captures": 0, "total": 24.0})
    );
    assert_eq!(score.body["ownership"][2], "XXXXX");
    assert!(score.body.get("ownership_p").is_none());
    let area = app
        .get(&format!("/v1/go/games/{id}/score?method=area"))
        .await;
    assert_eq!(area.body["result"], "B+18.5", "{}", area.text);
    // C3 dead: nobody owns the empty board, white takes a prisoner.
    let dead = app.get(&format!("/v1/go/games/{id}/score?dead=c3")).await;
    assert_eq!(dead.body["result"], "W+7.5", "{}", dead.text);
    assert_eq!(dead.body["ownership"][2], ".....");
    // `dead=` (an empty form field) is no dead stones: the plain count.
    let none = app.get(&format!("/v1/go/games/{id}/score?dead=")).await;
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.body, score.body);
    let bad = app
        .get(&format!("/v1/go/games/{id}/score?dead=C3,A1"))
        .await;
    bad.assert_problem(422, "invalid_request");
    assert!(
        bad.body["detail"].as_str().unwrap().contains("A1"),
        "{}",
        bad.text
    );
    let bad = app.get(&format!("/v1/go/games/{id}/score?dead=Z99")).await;
    bad.assert_problem(422, "invalid_request");
    assert!(
        bad.body["detail"].as_str().unwrap().contains("Z99"),
        "{}",
        bad.text
    );
    app.get(&format!("/v1/go/games/{id}/score?method=japanese"))
        .await
        .assert_problem(422, "invalid_request");
    app.get(&format!("/v1/go/games/{id}/score?deadstones=C3"))
        .await
        .assert_problem(400, "invalid_request");

    // Go keeps no scores, so taking back the last pass reopens the game.
    let reopened = take_back(&app, &id, &white, "undo").await.expect(200);
    assert_eq!(
        reopened.body["game"]["status"], "active",
        "{}",
        reopened.text
    );
    assert_eq!(reopened.body["game"]["result"], Value::Null);
    assert_eq!(reopened.body["game"]["turn"], 0);
}

async fn resigning_ends_the_game(app: TestApp) {
    let (id, black, white) = two_humans(&app, json!({"size": 9})).await;
    play(&app, &id, &black, "E5").await.expect(200);
    let resigned = play(&app, &id, &white, "Resign").await.expect(200);
    let game = &resigned.body["game"];
    assert_eq!(
        game["result"],
        json!({"winners": [0], "reason": "resign", "summary": "B+R"})
    );
    assert_eq!(
        resigned.body["events"][0],
        json!({"type": "resign", "seat": 1, "color": "white"})
    );
    take_back(&app, &id, &black, "undo")
        .await
        .assert_problem(409, "game_over");
    let sgf = app.get(&format!("/v1/go/games/{id}/sgf")).await;
    assert!(sgf.text.contains("RE[B+R]"), "{}", sgf.text);
}

async fn sgf_exports_and_imports(app: TestApp) {
    let (id, black, white) =
        two_humans(&app, json!({"size": 9, "komi": 7, "scoring": "area"})).await;
    play_all(&app, &id, [&black, &white], &KO_SETUP).await;
    play_all(&app, &id, [&black, &white], &["E5", "pass"]).await;
    let original = app.get(&format!("/v1/go/games/{id}")).await.body["state"].clone();

    let sgf = app.get(&format!("/v1/go/games/{id}/sgf")).await;
    assert_eq!(sgf.status, 200, "{}", sgf.text);
    assert_eq!(sgf.header("content-type"), Some("application/x-go-sgf"));
    for property in [
        "GM[1]",
        "FF[4]",
        "SZ[9]",
        "KM[7]",
        "RU[Chinese]",
        "PB[alice]",
        "PW[bob]",
        "DT[",
        ";W[]",
    ] {
        assert!(
            sgf.text.contains(property),
            "{property} missing: {}",
            sgf.text
        );
    }
    assert!(
        !sgf.text.contains("RE["),
        "an unfinished game has no result: {}",
        sgf.text
    );

    let (copy, _) = create(
        &app,
        json!({"sgf": sgf.text, "takeback": "any", "players": [{"name": "carol"}, {"ai": "easy"}]}),
    )
    .await;
    let imported = app.get(&format!("/v1/go/games/{copy}")).await.body;
    assert_eq!(
        imported["state"], original,
        "the record replays to the same game"
    );
    assert_eq!(imported["status"], "active");
    assert_eq!(imported["turn"], 0);
    let again = app.get(&format!("/v1/go/games/{copy}/sgf")).await.text;
    // PB and PW are the seats' names as the game shows them: the AI seat is "AI".
    let seats = &imported["seats"];
    assert_eq!(seats[1]["name"], "AI", "{imported}");
    assert!(
        again.contains(&format!("PB[{}]", seats[0]["name"].as_str().unwrap()))
            && again.contains("PB[carol]")
            && again.contains("PW[AI]")
            && !again.contains("Parlor AI"),
        "{again}"
    );
}

async fn bad_records_and_options_are_refused(app: TestApp) {
    let players = json!([{"name": "alice"}, {"name": "bob"}]);
    let illegal = app
        .post(
            "/v1/go/games",
            json!({"sgf": "(;GM[1]SZ[9];B[ee];W[dd];B[dd])", "players": players}),
        )
        .await;
    illegal.assert_problem(422, "invalid_request");
    let detail = illegal.body["detail"].as_str().unwrap();
    assert!(
        detail.contains("move 3") && detail.contains("occupied"),
        "{detail}"
    );
    let off_board = app
        .post(
            "/v1/go/games",
            json!({"sgf": "(;GM[1]SZ[9];B[ee];W[zz])", "players": players}),
        )
        .await;
    off_board.assert_problem(422, "invalid_request");
    assert!(
        off_board.body["detail"]
            .as_str()
            .unwrap()
            .contains("move 2"),
        "{}",
        off_board.text
    );
    app.post(
        "/v1/go/games",
        json!({"sgf": "(;GM[1]SZ[9];B[ee]", "players": players}),
    )
    .await
    .assert_problem(422, "invalid_request");
    app.post(
        "/v1/go/games",
        json!({"sgf": "(;GM[1]SZ[9])", "size": 9, "players": players}),
    )
    .await
    .assert_problem(422, "invalid_request");
    for (field, value) in [
        ("size", json!(4)),
        ("size", json!(26)),
        ("komi", json!(6.3)),
    ] {
        let mut body = json!({"players": players});
        body[field] = value;
        app.post("/v1/go/games", body)
            .await
            .assert_problem(422, "invalid_request");
    }
    app.post("/v1/go/games", json!({"handicap": 2, "players": players}))
        .await
        .assert_problem(400, "invalid_request");
    app.post(
        "/v1/go/games",
        json!({"scoring": "japanese", "players": players}),
    )
    .await
    .assert_problem(400, "invalid_request");
}

async fn the_ai_moves_with_an_analysis(app: TestApp) {
    let (id, tokens) = create(
        &app,
        json!({"size": 9, "players": [{"name": "dora"}, {"ai": "hard"}]}),
    )
    .await;
    let human = tokens[0].clone().unwrap();
    play(&app, &id, &human, "E5").await.expect(200);
    let answer = app
        .post(
            &format!("/v1/go/games/{id}/ai-move"),
            json!({"time_ms": 200}),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    assert_eq!(answer.body["applied"], true);
    let chosen = answer.body["move"]["move"].as_str().unwrap().to_owned();
    let analysis = &answer.body["analysis"];
    assert_eq!(analysis["level"], "hard");
    let win_rate = analysis["win_rate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&win_rate), "{analysis}");
    assert!(analysis["playouts"].as_u64().unwrap() > 0, "{analysis}");
    let pv = analysis["principal_variation"].as_array().unwrap();
    assert_eq!(
        pv[0].as_str(),
        Some(chosen.as_str()),
        "the line starts with the move: {analysis}"
    );
    assert!(
        pv.iter()
            .all(|v| v.as_str().is_some_and(|v| v.parse::<u32>().is_err())),
        "vertices, not indices: {analysis}"
    );
    let candidates = analysis["candidates"].as_array().unwrap();
    assert!(!candidates.is_empty(), "{analysis}");
    assert!(candidates[0]["visits"].as_u64().unwrap() > 0);
    assert!(candidates[0]["move"].is_string());
    let state = &answer.body["game"]["state"];
    assert_eq!(state["moves"], json!(["E5", chosen]));
    assert_eq!(at(state, &chosen), 'O');

    // A hint for the human seat needs its token and is not played.
    let hint = app
        .post_as(
            &format!("/v1/go/games/{id}/ai-move"),
            json!({"level": "easy", "time_ms": 10}),
            &human,
        )
        .await
        .expect(200);
    assert_eq!(hint.body["applied"], false);
    assert_eq!(hint.body["analysis"]["level"], "easy");
    assert_eq!(hint.body["game"]["version"], 2);
}

async fn estimate_marks_dead_stones(app: TestApp) {
    // Walls split the board; white's A5 sits in black's side with one liberty and black to move.
    let record = "(;GM[1]FF[4]SZ[9]KM[0.5]\
        AB[ca][cb][cc][cd][ce][cf][cg][ch][ci][ad][be]\
        AW[ga][gb][gc][gd][ge][gf][gg][gh][gi][ae])";
    let (id, _) = create(
        &app,
        json!({"sgf": record, "players": [{"name": "eve"}, {"name": "fay"}]}),
    )
    .await;
    let plain = app
        .get(&format!("/v1/go/games/{id}/score"))
        .await
        .expect(200);
    assert!(plain.body.get("dead").is_none());
    let path = format!("/v1/go/games/{id}/score?estimate=true&method=area");
    let estimate = app.get(&path).await.expect(200);
    assert_eq!(estimate.body["dead"], json!(["A5"]), "{}", estimate.text);
    let rows = estimate.body["ownership_p"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    assert!(rows.iter().all(|r| r.as_array().unwrap().len() == 9));
    let p = |row: usize, col: usize| rows[9 - row][col].as_f64().unwrap();
    assert!(p(5, 0) > 0.9, "A5 is black's: {}", p(5, 0));
    assert!(p(5, 8) < 0.1, "J5 is white's: {}", p(5, 8));
    let by_hand = app
        .get(&format!("/v1/go/games/{id}/score?dead=A5&method=area"))
        .await
        .expect(200);
    assert_eq!(estimate.body["result"], by_hand.body["result"]);
    assert_eq!(estimate.body["black"], by_hand.body["black"]);
    assert_ne!(estimate.body["result"], plain.body["result"]);
    // The same position estimates the same way.
    assert_eq!(app.get(&path).await.body, estimate.body);
    app.get(&format!("/v1/go/games/{id}/score?estimate=maybe"))
        .await
        .assert_problem(422, "invalid_request");
}

async fn undo_against_an_ai_returns_to_the_human(app: TestApp) {
    let (id, tokens) = create(
        &app,
        json!({"size": 9, "players": [{"name": "gina"}, {"ai": "easy"}]}),
    )
    .await;
    let human = tokens[0].clone().unwrap();
    let ai_move = format!("/v1/go/games/{id}/ai-move");
    play(&app, &id, &human, "E5").await.expect(200);
    let answered = app.post(&ai_move, json!({"time_ms": 20})).await.expect(200);
    let state = &answered.body["game"]["state"];
    let free = ["C3", "G7", "C7", "G3"]
        .into_iter()
        .find(|v| at(state, v) == '.')
        .unwrap();
    play(&app, &id, &human, free).await.expect(200);
    let answered = app.post(&ai_move, json!({"time_ms": 20})).await.expect(200);
    let before = answered.body["game"]["state"].clone();
    assert_eq!(before["moves"].as_array().unwrap().len(), 4);

    app.send(
        Method::POST,
        &format!("/v1/go/games/{id}/undo"),
        None,
        None,
        &[],
    )
    .await
    .assert_problem(401, "unauthorized");
    let undone = take_back(&app, &id, &human, "undo").await.expect(200);
    assert_eq!(undone.body["game"]["turn"], 0);
    let moves = undone.body["game"]["state"]["moves"].as_array().unwrap();
    assert_eq!(
        moves.len(),
        2,
        "the AI's answer and the human's move are taken back"
    );
    assert_eq!(
        undone.body["events"][0]["taken_back"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let redone = take_back(&app, &id, &human, "redo").await.expect(200);
    assert_eq!(redone.body["game"]["state"], before, "redo replays both");
    assert_eq!(redone.body["game"]["turn"], 0);
}

/// A long game, whose stored state the store keeps in pieces, loads back the same on another
/// server, through undo and redo and with two servers taking turns: black fills the board row by
/// row while white passes, 300 moves (900 bytes of packed moves, more than one piece).
async fn a_long_game_survives_another_server(app: TestApp) {
    let (id, black, white) = two_humans(&app, json!({"size": 19})).await;
    let columns: Vec<char> = "ABCDEFGHJKLMNOPQRST".chars().collect();
    let stones: Vec<String> = (0..150)
        .map(|i| format!("{}{}", columns[i % 19], i / 19 + 1))
        .collect();
    let moves: Vec<&str> = stones.iter().flat_map(|s| [s.as_str(), "pass"]).collect();
    play_all(&app, &id, [&black, &white], &moves).await;
    take_back(&app, &id, &white, "undo").await.expect(200);
    take_back(&app, &id, &white, "undo").await.expect(200);
    take_back(&app, &id, &white, "redo").await.expect(200);
    let path = format!("/v1/go/games/{id}");
    let read = app.get(&path).await.expect(200);
    assert_eq!(read.body["state"]["moves"].as_array().unwrap().len(), 299);

    let other = common::spawn_on(
        &app.database_url,
        None,
        common::test_config(&app.database_url),
    )
    .await;
    assert_eq!(
        other.get(&path).await.body,
        read.body,
        "another server reads the same game"
    );
    // The servers take turns: each move is made by the server that did not make the last one.
    let more = ["pass", "T8", "pass", "T9"];
    for (i, m) in more.iter().enumerate() {
        let server = if i % 2 == 0 { &other } else { &app };
        let token = if i % 2 == 0 { &white } else { &black };
        play(server, &id, token, m).await.expect(200);
    }
    let (first, second) = (app.get(&path).await.body, other.get(&path).await.body);
    assert_eq!(first, second);
    let stored = first["state"]["moves"].as_array().unwrap();
    assert_eq!(stored.len(), 303);
    assert_eq!(
        stored[299..],
        [json!("pass"), json!("T8"), json!("pass"), json!("T9")]
    );
    assert_eq!(
        first["state"]["can_redo"], false,
        "a new move clears the redo line"
    );
}

on_both_stores!(
    a_long_game_survives_another_server,
    captures_ko_and_suicide,
    superko_is_an_option,
    ai_resign_defaults_to_on_against_hard,
    undo_and_redo_restore_captures,
    two_passes_end_and_the_score_route_counts,
    resigning_ends_the_game,
    sgf_exports_and_imports,
    bad_records_and_options_are_refused,
    the_ai_moves_with_an_analysis,
    estimate_marks_dead_stones,
    undo_against_an_ai_returns_to_the_human,
);

/// The estimate runs playouts: it counts against the client's AI limit like an `ai-move`.
#[actix_web::test]
async fn the_estimate_counts_against_the_ai_limit() {
    let (url, dir) = common::fresh_database(common::Db::Sqlite).await.unwrap();
    let mut config = common::test_config(&url);
    config.ai_rate_per_minute = Some(2);
    let app = common::spawn_on(&url, dir, config).await;
    let (id, _) = create(
        &app,
        json!({"size": 9, "players": [{"name": "eve"}, {"name": "fay"}]}),
    )
    .await;
    let estimate = format!("/v1/go/games/{id}/score?estimate=true");
    let first = app.get(&estimate).await.expect(200);
    // The same version and query again: the kept answer.
    assert_eq!(app.get(&estimate).await.expect(200).body, first.body);
    let limited = app.get(&estimate).await;
    limited.assert_problem(429, "rate_limited");
    // A plain count does not think, and is not limited.
    app.get(&format!("/v1/go/games/{id}/score"))
        .await
        .expect(200);
}
