//! The conformance suite every turn-based game runs: one generic set of checks over real HTTP on
//! both databases, played from the game's own example (`TurnGame::example`). `conformance!`
//! instantiates it for a list of games: one test per check and store, which runs the check for
//! every game of the list. The built-in games are checked here; a game added to the registry is
//! checked with them, with no test code of its own.

// Every check takes the app's list of games `R`, so that `conformance!` calls them all alike;
// only a check that starts a second server uses it.
#![allow(clippy::extra_unused_type_parameters)]

use crate::common;

mod http_cache;

use common::TestApp;
use parlor::games::registry::Games;
use parlor::games::{Example, TurnGame};
use serde_json::{json, Value};

struct Created {
    id: String,
    tokens: Vec<String>,
    body: Value,
}

async fn create<G: TurnGame>(app: &TestApp, fixture: &Example) -> Created {
    let reply = app
        .post(&format!("/v1/{}/games", G::NAME), fixture.create.clone())
        .await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.text);
    let id = reply.body["id"].as_str().expect("id").to_owned();
    let mut tokens = vec![String::new(); reply.body["seats"].as_array().unwrap().len()];
    for t in reply.body["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = t["token"].as_str().unwrap().to_owned();
    }
    Created {
        id,
        tokens,
        body: reply.body,
    }
}

fn path<G: TurnGame>(id: &str, action: &str) -> String {
    if action.is_empty() {
        format!("/v1/{}/games/{id}", G::NAME)
    } else {
        format!("/v1/{}/games/{id}/{action}", G::NAME)
    }
}

/// The state survives the store: a second server on the same database reads the same game, and
/// the stored state is the rules' own serialisation (it parses back into the game type).
pub async fn state_round_trips<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let game = create::<G>(app, &fixture).await;
    let moved = app
        .post_as(
            &path::<G>(&game.id, "moves"),
            fixture.first.clone(),
            &game.tokens[0],
        )
        .await;
    assert_eq!(moved.status.as_u16(), 200, "{}", moved.text);
    assert_eq!(moved.body["game"]["version"], 1, "{}", moved.text);
    let read = app.get_as(&path::<G>(&game.id, ""), &game.tokens[0]).await;
    assert_eq!(
        read.body, moved.body["game"],
        "a read equals the move's answer"
    );

    let store = common::open_store(&app.database_url).await;
    let record = store
        .load_game(game.id.parse().unwrap(), None)
        .await
        .unwrap()
        .expect("stored");
    let stored: serde_json::Value =
        serde_json::from_str(record.row.state.as_ref().expect("a state").0.get())
            .expect("the state is JSON");
    let parsed: G = serde_json::from_str(record.row.state.as_ref().expect("a state").0.get())
        .expect("state parses");
    assert_eq!(
        serde_json::to_value(&parsed).unwrap(),
        stored,
        "the stored state round-trips through the game type"
    );
    let again = common::spawn_on_with::<R>(
        &app.database_url,
        None,
        common::test_config(&app.database_url),
    )
    .await;
    let reread = again
        .get_as(&path::<G>(&game.id, ""), &game.tokens[0])
        .await;
    assert_eq!(reread.body, read.body, "another server reads the same game");

    // Each server keeps the games it last served; a change made by the other one must show.
    let answered = again
        .post_as(
            &path::<G>(&game.id, "moves"),
            fixture.second.clone(),
            &game.tokens[1],
        )
        .await;
    assert_eq!(answered.status.as_u16(), 200, "{}", answered.text);
    let first_reads = app.get_as(&path::<G>(&game.id, ""), &game.tokens[0]).await;
    let second_reads = again
        .get_as(&path::<G>(&game.id, ""), &game.tokens[0])
        .await;
    assert_eq!(first_reads.body["version"], 2, "{}", first_reads.text);
    assert_eq!(
        first_reads.body, second_reads.body,
        "the first server sees the second server's move"
    );
}

