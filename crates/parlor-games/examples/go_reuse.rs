//! What tree reuse gives: `cargo run --release --example go_reuse [moves] [playouts-per-move]`.
//!
//! A `hard` self-play game on 9×9 (one thread, a fixed number of new playouts a move, seeded):
//! for every move, how many playouts the search started with from the tree kept after the same
//! side's previous move, next to the new ones. Without reuse every search starts from zero.

use std::time::Duration;

use parlor_games::go::ai::{choose, GoAiRequest};
use parlor_games::go::board::{Board, Color};
use parlor_games::AiLevel;

fn main() {
    let mut args = std::env::args().skip(1);
    let moves: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(12);
    let playouts: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let mut board = Board::new(9);
    let mut color = Color::Black;
    let mut history = vec![board.hash()];
    let mut opponent_passed = false;
    let (mut reused_sum, mut counted) = (0u64, 0u64);
    println!(
        "{:>4} {:<6} {:>8} {:>10} {:>8}",
        "move", "colour", "play", "reused", "share"
    );
    for number in 1..=moves {
        let mut req = GoAiRequest::new(&board, color, 7.0, AiLevel::Hard, Duration::from_secs(600));
        req.max_playouts = Some(playouts);
        req.seed = number as u64;
        req.history_hashes = &history;
        req.superko = true;
        req.opponent_passed = opponent_passed;
        req.reuse_tree = true;
        let answer = choose(&req);
        let reused = answer.analysis.reused_playouts;
        let share = reused as f64 / (reused + answer.analysis.playouts) as f64;
        let play = answer.play.map_or("pass".to_string(), |p| {
            let (col, row) = board.col_row(p);
            format!("{col},{row}")
        });
        println!(
            "{number:>4} {color:<6?} {play:>8} {reused:>10} {:>7.1}%",
            100.0 * share
        );
        if number > 2 {
            reused_sum += reused;
            counted += 1;
        }
        match answer.play {
            Some(p) => {
                board.play(color, p).expect("the AI plays legal moves");
            }
            None if opponent_passed => break,
            None => board.pass(),
        }
        opponent_passed = answer.play.is_none();
        if !history.contains(&board.hash()) {
            history.push(board.hash());
        }
        color = color.opponent();
    }
    if counted > 0 {
        println!(
            "from move 3 on: {:.0} playouts kept per move on average, {playouts} new",
            reused_sum as f64 / counted as f64
        );
    }
}
