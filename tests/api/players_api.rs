//! Players over real HTTP, on SQLite and on PostgreSQL: registration and protected names, forgery
//! attempts, seat tokens that go only to who claimed the seat, Glicko-2 ratings moved once by
//! rated games, take-backs by consent, and the leaderboard's sorting, filter and paging.

use crate::common;

use common::{Reply, TestApp};
use parlor::rating::{after_game, Rating, Standing};
use reqwest::Method;
use serde_json::{json, Value};

pub(crate) async fn register(app: &TestApp, name: &str) -> String {
    let reply = app
        .post("/v1/players", json!({ "name": name }))
        .await
        .expect(201);
    assert_eq!(reply.body["registered"], true);
    let key = reply.body["key"].as_str().expect("a key").to_owned();
    assert_eq!(key.len(), 64);
    key
}

/// POST with an optional bearer (a player key or a seat token).
async fn post(app: &TestApp, path: &str, body: Value, bearer: Option<&str>) -> Reply {
    app.send(Method::POST, path, Some(&body), bearer, &[]).await
}

/// Creates a game of `kind`; (id, tokens by seat, the whole answer).
async fn create(
    app: &TestApp,
    kind: &str,
    body: Value,
    key: Option<&str>,
) -> (String, Vec<Option<String>>, Value) {
    let reply = post(app, &format!("/v1/{kind}/games"), body, key)
        .await
        .expect(201);
    let id = reply.body["id"].as_str().unwrap().to_owned();
    let mut tokens = vec![None; reply.body["seats"].as_array().unwrap().len()];
    for t in reply.body["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().into());
    }
    (id, tokens, reply.body)
}

/// Alice (seat 0, by her key) against Bob, who joins the open seat with his key: a rated game.
async fn rated_gomoku(app: &TestApp, alice: &str, bob: &str) -> (String, String, String) {
    rated_gomoku_between(
        app,
        &("alice".into(), alice.into()),
        &("bob".into(), bob.into()),
    )
    .await
}

async fn player(app: &TestApp, name: &str) -> Value {
    app.get(&format!("/v1/players/{name}"))
        .await
        .expect(200)
        .body
}

async fn registration_protects_a_name_and_its_look_alikes(app: TestApp) {
    let reply = app
        .post("/v1/players", json!({"name": "Alice"}))
        .await
        .expect(201);
    assert_eq!(reply.header("location"), Some("/v1/players/Alice"));
    for taken in [
        "alice",
        "ALICE",
        "\u{FF21}\u{FF2C}\u{FF29}\u{FF23}\u{FF25}",
        " alice ",
    ] {
        app.post("/v1/players", json!({ "name": taken }))
            .await
            .assert_problem(409, "conflict");
    }
    // "AI" in any case or look-alike is what AI seats are called: no player takes it (422).
    for reserved in ["ai", "AI", " Ai ", "\u{FF21}i", "\u{FF21}\u{FF29}"] {
        let refused = app.post("/v1/players", json!({ "name": reserved })).await;
        refused.assert_problem(422, "invalid_request");
        let detail = refused.body["detail"].as_str().unwrap();
        assert!(detail.contains("reserved for AI seats"), "{detail}");
    }
    app.post("/v1/players", json!({"name": ""}))
        .await
        .assert_problem(422, "invalid_request");
    app.post("/v1/players", json!({"name": "x", "key": "mine"}))
        .await
        .assert_problem(400, "invalid_request");
    // A registered player answers to look-alikes of their name and has no scores yet.
    let alice = player(&app, "ALICE").await;
    assert_eq!(alice["name"], "Alice");
    assert_eq!(alice["registered"], true);
    assert_eq!(alice["scores"], json!({}));
    assert!(
        !alice.to_string().contains("key"),
        "the key is never shown again"
    );
}

/// Names with invisible or bidirectional characters are refused wherever a name is taken, and a
/// human seat may not be called "AI"; an AI seat may.
async fn names_refuse_invisible_characters_and_the_ai_name(app: TestApp) {
    for (name, word) in [
        ("bob\u{202E}", "bidirectional"),
        ("\u{2066}bob\u{2069}", "bidirectional"),
        ("bo\u{200F}b", "bidirectional"),
        ("b\u{061C}ob", "bidirectional"),
        ("bo\u{200B}b", "invisible"),
        ("bob\u{FEFF}", "invisible"),
        ("b\u{00AD}ob", "invisible"),
        ("bo\u{FE0F}b", "invisible"),
        ("bob\u{E0001}", "invisible"),
        ("A\u{200D}I", "invisible"),
    ] {
        let registered = app.post("/v1/players", json!({ "name": name })).await;
        registered.assert_problem(422, "invalid_request");
        let detail = registered.body["detail"].as_str().unwrap();
        assert!(detail.contains(word), "{name:?}: {detail}");
        for players in [
            json!([{ "name": name }, {"name": "x"}]),
            json!([{"name": "x"}, { "ai": "easy", "name": name }]),
        ] {
            app.post("/v1/gomoku/games", json!({ "players": players }))
                .await
                .assert_problem(422, "invalid_request");
        }
    }
    // A human seat, at create or on join, may not be "AI".
    for players in [
        json!([{"name": "AI"}, {"ai": "easy"}]),
        json!([{"name": "x"}, {"name": "\u{FF41}\u{FF49}"}]),
    ] {
        let refused = app
            .post("/v1/gomoku/games", json!({ "players": players }))
            .await;
        refused.assert_problem(422, "invalid_request");
        assert!(
            refused.body["detail"]
                .as_str()
                .unwrap()
                .contains("reserved for AI seats"),
            "{}",
            refused.text
        );
    }
    let (open, _, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "x"}, {"open": true}]}),
        None,
    )
    .await;
    post(
        &app,
        &format!("/v1/gomoku/games/{open}/join"),
        json!({"name": "ai"}),
        None,
    )
    .await
    .assert_problem(422, "invalid_request");
    post(
        &app,
        &format!("/v1/gomoku/games/{open}/join"),
        json!({"name": "b\u{202D}"}),
        None,
    )
    .await
    .assert_problem(422, "invalid_request");
    // AI seats are "AI", named so or not.
    let (_, _, game) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "x"}, {"ai": "easy", "name": "AI"}]}),
        None,
    )
    .await;
    assert_eq!(game["seats"][1]["name"], "AI");
    // Names from right-to-left scripts are fine; only the controls are refused.
    register(&app, "\u{05D3}\u{05E0}\u{05D4}").await;
}

