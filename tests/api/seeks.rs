//! Pairing in the lobby over real HTTP, on both databases: seeks meet by options, seats and
//! ratings; each learns its game on its own stream (by secret or by ticket) or long poll, and
//! never anybody else's token; the lobby lists seeks without secrets; and two servers on one
//! PostgreSQL database racing to pair never put one seek in two games.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::common::sse::{Event, EventStream};
use crate::common::{self, Db, TestApp};

const WAIT: Duration = Duration::from_secs(20);

/// A seek's id and secret, and the whole create answer.
struct Seeking {
    id: String,
    secret: String,
    answer: Value,
}

async fn seek(app: &TestApp, game: &str, body: Value, key: Option<&str>) -> Seeking {
    let path = format!("/v1/{game}/seeks");
    let reply = app
        .send(Method::POST, &path, Some(&body), key, &[])
        .await
        .expect(201);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let id = reply.body["seek"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        reply.header("location"),
        Some(format!("/v1/seeks/{id}").as_str())
    );
    Seeking {
        id,
        secret: reply.body["secret"].as_str().unwrap().to_owned(),
        answer: reply.body,
    }
}

async fn follow(app: &TestApp, seek: &Seeking) -> EventStream {
    let path = format!("/v1/seeks/{}/events", seek.id);
    let mut stream =
        EventStream::open(&app.client, &app.url(&path), Some(&seek.secret), None).await;
    assert_eq!(stream.status, 200);
    let first = stream.next(WAIT).await.expect("the seek first");
    assert_eq!((first.name.as_str(), first.id), ("seek", Some(0)));
    assert_eq!(first.data["status"], "open");
    stream
}

/// The `paired` event a stream ends with.
async fn paired(stream: &mut EventStream) -> Value {
    let events = stream.until_end(WAIT).await;
    match events.as_slice() {
        [Event { name, id, data }] if name == "paired" && *id == Some(1) => data.clone(),
        other => panic!("expected one `paired` event, then the end: {other:?}"),
    }
}

