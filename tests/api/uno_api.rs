//! UNO over real HTTP, on SQLite and on PostgreSQL: a whole game against AIs, card effects on a
//! fixed deck, illegal plays, rooms, shouts, racing jump-ins, and hidden hands checked in every
//! answer against the stored state.

use crate::common;

use std::collections::HashSet;

use common::{Reply, TestApp};
use parlor::games::uno::{full_deck, Card, UnoGame};
use serde_json::{json, Value};

/// A deck whose top cards are `top` (top first), the rest in the standard order.
fn deck(top: &[&str]) -> Vec<String> {
    let mut rest = full_deck();
    let mut out = Vec::with_capacity(108);
    for code in top {
        let card: Card = code.parse().unwrap();
        let at = rest
            .iter()
            .position(|c| *c == card)
            .unwrap_or_else(|| panic!("no copy of {code} left"));
        out.push(rest.remove(at).to_string());
    }
    out.extend(rest.iter().map(Card::to_string));
    out
}

/// A deck that deals `hands` (7 codes per seat, as the engine deals: one card per seat per
/// round, seat 0 first), turns `start`, then offers `then` to the first draws.
pub(crate) fn dealing(hands: &[&str], start: &str, then: &[&str]) -> Vec<String> {
    let hands: Vec<Vec<&str>> = hands
        .iter()
        .map(|h| h.split_whitespace().collect())
        .collect();
    let mut top = Vec::new();
    for round in 0..7 {
        for hand in &hands {
            top.push(hand[round]);
        }
    }
    top.push(start);
    top.extend(then);
    deck(&top)
}

pub(crate) struct Game {
    id: String,
    tokens: Vec<Option<String>>,
    body: Value,
}

impl Game {
    pub(crate) fn path(&self, action: &str) -> String {
        if action.is_empty() {
            format!("/v1/uno/games/{}", self.id)
        } else {
            format!("/v1/uno/games/{}/{action}", self.id)
        }
    }

    fn token(&self, seat: usize) -> &str {
        self.tokens[seat].as_deref().expect("a human seat")
    }
}

pub(crate) async fn create(app: &TestApp, body: Value) -> Game {
    let reply = app.post("/v1/uno/games", body).await.expect(201);
    let seats = reply.body["seats"].as_array().unwrap().len();
    let mut tokens = vec![None; seats];
    for t in reply.body["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().into());
    }
    Game {
        id: reply.body["id"].as_str().unwrap().into(),
        tokens,
        body: reply.body,
    }
}

pub(crate) async fn act(app: &TestApp, game: &Game, seat: usize, body: Value) -> Reply {
    app.post_as(&game.path("moves"), body, game.token(seat))
        .await
}

pub(crate) async fn view(app: &TestApp, game: &Game, seat: usize) -> Value {
    app.get_as(&game.path(""), game.token(seat))
        .await
        .expect(200)
        .body
}

pub(crate) fn play(card: &str) -> Value {
    json!({"action": "play", "card": card})
}

fn hand(resource: &Value) -> Vec<String> {
    resource["state"]["hand"]
        .as_array()
        .expect("a hand")
        .iter()
        .map(|c| c["code"].as_str().unwrap().to_owned())
        .collect()
}

fn counts(resource: &Value) -> Vec<u64> {
    resource["state"]["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["count"].as_u64().unwrap())
        .collect()
}

fn types(events: &Value) -> Vec<String> {
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect()
}

async fn stored(app: &TestApp, game: &Game) -> UnoGame {
    let store = common::open_store(&app.database_url).await;
    let record = store
        .load_game(game.id.parse().unwrap(), None)
        .await
        .unwrap()
        .expect("stored");
    serde_json::from_str(record.row.state.as_ref().expect("a state").0.get())
        .expect("the state parses")
}

fn sorted(mut cards: Vec<String>) -> Vec<String> {
    cards.sort();
    cards
}

/// Card codes the table has shown face up, read from the stored state after each answer: the
/// discard pile and the cards its public log names. Hidden cards may share a code with one of
/// these (copies), but a code never shown must not appear in an answer outside its own hand.
#[derive(Default)]
struct Public(HashSet<String>);

impl Public {
    fn learn(&mut self, table: &UnoGame) {
        for p in table.table().discard() {
            self.0.insert(p.card.to_string());
        }
        for event in table.table().log() {
            walk(&serde_json::to_value(event).unwrap(), &mut |key, v| {
                if key == "card" {
                    self.0.insert(v.as_str().unwrap().to_owned());
                }
            });
        }
    }
}

fn walk(value: &Value, f: &mut impl FnMut(&str, &Value)) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                f(k, v);
                walk(v, f);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| walk(v, f)),
        _ => {}
    }
}

/// The answer's `state` objects (a resource, or `{"game": resource}`).
fn states(answer: &Value) -> Vec<&Value> {
    let mut found = Vec::new();
    if answer.get("state").is_some() {
        found.push(&answer["state"]);
    }
    if let Some(game) = answer.get("game").filter(|g| g.is_object()) {
        found.push(&game["state"]);
    }
    found
}