async fn forgery_attempts_are_refused(app: TestApp) {
    let alice = register(&app, "alice").await;
    let bob = register(&app, "bob").await;
    let create_gomoku = |players: Value, bearer: Option<String>| {
        let app = &app;
        async move {
            post(
                app,
                "/v1/gomoku/games",
                json!({ "players": players }),
                bearer.as_deref(),
            )
            .await
        }
    };
    // A registered name without its key: at seat 0, at seat 1, as a look-alike, on an AI seat.
    for players in [
        json!([{"name": "alice"}, {"name": "cheater"}]),
        json!([{"name": "cheater"}, {"name": "Alice"}]),
        json!([{"name": "cheater"}, {"name": "\u{FF41}lice"}]),
        json!([{"name": "cheater"}, {"ai": "easy", "name": "alice"}]),
    ] {
        create_gomoku(players.clone(), None)
            .await
            .assert_problem(403, "forbidden");
    }
    // Another player's key for seat 0, and a key that seats someone else beside its owner.
    create_gomoku(json!([{"name": "alice"}, {"name": "x"}]), Some(bob.clone()))
        .await
        .assert_problem(403, "forbidden");
    create_gomoku(
        json!([{"name": "bob"}, {"name": "alice"}]),
        Some(bob.clone()),
    )
    .await
    .assert_problem(403, "forbidden");
    // A key claims seat 0, which must then be a human seat.
    create_gomoku(json!([{"ai": "easy"}, {"name": "x"}]), Some(alice.clone()))
        .await
        .assert_problem(422, "invalid_request");
    // A seat token is not a player key; an unknown key is nobody's.
    let (_, guest_tokens, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "g1"}, {"name": "g2"}]}),
        None,
    )
    .await;
    let seat_token = guest_tokens[0].clone().unwrap();
    create_gomoku(
        json!([{"name": "g1"}, {"name": "x"}]),
        Some(seat_token.clone()),
    )
    .await
    .assert_problem(403, "forbidden");
    create_gomoku(
        json!([{"name": "alice"}, {"name": "x"}]),
        Some("ab".repeat(32)),
    )
    .await
    .assert_problem(401, "unauthorized");
    // Joining: a registered name without its key, with another player's key, with a seat token.
    let (open, _, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "host"}, {"open": true}]}),
        None,
    )
    .await;
    let join = format!("/v1/gomoku/games/{open}/join");
    post(&app, &join, json!({"name": "ALICE"}), None)
        .await
        .assert_problem(403, "forbidden");
    post(&app, &join, json!({"name": "alice"}), Some(&bob))
        .await
        .assert_problem(403, "forbidden");
    post(&app, &join, json!({"name": "g1"}), Some(&seat_token))
        .await
        .assert_problem(403, "forbidden");
    post(&app, &join, json!({}), None)
        .await
        .assert_problem(422, "invalid_request");
    // None of that took the seat: Alice, with her key, still can.
    let joined = post(&app, &join, json!({"name": "Alice"}), Some(&alice))
        .await
        .expect(200);
    assert_eq!(joined.body["game"]["seats"][1]["name"], "alice");
    assert_eq!(joined.body["game"]["seats"][1]["registered"], true);
    assert_eq!(joined.body["game"]["seats"][0]["registered"], false);
    assert_eq!(joined.body["game"]["rated"], false, "the host is a guest");
    // The forgery, replayed: a cheater creating against alice's name gets nowhere, so
    // alice's score never moves (joining gave her the starting score, nothing else).
    assert_eq!(
        player(&app, "alice").await["scores"]["gomoku"],
        json!({"score": 1000, "wins": 0, "losses": 0, "draws": 0})
    );
}

async fn seat_tokens_go_only_to_who_claimed_the_seat(app: TestApp) {
    let alice = register(&app, "alice").await;
    let bob = register(&app, "bob").await;
    let (id, black, white) = rated_gomoku(&app, &alice, &bob).await;
    assert_ne!(black, white);
    // Alice's create answer held only her token; Bob's join answer only his.
    let game = app
        .get(&format!("/v1/gomoku/games/{id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(game["seats"][0]["registered"], true);
    assert_eq!(game["seats"][1]["registered"], true);
    // Alice cannot take a second seat of one game (no rating from playing herself).
    let (solo, _, _) = create(
        &app,
        "go",
        json!({"size": 9, "players": [{"name": "alice"}, {"open": true}]}),
        Some(&alice),
    )
    .await;
    post(
        &app,
        &format!("/v1/go/games/{solo}/join"),
        json!({}),
        Some(&alice),
    )
    .await
    .assert_problem(409, "conflict");
    // Hot seat: two humans at create, both tokens to the creator, not rated.
    let (_, tokens, created) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "alice"}, {"name": "carol"}]}),
        Some(&alice),
    )
    .await;
    assert!(tokens.iter().all(Option::is_some));
    assert_eq!(created["rated"], false);
    // Against an AI, claimed with a key: rated.
    let (_, tokens, created) = create(
        &app,
        "go",
        json!({"size": 9, "players": [{"name": "bob"}, {"ai": "easy"}]}),
        Some(&bob),
    )
    .await;
    assert_eq!(created["rated"], true);
    assert_eq!(tokens[1], None);
}

