//! Fits the Go move weights (`go/ai/shape_weights.txt`) to the moves of SGF games by
//! minorization–maximization (Coulom 2007): every position of every game is a contest among the
//! candidate moves, won by the move played.
//!
//! `cargo run --release -p parlor-games --example go_pattern_train -- [--test-share 0.1]
//! [--min-shape 4] [--out FILE] GAME.sgf...`
//!
//! Games are split by their order into training and test games. The fit reports, on the test
//! positions, how often the heaviest move was the one played and the mean log-likelihood, beside
//! the same numbers for the weights committed now.

use std::collections::HashMap;
use std::fmt::Write as _;

use parlor_games::go::ai::shape::{self, Features, GROUPS, GROUP_NAMES, LEVELS};
use parlor_games::go::board::Board;
use parlor_games::go::{Go, GoPlay};

/// One position: its candidates' features and which candidate was played.
struct Contest {
    candidates: Vec<Features>,
    played: usize,
}

fn main() {
    let mut test_share = 0.1;
    let mut min_shape = 4;
    let mut out = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--test-share" => test_share = args.next().and_then(|v| v.parse().ok()).unwrap(),
            "--min-shape" => min_shape = args.next().and_then(|v| v.parse().ok()).unwrap(),
            "--out" => out = args.next(),
            _ => files.push(arg),
        }
    }
    let test_games = (files.len() as f64 * test_share).round() as usize;
    let (test_files, train_files) = files.split_at(test_games);
    let (train, teacher, size) = contests(train_files);
    let (test, _, _) = contests(test_files);
    eprintln!(
        "{} training positions ({} games), {} test positions ({} games)",
        train.len(),
        train_files.len(),
        test.len(),
        test_files.len()
    );

    // Shapes seen in fewer than `min_shape` training positions' played moves share one "rare"
    // weight, so that a shape seen once does not get a weight of its own.
    let mut played_shapes: HashMap<u32, usize> = HashMap::new();
    for c in &train {
        *played_shapes
            .entry(shape::canonical(c.candidates[c.played][0]))
            .or_default() += 1;
    }
    let mut shape_ids: HashMap<u32, usize> = HashMap::new();
    let mut codes = vec![u32::MAX]; // id 0: rare
    for (&code, &count) in &played_shapes {
        if count >= min_shape {
            shape_ids.insert(code, codes.len());
            codes.push(code);
        }
    }
    let offsets: Vec<usize> = std::iter::once(0)
        .chain((1..GROUPS).scan(codes.len(), |at, g| {
            let here = *at;
            *at += LEVELS[g] as usize;
            Some(here)
        }))
        .collect();
    let total = offsets[GROUPS - 1] + LEVELS[GROUPS - 1] as usize;
    let index = |f: &Features| -> [usize; GROUPS] {
        std::array::from_fn(|g| {
            if g == 0 {
                *shape_ids.get(&shape::canonical(f[0])).unwrap_or(&0)
            } else {
                offsets[g] + f[g] as usize
            }
        })
    };
    let train: Vec<(Vec<[usize; GROUPS]>, usize)> = train
        .iter()
        .map(|c| (c.candidates.iter().map(index).collect(), c.played))
        .collect();

    let mut gamma = vec![1.0f64; total];
    let mut wins = vec![0.0f64; total];
    for (cands, played) in &train {
        for &i in &cands[*played] {
            wins[i] += 1.0;
        }
    }
    let groups: Vec<std::ops::Range<usize>> = (0..GROUPS)
        .map(|g| {
            if g == 0 {
                0..codes.len()
            } else {
                offsets[g]..offsets[g] + LEVELS[g] as usize
            }
        })
        .collect();
    for round in 0..25 {
        for (g, range) in groups.iter().enumerate() {
            let mut denominator = vec![0.0f64; total];
            let mut log_likelihood = 0.0;
            for (cands, played) in &train {
                let strengths: Vec<f64> = cands
                    .iter()
                    .map(|c| c.iter().map(|&i| gamma[i]).product())
                    .collect();
                let sum: f64 = strengths.iter().sum();
                log_likelihood += (strengths[*played] / sum).ln();
                for (c, s) in cands.iter().zip(&strengths) {
                    denominator[c[g]] += s / gamma[c[g]] / sum;
                }
            }
            // One virtual win and one virtual loss against a move of weight 1 (Coulom's prior).
            for i in range.clone() {
                gamma[i] = (wins[i] + 1.0) / (denominator[i] + 2.0 / (gamma[i] + 1.0));
            }
            if g == 0 {
                eprintln!(
                    "round {round}: mean log-likelihood {:.4}",
                    log_likelihood / train.len() as f64
                );
            }
        }
    }

    let mut text = String::new();
    writeln!(
        text,
        "# Go move weights: group level gamma (see go/ai/shape.rs); fitted by \
         examples/go_pattern_train.rs\n# to {} positions of {} {size}x{size} self-play games of {teacher}.",
        train.len(),
        train_files.len()
    )
    .unwrap();
    for (g, range) in groups.iter().enumerate() {
        for i in range.clone() {
            if g == 0 && i == 0 {
                writeln!(text, "shape rare {:.4}", gamma[i]).unwrap();
            } else if g == 0 {
                writeln!(text, "shape {} {:.4}", codes[i], gamma[i]).unwrap();
            } else {
                writeln!(
                    text,
                    "{} {} {:.4}",
                    GROUP_NAMES[g],
                    i - range.start,
                    gamma[i]
                )
                .unwrap();
            }
        }
    }
    let fitted = shape::Weights::parse(&text);
    report("fitted", &fitted, &test);
    report("committed", shape::weights(), &test);
    match out {
        Some(path) => std::fs::write(&path, text).expect("write the weights"),
        None => print!("{text}"),
    }
}

