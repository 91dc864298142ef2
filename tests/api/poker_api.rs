//! Poker over real HTTP: deal, compare, evaluate, and deck sessions on both databases.

use crate::common;

use std::collections::BTreeSet;

use common::{Reply, TestApp};
use reqwest::Method;
use serde_json::{json, Value};
use sha2::Digest;

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

/// A new deck: its answer, id and owner token.
async fn new_deck(app: &TestApp, body: Value) -> (Reply, String, String) {
    let created = app.post("/v1/poker/decks", body).await.expect(201);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let token = created.body["token"]
        .as_str()
        .expect("the owner token")
        .to_owned();
    (created, id, token)
}

async fn deck_sessions_draw_undo_reselect_shuffle(app: TestApp) {
    let (created, id, token) = new_deck(&app, json!({"seed": 7})).await;
    let t = token.as_str();
    assert_eq!(created.body["remaining"], 57);
    assert_eq!(created.body["drawn"], json!([]));
    assert!(created.body.get("order").is_none() && !created.text.contains("next_stream"));
    let path = format!("/v1/poker/decks/{id}");

    let drawn = app
        .post_as(&format!("{path}/draw"), json!({"count": 5}), t)
        .await;
    assert_eq!(drawn.status, 200, "{}", drawn.text);
    let five = drawn.body["cards"].clone();
    assert_eq!(five.as_array().unwrap().len(), 5);
    assert_eq!(drawn.body["deck"]["remaining"], 52);
    assert_eq!(drawn.header("etag"), Some("\"1\""));
    // Another deck with the same seed draws the same five.
    let (_, twin, twin_token) = new_deck(&app, json!({"seed": 7})).await;
    let twin_five = app
        .post_as(
            &format!("/v1/poker/decks/{twin}/draw"),
            json!({"count": 5}),
            &twin_token,
        )
        .await;
    assert_eq!(twin_five.body["cards"], five);

    let undone = app.post_as(&format!("{path}/undo"), json!({}), t).await;
    assert_eq!(undone.body["returned"], json!([five[4]]));
    assert_eq!(undone.body["deck"]["remaining"], 53);
    let again = app
        .post_as(&format!("{path}/draw"), json!({"count": 1}), t)
        .await;
    assert_eq!(
        again.body["cards"],
        json!([five[4]]),
        "undo puts the card back on top"
    );
    let re = app.post_as(&format!("{path}/reselect"), json!({}), t).await;
    assert_eq!(re.status, 200, "{}", re.text);
    assert_eq!(re.body["returned"], json!([five[4]]));
    assert_eq!(re.body["deck"]["drawn"].as_array().unwrap().len(), 5);
    let shuffled = app.post_as(&format!("{path}/shuffle"), json!({}), t).await;
    assert_eq!(shuffled.body["deck"]["remaining"], 57);
    assert_eq!(shuffled.body["returned"].as_array().unwrap().len(), 5);

    let read = app.get_as(&path, t).await;
    assert_eq!(read.body["version"], 5);
    let cached = app
        .send(
            Method::GET,
            &path,
            None,
            Some(t),
            &[("if-none-match", "\"5\"")],
        )
        .await;
    assert_eq!(cached.status, 304);
    app.send(
        Method::POST,
        &format!("{path}/draw"),
        Some(&json!({"count": 1})),
        Some(t),
        &[("if-match", "\"2\"")],
    )
    .await
    .assert_problem(412, "precondition_failed");

    // Nothing drawn (the shuffle put every card back): nothing to undo or re-select, 409 like a
    // game's nothing to undo.
    app.post_as(&format!("{path}/undo"), json!({}), t)
        .await
        .assert_problem(409, "conflict");
    app.post_as(&format!("{path}/reselect"), json!({}), t)
        .await
        .assert_problem(409, "conflict");
    let all = app
        .post_as(&format!("{path}/draw"), json!({"count": 57}), t)
        .await
        .expect(200);
    assert_eq!(all.body["deck"]["remaining"], 0, "{}", all.text);
    app.post_as(&format!("{path}/draw"), json!({"count": 1}), t)
        .await
        .assert_problem(422, "illegal_move");
    for count in [0, 58, -1] {
        app.post_as(&format!("{path}/draw"), json!({"count": count}), t)
            .await
            .assert_problem(422, "invalid_request");
    }
    app.get_as("/v1/poker/decks/0193a000-0000-7000-8000-000000000000", t)
        .await
        .assert_problem(404, "not_found");
    app.get_as("/v1/poker/decks/nope", t)
        .await
        .assert_problem(404, "not_found");
    let empty = app
        .send(Method::POST, "/v1/poker/decks", None, None, &[])
        .await;
    assert_eq!(empty.status, 201, "an empty body is a random deck");
}

