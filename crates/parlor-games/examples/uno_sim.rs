//! UNO simulations on one core: the speed of full 4-seat games between `easy` bots, and the
//! strength of `normal` or `hard` against three `easy` (seed 000) bots, seats rotated.
//!
//! ```text
//! cargo run --release --example uno_sim -- --games 100000 --level easy --seed 1
//! cargo run --release --example uno_sim -- --games 10000 --level normal --seed 1
//! cargo run --release --example uno_sim -- --games 400 --level hard --time-ms 100 --seed 1
//! ```
//! The tested seat is told which seats are `easy` bots (all the others), as the server tells it
//! from the seats a game shows; `hard` reads their plays as seed 000's tree's.
//! `--help` lists every option: `--seats N` (default 4), `--iterations N` (caps `hard` per move),
//! `--all-rules` (every option of the rules on: cap 14, draw_then_play, stacking, jump_in).

use std::time::{Duration, Instant};

use clap::Parser;

use parlor_games::uno::ai::{self, Limits};
use parlor_games::uno::{Outcome, Rules, Uno, UnoAction};
use parlor_games::AiLevel;

/// UNO simulations: easy-bot speed, or one `normal`/`hard` seat against `easy` bots.
#[derive(Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// The tested seat's level (`easy`: every seat easy, for speed).
    #[arg(long, default_value = "easy", value_parser = parse_level)]
    level: AiLevel,
    /// `hard`'s think time a move.
    #[arg(long, default_value_t = 100)]
    time_ms: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 4)]
    seats: usize,
    /// Caps `hard`'s games per move (deterministic runs whatever the load).
    #[arg(long, default_value_t = ai::DEFAULT_MAX_ITERATIONS)]
    iterations: u64,
    /// Every option of the rules on: cap 14, draw_then_play, stacking, jump_in.
    #[arg(long)]
    all_rules: bool,
}

fn parse_level(word: &str) -> Result<AiLevel, String> {
    word.parse()
        .map_err(|_| format!("{word:?} is not a level: easy, normal or hard"))
}

/// Searches made by the tested seat: how many, and their iterations in total.
#[derive(Default)]
struct SearchStats {
    moves: u64,
    iterations: u64,
}

/// Plays one game; `tested` (if any) plays at `level`, every other seat `easy`. Returns the
/// winner and the number of actions.
fn play_game(
    game: &mut Uno,
    tested: Option<(usize, AiLevel)>,
    args: &Args,
    seed: u64,
    stats: &mut SearchStats,
) -> (Option<usize>, u32) {
    let mut events = Vec::with_capacity(16);
    let mut actions = 0u32;
    let limits = Limits {
        time: Duration::from_millis(args.time_ms),
        max_iterations: args.iterations,
    };
    while let Some(turn) = game.turn() {
        let jumper = (0..game.seats()).find_map(|s| {
            let level = match tested {
                Some((t, level)) if t == s => level,
                _ => AiLevel::Easy,
            };
            ai::jump_in(game, s, level).map(|a| (s, a))
        });
        let (seat, action): (usize, UnoAction) = match jumper {
            Some(found) => found,
            None => {
                let action = match tested {
                    Some((t, level)) if t == turn => {
                        let easy_seats: Vec<usize> =
                            (0..game.seats()).filter(|&s| s != t).collect();
                        let decision = ai::decide(
                            game,
                            turn,
                            level,
                            limits,
                            seed ^ u64::from(actions),
                            &easy_seats,
                        );
                        if decision.analysis.iterations > 0 {
                            stats.moves += 1;
                            stats.iterations += decision.analysis.iterations;
                        }
                        decision.action
                    }
                    _ => ai::easy::choose(game, turn),
                };
                (turn, action)
            }
        };
        events.clear();
        game.apply_into(seat, &action, &mut events)
            .unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"));
        actions += 1;
        if actions > 20_000 {
            return (None, actions);
        }
    }
    let winner = match game.result() {
        Some(Outcome::OutOfCards { winner, .. }) => Some(winner),
        _ => None,
    };
    (winner, actions)
}

/// The 95 % Wilson score interval for `wins` out of `games`.
fn wilson_interval(wins: u64, games: u64) -> (f64, f64) {
    const Z: f64 = 1.96;
    let n = games as f64;
    let p = wins as f64 / n;
    let centre = p + Z * Z / (2.0 * n);
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt();
    let scale = 1.0 + Z * Z / n;
    ((centre - half) / scale, (centre + half) / scale)
}

fn main() {
    let args = Args::parse();
    let rules = if args.all_rules {
        Rules::all_on()
    } else {
        Rules::default()
    };
    let start = Instant::now();
    let mut wins = 0u64;
    let mut seat_wins = vec![0u64; args.seats];
    let mut unfinished = 0u64;
    let mut total_actions = 0u64;
    let mut stats = SearchStats::default();
    for g in 0..args.games {
        let seed = args
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(g);
        let mut game = Uno::new(args.seats, rules, seed).expect("valid table");
        let tested_seat = (g % args.seats as u64) as usize;
        let tested = (args.level != AiLevel::Easy).then_some((tested_seat, args.level));
        let (winner, actions) = play_game(&mut game, tested, &args, seed, &mut stats);
        total_actions += u64::from(actions);
        match winner {
            Some(w) => {
                seat_wins[w] += 1;
                if w == tested_seat {
                    wins += 1;
                }
            }
            None => unfinished += 1,
        }
        // Slow (`hard`) runs report as they go, so a run cut short still says something.
        if args.level == AiLevel::Hard && (g + 1) % 100 == 0 {
            eprintln!("after {} games: {wins} wins", g + 1);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = args.games as f64;
    println!(
        "{} games, {} seats, rules {:?}, seed {}: {:.1} s, {:.0} games/s, {:.1} actions/game, {} unfinished",
        args.games,
        args.seats,
        rules,
        args.seed,
        secs,
        n / secs,
        total_actions as f64 / n,
        unfinished
    );
    println!("wins by seat: {seat_wins:?}");
    if stats.moves > 0 {
        println!(
            "searched moves: {}, mean iterations per searched move: {:.0}",
            stats.moves,
            stats.iterations as f64 / stats.moves as f64
        );
    }
    if args.level != AiLevel::Easy {
        let p = wins as f64 / n;
        let (low, high) = wilson_interval(wins, args.games);
        println!(
            "{:?} (time {} ms/move, iterations cap {}) vs 3 easy, seats rotated: {wins}/{} wins = {:.1} % (95 % Wilson interval {:.1}–{:.1} %; parity {:.1} %)",
            args.level,
            args.time_ms,
            args.iterations,
            args.games,
            100.0 * p,
            100.0 * low,
            100.0 * high,
            100.0 / args.seats as f64
        );
    }
}