/// Checks that `answer`, given to `viewer`, holds no other seat's hand, no deck and no seed:
/// only `state.hand` names a hand, and it is the viewer's own (as stored); no array lists more
/// card codes than `recent` may; and every other card code is one the table has shown.
fn assert_private(answer: &Value, viewer: Option<usize>, table: &UnoGame, public: &Public) {
    let text = answer.to_string();
    let mut allowed = public.0.clone();
    if let Some(seat) = viewer {
        allowed.extend(table.table().hand(seat).iter().map(Card::to_string));
    }
    for state in states(answer) {
        match viewer {
            Some(seat) => {
                let own: Vec<String> = state["hand"]
                    .as_array()
                    .expect("a seat sees its hand")
                    .iter()
                    .map(|c| c["code"].as_str().unwrap().to_owned())
                    .collect();
                let stored: Vec<String> = table
                    .table()
                    .hand(seat)
                    .iter()
                    .map(Card::to_string)
                    .collect();
                assert_eq!(sorted(own), sorted(stored), "seat {seat}'s hand as stored");
            }
            None => assert!(
                state.get("hand").is_none(),
                "a spectator sees a hand: {text}"
            ),
        }
    }
    let mut hands = 0;
    walk(answer, &mut |key, v| {
        // `deck` says only where the order came from, never what it is.
        if key == "deck" {
            assert!(
                ["random", "seeded", "fixed"].contains(&v.as_str().unwrap_or_default()),
                "a deck in an answer: {text}"
            );
        }
        assert_ne!(key, "seed", "a seed in an answer: {text}");
        if key == "hand" {
            hands += 1;
        }
        if let Value::Array(items) = v {
            let codes = items
                .iter()
                .filter(|i| {
                    i.as_str().is_some_and(|s| s.parse::<Card>().is_ok()) || i.get("code").is_some()
                })
                .count();
            assert!(
                key == "hand" || codes <= 5,
                "{key} lists {codes} cards: {text}"
            );
        }
        if let Some(code) = v.as_str().filter(|_| matches!(key, "card" | "code")) {
            let code = code.parse::<Card>().unwrap().to_string();
            assert!(
                allowed.contains(&code),
                "{key} {code} was never shown face up: {text}"
            );
        }
    });
    assert!(
        hands <= states(answer).len(),
        "more hands than states: {text}"
    );
    // Other seats' hands, as their codes in order, appear nowhere.
    for seat in 0..table.table().seats() {
        if Some(seat) == viewer || table.table().hand(seat).len() < 3 {
            continue;
        }
        let codes: Vec<String> = table
            .table()
            .hand(seat)
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect();
        assert!(
            !text.contains(&codes.join(",")),
            "seat {seat}'s hand is in the answer: {text}"
        );
    }
}

/// The human's choice from its own view: jump in when it can, else play the first playable
/// card (a wild as red), else pass after a draw, else draw.
pub(crate) fn choose(state: &Value) -> Value {
    if state["can_jump_in"] == true {
        return json!({"action": "jump_in", "card": state["jump_window"]["card"]});
    }
    let playable = state["hand"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["playable"] == true);
    match playable {
        Some(card) if card["code"] == "W" || card["code"] == "W4" => {
            json!({"action": "play", "card": card["code"], "color": "red"})
        }
        Some(card) => play(card["code"].as_str().unwrap()),
        None if state["awaiting_pass"] == true => json!({"action": "pass"}),
        None => json!({"action": "draw"}),
    }
}

