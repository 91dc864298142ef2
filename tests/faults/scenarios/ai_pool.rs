//! Scenario 4, the AI pool: when it is full an ai-move is refused at once (a certain, not a lucky, full
//! pool), and a flood of slow AI requests does not starve plain reads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};

use crate::common::{fresh_database, Db};
use crate::load::{
    assert_refused, create_games, http_client, summary, wait_until, Exchange, Record,
};
use crate::process::Parlor;
use crate::{deadline, MACHINE};

/// A refusal comes at once; one that waited for a thread would take a whole search (a second or
/// more), so this bound tells the two apart with room for a busy machine.
const REFUSED_WITHIN: Duration = Duration::from_secs(1);

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// A game of `players` (a JSON array) created through `base`: the 201's body.
async fn create_game(http: &reqwest::Client, base: &str, players: Value) -> Value {
    let r = http
        .post(format!("{base}/v1/gomoku/games"))
        .json(&json!({ "players": players }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    r.json().await.unwrap()
}

fn id_of(created: &Value) -> String {
    created["id"].as_str().unwrap().to_owned()
}

/// An AI table: its id and owner token, which its `ai-move`s need.
fn table_of(created: &Value) -> (String, String) {
    let owner = created["owner_token"].as_str().expect("an owner token");
    (id_of(created), owner.to_owned())
}

/// `ai-move` with `token` (an AI table's owner token; none for an AI seat facing a human).
async fn ai_move(ex: &Exchange<'_>, id: &str, token: Option<&str>, time_ms: u64) -> Record {
    ex.send(
        Method::POST,
        &format!("/v1/gomoku/games/{id}/ai-move"),
        format!("POST ai-move ({time_ms} ms)"),
        Some(&json!({ "time_ms": time_ms })),
        token,
        None,
    )
    .await
    .0
}

/// A human-vs-`hard` game where black has played h8: the AI's answer is a real search (no
/// opening shortcut, nothing forced), which spends at least a quarter of its budget.
async fn game_for_a_slow_search(http: &reqwest::Client, base: &str) -> String {
    let created = create_game(http, base, json!([{"name": "slow"}, {"ai": "hard"}])).await;
    let id = id_of(&created);
    let r = http
        .post(format!("{base}/v1/gomoku/games/{id}/moves"))
        .bearer_auth(created["tokens"][0]["token"].as_str().unwrap())
        .json(&json!({"move": "h8"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    id
}

/// One AI thread and no queue: while one slow search holds the thread, any other ai-move is
/// refused at once. Two slow ai-moves are sent together: the server admits the first to arrive,
/// which searches for a second or more, so the other meets a full pool, whichever came first.
async fn full_pool_refuses() {
    let _machine = MACHINE.write().await;
    let (url, _dir) = fresh_database(Db::Sqlite).await.unwrap();
    let server = Parlor::start(
        "parlor-ai-full",
        &url,
        &[("PARLOR_AI_WORKERS", "1"), ("PARLOR_AI_QUEUE", "0")],
    )
    .await;
    let http = http_client();
    let (a, b) = (
        game_for_a_slow_search(&http, &server.base).await,
        game_for_a_slow_search(&http, &server.base).await,
    );
    const SLOW_MS: u64 = 4000;
    let first = {
        let (base, a) = (server.base.clone(), a.clone());
        tokio::spawn(async move {
            let http = http_client();
            ai_move(&Exchange::new(&http, &base), &a, None, SLOW_MS).await
        })
    };
    let ex = Exchange::new(&http, &server.base);
    let second = ai_move(&ex, &b, None, SLOW_MS).await;
    let first = first.await.unwrap();
    let all = [&first, &second];
    eprintln!("full AI pool: {}; {}", first.describe(), second.describe());
    let refused: Vec<&&Record> = all.iter().filter(|r| r.status == Some(503)).collect();
    assert_eq!(
        refused.len(),
        1,
        "1 AI thread, no queue, two slow ai-moves at once: exactly one is refused"
    );
    for r in &refused {
        assert_refused(r, REFUSED_WITHIN);
    }
    for r in all.iter().filter(|r| r.status != Some(503)) {
        assert_eq!(r.status, Some(200), "{}", r.describe());
        // What filled the pool was a real search: it used its time.
        assert!(
            r.elapsed >= Duration::from_millis(SLOW_MS / 8),
            "the search that held the pool took only {:?}",
            r.elapsed
        );
    }
    // The thread is free again: the refused game's ai-move is admitted now.
    let refused_game = if first.status == Some(503) { &a } else { &b };
    let again = ai_move(&ex, refused_game, None, 50).await;
    assert_eq!(again.status, Some(200), "{}", again.describe());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_ai_pool_refuses_at_once() {
    deadline(full_pool_refuses()).await;
}

async fn ai_flood() {
    let _machine = MACHINE.write().await;
    let (url, _dir) = fresh_database(Db::Sqlite).await.unwrap();
    let server = Parlor::start(
        "parlor-ai",
        &url,
        &[("PARLOR_AI_WORKERS", "1"), ("PARLOR_AI_QUEUE", "2")],
    )
    .await;
    let base = server.base.clone();
    let http = http_client();
    let ai_vs_ai = || json!([{"ai": "hard"}, {"ai": "hard"}]);
    // One AI-vs-AI game per flooder, so flooders never race each other for a game.
    const FLOODERS: usize = 8;
    const THINK_MS: u64 = 1500;
    let mut ai_games = Vec::new();
    for _ in 0..FLOODERS {
        ai_games.push(table_of(&create_game(&http, &base, ai_vs_ai()).await));
    }
    let read_game = create_games(&http, &base, 1).await.remove(0);

    let flood_for = Duration::from_secs(5);
    let started = Instant::now();
    let refusals = Arc::new(AtomicUsize::new(0));
    let mut flooders = Vec::new();
    for (f, table) in ai_games.iter().enumerate() {
        let (base, refusals) = (base.clone(), refusals.clone());
        let (mut id, mut owner) = table.clone();
        flooders.push(tokio::spawn(async move {
            let http = http_client();
            let mut ex = Exchange::new(&http, &base);
            ex.game = f;
            let mut out = Vec::new();
            while started.elapsed() < flood_for {
                let r = ai_move(&ex, &id, Some(&owner), THINK_MS).await;
                let refused = r.status == Some(503);
                let over = r.status == Some(409) && r.code == "game_over";
                out.push(r);
                if refused {
                    refusals.fetch_add(1, Ordering::SeqCst);
                    // Pacing, so a refused flooder does not spin.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                if over {
                    // The AIs finished the game: flood a new one.
                    (id, owner) = table_of(&create_game(&http, &base, ai_vs_ai()).await);
                }
            }
            out
        }));
    }
    // Read while the pool is full: from the first refusal on. Eight flooders on 1 thread + a
    // queue of 2, each search after the opening spending at least a quarter of 1.5 s: the pool
    // fills for certain.
    wait_until("the AI pool fills", Duration::from_secs(20), || {
        (refusals.load(Ordering::SeqCst) > 0)
            .then_some(())
            .ok_or("no ai-move refused yet".into())
    })
    .await;
    let ex = Exchange::new(&http, &base);
    let mut reads = Vec::new();
    while started.elapsed() < flood_for {
        for path in [
            format!("/v1/gomoku/games/{}", read_game.id),
            "/health".into(),
        ] {
            let (r, _) = ex
                .send(Method::GET, &path, format!("GET {path}"), None, None, None)
                .await;
            reads.push(r);
        }
        // Pacing: a steady trickle of reads, not a second flood.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut ai = Vec::new();
    for f in flooders {
        ai.extend(f.await.unwrap());
    }

    for r in &reads {
        assert_eq!(
            r.status,
            Some(200),
            "a plain read during the flood: {}",
            r.describe()
        );
    }
    let mut times: Vec<Duration> = reads.iter().map(|r| r.elapsed).collect();
    times.sort();
    let (p50, p99, max) = (
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1],
    );

    let mut thought: Vec<Duration> = ai
        .iter()
        .filter(|r| r.status == Some(200))
        .map(|r| r.elapsed)
        .collect();
    thought.sort();
    let refused: Vec<&Record> = ai.iter().filter(|r| r.status == Some(503)).collect();
    let slowest_refusal = refused.iter().map(|r| r.elapsed).max().unwrap_or_default();
    let median_thought = thought.get(thought.len() / 2).copied().unwrap_or_default();
    eprintln!(
        "AI flood: {} reads p50 {p50:?} p99 {p99:?} max {max:?}; {} ai-moves answered (median {median_thought:?}), {} refused (slowest refusal {slowest_refusal:?}); {}",
        reads.len(),
        thought.len(),
        refused.len(),
        summary(&ai)
    );

    for r in &ai {
        match r.status {
            Some(200) => {}
            Some(409) if r.code == "game_over" => {}
            Some(503) => assert_refused(r, REFUSED_WITHIN),
            _ => panic!("an ai-move during the flood: {}", r.describe()),
        }
    }
    // A read that waited behind a search would take a whole search (1.5 s); the bound leaves
    // room for a busy machine and still tells the two apart.
    assert!(
        p99 < Duration::from_millis(1000),
        "plain reads starve during the AI flood: p99 {p99:?} (p50 {p50:?}, max {max:?}, {} reads)",
        reads.len()
    );
    assert!(
        reads.len() >= 20,
        "only {} reads in {flood_for:?}",
        reads.len()
    );
    assert!(
        !thought.is_empty(),
        "no ai-move was answered during the flood"
    );
    assert!(!refused.is_empty(), "the pool never refused an ai-move");
    // At most 3 admitted at a time (1 thinking, 2 waiting): about 3 budgets at worst.
    let longest = thought.last().copied().unwrap_or_default();
    assert!(
        longest < Duration::from_millis(THINK_MS * 3 + 3000),
        "an admitted ai-move took {longest:?}: the queue is longer than configured, or the AI overran its budget"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_ai_requests_do_not_starve_plain_reads() {
    deadline(ai_flood()).await;
}