/// Black wins with h8..h12 while white plays on the a file.
async fn black_wins(app: &TestApp, id: &str, black: &str, white: &str) -> Reply {
    for (b, w) in ["h8", "h9", "h10", "h11"]
        .iter()
        .zip(["a1", "a2", "a3", "a4"])
    {
        app.gomoku_move(id, black, b).await.expect(200);
        app.gomoku_move(id, white, w).await.expect(200);
    }
    app.gomoku_move(id, black, "h12").await.expect(200)
}

async fn rated_games_move_ratings_once(app: TestApp) {
    let alice = register(&app, "alice").await;
    let bob = register(&app, "bob").await;
    let (id, black, white) = rated_gomoku(&app, &alice, &bob).await;
    let won = black_wins(&app, &id, &black, &white).await;
    assert_eq!(won.body["game"]["status"], "finished");
    let expected = after_game(&[
        Standing {
            before: Rating::NEW,
            points: 1.0,
        },
        Standing {
            before: Rating::NEW,
            points: 0.0,
        },
    ]);
    let (a, b) = (player(&app, "alice").await, player(&app, "bob").await);
    for (p, want, score) in [(&a, expected[0], 1100), (&b, expected[1], 900)] {
        let got = &p["ratings"]["gomoku"];
        assert!(
            (got["rating"].as_f64().unwrap() - want.rating).abs() < 1e-6,
            "{p}"
        );
        assert!((got["deviation"].as_f64().unwrap() - want.deviation).abs() < 1e-6);
        assert_eq!(got["games"], 1);
        assert_eq!(
            p["scores"]["gomoku"]["score"], score,
            "the seed's score as before"
        );
    }
    // Reading the game again moves nothing; neither does an unrated game between guests.
    app.get(&format!("/v1/gomoku/games/{id}")).await.expect(200);
    let (guest_game, tokens, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "g1"}, {"name": "g2"}]}),
        None,
    )
    .await;
    let [g1, g2] = [0, 1].map(|s| tokens[s].clone().unwrap());
    black_wins(&app, &guest_game, &g1, &g2).await;
    assert_eq!(player(&app, "g1").await["ratings"], json!({}));
    assert_eq!(player(&app, "alice").await["ratings"]["gomoku"]["games"], 1);
    // Against an AI level, at its fixed rating: Bob resigns to Go's `hard`.
    let (go, tokens, _) = create(
        &app,
        "go",
        json!({"size": 9, "players": [{"name": "bob"}, {"ai": "hard"}]}),
        Some(&bob),
    )
    .await;
    post(
        &app,
        &format!("/v1/go/games/{go}/moves"),
        json!({"move": "resign"}),
        tokens[0].as_deref(),
    )
    .await
    .expect(200);
    let hard = <parlor::games::go::GoGame as parlor::games::TurnGame>::RATINGS
        .unwrap()
        .hard;
    let want = after_game(&[
        Standing {
            before: Rating::NEW,
            points: 0.0,
        },
        Standing {
            before: Rating::fixed(hard),
            points: 1.0,
        },
    ])[0];
    let got = &player(&app, "bob").await["ratings"]["go"];
    assert!(
        (got["rating"].as_f64().unwrap() - want.rating).abs() < 1e-6,
        "{got}"
    );
    assert_eq!(got["games"], 1);
    // Go keeps no seed score: its leaderboard sorts by rating unless told otherwise.
    let go_board = app.get("/v1/players?game=go").await.expect(200).body;
    assert_eq!(go_board["sort"], "rating", "{go_board}");
    assert_eq!(go_board["players"][0]["name"], "bob", "{go_board}");
    assert!(go_board["players"][0]["rating"]["rating"].is_number());
    // Gomoku's default is still its score.
    let gomoku_board = app.get("/v1/players?game=gomoku").await.expect(200).body;
    assert_eq!(gomoku_board["sort"], "score", "{gomoku_board}");
}

async fn racing_finishers_move_scores_and_ratings_once(app: TestApp) {
    let alice = register(&app, "alice").await;
    let bob = register(&app, "bob").await;
    for _ in 0..3 {
        let (id, black, white) = rated_gomoku(&app, &alice, &bob).await;
        app.gomoku_move(&id, &black, "h8").await.expect(200);
        // Both seats resign at once: one finishes the game, the other is refused.
        let moves = format!("/v1/gomoku/games/{id}/moves");
        let resign = json!({"move": "resign"});
        let (a, b) = tokio::join!(
            post(&app, &moves, resign.clone(), Some(&black)),
            post(&app, &moves, resign.clone(), Some(&white)),
        );
        let statuses = [a.status.as_u16(), b.status.as_u16()];
        assert_eq!(
            statuses.iter().filter(|s| **s == 200).count(),
            1,
            "{statuses:?}: {} {}",
            a.text,
            b.text
        );
        assert!(
            statuses.iter().all(|s| [200, 409].contains(s)),
            "{statuses:?}"
        );
    }
    let (a, b) = (player(&app, "alice").await, player(&app, "bob").await);
    let games = |p: &Value| {
        let s = &p["scores"]["gomoku"];
        s["wins"].as_i64().unwrap() + s["losses"].as_i64().unwrap()
    };
    assert_eq!((games(&a), games(&b)), (3, 3), "{a} {b}");
    assert_eq!(
        a["scores"]["gomoku"]["score"].as_i64().unwrap()
            + b["scores"]["gomoku"]["score"].as_i64().unwrap(),
        2000,
        "every finished game moved both scores once"
    );
    assert_eq!(a["ratings"]["gomoku"]["games"], 3);
    assert_eq!(b["ratings"]["gomoku"]["games"], 3);
}