/// `view(None)` and `view(seat)`: a spectator and each seat see only what the game allows. For a
/// game without private views every view is the same; for one with them, a view holds its own
/// seat's private part and no other's, and nothing private reaches events or the log.
pub async fn views_hold_nothing_private<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let game = create::<G>(app, &fixture).await;
    let spectator = app.get(&path::<G>(&game.id, "")).await.body;
    let seats: Vec<Value> = futures_util::future::join_all(
        game.tokens
            .iter()
            .map(|t| async { app.get_as(&path::<G>(&game.id, ""), t).await.body }),
    )
    .await;
    if !G::PRIVATE_VIEWS {
        for (seat, view) in seats.iter().enumerate() {
            assert_eq!(
                view["state"], spectator["state"],
                "seat {seat} sees more than a spectator"
            );
        }
        return;
    }
    let hand = |v: &Value| v["state"]["hand"].clone();
    assert!(
        hand(&spectator).is_null(),
        "a spectator sees a hand: {spectator}"
    );
    for (seat, view) in seats.iter().enumerate() {
        assert!(hand(view).is_array(), "seat {seat} does not see its hand");
        for (other, other_view) in seats.iter().enumerate() {
            if other != seat {
                assert_ne!(
                    hand(view),
                    hand(other_view),
                    "seats {seat} and {other} see one hand"
                );
            }
        }
        let text = serde_json::to_string(&view["state"]).unwrap();
        for (other, other_view) in seats.iter().enumerate() {
            let other_hand = serde_json::to_string(&hand(other_view)).unwrap();
            assert!(
                other == seat || !text.contains(&other_hand),
                "seat {seat}'s view holds seat {other}'s hand"
            );
        }
    }
    let created = serde_json::to_string(&game.body).unwrap();
    for (seat, view) in seats.iter().enumerate().skip(1) {
        let other_hand = serde_json::to_string(&hand(view)).unwrap();
        assert!(
            !created.contains(&other_hand),
            "the creator's answer holds seat {seat}'s hand"
        );
    }
    let log = app.get(&path::<G>(&game.id, "moves")).await;
    assert_eq!(log.status.as_u16(), 200);
}

/// Moves out of turn, after the end, with bad tokens, and with a stale `If-Match`.
pub async fn refuses_what_it_must<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let game = create::<G>(app, &fixture).await;
    let moves = path::<G>(&game.id, "moves");
    app.post_as(&moves, fixture.second.clone(), &game.tokens[1])
        .await
        .assert_problem(409, "not_your_turn");
    app.post(&moves, fixture.first.clone())
        .await
        .assert_problem(401, "unauthorized");
    app.post_as(&moves, fixture.first.clone(), &"ab".repeat(32))
        .await
        .assert_problem(401, "unauthorized");
    let other = create::<G>(app, &fixture).await;
    app.post_as(&moves, fixture.first.clone(), &other.tokens[0])
        .await
        .assert_problem(403, "forbidden");
    app.send(
        reqwest::Method::POST,
        &moves,
        Some(&fixture.first),
        Some(&game.tokens[0]),
        &[("If-Match", "\"7\"")],
    )
    .await
    .assert_problem(412, "precondition_failed");
    let played = app
        .send(
            reqwest::Method::POST,
            &moves,
            Some(&fixture.first),
            Some(&game.tokens[0]),
            &[("If-Match", "\"0\"")],
        )
        .await;
    assert_eq!(played.status.as_u16(), 200, "{}", played.text);
    assert_eq!(played.header("etag"), Some("\"1-seat-0\""));

    let ended = app
        .post_as(&path::<G>(&game.id, "end"), json!({}), &game.tokens[1])
        .await;
    assert_eq!(ended.status.as_u16(), 200, "{}", ended.text);
    assert_eq!(ended.body["game"]["status"], "aborted", "{}", ended.text);
    app.post_as(&moves, fixture.second.clone(), &game.tokens[1])
        .await
        .assert_problem(409, "game_over");
    let log = app.get(&moves).await;
    assert_eq!(log.body.as_array().map(Vec::len), Some(2), "{}", log.text);
}

