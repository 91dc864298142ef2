//! A minimal GTP (Go Text Protocol v2) front-end for Parlor's Go AI, for matches against other
//! engines (`tools/go_match.py`): `cargo run --release --example go_gtp -- [--level hard]
//! [--time 1.0] [--threads 1] [--seed 1] [--playouts N] [--resign]`. Like the server, it keeps
//! the search tree from one move to the next (`GoAiRequest::reuse_tree`). Unlike the server,
//! which counts every stone on the board, it plays for GTP's score, where dead stones are taken
//! off at the end (`GoAiRequest::dead_stones_removed`): a referee such as GNU Go's
//! `final_score` counts that way.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use parlor_games::go::ai::{choose, GoAiRequest};
use parlor_games::go::board::{Board, Color, Pt};
use parlor_games::AiLevel;

/// GTP column letters: A..Z without I.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

struct Options {
    level: AiLevel,
    seconds: f64,
    threads: usize,
    seed: u64,
    playouts: Option<u64>,
    resign: bool,
}

struct Engine {
    options: Options,
    board: Board,
    komi: f32,
    opponent_passed: bool,
    moves_played: u64,
}

fn main() {
    let options = parse_options();
    let mut engine = Engine {
        options,
        board: Board::new(19),
        komi: 7.5,
        opponent_passed: false,
        moves_played: 0,
    };
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        let (id, command) = match first.parse::<u64>() {
            Ok(id) => (id.to_string(), words.next().unwrap_or("")),
            Err(_) => (String::new(), first),
        };
        let args: Vec<&str> = words.collect();
        let (ok, text) = match engine.run(command, &args) {
            Ok(text) => (true, text),
            Err(text) => (false, text),
        };
        let mark = if ok { '=' } else { '?' };
        let _ = write!(out, "{mark}{id} {text}\n\n");
        let _ = out.flush();
        if command == "quit" {
            break;
        }
    }
}

fn parse_options() -> Options {
    let mut o = Options {
        level: AiLevel::Hard,
        seconds: 1.0,
        threads: 1,
        seed: 1,
        playouts: None,
        resign: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str).unwrap_or("");
        match args[i].as_str() {
            "--level" => {
                o.level = match value {
                    "easy" => AiLevel::Easy,
                    "normal" => AiLevel::Normal,
                    _ => AiLevel::Hard,
                }
            }
            "--time" => o.seconds = value.parse().unwrap_or(1.0),
            "--threads" => o.threads = value.parse().unwrap_or(1),
            "--seed" => o.seed = value.parse().unwrap_or(1),
            "--playouts" => o.playouts = value.parse().ok(),
            "--resign" => {
                o.resign = true;
                i += 1;
                continue;
            }
            other => eprintln!("go_gtp: unknown option {other}"),
        }
        i += 2;
    }
    o
}

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "showboard",
];

impl Engine {
    fn run(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("parlor".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS
                .contains(&args.first().copied().unwrap_or(""))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => {
                let size: usize = args
                    .first()
                    .and_then(|s| s.parse().ok())
                    .ok_or("boardsize not an integer")?;
                if !(Board::MIN_SIZE..=Board::MAX_SIZE).contains(&size) {
                    return Err("unacceptable size".into());
                }
                self.board = Board::new(size);
                self.opponent_passed = false;
                Ok(String::new())
            }
            "clear_board" => {
                self.board = Board::new(self.board.size());
                self.opponent_passed = false;
                Ok(String::new())
            }
            "komi" => {
                self.komi = args
                    .first()
                    .and_then(|s| s.parse().ok())
                    .ok_or("komi not a float")?;
                Ok(String::new())
            }
            "play" => {
                let color = parse_color(args.first().copied().unwrap_or(""))?;
                let vertex = args.get(1).copied().ok_or("missing vertex")?;
                match parse_vertex(&self.board, vertex)? {
                    None => {
                        self.board.pass();
                        self.opponent_passed = true;
                    }
                    Some(p) => {
                        self.board
                            .play(color, p)
                            .map_err(|e| format!("illegal move ({e})"))?;
                        self.opponent_passed = false;
                    }
                }
                Ok(String::new())
            }
            "genmove" => {
                let color = parse_color(args.first().copied().unwrap_or(""))?;
                let budget = Duration::from_secs_f64(self.options.seconds);
                let mut req =
                    GoAiRequest::new(&self.board, color, self.komi, self.options.level, budget);
                req.seed = self.options.seed.wrapping_add(self.moves_played);
                req.threads = self.options.threads;
                req.max_playouts = self.options.playouts;
                req.resign_allowed = self.options.resign;
                req.opponent_passed = self.opponent_passed;
                req.dead_stones_removed = true;
                req.reuse_tree = true;
                let answer = choose(&req);
                self.moves_played += 1;
                let a = &answer.analysis;
                let pv: Vec<String> =
                    a.pv.iter()
                        .map(|&p| vertex_name(&self.board, Some(p)))
                        .collect();
                let candidates: Vec<String> = a
                    .candidates
                    .iter()
                    .map(|c| {
                        format!(
                            "{}:{}:{:.2}",
                            vertex_name(&self.board, c.play),
                            c.visits,
                            c.win_rate
                        )
                    })
                    .collect();
                eprintln!(
                    "go_gtp: {} playouts (+{} kept), win rate {:.3}, pv {}, candidates {}",
                    a.playouts,
                    a.reused_playouts,
                    a.win_rate,
                    pv.join(" "),
                    candidates.join(" ")
                );
                if answer.resign {
                    return Ok("resign".into());
                }
                match answer.play {
                    Some(p) => {
                        self.board
                            .play(color, p)
                            .map_err(|e| format!("engine chose an illegal move ({e})"))?;
                    }
                    None => self.board.pass(),
                }
                self.opponent_passed = false;
                Ok(vertex_name(&self.board, answer.play))
            }
            "showboard" => Ok(format!("\n{:?}", self.board)),
            _ => Err("unknown command".into()),
        }
    }
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err("invalid color".into()),
    }
}

/// A GTP vertex (`D4`, `pass`), None for a pass.
fn parse_vertex(board: &Board, s: &str) -> Result<Option<Pt>, String> {
    let s = s.to_ascii_uppercase();
    if s == "PASS" {
        return Ok(None);
    }
    let letter = *s.as_bytes().first().ok_or("empty vertex")?;
    let col = COLUMNS
        .iter()
        .position(|&c| c == letter)
        .ok_or("invalid vertex")?;
    let row: usize = s[1..].parse().map_err(|_| "invalid vertex")?;
    if col >= board.size() || row == 0 || row > board.size() {
        return Err("invalid vertex".into());
    }
    Ok(Some(board.pt(col, row - 1)))
}

fn vertex_name(board: &Board, p: Option<Pt>) -> String {
    match p {
        None => "pass".into(),
        Some(p) => {
            let (col, row) = board.col_row(p);
            format!("{}{}", COLUMNS[col] as char, row + 1)
        }
    }
}