async fn take_back(app: &TestApp, kind: &str, id: &str, action: &str, token: &str) -> Reply {
    app.send(
        Method::POST,
        &format!("/v1/{kind}/games/{id}/{action}"),
        None,
        Some(token),
        &[],
    )
    .await
}

async fn play(app: &TestApp, kind: &str, id: &str, token: &str, mv: &str) -> Reply {
    post(
        app,
        &format!("/v1/{kind}/games/{id}/moves"),
        json!({ "move": mv }),
        Some(token),
    )
    .await
    .expect(200)
}

/// Each rule with two humans and with a human against an AI, for Gomoku and Go.
async fn takeback_matrix(app: TestApp) {
    for (kind, extra, moves) in [
        ("gomoku", json!({}), ["h8", "h9", "j8"]),
        ("go", json!({"size": 9}), ["E5", "C3", "G7"]),
    ] {
        let game = |rule: &str, second: Value| {
            let mut body = extra.clone();
            body["takeback"] = json!(rule);
            body["players"] = json!([{"name": "p0"}, second]);
            body
        };
        // consent, two humans: propose, refuse to accept one's own, accept.
        let (id, t, created) =
            create(&app, kind, game("consent", json!({"name": "p1"})), None).await;
        assert_eq!(
            created["state"]["takeback"],
            json!({"rule": "consent", "proposal": null})
        );
        let [p0, p1] = [0, 1].map(|s| t[s].clone().unwrap());
        play(&app, kind, &id, &p0, moves[0]).await;
        play(&app, kind, &id, &p1, moves[1]).await;
        let proposed = take_back(&app, kind, &id, "undo", &p1).await.expect(200);
        assert_eq!(
            proposed.body["events"][0]["type"], "takeback_proposed",
            "{kind}"
        );
        let state = &proposed.body["game"]["state"];
        assert_eq!(
            state["takeback"]["proposal"],
            json!({"by": 1, "action": "undo"})
        );
        assert_eq!(
            state["moves"].as_array().unwrap().len(),
            2,
            "nothing taken back yet"
        );
        take_back(&app, kind, &id, "undo", &p1)
            .await
            .assert_problem(409, "conflict");
        let accepted = take_back(&app, kind, &id, "undo", &p0).await.expect(200);
        assert_eq!(accepted.body["events"][0]["type"], "undo");
        assert_eq!(
            accepted.body["game"]["state"]["moves"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            accepted.body["game"]["state"]["takeback"]["proposal"],
            Value::Null
        );
        // A move declines a proposal.
        take_back(&app, kind, &id, "undo", &p0).await.expect(200);
        let declined = play(&app, kind, &id, &p1, moves[2]).await;
        assert_eq!(declined.body["events"][0]["type"], "takeback_declined");
        assert_eq!(
            declined.body["game"]["state"]["takeback"]["proposal"],
            Value::Null
        );
        assert_eq!(
            declined.body["game"]["state"]["moves"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        if kind == "go" {
            // Redo follows the same rule.
            take_back(&app, kind, &id, "undo", &p0).await.expect(200);
            take_back(&app, kind, &id, "undo", &p1).await.expect(200);
            let proposed = take_back(&app, kind, &id, "redo", &p0).await.expect(200);
            assert_eq!(proposed.body["events"][0]["type"], "takeback_proposed");
            let replayed = take_back(&app, kind, &id, "redo", &p1).await.expect(200);
            assert_eq!(replayed.body["events"][0]["type"], "redo");
        }
        // consent against an AI: the human's undo is immediate.
        let (id, t, _) = create(&app, kind, game("consent", json!({"ai": "easy"})), None).await;
        let human = t[0].clone().unwrap();
        play(&app, kind, &id, &human, moves[0]).await;
        let mut ai = post(
            &app,
            &format!("/v1/{kind}/games/{id}/ai-move"),
            json!({}),
            None,
        )
        .await;
        ai = ai.expect(200);
        assert_eq!(ai.body["applied"], true);
        let undone = take_back(&app, kind, &id, "undo", &human).await.expect(200);
        assert_eq!(undone.body["events"][0]["type"], "undo", "{kind}");
        // any: either seat at once, with humans and against an AI.
        for second in [json!({"name": "p1"}), json!({"ai": "easy"})] {
            let (id, t, _) = create(&app, kind, game("any", second), None).await;
            let p0 = t[0].clone().unwrap();
            play(&app, kind, &id, &p0, moves[0]).await;
            let undone = take_back(&app, kind, &id, "undo", &p0).await.expect(200);
            assert_eq!(undone.body["events"][0]["type"], "undo");
        }
        // off: 409 for every seat kind.
        for second in [json!({"name": "p1"}), json!({"ai": "easy"})] {
            let (id, t, _) = create(&app, kind, game("off", second), None).await;
            let p0 = t[0].clone().unwrap();
            play(&app, kind, &id, &p0, moves[0]).await;
            take_back(&app, kind, &id, "undo", &p0)
                .await
                .assert_problem(409, "conflict");
            if kind == "go" {
                take_back(&app, kind, &id, "redo", &p0)
                    .await
                    .assert_problem(409, "conflict");
            }
        }
        post(
            &app,
            &format!("/v1/{kind}/games"),
            game("sometimes", json!({"name": "p1"})),
            None,
        )
        .await
        .assert_problem(400, "invalid_request");
    }
}

async fn leaderboard_sorts_filters_and_pages(app: TestApp) {
    let mut keys = Vec::new();
    for name in ["r1", "r2", "r3"] {
        keys.push((name.to_owned(), register(&app, name).await));
    }
    // Registered pairs play rated games; guests play unrated ones.
    for (winner, loser) in [(0, 1), (0, 2), (1, 2)] {
        let (id, black, white) = rated_gomoku_between(&app, &keys[winner], &keys[loser]).await;
        black_wins(&app, &id, &black, &white).await;
    }
    for (a, b) in [("g1", "g2"), ("g3", "g1"), ("g4", "g5")] {
        let (id, t, _) = create(
            &app,
            "gomoku",
            json!({"players": [{"name": a}, {"name": b}]}),
            None,
        )
        .await;
        black_wins(
            &app,
            &id,
            t[0].as_deref().unwrap(),
            t[1].as_deref().unwrap(),
        )
        .await;
    }
    let board = |query: &str| {
        let app = &app;
        let path = format!("/v1/players?game=gomoku{query}");
        async move { app.get(&path).await }
    };
    let all = board("&limit=100").await.expect(200).body;
    let names = |page: &Value| -> Vec<String> {
        page["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(all["next_cursor"], Value::Null);
    let every = names(&all);
    assert_eq!(every.len(), 8);
    let scores: Vec<i64> = all["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // Pages of 3 put together are the whole board, ranks continuing.
    let mut paged = Vec::new();
    let mut cursor = String::new();
    loop {
        let page = board(&format!("&limit=3{cursor}")).await.expect(200).body;
        for (i, p) in page["players"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                p["rank"].as_u64().unwrap() as usize,
                paged.len() + 1,
                "page {cursor}: {i}"
            );
            paged.push(p["name"].as_str().unwrap().to_owned());
        }
        match page["next_cursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => break,
        }
    }
    assert_eq!(paged, every);
    // Registered players only, and the rating order.
    let registered = board("&registered=true").await.expect(200).body;
    assert_eq!(names(&registered).len(), 3);
    assert!(registered["players"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["registered"] == true));
    let by_rating = board("&sort=rating").await.expect(200).body;
    assert_eq!(by_rating["sort"], "rating");
    assert_eq!(
        names(&by_rating),
        vec!["r1", "r2", "r3"],
        "two wins, one, none"
    );
    let ratings: Vec<f64> = by_rating["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rating"]["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");
    let top = board("&sort=rating&limit=1").await.expect(200).body;
    let second = board(&format!(
        "&sort=rating&limit=1&cursor={}",
        top["next_cursor"].as_str().unwrap()
    ))
    .await
    .expect(200)
    .body;
    assert_eq!(names(&second), vec!["r2"]);
    assert_eq!(second["players"][0]["rank"], 2);
    board("&cursor=zz")
        .await
        .assert_problem(400, "invalid_request");
    board("&sort=elo")
        .await
        .assert_problem(400, "invalid_request");
    app.get("/v1/players?game=uno")
        .await
        .assert_problem(400, "invalid_request");
    // Go is rated though it keeps no seed score: it has a (here empty) board.
    assert_eq!(
        app.get("/v1/players?game=go&sort=rating")
            .await
            .expect(200)
            .body["players"],
        json!([])
    );
}

async fn ai_move(app: &TestApp, kind: &str, id: &str, body: Value, token: Option<&str>) -> Reply {
    post(app, &format!("/v1/{kind}/games/{id}/ai-move"), body, token).await
}

/// The problem's detail, which must say why.
fn detail(reply: &Reply) -> String {
    reply.body["detail"].as_str().unwrap_or_default().to_owned()
}

/// Finding 1: in a rated game against an AI the AI seat plays at its own level and time, asked
/// for by a seat token; no hint, preview or take-back. `"rated": false` allows them all.
async fn rated_games_against_the_ai_allow_no_hints_previews_or_takebacks(app: TestApp) {
    let bob = register(&app, "bob").await;
    for (kind, extra, first) in [
        ("gomoku", json!({}), "h8"),
        ("go", json!({"size": 9}), "E5"),
    ] {
        let mut body = extra.clone();
        body["players"] = json!([{"name": "bob"}, {"ai": "hard"}]);
        let (id, tokens, created) = create(&app, kind, body.clone(), Some(&bob)).await;
        assert_eq!(created["rated"], true, "{kind}");
        let human = tokens[0].clone().unwrap();
        play(&app, kind, &id, &human, first).await;
        // The AI seat's move: nobody without a seat token of this game, and never at another
        // level or think time.
        let anonymous = ai_move(
            &app,
            kind,
            &id,
            json!({"level": "easy", "time_ms": 1}),
            None,
        )
        .await;
        anonymous.assert_problem(401, "unauthorized");
        assert!(detail(&anonymous).contains("rated"), "{}", anonymous.text);
        for overridden in [
            json!({"level": "easy"}),
            json!({"time_ms": 1}),
            json!({"level": "hard", "time_ms": 500}),
        ] {
            let refused = ai_move(&app, kind, &id, overridden, Some(&human)).await;
            refused.assert_problem(409, "conflict");
            let why = detail(&refused);
            assert!(
                why.contains("rated") && why.contains("level") && why.contains("\"rated\": false"),
                "{why}"
            );
        }
        // No preview of the AI's reply.
        let preview = ai_move(&app, kind, &id, json!({"apply": false}), Some(&human)).await;
        preview.assert_problem(409, "conflict");
        assert!(detail(&preview).contains("rated"), "{}", preview.text);
        let played = ai_move(&app, kind, &id, json!({}), Some(&human))
            .await
            .expect(200);
        assert_eq!(played.body["applied"], true);
        if let Some(level) = played.body["analysis"]["level"].as_str() {
            assert_eq!(level, "hard", "{kind}");
        }
        // The human's own move: no hint, played or not.
        for hint in [
            json!({}),
            json!({"apply": true}),
            json!({"apply": false, "level": "hard"}),
        ] {
            let refused = ai_move(&app, kind, &id, hint, Some(&human)).await;
            refused.assert_problem(409, "conflict");
            assert!(detail(&refused).contains("hint"), "{}", refused.text);
        }
        // No take-back.
        let undo = take_back(&app, kind, &id, "undo", &human).await;
        undo.assert_problem(409, "conflict");
        assert!(
            detail(&undo).contains("rated") && detail(&undo).contains("\"rated\": false"),
            "{}",
            undo.text
        );
        if kind == "go" {
            take_back(&app, kind, &id, "redo", &human)
                .await
                .assert_problem(409, "conflict");
        }

        // Created unrated, the same game allows all of it, and says so.
        body["rated"] = json!(false);
        let (id, tokens, created) = create(&app, kind, body.clone(), Some(&bob)).await;
        assert_eq!(created["rated"], false, "{kind}");
        let human = tokens[0].clone().unwrap();
        let hint = ai_move(
            &app,
            kind,
            &id,
            json!({"level": "easy", "time_ms": 50}),
            Some(&human),
        )
        .await
        .expect(200);
        assert_eq!(hint.body["applied"], false);
        play(&app, kind, &id, &human, first).await;
        let preview = ai_move(
            &app,
            kind,
            &id,
            json!({"apply": false, "time_ms": 50}),
            None,
        )
        .await
        .expect(200);
        assert_eq!(preview.body["applied"], false);
        ai_move(
            &app,
            kind,
            &id,
            json!({"level": "easy", "time_ms": 50}),
            None,
        )
        .await
        .expect(200);
        take_back(&app, kind, &id, "undo", &human).await.expect(200);
    }
    // Rated only for an even start: not from an SGF record, and at komi 6.5, 7 or 7.5.
    let go = |extra: Value| {
        let mut body = extra;
        body["players"] = json!([{"name": "bob"}, {"ai": "easy"}]);
        body
    };
    for (options, rated) in [
        (json!({"size": 9}), true),
        (json!({"size": 9, "komi": 7}), true),
        (json!({"size": 9, "komi": 7.5}), true),
        (json!({"size": 9, "komi": 0.5}), false),
        (json!({"size": 9, "komi": 6.5, "rated": false}), false),
        (json!({"sgf": "(;GM[1]FF[4]SZ[9]KM[6.5])"}), false),
        (json!({"sgf": "(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg])"}), false),
    ] {
        let (_, _, created) = create(&app, "go", go(options.clone()), Some(&bob)).await;
        assert_eq!(created["rated"], rated, "{options}");
    }
    for options in [
        json!({"size": 9, "komi": 0.5, "rated": true}),
        json!({"sgf": "(;GM[1]FF[4]SZ[9]KM[6.5])", "rated": true}),
    ] {
        let refused = post(&app, "/v1/go/games", go(options), Some(&bob)).await;
        refused.assert_problem(422, "invalid_request");
        assert!(detail(&refused).contains("rated"), "{}", refused.text);
    }
}

/// Finding 2: a finished rated Go game is final; no undo reopens it to finish, and rate, again.
async fn a_finished_rated_go_game_rates_once(app: TestApp) {
    let alice = register(&app, "alice").await;
    let bob = register(&app, "bob").await;
    let (id, tokens, _) = create(
        &app,
        "go",
        json!({"size": 9, "takeback": "any", "players": [{"name": "alice"}, {"open": true}]}),
        Some(&alice),
    )
    .await;
    let black = tokens[0].clone().unwrap();
    let joined = post(
        &app,
        &format!("/v1/go/games/{id}/join"),
        json!({}),
        Some(&bob),
    )
    .await
    .expect(200);
    assert_eq!(joined.body["game"]["rated"], true);
    let white = joined.body["token"].as_str().unwrap().to_owned();
    play(&app, "go", &id, &black, "E5").await;
    play(&app, "go", &id, &white, "pass").await;
    let done = play(&app, "go", &id, &black, "pass").await;
    assert_eq!(done.body["game"]["status"], "finished");
    for _ in 0..2 {
        for token in [&black, &white] {
            for action in ["undo", "redo"] {
                let refused = take_back(&app, "go", &id, action, token).await;
                refused.assert_problem(409, "conflict");
                assert!(detail(&refused).contains("rated"), "{}", refused.text);
            }
        }
        // Were the game reopened, passing again would finish (and rate) it again.
        post(
            &app,
            &format!("/v1/go/games/{id}/moves"),
            json!({"move": "pass"}),
            Some(&white),
        )
        .await
        .assert_problem(409, "game_over");
    }
    for name in ["alice", "bob"] {
        assert_eq!(
            player(&app, name).await["ratings"]["go"]["games"],
            1,
            "{name}: rated once"
        );
    }
    let game = app
        .get(&format!("/v1/go/games/{id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["version"], done.body["game"]["version"]);
}

async fn gomoku_score(app: &TestApp, path: &str) -> (i64, i64, i64) {
    let body = app.get(path).await.expect(200).body;
    let s = &body["scores"]["gomoku"];
    (
        s["score"].as_i64().unwrap_or(1000),
        s["wins"].as_i64().unwrap_or(0),
        s["losses"].as_i64().unwrap_or(0),
    )
}

/// Resigns `token`'s seat of a Gomoku game.
async fn resign(app: &TestApp, id: &str, token: &str) {
    post(
        app,
        &format!("/v1/gomoku/games/{id}/moves"),
        json!({"move": "resign"}),
        Some(token),
    )
    .await
    .expect(200);
}

/// Finding 3: the seed's score moves against an AI and between registered players who each took
/// their own seat; never in a game whose every human token one creator holds. Scores belong to a
/// player: registering a name starts a new record and leaves the guest's.
async fn seed_scores_move_only_between_players_in_their_own_seats(app: TestApp) {
    let alice = register(&app, "alice").await;
    let bob = register(&app, "bob").await;
    // Hot seat: Alice (by her key) against a guest name she made up, both tokens hers.
    let (id, t, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "alice"}, {"name": "sock"}]}),
        Some(&alice),
    )
    .await;
    black_wins(
        &app,
        &id,
        t[0].as_deref().unwrap(),
        t[1].as_deref().unwrap(),
    )
    .await;
    // The same with a join: she takes the open seat herself under a guest name.
    let (id, t, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "alice"}, {"open": true}]}),
        Some(&alice),
    )
    .await;
    let sock = post(
        &app,
        &format!("/v1/gomoku/games/{id}/join"),
        json!({"name": "sock2"}),
        None,
    )
    .await
    .expect(200);
    black_wins(
        &app,
        &id,
        t[0].as_deref().unwrap(),
        sock.body["token"].as_str().unwrap(),
    )
    .await;
    // Two guest names at one creator's hands: anyone could sink any guest name so.
    let (id, t, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "me"}, {"name": "victim"}]}),
        None,
    )
    .await;
    black_wins(
        &app,
        &id,
        t[0].as_deref().unwrap(),
        t[1].as_deref().unwrap(),
    )
    .await;
    assert_eq!(gomoku_score(&app, "/v1/players/alice").await, (1000, 0, 0));
    for guest in ["sock", "sock2", "me", "victim"] {
        assert_eq!(
            gomoku_score(&app, &format!("/v1/players/{guest}")).await,
            (1000, 0, 0),
            "{guest}"
        );
    }
    // Against the AI (the seed's own case), a registered player's and a guest's score moves.
    for (name, key) in [("alice", Some(alice.as_str())), ("carl", None)] {
        let (id, t, _) = create(
            &app,
            "gomoku",
            json!({"players": [{"name": name}, {"ai": "easy"}]}),
            key,
        )
        .await;
        resign(&app, &id, t[0].as_deref().unwrap()).await;
    }
    assert_eq!(gomoku_score(&app, "/v1/players/alice").await, (900, 0, 1));
    assert_eq!(gomoku_score(&app, "/v1/players/carl").await, (900, 0, 1));
    // Between registered players who each took their own seat.
    let (id, black, white) = rated_gomoku(&app, &alice, &bob).await;
    black_wins(&app, &id, &black, &white).await;
    assert_eq!(gomoku_score(&app, "/v1/players/alice").await, (1000, 1, 1));
    assert_eq!(gomoku_score(&app, "/v1/players/bob").await, (900, 0, 1));

    // A guest's record stays the guest's: registering "carl" starts fresh.
    let carl = register(&app, "Carl").await;
    let fresh = player(&app, "carl").await;
    assert_eq!(
        (&fresh["name"], &fresh["registered"]),
        (&json!("Carl"), &json!(true))
    );
    assert_eq!(fresh["scores"], json!({}), "no guest history inherited");
    let guest = app
        .get("/v1/players/carl?guest=true")
        .await
        .expect(200)
        .body;
    assert_eq!(guest["registered"], false);
    assert_eq!(guest["scores"]["gomoku"]["score"], 900);
    let (id, t, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "Carl"}, {"ai": "easy"}]}),
        Some(&carl),
    )
    .await;
    resign(&app, &id, t[0].as_deref().unwrap()).await;
    assert_eq!(gomoku_score(&app, "/v1/players/carl").await, (900, 0, 1));
    assert_eq!(
        gomoku_score(&app, "/v1/players/carl?guest=true").await,
        (900, 0, 1),
        "the guest's record did not move"
    );
    app.get("/v1/players/nobody?guest=true")
        .await
        .assert_problem(404, "not_found");
    // Both records are on the leaderboard, each once; paging keeps them apart.
    let board = app
        .get("/v1/players?game=gomoku&limit=100")
        .await
        .expect(200)
        .body;
    let carls: Vec<&Value> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"].as_str().unwrap().eq_ignore_ascii_case("carl"))
        .collect();
    assert_eq!(carls.len(), 2, "{board}");
    assert_ne!(carls[0]["registered"], carls[1]["registered"]);
    let mut paged = Vec::new();
    let mut cursor = String::new();
    loop {
        let page = app
            .get(&format!("/v1/players?game=gomoku&limit=1{cursor}"))
            .await
            .expect(200)
            .body;
        for p in page["players"].as_array().unwrap() {
            paged.push((p["name"].clone(), p["registered"].clone()));
        }
        match page["next_cursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => break,
        }
    }
    let whole: Vec<(Value, Value)> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].clone(), p["registered"].clone()))
        .collect();
    assert_eq!(paged, whole);
}