/// A seeded deck is reproducible: the same seed and the same calls give the same cards, re-selects
/// and shuffles included; and it says so (`seeded`, its `seed`). A random deck shows no seed.
async fn seeded_decks_are_marked_and_reproducible_random_ones_show_no_seed(app: TestApp) {
    let mut runs = Vec::new();
    for _ in 0..2 {
        let (created, id, token) = new_deck(&app, json!({"seed": "12345678901234567890"})).await;
        assert_eq!(created.body["seeded"], true, "{}", created.text);
        assert_eq!(created.body["seed"], "12345678901234567890");
        let path = format!("/v1/poker/decks/{id}");
        let mut cards = Vec::new();
        for (action, body) in [
            ("draw", json!({"count": 4})),
            ("reselect", json!({})),
            ("reselect", json!({})),
            ("shuffle", json!({})),
            ("draw", json!({"count": 3})),
        ] {
            let r = app
                .post_as(&format!("{path}/{action}"), body, &token)
                .await
                .expect(200);
            assert_eq!(r.body["deck"]["seeded"], true);
            assert_eq!(r.body["deck"]["seed"], "12345678901234567890");
            cards.push(r.body["cards"].clone());
        }
        runs.push(cards);
    }
    assert_eq!(runs[0], runs[1], "same seed, same calls, same cards");

    for body in [json!({}), Value::Null] {
        let created = match body {
            Value::Null => app
                .send(Method::POST, "/v1/poker/decks", None, None, &[])
                .await
                .expect(201),
            body => app.post("/v1/poker/decks", body).await.expect(201),
        };
        assert_eq!(created.body["seeded"], false, "{}", created.text);
        assert!(created.body.get("seed").is_none(), "{}", created.text);
        let id = created.body["id"].as_str().unwrap();
        let token = created.body["token"].as_str().unwrap();
        let read = app
            .get_as(&format!("/v1/poker/decks/{id}"), token)
            .await
            .expect(200);
        assert_eq!(read.body["seeded"], false);
        assert!(read.body.get("seed").is_none() && !read.text.contains("seed\""));
    }
}

