//! The GameStore contract, run unchanged against SQLite and PostgreSQL.

use crate::common;

use std::sync::Arc;

use chrono::Utc;
use parlor::games::{GameStatus, SeatKindWord};
use parlor::rating::{Rating, Standing};
use parlor::store::{
    BoardCursor, BoardQuery, BoardRow, BoardSort, Commit, DeckRecord, GameFilter, GameStore,
    HeldVersion, LobbyKind, LobbyNote, NewGame, Pairing, PlayerRecord, Rated, RatedGame, RatedSide,
    ScoreChange, ScoreHolder, SeatRow, SeekClosing, SeekRecord, StoreError, StoredState,
    TicketGrant, REPLAY_KEEP,
};
use serde_json::{json, Value};
use sqlx::types::Json;
use uuid::Uuid;

use common::Db;

async fn store(db: Db) -> Option<(Arc<dyn GameStore>, Option<tempfile::TempDir>)> {
    let (url, dir) = common::fresh_database(db).await?;
    Some((common::open_store(&url).await, dir))
}

/// A rules state as the store takes it (JSON text).
fn stored(state: Value) -> StoredState {
    serde_json::value::to_raw_value(&state).unwrap()
}

/// A stored state read back as JSON (PostgreSQL's `jsonb` keeps the value, not the spelling).
fn parsed(state: &StoredState) -> Value {
    serde_json::from_str(state.get()).unwrap()
}

fn new_game(player: &str) -> NewGame {
    NewGame {
        id: Uuid::now_v7(),
        game: "gomoku".into(),
        status: GameStatus::Active,
        turn: Some(0),
        state: stored(json!({"moves": []})),
        seats: vec![
            SeatRow {
                seat: 0,
                name: Some(player.into()),
                kind: SeatKindWord::Human,
                level: None,
                token_hash: Some(rand::random::<[u8; 32]>().to_vec()),
                player: None,
                invite_hash: None,
                reserved_for: None,
            },
            SeatRow {
                seat: 1,
                name: Some("AI".into()),
                kind: SeatKindWord::Ai,
                level: Some("hard".into()),
                token_hash: None,
                player: None,
                invite_hash: None,
                reserved_for: None,
            },
        ],
        scored_players: vec![ScoreHolder::guest(player)],
        lobby: LobbyNote {
            kind: LobbyKind::Created,
            status: GameStatus::Active,
            entry: json!({"player": player}),
        },
        at: Utc::now(),
        sweep_at_ms: None,
        options: None,
        rematch_of: None,
    }
}

fn change(game: &NewGame, expected_version: i64, mv: &str) -> Commit {
    Commit {
        game_id: game.id,
        game: game.game.clone(),
        expected_version,
        status: None,
        turn: Some(1),
        state: stored(json!({"moves": [mv]})),
        result: None,
        seat: Some(0),
        action: json!({"move": mv}),
        seats: Vec::new(),
        scores: Vec::new(),
        rating: None,
        events: json!([{"move": mv}]),
        seats_after: game.seats.clone(),
        lobby: None,
        at: Utc::now(),
        sweep_at_ms: None,
    }
}

/// Stream tickets open once, and not after they expire; a game keeps only its latest
/// [`REPLAY_KEEP`] replay rows.
async fn tickets_and_replay(store: &dyn GameStore, game: &NewGame) {
    let now = parlor::store::now();
    let grant = TicketGrant {
        target: game.id,
        seat: Some(0),
        seal: Some(vec![7; 32]),
    };
    let ticket = rand::random::<[u8; 32]>();
    store
        .issue_ticket(&ticket, grant.clone(), now + chrono::Duration::seconds(60))
        .await
        .unwrap();
    assert_eq!(
        store.take_ticket(&ticket, now).await.unwrap(),
        Some(grant.clone())
    );
    assert_eq!(
        store.take_ticket(&ticket, now).await.unwrap(),
        None,
        "twice"
    );
    let expired = rand::random::<[u8; 32]>();
    store
        .issue_ticket(&expired, grant, now - chrono::Duration::seconds(1))
        .await
        .unwrap();
    assert_eq!(store.take_ticket(&expired, now).await.unwrap(), None);

    let long = NewGame {
        scored_players: Vec::new(),
        ..new_game("long")
    };
    store.create_game(&long).await.unwrap();
    let changes = REPLAY_KEEP + 3;
    for version in 0..changes {
        store.commit(&change(&long, version, "h8")).await.unwrap();
    }
    let kept = store.changes_after(long.id, 0, 1000).await.unwrap();
    assert_eq!(kept.len() as i64, REPLAY_KEEP);
    assert_eq!(kept[0].version, changes - REPLAY_KEEP + 1);
    assert_eq!(kept.last().unwrap().version, changes);
}