/// A human against three AIs with `auto_ai`, every option on, to the end; every answer
/// (create, reads as each seat and as a spectator, moves, ai-move, the log) is checked for
/// hidden cards against the stored state.
async fn human_against_three_ais_to_the_end(app: TestApp) {
    let game = create(
        &app,
        json!({
            "players": [{"name": "ann"}, {"ai": "easy"}, {"ai": "normal"}, {"ai": "normal"}],
            "rules": {"draw_then_play": true, "stacking": true, "jump_in": true, "max_hand": 14},
            "seed": "18446744073709551615",
        }),
    )
    .await;
    assert_eq!(game.body["status"], "active", "{}", game.body);
    assert_eq!(game.body["turn"], 0);
    assert!(game.tokens[1..].iter().all(Option::is_none));
    let mut public = Public::default();
    let table = stored(&app, &game).await;
    public.learn(&table);
    assert_private(&game.body, Some(0), &table, &public);
    assert_eq!(hand(&game.body).len(), 7);
    assert_eq!(counts(&game.body), vec![7, 7, 7, 7]);

    // A hint for the human seat from `hard`: its analysis is the seat's own.
    let hint = app
        .post_as(
            &game.path("ai-move"),
            json!({"level": "hard", "time_ms": 30}),
            game.token(0),
        )
        .await
        .expect(200);
    assert_eq!(hint.body["applied"], false);
    assert!(hint.body["analysis"]["playouts"].as_u64().is_some());
    assert_private(&hint.body, Some(0), &table, &public);
    app.post(&game.path("ai-move"), json!({"time_ms": 30}))
        .await
        .assert_problem(401, "unauthorized");

    let mut finished = None;
    for _ in 0..600 {
        let me = view(&app, &game, 0).await;
        let table = stored(&app, &game).await;
        public.learn(&table);
        assert_private(&me, Some(0), &table, &public);
        if me["status"] != "active" {
            finished = Some(me);
            break;
        }
        let state = &me["state"];
        let reply = if me["turn"] == 0 || state["can_jump_in"] == true {
            act(&app, &game, 0, choose(state)).await.expect(200)
        } else {
            // The server stopped for the human's jump-in chance; the human lets it go.
            assert!(state["jump_window"].is_object(), "{me}");
            app.post(&game.path("ai-move"), json!({})).await.expect(200)
        };
        let table = stored(&app, &game).await;
        public.learn(&table);
        let viewer = (reply.body["applied"].is_null()).then_some(0);
        assert_private(&reply.body, viewer, &table, &public);
        if reply.body["game"]["status"] == "active" {
            // After the human acts, the AIs have played until the human is to act or could
            // jump in.
            let after = &reply.body["game"];
            let human_turn = after["turn"] == 0;
            let window = after["state"]["jump_window"].is_object();
            assert!(human_turn || window, "the AIs stopped early: {after}");
        }
    }
    let last = finished.expect("the game ends within 600 actions");
    assert_eq!(last["status"], "finished");
    assert_eq!(last["result"]["reason"], "out_of_cards");
    let winner = last["result"]["winners"][0].as_u64().unwrap() as usize;
    assert_eq!(counts(&last)[winner], 0);
    assert_eq!(last["state"]["winner"], winner);
    assert!(last["result"]["summary"]
        .as_str()
        .unwrap()
        .contains(&format!("{} points", last["state"]["points"])));

    let spectator = app.get(&game.path("")).await.expect(200).body;
    let table = stored(&app, &game).await;
    assert_private(&spectator, None, &table, &public);
    let log = app.get(&game.path("moves")).await.expect(200).body;
    assert!(log.as_array().unwrap().len() > 10);
    public.learn(&table);
    assert_private(&log, None, &table, &public);
    for entry in log.as_array().unwrap() {
        let action = entry["move"]["action"].as_str().unwrap();
        assert!(
            ["play", "draw", "pass", "jump_in"].contains(&action),
            "{entry}"
        );
    }
}

