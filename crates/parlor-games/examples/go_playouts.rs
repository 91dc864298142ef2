//! Go playout speed, one core: `cargo run --release --example go_playouts [seconds-per-case]`.
//!
//! `go_playouts --count N SIZE empty|mid-game` plays exactly N pure playouts of one case and
//! times nothing: for instruction counts under `valgrind --tool=callgrind
//! --toggle-collect='*ownership*'`, which do not depend on the machine's load.
//!
//! For 9×9 and 19×19, from the empty board and from a mid-game position (reached by `easy`
//! self-play from a fixed seed), it measures pure playouts (`ai::ownership`, which plays random
//! games to the end and counts them) and full search iterations (`ai::choose` at `hard`, one
//! thread: tree descent, playout, RAVE update). Rates are given per second of wall time and,
//! on Linux, per second of this thread's CPU time (the fair number on a busy machine).

use std::time::{Duration, Instant};

use parlor_games::go::ai::{choose, ownership, GoAiRequest};
use parlor_games::go::board::{Board, Color};
use parlor_games::AiLevel;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--count") {
        let count: Option<u32> = args.get(1).and_then(|s| s.parse().ok());
        let size: Option<usize> = args.get(2).and_then(|s| s.parse().ok());
        let (Some(count), Some(size)) = (count, size) else {
            eprintln!("usage: go_playouts --count N SIZE empty|mid-game");
            std::process::exit(2);
        };
        let (board, to_move) = match args.get(3).map(String::as_str) {
            Some("mid-game") => midgame(size, midgame_moves(size)),
            _ => (Board::new(size), Color::Black),
        };
        ownership(&board, to_move, 7.0, count, 1);
        println!("{count} playouts");
        return;
    }
    let seconds: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    println!(
        "{:<8} {:<10} {:>14} {:>14} {:>14} {:>14}",
        "board", "position", "playouts/s", "(per cpu-s)", "search it/s", "(per cpu-s)"
    );
    for size in [9, 19] {
        let cases = [
            ("empty", (Board::new(size), Color::Black)),
            ("mid-game", midgame(size, midgame_moves(size))),
        ];
        for (name, (board, to_move)) in cases {
            let (pure_wall, pure_cpu) = pure_playouts(&board, to_move, seconds);
            let (search_wall, search_cpu) = search_playouts(&board, to_move, seconds);
            println!(
                "{:<8} {:<10} {:>14.0} {:>14} {:>14.0} {:>14}",
                format!("{size}x{size}"),
                name,
                pure_wall,
                show(pure_cpu),
                search_wall,
                show(search_cpu)
            );
        }
    }
}

fn show(rate: Option<f64>) -> String {
    rate.map_or_else(|| "n/a".to_string(), |r| format!("{r:.0}"))
}

/// How many moves of self-play make the mid-game position of a board size.
fn midgame_moves(size: usize) -> usize {
    if size >= 19 {
        120
    } else {
        30
    }
}

/// A position after `moves` moves of `easy` self-play (seeded, so always the same one).
fn midgame(size: usize, moves: usize) -> (Board, Color) {
    let mut board = Board::new(size);
    let mut color = Color::Black;
    for i in 0..moves {
        let mut req = GoAiRequest::new(&board, color, 7.0, AiLevel::Easy, Duration::ZERO);
        req.seed = i as u64;
        match choose(&req).play {
            Some(p) => {
                board.play(color, p).expect("easy plays legal moves");
            }
            None => board.pass(),
        }
        color = color.opponent();
    }
    (board, color)
}

/// Pure playouts per wall second and per CPU second.
fn pure_playouts(board: &Board, to_move: Color, seconds: f64) -> (f64, Option<f64>) {
    ownership(board, to_move, 7.0, 10, 0); // builds the pattern table outside the timing
    let (start, cpu_start) = (Instant::now(), thread_cpu_seconds());
    let mut done = 0u64;
    let mut seed = 0;
    while start.elapsed().as_secs_f64() < seconds {
        ownership(board, to_move, 7.0, 500, seed);
        done += 500;
        seed += 1;
    }
    rates(done, start, cpu_start)
}

/// Search iterations per wall second and per CPU second.
fn search_playouts(board: &Board, to_move: Color, seconds: f64) -> (f64, Option<f64>) {
    let req = GoAiRequest::new(
        board,
        to_move,
        7.0,
        AiLevel::Hard,
        Duration::from_secs_f64(seconds),
    );
    let (start, cpu_start) = (Instant::now(), thread_cpu_seconds());
    let answer = choose(&req);
    rates(answer.analysis.playouts, start, cpu_start)
}

fn rates(done: u64, start: Instant, cpu_start: Option<f64>) -> (f64, Option<f64>) {
    let wall = done as f64 / start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(done as f64 / (b - a)),
        _ => None,
    };
    (wall, cpu)
}

/// This thread's user + system CPU time from /proc (Linux; clock ticks of 1/100 s).
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the stat line (utime, stime) are 11 and 12 after the name.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
