//! Load generator for a running Parlor: Gomoku moves between humans, plain and conditional (304)
//! reads, and AI moves per level. Prints one markdown table row per mode with requests, throughput
//! and p50/p99/max latency, and error counts by status.
//!
//! ```sh
//! cargo run --release --example load -- --base http://127.0.0.1:8080 \
//!     --mode moves,reads,reads-304,ai --clients 16 --duration-secs 10
//! ```
//!
//! Modes:
//! - `moves`: each client creates a human-vs-human game and plays legal moves alternately (with a
//!   random 0..`--think-ms` pause before each) that never make five in a row; a new game every
//!   `--moves-per-game` moves. Only moves count (game creation is in the notes).
//! - `reads`: `GET` of mid-game games (200 with the body).
//! - `reads-304`: the same `GET` with `If-None-Match: "<version>"` (304, no body).
//! - `ai`: AI-vs-AI games at each `--levels` level; `POST …/ai-move {"time_ms"}` is applied every
//!   time, and a finished game is replaced by a new one.
//!
//! `--csv FILE` appends `label,mode,clients,requests,seconds,rps,p50_ms,p99_ms,max_ms,errors` lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    Moves,
    Reads,
    #[value(name = "reads-304")]
    Reads304,
    Ai,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Moves => "moves",
            Mode::Reads => "reads",
            Mode::Reads304 => "reads-304",
            Mode::Ai => "ai",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Level {
    Easy,
    Normal,
    Hard,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }
}

/// Load generator for a running Parlor (see the file's documentation).
#[derive(Parser, Debug, Clone)]
struct Args {
    /// Base URL of the server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// Modes to run one after the other, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "moves,reads,reads-304,ai"
    )]
    mode: Vec<Mode>,
    /// How long each mode (and each AI level) runs.
    #[arg(long, default_value_t = 10)]
    duration_secs: u64,
    /// Concurrent clients for moves and reads.
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// Concurrent clients for the AI mode (the server answers 503 beyond its AI threads + queue).
    #[arg(long, default_value_t = 4)]
    ai_clients: usize,
    /// Before each move, a random pause of 0..think-ms (0: as fast as possible).
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Moves per game in the moves mode before a fresh game is started (at most the board allows).
    #[arg(long, default_value_t = 60)]
    moves_per_game: usize,
    /// Board size for the human games (9..19).
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Games the read modes spread over, each played to `--read-moves` moves first.
    #[arg(long, default_value_t = 16)]
    read_games: usize,
    /// Moves played in each read game before the reads start (a mid-game state).
    #[arg(long, default_value_t = 30)]
    read_moves: usize,
    /// AI levels for the AI mode, comma-separated; each runs for the whole duration.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "easy,normal,hard"
    )]
    levels: Vec<Level>,
    /// `time_ms` sent with every ai-move.
    #[arg(long, default_value_t = 100)]
    time_ms: u64,
    /// First column of each table row (e.g. the database).
    #[arg(long, default_value = "-")]
    label: String,
    /// Print the table header before the rows.
    #[arg(long)]
    header: bool,
    /// Append a CSV line per row to this file.
    #[arg(long)]
    csv: Option<String>,
    /// Threads of the generator's runtime (it shares the machine with the server).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the generator's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// What one client saw: latencies of the counted requests, every status, and setup requests.
#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    statuses: BTreeMap<String, u64>,
    /// Non-counted requests (game creation, resynchronisation) made during the timed window.
    setup: u64,
    games: u64,
    /// The first body seen for each unexpected status, for diagnosis.
    samples: BTreeMap<String, String>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.latencies_us.extend(other.latencies_us);
        for (k, v) in other.statuses {
            *self.statuses.entry(k).or_default() += v;
        }
        self.setup += other.setup;
        self.games += other.games;
        for (k, v) in other.samples {
            self.samples.entry(k).or_insert(v);
        }
    }

    fn status(&mut self, key: String) {
        *self.statuses.entry(key).or_default() += 1;
    }
}