/// Play, draw, Skip, Reverse and +2 on a fixed deck; the illegal plays' problem codes.
async fn card_effects_on_a_fixed_deck(app: TestApp) {
    let cards = dealing(
        &[
            "R5 RS RR RD2 B1 G2 Y3",
            "R6 R7 B5 G5 W B7 G7",
            "R8 R9 B9 G9 Y9 B8 G8",
        ],
        "R3",
        &["Y7"],
    );
    let game = create(
        &app,
        json!({"players": [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}], "deck": cards}),
    )
    .await;
    assert_eq!(
        game.body["state"]["top"],
        json!({"code": "R3", "color": "red"})
    );
    assert_eq!(
        sorted(hand(&game.body)),
        sorted(
            ["R5", "RS", "RR", "RD2", "B1", "G2", "Y3"]
                .map(String::from)
                .to_vec()
        )
    );
    assert_eq!(game.body["state"]["deck_count"], 108 - 21 - 1);

    act(&app, &game, 1, play("R7"))
        .await
        .assert_problem(409, "not_your_turn");
    act(&app, &game, 0, json!({"action": "pass"}))
        .await
        .assert_problem(422, "illegal_move");
    act(&app, &game, 0, play("G5"))
        .await
        .assert_problem(422, "illegal_move");
    act(&app, &game, 0, play("B1"))
        .await
        .assert_problem(422, "illegal_move");

    let r = act(&app, &game, 0, play("R5")).await.expect(200);
    assert_eq!(r.body["game"]["turn"], 1);
    assert_eq!(types(&r.body["events"]), ["played"]);
    act(&app, &game, 1, play("R7")).await.expect(200);
    act(&app, &game, 2, play("R9")).await.expect(200);

    // Skip: seat 1 loses its turn.
    let r = act(&app, &game, 0, play("RS")).await.expect(200);
    assert_eq!(types(&r.body["events"]), ["played", "skipped"]);
    assert_eq!(r.body["events"][1]["seat"], 1);
    assert_eq!(r.body["game"]["turn"], 2);
    act(&app, &game, 2, play("R8")).await.expect(200);

    // Reverse: counterclockwise, so seat 2 acts after seat 0.
    let r = act(&app, &game, 0, play("RR")).await.expect(200);
    assert_eq!(r.body["game"]["state"]["direction"], "counterclockwise");
    assert_eq!(r.body["game"]["turn"], 2);

    // A draw takes the top card (Y7) and ends the turn.
    let r = act(&app, &game, 2, json!({"action": "draw"}))
        .await
        .expect(200);
    assert_eq!(
        r.body["events"][0],
        json!({"type": "drew", "seat": 2, "count": 1, "penalty": false})
    );
    assert!(hand(&r.body["game"]).contains(&"Y7".to_owned()));
    assert_eq!(r.body["game"]["turn"], 1);
    act(&app, &game, 1, play("R6")).await.expect(200);

    // +2: seat 2 (next, counterclockwise) draws two and is skipped.
    let r = act(&app, &game, 0, play("RD2")).await.expect(200);
    assert_eq!(types(&r.body["events"]), ["played", "drew", "skipped"]);
    assert_eq!(r.body["events"][1]["count"], 2);
    assert_eq!(r.body["events"][1]["penalty"], true);
    assert_eq!(r.body["game"]["turn"], 1);
    assert_eq!(counts(&r.body["game"]), vec![3, 5, 8]);

    // Wild without a colour, a card not held, a colour on a coloured card.
    act(&app, &game, 1, play("W"))
        .await
        .assert_problem(422, "illegal_move");
    act(&app, &game, 1, play("Y1"))
        .await
        .assert_problem(422, "illegal_move");
    act(
        &app,
        &game,
        1,
        json!({"action": "play", "card": "B7", "color": "blue"}),
    )
    .await
    .assert_problem(422, "illegal_move");
    act(&app, &game, 1, json!({"action": "play", "card": "X9"}))
        .await
        .assert_problem(400, "invalid_request");
    let r = act(
        &app,
        &game,
        1,
        json!({"action": "play", "card": "w", "color": "blue"}),
    )
    .await
    .expect(200);
    assert_eq!(r.body["game"]["state"]["color"], "blue");
    assert_eq!(
        r.body["game"]["state"]["top"],
        json!({"code": "W", "color": "blue"})
    );
    assert_eq!(r.body["game"]["turn"], 0);
    let log = app.get(&game.path("moves")).await.expect(200).body;
    assert_eq!(
        log.as_array().unwrap().len(),
        10,
        "refused moves leave no entry"
    );

    // With two seats a Reverse acts as a Skip.
    let cards = dealing(&["RR B1 B2 B3 B4 B5 B6", "G1 G2 G3 G4 G5 G6 G7"], "R3", &[]);
    let two = create(
        &app,
        json!({"players": [{"name": "ann"}, {"name": "bob"}], "deck": cards}),
    )
    .await;
    let r = act(&app, &two, 0, play("RR")).await.expect(200);
    assert_eq!(types(&r.body["events"]), ["played", "reversed", "skipped"]);
    assert_eq!(r.body["game"]["turn"], 0);
}

/// Stacking: a +2 waits as `pending_draw`, another +2 passes the total on, `draw` takes it.
async fn stacking_passes_the_total_on(app: TestApp) {
    let cards = dealing(
        &[
            "RD2 B1 B2 B3 B4 B5 B6",
            "GD2 G1 G2 G3 G4 G5 G6",
            "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
        ],
        "R3",
        &[],
    );
    let game = create(
        &app,
        json!({"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
               "rules": {"stacking": true}, "deck": cards}),
    )
    .await;
    let r = act(&app, &game, 0, play("RD2")).await.expect(200);
    assert_eq!(types(&r.body["events"]), ["played", "draw_pending"]);
    assert_eq!(r.body["game"]["state"]["pending_draw"], 2);
    act(&app, &game, 1, play("G1"))
        .await
        .assert_problem(422, "illegal_move");
    let r = act(&app, &game, 1, play("GD2")).await.expect(200);
    assert_eq!(r.body["game"]["state"]["pending_draw"], 4);
    assert_eq!(r.body["game"]["turn"], 2);
    let r = act(&app, &game, 2, json!({"action": "draw"}))
        .await
        .expect(200);
    assert_eq!(
        r.body["events"][0],
        json!({"type": "drew", "seat": 2, "count": 4, "penalty": true})
    );
    assert_eq!(r.body["game"]["state"]["pending_draw"], 0);
    assert_eq!(r.body["game"]["turn"], 0);
    assert_eq!(counts(&r.body["game"]), vec![6, 6, 11]);
}