/// Scores as the previous release stored them (keyed by the name shown) load after migration
/// 0005: a registered name's row stays its player's, every other row a guest's, and play goes on.
async fn scores_stored_by_the_previous_release_still_load(db: common::Db) {
    let Some((url, dir)) = common::fresh_database(db).await else {
        return;
    };
    let folder = match db {
        common::Db::Sqlite => "migrations/sqlite",
        common::Db::Postgres => "migrations/postgres",
    };
    let mut before = sqlx::migrate::Migrator::new(std::path::Path::new(folder))
        .await
        .expect("migrations");
    let previous: Vec<_> = before
        .migrations
        .iter()
        .filter(|m| m.version < 5)
        .cloned()
        .collect();
    assert_eq!(previous.len(), 4);
    before.migrations = previous.into();
    let now = chrono::Utc::now();
    let key = [9u8; 32].to_vec();
    macro_rules! fill {
        ($pool:expr) => {{
            let pool = $pool;
            before.run(&pool).await.expect("migrations 0001-0004");
            sqlx::query(
                "INSERT INTO players (canonical, name, key_hash, created_at) VALUES ($1, $2, $3, $4)",
            )
            .bind("reg")
            .bind("Reg")
            .bind(&key)
            .bind(now)
            .execute(&pool)
            .await
            .unwrap();
            for (name, score, wins, losses) in [("Reg", 1300i64, 3i64, 0i64), ("wanderer", 800, 0, 2)] {
                sqlx::query(
                    "INSERT INTO player_stats (name, game, score, wins, losses, draws) \
                     VALUES ($1, 'gomoku', $2, $3, $4, 0)",
                )
                .bind(name)
                .bind(score)
                .bind(wins)
                .bind(losses)
                .execute(&pool)
                .await
                .unwrap();
            }
            pool.close().await;
        }};
    }
    match db {
        common::Db::Sqlite => {
            use std::str::FromStr;
            let options = sqlx::sqlite::SqliteConnectOptions::from_str(&url)
                .unwrap()
                .create_if_missing(true);
            fill!(sqlx::SqlitePool::connect_with(options).await.unwrap());
        }
        common::Db::Postgres => fill!(sqlx::PgPool::connect(&url).await.unwrap()),
    }
    let app = common::spawn_on(&url, dir, common::test_config(&url)).await;
    let reg = player(&app, "reg").await;
    assert_eq!(reg["registered"], true);
    assert_eq!(reg["scores"]["gomoku"]["score"], 1300);
    let wanderer = player(&app, "wanderer").await;
    assert_eq!(wanderer["registered"], false);
    assert_eq!(wanderer["scores"]["gomoku"]["losses"], 2);
    let board = app.get("/v1/players?game=gomoku").await.expect(200).body;
    assert_eq!(board["players"][0]["name"], "Reg", "{board}");
    assert_eq!(board["players"][0]["registered"], true);
    assert_eq!(board["players"][1]["name"], "wanderer");
    // Play goes on into the migrated rows.
    let (id, t, _) = create(
        &app,
        "gomoku",
        json!({"players": [{"name": "wanderer"}, {"ai": "easy"}]}),
        None,
    )
    .await;
    resign(&app, &id, t[0].as_deref().unwrap()).await;
    assert_eq!(
        player(&app, "wanderer").await["scores"]["gomoku"]["score"],
        700
    );
}