/// Undo and redo answer exactly where the trait says they exist, and the OpenAPI document lists
/// the game's routes and schemas.
pub async fn routes_match_the_trait<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let game = create::<G>(app, &fixture).await;
    let doc = app.get("/openapi.json").await.body;
    let paths = &doc["paths"];
    for (action, exists) in [
        ("undo", G::UNDO),
        ("redo", G::REDO),
        ("messages", G::MESSAGES),
        ("join", true),
        ("start", true),
        ("end", true),
        ("ai-move", true),
        ("moves", true),
    ] {
        let documented = paths
            .get(format!("/v1/{}/games/{{id}}/{action}", G::NAME))
            .is_some();
        assert_eq!(documented, exists, "{action}: documented {documented}");
        if matches!(action, "undo" | "redo" | "messages") {
            let reply = app
                .post_as(&path::<G>(&game.id, action), json!({}), &game.tokens[0])
                .await;
            if exists {
                assert_ne!(
                    reply.status.as_u16(),
                    404,
                    "{action} exists: {}",
                    reply.text
                );
            } else {
                reply.assert_problem(404, "not_found");
            }
        }
    }
    assert!(paths.get(format!("/v1/{}/games", G::NAME)).is_some());
    let title = {
        let mut t = G::NAME.to_owned();
        t[..1].make_ascii_uppercase();
        t
    };
    for suffix in [
        "Game", "Move", "View", "Event", "Options", "Outcome", "Created", "Joined",
    ] {
        assert!(
            doc["components"]["schemas"]
                .get(format!("{title}{suffix}"))
                .is_some(),
            "the document has no {title}{suffix} schema"
        );
    }
    let seek_options = &doc["components"]["schemas"][format!("{title}SeekOptions")]["properties"];
    assert!(
        seek_options.is_object(),
        "the document has no {title}SeekOptions"
    );
    for option in ["players"].iter().chain(G::FIXED_DEAL_OPTIONS) {
        assert!(
            seek_options.get(option).is_none(),
            "a seek cannot carry `{option}`"
        );
    }
    assert_eq!(
        paths[format!("/v1/{}/seeks", G::NAME)]["post"]["requestBody"]["content"]
            ["application/json"]["schema"]["$ref"],
        format!("#/components/schemas/{title}SeekRequest")
    );
    let listed = app.get(&format!("/v1/games?game={}", G::NAME)).await;
    assert_eq!(listed.status.as_u16(), 200, "{}", listed.text);
    assert!(listed.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == game.id.as_str()));
}

/// Drops the create options that fix the deal in advance (UNO's `seed` and `deck`), which a game
/// with an open seat refuses.
fn without_fixed_deal<G: TurnGame>(body: &mut Value) {
    if let Some(fields) = body.as_object_mut() {
        for option in G::FIXED_DEAL_OPTIONS {
            fields.remove(*option);
        }
    }
}

/// An open seat is joined through the generic road; the game starts when it fills; two racing
/// joins for the last seat: one wins, one 409.
pub async fn open_seats_join<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let mut body = fixture.create.clone();
    body["players"][1] = json!({"open": true});
    // A deal fixed in advance (UNO's `seed`, `deck`) is refused beside an open seat.
    without_fixed_deal::<G>(&mut body);
    let game = create::<G>(
        app,
        &Example {
            create: body,
            ..fixture
        },
    )
    .await;
    assert_eq!(game.body["status"], "waiting", "{}", game.body);
    assert_eq!(game.tokens.len(), 2);
    assert!(game.tokens[1].is_empty(), "an open seat has no token yet");
    let join = path::<G>(&game.id, "join");
    let (a, b) = tokio::join!(
        app.post(&join, json!({"name": "bob"})),
        app.post(&join, json!({"name": "carol"}))
    );
    let (won, lost) = if a.status.as_u16() == 200 {
        (a, b)
    } else {
        (b, a)
    };
    assert_eq!(won.status.as_u16(), 200, "{}", won.text);
    lost.assert_problem(409, "conflict");
    assert_eq!(won.body["seat"], 1);
    assert_eq!(won.body["token"].as_str().map(str::len), Some(64));
    assert_eq!(won.body["game"]["status"], "active", "{}", won.text);
    app.post(&join, json!({"name": "dave"}))
        .await
        .assert_problem(409, "conflict");
}