/// One row of the report.
struct Row {
    mode: String,
    clients: usize,
    requests: u64,
    seconds: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    errors: String,
    note: String,
}

/// A point in the move pattern: column and row from 0 (row 0 at the bottom).
type Pt = (usize, usize);

/// Black on (c + 2r) mod 4 ∈ {0, 1}: rows read BBWW…, columns alternate, both diagonals have runs
/// of at most two. No colour has five in a row anywhere on the full board, so any subset of it,
/// played in any order, never finishes a game.
fn pattern(size: usize) -> (Vec<Pt>, Vec<Pt>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for r in 0..size {
        for c in 0..size {
            if (c + 2 * r) % 4 < 2 {
                black.push((c, r));
            } else {
                white.push((c, r));
            }
        }
    }
    (black, white)
}

/// The longest run of one colour in any of the four directions, on the full pattern.
fn longest_run(size: usize, stones: &[Pt]) -> usize {
    let mut on = vec![false; size * size];
    for &(c, r) in stones {
        on[r * size + c] = true;
    }
    let at = |c: isize, r: isize| {
        c >= 0
            && r >= 0
            && (c as usize) < size
            && (r as usize) < size
            && on[r as usize * size + c as usize]
    };
    let mut longest = 0;
    for &(c, r) in stones {
        for (dc, dr) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
            let (mut n, mut x, mut y) = (0, c as isize, r as isize);
            while at(x, y) {
                n += 1;
                x += dc;
                y += dr;
            }
            longest = longest.max(n);
        }
    }
    longest
}

fn notation((c, r): Pt) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

/// A fresh sequence of moves, black first, alternating, never five in a row.
fn game_moves(black: &[Pt], white: &[Pt], count: usize, rng: &mut ChaCha8Rng) -> Vec<String> {
    let mut b = black.to_vec();
    let mut w = white.to_vec();
    b.shuffle(rng);
    w.shuffle(rng);
    let mut moves = Vec::with_capacity(count);
    for i in 0..count {
        let p = if i % 2 == 0 { b[i / 2] } else { w[i / 2] };
        moves.push(format!("{{\"move\":\"{}\"}}", notation(p)));
    }
    moves
}

struct HumanGame {
    id: String,
    tokens: [String; 2],
}

fn key(status: StatusCode) -> String {
    status.as_u16().to_string()
}

/// Creates a game; `None` (after recording why) when the server refuses.
async fn create(client: &Client, base: &str, body: &Value, tally: &mut Tally) -> Option<Value> {
    tally.setup += 1;
    let response = match client
        .post(format!("{base}/v1/gomoku/games"))
        .json(body)
        .send()
        .await
    {
        Ok(r) => r,
        Err(e) => {
            tally.status("create:io".into());
            tally
                .samples
                .entry("create:io".into())
                .or_insert(e.to_string());
            return None;
        }
    };
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    if status != StatusCode::CREATED {
        let k = format!("create:{}", key(status));
        tally.status(k.clone());
        tally.samples.entry(k).or_insert(text);
        return None;
    }
    tally.games += 1;
    serde_json::from_str(&text).ok()
}

async fn create_human(client: &Client, args: &Args, tally: &mut Tally) -> Option<HumanGame> {
    let body = json!({"size": args.size, "players": [{"name": "load-a"}, {"name": "load-b"}]});
    let created = create(client, &args.base, &body, tally).await?;
    let token = |i: usize| created["tokens"][i]["token"].as_str().map(str::to_owned);
    Some(HumanGame {
        id: created["id"].as_str()?.to_owned(),
        tokens: [token(0)?, token(1)?],
    })
}

