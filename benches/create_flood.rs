//! One client creating games, decks and players at full speed: what it costs everybody else. A
//! release server (SQLite, or `BENCH_DATABASE_URL`) serves four clients who each play Go moves
//! one after another, first on an idle server, then while a fifth client, from another address
//! (127.0.0.2, so that it has a creation quota of its own), sends creations as fast as it can.
//! The movers' p99 under the flood must stay within 2× of the idle one.
//!
//! `cargo bench --bench create_flood` (`BENCH_SECONDS`, default 10, per phase)

use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const MOVERS: usize = 4;
/// Requests the flooding client keeps in flight.
const FLOOD_IN_FLIGHT: usize = 8;
const BOARD: usize = 19;
/// Rows black fills, a stone a move, while white passes: 15 of 19 rows, so black keeps liberties
/// and nothing is ever captured.
const ROWS: usize = 15;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
    }
}

fn start_server(database_url: &str) -> (Server, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", "error")
        .env_remove("PARLOR_CREATE_RATE_PER_MINUTE")
        .env_remove("PARLOR_AI_RATE_PER_MINUTE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the parlor binary starts");
    (Server(child), format!("http://127.0.0.1:{port}"))
}

/// The Go moves of a mover's game, in order: black's stone, white's pass.
fn moves() -> impl Iterator<Item = Value> {
    let columns: Vec<char> = ('A'..='T').filter(|c| *c != 'I').collect();
    (0..ROWS * BOARD).flat_map(move |i| {
        let vertex = format!("{}{}", columns[i % BOARD], i / BOARD + 1);
        [json!({"move": vertex}), json!({"move": "pass"})]
    })
}

/// Plays moves, one game after another, until `stop`: every move's latency.
async fn mover(http: reqwest::Client, base: String, stop: Arc<AtomicBool>) -> Vec<Duration> {
    let mut latencies = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let created: Value = http
            .post(format!("{base}/v1/go/games"))
            .json(&json!({"players": [{"name": "black"}, {"name": "white"}]}))
            .send()
            .await
            .expect("create")
            .json()
            .await
            .expect("created");
        let id = created["id"].as_str().expect("id").to_owned();
        let tokens: Vec<String> = (0..2)
            .map(|s| created["tokens"][s]["token"].as_str().unwrap().to_owned())
            .collect();
        for (n, mv) in moves().enumerate() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let started = Instant::now();
            let reply = http
                .post(format!("{base}/v1/go/games/{id}/moves"))
                .bearer_auth(&tokens[n % 2])
                .json(&mv)
                .send()
                .await
                .expect("move");
            assert_eq!(reply.status(), 200, "{}", reply.text().await.unwrap());
            reply.bytes().await.expect("body");
            latencies.push(started.elapsed());
        }
    }
    latencies
}

/// Sends creations from 127.0.0.2 as fast as it can until `stop`: (sent, refused with 429).
async fn flooder(base: String, stop: Arc<AtomicBool>) -> (u64, u64) {
    let http = reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)))
        .build()
        .expect("client");
    let (sent, refused) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut lanes = Vec::new();
    for lane in 0..FLOOD_IN_FLIGHT {
        let (http, base, stop) = (http.clone(), base.clone(), stop.clone());
        let (sent, refused) = (sent.clone(), refused.clone());
        lanes.push(tokio::spawn(async move {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let (path, body) = match n % 3 {
                    0 => (
                        "/v1/gomoku/games",
                        json!({"players": [{"name": "a"}, {"name": "b"}]}),
                    ),
                    1 => ("/v1/poker/decks", json!({})),
                    _ => ("/v1/players", json!({"name": format!("flood-{lane}-{n}")})),
                };
                let reply = http
                    .post(format!("{base}{path}"))
                    .json(&body)
                    .send()
                    .await
                    .expect("flood request");
                sent.fetch_add(1, Ordering::Relaxed);
                if reply.status() == 429 {
                    refused.fetch_add(1, Ordering::Relaxed);
                }
                reply.bytes().await.ok();
            }
        }));
    }
    for lane in lanes {
        lane.await.expect("flood lane");
    }
    (
        sent.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
    )
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

/// Every mover's latencies over one phase of `seconds`, sorted.
async fn phase(http: &reqwest::Client, base: &str, seconds: u64) -> Vec<Duration> {
    let stop = Arc::new(AtomicBool::new(false));
    let movers: Vec<_> = (0..MOVERS)
        .map(|_| tokio::spawn(mover(http.clone(), base.to_owned(), stop.clone())))
        .collect();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    for m in movers {
        all.extend(m.await.expect("mover"));
    }
    all.sort();
    all
}

fn summary(name: &str, sorted: &[Duration]) -> Duration {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let p99 = percentile(sorted, 0.99);
    println!(
        "{name:>8}: {} moves, p50 {:.2} ms, p99 {:.2} ms",
        sorted.len(),
        ms(percentile(sorted, 0.5)),
        ms(p99)
    );
    p99
}

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let dir = tempfile::tempdir().expect("temp dir");
    let url = std::env::var("BENCH_DATABASE_URL")
        .unwrap_or_else(|_| format!("sqlite://{}", dir.path().join("bench.db").display()));
    let (_server, base) = start_server(&url);
    let http = reqwest::Client::new();
    let up = Instant::now();
    while http.get(format!("{base}/health")).send().await.is_err() {
        assert!(
            up.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Warm-up: connections, caches, the database file.
    phase(&http, &base, 2).await;

    let idle = phase(&http, &base, seconds).await;
    let stop = Arc::new(AtomicBool::new(false));
    let flood = tokio::spawn(flooder(base.clone(), stop.clone()));
    let flooded = phase(&http, &base, seconds).await;
    stop.store(true, Ordering::Relaxed);
    let (sent, refused) = flood.await.expect("flooder");

    println!("create flood against {MOVERS} Go movers, {seconds} s a phase:");
    let idle_p99 = summary("idle", &idle);
    let flooded_p99 = summary("flooded", &flooded);
    println!(
        "   flood: {sent} creations ({:.0}/s), {refused} refused with 429",
        sent as f64 / seconds as f64
    );
    let ratio = flooded_p99.as_secs_f64() / idle_p99.as_secs_f64();
    println!(
        "p99 flooded / idle: {ratio:.2} (target ≤ 2): {}",
        if ratio <= 2.0 { "met" } else { "NOT met" }
    );
}