async fn seeks_pair_and_each_hears_on_its_own_stream(app: TestApp) {
    let mut lobby = EventStream::open(
        &app.client,
        &app.url("/v1/games/events?game=gomoku"),
        None,
        None,
    )
    .await;
    let first = lobby.next(WAIT).await.expect("the lobby first");
    assert_eq!(first.data["seeks"], json!([]));

    let ann = seek(
        &app,
        "gomoku",
        json!({"name": "ann", "options": {"size": 15}, "seat": 0}),
        None,
    )
    .await;
    assert_eq!(ann.answer["seek"]["status"], "open");
    assert_eq!(ann.answer["paired"], Value::Null);
    let mut ann_stream = follow(&app, &ann).await;
    // Other options, or the same seat asked for: no pairing.
    let other_size = seek(
        &app,
        "gomoku",
        json!({"name": "bea", "options": {"size": 13}}),
        None,
    )
    .await;
    let same_seat = seek(
        &app,
        "gomoku",
        json!({"name": "cal", "options": {"size": 15}, "seat": 0}),
        None,
    )
    .await;
    assert!(ann_stream.quiet_for(Duration::from_millis(300)).await);

    // A browser follows with a ticket (EventSource sends no headers).
    let ticket = app
        .send(
            Method::POST,
            &format!("/v1/seeks/{}/stream-ticket", same_seat.id),
            None,
            Some(&same_seat.secret),
            &[],
        )
        .await
        .expect(200);
    assert_eq!(ticket.header("cache-control"), Some("no-store"));
    let ticket = ticket.body["ticket"].as_str().unwrap().to_owned();
    let by_ticket = format!("/v1/seeks/{}/events?ticket={ticket}", same_seat.id);
    let mut cal_stream = EventStream::open(&app.client, &app.url(&by_ticket), None, None).await;
    assert_eq!(cal_stream.status, 200);
    assert_eq!(cal_stream.next(WAIT).await.unwrap().name, "seek");
    let reused = EventStream::open(&app.client, &app.url(&by_ticket), None, None).await;
    assert_eq!(reused.status, 401, "a ticket opens one stream");

    // The oldest compatible seek pairs first.
    let dee = seek(
        &app,
        "gomoku",
        json!({"name": "dee", "options": {"size": 15}}),
        None,
    )
    .await;
    let game = dee.answer["paired"]["id"]
        .as_str()
        .expect("paired at once")
        .to_owned();
    assert_eq!(dee.answer["seek"]["status"], "paired");
    assert_eq!(dee.answer["paired"]["seat"], 1);
    assert_eq!(dee.answer["paired"]["token"], dee.secret.as_str());
    let to_ann = paired(&mut ann_stream).await;
    assert_eq!(
        to_ann,
        json!({"game": "gomoku", "id": game, "seat": 0, "token": ann.secret})
    );
    // The tokens play: ann is black.
    let moved = app.gomoku_move(&game, &ann.secret, "h8").await.expect(200);
    assert_eq!(moved.body["game"]["seats"][0]["name"], "ann");
    assert_eq!(moved.body["game"]["seats"][1]["name"], "dee");
    assert_eq!(moved.body["game"]["state"]["size"], 15);
    app.gomoku_move(&game, &dee.secret, "a1").await.expect(200);

    // The ticket's stream hands back the secret it never carried in the clear.
    let eve = seek(
        &app,
        "gomoku",
        json!({"name": "eve", "options": {"size": 15}}),
        None,
    )
    .await;
    let to_cal = paired(&mut cal_stream).await;
    assert_eq!(to_cal["token"], same_seat.secret.as_str());
    assert_eq!(to_cal["seat"], 0);
    assert_eq!(eve.answer["paired"]["id"], to_cal["id"]);

    // The lobby: each seek opened and closed, each game created, and no secret anywhere.
    let mut told = Vec::new();
    while told.len() < 11 {
        told.push(lobby.next(WAIT).await.expect("an announcement"));
    }
    let kinds: Vec<&str> = told.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "seek_opened").count(),
        5,
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| **k == "seek_closed").count(),
        4,
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| **k == "created").count(),
        2,
        "{kinds:?}"
    );
    let opened = told.iter().find(|e| e.name == "seek_opened").unwrap();
    assert_eq!(opened.data["seek"]["id"], ann.id.as_str());
    let text = serde_json::to_string(&told.iter().map(|e| &e.data).collect::<Vec<_>>()).unwrap();
    for secret in [
        &ann.secret,
        &other_size.secret,
        &same_seat.secret,
        &dee.secret,
        &eve.secret,
    ] {
        assert!(
            !text.contains(secret.as_str()),
            "a secret reached the lobby"
        );
    }
    assert!(!text.contains("secret"));
    let again = EventStream::open(
        &app.client,
        &app.url("/v1/games/events?game=gomoku"),
        None,
        None,
    )
    .await
    .next(WAIT)
    .await
    .unwrap();
    let listed: Vec<&str> = again.data["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        [other_size.id.as_str()],
        "only the open seek is listed"
    );

    // The long poll: 304 while open (it keeps the seek open), the seek once it closed.
    let own = format!("/v1/seeks/{}", other_size.id);
    let polled = app
        .send(
            Method::GET,
            &format!("{own}?wait=1"),
            None,
            Some(&other_size.secret),
            &[],
        )
        .await;
    assert_eq!(polled.status, 304);
    let cancel = app
        .send(Method::DELETE, &own, None, Some(&other_size.secret), &[])
        .await;
    assert_eq!(cancel.status, 204);
    let read = app.get_as(&own, &other_size.secret).await.expect(200);
    assert_eq!(read.body["seek"]["status"], "cancelled");
    assert_eq!(read.body["paired"], Value::Null);
    let closed = lobby.next(WAIT).await.unwrap();
    assert_eq!(
        (closed.name.as_str(), &closed.data["seek"]["status"]),
        ("seek_closed", &json!("cancelled"))
    );
    let polled = app
        .send(
            Method::GET,
            &format!("/v1/seeks/{}?wait=5", ann.id),
            None,
            Some(&ann.secret),
            &[],
        )
        .await
        .expect(200);
    assert_eq!(polled.body["paired"]["token"], ann.secret.as_str());

    // Only the owner: 401 without the secret, 403 with another's, 409 cancelling a paired seek.
    app.get(&format!("/v1/seeks/{}", ann.id))
        .await
        .assert_problem(401, "unauthorized");
    app.get_as(&format!("/v1/seeks/{}", ann.id), &dee.secret)
        .await
        .assert_problem(403, "forbidden");
    app.send(
        Method::DELETE,
        &format!("/v1/seeks/{}", ann.id),
        None,
        Some(&ann.secret),
        &[],
    )
    .await
    .assert_problem(409, "conflict");
    app.get_as(&format!("/v1/seeks/{}", uuid::Uuid::now_v7()), &ann.secret)
        .await
        .assert_problem(404, "not_found");
}