/// Creation refuses what the contract refuses; a seed (number or string) deals reproducibly.
async fn create_checks_seed_and_deck(app: TestApp) {
    let players = json!([{"name": "ann"}, {"name": "bob"}]);
    let full = deck(&[]);
    let post = |body: Value| app.post("/v1/uno/games", body);
    post(json!({"players": players, "deck": &full[1..]}))
        .await
        .assert_problem(422, "invalid_request");
    let mut doubled = full.clone();
    doubled[0] = "R5".into(); // one R0 short, one R5 too many
    post(json!({"players": players, "deck": doubled}))
        .await
        .assert_problem(422, "invalid_request");
    post(json!({"players": players, "deck": full, "seed": 3}))
        .await
        .assert_problem(422, "invalid_request");
    post(json!({"players": players, "seed": "three"}))
        .await
        .assert_problem(400, "invalid_request");
    post(json!({"players": [{"name": "ann"}]}))
        .await
        .assert_problem(422, "invalid_request");
    post(json!({"players": players, "rules": {"max_hand": 5}}))
        .await
        .assert_problem(422, "invalid_request");
    post(json!({"players": players, "rules": {"bluffing": true}}))
        .await
        .assert_problem(400, "invalid_request");

    let a = create(
        &app,
        json!({"players": players, "seed": "987654321987654321"}),
    )
    .await;
    let b = create(
        &app,
        json!({"players": players, "seed": 987654321987654321u64}),
    )
    .await;
    assert_eq!(hand(&a.body), hand(&b.body), "one seed, one deal");
    assert_eq!(
        hand(&view(&app, &a, 1).await),
        hand(&view(&app, &b, 1).await)
    );
    assert!(!a.body.to_string().contains("987654321987654321"));
    let ten: Vec<Value> = (0..10).map(|i| json!({"name": format!("p{i}")})).collect();
    let big = create(&app, json!({"players": ten})).await;
    assert_eq!(counts(&big.body), vec![7; 10]);
}

/// A room: open seats joined one by one (409 when full), a manual start, then the end.
async fn a_room_joins_starts_and_ends(app: TestApp) {
    let game = create(
        &app,
        json!({"players": [{"name": "ann"}, {"open": true}, {"open": true}], "start": false}),
    )
    .await;
    assert_eq!(game.body["status"], "waiting");
    assert_eq!(game.body["state"]["status"], "waiting");
    assert_eq!(game.body["turn"], Value::Null);
    assert_eq!(hand(&game.body), Vec::<String>::new());
    act(&app, &game, 0, json!({"action": "draw"}))
        .await
        .assert_problem(409, "not_started");
    app.post_as(&game.path("start"), json!({}), game.token(0))
        .await
        .assert_problem(409, "conflict");

    let mut tokens = vec![game.token(0).to_owned()];
    for (i, name) in ["bob", "cy"].into_iter().enumerate() {
        let joined = app
            .post(&game.path("join"), json!({"name": name}))
            .await
            .expect(200);
        assert_eq!(joined.body["seat"], i + 1);
        assert_eq!(
            joined.body["game"]["status"], "waiting",
            "start: false waits"
        );
        tokens.push(joined.body["token"].as_str().unwrap().to_owned());
    }
    app.post(&game.path("join"), json!({"name": "dee"}))
        .await
        .assert_problem(409, "conflict");

    let started = app
        .post_as(&game.path("start"), json!({}), &tokens[1])
        .await
        .expect(200);
    assert_eq!(started.body["game"]["status"], "active");
    assert_eq!(types(&started.body["events"])[0], "dealt");
    let table = stored(&app, &game).await;
    let mut public = Public::default();
    public.learn(&table);
    assert_private(&started.body, Some(1), &table, &public);
    for (seat, token) in tokens.iter().enumerate() {
        let mine = app.get_as(&game.path(""), token).await.expect(200).body;
        assert_private(&mine, Some(seat), &table, &public);
        assert_eq!(hand(&mine).len(), 7);
    }
    app.post_as(&game.path("start"), json!({}), &tokens[0])
        .await
        .assert_problem(409, "conflict");

    let ended = app
        .post_as(&game.path("end"), json!({}), &tokens[2])
        .await
        .expect(200);
    assert_eq!(ended.body["game"]["status"], "aborted");
    assert_eq!(ended.body["game"]["result"]["reason"], "aborted");
    assert_eq!(types(&ended.body["events"]), ["aborted", "game_over"]);
    app.post_as(&game.path("moves"), json!({"action": "draw"}), &tokens[0])
        .await
        .assert_problem(409, "game_over");
}

/// A shout reaches its recipient alone; once per turn, never to oneself, at most 200 characters.
async fn a_shout_reaches_only_its_recipient(app: TestApp) {
    let game = create(
        &app,
        json!({"players": [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}], "seed": 5}),
    )
    .await;
    let messages = game.path("messages");
    let shout = |from: usize, to: usize, text: &str| {
        app.post_as(&messages, json!({"to": to, "text": text}), game.token(from))
    };
    let secret = "psst: play blue, bob";
    let r = shout(0, 1, secret).await.expect(200);
    assert_eq!(
        r.body["events"],
        json!([{"type": "shouted", "from": 0, "to": 1}])
    );
    assert!(
        !r.text.contains(secret),
        "the sender's answer holds the text"
    );
    shout(0, 2, "again")
        .await
        .assert_problem(422, "illegal_move");
    shout(1, 1, "me").await.assert_problem(422, "illegal_move");
    shout(1, 0, &"x".repeat(201))
        .await
        .assert_problem(422, "invalid_request");
    shout(1, 7, "nobody")
        .await
        .assert_problem(422, "invalid_request");
    // Shouts follow the name rules: no terminal escapes, no reordering or invisible characters.
    for hidden in [
        "\u{1b}[2Jgotcha",
        "\u{202e}evil",
        "UNO\u{200b}!",
        "bell\u{7}",
    ] {
        shout(1, 0, hidden)
            .await
            .assert_problem(422, "invalid_request");
    }
    shout(1, 0, &"é".repeat(200)).await.expect(200);

    let bob = view(&app, &game, 1).await;
    assert_eq!(
        bob["state"]["messages"],
        json!([{"from": 0, "text": secret}])
    );
    for other in [
        view(&app, &game, 0).await,
        view(&app, &game, 2).await,
        app.get(&game.path("")).await.expect(200).body,
        app.get(&game.path("moves")).await.expect(200).body,
    ] {
        assert!(!other.to_string().contains("psst"), "{other}");
    }
    // The allowance comes back after the shouter draws.
    act(&app, &game, 0, json!({"action": "draw"}))
        .await
        .expect(200);
    shout(0, 2, "now again").await.expect(200);
}

