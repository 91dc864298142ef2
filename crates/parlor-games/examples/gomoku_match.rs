//! Plays Gomoku AI levels against each other and reports win rates and thinking times.
//!
//! cargo run --release --example gomoku_match -- --games 200 --budget-ms 200 --threads 2 \
//!     --level-a hard --level-b easy --seed 1
//!
//! Player A plays `--games` games as black and as many as white; every game gets its own seed,
//! so `easy`'s random tie-breaks differ from game to game but a run can be repeated exactly
//! (apart from where the searches' clocks stop them). `normal` and `hard` are deterministic, so
//! a match between them replays one game per colour unless `--opening N` (at most 20) starts
//! every game with N random moves near the centre.

use std::env;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use parlor_games::gomoku::{ai, Gomoku, Point, Rule, Stone};
use parlor_games::AiLevel;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "shared/gomoku_matches.rs"]
mod gomoku_matches;
use gomoku_matches::{parse_level, Clock};

struct Options {
    games: usize,
    budget: Duration,
    size: u8,
    rule: Rule,
    threads: usize,
    level_a: AiLevel,
    level_b: AiLevel,
    seed: u64,
    /// Random moves near the centre before the AIs take over, for varied self-play.
    opening: usize,
    verbose: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        games: 20,
        budget: Duration::from_millis(200),
        size: Gomoku::DEFAULT_SIZE,
        rule: Rule::Freestyle,
        threads: 2,
        level_a: AiLevel::Hard,
        level_b: AiLevel::Easy,
        seed: 1,
        opening: 0,
        verbose: false,
    };
    let mut args = env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--verbose" {
            options.verbose = true;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: {value:?} is not a number"))
        };
        match flag.as_str() {
            "--games" => options.games = number()? as usize,
            "--budget-ms" => options.budget = Duration::from_millis(number()?),
            "--size" => options.size = number()?.try_into().map_err(|_| "--size too big")?,
            "--threads" => options.threads = (number()? as usize).max(1),
            "--seed" => options.seed = number()?,
            "--opening" => options.opening = number()?.min(20) as usize,
            "--level-a" => options.level_a = parse_level(&value)?,
            "--level-b" => options.level_b = parse_level(&value)?,
            "--rule" => {
                options.rule = match value.as_str() {
                    "freestyle" => Rule::Freestyle,
                    "standard" => Rule::Standard,
                    "renju" => Rule::Renju,
                    other => return Err(format!("unknown rule {other:?}")),
                }
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    Gomoku::new(options.size, options.rule).map_err(|e| e.to_string())?;
    Ok(options)
}

struct GameResult {
    a_is_black: bool,
    winner: Option<Stone>,
    moves: usize,
    record: String,
    clocks: [Clock; 2], // [A, B]
}

/// Plays one game; `a_is_black` says which colour player A has.
fn play_game(options: &Options, a_is_black: bool, seed: u64) -> GameResult {
    let mut game = Gomoku::new(options.size, options.rule).expect("size checked");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut clocks = [Clock::default(), Clock::default()];
    let centre = options.size / 2;
    let radius = 3.min(centre);
    while game.moves().len() < options.opening && !game.is_over() {
        let p = Point::new(
            rng.gen_range(centre - radius..=centre + radius),
            rng.gen_range(centre - radius..=centre + radius),
        );
        // An occupied point is simply drawn again.
        let _ = game.play(p);
    }
    while !game.is_over() {
        let a_to_move = (game.next() == Stone::Black) == a_is_black;
        let (player, level) = if a_to_move {
            (0, options.level_a)
        } else {
            (1, options.level_b)
        };
        let started = Instant::now();
        let decision = ai::choose_move(&game, level, options.budget, 1, &mut rng)
            .expect("a game in progress has a move");
        clocks[player].add(started.elapsed(), options.budget);
        game.play(decision.point).expect("the AI plays legal moves");
    }
    let record = game
        .moves()
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    GameResult {
        a_is_black,
        winner: game.outcome().and_then(|o| o.winner),
        moves: game.moves().len(),
        record,
        clocks,
    }
}

fn level_name(level: AiLevel) -> &'static str {
    match level {
        AiLevel::Easy => "easy",
        AiLevel::Normal => "normal",
        AiLevel::Hard => "hard",
    }
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("gomoku_match: {message}");
            eprintln!(
                "usage: gomoku_match [--games N] [--budget-ms M] [--size S] [--rule freestyle|standard|renju] \
                 [--threads T] [--level-a L] [--level-b L] [--seed X] [--opening N] [--verbose]"
            );
            return ExitCode::FAILURE;
        }
    };
    let jobs = options.games * 2;
    let next_job = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(jobs));
    let started = Instant::now();
    thread::scope(|scope| {
        for _ in 0..options.threads {
            scope.spawn(|| loop {
                let job = next_job.fetch_add(1, Ordering::Relaxed);
                if job >= jobs {
                    break;
                }
                // Even jobs: A plays black; odd jobs: A plays white. Seeds differ per game.
                let a_is_black = job.is_multiple_of(2);
                let seed = options
                    .seed
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .wrapping_add(job as u64);
                let result = play_game(&options, a_is_black, seed);
                if options.verbose {
                    let winner = match result.winner {
                        None => "draw",
                        Some(stone) if (stone == Stone::Black) == result.a_is_black => "A",
                        Some(_) => "B",
                    };
                    println!(
                        "game {job:4} A={} winner={winner} moves={} : {}",
                        if result.a_is_black { "black" } else { "white" },
                        result.moves,
                        result.record
                    );
                }
                results
                    .lock()
                    .expect("no panics while holding")
                    .push(result);
            });
        }
    });
    let results = results.into_inner().expect("no panics while holding");

    let (name_a, name_b) = (level_name(options.level_a), level_name(options.level_b));
    println!("command: {}", env::args().collect::<Vec<_>>().join(" "));
    println!(
        "A = {name_a}, B = {name_b}; {}x{} {:?}; budget {} ms; {} threads; seed {}; wall {:.1} s",
        options.size,
        options.size,
        options.rule,
        options.budget.as_millis(),
        options.threads,
        options.seed,
        started.elapsed().as_secs_f64()
    );
    let mut clocks = [Clock::default(), Clock::default()];
    for a_is_black in [true, false] {
        let side: Vec<&GameResult> = results
            .iter()
            .filter(|r| r.a_is_black == a_is_black)
            .collect();
        let (mut wins, mut losses, mut draws, mut length) = (0, 0, 0, 0);
        for r in &side {
            match r.winner {
                None => draws += 1,
                Some(stone) if (stone == Stone::Black) == a_is_black => wins += 1,
                Some(_) => losses += 1,
            }
            length += r.moves;
            clocks[0].merge(&r.clocks[0]);
            clocks[1].merge(&r.clocks[1]);
        }
        let games = side.len().max(1);
        println!(
            "A ({name_a}) as {}: {} games, {wins} wins, {losses} losses, {draws} draws, win rate {:.1}%, \
             average length {:.1} moves",
            if a_is_black { "black" } else { "white" },
            side.len(),
            100.0 * wins as f64 / games as f64,
            length as f64 / games as f64,
        );
        for r in side
            .iter()
            .filter(|r| r.winner.is_none() || (r.winner == Some(Stone::Black)) != a_is_black)
        {
            println!("  not won: {}", r.record);
        }
    }
    for (name, clock) in [
        (format!("A ({name_a})"), &clocks[0]),
        (format!("B ({name_b})"), &clocks[1]),
    ] {
        println!(
            "{name}: {} moves, average {:.2} ms, max {:.2} ms per move, {} over the budget",
            clock.moves,
            clock.average_ms(),
            clock.max.as_secs_f64() * 1000.0,
            clock.over
        );
    }
    ExitCode::SUCCESS
}