async fn seeks_meet_by_rating_range_and_fill_a_table(app: TestApp) {
    let mut keys = HashMap::new();
    for name in ["rita", "sam", "tom"] {
        let reply = app
            .post("/v1/players", json!({ "name": name }))
            .await
            .expect(201);
        keys.insert(name, reply.body["key"].as_str().unwrap().to_owned());
    }
    let picky = seek(
        &app,
        "gomoku",
        json!({"rating_range": {"min": 1600}}),
        Some(&keys["rita"]),
    )
    .await;
    assert_eq!(picky.answer["seek"]["name"], "rita");
    assert_eq!(picky.answer["seek"]["rating"], 1500.0);
    // A new player (1500) is out of rita's range, and so is a guest (no rating).
    let sam = seek(&app, "gomoku", json!({}), Some(&keys["sam"])).await;
    assert_eq!(sam.answer["paired"], Value::Null);
    let guest = seek(&app, "gomoku", json!({"name": "guest"}), None).await;
    let game = guest.answer["paired"]["id"]
        .as_str()
        .expect("the guest pairs with sam");
    let seated = app
        .get(&format!("/v1/gomoku/games/{game}"))
        .await
        .expect(200);
    let names: HashSet<&str> = seated.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, HashSet::from(["sam", "guest"]));
    let tom = seek(
        &app,
        "gomoku",
        json!({"rating_range": {"max": 1400}}),
        Some(&keys["tom"]),
    )
    .await;
    assert_eq!(
        tom.answer["paired"],
        Value::Null,
        "rita (1500) is above tom's range"
    );
    let read = app
        .get_as(&format!("/v1/seeks/{}", picky.id), &picky.secret)
        .await
        .expect(200);
    assert_eq!(read.body["seek"]["status"], "open");

    // Refusals: a guest with a range, a registered name without its key, options that make no
    // game, a fixed deal, a seat the game does not have.
    let refused = [
        (
            "gomoku",
            json!({"name": "zed", "rating_range": {"min": 1}}),
            422,
            "invalid_request",
        ),
        ("gomoku", json!({"name": "rita"}), 403, "forbidden"),
        (
            "gomoku",
            json!({"name": "zed", "options": {"size": 99}}),
            422,
            "invalid_request",
        ),
        (
            "gomoku",
            json!({"name": "zed", "options": {"players": []}}),
            422,
            "invalid_request",
        ),
        (
            "gomoku",
            json!({"name": "zed", "seat": 2}),
            422,
            "invalid_request",
        ),
        (
            "gomoku",
            json!({"name": "zed", "players": 3}),
            422,
            "invalid_request",
        ),
        (
            "uno",
            json!({"name": "zed", "options": {"seed": 7}}),
            422,
            "invalid_request",
        ),
        (
            "gomoku",
            json!({"name": "zed", "colour": "black"}),
            400,
            "invalid_request",
        ),
        ("gomoku", json!({}), 422, "invalid_request"),
    ];
    for (game, body, status, code) in refused {
        app.post(&format!("/v1/{game}/seeks"), body.clone())
            .await
            .assert_problem(status, code);
    }

    // UNO for three: the third seek fills the table, each seat once.
    let mut uno = Vec::new();
    for name in ["ua", "ub", "uc"] {
        uno.push(seek(&app, "uno", json!({"name": name, "players": 3}), None).await);
    }
    let last = &uno[2].answer["paired"];
    let game = last["id"].as_str().expect("the third seek fills the table");
    let mut seats = HashSet::new();
    for seeker in &uno {
        let read = app
            .get_as(&format!("/v1/seeks/{}", seeker.id), &seeker.secret)
            .await
            .expect(200);
        assert_eq!(read.body["paired"]["id"], game);
        seats.insert(read.body["paired"]["seat"].as_u64().unwrap());
        // Each token is its seat's: the game shows that seat's hand.
        let view = app
            .get_as(&format!("/v1/uno/games/{game}"), &seeker.secret)
            .await
            .expect(200);
        assert_eq!(view.body["state"]["seat"], read.body["paired"]["seat"]);
    }
    assert_eq!(seats, HashSet::from([0, 1, 2]));
}

on_both_stores!(
    seeks_pair_and_each_hears_on_its_own_stream,
    seeks_meet_by_rating_range_and_fill_a_table,
);

/// Two servers on one PostgreSQL database pair seeks that arrive on both at once: every seek
/// lands in exactly one game, every game has two seeks.
#[actix_web::test]
async fn two_processes_racing_to_pair_never_put_a_seek_in_two_games() {
    let Some((url, _)) = common::fresh_database(Db::Postgres).await else {
        return;
    };
    let apps = [
        common::spawn_on(&url, None, common::test_config(&url)).await,
        common::spawn_on(&url, None, common::test_config(&url)).await,
    ];
    const SEEKS: usize = 40;
    let created = futures_util::future::join_all((0..SEEKS).map(|i| {
        let app = &apps[i % 2];
        async move { seek(app, "gomoku", json!({ "name": format!("p{i}") }), None).await }
    }))
    .await;
    let mut seats_by_game: HashMap<String, Vec<(u64, String)>> = HashMap::new();
    for seeker in &created {
        let read = apps[0]
            .get_as(&format!("/v1/seeks/{}", seeker.id), &seeker.secret)
            .await
            .expect(200);
        let paired = &read.body["paired"];
        let game = paired["id"]
            .as_str()
            .unwrap_or_else(|| panic!("seek {} was left open: {}", seeker.id, read.body));
        seats_by_game.entry(game.to_owned()).or_default().push((
            paired["seat"].as_u64().unwrap(),
            read.body["seek"]["name"].to_string(),
        ));
    }
    assert_eq!(seats_by_game.len(), SEEKS / 2);
    let listed = apps[1]
        .get("/v1/games?game=gomoku&limit=100")
        .await
        .expect(200);
    assert_eq!(
        listed.body["items"].as_array().unwrap().len(),
        SEEKS / 2,
        "no game more"
    );
    for (game, mut seats) in seats_by_game {
        seats.sort();
        let stored = apps[1]
            .get(&format!("/v1/gomoku/games/{game}"))
            .await
            .expect(200);
        let names: Vec<String> = stored.body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].to_string())
            .collect();
        assert_eq!(seats.iter().map(|s| s.0).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(seats.into_iter().map(|s| s.1).collect::<Vec<_>>(), names);
    }
}