/// Every deck route needs the deck's owner token: 401 without one (or with a token no deck has),
/// 403 with another deck's. The token is shown once, at create, in an answer no cache keeps, and
/// stored only as its SHA-256 hash.
async fn decks_answer_only_their_owner(app: TestApp) {
    let (created, id, token) = new_deck(&app, json!({})).await;
    let (_, other_id, other_token) = new_deck(&app, json!({"seed": 3})).await;
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_ne!(token, other_token);
    assert_eq!(created.header("cache-control"), Some("no-store"));
    assert_eq!(
        created.header("location"),
        Some(format!("/v1/poker/decks/{id}").as_str())
    );

    let store = common::open_store(&app.database_url).await;
    let row = store.load_deck(id.parse().unwrap()).await.unwrap().unwrap();
    let hash: [u8; 32] = sha2::Sha256::digest(token.as_bytes()).into();
    assert_eq!(row.owner_token_hash.as_deref(), Some(&hash[..]));
    assert!(!row.state.0.to_string().contains(&token));

    let path = format!("/v1/poker/decks/{id}");
    let nobodys = "ab".repeat(32);
    let routes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, path.clone(), None),
        (
            Method::POST,
            format!("{path}/draw"),
            Some(json!({"count": 2})),
        ),
        (Method::POST, format!("{path}/undo"), Some(json!({}))),
        (Method::POST, format!("{path}/reselect"), Some(json!({}))),
        (Method::POST, format!("{path}/shuffle"), Some(json!({}))),
    ];
    for (method, route, body) in &routes {
        let r = app
            .send(method.clone(), route, body.as_ref(), None, &[])
            .await;
        r.assert_problem(401, "unauthorized");
        assert_eq!(r.header("www-authenticate"), Some("Bearer"), "{route}");
        app.send(
            method.clone(),
            route,
            body.as_ref(),
            Some(&other_token),
            &[],
        )
        .await
        .assert_problem(403, "forbidden");
        app.send(method.clone(), route, body.as_ref(), Some(&nobodys), &[])
            .await
            .assert_problem(401, "unauthorized");
        app.send(
            method.clone(),
            route,
            body.as_ref(),
            None,
            &[("authorization", "Bearer not-a-token")],
        )
        .await
        .assert_problem(401, "unauthorized");
    }
    // A conditional read without the token is refused too: a 304 would confirm the version.
    app.send(
        Method::GET,
        &path,
        None,
        None,
        &[("if-none-match", "\"0\"")],
    )
    .await
    .assert_problem(401, "unauthorized");
    // Nothing changed on the way: still version 0, nothing drawn.
    let read = app.get_as(&path, &token).await.expect(200);
    assert_eq!(read.body["version"], 0);
    assert_eq!(read.body["drawn"], json!([]));
    assert!(read.body.get("token").is_none() && !read.text.contains(&token));
    assert_eq!(read.header("cache-control"), Some("private, no-cache"));
    // With the token every route works, and no later answer shows it again.
    for (method, route, body) in &routes {
        let r = app
            .send(method.clone(), route, body.as_ref(), Some(&token), &[])
            .await
            .expect(200);
        assert!(!r.text.contains(&token), "{route}: {}", r.text);
        assert_eq!(r.header("cache-control"), Some("private, no-cache"));
    }
    // The other deck's token works on the other deck.
    app.get_as(&format!("/v1/poker/decks/{other_id}"), &other_token)
        .await
        .expect(200);
    // A deck with an owner cannot be claimed.
    app.post(&format!("{path}/claim"), json!({}))
        .await
        .assert_problem(409, "conflict");
}

