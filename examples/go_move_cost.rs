//! What a Go move request costs late in a long game against early in one, over HTTP, against a
//! running Parlor. A stored Go game is its move list, and loading it replays the moves, so a move
//! at move 300 could cost more than one at move 1; this measures both in one run.
//!
//! ```sh
//! cargo run --release --example go_move_cost -- --base http://127.0.0.1:8080
//! ```
//!
//! It prepares `--late-games` 19×19 games between two humans to `--late-at` moves (random legal
//! moves), then times `POST …/moves` alternately on a game in its first 10 moves and on one of the
//! long games, `--samples` times each, so a busy machine slows both alike; each kind goes first
//! in every other pair. The short games are as many as the long ones and taken in the same turn
//! (a short game is replaced by another after 10 moves), so neither kind finds its game hotter in
//! the caches than the other. They are made up front, spread between the long ones, so that the
//! rows of both kinds sit among each other's in the database (`--short-games-made` gives the
//! older ways, for comparison). A request is timed from sending it until its whole answer has
//! arrived (parsing the answer is the client's work, after the clock stops). Prints the latencies
//! (median, 90th percentile, mean) of both, the ratio late ÷ early of the medians, and a 95 %
//! bootstrap interval of the medians' difference.
//!
//! After each timed move it also times a read (`GET` of the same game), whose answer is the same
//! resource the move answers with: the read's late − early difference is what the answer's size
//! costs (the move list grows with the game), so the move's difference beyond it is the server's
//! own work on a long game.

use std::time::{Duration, Instant};

use clap::Parser;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