/// One request, timed; its status recorded. `None` on a transport error; the body parsed as JSON
/// only when `parse` (otherwise `Value::Null`), so the read modes do not pay for parsing.
async fn timed(
    request: reqwest::RequestBuilder,
    tally: &mut Tally,
    expected: StatusCode,
    parse: bool,
) -> Option<(StatusCode, Value)> {
    let start = Instant::now();
    let outcome = match request.send().await {
        Ok(response) => {
            let status = response.status();
            response.bytes().await.map(|body| (status, body))
        }
        Err(e) => Err(e),
    };
    let elapsed = start.elapsed();
    match outcome {
        Ok((status, body)) => {
            tally.latencies_us.push(elapsed.as_micros() as u64);
            tally.status(key(status));
            if status != expected {
                tally
                    .samples
                    .entry(key(status))
                    .or_insert_with(|| String::from_utf8_lossy(&body).into_owned());
            }
            let value = if parse {
                serde_json::from_slice(&body).unwrap_or(Value::Null)
            } else {
                Value::Null
            };
            Some((status, value))
        }
        Err(e) => {
            tally.status("io".into());
            tally.samples.entry("io".into()).or_insert(e.to_string());
            None
        }
    }
}

async fn think(think_ms: u64, rng: &mut ChaCha8Rng) {
    if think_ms > 0 {
        let pause = rng.gen_range(0..think_ms);
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
}

/// Moves mode: one game per client at a time, moves alternately with the seat's token.
async fn moves_client(client: Client, args: Arc<Args>, deadline: Instant, seed: u64) -> Tally {
    let mut tally = Tally::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (black, white) = pattern(args.size);
    let per_game = args.moves_per_game.min(2 * black.len().min(white.len()));
    while Instant::now() < deadline {
        let Some(game) = create_human(&client, &args, &mut tally).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let url = format!("{}/v1/gomoku/games/{}/moves", args.base, game.id);
        for (i, body) in game_moves(&black, &white, per_game, &mut rng)
            .into_iter()
            .enumerate()
        {
            think(args.think_ms, &mut rng).await;
            if Instant::now() >= deadline {
                return tally;
            }
            let request = client
                .post(&url)
                .bearer_auth(&game.tokens[i % 2])
                .header("content-type", "application/json")
                .body(body);
            match timed(request, &mut tally, StatusCode::OK, false).await {
                Some((StatusCode::OK, _)) => {}
                // Anything else leaves the game in doubt: start a fresh one.
                _ => break,
            }
        }
    }
    tally
}

/// Sets up the read games: each played to `read_moves` moves. Returns (id, version).
async fn read_games(client: &Client, args: &Args) -> Result<Vec<(String, i64)>, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ 0x5EED);
    let (black, white) = pattern(args.size);
    let count = args.read_moves.min(2 * black.len().min(white.len()));
    let mut games = Vec::new();
    for _ in 0..args.read_games {
        let mut tally = Tally::default();
        let game = create_human(client, args, &mut tally)
            .await
            .ok_or_else(|| format!("cannot create a read game: {:?}", tally.samples))?;
        let url = format!("{}/v1/gomoku/games/{}/moves", args.base, game.id);
        for (i, body) in game_moves(&black, &white, count, &mut rng)
            .into_iter()
            .enumerate()
        {
            let response = client
                .post(&url)
                .bearer_auth(&game.tokens[i % 2])
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            if response.status() != StatusCode::OK {
                return Err(format!(
                    "set-up move answered {}: {}",
                    response.status(),
                    response.text().await.unwrap_or_default()
                ));
            }
        }
        games.push((game.id, count as i64));
    }
    Ok(games)
}

async fn reads_client(
    client: Client,
    args: Arc<Args>,
    games: Arc<Vec<(String, i64)>>,
    conditional: bool,
    deadline: Instant,
    seed: u64,
) -> Tally {
    let mut tally = Tally::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let expected = if conditional {
        StatusCode::NOT_MODIFIED
    } else {
        StatusCode::OK
    };
    while Instant::now() < deadline {
        let (id, version) = &games[rng.gen_range(0..games.len())];
        let mut request = client.get(format!("{}/v1/gomoku/games/{id}", args.base));
        if conditional {
            request = request.header("if-none-match", format!("\"{version}\""));
        }
        let _ = timed(request, &mut tally, expected, false).await;
    }
    tally
}

