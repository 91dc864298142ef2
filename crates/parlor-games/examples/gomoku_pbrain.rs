//! Parlor's Gomoku AI as a Piskvork (Gomocup) engine on stdin/stdout, so that any match manager
//! or GUI that drives such engines can play it:
//!
//! cargo build --release --example gomoku_pbrain
//! target/release/examples/gomoku_pbrain --level hard --threads 1
//!
//! It understands `START`, `RESTART`, `INFO rule|timeout_turn`, `BEGIN`, `TURN`, `BOARD`,
//! `ABOUT` and `END`; coordinates are Piskvork's `x,y` (column from the left, row from the
//! top, both from 0). `INFO rule` 0 is freestyle, 1 standard, 4 renju; the move time is
//! `timeout_turn` (1 s until told).

use std::io::{self, BufRead, Write};
use std::time::Duration;

use parlor_games::gomoku::{ai, Gomoku, Point, Rule};
use parlor_games::AiLevel;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

struct Engine {
    level: AiLevel,
    threads: usize,
    size: u8,
    rule: Rule,
    turn_time: Duration,
    game: Gomoku,
    rng: ChaCha8Rng,
}

impl Engine {
    fn point(&self, text: &str) -> Option<Point> {
        let mut parts = text.trim().split(',');
        let x: u8 = parts.next()?.trim().parse().ok()?;
        let y: u8 = parts.next()?.trim().parse().ok()?;
        (x < self.size && y < self.size).then(|| Point::new(x, self.size - 1 - y))
    }

    fn coordinates(&self, p: Point) -> String {
        format!("{},{}", p.col, self.size - 1 - p.row)
    }

    fn restart(&mut self) -> Result<(), String> {
        self.game = Gomoku::new(self.size, self.rule).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Chooses, plays and names a move for the side to move.
    fn reply(&mut self) -> String {
        // A margin for the protocol round trip and the process's own start-up of a move.
        let budget = self.turn_time.saturating_sub(Duration::from_millis(30));
        match ai::choose_move(&self.game, self.level, budget, self.threads, &mut self.rng) {
            Some(decision) => {
                let a = &decision.analysis;
                let speed = a.nodes * 1000 / a.elapsed_ms.max(1);
                println!(
                    "MESSAGE depth {} score {} nodes {} speed {} ms {}",
                    a.depth, a.score, a.nodes, speed, a.elapsed_ms
                );
                self.game
                    .play(decision.point)
                    .expect("the AI plays legal moves");
                self.coordinates(decision.point)
            }
            None => "ERROR the game is over".into(),
        }
    }

    fn handle(&mut self, line: &str, input: &mut impl BufRead) -> Option<String> {
        let mut words = line.split_whitespace();
        let command = words.next()?.to_ascii_uppercase();
        let rest = words.collect::<Vec<_>>().join(" ");
        let answer = match command.as_str() {
            "START" => match rest.trim().parse::<u8>() {
                Ok(size) => {
                    self.size = size;
                    match self.restart() {
                        Ok(()) => "OK".into(),
                        Err(e) => format!("ERROR {e}"),
                    }
                }
                Err(_) => "ERROR START needs a size".into(),
            },
            "RESTART" => match self.restart() {
                Ok(()) => "OK".into(),
                Err(e) => format!("ERROR {e}"),
            },
            "INFO" => {
                let mut kv = rest.split_whitespace();
                match (kv.next(), kv.next().and_then(|v| v.parse::<u64>().ok())) {
                    (Some("timeout_turn"), Some(ms)) if ms > 0 => {
                        self.turn_time = Duration::from_millis(ms)
                    }
                    (Some("rule"), Some(rule)) => {
                        self.rule = match rule {
                            4 => Rule::Renju,
                            1 => Rule::Standard,
                            _ => Rule::Freestyle,
                        };
                        let _ = self.restart();
                    }
                    _ => {}
                }
                return None;
            }
            "BEGIN" => self.reply(),
            "TURN" => match self.point(&rest).map(|p| self.game.play(p)) {
                Some(Ok(())) => self.reply(),
                _ => format!("ERROR bad move {rest}"),
            },
            "BOARD" => {
                if let Err(e) = self.restart() {
                    return Some(format!("ERROR {e}"));
                }
                let mut line = String::new();
                loop {
                    line.clear();
                    if input.read_line(&mut line).ok()? == 0 {
                        return None;
                    }
                    if line.trim().eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    let Some(p) = self.point(&line) else { continue };
                    if self.game.play(p).is_err() {
                        return Some(format!("ERROR bad board line {}", line.trim()));
                    }
                }
                self.reply()
            }
            "ABOUT" => "name=\"parlor\", version=\"0.1\", author=\"Parlor\"".into(),
            "END" => std::process::exit(0),
            _ => format!("UNKNOWN {command}"),
        };
        Some(answer)
    }
}

fn main() {
    let mut level = AiLevel::Hard;
    let mut threads = 1;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match (flag.as_str(), args.next().as_deref()) {
            ("--level", Some(name)) if name.parse::<AiLevel>().is_ok() => {
                level = name.parse().expect("checked")
            }
            ("--threads", Some(n)) if n.parse::<usize>().is_ok_and(|n| n > 0) => {
                threads = n.parse().expect("checked")
            }
            _ => {
                eprintln!("usage: gomoku_pbrain [--level easy|normal|hard] [--threads N]");
                std::process::exit(2);
            }
        }
    }
    let mut engine = Engine {
        level,
        threads,
        size: Gomoku::DEFAULT_SIZE,
        rule: Rule::Freestyle,
        turn_time: Duration::from_secs(1),
        game: Gomoku::default(),
        rng: ChaCha8Rng::seed_from_u64(1),
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = String::new();
    while input.read_line(&mut line).unwrap_or(0) > 0 {
        let command = std::mem::take(&mut line);
        if let Some(answer) = engine.handle(command.trim(), &mut input) {
            println!("{answer}");
            let _ = io::stdout().flush();
        }
    }
}