#[actix_web::test]
async fn scores_stored_by_the_previous_release_still_load_on_sqlite() {
    scores_stored_by_the_previous_release_still_load(common::Db::Sqlite).await;
}

#[actix_web::test]
async fn scores_stored_by_the_previous_release_still_load_on_postgres() {
    scores_stored_by_the_previous_release_still_load(common::Db::Postgres).await;
}

/// A rated Gomoku game: `black`'s player (name, key) creates it with their key, `white`'s joins
/// the open seat with theirs (an empty body); (id, black's token, white's token).
async fn rated_gomoku_between(
    app: &TestApp,
    black: &(String, String),
    white: &(String, String),
) -> (String, String, String) {
    rated_gomoku_with(app, black, white, json!({})).await
}

/// [`rated_gomoku_between`] with more create options (`options`, an object without `players`).
pub(crate) async fn rated_gomoku_with(
    app: &TestApp,
    black: &(String, String),
    white: &(String, String),
    options: Value,
) -> (String, String, String) {
    let mut body = options;
    body["players"] = json!([{"name": black.0}, {"open": true}]);
    let (id, tokens, created) = create(app, "gomoku", body, Some(&black.1)).await;
    assert_eq!(created["rated"], false, "a seat is still open");
    let joined = post(
        app,
        &format!("/v1/gomoku/games/{id}/join"),
        Value::Null,
        Some(&white.1),
    )
    .await
    .expect(200);
    assert_eq!(joined.body["game"]["rated"], true);
    let black_token = tokens[0]
        .clone()
        .expect("seat 0's token goes to its claimant");
    let white_token = joined.body["token"].as_str().unwrap().to_owned();
    (id, black_token, white_token)
}