/// How often the heaviest candidate was played, and the mean log-likelihood of the played move.
fn report(name: &str, weights: &shape::Weights, test: &[Contest]) {
    let mut top = 0;
    let mut log_likelihood = 0.0;
    for c in test {
        let strengths: Vec<f64> = c
            .candidates
            .iter()
            .map(|f| f64::from(weights.strength(f)))
            .collect();
        let sum: f64 = strengths.iter().sum();
        let best = (0..strengths.len())
            .max_by(|&a, &b| strengths[a].total_cmp(&strengths[b]))
            .unwrap_or(0);
        top += usize::from(best == c.played);
        log_likelihood += (strengths[c.played] / sum).ln();
    }
    let n = test.len().max(1) as f64;
    eprintln!(
        "{name}: top move played {:.1} %, mean log-likelihood {:.3}",
        100.0 * top as f64 / n,
        log_likelihood / n
    );
}

/// The positions of the games in `files` at which the move played was a candidate, with the
/// first game's Black player (the teacher) and board size.
fn contests(files: &[String]) -> (Vec<Contest>, String, usize) {
    let mut contests = Vec::new();
    let mut teacher = String::new();
    let mut size = 0;
    for file in files {
        let text = std::fs::read_to_string(file).expect("read an SGF file");
        let Ok((game, meta)) = Go::from_sgf(&text) else {
            eprintln!("{file}: not a game, skipped");
            continue;
        };
        if size == 0 {
            teacher = meta.black.unwrap_or_default();
            size = game.size();
        }
        let mut board = Board::new(game.size());
        for turn in game.moves() {
            match turn.play {
                GoPlay::Stone(v) => {
                    let p = board.pt(usize::from(v.col), usize::from(v.row));
                    let candidates = shape::candidates(&board, turn.color);
                    if let Some(played) = candidates.iter().position(|&(q, _)| q == p) {
                        contests.push(Contest {
                            candidates: candidates.into_iter().map(|(_, f)| f).collect(),
                            played,
                        });
                    }
                    board.play(turn.color, p).expect("a legal move");
                }
                GoPlay::Pass => board.pass(),
                GoPlay::Resign => break,
            }
        }
    }
    (contests, teacher, size)
}
