//! Games that end by agreement or go on as another: draw offers (a move declines one) and
//! rematches (one follow-up, colours swapped, every human seat's token, AI seats carried over).

use serde_json::{json, Value};

use crate::common::{Reply, TestApp};

fn humans() -> Value {
    json!({"players": [{"name": "ann"}, {"name": "ben"}]})
}

async fn draw(app: &TestApp, game: &str, id: &str, token: &str) -> Reply {
    app.post_as(&format!("/v1/{game}/games/{id}/draw"), json!({}), token)
        .await
}

fn types(events: &Value) -> Vec<&str> {
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect()
}

async fn a_draw_is_offered_declined_by_a_move_and_agreed(app: TestApp) {
    let (id, tokens) = app.create_gomoku(humans()).await;
    let (black, white) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    app.gomoku_move(&id, &black, "h8").await.expect(200);
    let offered = draw(&app, "gomoku", &id, &black).await.expect(200);
    assert_eq!(types(&offered.body["events"]), ["draw_offered"]);
    assert_eq!(
        offered.body["game"]["state"]["draw_offer"],
        json!({"by": 0})
    );
    draw(&app, "gomoku", &id, &black)
        .await
        .assert_problem(409, "conflict");
    // White plays instead of answering: the offer is declined.
    let moved = app.gomoku_move(&id, &white, "a1").await.expect(200);
    assert_eq!(types(&moved.body["events"])[0], "draw_declined");
    assert!(moved.body["game"]["state"].get("draw_offer").is_none());
    draw(&app, "gomoku", &id, &white).await.expect(200);
    let agreed = draw(&app, "gomoku", &id, &black).await.expect(200);
    assert_eq!(agreed.body["game"]["status"], "finished");
    assert_eq!(agreed.body["game"]["result"]["reason"], "draw");
    assert_eq!(agreed.body["game"]["result"]["winners"], json!([]));
    app.gomoku_move(&id, &black, "i8")
        .await
        .assert_problem(409, "game_over");

    // Go too; an AI seat takes no offer.
    let created = app
        .post(
            "/v1/go/games",
            json!({"size": 9, "players": [{"name": "ann"}, {"ai": "easy"}]}),
        )
        .await
        .expect(201);
    let go = created.body["id"].as_str().unwrap();
    let token = created.body["tokens"][0]["token"].as_str().unwrap();
    draw(&app, "go", go, token)
        .await
        .assert_problem(409, "conflict");
}

async fn a_rematch_swaps_colours_and_starts_when_both_ask(app: TestApp) {
    let (id, tokens) = app.create_gomoku(humans()).await;
    let (ann, ben) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let rematch = format!("/v1/gomoku/games/{id}/rematch");
    app.post_as(&rematch, json!({}), &ann)
        .await
        .assert_problem(409, "conflict");
    app.gomoku_move(&id, &ann, "h8").await.expect(200);
    let resigned = app
        .post_as(
            &format!("/v1/gomoku/games/{id}/moves"),
            json!({"move": "resign"}),
            &ben,
        )
        .await
        .expect(200);
    let finished_at = resigned.body["game"]["version"].as_i64().unwrap();

    let first = app.post_as(&rematch, json!({}), &ann).await.expect(200);
    assert_eq!(first.header("cache-control"), Some("no-store"));
    assert_eq!(first.body["seat"], 1, "ann played black; now she is white");
    let next = first.body["game"]["id"].as_str().unwrap().to_owned();
    assert_ne!(next, id);
    assert_eq!(first.body["game"]["status"], "waiting");
    let ann_next = first.body["token"].as_str().unwrap().to_owned();
    // Asking again answers the same seat and token; the old game announced the rematch.
    let again = app.post_as(&rematch, json!({}), &ann).await.expect(200);
    assert_eq!(
        (&again.body["seat"], &again.body["token"]),
        (&json!(1), &json!(ann_next))
    );
    let log = app
        .get(&format!("/v1/gomoku/games/{id}/moves"))
        .await
        .expect(200);
    let last = log.body.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["move"], json!({"rematch": next}));
    let mut stream = crate::common::sse::EventStream::open(
        &app.client,
        &app.url(&format!("/v1/gomoku/games/{id}/events")),
        None,
        Some(finished_at),
    )
    .await;
    let announced = stream
        .next(std::time::Duration::from_secs(10))
        .await
        .expect("the rematch event");
    assert_eq!(
        announced.data["events"],
        json!([{"type": "rematch", "id": next}])
    );

    let second = app.post_as(&rematch, json!({}), &ben).await.expect(200);
    assert_eq!(second.body["seat"], 0);
    assert_eq!(second.body["game"]["status"], "active");
    let ben_next = second.body["token"].as_str().unwrap().to_owned();
    let names: Vec<&Value> = second.body["game"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["name"])
        .collect();
    assert_eq!(names, [&json!("ben"), &json!("ann")]);
    app.gomoku_move(&next, &ben_next, "h8").await.expect(200);
    app.gomoku_move(&next, &ann_next, "a1").await.expect(200);
    // The old tokens belong to the old game.
    app.gomoku_move(&next, &ben, "i8")
        .await
        .assert_problem(403, "forbidden");
}

async fn a_rematch_against_the_ai_starts_at_once(app: TestApp) {
    let (id, tokens) = app
        .create_gomoku(json!({"players": [{"name": "ann"}, {"ai": "easy"}], "size": 9}))
        .await;
    let ann = tokens[0].clone().unwrap();
    app.post_as(
        &format!("/v1/gomoku/games/{id}/moves"),
        json!({"move": "resign"}),
        &ann,
    )
    .await
    .expect(200);
    let next = app
        .post_as(&format!("/v1/gomoku/games/{id}/rematch"), json!({}), &ann)
        .await
        .expect(200);
    let game = &next.body["game"];
    assert_eq!(game["status"], "active");
    assert_eq!(game["state"]["size"], 9, "the same options");
    assert_eq!(
        game["seats"][0]["kind"], "ai",
        "the AI carried over, now black"
    );
    assert_eq!(next.body["seat"], 1);
}

on_both_stores!(
    a_draw_is_offered_declined_by_a_move_and_agreed,
    a_rematch_swaps_colours_and_starts_when_both_ask,
    a_rematch_against_the_ai_starts_at_once,
);
