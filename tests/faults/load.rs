//! The load clients: each plays one game over HTTP (read, then move or undo, with or without
//! `If-Match`), records every exchange as it saw it, and counts acknowledged changes, requests in
//! flight and unanswered requests, which the scenarios wait on instead of sleeping.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::Method;
use serde_json::{json, Value};

use super::SIZE;

/// Polls `done` every 20 ms until it holds; panics with `what` (and what it last said) after
/// `within`. The synchronisation the scenarios use instead of sleeping for a guessed time.
pub async fn wait_until(
    what: &str,
    within: Duration,
    mut done: impl FnMut() -> Result<(), String>,
) {
    let deadline = Instant::now() + within;
    loop {
        match done() {
            Ok(()) => return,
            Err(last) if Instant::now() >= deadline => {
                panic!("{what}: not within {within:?} ({last})")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .build()
        .expect("reqwest client")
}

/// A game as `base` shows it now (anonymously).
pub async fn read_game(http: &reqwest::Client, base: &str, id: &str) -> Value {
    let r = http
        .get(format!("{base}/v1/gomoku/games/{id}"))
        .send()
        .await
        .expect("read the game");
    assert_eq!(r.status(), 200, "reading game {id}");
    r.json().await.expect("a game as JSON")
}

/// A human-vs-human Gomoku game under load.
#[derive(Clone, Debug)]
pub struct GameRef {
    pub id: String,
    pub tokens: [String; 2],
}

pub async fn create_games(http: &reqwest::Client, base: &str, n: usize) -> Vec<GameRef> {
    let mut games = Vec::new();
    for _ in 0..n {
        let tag = rand::random::<u32>();
        let r = http
            .post(format!("{base}/v1/gomoku/games"))
            // Take-backs at once (the seed's hot seat): the invariants replay an undo as one.
            .json(&json!({"size": SIZE, "takeback": "any", "players": [{"name": format!("fa{tag:08x}")}, {"name": format!("fb{tag:08x}")}]}))
            .send()
            .await
            .expect("create game");
        assert_eq!(r.status(), 201);
        let body: Value = r.json().await.unwrap();
        let mut tokens = [String::new(), String::new()];
        for t in body["tokens"].as_array().unwrap() {
            tokens[t["seat"].as_u64().unwrap() as usize] = t["token"].as_str().unwrap().into();
        }
        games.push(GameRef {
            id: body["id"].as_str().unwrap().into(),
            tokens,
        });
    }
    games
}

/// One HTTP exchange as a client saw it.
#[derive(Clone, Debug)]
pub struct Record {
    pub game: usize,
    pub server: usize,
    /// `GET game`, `POST move h8`, `POST undo` …
    pub what: String,
    pub if_match: bool,
    /// `None`: no answer (connection refused or cut, timeout).
    pub status: Option<u16>,
    pub code: String,
    pub content_type: String,
    pub retry_after: Option<String>,
    pub body: String,
    /// For a 200 on a change: the version it produced, the action as the log should hold it, and
    /// the moves the response showed.
    pub ack: Option<Ack>,
    pub error: Option<String>,
    pub elapsed: Duration,
    pub at: Instant,
}

#[derive(Clone, Debug)]
pub struct Ack {
    pub game: usize,
    pub version: i64,
    pub action: Value,
    pub moves: Vec<String>,
}

impl Record {
    pub fn describe(&self) -> String {
        format!(
            "game {} via server {}: {}{} -> {} {} ({} ms) {}",
            self.game,
            self.server,
            self.what,
            if self.if_match { " [If-Match]" } else { "" },
            self.status
                .map_or("no answer".to_string(), |s| s.to_string()),
            self.code,
            self.elapsed.as_millis(),
            self.error
                .as_deref()
                .unwrap_or(&self.body[..self.body.len().min(300)])
        )
    }
}

pub struct Exchange<'a> {
    pub http: &'a reqwest::Client,
    pub base: &'a str,
    pub game: usize,
    pub server: usize,
    /// Counts this client's requests in flight, when someone waits on that.
    pub in_flight: Option<&'a AtomicUsize>,
}

/// Decrements an in-flight counter when the exchange ends, however it ends.
struct InFlight<'a>(Option<&'a AtomicUsize>);

impl<'a> InFlight<'a> {
    fn enter(counter: Option<&'a AtomicUsize>) -> Self {
        if let Some(c) = counter {
            c.fetch_add(1, Ordering::SeqCst);
        }
        InFlight(counter)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.0 {
            c.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl<'a> Exchange<'a> {
    /// An exchange outside a [`Load`]: nobody counts it.
    pub fn new(http: &'a reqwest::Client, base: &'a str) -> Self {
        Exchange {
            http,
            base,
            game: 0,
            server: 0,
            in_flight: None,
        }
    }
}

impl Exchange<'_> {
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        what: String,
        body: Option<&Value>,
        token: Option<&str>,
        if_match: Option<i64>,
    ) -> (Record, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(body);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(v) = if_match {
            request = request.header("if-match", format!("\"{v}\""));
        }
        let at = Instant::now();
        let mut record = Record {
            game: self.game,
            server: self.server,
            what,
            if_match: if_match.is_some(),
            status: None,
            code: String::new(),
            content_type: String::new(),
            retry_after: None,
            body: String::new(),
            ack: None,
            error: None,
            elapsed: Duration::ZERO,
            at,
        };
        let _in_flight = InFlight::enter(self.in_flight);
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                record.error = Some(format!("{e:?}"));
                record.elapsed = at.elapsed();
                return (record, Value::Null);
            }
        };
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        record.content_type = header("content-type").unwrap_or_default();
        record.retry_after = header("retry-after");
        match response.text().await {
            Ok(text) => {
                record.status = Some(status);
                record.body = text;
            }
            Err(e) => record.error = Some(format!("status {status}, body cut: {e:?}")),
        }
        record.elapsed = at.elapsed();
        let value: Value = serde_json::from_str(&record.body).unwrap_or(Value::Null);
        record.code = value["code"].as_str().unwrap_or_default().to_owned();
        (record, value)
    }
}