/// The shape a generic client relies on is the same in every game: `turn` is null unless the
/// game is active, every `game_over` event carries `game.result`, AI analysis speaks one
/// vocabulary, a body with a repeated key is refused, and `auto_ai` answers a human's move with
/// the AI's in the same request.
pub async fn one_shape_everywhere<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let mut waiting = fixture.create.clone();
    waiting["players"][1] = json!({"open": true});
    without_fixed_deal::<G>(&mut waiting);
    let reply = app
        .post(&format!("/v1/{}/games", G::NAME), waiting)
        .await
        .expect(201);
    assert_eq!(reply.body["status"], "waiting", "{}", reply.text);
    assert!(
        reply.body["turn"].is_null(),
        "a waiting game has a turn: {}",
        reply.text
    );
    let id = reply.body["id"].as_str().unwrap();
    let read = app.get(&path::<G>(id, "")).await.expect(200);
    assert!(read.body["turn"].is_null(), "{}", read.text);

    let game = create::<G>(app, &fixture).await;
    let moves = path::<G>(&game.id, "moves");
    // `{"move": "h8", "move": "h8"}`: the first key of the move, twice.
    let first = fixture.first.as_object().expect("a move is an object");
    let (key, value) = first.iter().next().unwrap();
    let mut doubled = serde_json::to_string(&fixture.first).unwrap();
    doubled.pop();
    doubled.push_str(&format!(",{}:{}}}", json!(key), value));
    let refused = app
        .client
        .post(app.url(&moves))
        .bearer_auth(&game.tokens[0])
        .header("content-type", "application/json")
        .body(doubled.clone())
        .send()
        .await
        .unwrap();
    common::Reply::from(refused)
        .await
        .assert_problem(400, "invalid_request");

    let hint = app
        .post_as(
            &path::<G>(&game.id, "ai-move"),
            json!({"time_ms": 50}),
            &game.tokens[0],
        )
        .await
        .expect(200);
    let analysis = hint.body["analysis"]
        .as_object()
        .expect("a hint has its analysis");
    let vocabulary = [
        "level",
        "principal_variation",
        "score",
        "win_rate",
        "nodes",
        "playouts",
        "depth",
        "elapsed_ms",
        "candidates",
    ];
    for key in analysis.keys() {
        assert!(
            vocabulary.contains(&key.as_str()),
            "analysis has {key:?}: {}",
            hint.text
        );
    }
    assert!(analysis["principal_variation"].is_array(), "{}", hint.text);
    assert!(analysis["elapsed_ms"].is_u64(), "{}", hint.text);
    assert!(analysis["candidates"].is_array(), "{}", hint.text);
    let doc = app.get("/openapi.json").await.body;
    assert!(doc["components"]["schemas"]["AiAnalysis"].is_object());

    // The game ends by `end` (an abort, before seat 1 has moved): its game_over is the result.
    app.post_as(&moves, fixture.first.clone(), &game.tokens[0])
        .await
        .expect(200);
    let ended = app
        .post_as(&path::<G>(&game.id, "end"), json!({}), &game.tokens[1])
        .await
        .expect(200);
    assert!(ended.body["game"]["turn"].is_null(), "{}", ended.text);
    assert_game_over_is_the_result(&ended.body);

    // With `auto_ai`, the AI seat answers in the same request.
    let mut against_ai = fixture.create.clone();
    against_ai["players"][1] = json!({"ai": "easy"});
    against_ai["auto_ai"] = json!(true);
    let reply = app
        .post(&format!("/v1/{}/games", G::NAME), against_ai)
        .await
        .expect(201);
    let id = reply.body["id"].as_str().unwrap().to_owned();
    let token = reply.body["tokens"][0]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let played = app
        .post_as(&path::<G>(&id, "moves"), fixture.first.clone(), &token)
        .await
        .expect(200);
    let game = &played.body["game"];
    assert!(
        game["version"].as_i64().unwrap() >= 2,
        "the AI did not answer: {}",
        played.text
    );
    if game["status"] == "active" {
        assert_eq!(game["turn"], 0, "{}", played.text);
    }
}

