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
//! older ways, for comparison). The long games are played to `--late-at` one after another, each
//! while it is the newest game, unless `--long-games-played in-turn` plays them a move each in
//! turn. A seat with no legal point left passes. A request is timed from sending it until its
//! whole answer has arrived (parsing the answer is the client's work, after the clock stops).
//! Prints the latencies (median, 90th percentile, mean) of both, the ratio late ÷ early of the
//! medians, and a 95 % bootstrap interval of the medians' difference.
//!
//! After each timed move it also times a read (`GET` of the same game), whose answer is the same
//! resource the move answers with: the read's late − early difference is what the answer's size
//! costs (the move list grows with the game), so the move's difference beyond it is the server's
//! own work on a long game.
//!
//! Last, the same three sample by sample ("paired"): each sample's late request less its early
//! one, made one after the other, so a slow moment of the machine falls on both and drops out of
//! the difference. It prints the median of those differences with a 95 % bootstrap interval, for
//! the move, the read, and the move beyond the read (a late move's cost beyond writing and
//! sending its longer answer).
//!
//! All of it twice: by the client's clock (the round trip) and by the server's own, which it
//! sends in a `Server-Timing` header: the time from taking the request to its answer's head,
//! without the network, the kernel and the client, whose share grows with the answer's length.

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
    /// How the long games reach `--late-at`: `one-after-another`, each played to the end before
    /// the next is made, so each plays while it is the newest game (its move log appended at the
    /// end of the log's index); `in-turn`, all made first and then played a move each in turn, as
    /// games a server plays at the same time are.
    #[arg(long, value_enum, default_value_t = Playing::OneAfterAnother)]
    long_games_played: Playing,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Playing {
    OneAfterAnother,
    InTurn,
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

    /// Plays one random legal move; returns the times of the accepted request. A seat with no
    /// legal point left passes (random play fills a crowded board until only suicides remain).
    async fn play(
        &mut self,
        client: &Client,
        base: &str,
        rng: &mut ChaCha8Rng,
    ) -> Result<Timed, String> {
        let candidates = self
            .empty_points(rng)
            .into_iter()
            .chain(["pass".to_string()]);
        for point in candidates {
            let started = Instant::now();
            let response = client
                .post(format!("{base}/v1/go/games/{}/moves", self.id))
                .bearer_auth(&self.tokens[self.next])
                .json(&json!({"move": point}))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status();
            let server = server_time(response.headers());
            let bytes = response.bytes().await.map_err(|e| e.to_string())?;
            // The request is done once its answer has arrived; parsing it is the client's work.
            let elapsed = Timed {
                round_trip: started.elapsed(),
                server,
            };
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
        Err("the server refused even a pass".into())
    }

    /// Reads the game as a spectator; returns the times until the whole answer has arrived.
    async fn read(&self, client: &Client, base: &str) -> Result<Timed, String> {
        let started = Instant::now();
        let response = client
            .get(format!("{base}/v1/go/games/{}", self.id))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = response.status();
        let server = server_time(response.headers());
        response.bytes().await.map_err(|e| e.to_string())?;
        let elapsed = Timed {
            round_trip: started.elapsed(),
            server,
        };
        if status != StatusCode::OK {
            return Err(format!("read: {status}"));
        }
        Ok(elapsed)
    }
}

struct Latencies(Vec<Duration>);

/// One request's times: from sending it until its whole answer arrived, and the server's own
/// (its `Server-Timing` header, which servers before 2026-11-24 do not send).
#[derive(Clone, Copy)]
struct Timed {
    round_trip: Duration,
    server: Option<Duration>,
}

/// `Server-Timing: app;dur=0.412`, in milliseconds.
fn server_time(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let ms: f64 = headers
        .get("server-timing")?
        .to_str()
        .ok()?
        .strip_prefix("app;dur=")?
        .parse()
        .ok()?;
    Some(Duration::from_secs_f64(ms / 1e3))
}

/// The round trips of `timed`, or the server's times when `server` (`None` if a request lacks one).
fn latencies(timed: &[Timed], server: bool) -> Option<Latencies> {
    timed
        .iter()
        .map(|t| if server { t.server } else { Some(t.round_trip) })
        .collect::<Option<Vec<_>>>()
        .map(Latencies)
}

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

/// `values` drawn again with replacement, as many as there are.
fn resample<T: Copy>(values: &[T], rng: &mut ChaCha8Rng) -> Vec<T> {
    (0..values.len())
        .map(|_| values[rng.gen_range(0..values.len())])
        .collect()
}

/// A 95 % bootstrap interval of `statistic`, computed 2,000 times on resampled data (`statistic`
/// resamples what it reads with the generator it is given).
fn bootstrap_interval(seed: u64, mut statistic: impl FnMut(&mut ChaCha8Rng) -> f64) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut values: Vec<f64> = (0..2000).map(|_| statistic(&mut rng)).collect();
    values.sort_by(f64::total_cmp);
    (values[50], values[1949])
}