fn new_seek(name: &str, expires_at: chrono::DateTime<Utc>) -> SeekRecord {
    let now = parlor::store::now();
    SeekRecord {
        id: Uuid::now_v7(),
        game: "gomoku".into(),
        options: Json(json!({"size": 15})),
        players: 2,
        seat: None,
        name: name.into(),
        player: None,
        rating: Some(1500.0),
        rating_min: Some(1400.0),
        rating_max: None,
        secret_hash: rand::random::<[u8; 32]>().to_vec(),
        status: "open".into(),
        game_id: None,
        paired_seat: None,
        created_at: now,
        expires_at,
        closed_at: None,
    }
}

fn closing(seek: &SeekRecord, status: &'static str) -> SeekClosing {
    SeekClosing {
        id: seek.id,
        status,
        entry: json!({"id": seek.id, "status": status}),
    }
}

/// A game of paired seeks, kept off the listing and leaderboard checks' players.
fn seek_game() -> NewGame {
    NewGame {
        scored_players: Vec::new(),
        ..new_game("seeker")
    }
}

/// Seeks: stored as given, listed while open and unexpired, closed once, and paired all or
/// nothing: a pairing with a seek no longer open writes no game.
async fn seeks(store: &dyn GameStore) {
    let now = parlor::store::now();
    let open = new_seek("sa", now + chrono::Duration::minutes(2));
    let late = new_seek("sb", now - chrono::Duration::seconds(1));
    let other = new_seek("sc", now + chrono::Duration::minutes(2));
    for seek in [&open, &late, &other] {
        let seq = store
            .create_seek(seek, &json!({"id": seek.id}))
            .await
            .unwrap();
        let row = &store.lobby_after(seq - 1, 1).await.unwrap()[0];
        assert_eq!((row.kind.as_str(), row.game_id), ("seek_opened", seek.id));
    }
    assert_eq!(
        store.load_seek(open.id).await.unwrap().as_ref(),
        Some(&open)
    );
    let listed: Vec<Uuid> = store
        .open_seeks("gomoku", now)
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert!(listed.contains(&open.id) && !listed.contains(&late.id));
    assert!(store
        .expired_seeks(now)
        .await
        .unwrap()
        .iter()
        .any(|s| s.id == late.id));
    assert!(store
        .close_seek(&closing(&late, "expired"), now)
        .await
        .unwrap()
        .is_some());
    assert_eq!(
        store
            .close_seek(&closing(&late, "expired"), now)
            .await
            .unwrap(),
        None,
        "once"
    );
    assert!(!store.touch_seek(late.id, now).await.unwrap());
    assert!(store
        .touch_seek(open.id, now + chrono::Duration::minutes(3))
        .await
        .unwrap());

    // A pairing that includes a closed seek is refused whole.
    let refused = Pairing {
        seats: vec![(closing(&open, "paired"), 0), (closing(&late, "paired"), 1)],
        game: seek_game(),
    };
    assert!(matches!(
        store.pair_seeks(&refused).await,
        Err(StoreError::Conflict)
    ));
    assert!(store
        .load_game(refused.game.id, None)
        .await
        .unwrap()
        .is_none());
    assert_eq!(
        store.load_seek(open.id).await.unwrap().unwrap().status,
        "open"
    );
    let paired = Pairing {
        seats: vec![
            (closing(&open, "paired"), 1),
            (closing(&other, "paired"), 0),
        ],
        game: seek_game(),
    };
    store.pair_seeks(&paired).await.unwrap();
    let after = store.load_seek(open.id).await.unwrap().unwrap();
    assert_eq!(
        (after.status.as_str(), after.game_id, after.paired_seat),
        ("paired", Some(paired.game.id), Some(1))
    );
    assert!(store
        .load_game(paired.game.id, None)
        .await
        .unwrap()
        .is_some());
    let again = Pairing {
        seats: vec![
            (closing(&open, "paired"), 0),
            (closing(&other, "paired"), 1),
        ],
        game: seek_game(),
    };
    assert!(
        matches!(store.pair_seeks(&again).await, Err(StoreError::Conflict)),
        "once"
    );
    // A closed seek reads as "version 1" for the streams that watch it.
    let versions = store.versions(&[open.id, late.id]).await.unwrap();
    assert_eq!(versions.len(), 2);
    assert!(versions.iter().all(|(_, v)| *v == 1));
}

