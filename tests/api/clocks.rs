//! Clocks over real HTTP on a fake time the tests move (no sleeping for a clock): charging and
//! increments, flags on a move, on a read and by the sweeper (two sweepers racing on PostgreSQL),
//! byo-yomi periods, the abort of a game without a first move, an AI that thinks within its time
//! and one that flags while it thinks, UNO's jump-in and a seat out of time at a table of three,
//! scores and ratings after a timeout, claiming the win from a walked-away opponent, and
//! validation.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::sse::EventStream;
use crate::common::{self, Db, Reply, TestApp};
use parlor::service::time::Time;

/// A sweep interval that never comes within a test: flags then come only from requests.
const NO_SWEEP_MS: u64 = 3_600_000;

/// An app on `db` whose service reads `time`, sweeping every `sweep_ms`.
async fn timed_app(db: Db, time: &Time, sweep_ms: u64) -> Option<TestApp> {
    let (url, dir) = common::fresh_database(db).await?;
    let config = parlor::config::Config {
        time: time.clone(),
        clock_sweep_ms: sweep_ms,
        ..common::test_config(&url)
    };
    Some(common::spawn_on(&url, dir, config).await)
}

fn blitz(players: Value) -> Value {
    json!({
        "players": players,
        "clock": {"type": "fischer", "initial_ms": 10_000, "increment_ms": 1_000, "max_ms": 12_000},
    })
}

fn humans() -> Value {
    json!([{"name": "ann"}, {"name": "ben"}])
}

async fn game(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/v1/gomoku/games/{id}"))
        .await
        .expect(200)
        .body
}

/// Plays the first move of each seat (a first move does not run the clock).
async fn opening(app: &TestApp, id: &str, tokens: &[Option<String>]) {
    app.gomoku_move(id, tokens[0].as_deref().unwrap(), "h8")
        .await
        .expect(200);
    app.gomoku_move(id, tokens[1].as_deref().unwrap(), "a1")
        .await
        .expect(200);
}

/// `ai-move` on Gomoku game `id`, asked by `token`.
async fn ai_move(app: &TestApp, id: &str, token: &str, body: Value) -> Reply {
    app.post_as(&format!("/v1/gomoku/games/{id}/ai-move"), body, token)
        .await
}

async fn a_move_is_charged_and_a_late_one_loses(app: TestApp, time: Time) {
    let (id, tokens) = app.create_gomoku(blitz(humans())).await;
    let (black, white) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let created = game(&app, &id).await;
    assert_eq!(created["clock"]["turn"]["expires"], "abort");
    assert!(created["server_time"].is_string());
    opening(&app, &id, &tokens).await;
    let clock = game(&app, &id).await["clock"].clone();
    assert_eq!(clock["turn"]["seat"], 0);
    assert_eq!(clock["turn"]["expires"], "timeout");
    assert_eq!(
        clock["turn"]["deadline_ms"].as_i64().unwrap()
            - clock["turn"]["started_ms"].as_i64().unwrap(),
        10_000,
        "black's whole bank: its first move was free"
    );

    time.advance(4_000);
    app.gomoku_move(&id, &black, "i8").await.expect(200);
    let state = game(&app, &id).await;
    assert_eq!(
        state["clock"]["seats"][0]["remaining_ms"], 7_000,
        "10 s − 4 s + 1 s"
    );
    for (w, b) in [("a2", "a12"), ("c2", "c12"), ("e2", "e12")] {
        time.advance(100);
        app.gomoku_move(&id, &white, w).await.expect(200);
        time.advance(100);
        app.gomoku_move(&id, &black, b).await.expect(200);
    }
    let state = game(&app, &id).await;
    assert_eq!(state["clock"]["seats"][0]["remaining_ms"], 9_700);
    assert_eq!(
        state["clock"]["seats"][1]["remaining_ms"], 12_000,
        "the cap holds"
    );

    // White's 12 s and the 500 ms grace run out: its move comes too late.
    time.advance(12_600);
    let late = app.gomoku_move(&id, &white, "e1").await;
    late.assert_problem(409, "game_over");
    let over = game(&app, &id).await;
    assert_eq!(over["status"], "finished");
    assert_eq!(over["result"]["reason"], "timeout");
    assert_eq!(over["result"]["winners"], json!([0]));
    assert!(
        over["clock"]["turn"].is_null(),
        "no turn runs on a finished game"
    );
    let log = app
        .get(&format!("/v1/gomoku/games/{id}/moves"))
        .await
        .expect(200);
    let flags: Vec<&Value> = log
        .body
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["move"]["timeout"] == 1)
        .collect();
    assert_eq!(
        flags.len(),
        1,
        "the flag is one change in the log: {}",
        log.text
    );
}