/// A 95 % bootstrap interval of late's median less early's, in ms: both sets resampled with
/// replacement, 2,000 times. An interval that holds 0 means the two cannot be told apart.
fn median_difference_interval(early: &Latencies, late: &Latencies, seed: u64) -> (f64, f64) {
    bootstrap_interval(seed, |rng| {
        let late_median = Latencies(resample(&late.0, rng)).ms(0.5);
        late_median - Latencies(resample(&early.0, rng)).ms(0.5)
    })
}

/// Late less early, sample by sample: the two requests of a sample were made one after the
/// other, so whatever slowed the machine then slowed both, and the difference leaves it out.
fn paired(early: &Latencies, late: &Latencies) -> Vec<f64> {
    early
        .0
        .iter()
        .zip(&late.0)
        .map(|(e, l)| (l.as_secs_f64() - e.as_secs_f64()) * 1e3)
        .collect()
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[(sorted.len() - 1) / 2].midpoint(sorted[sorted.len() / 2])
}

/// The median of `differences` with a 95 % bootstrap interval (2,000 resamples), in ms.
fn median_with_interval(differences: &[f64], seed: u64) -> (f64, f64, f64) {
    let (low, high) = bootstrap_interval(seed, |rng| median(&resample(differences, rng)));
    (median(differences), low, high)
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
        if matches!(args.long_games_played, Playing::OneAfterAnother) {
            while game.moves < args.late_at {
                game.play(&client, &args.base, &mut rng).await?;
            }
        }
        late.push(game);
    }
    if matches!(args.long_games_played, Playing::InTurn) {
        for _ in 0..args.late_at {
            for game in &mut late {
                game.play(&client, &args.base, &mut rng).await?;
            }
        }
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
    let requests = [
        ("move", &early_moves, &late_moves),
        ("read", &early_reads, &late_reads),
    ];
    for (clock, server) in [
        ("round trip (client's clock)", false),
        ("server's own (Server-Timing)", true),
    ] {
        let kinds: Option<Vec<(&str, Latencies, Latencies)>> = requests
            .iter()
            .map(|(request, early, late)| {
                Some((
                    *request,
                    latencies(early, server)?,
                    latencies(late, server)?,
                ))
            })
            .collect();
        let Some(kinds) = kinds else {
            println!("\n{clock}: the server sent no Server-Timing");
            continue;
        };
        report(clock, &kinds, &late_label, args.seed);
    }
    Ok(())
}

/// The latencies of both kinds of request, their medians' differences, and the same paired,
/// sample by sample.
fn report(clock: &str, kinds: &[(&str, Latencies, Latencies)], late_label: &str, seed: u64) {
    println!("\n{clock}:\n");
    println!("| request | moves | samples | median ms | p90 ms | mean ms |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for (request, early, late) in kinds {
        for (label, times) in [("1–10", early), (late_label, late)] {
            println!(
                "| {request} | {label} | {} | {:.3} | {:.3} | {:.3} |",
                times.0.len(),
                times.ms(0.5),
                times.ms(0.9),
                times.mean_ms()
            );
        }
    }
    for (request, early, late) in kinds {
        let (low, high) = median_difference_interval(early, late, seed);
        println!(
            "{request}: late ÷ early: median {:.3}, mean {:.3}; late − early: median {:+.3} ms \
             (95 % bootstrap interval {low:+.3} to {high:+.3} ms)",
            late.ms(0.5) / early.ms(0.5),
            late.mean_ms() / early.mean_ms(),
            late.ms(0.5) - early.ms(0.5)
        );
    }
    // Paired, sample by sample. The move's difference beyond the read's is what a late move costs
    // beyond writing and sending its longer answer (a read pays that too).
    let [(_, early_moves, late_moves), (_, early_reads, late_reads)] = kinds else {
        unreachable!("a move and a read")
    };
    let move_pairs = paired(early_moves, late_moves);
    let read_pairs = paired(early_reads, late_reads);
    let beyond: Vec<f64> = move_pairs
        .iter()
        .zip(&read_pairs)
        .map(|(m, r)| m - r)
        .collect();
    for (what, differences) in [
        ("move", &move_pairs),
        ("read", &read_pairs),
        ("move beyond read", &beyond),
    ] {
        let (at, low, high) = median_with_interval(differences, seed);
        println!(
            "paired {what}: late − early, median of {} pairs {at:+.4} ms \
             (95 % bootstrap interval {low:+.4} to {high:+.4} ms)",
            differences.len()
        );
    }
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