async fn contract(db: Db) {
    let Some((store, _dir)) = store(db).await else {
        return;
    };
    store.ping().await.unwrap();
    let player = format!("p{}", rand::random::<u32>());
    let game = new_game(&player);
    let announced = store.create_game(&game).await.unwrap();

    // The lobby announces the listed game, in the same transaction.
    let seq = announced.expect("a listed game is announced");
    let lobby = store.lobby_after(seq - 1, 1).await.unwrap();
    assert_eq!(
        (lobby[0].game_id, lobby[0].kind.as_str()),
        (game.id, "created")
    );
    assert_eq!(lobby[0].entry.0, json!({"player": player}));
    assert!(store.lobby_head().await.unwrap() >= seq);
    tickets_and_replay(&*store, &game).await;
    seeks(&*store).await;

    // Round trip.
    let loaded = store.load_game(game.id, None).await.unwrap().unwrap();
    assert_eq!(loaded.row.version, 0);
    assert_eq!(
        parsed(&loaded.row.state.as_ref().unwrap().0),
        parsed(&game.state)
    );
    assert_eq!(loaded.seats, game.seats);
    assert!(store
        .load_game(Uuid::now_v7(), None)
        .await
        .unwrap()
        .is_none());
    assert!(store
        .token_known(game.seats[0].token_hash.as_ref().unwrap())
        .await
        .unwrap());
    assert!(!store.token_known(&[7u8; 32]).await.unwrap());
    let stats = store
        .player_stats(&ScoreHolder::guest(&player))
        .await
        .unwrap();
    assert_eq!((stats[0].score, stats[0].wins), (1000, 0));

    // Compare-and-swap: the first writer at version 0 wins, a second at version 0 conflicts and
    // leaves nothing behind (no log entry, no score change).
    store.commit(&change(&game, 0, "h8")).await.unwrap();
    let mut stale = change(&game, 0, "a1");
    stale.scores.push(ScoreChange {
        holder: ScoreHolder::guest(&player),
        delta: 100,
        win: true,
        loss: false,
        draw: false,
    });
    assert!(matches!(
        store.commit(&stale).await,
        Err(StoreError::Conflict)
    ));
    let after = store.load_game(game.id, None).await.unwrap().unwrap();
    assert_eq!(after.row.version, 1);
    // What a stream replays: the change's row with its events and seats (without their hashes);
    // the conflicting change left none.
    let replay = store.changes_after(game.id, 0, 10).await.unwrap();
    assert_eq!(replay.len(), 1);
    assert_eq!(replay[0].version, 1);
    assert_eq!(replay[0].events.0, json!([{"move": "h8"}]));
    assert_eq!(parsed(&replay[0].state.0), json!({"moves": ["h8"]}));
    assert_eq!(replay[0].seats.0.len(), 2);
    assert!(replay[0].seats.0.iter().all(|s| s.token_hash.is_none()));
    assert_eq!(
        store.versions(&[game.id, Uuid::now_v7()]).await.unwrap(),
        vec![(game.id, 1)]
    );
    // A change that names no status keeps the stored one.
    assert_eq!(after.row.status, GameStatus::Active);
    assert_eq!(
        parsed(&after.row.state.as_ref().unwrap().0),
        json!({"moves": ["h8"]})
    );

    // A reader that holds this version gets the row without its state; any other version, or
    // the same version at another time, brings the state.
    let held = HeldVersion {
        version: after.row.version,
        updated_at: after.row.updated_at,
    };
    let known = store.load_game(game.id, Some(held)).await.unwrap().unwrap();
    assert!(
        known.row.state.is_none(),
        "the held version's state was sent"
    );
    assert_eq!(
        (known.row.version, known.row.updated_at),
        (held.version, held.updated_at)
    );
    let older = HeldVersion { version: 0, ..held };
    let other_time = HeldVersion {
        updated_at: held.updated_at + chrono::Duration::microseconds(1),
        ..held
    };
    for stale in [older, other_time] {
        let fresh = store
            .load_game(game.id, Some(stale))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            parsed(&fresh.row.state.expect("a stale holder gets the state").0),
            json!({"moves": ["h8"]})
        );
    }
    assert_eq!(
        store
            .player_stats(&ScoreHolder::guest(&player))
            .await
            .unwrap()[0]
            .score,
        1000
    );

    // A finishing commit moves the score in the same transaction.
    let mut finish = change(&game, 1, "i8");
    finish.status = Some(GameStatus::Finished);
    finish.turn = None;
    finish.result = Some(json!({"winners": [0], "reason": "five_in_row", "summary": ""}));
    finish.scores.push(ScoreChange {
        holder: ScoreHolder::guest(&player),
        delta: 100,
        win: true,
        loss: false,
        draw: false,
    });
    store.commit(&finish).await.unwrap();
    let s = &store
        .player_stats(&ScoreHolder::guest(&player))
        .await
        .unwrap()[0];
    assert_eq!((s.score, s.wins, s.losses, s.draws), (1100, 1, 0, 0));
    let done = store.load_game(game.id, None).await.unwrap().unwrap();
    assert_eq!(done.row.status, GameStatus::Finished);
    assert_eq!(done.row.result.unwrap().0["winners"], json!([0]));

    // The log is gapless and ordered.
    let log = store.move_log(game.id, 0, 1000).await.unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(log[0].action.0, json!({"move": "h8"}));

    // Listing: filters and the id cursor.
    let second = new_game(&player);
    store.create_game(&second).await.unwrap();
    let all = store
        .list_games(&GameFilter {
            player: Some(player.clone()),
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        all.iter().map(|g| g.row.id).collect::<Vec<_>>(),
        vec![second.id, game.id]
    );
    let older = store
        .list_games(&GameFilter {
            player: Some(player.clone()),
            before: Some(second.id),
            status: Some(GameStatus::Finished),
            game: Some("gomoku".into()),
            limit: 10,
        })
        .await
        .unwrap();
    assert_eq!(older.len(), 1);
    assert_eq!(older[0].row.id, game.id);
    assert_eq!(older[0].seats.len(), 2);

    leaderboard_order(store.as_ref(), &player).await;

    // Decks: compare-and-swap too.
    let now = Utc::now();
    let deck = DeckRecord {
        id: Uuid::now_v7(),
        version: 0,
        state: Json(json!({"cards": 57})),
        owner_token_hash: Some(vec![7; 32]),
        created_at: now,
        updated_at: now,
    };
    store.create_deck(&deck).await.unwrap();
    let mut next = deck.clone();
    next.state = Json(json!({"cards": 56}));
    store.save_deck(&next, 0).await.unwrap();
    assert!(matches!(
        store.save_deck(&next, 0).await,
        Err(StoreError::Conflict)
    ));
    let loaded = store.load_deck(deck.id).await.unwrap().unwrap();
    assert_eq!((loaded.version, loaded.state.0), (1, json!({"cards": 56})));
}