/// Three seats where seat 2 holds seat 0's R7 and R4 (and seat 1 an R2), on an R3: a table of
/// jump-ins.
pub(crate) fn jump_in_deck() -> Vec<String> {
    dealing(
        &[
            "R7 R4 B2 B3 B4 B5 B6",
            "G1 G2 G3 G4 G5 G6 R2",
            "R7 R4 Y2 Y3 Y4 Y5 Y6",
        ],
        "R3",
        &[],
    )
}

/// Two jump-ins racing on one card: one wins, the other gets 409. Then a jump-in racing the
/// next seat's play: again one wins, the other 409.
async fn racing_jump_ins(app: TestApp) {
    let cards = jump_in_deck();
    let game = create(
        &app,
        json!({"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
               "rules": {"jump_in": true}, "deck": cards}),
    )
    .await;
    let r = act(&app, &game, 0, play("R7")).await.expect(200);
    assert_eq!(
        r.body["game"]["state"]["jump_window"],
        json!({"card": "R7", "seat": 0})
    );
    assert_eq!(view(&app, &game, 2).await["state"]["can_jump_in"], true);
    assert_eq!(view(&app, &game, 1).await["state"]["can_jump_in"], false);
    act(&app, &game, 1, json!({"action": "jump_in", "card": "R7"}))
        .await
        .assert_problem(422, "illegal_move");

    let jump = json!({"action": "jump_in", "card": "R7"});
    let (a, b) = tokio::join!(
        act(&app, &game, 2, jump.clone()),
        act(&app, &game, 2, jump.clone())
    );
    let (won, lost) = if a.status == 200 { (a, b) } else { (b, a) };
    assert_eq!(won.status, 200, "{}", won.text);
    lost.assert_problem(409, "conflict");
    assert_eq!(types(&won.body["events"]), ["jumped_in"]);
    assert_eq!(won.body["game"]["turn"], 0, "the jumper's next seat acts");
    assert_eq!(counts(&won.body["game"]), vec![6, 7, 6]);

    act(&app, &game, 0, play("R4")).await.expect(200);
    let (a, b) = tokio::join!(
        act(&app, &game, 2, json!({"action": "jump_in", "card": "R4"})),
        act(&app, &game, 1, play("R2"))
    );
    let wins = [&a, &b].iter().filter(|r| r.status == 200).count();
    assert_eq!(wins, 1, "{} / {}", a.text, b.text);
    let lost = if a.status == 200 { &b } else { &a };
    assert_eq!(lost.status, 409, "{}", lost.text);
    assert!(["conflict", "not_your_turn"].contains(&lost.body["code"].as_str().unwrap()));
    let log = app.get(&game.path("moves")).await.expect(200).body;
    assert_eq!(log.as_array().unwrap().len(), 4);
}