#[derive(Parser)]
struct Args {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// Timed moves of each kind.
    #[arg(long, default_value_t = 300)]
    samples: usize,
    /// How many moves the long games have before timing starts.
    #[arg(long, default_value_t = 300)]
    late_at: usize,
    /// Long games the late moves rotate over.
    #[arg(long, default_value_t = 4)]
    late_games: usize,
    #[arg(long, default_value_t = 19)]
    size: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// When the short games are made: `up-front`, all of them before timing starts, spread
    /// between the long games, so the rows of both kinds sit among each other's; `as-needed`,
    /// each when the one before it has had its 10 moves (the method before 2026-11-24), so the
    /// short games are always the newest; `before-long`, all of them before the long games, so
    /// the long games are the newest. The last two are for measuring what the newest rows gain.
    #[arg(long, value_enum, default_value_t = Making::UpFront)]
    short_games_made: Making,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Making {
    UpFront,
    AsNeeded,
    BeforeLong,
}

/// Games the server's cache of loaded games holds (`CACHED_GAMES` in the service).
const CACHED_GAMES: usize = 512;

/// Moves a short game plays before the next one takes its place.
const EARLY_MOVES: usize = 10;

/// A game between two humans, with what the next random move needs.
struct Game {
    id: String,
    tokens: [String; 2],
    board: Vec<String>,
    next: usize,
    moves: usize,
}

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Game {
    async fn create(client: &Client, args: &Args) -> Result<Game, String> {
        let body = json!({"size": args.size, "players": [{"name": "black"}, {"name": "white"}]});
        let response = client
            .post(format!("{}/v1/go/games", args.base))
            .json(&body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if response.status() != StatusCode::CREATED {
            return Err(format!("create: {}", response.status()));
        }
        let created: Value = response.json().await.map_err(|e| e.to_string())?;
        let token = |seat: usize| {
            created["tokens"][seat]["token"]
                .as_str()
                .unwrap_or("")
                .to_string()
        };
        let mut game = Game {
            id: created["id"].as_str().unwrap_or("").to_string(),
            tokens: [token(0), token(1)],
            board: Vec::new(),
            next: 0,
            moves: 0,
        };
        game.observe(&created);
        Ok(game)
    }

    fn observe(&mut self, resource: &Value) {
        self.board = resource["state"]["board"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| r.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        self.next = resource["turn"].as_u64().unwrap_or(0) as usize;
    }

    /// Empty points in random order (rows are listed top row first).
    fn empty_points(&self, rng: &mut ChaCha8Rng) -> Vec<String> {
        let size = self.board.len();
        let mut points: Vec<String> = self
            .board
            .iter()
            .enumerate()
            .flat_map(|(row, line)| {
                line.char_indices()
                    .filter(|&(_, c)| c == '.')
                    .map(move |(col, _)| format!("{}{}", &COLUMNS[col..col + 1], size - row))
            })
            .collect();
        points.shuffle(rng);
        points
    }

    /// Plays one random legal move; returns the time of the accepted request.
    async fn play(
        &mut self,
        client: &Client,
        base: &str,
        rng: &mut ChaCha8Rng,
    ) -> Result<Duration, String> {
        for point in self.empty_points(rng) {
            let started = Instant::now();
            let response = client
                .post(format!("{base}/v1/go/games/{}/moves", self.id))
                .bearer_auth(&self.tokens[self.next])
                .json(&json!({"move": point}))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status();
            let bytes = response.bytes().await.map_err(|e| e.to_string())?;
            // The request is done once its answer has arrived; parsing it is the client's work.
            let elapsed = started.elapsed();
            let body: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
            match status {
                StatusCode::OK => {
                    self.observe(&body["game"]);
                    self.moves += 1;
                    return Ok(elapsed);
                }
                // Suicide or ko: another point.
                StatusCode::UNPROCESSABLE_ENTITY => continue,
                other => return Err(format!("move {point}: {other}: {body}")),
            }
        }
        Err("no legal point left on the board".into())
    }

    /// Reads the game as a spectator; returns the time until the whole answer has arrived.
    async fn read(&self, client: &Client, base: &str) -> Result<Duration, String> {
        let started = Instant::now();
        let response = client
            .get(format!("{base}/v1/go/games/{}", self.id))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = response.status();
        response.bytes().await.map_err(|e| e.to_string())?;
        let elapsed = started.elapsed();
        if status != StatusCode::OK {
            return Err(format!("read: {status}"));
        }
        Ok(elapsed)
    }
}

struct Latencies(Vec<Duration>);

impl Latencies {
    fn ms(&self, q: f64) -> f64 {
        let mut sorted = self.0.clone();
        sorted.sort();
        let index = ((sorted.len() - 1) as f64 * q).round() as usize;
        sorted[index].as_secs_f64() * 1e3
    }

    fn mean_ms(&self) -> f64 {
        self.0.iter().map(Duration::as_secs_f64).sum::<f64>() / self.0.len() as f64 * 1e3
    }
}

/// A 95 % bootstrap interval of late's median less early's, in ms: both sets resampled with
/// replacement, 2,000 times. An interval that holds 0 means the two cannot be told apart.
fn median_difference_interval(early: &Latencies, late: &Latencies, seed: u64) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let resampled_median = |times: &Latencies, rng: &mut ChaCha8Rng| {
        let draw: Vec<Duration> = (0..times.0.len())
            .map(|_| times.0[rng.gen_range(0..times.0.len())])
            .collect();
        Latencies(draw).ms(0.5)
    };
    let mut differences: Vec<f64> = (0..2000)
        .map(|_| resampled_median(late, &mut rng) - resampled_median(early, &mut rng))
        .collect();
    differences.sort_by(f64::total_cmp);
    (differences[50], differences[1949])
}

/// The next short game: one made up front, else a new one.
async fn next_short(spare: &mut Vec<Game>, client: &Client, args: &Args) -> Result<Game, String> {
    match spare.pop() {
        Some(game) => Ok(game),
        None => Game::create(client, args).await,
    }
}

async fn run(args: Args) -> Result<(), String> {
    let client = Client::new();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    // Made up front, the short games are spread between the long ones, so their rows sit among
    // theirs. Made as needed, each short game was the newest in the database: its rows at the end
    // of every table and index, the pages there hot, which a real server's games at move 1 mostly
    // are not (other games are made after them).
    let short_total = args.samples.div_ceil(EARLY_MOVES) + args.late_games;
    if !matches!(args.short_games_made, Making::AsNeeded)
        && short_total + args.late_games > CACHED_GAMES
    {
        eprintln!(
            "go_move_cost: {} games will not all fit the server's cache of {CACHED_GAMES}; \
             the first moves of the short games made first will miss it (fewer --samples)",
            short_total + args.late_games
        );
    }
    let mut spare_short = Vec::new();
    let mut late = Vec::new();
    if matches!(args.short_games_made, Making::BeforeLong) {
        while spare_short.len() < short_total {
            spare_short.push(Game::create(&client, &args).await?);
        }
    }
    for made in 0..args.late_games {
        if matches!(args.short_games_made, Making::UpFront) {
            let due = short_total * (made + 1) / args.late_games;
            while spare_short.len() < due {
                spare_short.push(Game::create(&client, &args).await?);
            }
        }
        let mut game = Game::create(&client, &args).await?;
        while game.moves < args.late_at {
            game.play(&client, &args.base, &mut rng).await?;
        }
        late.push(game);
    }
    spare_short.reverse();
    // As many short games as long ones, taken in turn the same way: with a single short game, the
    // early requests found their game hot in every cache and the late ones did not.
    let mut early = Vec::new();
    for _ in 0..args.late_games {
        early.push(next_short(&mut spare_short, &client, &args).await?);
    }
    let (mut early_moves, mut late_moves) = (Vec::new(), Vec::new());
    let (mut early_reads, mut late_reads) = (Vec::new(), Vec::new());
    for sample in 0..args.samples {
        let short = &mut early[sample % args.late_games];
        if short.moves >= EARLY_MOVES {
            *short = next_short(&mut spare_short, &client, &args).await?;
        }
        let long = &mut late[sample % args.late_games];
        // Each kind goes first in every other sample: whatever the request before leaves behind
        // (the client's work between requests, the server's caches) falls on both alike.
        let pairs = [
            (short, &mut early_moves, &mut early_reads),
            (long, &mut late_moves, &mut late_reads),
        ];
        let order = if sample % 2 == 0 { [0, 1] } else { [1, 0] };
        let mut pairs = pairs.map(Some);
        for i in order {
            let (game, moves, reads) = pairs[i].take().expect("each kind once");
            moves.push(game.play(&client, &args.base, &mut rng).await?);
            reads.push(game.read(&client, &args.base).await?);
        }
    }
    let last = late.iter().map(|g| g.moves).max().unwrap_or(0);
    let late_label = format!("{}–{last}", args.late_at + 1);
    println!("| request | moves | samples | median ms | p90 ms | mean ms |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    let kinds = [
        ("move", Latencies(early_moves), Latencies(late_moves)),
        ("read", Latencies(early_reads), Latencies(late_reads)),
    ];
    for (request, early, late) in &kinds {
        for (label, times) in [("1–10", early), (late_label.as_str(), late)] {
            println!(
                "| {request} | {label} | {} | {:.3} | {:.3} | {:.3} |",
                times.0.len(),
                times.ms(0.5),
                times.ms(0.9),
                times.mean_ms()
            );
        }
    }
    for (request, early, late) in &kinds {
        let (low, high) = median_difference_interval(early, late, args.seed);
        println!(
            "{request}: late ÷ early: median {:.3}, mean {:.3}; late − early: median {:+.3} ms \
             (95 % bootstrap interval {low:+.3} to {high:+.3} ms)",
            late.ms(0.5) / early.ms(0.5),
            late.mean_ms() / early.mean_ms(),
            late.ms(0.5) - early.ms(0.5)
        );
    }
    Ok(())
}

fn main() {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    if let Err(e) = runtime.block_on(run(args)) {
        eprintln!("go_move_cost: {e}");
        std::process::exit(1);
    }
}