/// Four more players finish games with distinct score changes (and two tie, to check the
/// tie-break by name); the leaderboard lists all five best first, exactly.
async fn leaderboard_order(store: &dyn GameStore, first: &str) {
    let tag = rand::random::<u32>();
    // (name, score change): the ties are broken by name, so "b…" is listed before "c…".
    let changes = [
        (format!("a{tag}"), -300),
        (format!("c{tag}"), 200),
        (format!("d{tag}"), 500),
        (format!("b{tag}"), 200),
    ];
    for (name, delta) in &changes {
        let game = new_game(name);
        store.create_game(&game).await.unwrap();
        let mut end = change(&game, 0, "h8");
        end.status = Some(GameStatus::Finished);
        end.turn = None;
        end.scores.push(ScoreChange {
            holder: ScoreHolder::guest(name),
            delta: *delta,
            win: *delta > 0,
            loss: *delta < 0,
            draw: false,
        });
        store.commit(&end).await.unwrap();
    }
    let board = store.leaderboard(&by_score(1000, None)).await.unwrap();
    let listed: Vec<(&str, i64)> = board
        .iter()
        .map(|p| (p.name.as_str(), p.score.unwrap()))
        .collect();
    let expected = vec![
        (changes[2].0.as_str(), 1500),
        (changes[3].0.as_str(), 1200),
        (changes[1].0.as_str(), 1200),
        (first, 1100),
        (changes[0].0.as_str(), 700),
    ];
    assert_eq!(listed, expected, "best first, ties by name");
    // The limit cuts from the bottom.
    let top = store.leaderboard(&by_score(2, None)).await.unwrap();
    assert_eq!(
        top.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        vec![expected[0].0, expected[1].0]
    );
    // A page starts after the cursor's (score, key): the tie at 1200 is split by the rows' keys,
    // a guest's `guest:<name>`.
    assert_eq!(top[1].key, format!("guest:{}", expected[1].0));
    let after = BoardCursor {
        value: 1200.0,
        name: top[1].key.clone(),
    };
    let page = store.leaderboard(&by_score(2, Some(after))).await.unwrap();
    assert_eq!(
        page.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        vec![expected[2].0, expected[3].0]
    );
    assert!(top.iter().all(|p| !p.registered && p.rating.is_none()));
    let mut poker = by_score(10, None);
    poker.game = "poker".into();
    assert!(store.leaderboard(&poker).await.unwrap().is_empty());
    players_and_ratings(store, &tag.to_string()).await;
}

fn by_score(limit: i64, after: Option<BoardCursor>) -> BoardQuery {
    BoardQuery {
        game: "gomoku".into(),
        sort: BoardSort::Score,
        registered_only: false,
        after,
        limit,
    }
}