/// AI mode: AI-vs-AI games at one level; every ai-move is applied.
async fn ai_client(
    client: Client,
    args: Arc<Args>,
    level: Level,
    deadline: Instant,
    seed: u64,
) -> Tally {
    let mut tally = Tally::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let body = json!({"time_ms": args.time_ms}).to_string();
    let create_body =
        json!({"size": args.size, "players": [{"ai": level.name()}, {"ai": level.name()}]});
    'games: while Instant::now() < deadline {
        let Some(created) = create(&client, &args.base, &create_body, &mut tally).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Some(id) = created["id"].as_str() else {
            continue;
        };
        let url = format!("{}/v1/gomoku/games/{id}/ai-move", args.base);
        while Instant::now() < deadline {
            think(args.think_ms, &mut rng).await;
            let request = client
                .post(&url)
                .header("content-type", "application/json")
                .body(body.clone());
            match timed(request, &mut tally, StatusCode::OK, true).await {
                Some((StatusCode::OK, answer)) => {
                    if answer["applied"] != Value::Bool(true) {
                        tally.status("not-applied".into());
                        continue 'games;
                    }
                    if answer["game"]["status"] != "active" {
                        continue 'games;
                    }
                }
                Some((StatusCode::SERVICE_UNAVAILABLE, _)) => {
                    // The AI pool is full: honour Retry-After loosely and try the same game again.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                _ => continue 'games,
            }
        }
    }
    tally
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    // Nearest-rank percentile.
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1000.0
}

fn summarize(
    mode: String,
    clients: usize,
    mut tally: Tally,
    seconds: f64,
    expected: &[&str],
) -> Row {
    tally.latencies_us.sort_unstable();
    let errors: Vec<String> = tally
        .statuses
        .iter()
        .filter(|(k, _)| !expected.contains(&k.as_str()))
        .map(|(k, v)| format!("{k}×{v}"))
        .collect();
    for (status, body) in &tally.samples {
        let short: String = body.chars().take(300).collect();
        eprintln!("load: {mode}: first {status} answer: {short}");
    }
    let mut note = String::new();
    if tally.games > 0 {
        let _ = write!(note, "{} games created", tally.games);
    }
    if tally.setup > tally.games {
        let _ = write!(
            note,
            "; {} set-up requests failed",
            tally.setup - tally.games
        );
    }
    Row {
        mode,
        clients,
        requests: tally.latencies_us.len() as u64,
        seconds,
        p50_ms: percentile(&tally.latencies_us, 50.0),
        p99_ms: percentile(&tally.latencies_us, 99.0),
        max_ms: tally.latencies_us.last().copied().unwrap_or(0) as f64 / 1000.0,
        errors: if errors.is_empty() {
            "none".into()
        } else {
            errors.join(", ")
        },
        note,
    }
}

async fn run_clients<F, Fut>(count: usize, duration: Duration, spawn: F) -> (Tally, f64)
where
    F: Fn(usize, Instant) -> Fut,
    Fut: std::future::Future<Output = Tally> + Send + 'static,
{
    let start = Instant::now();
    let deadline = start + duration;
    let handles: Vec<_> = (0..count)
        .map(|i| tokio::spawn(spawn(i, deadline)))
        .collect();
    let mut total = Tally::default();
    for handle in handles {
        total.merge(handle.await.expect("client task"));
    }
    (total, start.elapsed().as_secs_f64())
}

fn print_header() {
    println!(
        "| label | mode | clients | requests | req/s | p50 ms | p99 ms | max ms | errors | notes |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |");
}