pub fn moves_of(game: &Value) -> Vec<String> {
    game["state"]["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| m.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

pub fn point(col: u8, row: u8) -> String {
    format!("{}{}", char::from(b'a' + col), row + 1)
}

/// How a client behaves.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Chance that a change carries `If-Match` with the version just read.
    pub if_match: f64,
    /// Chance of an undo instead of a stone.
    pub undo: f64,
    /// Chance of a stone for the seat *not* to act (a 409 `not_your_turn`).
    pub wrong_seat: f64,
}

/// Reads the game, then posts one change for it: a stone on a random empty point for the seat to
/// act (sometimes the other seat), or an undo. Appends what happened to `out`.
pub async fn step(
    ex: &Exchange<'_>,
    game: &GameRef,
    style: Style,
    rng: &mut StdRng,
    out: &mut Vec<Record>,
) {
    let path = format!("/v1/gomoku/games/{}", game.id);
    let (read, state) = ex
        .send(Method::GET, &path, "GET game".into(), None, None, None)
        .await;
    let ok = read.status == Some(200);
    out.push(read);
    if !ok || state["status"] != "active" {
        return;
    }
    let version = state["version"].as_i64().expect("version");
    let turn = state["turn"].as_u64().expect("turn") as usize;
    let moves = moves_of(&state);
    let if_match = rng.gen_bool(style.if_match).then_some(version);
    let (what, action, route, seat) = if !moves.is_empty() && rng.gen_bool(style.undo) {
        (
            "POST undo".to_string(),
            json!({"action": "undo"}),
            format!("{path}/undo"),
            rng.gen_range(0..2),
        )
    } else {
        let taken: HashSet<&str> = moves.iter().map(String::as_str).collect();
        let spot = loop {
            let p = point(rng.gen_range(0..SIZE), rng.gen_range(0..SIZE));
            if !taken.contains(p.as_str()) {
                break p;
            }
        };
        let seat = if rng.gen_bool(style.wrong_seat) {
            1 - turn
        } else {
            turn
        };
        (
            format!("POST move {spot} as seat {seat}"),
            json!({"move": spot}),
            format!("{path}/moves"),
            seat,
        )
    };
    let body = (route.ends_with("/moves")).then_some(&action);
    let (mut record, reply) = ex
        .send(
            Method::POST,
            &route,
            what,
            body,
            Some(&game.tokens[seat]),
            if_match,
        )
        .await;
    if record.status == Some(200) {
        record.ack = Some(Ack {
            game: ex.game,
            version: reply["game"]["version"]
                .as_i64()
                .expect("a 200 names its version"),
            action,
            moves: moves_of(&reply["game"]),
        });
    }
    out.push(record);
}

/// What the clients of a [`Load`] have done so far, shared with the test that waits on it.
#[derive(Default)]
pub struct Progress {
    /// Acknowledged (200) changes.
    pub acks: AtomicUsize,
    /// Requests sent and not yet answered (or failed).
    pub in_flight: AtomicUsize,
    /// Requests that got no answer at all (refused, cut or timed out).
    pub unanswered: AtomicUsize,
}

impl Progress {
    pub fn acks(&self) -> usize {
        self.acks.load(Ordering::SeqCst)
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    pub fn unanswered(&self) -> usize {
        self.unanswered.load(Ordering::SeqCst)
    }
}

/// Clients posting to `games` through `bases` until stopped (or `steps` each are done).
pub struct Load {
    stop: Arc<AtomicBool>,
    pub progress: Arc<Progress>,
    tasks: Vec<tokio::task::JoinHandle<Vec<Record>>>,
}

impl Load {
    /// `clients` per game; client `c` talks to server `c % bases.len()`. A refused or unanswered
    /// request makes the client pause 50 ms, so an outage does not become a busy loop.
    pub fn start(
        bases: &[String],
        games: &[GameRef],
        clients: usize,
        steps: Option<usize>,
        style: Style,
    ) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Progress::default());
        let mut tasks = Vec::new();
        for (g, game) in games.iter().enumerate() {
            for c in 0..clients {
                let server = c % bases.len();
                let base = bases[server].clone();
                let game = game.clone();
                let (stop, progress) = (stop.clone(), progress.clone());
                let seed = rand::random::<u64>();
                tasks.push(tokio::spawn(async move {
                    let http = http_client();
                    let ex = Exchange {
                        http: &http,
                        base: &base,
                        game: g,
                        server,
                        in_flight: Some(&progress.in_flight),
                    };
                    let mut rng = StdRng::seed_from_u64(seed);
                    let mut out = Vec::new();
                    let mut done = 0;
                    while !stop.load(Ordering::SeqCst) && steps.is_none_or(|s| done < s) {
                        let before = out.len();
                        step(&ex, &game, style, &mut rng, &mut out).await;
                        done += 1;
                        let new = &out[before..];
                        let count = |f: fn(&Record) -> bool| new.iter().filter(|r| f(r)).count();
                        progress
                            .acks
                            .fetch_add(count(|r| r.ack.is_some()), Ordering::SeqCst);
                        progress
                            .unanswered
                            .fetch_add(count(|r| r.status.is_none()), Ordering::SeqCst);
                        if new
                            .iter()
                            .any(|r| r.status.is_none() || r.status == Some(503))
                        {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        if new.first().is_some_and(|r| {
                            r.status == Some(200) && r.body.contains("\"status\":\"finished\"")
                        }) {
                            break;
                        }
                    }
                    out
                }));
            }
        }
        Load {
            stop,
            progress,
            tasks,
        }
    }

    pub fn acks(&self) -> usize {
        self.progress.acks()
    }

    /// Waits until `n` changes in all were acknowledged.
    pub async fn wait_acks(&self, n: usize, within: Duration) {
        wait_until("acknowledged changes", within, || {
            (self.acks() >= n)
                .then_some(())
                .ok_or(format!("{} of {n}", self.acks()))
        })
        .await;
    }

    /// Stops the clients (after their current step) and collects what they saw.
    pub async fn finish(self) -> Vec<Record> {
        self.stop.store(true, Ordering::SeqCst);
        self.join().await
    }

    /// Waits for the clients to finish their steps.
    pub async fn join(self) -> Vec<Record> {
        let mut all = Vec::new();
        for task in self.tasks {
            all.extend(task.await.expect("client task"));
        }
        all
    }
}

/// Checks a 503: problem+json `unavailable` with a numeric Retry-After, answered within
/// `within` (at once, not after waiting for what was unavailable).
pub fn assert_refused(r: &Record, within: Duration) {
    assert_eq!(r.status, Some(503), "{}", r.describe());
    assert_eq!(r.code, "unavailable", "{}", r.describe());
    assert_eq!(
        r.content_type,
        "application/problem+json",
        "{}",
        r.describe()
    );
    assert!(
        r.retry_after
            .as_deref()
            .is_some_and(|s| s.parse::<u64>().is_ok()),
        "503 without a numeric Retry-After: {}",
        r.describe()
    );
    assert!(r.elapsed < within, "slow 503: {}", r.describe());
}

/// What a test tolerates besides the answers every loser may get.
#[derive(Clone, Copy)]
pub struct Tolerate {
    /// 503 `unavailable` (with problem+json and Retry-After) is fine.
    pub unavailable: bool,
    /// No answer at all (the server was killed) is fine.
    pub no_answer: bool,
}

/// Every answer must be a success or a documented loser's answer: 409 `conflict` /
/// `not_your_turn` / `game_over`, 412 (only with If-Match), 422 `illegal_move` (the point was
/// taken, or nothing to undo, by the time the request was handled). Never a 5xx but a proper 503.
pub fn assert_answers(records: &[Record], tolerate: Tolerate) {
    let mut bad = Vec::new();
    for r in records {
        let fine = match (r.status, r.code.as_str()) {
            (None, _) => tolerate.no_answer,
            (Some(200), _) => r.what.starts_with("GET") || r.ack.is_some(),
            (Some(409), "conflict" | "not_your_turn" | "game_over") => true,
            (Some(412), "precondition_failed") => r.if_match,
            (Some(422), "illegal_move") => true,
            (Some(503), "unavailable") => {
                tolerate.unavailable
                    && r.content_type == "application/problem+json"
                    && r.retry_after.is_some()
            }
            _ => false,
        };
        if !fine {
            bad.push(r.describe());
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} answers are not allowed here, e.g.:\n{}",
        bad.len(),
        records.len(),
        bad.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}

pub fn count(records: &[Record], status: u16, code: &str) -> usize {
    records
        .iter()
        .filter(|r| r.status == Some(status) && (code.is_empty() || r.code == code))
        .count()
}

pub fn summary(records: &[Record]) -> String {
    let mut by: HashMap<String, usize> = HashMap::new();
    for r in records {
        let key = match r.status {
            Some(s) => format!("{s} {}", r.code),
            None => "no answer".into(),
        };
        *by.entry(key).or_default() += 1;
    }
    let mut keys: Vec<_> = by.into_iter().collect();
    keys.sort();
    keys.iter()
        .map(|(k, n)| format!("{k}: {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}