/// A key is rotated with the current one, which stops working at once; the new one seats the
/// player. The answers that carry a key are never cached.
async fn keys_rotate_with_the_old_key(app: TestApp) {
    let registered = app
        .post("/v1/players", json!({"name": "rota"}))
        .await
        .expect(201);
    assert_eq!(registered.header("cache-control"), Some("no-store"));
    let old = registered.body["key"].as_str().unwrap().to_owned();
    let other = register(&app, "someone").await;
    post(&app, "/v1/players/rota/key", json!(null), None)
        .await
        .assert_problem(401, "unauthorized");
    post(&app, "/v1/players/rota/key", json!(null), Some(&other))
        .await
        .assert_problem(403, "forbidden");
    let rotated = post(&app, "/v1/players/ROTA/key", json!(null), Some(&old))
        .await
        .expect(200);
    assert_eq!(rotated.header("cache-control"), Some("no-store"));
    let fresh = rotated.body["key"].as_str().unwrap().to_owned();
    assert_eq!(fresh.len(), 64);
    assert_ne!(fresh, old);
    post(&app, "/v1/players/rota/key", json!(null), Some(&old))
        .await
        .assert_problem(401, "unauthorized");
    let body = json!({"players": [{"name": "rota"}, {"ai": "easy"}]});
    post(&app, "/v1/gomoku/games", body.clone(), Some(&old))
        .await
        .assert_problem(401, "unauthorized");
    post(&app, "/v1/gomoku/games", body, Some(&fresh))
        .await
        .expect(201);
}

on_both_stores!(
    keys_rotate_with_the_old_key,
    registration_protects_a_name_and_its_look_alikes,
    names_refuse_invisible_characters_and_the_ai_name,
    forgery_attempts_are_refused,
    seat_tokens_go_only_to_who_claimed_the_seat,
    rated_games_move_ratings_once,
    racing_finishers_move_scores_and_ratings_once,
    takeback_matrix,
    leaderboard_sorts_filters_and_pages,
    rated_games_against_the_ai_allow_no_hints_previews_or_takebacks,
    a_finished_rated_go_game_rates_once,
    seed_scores_move_only_between_players_in_their_own_seats,
);