async fn a_read_after_the_deadline_settles_the_clock(app: TestApp, time: Time) {
    let (id, tokens) = app.create_gomoku(blitz(humans())).await;
    opening(&app, &id, &tokens).await;
    let before = game(&app, &id).await;
    // Inside the grace the game is still on.
    time.advance(10_400);
    assert_eq!(game(&app, &id).await["status"], "active");
    time.advance(200);
    let read = game(&app, &id).await;
    assert_eq!(read["status"], "finished");
    assert_eq!(read["result"]["reason"], "timeout");
    assert_eq!(read["result"]["winners"], json!([1]));
    assert_eq!(read["version"], before["version"].as_i64().unwrap() + 1);
}

async fn a_game_without_a_first_move_is_aborted_not_lost(app: TestApp, time: Time) {
    let name = format!("ann-{}", rand::random::<u32>());
    let (id, _) = app
        .create_gomoku(blitz(json!([{"name": name}, {"ai": "easy"}])))
        .await;
    time.advance(60_000);
    assert_eq!(game(&app, &id).await["status"], "active");
    time.advance(600);
    let aborted = game(&app, &id).await;
    assert_eq!(aborted["status"], "aborted");
    assert_eq!(aborted["result"]["reason"], "aborted");
    let stats = app.get(&format!("/v1/players/{name}")).await.expect(200);
    assert_eq!(
        stats.body["gomoku"]["score"], 1000,
        "an abort moves no score: {}",
        stats.text
    );
    assert_eq!(stats.body["gomoku"]["losses"], 0, "{}", stats.text);
}

