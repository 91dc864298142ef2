//! Measures the gap between two AI levels of a rated game, for the levels' fixed ratings:
//! plays them against each other through the `TurnGame` trait (the server's own road, without
//! HTTP), colours alternating, and turns the score into an Elo difference with its 95 % interval.
//!
//! ```text
//! cargo run --release --example ai_ladder -- --game go --options '{"size": 9, "komi": 7}' \
//!     --a normal --b easy --games 40 --time-ms 100
//! ```
//! The difference is 400·log10(p / (1 − p)) for A's score p (a draw is half a point); at the
//! interval's ends the same formula, from the Wilson 95 % bounds of p. A level that wins every game
//! has no finite estimate: the lower bound is what a rating can honestly claim.

use std::time::Duration;

use parlor_games::go::GoGame;
use parlor_games::gomoku::GomokuGame;
use parlor_games::{AiBudget, AiLevel, SeatKind, TurnGame};
use serde_json::{json, Value};

struct Args {
    game: String,
    options: Value,
    a: AiLevel,
    b: AiLevel,
    games: u64,
    time: Duration,
    seed: u64,
    max_moves: usize,
}

fn parse_args() -> Args {
    let mut args = Args {
        game: "go".into(),
        options: json!({}),
        a: AiLevel::Normal,
        b: AiLevel::Easy,
        games: 20,
        time: Duration::from_millis(100),
        seed: 1,
        max_moves: 400,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        let level = |text: String| -> AiLevel { text.parse().expect("easy, normal or hard") };
        match flag.as_str() {
            "--game" => args.game = value(),
            "--options" => args.options = serde_json::from_str(&value()).expect("JSON options"),
            "--a" => args.a = level(value()),
            "--b" => args.b = level(value()),
            "--games" => args.games = value().parse().expect("--games N"),
            "--time-ms" => args.time = Duration::from_millis(value().parse().expect("--time-ms T")),
            "--seed" => args.seed = value().parse().expect("--seed S"),
            "--max-moves" => args.max_moves = value().parse().expect("--max-moves N"),
            other => panic!("unknown option {other}"),
        }
    }
    args
}

/// A's points in one game where A sits at `a_seat` (1, ½ or 0), and the number of moves.
fn play<G: TurnGame>(args: &Args, a_seat: usize, seed: u64) -> (f64, usize) {
    let mut options = args.options.clone();
    let mut players = vec![json!({"ai": args.b}), json!({"ai": args.b})];
    players[a_seat] = json!({"ai": args.a});
    options["players"] = Value::Array(players);
    let options: G::Options = serde_json::from_value(options).expect("options for this game");
    let levels = |seat: usize| if seat == a_seat { args.a } else { args.b };
    let kinds = [SeatKind::Ai(levels(0)), SeatKind::Ai(levels(1))];
    let mut game = G::new(&options, &kinds, seed).expect("a new game");
    game.start(&kinds).expect("the game starts");
    let mut moves = 0;
    while let Some(seat) = game.turn() {
        if moves >= args.max_moves {
            return (0.5, moves);
        }
        let budget = AiBudget {
            time: args.time,
            threads: 1,
            seed: seed ^ (moves as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        };
        let choice = game
            .choose_move(seat, levels(seat), budget)
            .expect("the AI finds a move");
        game.apply(seat, &choice.chosen)
            .expect("the AI's move is legal");
        moves += 1;
    }
    let result = game.result().expect("a finished game has a result");
    let points = if result.winners.is_empty() {
        0.5
    } else if result.winners.contains(&a_seat) {
        1.0
    } else {
        0.0
    };
    (points, moves)
}

/// Wilson 95 % interval of a proportion.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96_f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    400.0 * (p / (1.0 - p)).log10()
}

fn ladder<G: TurnGame>(args: &Args) {
    let mut points = 0.0;
    let mut total_moves = 0;
    for game in 0..args.games {
        let a_seat = (game % 2) as usize;
        let (p, moves) = play::<G>(args, a_seat, args.seed.wrapping_add(game));
        points += p;
        total_moves += moves;
        eprintln!("game {}: A as seat {a_seat}: {p} ({moves} moves)", game + 1);
    }
    let n = args.games as f64;
    let p = points / n;
    let (low, high) = wilson(p, n);
    println!(
        "{} {:?} vs {:?}, {} games, {} ms a move: A scored {points}/{n} = {:.1} % (95 % {:.1}–{:.1} %), \
         Elo difference {:+.0} ({:+.0} to {:+.0}), {:.0} moves a game",
        G::NAME,
        args.a,
        args.b,
        args.games,
        args.time.as_millis(),
        100.0 * p,
        100.0 * low,
        100.0 * high,
        elo(p),
        elo(low),
        elo(high),
        total_moves as f64 / n
    );
}

fn main() {
    let args = parse_args();
    match args.game.as_str() {
        "go" => ladder::<GoGame>(&args),
        "gomoku" => ladder::<GomokuGame>(&args),
        other => panic!("{other} is not a rated game (go, gomoku)"),
    }
}