/// Every value an answer about a deck holds that a careless server might have shuffled it from:
/// the `seed`, any other number or string of digits, and the deck id read as numbers.
fn seed_like(body: &Value, out: &mut BTreeSet<u64>) {
    match body {
        Value::Number(n) => out.extend(n.as_u64().filter(|&n| n > 57)),
        Value::String(s) => {
            if let Ok(n) = s.parse::<u64>() {
                out.insert(n);
            }
            if let Ok(id) = s.parse::<uuid::Uuid>() {
                let bits = id.as_u128();
                out.extend([(bits >> 64) as u64, bits as u64]);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| seed_like(v, out)),
        Value::Object(map) => map.values().for_each(|v| seed_like(v, out)),
        _ => {}
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Draw(u64),
    Reselect,
    Shuffle,
}

impl Op {
    fn call(self) -> (&'static str, Value) {
        match self {
            Op::Draw(count) => ("draw", json!({"count": count})),
            Op::Reselect => ("reselect", json!({})),
            Op::Shuffle => ("shuffle", json!({})),
        }
    }
}

/// An attacker's copy of a victim's deck: a deck of its own made with a candidate seed, put
/// through the same calls.
struct Twin {
    id: String,
    token: String,
    seed: u64,
    /// Cards drawn since the last shuffle, as the victim has.
    since_shuffle: usize,
}

async fn act(app: &TestApp, id: &str, token: &str, op: Op) -> Reply {
    let (action, body) = op.call();
    app.post_as(&format!("/v1/poker/decks/{id}/{action}"), body, token)
        .await
        .expect(200)
}

/// The whole deck `seed` shuffles, as `POST /v1/poker/deal` with 11 players shows it (55 cards:
/// seat s gets cards s, s + 11, …).
async fn dealt_order(app: &TestApp, seed: u64) -> Vec<String> {
    let dealt = app
        .post(
            "/v1/poker/deal",
            json!({"players": 11, "seed": seed.to_string()}),
        )
        .await
        .expect(200);
    let hands = dealt.body["hands"].as_array().unwrap();
    let mut order = vec![String::new(); 55];
    for (seat, hand) in hands.iter().enumerate() {
        for (round, card) in hand["cards"].as_array().unwrap().iter().enumerate() {
            order[round * 11 + seat] = card.as_str().unwrap().to_owned();
        }
    }
    order
}

/// What the attacks got: predictions made, hits, the hits chance alone would give, and every
/// answer the victims' owners saw, with each deck's id.
#[derive(Default)]
struct AttackReport {
    points: usize,
    hits: usize,
    by_chance: f64,
    answers: Vec<(String, String, Vec<String>)>,
}

/// Creates `decks` decks with `body` and plays each as an owner would (draw, get, re-select,
/// shuffle), while an attacker who sees every answer tries, before each of the owner's next
/// draws, to name the card: by dealing with every seed-like value found (`/v1/poker/deal` shows
/// a seed's order) and by making a twin deck with it and putting it through the same calls.
async fn attack(app: &TestApp, body: Value, decks: usize) -> AttackReport {
    let mut report = AttackReport::default();
    for _ in 0..decks {
        let (created, id, token) = new_deck(app, body.clone()).await;
        let mut answers = vec![created.text.clone()];
        let mut public = vec![created.body.clone()];
        let mut history: Vec<Op> = Vec::new();
        let mut twins: Vec<Twin> = Vec::new();
        let mut since_shuffle = 0usize;
        let phases: [&[Op]; 3] = [&[Op::Draw(5)], &[Op::Reselect], &[Op::Shuffle]];
        for phase in phases {
            for &op in phase {
                let r = act(app, &id, &token, op).await;
                answers.push(r.text.clone());
                public.push(r.body.clone());
                history.push(op);
                since_shuffle = match op {
                    Op::Draw(n) => since_shuffle + n as usize,
                    Op::Reselect => since_shuffle,
                    Op::Shuffle => 0,
                };
                for twin in &mut twins {
                    act(app, &twin.id, &twin.token, op).await;
                    twin.since_shuffle = since_shuffle;
                }
            }
            let read = app
                .get_as(&format!("/v1/poker/decks/{id}"), &token)
                .await
                .expect(200);
            answers.push(read.text.clone());
            public.push(read.body.clone());
            let remaining = read.body["remaining"].as_u64().unwrap() as usize;

            // Every seed-like value seen so far gets a twin, brought up to date.
            let mut candidates = BTreeSet::new();
            public.iter().for_each(|b| seed_like(b, &mut candidates));
            for seed in candidates {
                if twins.iter().any(|t| t.seed == seed) {
                    continue;
                }
                let (_, twin_id, twin_token) =
                    new_deck(app, json!({"seed": seed.to_string()})).await;
                for &op in &history {
                    act(app, &twin_id, &twin_token, op).await;
                }
                twins.push(Twin {
                    id: twin_id,
                    token: twin_token,
                    seed,
                    since_shuffle,
                });
            }
            // The guesses: each twin's next card, and each seed's dealt order at this depth.
            let mut guesses = BTreeSet::new();
            for twin in &mut twins {
                let next = act(app, &twin.id, &twin.token, Op::Draw(1)).await;
                guesses.insert(next.body["cards"][0].as_str().unwrap().to_owned());
                let order = dealt_order(app, twin.seed).await;
                if let Some(card) = order.get(twin.since_shuffle) {
                    guesses.insert(card.clone());
                }
                twin.since_shuffle += 1;
            }
            let next = act(app, &id, &token, Op::Draw(1)).await;
            answers.push(next.text.clone());
            public.push(next.body.clone());
            history.push(Op::Draw(1));
            since_shuffle += 1;
            let card = next.body["cards"][0].as_str().unwrap().to_owned();
            report.points += 1;
            report.by_chance += guesses.len().min(remaining) as f64 / remaining as f64;
            if guesses.contains(&card) {
                report.hits += 1;
            }
        }
        report.answers.push((id, token, answers));
    }
    report
}

/// The API's promise, "never the order of the rest", tried the way an attacker would: no answer
/// about a random deck lets anyone name its next card better than chance. The same attack on
/// seeded decks (whose seed the client chose and the answers show) names every card, which shows
/// the attack works; and no answer, error answers included, holds a random deck's secret key in
/// any form.
async fn nothing_public_predicts_a_random_decks_next_card(app: TestApp) {
    let control = attack(&app, json!({"seed": 99}), 3).await;
    assert_eq!(
        control.hits, control.points,
        "the attack names a seeded deck's every next card"
    );

    let report = attack(&app, json!({}), 30).await;
    let expected = report.by_chance;
    let bound = expected + 4.0 * expected.sqrt() + 3.0;
    assert!(
        (report.hits as f64) <= bound,
        "the attacker named {} of {} next cards; chance alone names about {expected:.1} (bound {bound:.1})",
        report.hits,
        report.points
    );

    // No answer holds the key: as hex, or any 8 of its bytes read as a number either way round.
    let store = common::open_store(&app.database_url).await;
    for (id, token, mut answers) in report.answers {
        let row = store.load_deck(id.parse().unwrap()).await.unwrap().unwrap();
        let key = row.state.0["key"]
            .as_str()
            .expect("a random deck keeps its key")
            .to_owned();
        assert!(row.state.0.get("seed").is_none());
        let bytes = hex_bytes(&key);
        let mut forms = vec![key.clone(), key.to_uppercase()];
        for chunk in bytes.chunks(8) {
            let chunk: [u8; 8] = chunk.try_into().unwrap();
            forms.push(u64::from_le_bytes(chunk).to_string());
            forms.push(u64::from_be_bytes(chunk).to_string());
        }
        // Error answers about the deck too.
        let (_, _, stranger) = new_deck(&app, json!({})).await;
        let path = format!("/v1/poker/decks/{id}");
        answers.push(app.get_as(&path, &stranger).await.text);
        answers.push(app.get(&path).await.text);
        answers.push(
            app.post_as(&format!("{path}/draw"), json!({"count": 57}), &token)
                .await
                .text,
        );
        for answer in &answers {
            for form in &forms {
                assert!(!answer.contains(form.as_str()), "{answer} shows the key");
            }
            assert!(!answer.contains("\"seed\""), "{answer}");
        }
    }
}

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

async fn racing_draws_never_deal_a_card_twice(app: TestApp) {
    let (_, id, token) = new_deck(&app, json!({})).await;
    let url = app.url(&format!("/v1/poker/decks/{id}/draw"));
    let mut tasks = Vec::new();
    for _ in 0..12 {
        let url = url.clone();
        let token = token.clone();
        tasks.push(tokio::spawn(async move {
            let r = reqwest::Client::new()
                .post(url)
                .bearer_auth(token)
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
    let deck = app
        .get_as(&format!("/v1/poker/decks/{id}"), &token)
        .await
        .body;
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
    seeded_decks_are_marked_and_reproducible_random_ones_show_no_seed,
    decks_answer_only_their_owner,
    nothing_public_predicts_a_random_decks_next_card,
    racing_draws_never_deal_a_card_twice,
);

/// The deck JSON the release before owner tokens stored: a deck of seed 7 with two cards drawn.
fn old_release_deck_state() -> (Value, Vec<String>) {
    let order: Vec<String> = parlor::games::poker::shuffled_deck(7)
        .iter()
        .map(ToString::to_string)
        .collect();
    let state = json!({"seed": 7, "next_stream": 1, "remaining": order[2..], "drawn": order[..2]});
    (state, order)
}

/// A database as the previous release left it: migrated up to (not including) 0007, with a deck
/// row written the way that release wrote it (no owner). Then today's server starts on it.
async fn a_deck_stored_by_the_previous_release_still_works(db: common::Db) {
    use sqlx::migrate::Migrator;
    use sqlx::Connection;
    let Some((url, dir)) = common::fresh_database(db).await else {
        return;
    };
    let dir_name = match db {
        common::Db::Sqlite => "sqlite",
        common::Db::Postgres => "postgres",
    };
    let migrations = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(dir_name);
    let mut old = Migrator::new(migrations).await.unwrap();
    old.migrations = old
        .migrations
        .iter()
        .filter(|m| m.version < 7)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    let id = uuid::Uuid::now_v7();
    let (state, order) = old_release_deck_state();
    let now = chrono::Utc::now();
    let insert = "INSERT INTO poker_decks (id, version, state, created_at, updated_at) \
                  VALUES ($1, 2, $2, $3, $3)";
    match db {
        common::Db::Sqlite => {
            use std::str::FromStr;
            let options = sqlx::sqlite::SqliteConnectOptions::from_str(&url)
                .unwrap()
                .create_if_missing(true);
            let mut conn = sqlx::SqliteConnection::connect_with(&options)
                .await
                .unwrap();
            old.run(&mut conn).await.unwrap();
            sqlx::query(insert)
                .bind(id)
                .bind(state.to_string())
                .bind(now)
                .execute(&mut conn)
                .await
                .unwrap();
            conn.close().await.unwrap();
        }
        common::Db::Postgres => {
            let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
            old.run(&mut conn).await.unwrap();
            sqlx::query(insert)
                .bind(id)
                .bind(sqlx::types::Json(&state))
                .bind(now)
                .execute(&mut conn)
                .await
                .unwrap();
            conn.close().await.unwrap();
        }
    }

    let app = common::spawn_on(&url, dir, common::test_config(&url)).await;
    let path = format!("/v1/poker/decks/{id}");
    // It loads, open as it was (nobody holds a token for it), and its seed was shown back then,
    // so it is a seeded deck and goes on exactly as it would have.
    let read = app.get(&path).await.expect(200);
    assert_eq!(read.body["version"], 2);
    assert_eq!(read.body["seeded"], true);
    assert_eq!(read.body["seed"], "7");
    assert_eq!(read.body["drawn"], json!(order[..2]));
    let drawn = app
        .post(&format!("{path}/draw"), json!({"count": 2}))
        .await
        .expect(200);
    assert_eq!(drawn.body["cards"], json!(order[2..4]));

    // Its owner claims it: a token (shown once), and the cards left reshuffled from a secret key.
    let claimed = app
        .post(&format!("{path}/claim"), json!({}))
        .await
        .expect(200);
    assert_eq!(claimed.header("cache-control"), Some("no-store"));
    let token = claimed.body["token"].as_str().unwrap().to_owned();
    assert_eq!(claimed.body["seeded"], false, "{}", claimed.text);
    assert!(claimed.body.get("seed").is_none());
    assert_eq!(claimed.body["drawn"], json!(order[..4]));
    assert_eq!(claimed.body["remaining"], 53);
    app.post(&format!("{path}/claim"), json!({}))
        .await
        .assert_problem(409, "conflict");
    app.get(&path).await.assert_problem(401, "unauthorized");
    let (_, _, other) = new_deck(&app, json!({})).await;
    app.get_as(&path, &other)
        .await
        .assert_problem(403, "forbidden");
    let read = app.get_as(&path, &token).await.expect(200);
    assert_eq!(read.body["drawn"], json!(order[..4]));
    let store = common::open_store(&app.database_url).await;
    let row = store.load_deck(id).await.unwrap().unwrap();
    assert!(row.state.0["key"].is_string() && row.state.0.get("seed").is_none());
    // The rest no longer follows the public seed (53 cards in the seed's order by chance: never).
    let rest = app
        .post_as(&format!("{path}/draw"), json!({"count": 53}), &token)
        .await
        .expect(200);
    assert_ne!(rest.body["cards"], json!(order[4..]));
}

#[actix_web::test]
async fn a_deck_stored_by_the_previous_release_still_works_on_sqlite() {
    a_deck_stored_by_the_previous_release_still_works(common::Db::Sqlite).await;
}

#[actix_web::test]
async fn a_deck_stored_by_the_previous_release_still_works_on_postgres() {
    a_deck_stored_by_the_previous_release_still_works(common::Db::Postgres).await;
}