async fn the_sweeper_flags_a_game_nobody_looks_at(app: TestApp, time: Time) {
    let (id, tokens) = app.create_gomoku(blitz(humans())).await;
    opening(&app, &id, &tokens).await;
    let mut spectator = EventStream::open(
        &app.client,
        &app.url(&format!("/v1/gomoku/games/{id}/events")),
        None,
        None,
    )
    .await;
    let first = spectator.next(Duration::from_secs(5)).await.unwrap();
    assert_eq!(first.name, "game");
    let mut lobby = EventStream::open(
        &app.client,
        &app.url("/v1/games/events?game=gomoku"),
        None,
        None,
    )
    .await;
    lobby.next(Duration::from_secs(5)).await.unwrap();
    time.advance(10_501);
    // Nobody sends a request: the sweeper (every 50 ms here) ends the game, and the stream says.
    let change = spectator.next(Duration::from_secs(5)).await.unwrap();
    assert_eq!(change.name, "change");
    assert_eq!(change.data["game"]["result"]["reason"], "timeout");
    assert!(change.data["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["type"] == "game_over"));
    let finished = lobby.next(Duration::from_secs(5)).await.unwrap();
    assert_eq!(finished.name, "finished", "{:?}", finished.data);
    assert_eq!(finished.data["game"]["id"], json!(id));
}

async fn byoyomi_periods_go_one_by_one(app: TestApp, time: Time) {
    let created = app
        .post(
            "/v1/go/games",
            json!({
                "size": 9,
                "players": humans(),
                "clock": {"type": "byoyomi", "main_ms": 2_000, "period_ms": 5_000, "periods": 2},
            }),
        )
        .await
        .expect(201);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let token = |seat: usize| {
        created.body["tokens"][seat]["token"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (black, white) = (token(0), token(1));
    let play = |who: String, at: &'static str| {
        let app = &app;
        let id = id.clone();
        async move {
            app.post_as(
                &format!("/v1/go/games/{id}/moves"),
                json!({"move": at}),
                &who,
            )
            .await
        }
    };
    play(black.clone(), "E5").await.expect(200);
    play(white.clone(), "C3").await.expect(200);
    let black_time = |g: &Value| g["clock"]["seats"][0].clone();
    let read = || async {
        app.get(&format!("/v1/go/games/{id}"))
            .await
            .expect(200)
            .body
    };
    // 2 s of main time and 4 s of the first period: the period is kept.
    time.advance(6_000);
    play(black.clone(), "G7").await.expect(200);
    assert_eq!(
        black_time(&read().await),
        json!({"remaining_ms": 0, "periods": 2})
    );
    play(white.clone(), "C7").await.expect(200);
    // 6 s: the first period is used up.
    time.advance(6_000);
    play(black.clone(), "G3").await.expect(200);
    assert_eq!(
        black_time(&read().await),
        json!({"remaining_ms": 0, "periods": 1})
    );
    play(white.clone(), "D4").await.expect(200);
    // Inside the last period (and its grace) black may still move; past it, black loses.
    let turn = read().await["clock"]["turn"].clone();
    assert_eq!(
        turn["deadline_ms"].as_i64().unwrap() - turn["started_ms"].as_i64().unwrap(),
        5_000
    );
    time.advance(5_501);
    play(black.clone(), "F6")
        .await
        .assert_problem(409, "game_over");
    let over = read().await;
    assert_eq!(over["result"]["reason"], "timeout");
    assert_eq!(over["result"]["winners"], json!([1]));
}

async fn an_ai_thinks_within_its_time_and_flags_if_it_cannot(app: TestApp, time: Time) {
    let (id, tokens) = app
        .create_gomoku(json!({
            "players": [{"name": "ann"}, {"ai": "hard"}],
            "rated": false,
            "clock": {"type": "per_move", "move_ms": 1_500},
        }))
        .await;
    let ann = tokens[0].clone().unwrap();
    app.gomoku_move(&id, &ann, "h8").await.expect(200);
    // Its first move, asked for 5 s, thinks within what the abort window leaves it.
    let ai = ai_move(&app, &id, &ann, json!({"time_ms": 5_000}))
        .await
        .expect(200);
    assert_eq!(ai.body["applied"], true);
    let first_reply = ai.body["move"]["move"].clone();
    let second = if first_reply == "j10" { "g6" } else { "j10" };
    app.gomoku_move(&id, &ann, second).await.expect(200);
    let ai = ai_move(&app, &id, &ann, json!({"time_ms": 5_000}))
        .await
        .expect(200);
    let thought = ai.body["analysis"]["elapsed_ms"].as_u64().unwrap();
    assert!(
        thought < 1_500,
        "asked 5 s on a 1.5 s clock, thought {thought} ms"
    );
    assert_eq!(ai.body["game"]["status"], "active");

    // The clock runs out while it thinks: its turn ends in a flag, not a move. Ann plays a
    // corner the AI has not taken (it answers near the stones, but its search is timed).
    let taken = [&first_reply, &ai.body["move"]["move"]];
    let corner = ["a1", "o15"]
        .into_iter()
        .find(|c| taken.iter().all(|t| t.as_str() != Some(c)))
        .expect("the AI answered near h8, away from both far corners");
    app.gomoku_move(&id, &ann, corner).await.expect(200);
    let asking = ai_move(&app, &id, &ann, json!({"time_ms": 1_000}));
    let moving = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        time.advance(5_000);
    };
    let (flagged, ()) = tokio::join!(asking, moving);
    let flagged = flagged.expect(200);
    assert_eq!(flagged.body["applied"], false, "{}", flagged.text);
    assert_eq!(flagged.body["game"]["result"]["reason"], "timeout");
    assert_eq!(flagged.body["game"]["result"]["winners"], json!([0]));
}

async fn an_untimed_seat_may_claim_the_win_from_a_silent_opponent(app: TestApp, time: Time) {
    let (id, tokens) = app.create_gomoku(json!({"players": humans()})).await;
    let (black, white) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    app.gomoku_move(&id, &black, "h8").await.expect(200);
    let claim = format!("/v1/gomoku/games/{id}/claim-victory");
    app.post_as(&claim, json!({}), &white)
        .await
        .assert_problem(409, "conflict");
    app.post_as(&claim, json!({}), &black)
        .await
        .assert_problem(409, "conflict");
    time.advance(3 * 24 * 3600 * 1000);
    let claimed = app.post_as(&claim, json!({}), &black).await.expect(200);
    assert_eq!(claimed.body["game"]["result"]["reason"], "abandoned");
    assert_eq!(claimed.body["game"]["result"]["winners"], json!([0]));
    // A timed game is the clock's to decide.
    let (timed, timed_tokens) = app.create_gomoku(blitz(humans())).await;
    app.post_as(
        &format!("/v1/gomoku/games/{timed}/claim-victory"),
        json!({}),
        timed_tokens[0].as_deref().unwrap(),
    )
    .await
    .assert_problem(409, "conflict");
}

async fn bad_clocks_are_refused(app: TestApp, _time: Time) {
    for (game, clock, field) in [
        (
            "gomoku",
            json!({"type": "fischer", "initial_ms": 0, "increment_ms": 0}),
            "initial_ms",
        ),
        (
            "gomoku",
            json!({"type": "byoyomi", "main_ms": 0, "period_ms": 10_000, "periods": 3}),
            "Go",
        ),
        (
            "go",
            json!({"type": "byoyomi", "main_ms": 0, "period_ms": 86_400_001, "periods": 3}),
            "period_ms",
        ),
        ("uno", json!({"type": "correspondence", "days": 0}), "days"),
        ("go", json!({"type": "per_move", "move_ms": 10}), "move_ms"),
    ] {
        let players = json!([{"name": "ann"}, {"ai": "easy"}]);
        let reply = app
            .post(
                &format!("/v1/{game}/games"),
                json!({"players": players, "clock": clock}),
            )
            .await;
        reply.assert_problem(422, "invalid_request");
        assert!(
            reply.body["detail"].as_str().unwrap().contains(field),
            "{}",
            reply.text
        );
    }
    let unknown = app
        .post(
            "/v1/gomoku/games",
            json!({"players": humans(), "clock": {"type": "hourglass"}}),
        )
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.text);
}

/// UNO charges the seat whose turn it is; a jump-in is charged to nobody. A seat out of time at a
/// table of three leaves it, and play goes on.
async fn uno_charges_the_turn_and_a_seat_out_of_time_leaves_the_table(app: TestApp, time: Time) {
    use crate::uno_api::{act, create, jump_in_deck, play, view};
    let cards = jump_in_deck();
    let game = create(
        &app,
        json!({"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
               "rules": {"jump_in": true}, "deck": cards,
               "clock": {"type": "fischer", "initial_ms": 30_000, "increment_ms": 0}}),
    )
    .await;
    act(&app, &game, 0, play("R7")).await.expect(200);
    time.advance(2_000);
    // Seat 2 jumps in on seat 1's turn: neither is charged, and seat 0 (the jumper's next) acts.
    let jumped = act(&app, &game, 2, json!({"action": "jump_in", "card": "R7"}))
        .await
        .expect(200);
    assert_eq!(jumped.body["game"]["turn"], 0);
    time.advance(4_000);
    act(&app, &game, 0, play("R4")).await.expect(200);
    time.advance(3_000);
    let jumped = act(&app, &game, 2, json!({"action": "jump_in", "card": "R4"}))
        .await
        .expect(200);
    let times: Vec<i64> = (0..3)
        .map(|s| {
            jumped.body["game"]["clock"]["seats"][s]["remaining_ms"]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(
        times,
        [26_000, 30_000, 30_000],
        "only seat 0's own turn was charged"
    );
    assert_eq!(jumped.body["game"]["clock"]["turn"]["seat"], 0);

    // Seat 0's 26 s and the grace run out: it leaves the table, and seat 1 plays on.
    time.advance(26_501);
    let after = view(&app, &game, 1).await;
    assert_eq!(after["status"], "active", "{after}");
    assert_eq!(after["state"]["out"], json!([0]));
    assert_eq!(after["turn"], 1);
    assert_eq!(after["clock"]["turn"]["seat"], 1);
    let refused = act(&app, &game, 0, json!({"action": "draw"})).await;
    assert_eq!(refused.status, 409, "{}", refused.text);
}

/// A timeout is a loss like a resignation: the seed's score moves.
async fn a_timeout_moves_the_score_like_a_loss(app: TestApp, time: Time) {
    let name = format!("ann-{}", rand::random::<u32>());
    let (id, tokens) = app
        .create_gomoku(blitz(json!([{"name": name}, {"ai": "easy"}])))
        .await;
    let ann = tokens[0].clone().unwrap();
    app.gomoku_move(&id, &ann, "h8").await.expect(200);
    ai_move(&app, &id, &ann, json!({})).await.expect(200);
    app.gomoku_move(&id, &ann, "j10").await.expect(200);
    ai_move(&app, &id, &ann, json!({})).await.expect(200);
    // Her bank: 10 s, plus 1 s for j10 (the first move was free).
    time.advance(11_501);
    assert_eq!(game(&app, &id).await["result"]["reason"], "timeout");
    let stats = app.get(&format!("/v1/players/{name}")).await.expect(200);
    assert_eq!(stats.body["gomoku"]["score"], 900, "{}", stats.text);
    assert_eq!(stats.body["gomoku"]["losses"], 1, "{}", stats.text);
}

/// A timeout in a rated game moves Glicko-2 ratings as a resignation would.
async fn a_rated_timeout_moves_ratings(app: TestApp, time: Time) {
    use crate::players_api::{rated_gomoku_with, register};
    let alice = ("alice".to_owned(), register(&app, "alice").await);
    let bob = ("bob".to_owned(), register(&app, "bob").await);
    let clock = blitz(json!([]))["clock"].clone();
    let (id, alice, bob) = rated_gomoku_with(&app, &alice, &bob, json!({"clock": clock})).await;
    opening(&app, &id, &[Some(alice), Some(bob)]).await;
    time.advance(10_501);
    assert_eq!(game(&app, &id).await["result"]["reason"], "timeout");
    let rating = |body: &Value| body["ratings"]["gomoku"]["rating"].as_f64().unwrap();
    let a = app.get("/v1/players/alice").await.expect(200).body;
    let b = app.get("/v1/players/bob").await.expect(200).body;
    assert!(rating(&a) < 1500.0 && rating(&b) > 1500.0, "{a} {b}");
    assert_eq!(
        (
            &a["ratings"]["gomoku"]["games"],
            &b["ratings"]["gomoku"]["games"]
        ),
        (&json!(1), &json!(1))
    );
}

macro_rules! on_both_stores_timed {
    ($($name:ident: $sweep:expr),* $(,)?) => {
        mod on_sqlite {
            $(
                #[actix_web::test]
                async fn $name() {
                    let time = parlor::service::time::Time::fake();
                    let app = super::timed_app(crate::common::Db::Sqlite, &time, $sweep).await.unwrap();
                    super::$name(app, time).await;
                }
            )*
        }
        mod on_postgres {
            $(
                #[actix_web::test]
                async fn $name() {
                    let time = parlor::service::time::Time::fake();
                    if let Some(app) = super::timed_app(crate::common::Db::Postgres, &time, $sweep).await {
                        super::$name(app, time).await;
                    }
                }
            )*
        }
    };
}

on_both_stores_timed!(
    a_move_is_charged_and_a_late_one_loses: super::NO_SWEEP_MS,
    a_read_after_the_deadline_settles_the_clock: super::NO_SWEEP_MS,
    a_game_without_a_first_move_is_aborted_not_lost: super::NO_SWEEP_MS,
    the_sweeper_flags_a_game_nobody_looks_at: 50,
    byoyomi_periods_go_one_by_one: super::NO_SWEEP_MS,
    an_ai_thinks_within_its_time_and_flags_if_it_cannot: super::NO_SWEEP_MS,
    an_untimed_seat_may_claim_the_win_from_a_silent_opponent: super::NO_SWEEP_MS,
    bad_clocks_are_refused: super::NO_SWEEP_MS,
    uno_charges_the_turn_and_a_seat_out_of_time_leaves_the_table: super::NO_SWEEP_MS,
    a_timeout_moves_the_score_like_a_loss: super::NO_SWEEP_MS,
    a_rated_timeout_moves_ratings: super::NO_SWEEP_MS,
);

/// Two servers on one PostgreSQL database, both sweeping: every overdue game is flagged exactly
/// once (one `timeout` entry in its log), whichever sweeper claimed it.
#[actix_web::test]
async fn two_sweepers_on_one_postgres_flag_each_game_once() {
    let Some((url, dir)) = common::fresh_database(Db::Postgres).await else {
        return;
    };
    let time = Time::fake();
    let config = || parlor::config::Config {
        time: time.clone(),
        clock_sweep_ms: 20,
        ..common::test_config(&url)
    };
    let first = common::spawn_on(&url, dir, config()).await;
    let second = common::spawn_on(&url, None, config()).await;
    let mut ids = Vec::new();
    for _ in 0..30 {
        let (id, tokens) = first.create_gomoku(blitz(humans())).await;
        opening(&first, &id, &tokens).await;
        ids.push(id);
    }
    time.advance(10_501);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    for id in &ids {
        loop {
            // Read through the store's log, which never settles a clock itself.
            let log = second
                .get(&format!("/v1/gomoku/games/{id}/moves"))
                .await
                .expect(200);
            let flags = log
                .body
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["move"].get("timeout").is_some())
                .count();
            if flags > 0 {
                assert_eq!(flags, 1, "game {id} was flagged {flags} times");
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "game {id} was never flagged"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