fn assert_game_over_is_the_result(outcome: &Value) {
    let result = &outcome["game"]["result"];
    assert!(result.is_object(), "the game has no result: {outcome}");
    let over: Vec<&Value> = outcome["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "game_over")
        .collect();
    assert_eq!(over.len(), 1, "one game_over event: {outcome}");
    assert_eq!(&over[0]["result"], result, "game_over carries game.result");
}

/// Endings are fair: `end` aborts only until every seat has moved (then 409, resign instead),
/// and a resignation is accepted from either seat at any time.
pub async fn endings_are_fair<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let game = create::<G>(app, &fixture).await;
    let moves = path::<G>(&game.id, "moves");
    app.post_as(&moves, fixture.first.clone(), &game.tokens[0])
        .await
        .expect(200);
    app.post_as(&moves, fixture.second.clone(), &game.tokens[1])
        .await
        .expect(200);
    let refused = app
        .post_as(&path::<G>(&game.id, "end"), json!({}), &game.tokens[0])
        .await;
    refused.assert_problem(409, "conflict");
    assert!(
        refused.body["detail"].as_str().unwrap().contains("resign"),
        "{}",
        refused.text
    );
    let Some(resign) = fixture.resign else { return };
    // Seat 0 is to move; seat 1 resigns out of turn.
    let resigned = app
        .post_as(&moves, resign, &game.tokens[1])
        .await
        .expect(200);
    assert_eq!(
        resigned.body["game"]["status"], "finished",
        "{}",
        resigned.text
    );
    assert_eq!(resigned.body["game"]["result"]["winners"], json!([0]));
    assert_game_over_is_the_result(&resigned.body);
}

/// No cache between a client and the server ever answers one viewer with another viewer's view:
/// a private cache that honours `Vary`, and a broken one that ignores it, in every order of the
/// spectator's and both seats' reads, with a change between rounds or not.
pub async fn caches_keep_views_apart<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let viewers = [None, Some(0usize), Some(1usize)];
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for honour_vary in [true, false] {
        for order in orders {
            for change_between in [false, true] {
                let game = create::<G>(app, &fixture).await;
                let url = app.url(&path::<G>(&game.id, ""));
                let mut cache = http_cache::Cache::new(honour_vary);
                for round in 0..2 {
                    if round == 1 && change_between {
                        app.post_as(
                            &path::<G>(&game.id, "moves"),
                            fixture.first.clone(),
                            &game.tokens[0],
                        )
                        .await
                        .expect(200);
                    }
                    for &i in &order {
                        let token = viewers[i].map(|seat| game.tokens[seat].as_str());
                        let through_cache = cache.get(&app.client, &url, token).await;
                        let direct = match token {
                            Some(t) => app.get_as(&path::<G>(&game.id, ""), t).await,
                            None => app.get(&path::<G>(&game.id, "")).await,
                        };
                        assert_eq!(
                            through_cache, direct.body,
                            "viewer {:?} got another view through the cache (vary honoured: \
                             {honour_vary}, order {order:?}, round {round})",
                            viewers[i]
                        );
                    }
                }
            }
        }
    }
    // What the headers promise.
    let game = create::<G>(app, &fixture).await;
    let public = app.get(&path::<G>(&game.id, "")).await;
    let private = app.get_as(&path::<G>(&game.id, ""), &game.tokens[0]).await;
    assert_eq!(public.header("etag"), Some("\"0\""));
    assert_eq!(private.header("etag"), Some("\"0-seat-0\""));
    assert_eq!(public.header("cache-control"), Some("no-cache"));
    assert_eq!(private.header("cache-control"), Some("private, no-cache"));
    for reply in [&public, &private] {
        let vary = reply.header("vary").unwrap_or_default();
        assert!(
            vary.split(',').any(|h| h.trim() == "Authorization"),
            "Vary: {vary}"
        );
    }
    let created = app
        .post(&format!("/v1/{}/games", G::NAME), fixture.create.clone())
        .await;
    assert_eq!(
        created.header("cache-control"),
        Some("no-store"),
        "the tokens are not cached"
    );
    let missing = app
        .get(&path::<G>("00000000-0000-7000-8000-000000000000", ""))
        .await;
    assert_eq!(
        missing.header("cache-control"),
        Some("no-store"),
        "errors are not cached"
    );
    // `If-Match` takes the seat's ETag (or the bare version) as the version it names.
    let moved = app
        .send(
            reqwest::Method::POST,
            &path::<G>(&game.id, "moves"),
            Some(&fixture.first),
            Some(&game.tokens[0]),
            &[("If-Match", "\"0-seat-0\"")],
        )
        .await
        .expect(200);
    assert_eq!(moved.header("etag"), Some("\"1-seat-0\""));
}