fn report(args: &Args, row: &Row) {
    let rps = row.requests as f64 / row.seconds;
    println!(
        "| {} | {} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {} | {} |",
        args.label,
        row.mode,
        row.clients,
        row.requests,
        rps,
        row.p50_ms,
        row.p99_ms,
        row.max_ms,
        row.errors,
        row.note
    );
    let _ = std::io::stdout().flush();
    if let Some(path) = &args.csv {
        let line = format!(
            "{},{},{},{},{:.3},{:.1},{:.3},{:.3},{:.3},{}\n",
            args.label,
            row.mode,
            row.clients,
            row.requests,
            row.seconds,
            rps,
            row.p50_ms,
            row.p99_ms,
            row.max_ms,
            row.errors.replace(',', ";")
        );
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("open the CSV file");
        file.write_all(line.as_bytes()).expect("write the CSV file");
    }
}

async fn run(args: Args) -> Result<(), String> {
    let (black, white) = pattern(args.size);
    for stones in [&black, &white] {
        let run = longest_run(args.size, stones);
        if run >= 5 {
            return Err(format!(
                "move pattern has a run of {run}: it would finish games"
            ));
        }
    }
    let client = Client::builder()
        .pool_max_idle_per_host(usize::MAX)
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| e.to_string())?;
    let health = client
        .get(format!("{}/health", args.base))
        .send()
        .await
        .map_err(|e| format!("{} is not answering: {e}", args.base))?;
    if !health.status().is_success() {
        return Err(format!("{}/health answered {}", args.base, health.status()));
    }
    let duration = Duration::from_secs(args.duration_secs);
    let args = Arc::new(args);
    if args.header {
        print_header();
    }
    for mode in args.mode.clone() {
        match mode {
            Mode::Moves => {
                let (tally, secs) = run_clients(args.clients, duration, |i, deadline| {
                    moves_client(
                        client.clone(),
                        args.clone(),
                        deadline,
                        args.seed * 1000 + i as u64,
                    )
                })
                .await;
                let name = if args.think_ms > 0 {
                    format!("moves (think 0..{} ms)", args.think_ms)
                } else {
                    "moves".into()
                };
                report(&args, &summarize(name, args.clients, tally, secs, &["200"]));
            }
            Mode::Reads | Mode::Reads304 => {
                let games = Arc::new(read_games(&client, &args).await?);
                let conditional = mode == Mode::Reads304;
                let (tally, secs) = run_clients(args.clients, duration, |i, deadline| {
                    reads_client(
                        client.clone(),
                        args.clone(),
                        games.clone(),
                        conditional,
                        deadline,
                        args.seed * 2000 + i as u64,
                    )
                })
                .await;
                let expected = if conditional { "304" } else { "200" };
                report(
                    &args,
                    &summarize(mode.name().into(), args.clients, tally, secs, &[expected]),
                );
            }
            Mode::Ai => {
                for level in args.levels.clone() {
                    let (tally, secs) = run_clients(args.ai_clients, duration, |i, deadline| {
                        ai_client(
                            client.clone(),
                            args.clone(),
                            level,
                            deadline,
                            args.seed * 3000 + i as u64,
                        )
                    })
                    .await;
                    let name = format!("ai {} ({} ms)", level.name(), args.time_ms);
                    report(
                        &args,
                        &summarize(name, args.ai_clients, tally, secs, &["200"]),
                    );
                }
            }
        }
    }
    Ok(())
}

fn main() {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads.max(1))
        .enable_all()
        .build()
        .expect("tokio runtime");
    if let Err(e) = runtime.block_on(run(args)) {
        eprintln!("load: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_never_makes_five() {
        for size in 9..=19 {
            let (black, white) = pattern(size);
            assert!(longest_run(size, &black) <= 2, "size {size}");
            assert!(longest_run(size, &white) <= 2, "size {size}");
        }
    }
}