/// What the server does shows nothing hidden: it stops for a jump-in chance on a card whose
/// twin nobody has seen, though no human holds it (here the deck does), never on a 0 (one copy);
/// a draw by choice under `draw_then_play` waits for `pass` whether or not the card fits, for AI
/// seats and humans alike.
async fn stops_and_draws_follow_public_facts_only(app: TestApp) {
    let cards = dealing(
        &[
            "R7 R0 B1 B2 B4 B5 B6",
            "G1 G2 G3 G4 G5 G6 G9",
            "Y1 Y2 Y3 Y4 Y5 Y6 Y9",
        ],
        "R3",
        &["G8", "Y8", "G8", "Y8", "B9"],
    );
    let game = create(
        &app,
        json!({"players": [{"name": "ann"}, {"ai": "easy"}, {"ai": "easy"}],
               "rules": {"jump_in": true, "draw_then_play": true}, "deck": cards}),
    )
    .await;
    // The other R7 is in the deck: the server stops all the same.
    let r = act(&app, &game, 0, play("R7")).await.expect(200);
    assert_eq!(types(&r.body["events"]), ["played"], "{}", r.text);
    assert_eq!(r.body["game"]["turn"], 1);
    assert_eq!(
        r.body["game"]["state"]["jump_window"],
        json!({"card": "R7", "seat": 0})
    );
    assert_eq!(r.body["game"]["state"]["can_jump_in"], false);
    // The AI seats go on: each draws a card that does not fit and passes.
    let r = app.post(&game.path("ai-move"), json!({})).await.expect(200);
    assert_eq!(
        types(&r.body["events"]),
        ["drew", "passed", "drew", "passed"],
        "{}",
        r.text
    );
    assert_eq!(r.body["game"]["turn"], 0);
    // Nobody can jump on a 0: no stop.
    let r = act(&app, &game, 0, play("R0")).await.expect(200);
    assert_eq!(
        types(&r.body["events"]),
        ["played", "drew", "passed", "drew", "passed"],
        "{}",
        r.text
    );
    assert_eq!(r.body["game"]["turn"], 0);
    // The human draws B9, which does not fit: the turn waits for the pass, and the table sees
    // the same as after a card that fits.
    let r = act(&app, &game, 0, json!({"action": "draw"}))
        .await
        .expect(200);
    assert_eq!(types(&r.body["events"]), ["drew"]);
    let spectator = app.get(&game.path("")).await.expect(200).body;
    assert_eq!(spectator["turn"], 0);
    assert_eq!(spectator["state"]["awaiting_pass"], true);
    let mine = view(&app, &game, 0).await;
    assert!(hand(&mine).contains(&"B9".to_owned()));
    assert!(mine["state"]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["playable"] == false));
    act(&app, &game, 0, play("B9"))
        .await
        .assert_problem(422, "illegal_move");
    let r = act(&app, &game, 0, json!({"action": "pass"}))
        .await
        .expect(200);
    assert_eq!(types(&r.body["events"])[0], "passed");
}

/// A game that waits for `start` with an AI to act first: `start` deals, and the AI plays at once
/// (with `auto_ai`), so the answer leaves the human to act, as creation and `join` do.
async fn start_lets_the_ais_act_first(app: TestApp) {
    let game = create(
        &app,
        json!({"players": [{"ai": "easy"}, {"name": "host"}], "start": false, "seed": "7"}),
    )
    .await;
    assert_eq!(game.body["status"], "waiting", "{}", game.body);
    let started = app
        .post_as(&game.path("start"), json!({}), game.token(1))
        .await
        .expect(200);
    let state = &started.body["game"];
    assert!(
        state["turn"] == 1 || state["status"] == "finished",
        "the AI seat did not play after the start: {}",
        started.text
    );
    assert!(
        started.body["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["seat"] == 0),
        "no event of the AI seat: {}",
        started.text
    );
}

/// A deal fixed in advance (`seed`, `deck`) would show the creator every joiner's hand: it is
/// refused beside an open seat of any kind, allowed where the creator holds every human seat, and
/// the state says where the deck came from.
async fn a_fixed_deal_has_no_open_seat(app: TestApp) {
    let cards = full_deck().iter().map(Card::to_string).collect::<Vec<_>>();
    for open in [json!(true), json!("invite")] {
        for fixed in [json!({"seed": 42}), json!({"deck": cards})] {
            let mut body = json!({"players": [{"name": "ann"}, {"open": open}]});
            body.as_object_mut()
                .unwrap()
                .extend(fixed.as_object().unwrap().clone());
            let refused = app.post("/v1/uno/games", body).await;
            refused.assert_problem(422, "invalid_request");
            assert!(refused.text.contains("open seat"), "{}", refused.text);
        }
    }
    let seeded = create(
        &app,
        json!({"players": [{"name": "ann"}, {"name": "bob"}], "seed": 42}),
    )
    .await;
    assert_eq!(seeded.body["state"]["deck"], "seeded");
    let fixed = create(
        &app,
        json!({"players": [{"name": "ann"}, {"ai": "easy"}], "deck": cards}),
    )
    .await;
    assert_eq!(fixed.body["state"]["deck"], "fixed");
    let random = create(&app, json!({"players": [{"name": "ann"}, {"open": true}]})).await;
    assert_eq!(random.body["state"]["deck"], "random");
    let read = app.get(&seeded.path("")).await.expect(200);
    assert_eq!(read.body["state"]["deck"], "seeded");
    // A test table may fix the deal for invited guests only, who see that it is fixed.
    let test = json!({"players": [{"name": "ann"}, {"open": true}], "seed": 42, "test": true});
    app.post("/v1/uno/games", test)
        .await
        .assert_problem(422, "invalid_request");
    let invited =
        json!({"players": [{"name": "ann"}, {"open": "invite"}], "seed": 42, "test": true});
    let table = app.post("/v1/uno/games", invited).await.expect(201);
    assert_eq!(table.body["state"]["deck"], "seeded");
    assert_eq!(table.body["invites"].as_array().map(Vec::len), Some(1));
}

fn listed(page: &Value, game: &Game) -> bool {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == game.id.as_str())
}

