//! Poker over real HTTP: deal, compare, evaluate, and deck sessions on both databases.

mod common;

use common::TestApp;
use reqwest::Method;
use serde_json::{json, Value};

async fn deal_is_reproducible_and_ranked(app: TestApp) {
    let a = app
        .post("/v1/poker/deal", json!({"players": 11, "seed": 42}))
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    let b = app
        .post("/v1/poker/deal", json!({"players": 11, "seed": 42}))
        .await;
    assert_eq!(a.body, b.body, "the same seed deals the same hands");
    assert_eq!(a.body["seed"], "42", "seeds travel as strings");
    let hands = a.body["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 11);
    let mut seen = std::collections::HashSet::new();
    for h in hands {
        for c in h["cards"].as_array().unwrap() {
            let c = c.as_str().unwrap();
            assert!(c == "JK" || seen.insert(c.to_owned()), "{c} dealt twice");
        }
    }
    // The ranking covers every seat once, best first, and winners are its first group.
    let ranking = a.body["ranking"].as_array().unwrap();
    let strength = |seat: &Value| {
        hands[seat.as_u64().unwrap() as usize]["strength"]
            .as_u64()
            .unwrap()
    };
    let flat: Vec<&Value> = ranking.iter().flat_map(|g| g.as_array().unwrap()).collect();
    assert_eq!(flat.len(), 11);
    assert!(flat.windows(2).all(|w| strength(w[0]) >= strength(w[1])));
    assert_eq!(a.body["winners"], ranking[0]);
    let random = app.post("/v1/poker/deal", json!({"players": 2})).await;
    assert!(random.body["seed"]
        .as_str()
        .is_some_and(|s| s.parse::<u64>().is_ok()));
    for players in [1, 12, -3] {
        app.post("/v1/poker/deal", json!({"players": players}))
            .await
            .assert_problem(422, "invalid_request");
    }
    app.post("/v1/poker/deal", json!({"players": "two"}))
        .await
        .assert_problem(400, "invalid_request");
}

async fn compare_follows_the_seed_rules(app: TestApp) {
    // Five jokers beat everything; a straight flush beats four of a kind.
    let r = app
        .post(
            "/v1/poker/compare",
            json!({"hands": [["TS", "JS", "QS", "KS", "AS"], ["JK", "JK", "JK", "JK", "JK"], ["9H", "9D", "9C", "9S", "2C"]]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["winners"], json!([1]));
    assert_eq!(r.body["ranking"], json!([[1], [0], [2]]));
    assert_eq!(r.body["hands"][2]["category"], "four_of_a_kind");
    // A joker makes five of a kind, which beats the royal straight flush.
    let five = app
        .post(
            "/v1/poker/compare",
            json!({"hands": [["TS", "JS", "QS", "KS", "AS"], ["9H", "9D", "9C", "9S", "JK"]]}),
        )
        .await;
    assert_eq!(five.body["winners"], json!([1]));
    assert_eq!(five.body["hands"][1]["category"], "five_of_a_kind");
    // One pair compares the pair's rank and then its best suit, no kickers: AS-AH beats AD-AC.
    let pair = app
        .post(
            "/v1/poker/compare",
            json!({"hands": [["AD", "AC", "KS", "QS", "JS"], ["AS", "AH", "2C", "3D", "4C"]]}),
        )
        .await;
    assert_eq!(pair.body["winners"], json!([1]));
    // Equal hands tie and share the win.
    let tie = app
        .post(
            "/v1/poker/compare",
            json!({"hands": [["2S", "3H", "4D", "5C", "7S"], ["2H", "3D", "4C", "5S", "7S"]]}),
        )
        .await;
    assert_eq!(
        tie.status, 422,
        "7S twice is more than one deck: {}",
        tie.text
    );
    let tie = app
        .post(
            "/v1/poker/compare",
            json!({"hands": [["JK", "2S", "3H", "4D", "5C"], ["JK", "2H", "3D", "4C", "5S"]]}),
        )
        .await;
    // Both are 2-to-6 straights topped by a joker, which has no suit: nothing separates them.
    assert_eq!(tie.status, 200, "{}", tie.text);
    assert_eq!(tie.body["hands"][0]["category"], "straight");
    assert_eq!(
        tie.body["ranking"].as_array().unwrap().len(),
        1,
        "{}",
        tie.text
    );
    assert_eq!(tie.body["winners"], json!([0, 1]));

    for (body, status) in [
        (json!({"hands": [["AS", "KS", "QS", "JS", "TS"]]}), 422),
        (
            json!({"hands": [["AS", "KS", "QS", "JS"], ["2C", "3C", "4C", "5C", "6C"]]}),
            422,
        ),
        (
            json!({"hands": [["JK", "JK", "JK", "JK", "JK"], ["JK", "2C", "3C", "4C", "5C"]]}),
            422,
        ),
        (
            json!({"hands": [["AS", "KS", "QS", "JS", "1S"], ["2C", "3C", "4C", "5C", "6C"]]}),
            400,
        ),
        (
            json!({"hands": [["AS", "KS", "QS", "JS", "XX"], ["2C", "3C", "4C", "5C", "6C"]]}),
            400,
        ),
        (json!({"hands": "AS KS"}), 400),
    ] {
        app.post("/v1/poker/compare", body)
            .await
            .assert_problem(status, "invalid_request");
    }
}

async fn evaluate_explains_a_hand(app: TestApp) {
    let r = app
        .post(
            "/v1/poker/evaluate",
            json!({"cards": ["KS", "JK", "kd", "7C", "10h"]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["category"], "three_of_a_kind");
    assert_eq!(r.body["cards"], json!(["KS", "JK", "KD", "7C", "TH"]));
    assert_eq!(r.body["best"][2], "K*");
    assert!(r.body["strength"].is_u64());
    let flush = app
        .post(
            "/v1/poker/evaluate",
            json!({"cards": ["AS", "7S", "5S", "3S", "JK"]}),
        )
        .await;
    assert_eq!(flush.body["category"], "flush");
    assert_eq!(flush.body["best"], json!(["AS", "KS*", "7S", "5S", "3S"]));
    app.post(
        "/v1/poker/evaluate",
        json!({"cards": ["AS", "AS", "5S", "3S", "JK"]}),
    )
    .await
    .assert_problem(422, "invalid_request");
    app.post("/v1/poker/evaluate", json!({"cards": ["AS"]}))
        .await
        .assert_problem(422, "invalid_request");
    app.post(
        "/v1/poker/evaluate",
        json!({"cards": ["AS", "KS", "QS", "JS", "ZZ"]}),
    )
    .await
    .assert_problem(400, "invalid_request");
}

async fn deck_sessions_draw_undo_reselect_shuffle(app: TestApp) {
    let created = app.post("/v1/poker/decks", json!({"seed": 7})).await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.body["remaining"], 57);
    assert_eq!(created.body["drawn"], json!([]));
    assert!(created.body.get("order").is_none() && !created.text.contains("next_stream"));
    let id = created.body["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/poker/decks/{id}");

    let drawn = app.post(&format!("{path}/draw"), json!({"count": 5})).await;
    assert_eq!(drawn.status, 200, "{}", drawn.text);
    let five = drawn.body["cards"].clone();
    assert_eq!(five.as_array().unwrap().len(), 5);
    assert_eq!(drawn.body["deck"]["remaining"], 52);
    assert_eq!(drawn.header("etag"), Some("\"1\""));
    // Another deck with the same seed draws the same five.
    let twin = app.post("/v1/poker/decks", json!({"seed": 7})).await.body["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let twin_five = app
        .post(&format!("/v1/poker/decks/{twin}/draw"), json!({"count": 5}))
        .await;
    assert_eq!(twin_five.body["cards"], five);

    let undone = app.post(&format!("{path}/undo"), json!({})).await;
    assert_eq!(undone.body["returned"], json!([five[4]]));
    assert_eq!(undone.body["deck"]["remaining"], 53);
    let again = app.post(&format!("{path}/draw"), json!({"count": 1})).await;
    assert_eq!(
        again.body["cards"],
        json!([five[4]]),
        "undo puts the card back on top"
    );
    let re = app.post(&format!("{path}/reselect"), json!({})).await;
    assert_eq!(re.status, 200, "{}", re.text);
    assert_eq!(re.body["returned"], json!([five[4]]));
    assert_eq!(re.body["deck"]["drawn"].as_array().unwrap().len(), 5);
    let shuffled = app.post(&format!("{path}/shuffle"), json!({})).await;
    assert_eq!(shuffled.body["deck"]["remaining"], 57);
    assert_eq!(shuffled.body["returned"].as_array().unwrap().len(), 5);

    let read = app.get(&path).await;
    assert_eq!(read.body["version"], 5);
    let cached = app
        .send(
            Method::GET,
            &path,
            None,
            None,
            &[("if-none-match", "\"5\"")],
        )
        .await;
    assert_eq!(cached.status, 304);
    app.send(
        Method::POST,
        &format!("{path}/draw"),
        Some(&json!({"count": 1})),
        None,
        &[("if-match", "\"2\"")],
    )
    .await
    .assert_problem(412, "precondition_failed");

    // Nothing drawn (the shuffle put every card back): nothing to undo or re-select, 409 like a
    // game's nothing to undo.
    app.post(&format!("{path}/undo"), json!({}))
        .await
        .assert_problem(409, "conflict");
    app.post(&format!("{path}/reselect"), json!({}))
        .await
        .assert_problem(409, "conflict");
    let all = app
        .post(&format!("{path}/draw"), json!({"count": 57}))
        .await
        .expect(200);
    assert_eq!(all.body["deck"]["remaining"], 0, "{}", all.text);
    app.post(&format!("{path}/draw"), json!({"count": 1}))
        .await
        .assert_problem(422, "illegal_move");
    for count in [0, 58, -1] {
        app.post(&format!("{path}/draw"), json!({"count": count}))
            .await
            .assert_problem(422, "invalid_request");
    }
    app.get("/v1/poker/decks/0193a000-0000-7000-8000-000000000000")
        .await
        .assert_problem(404, "not_found");
    app.get("/v1/poker/decks/nope")
        .await
        .assert_problem(404, "not_found");
    let empty = app
        .send(Method::POST, "/v1/poker/decks", None, None, &[])
        .await;
    assert_eq!(empty.status, 201, "an empty body is a random deck");
}

async fn racing_draws_never_deal_a_card_twice(app: TestApp) {
    let id = app.post("/v1/poker/decks", json!({})).await.body["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let url = app.url(&format!("/v1/poker/decks/{id}/draw"));
    let mut tasks = Vec::new();
    for _ in 0..12 {
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            let r = reqwest::Client::new()
                .post(url)
                .json(&json!({"count": 3}))
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap())
        }));
    }
    let mut cards = Vec::new();
    for t in tasks {
        let (status, body) = t.await.unwrap();
        match status {
            200 => cards.extend(body["cards"].as_array().unwrap().clone()),
            409 => assert_eq!(body["code"], "conflict"),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    let deck = app.get(&format!("/v1/poker/decks/{id}")).await.body;
    let sorted = |v: &[Value]| {
        let mut v: Vec<String> = v.iter().map(|c| c.as_str().unwrap().to_owned()).collect();
        v.sort();
        v
    };
    assert_eq!(
        sorted(deck["drawn"].as_array().unwrap()),
        sorted(&cards),
        "every acknowledged draw is kept, and nothing else"
    );
    assert_eq!(deck["remaining"], 57 - cards.len());
    assert_eq!(deck["version"], cards.len() / 3);
}

on_both_stores!(
    deal_is_reproducible_and_ranked,
    compare_follows_the_seed_rules,
    evaluate_explains_a_hand,
    deck_sessions_draw_undo_reselect_shuffle,
    racing_draws_never_deal_a_card_twice,
);