/// Registration is unique by canonical name and by key; a rated game's commit moves both
/// players' ratings, from the ratings stored at that moment.
async fn players_and_ratings(store: &dyn GameStore, tag: &str) {
    let player = |name: &str| PlayerRecord {
        canonical: format!("{name}{tag}").to_lowercase(),
        name: format!("{name}{tag}"),
        key_hash: rand::random::<[u8; 32]>().to_vec(),
        created_at: parlor::store::now(),
    };
    let (ann, ben) = (player("Ann"), player("Ben"));
    store.register_player(&ann).await.unwrap();
    store.register_player(&ben).await.unwrap();
    let mut twin = player("ANN");
    twin.name = format!("ann-twin{tag}");
    assert!(matches!(
        store.register_player(&twin).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.player_by_key(&ann.key_hash).await.unwrap().as_ref(),
        Some(&ann)
    );
    assert_eq!(store.player_by_key(&[7; 32]).await.unwrap(), None);
    assert_eq!(
        store
            .registered_player(&ben.canonical)
            .await
            .unwrap()
            .as_ref(),
        Some(&ben)
    );
    let mut game = new_game(&ann.name);
    game.seats[0].player = Some(ann.canonical.clone());
    game.seats[1] = SeatRow {
        seat: 1,
        name: Some(ben.name.clone()),
        kind: SeatKindWord::Human,
        level: None,
        token_hash: Some(rand::random::<[u8; 32]>().to_vec()),
        player: Some(ben.canonical.clone()),
        invite_hash: None,
        reserved_for: None,
    };
    store.create_game(&game).await.unwrap();
    for (version, winner) in [(0, 1.0), (1, 0.0)] {
        let mut end = change(&game, version, "h8");
        end.rating = Some(RatedGame {
            sides: vec![
                RatedSide {
                    who: Rated::Player(ann.canonical.clone()),
                    points: winner,
                },
                RatedSide {
                    who: Rated::Player(ben.canonical.clone()),
                    points: 1.0 - winner,
                },
            ],
        });
        store.commit(&end).await.unwrap();
    }
    let ann_rating = &store.ratings(&ann.canonical).await.unwrap()[0];
    let ben_rating = &store.ratings(&ben.canonical).await.unwrap()[0];
    assert_eq!((ann_rating.games, ben_rating.games), (2, 2));
    // One win each from 1500/350: the second game started from the first one's ratings, so
    // neither is back at 1500, and the deviations shrank twice.
    let first = parlor::rating::after_game(&[
        Standing {
            before: Rating::NEW,
            points: 1.0,
        },
        Standing {
            before: Rating::NEW,
            points: 0.0,
        },
    ]);
    let second = parlor::rating::after_game(&[
        Standing {
            before: first[0],
            points: 0.0,
        },
        Standing {
            before: first[1],
            points: 1.0,
        },
    ]);
    assert!(
        (ann_rating.rating - second[0].rating).abs() < 1e-6,
        "{ann_rating:?}"
    );
    assert!((ben_rating.deviation - second[1].deviation).abs() < 1e-6);
    let mut by_rating = by_score(100, None);
    by_rating.sort = BoardSort::Rating;
    by_rating.registered_only = true;
    let board = store.leaderboard(&by_rating).await.unwrap();
    let ours: Vec<&BoardRow> = board.iter().filter(|r| r.name.ends_with(tag)).collect();
    assert_eq!(ours.len(), 2);
    assert!(ours
        .iter()
        .all(|r| r.registered && r.rated_games == Some(2)));
    assert!(ours[0].rating >= ours[1].rating);
}

#[actix_web::test]
async fn sqlite_store_keeps_the_contract() {
    contract(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_store_keeps_the_contract() {
    contract(Db::Postgres).await;
}

/// A state that grows at its end, as Go's packed move list: `n` moves, then a redo line.
fn growing(n: usize, redo: &str) -> StoredState {
    raw(format!(
        r#"{{"options":{{"size":19}},"moves":"{}","redo":"{redo}"}}"#,
        "Bdd".repeat(n)
    ))
}

fn raw(text: String) -> StoredState {
    serde_json::value::RawValue::from_string(text).unwrap()
}

/// The state as loaded.
async fn loaded_state(store: &dyn GameStore, id: Uuid) -> Value {
    let record = store.load_game(id, None).await.unwrap().unwrap();
    parsed(&record.row.state.expect("a state").0)
}

/// A game's state loads back as it was written through every kind of change: growth, an undo
/// that shortens it, a change at its start. A conflicting write leaves it alone; a holder of the
/// version gets no state.
async fn states_load_as_written(db: Db) {
    let Some((url, _dir)) = common::fresh_database(db).await else {
        return;
    };
    let store = common::open_store(&url).await;
    let mut game = new_game("growing");
    game.state = growing(400, "");
    store.create_game(&game).await.unwrap();
    assert_eq!(loaded_state(&*store, game.id).await, parsed(&game.state));

    let first_move_changed = raw(growing(330, "").get().replacen("Bdd", "Bee", 1));
    let steps = [
        growing(401, ""),
        growing(700, ""),
        growing(300, "Wpp"),
        first_move_changed,
        growing(10, ""),
        growing(500, ""),
    ];
    let version = steps.len() as i64;
    for (step, state) in steps.into_iter().enumerate() {
        let mut commit = change(&game, step as i64, "x");
        commit.state = state;
        store.commit(&commit).await.unwrap();
        assert_eq!(
            loaded_state(&*store, game.id).await,
            parsed(&commit.state),
            "after change {}",
            step + 1
        );
    }

    // A stale write changes nothing.
    let mut stale = change(&game, version - 1, "y");
    stale.state = growing(900, "");
    assert!(matches!(
        store.commit(&stale).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        loaded_state(&*store, game.id).await,
        parsed(&growing(500, ""))
    );

    // The holder of the version gets no state.
    let row = store.load_game(game.id, None).await.unwrap().unwrap().row;
    let held = HeldVersion {
        version: row.version,
        updated_at: row.updated_at,
    };
    assert!(store
        .load_game(game.id, Some(held))
        .await
        .unwrap()
        .unwrap()
        .row
        .state
        .is_none());
}

#[actix_web::test]
async fn sqlite_loads_states_as_written() {
    states_load_as_written(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_loads_states_as_written() {
    states_load_as_written(Db::Postgres).await;
}

/// Many writers racing on one game through the store: exactly one commit per version.
async fn racing_commits(db: Db) {
    let Some((store, _dir)) = store(db).await else {
        return;
    };
    let game = new_game("racer");
    store.create_game(&game).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..16 {
        let store = store.clone();
        let commit = change(&game, 0, &format!("m{i}"));
        tasks.push(tokio::spawn(async move { store.commit(&commit).await }));
    }
    let mut won = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => won += 1,
            Err(StoreError::Conflict) | Err(StoreError::Unavailable(_)) => {}
            Err(other) => panic!("unexpected: {other}"),
        }
    }
    assert_eq!(won, 1);
    assert_eq!(store.move_log(game.id, 0, 1000).await.unwrap().len(), 1);
}

#[actix_web::test]
async fn sqlite_commits_race_safely() {
    racing_commits(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_commits_race_safely() {
    racing_commits(Db::Postgres).await;
}

/// Seat kinds, AI levels and statuses are closed sets in the database too: a row naming anything
/// else is refused, so no reader ever meets an unknown word and takes it for a human seat.
async fn unknown_words_are_refused(db: Db) {
    let Some((url, _dir)) = common::fresh_database(db).await else {
        return;
    };
    let store = common::open_store(&url).await;
    let game = new_game("words");
    store.create_game(&game).await.unwrap();
    // The fresh database holds this one game: each statement touches its rows.
    let statements = [
        "UPDATE seats SET kind = 'robot'",
        "UPDATE seats SET level = 'genius' WHERE kind = 'ai'",
        "UPDATE seats SET level = 'easy' WHERE kind = 'human'",
        "UPDATE games SET status = 'paused'",
    ];
    for sql in statements {
        let refused = match db {
            Db::Sqlite => {
                let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
                sqlx::query(sql).execute(&pool).await.is_err()
            }
            Db::Postgres => {
                let pool = sqlx::PgPool::connect(&url).await.unwrap();
                sqlx::query(sql).execute(&pool).await.is_err()
            }
        };
        assert!(refused, "the database took {sql}");
    }
    let stored = store
        .load_game(game.id, None)
        .await
        .unwrap()
        .expect("still there");
    assert_eq!(stored.row.status, GameStatus::Active);
}

#[actix_web::test]
async fn sqlite_refuses_unknown_words() {
    unknown_words_are_refused(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_refuses_unknown_words() {
    unknown_words_are_refused(Db::Postgres).await;
}

/// Every combination of the listing's filters, with the values bound as the store binds them.
fn listing_filters() -> Vec<GameFilter> {
    let mut filters = Vec::new();
    for game in [None, Some("uno".to_owned())] {
        for status in [None, Some(GameStatus::Waiting)] {
            for player in [None, Some("alice".to_owned())] {
                for before in [None, Some(Uuid::now_v7())] {
                    filters.push(GameFilter {
                        game: game.clone(),
                        status,
                        player: player.clone(),
                        before,
                        limit: 20,
                    });
                }
            }
        }
    }
    filters
}

/// `EXPLAIN` of one listing query, its lines joined.
async fn listing_plan<'c, DB: sqlx::Database>(
    conn: impl sqlx::Executor<'c, Database = DB>,
    explain: &str,
    filter: &GameFilter,
) -> String
where
    for<'q> <DB as sqlx::Database>::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Uuid: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    String: for<'r> sqlx::Decode<'r, DB>,
{
    use sqlx::Row;
    let sql = format!("{explain} {}", filter.listing_sql());
    let mut query = sqlx::query::<DB>(&sql);
    if let Some(game) = &filter.game {
        query = query.bind(game.clone());
    }
    if let Some(status) = filter.status {
        query = query.bind(status.as_str());
    }
    if let Some(player) = &filter.player {
        query = query.bind(player.clone());
    }
    if let Some(before) = filter.before {
        query = query.bind(before);
    }
    let rows = query.bind(filter.limit).fetch_all(conn).await.unwrap();
    // SQLite's plan has its detail in the last column, PostgreSQL's in the only one.
    rows.iter()
        .map(|row| row.try_get::<String, _>(row.len() - 1).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

#[actix_web::test]
async fn sqlite_lists_every_filter_through_an_index() {
    let (url, _dir) = common::fresh_database(Db::Sqlite).await.unwrap();
    common::open_store(&url).await; // migrates
    let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    for filter in listing_filters() {
        let plan = listing_plan(&mut conn, "EXPLAIN QUERY PLAN", &filter).await;
        // A full scan reads "SCAN games" with no index after it.
        let full_scan = plan
            .lines()
            .any(|line| line.trim() == "SCAN games" || line.trim() == "SCAN seats");
        assert!(!full_scan, "{filter:?} scans a whole table:\n{plan}");
        if filter.game.is_some() && filter.status.is_some() {
            assert!(plan.contains("games_by_game_status"), "{filter:?}:\n{plan}");
        }
    }
}

#[actix_web::test]
async fn postgres_lists_every_filter_through_an_index() {
    let Some((url, _)) = common::fresh_database(Db::Postgres).await else {
        return;
    };
    common::open_store(&url).await; // migrates
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    // An empty table is cheapest to read whole; the planner shows whether an index could serve.
    sqlx::query("SET enable_seqscan = off")
        .execute(&mut conn)
        .await
        .unwrap();
    for filter in listing_filters() {
        let plan = listing_plan(&mut conn, "EXPLAIN", &filter).await;
        assert!(
            !plan.contains("Seq Scan"),
            "{filter:?} scans a whole table:\n{plan}"
        );
        if filter.game.is_some() && filter.status.is_some() && filter.player.is_none() {
            assert!(plan.contains("games_by_game_status"), "{filter:?}:\n{plan}");
        }
    }
}

/// A game created `at`, in `status`.
fn game_at(status: GameStatus, at: chrono::DateTime<Utc>) -> NewGame {
    let mut game = new_game(&format!("sweep-{}", Uuid::now_v7().simple()));
    game.status = status;
    game.at = at;
    game
}

fn deck_at(at: chrono::DateTime<Utc>) -> DeckRecord {
    DeckRecord {
        id: Uuid::now_v7(),
        version: 0,
        state: Json(json!({"cards": []})),
        owner_token_hash: Some(rand::random::<[u8; 32]>().to_vec()),
        created_at: at,
        updated_at: at,
    }
}

/// The sweep's removals: a waiting game or a deck unchanged since before the cut-off goes (with
/// its seats), a newer one stays, and so does an old game that is not waiting; a second sweep
/// finds nothing more.
async fn sweeps(db: Db) {
    let Some((store, _dir)) = store(db).await else {
        return;
    };
    let cut_off = parlor::store::now() - chrono::Duration::hours(24);
    let old = cut_off - chrono::Duration::hours(1);
    let new = cut_off + chrono::Duration::hours(1);
    let old_waiting = game_at(GameStatus::Waiting, old);
    let new_waiting = game_at(GameStatus::Waiting, new);
    let old_active = game_at(GameStatus::Active, old);
    let old_finished = game_at(GameStatus::Finished, old);
    // Created long ago, but a seat was taken since: changed after the cut-off.
    let joined = game_at(GameStatus::Waiting, old);
    for game in [
        &old_waiting,
        &new_waiting,
        &old_active,
        &old_finished,
        &joined,
    ] {
        store.create_game(game).await.unwrap();
    }
    let mut join = change(&joined, 0, "join");
    join.at = new;
    store.commit(&join).await.unwrap();
    let old_deck = deck_at(old);
    let new_deck = deck_at(new);
    store.create_deck(&old_deck).await.unwrap();
    store.create_deck(&new_deck).await.unwrap();

    assert_eq!(store.remove_waiting_games(cut_off).await.unwrap(), 1);
    assert!(store
        .load_game(old_waiting.id, None)
        .await
        .unwrap()
        .is_none());
    let seat_token = old_waiting.seats[0].token_hash.as_deref().unwrap();
    assert!(
        !store.token_known(seat_token).await.unwrap(),
        "its seats went with it"
    );
    for kept in [&new_waiting, &old_active, &old_finished, &joined] {
        assert!(
            store.load_game(kept.id, None).await.unwrap().is_some(),
            "{:?} game kept",
            kept.status
        );
    }
    assert_eq!(store.remove_idle_decks(cut_off).await.unwrap(), 1);
    assert!(store.load_deck(old_deck.id).await.unwrap().is_none());
    assert!(store.load_deck(new_deck.id).await.unwrap().is_some());

    assert_eq!(
        store.remove_waiting_games(cut_off).await.unwrap(),
        0,
        "idempotent"
    );
    assert_eq!(store.remove_idle_decks(cut_off).await.unwrap(), 0);
}

/// The sweeper announces each listed waiting game it removes to the lobby, as aborted, so a
/// lobby's client drops it; and each seek that expires, as closed.
async fn sweeps_announce(db: Db) {
    let Some((store, _dir)) = store(db).await else {
        return;
    };
    let now = parlor::store::now();
    let stale = game_at(GameStatus::Waiting, now - chrono::Duration::hours(25));
    store.create_game(&stale).await.unwrap();
    let head = store.lobby_head().await.unwrap();
    let live = parlor::service::live::Live::new(1);
    let lobby = live.watch_lobby();
    let expiry = parlor::config::Expiry {
        waiting_games: Some(chrono::Duration::hours(24)),
        idle_decks: None,
    };
    let sweeper = parlor::service::sweep::Sweeper::new(Arc::clone(&store), expiry, live.clone());
    assert_eq!(sweeper.sweep(now).await.unwrap().waiting_games, 1);
    assert!(store.load_game(stale.id, None).await.unwrap().is_none());
    let told = store.lobby_after(head, 10).await.unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!(
        (
            told[0].game_id,
            told[0].kind.as_str(),
            told[0].status.as_str()
        ),
        (stale.id, "aborted", "aborted")
    );
    assert_eq!(told[0].entry.0["status"], "aborted");
    assert!(lobby.has_changed().unwrap(), "the lobby's watchers woke");

    // A seek nobody followed for its time is closed and announced, once.
    let seek = new_seek("late", now - chrono::Duration::seconds(1));
    store
        .create_seek(&seek, &json!({"id": seek.id}))
        .await
        .unwrap();
    let head = store.lobby_head().await.unwrap();
    assert_eq!(
        parlor::service::seeks::expire(&*store, &live, now)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        parlor::service::seeks::expire(&*store, &live, now)
            .await
            .unwrap(),
        0
    );
    let told = store.lobby_after(head, 10).await.unwrap();
    assert_eq!(
        (told.len(), told[0].kind.as_str(), told[0].status.as_str()),
        (1, "seek_closed", "expired")
    );
    assert_eq!(told[0].entry.0["status"], "expired");
    assert_eq!(
        store.load_seek(seek.id).await.unwrap().unwrap().status,
        "expired"
    );
}

#[actix_web::test]
async fn sqlite_sweeps_announce_the_games_they_remove() {
    sweeps_announce(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_sweeps_announce_the_games_they_remove() {
    sweeps_announce(Db::Postgres).await;
}

#[actix_web::test]
async fn sqlite_sweeps_expired_waiting_games_and_idle_decks() {
    sweeps(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_sweeps_expired_waiting_games_and_idle_decks() {
    sweeps(Db::Postgres).await;
}

/// Overdue clocks: only games whose `sweep_at_ms` has passed are claimed, a claim holds them for
/// its lease (a second sweeper finds none), and they come back once it ends; a commit that moves
/// the clock on (or stops it) takes the game out of the sweep.
async fn overdue_clocks(db: Db) {
    let Some((store, _dir)) = store(db).await else {
        return;
    };
    let now = 1_000_000;
    let mut due = new_game("due");
    due.sweep_at_ms = Some(now - 1);
    let mut later = new_game("later");
    later.sweep_at_ms = Some(now + 60_000);
    let untimed = new_game("untimed");
    for game in [&due, &later, &untimed] {
        store.create_game(game).await.unwrap();
    }
    assert!(store.any_overdue(now).await.unwrap());
    let claimed = store.claim_overdue(now, 10_000, 100).await.unwrap();
    assert_eq!(claimed, vec![(due.id, "gomoku".to_owned())]);
    assert!(!store.any_overdue(now).await.unwrap(), "the claim holds it");
    assert!(store
        .claim_overdue(now, 10_000, 100)
        .await
        .unwrap()
        .is_empty());
    let after_lease = now + 10_000;
    assert_eq!(
        store.claim_overdue(after_lease, 10_000, 100).await.unwrap(),
        vec![(due.id, "gomoku".to_owned())],
        "a lease that ran out lets another sweeper take it"
    );
    let mut settled = change(&due, 0, "h8");
    settled.sweep_at_ms = None;
    store.commit(&settled).await.unwrap();
    assert_eq!(
        store
            .claim_overdue(now + 120_000, 10_000, 100)
            .await
            .unwrap(),
        vec![(later.id, "gomoku".to_owned())],
        "the settled game left the sweep; the later one is due by then"
    );
    let row = store.load_game(due.id, None).await.unwrap().unwrap().row;
    assert_eq!(row.sweep_at_ms, None);
}

#[actix_web::test]
async fn sqlite_claims_overdue_clocks() {
    overdue_clocks(Db::Sqlite).await;
}

#[actix_web::test]
async fn postgres_claims_overdue_clocks() {
    overdue_clocks(Db::Postgres).await;
}