/// Seats reserved by invitation or for a registered player go to them alone; a waiting game
/// whose open seats are all reserved is not listed.
async fn reserved_seats_go_to_their_guests(app: TestApp) {
    let carol = app
        .post("/v1/players", json!({"name": "carol"}))
        .await
        .expect(201)
        .body["key"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        "/v1/uno/games",
        json!({"players": [{"name": "ann"}, {"open": {"for": "nobody"}}]}),
    )
    .await
    .assert_problem(422, "invalid_request");
    let reply = app
        .post(
            "/v1/uno/games",
            json!({"players": [{"name": "ann"}, {"open": "invite"}, {"open": {"for": "carol"}}, {"open": true}]}),
        )
        .await
        .expect(201);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let invites = reply.body["invites"].as_array().unwrap().clone();
    assert_eq!(invites.len(), 1, "{}", reply.text);
    assert_eq!(invites[0]["seat"], 1);
    let code = invites[0]["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 64);
    let game = Game {
        id: reply.body["id"].as_str().unwrap().into(),
        tokens: Vec::new(),
        body: reply.body,
    };
    let lobby = "/v1/games?game=uno&status=waiting";
    assert!(
        listed(&app.get(lobby).await.expect(200).body, &game),
        "a public seat is left"
    );

    let join = game.path("join");
    // A stranger gets the public seat, not a reserved one.
    let mallory = app
        .post(&join, json!({"name": "mallory"}))
        .await
        .expect(200);
    assert_eq!(mallory.body["seat"], 3);
    assert!(
        !listed(&app.get(lobby).await.expect(200).body, &game),
        "only reserved seats are left"
    );
    assert!(!listed(&app.get("/v1/games").await.expect(200).body, &game));
    app.post(&join, json!({"name": "eve"}))
        .await
        .assert_problem(403, "forbidden");
    app.post(&join, json!({"name": "eve", "invite": "0".repeat(64)}))
        .await
        .assert_problem(403, "forbidden");
    app.post(&join, json!({"name": "eve", "invite": "x"}))
        .await
        .assert_problem(403, "forbidden");
    let bob = app
        .post(&join, json!({"name": "bob", "invite": code}))
        .await
        .expect(200);
    assert_eq!(bob.body["seat"], 1);
    assert_eq!(bob.header("cache-control"), Some("no-store"));
    // The code is spent.
    app.post(&join, json!({"name": "eve", "invite": code}))
        .await
        .assert_problem(403, "forbidden");
    let carols = app.post_as(&join, json!({}), &carol).await.expect(200);
    assert_eq!(carols.body["seat"], 2);
    assert_eq!(carols.body["game"]["status"], "active");
    assert!(listed(
        &app.get("/v1/games?game=uno").await.expect(200).body,
        &game
    ));

    // Invitations only: never listed while waiting.
    let private = create(
        &app,
        json!({"players": [{"name": "ann"}, {"open": "invite"}, {"open": "invite"}]}),
    )
    .await;
    assert_eq!(private.body["invites"].as_array().unwrap().len(), 2);
    assert!(!listed(&app.get(lobby).await.expect(200).body, &private));
}

/// A name holds one seat of a room unless the creator allows more (`seats_per_name`).
async fn a_name_holds_one_seat_unless_allowed(app: TestApp) {
    let game = create(
        &app,
        json!({"players": [{"name": "ann"}, {"open": true}, {"open": true}]}),
    )
    .await;
    let join = game.path("join");
    app.post(&join, json!({"name": "bob"})).await.expect(200);
    app.post(&join, json!({"name": "BOB"}))
        .await
        .assert_problem(409, "conflict");
    app.post(&join, json!({"name": "ann"}))
        .await
        .assert_problem(409, "conflict");
    app.post(&join, json!({"name": "cy"})).await.expect(200);

    let twice = create(
        &app,
        json!({"players": [{"name": "ann"}, {"open": true}, {"open": true}, {"open": true}], "seats_per_name": 2}),
    )
    .await;
    let join = twice.path("join");
    app.post(&join, json!({"name": "bob"})).await.expect(200);
    app.post(&join, json!({"name": "bob"})).await.expect(200);
    app.post(&join, json!({"name": "bob"}))
        .await
        .assert_problem(409, "conflict");
    app.post(
        "/v1/uno/games",
        json!({"players": [{"name": "ann"}, {"open": true}], "seats_per_name": 0}),
    )
    .await
    .assert_problem(422, "invalid_request");
}

on_both_stores!(
    start_lets_the_ais_act_first,
    a_fixed_deal_has_no_open_seat,
    reserved_seats_go_to_their_guests,
    a_name_holds_one_seat_unless_allowed,
    human_against_three_ais_to_the_end,
    card_effects_on_a_fixed_deck,
    stacking_passes_the_total_on,
    create_checks_seed_and_deck,
    a_room_joins_starts_and_ends,
    a_shout_reaches_only_its_recipient,
    racing_jump_ins,
    stops_and_draws_follow_public_facts_only,
);