/// A registered player takes their seat back with their key: a fresh token, the old one revoked;
/// a guest's seat cannot be taken that way.
pub async fn seats_come_back<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    // A name of its own for each game the app serves.
    let carol = format!("carol-{}", G::NAME);
    let registered = app
        .post("/v1/players", json!({"name": carol}))
        .await
        .expect(201);
    let key = registered.body["key"].as_str().unwrap().to_owned();
    let mut body = fixture.create.clone();
    body["players"][0] = json!({"name": carol});
    let reply = app
        .send(
            reqwest::Method::POST,
            &format!("/v1/{}/games", G::NAME),
            Some(&body),
            Some(&key),
            &[],
        )
        .await
        .expect(201);
    let id = reply.body["id"].as_str().unwrap().to_owned();
    let old = reply.body["tokens"][0]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let token_route = |seat: usize| format!("{}/seats/{seat}/token", path::<G>(&id, ""));
    app.post(&token_route(0), json!(null))
        .await
        .assert_problem(401, "unauthorized");
    let renewed = app
        .post_as(&token_route(0), json!(null), &key)
        .await
        .expect(200);
    assert_eq!(renewed.header("cache-control"), Some("no-store"));
    assert_eq!(renewed.body["seat"], 0);
    let fresh = renewed.body["token"].as_str().unwrap().to_owned();
    assert_ne!(fresh, old);
    app.get_as(&path::<G>(&id, ""), &old)
        .await
        .assert_problem(401, "unauthorized");
    let read = app.get_as(&path::<G>(&id, ""), &fresh).await.expect(200);
    assert_eq!(
        read.header("etag").map(|e| e.contains("-seat-0")),
        Some(true)
    );
    app.post_as(&path::<G>(&id, "moves"), fixture.first.clone(), &fresh)
        .await
        .expect(200);
    app.post_as(&token_route(1), json!(null), &key)
        .await
        .assert_problem(403, "forbidden");
    app.post_as(&token_route(7), json!(null), &key)
        .await
        .assert_problem(404, "not_found");
}

/// A table of AIs alone plays only on its owner's request, a move at a time: its create answer
/// holds an owner token (and plays nothing, `auto_ai` or not), `ai-move` and `end` need that
/// token, and the owner sees what a spectator sees.
pub async fn ai_tables_play_on_their_owners_request<R: Games, G: TurnGame>(app: &TestApp) {
    let fixture = G::example();
    let mut body = fixture.create.clone();
    body["players"] = json!([{"ai": "easy"}, {"ai": "easy"}]);
    body["auto_ai"] = json!(true);
    let created = app
        .post(&format!("/v1/{}/games", G::NAME), body)
        .await
        .expect(201);
    assert_eq!(created.header("cache-control"), Some("no-store"));
    assert_eq!(created.body["version"], 0, "{}", created.text);
    assert_eq!(created.body["tokens"], json!([]));
    let owner = created.body["owner_token"]
        .as_str()
        .expect("an owner token")
        .to_owned();
    let id = created.body["id"].as_str().unwrap().to_owned();
    let ai_move = path::<G>(&id, "ai-move");
    let think = json!({"time_ms": 5});
    app.post(&ai_move, think.clone())
        .await
        .assert_problem(401, "unauthorized");
    let stranger = create::<G>(app, &fixture).await;
    app.post_as(&ai_move, think.clone(), &stranger.tokens[0])
        .await
        .assert_problem(403, "forbidden");
    let played = app.post_as(&ai_move, think, &owner).await.expect(200);
    assert_eq!(played.body["game"]["version"], 1, "one move a request");
    if G::UNDO {
        app.post(&path::<G>(&id, "undo"), json!(null))
            .await
            .assert_problem(401, "unauthorized");
    }
    let as_owner = app.get_as(&path::<G>(&id, ""), &owner).await.expect(200);
    let as_anyone = app.get(&path::<G>(&id, "")).await.expect(200);
    assert_eq!(as_owner.body, as_anyone.body);
    assert_eq!(as_owner.header("etag"), as_anyone.header("etag"));
    app.post(&path::<G>(&id, "end"), json!(null))
        .await
        .assert_problem(401, "unauthorized");
    let ended = app
        .post_as(&path::<G>(&id, "end"), json!(null), &owner)
        .await
        .expect(200);
    assert_eq!(ended.body["game"]["status"], "aborted");
}

/// Instantiates the suite for the games `$games` lists (an absolute path), on apps serving them:
/// one test per check and store, each running the check for every game of the list but those
/// `$known` lists (games a suite elsewhere checks already).
macro_rules! conformance {
    ($games:ty) => {
        $crate::conformance::conformance!($games, except $crate::conformance::NoGames);
    };
    ($games:ty, except $known:ty) => {
        $crate::conformance::conformance!(@checks $games, $known,
            state_round_trips,
            views_hold_nothing_private,
            refuses_what_it_must,
            routes_match_the_trait,
            open_seats_join,
            one_shape_everywhere,
            endings_are_fair,
            caches_keep_views_apart,
            seats_come_back,
            ai_tables_play_on_their_owners_request,
        );
    };
    (@checks $games:ty, $known:ty, $($check:ident),* $(,)?) => {
        $(
            async fn $check(app: $crate::common::TestApp) {
                use parlor::games::registry::{Games, TurnGameVisitor};
                use parlor::games::TurnGame;
                type Check<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + 'a>>;
                struct Each<'a>(&'a $crate::common::TestApp, Vec<(&'static str, Check<'a>)>);
                impl<'a> TurnGameVisitor for Each<'a> {
                    fn visit<G: TurnGame>(&mut self) {
                        let check = $crate::conformance::$check::<$games, G>(self.0);
                        self.1.push((G::NAME, Box::pin(check)));
                    }
                }
                let mut each = Each(&app, Vec::new());
                <$games>::visit(&mut each);
                let known: Vec<&str> = parlor::games::registry::turn_games::<$known>()
                    .into_iter()
                    .map(|g| g.name)
                    .collect();
                let mut checked = 0;
                for (game, check) in each.1 {
                    if known.contains(&game) {
                        continue;
                    }
                    eprintln!("conformance: {} on {game}", stringify!($check));
                    check.await;
                    checked += 1;
                }
                assert!(checked > 0, "no game to check");
            }
        )*
        $crate::on_both_stores!(games = $games; $($check),*);
    };
}

pub(crate) use conformance;

/// No games: the list of those a suite need not check again when it checks every game.
pub struct NoGames;

impl Games for NoGames {
    fn visit(_: &mut impl parlor::games::registry::TurnGameVisitor) {}
}

mod builtin {
    super::conformance!(parlor::games::registry::BuiltinGames);
}
