//! Plays Parlor's Gomoku AI against any engine that speaks the Piskvork (Gomocup) protocol and
//! reports the score with a 95 % Wilson interval, per colour and overall.
//!
//! cargo build --release -p parlor-games --example gomoku_versus
//! target/release/examples/gomoku_versus --engine ./pbrain-rapfi --engine-dir path/to/rapfi \
//!     --openings 10 --time-ms 1000 --balance --seed 1 --records target/gomoku_versus/rapfi
//!
//! (`$CARGO_TARGET_DIR/release/examples/gomoku_versus` when that is set.) That is the baseline in
//! docs/PERFORMANCE.md: Parlor `hard` against Rapfi on one thread, 15x15 freestyle, 1 s a move,
//! 10 balanced openings played once with each colour (20 games, about four minutes). Give Rapfi
//! 100 ms a move or more: at 30 ms it finishes no search (`Eval VAL_NONE`) and plays at random.
//!
//! Parlor's side runs in this process (`gomoku::ai::choose_move`, `--level`, on `--threads`
//! threads, 1 by default). The opponent is `sh -c "exec <--engine>"` started in `--engine-dir`
//! (Rapfi must run from its own folder, where its config and model are); a fresh process for
//! every game, so nothing it learnt in one game (its hash table) carries over to the next. It is
//! told `INFO rule` (0 freestyle, 1 standard, 4 renju), `INFO thread_num` (`--engine-threads`,
//! 1), `INFO timeout_turn` (`--time-ms`, the same time Parlor gets) and a huge
//! `INFO timeout_match`; it gets the position with `BOARD` on its first move and each of
//! Parlor's moves with `TURN`. Its `MESSAGE` lines are read for `Eval` and `Speed`, which Rapfi
//! prints.
//!
//! Openings: three stones (black, white, black) drawn at random in the central 7x7, each played
//! twice, Parlor black once and white once. With `--balance` an opening is kept only if the
//! opponent itself, asked for white's move after `--balance-ms` (200) of thinking, evaluates it
//! within ±`--balance-max` (150) for the side to move. Rapfi's last `Eval` of 40 random openings
//! at 200 ms ranged from -731 to +633 (white's view; most favour black), and 150 keeps about one
//! in four, so the kept openings are close to even by the yardstick's own judgement. Openings come
//! from `--seed`; the balance check rests on a timed search, so a rerun may keep slightly
//! different ones: the records name every opening played.
//!
//! `Gomoku::play` is the referee: an engine's move it refuses (occupied, off the board, or under
//! renju a forbidden point) loses the game on the spot, as does an answer that is not a move, an
//! `ERROR`, or no answer within `--no-answer-ms` (10 x the move time + 10 s). Moves slower than
//! `--max-move-ms` (2 x the move time) are only flagged, for either side.
//!
//! `--records <dir>` writes `game-NNN.json` for every game (the opening and its evaluation, every
//! move with the time it took, the result and why) and `summary.txt` (what is printed). `--jobs J`
//! plays J games at a time, each with its own engine; a job keeps about one core busy (the side
//! to move thinks, the other waits), so mind the machine's cores: timed searches lose strength
//! when they share one.
//!
//! Against another build of Parlor (`--engine "path/to/gomoku_pbrain --level hard --threads 1"`,
//! an A/B test), pass `--reserve-ms 30`: `gomoku_pbrain` keeps 30 ms of each move for the
//! protocol, and Parlor's side here then leaves the same 30 ms unused, so both think as long.

use std::collections::HashSet;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use parlor_games::gomoku::{ai, Gomoku, Point, Rule, Stone};
use parlor_games::AiLevel;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

#[path = "shared/gomoku_matches.rs"]
mod gomoku_matches;
use gomoku_matches::{parse_level, Clock};

const USAGE: &str = "usage: gomoku_versus --engine \"<command>\" [--engine-dir DIR] \
[--engine-threads T] [--games N | --openings N] [--time-ms M] [--rule freestyle|standard|renju] \
[--size S] [--seed X] [--jobs J] [--level easy|normal|hard] [--threads T] [--records DIR] [--balance] \
[--balance-ms M] [--balance-max E] [--max-move-ms M] [--no-answer-ms M] [--reserve-ms M]";

struct Options {
    engine: String,
    engine_dir: PathBuf,
    engine_threads: u32,
    openings: usize,
    time: Duration,
    /// Taken off each of Parlor's moves (see `--reserve-ms`).
    reserve: Duration,
    max_move: Duration,
    no_answer: Duration,
    rule: Rule,
    size: u8,
    seed: u64,
    jobs: usize,
    level: AiLevel,
    threads: usize,
    records: Option<PathBuf>,
    balance: bool,
    balance_ms: u64,
    balance_max: i64,
}

fn parse_rule(text: &str) -> Result<Rule, String> {
    match text {
        "freestyle" => Ok(Rule::Freestyle),
        "standard" => Ok(Rule::Standard),
        "renju" => Ok(Rule::Renju),
        other => Err(format!(
            "unknown rule {other:?} (freestyle, standard, renju)"
        )),
    }
}

/// The rule's number in `INFO rule`.
fn piskvork_rule(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

fn rule_name(rule: Rule) -> String {
    format!("{rule:?}").to_lowercase()
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        engine: String::new(),
        engine_dir: PathBuf::from("."),
        engine_threads: 1,
        openings: 10,
        time: Duration::from_millis(1000),
        reserve: Duration::ZERO,
        max_move: Duration::ZERO,
        no_answer: Duration::ZERO,
        rule: Rule::Freestyle,
        size: Gomoku::DEFAULT_SIZE,
        seed: 1,
        jobs: 1,
        level: AiLevel::Hard,
        threads: 1,
        records: None,
        balance: false,
        balance_ms: 200,
        balance_max: 150,
    };
    let mut args = env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--balance" {
            options.balance = true;
            continue;
        }
        if flag == "--help" || flag == "-h" {
            return Err("help".into());
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: {value:?} is not a number"))
        };
        match flag.as_str() {
            "--engine" => options.engine = value.clone(),
            "--engine-dir" => options.engine_dir = PathBuf::from(&value),
            "--engine-threads" => {
                options.engine_threads = number()?.clamp(1, 1024) as u32;
            }
            "--games" => {
                let games = number()? as usize;
                if games == 0 || !games.is_multiple_of(2) {
                    return Err(format!(
                        "--games {games}: every opening is played with both colours, give an even number"
                    ));
                }
                options.openings = games / 2;
            }
            "--openings" => options.openings = (number()? as usize).max(1),
            "--time-ms" => options.time = Duration::from_millis(number()?.max(1)),
            "--reserve-ms" => options.reserve = Duration::from_millis(number()?),
            "--max-move-ms" => options.max_move = Duration::from_millis(number()?),
            "--no-answer-ms" => options.no_answer = Duration::from_millis(number()?),
            "--rule" => options.rule = parse_rule(&value)?,
            "--size" => options.size = number()?.try_into().map_err(|_| "--size too big")?,
            "--seed" => options.seed = number()?,
            "--jobs" => options.jobs = (number()? as usize).max(1),
            "--level" => options.level = parse_level(&value)?,
            "--threads" => options.threads = (number()? as usize).max(1),
            "--records" => options.records = Some(PathBuf::from(&value)),
            "--balance-ms" => options.balance_ms = number()?.max(1),
            "--balance-max" => options.balance_max = number()? as i64,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if options.engine.trim().is_empty() {
        return Err("--engine \"<command>\" is required".into());
    }
    Gomoku::new(options.size, options.rule).map_err(|e| e.to_string())?;
    if options.max_move.is_zero() {
        options.max_move = options.time * 2;
    }
    if options.no_answer.is_zero() {
        options.no_answer = options.time * 10 + Duration::from_secs(10);
    }
    Ok(options)
}

// ---------------------------------------------------------------------------------------------
// The engine: a Piskvork brain in a subprocess.

/// A Piskvork engine. Its output is read by a thread of its own, so an engine that goes silent
/// costs a timeout rather than a hung runner.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// When the engine's last move arrived (see [`SETTLE`]).
    answered: Option<Instant>,
    /// `TURN`s sent again because the engine dropped them (see [`Engine::turn`]).
    resent: u32,
}

/// The least time between an engine's move and the next command. Rapfi prints its move from a
/// helper thread and only then marks itself idle; a command that arrives in between is dropped
/// (its first word is eaten, the rest is then read as an unknown command, and a dropped `BOARD`
/// leaves one `ERROR` line per stone that would answer the next requests). A move by Parlor can
/// come back within a millisecond when it is forced, and the balance check sends the next
/// position at once, so nothing is sent to the engine until this long after its last move; a
/// slower Parlor move costs nothing.
const SETTLE: Duration = Duration::from_millis(30);

/// What the engine said before its answer.
#[derive(Default)]
struct Messages {
    /// The last `Eval` (for the side to move), as printed (a mate may not be a number).
    eval: Option<String>,
    /// The last `Speed`, in nodes a second.
    speed: Option<f64>,
}

impl Messages {
    fn read(&mut self, message: &str) {
        for field in message.split('|') {
            let mut words = field.split_whitespace();
            while let Some(word) = words.next() {
                match word {
                    "Eval" => self.eval = words.next().map(str::to_owned),
                    "Speed" => self.speed = words.next().and_then(parse_speed),
                    _ => {}
                }
            }
        }
    }
}

/// `257K` -> 257000.0; `1.2M` -> 1200000.0.
fn parse_speed(text: &str) -> Option<f64> {
    let (number, scale) = match text.chars().last()? {
        'K' | 'k' => (&text[..text.len() - 1], 1e3),
        'M' | 'm' => (&text[..text.len() - 1], 1e6),
        'G' | 'g' => (&text[..text.len() - 1], 1e9),
        _ => (text, 1.0),
    };
    number.parse::<f64>().ok().map(|n| n * scale)
}

impl Engine {
    /// Starts the engine, sends `START` and the `INFO`s with `turn` as the time a move.
    fn start(options: &Options, turn: Duration) -> Result<Engine, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {}", options.engine))
            .current_dir(&options.engine_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start {:?} in {}: {e}",
                    options.engine,
                    options.engine_dir.display()
                )
            })?;
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            answered: None,
            resent: 0,
        };
        engine.send(&format!("START {}", options.size))?;
        let (reply, _) = engine.reply(Duration::from_secs(30))?;
        if !reply.eq_ignore_ascii_case("OK") {
            return Err(format!("START {} answered {reply:?}", options.size));
        }
        engine.send(&format!("INFO rule {}", piskvork_rule(options.rule)))?;
        engine.send(&format!("INFO thread_num {}", options.engine_threads))?;
        engine.send(&format!("INFO timeout_turn {}", turn.as_millis()))?;
        engine.send("INFO timeout_match 1000000000")?;
        Ok(engine)
    }

    /// Sends one line, [`SETTLE`] after the engine's last move at the earliest.
    fn send(&mut self, line: &str) -> Result<(), String> {
        if let Some(answered) = self.answered {
            thread::sleep(SETTLE.saturating_sub(answered.elapsed()));
        }
        let stdin = self.stdin.as_mut().ok_or("the engine's input is closed")?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine ({e}): has it exited?"))
    }

    /// The next line that is not a `MESSAGE` or `DEBUG`, and what the messages before it said.
    fn reply(&mut self, wait: Duration) -> Result<(String, Messages), String> {
        let deadline = Instant::now() + wait;
        let mut messages = Messages::default();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim();
                    if let Some(message) = line.strip_prefix("MESSAGE") {
                        messages.read(message);
                    } else if !line.is_empty() && !line.starts_with("DEBUG") {
                        return Ok((line.to_owned(), messages));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {} ms", wait.as_millis()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the engine closed its output (it exited?)".into())
                }
            }
        }
    }

    /// Sends the whole position (`BOARD`, in move order, 1 = the engine's stones) and returns
    /// the answer.
    fn board(
        &mut self,
        game: &Gomoku,
        wait: Duration,
    ) -> Result<(String, Messages, Duration), String> {
        let own = game.next();
        self.send("BOARD")?;
        for (i, &p) in game.moves().iter().enumerate() {
            let stone = if i % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            let (x, y) = xy(p, game.size());
            self.send(&format!("{x},{y},{}", if stone == own { 1 } else { 2 }))?;
        }
        self.send("DONE")?;
        let started = Instant::now();
        let (line, messages) = self.reply(wait)?;
        self.answered = Some(Instant::now());
        Ok((line, messages, started.elapsed()))
    }

    /// Tells the engine the opponent's move `p` and returns its answer. Should the engine still
    /// drop the `TURN` (it answers `ERROR Unknown command: x,y`, see [`SETTLE`]), it is sent
    /// again, up to three times, and counted in `resent`.
    fn turn(
        &mut self,
        p: Point,
        size: u8,
        wait: Duration,
    ) -> Result<(String, Messages, Duration), String> {
        let (x, y) = xy(p, size);
        let dropped = format!("ERROR Unknown command: {x},{y}");
        let mut tries = 0;
        loop {
            self.send(&format!("TURN {x},{y}"))?;
            let started = Instant::now();
            let (line, messages) = self.reply(wait)?;
            self.answered = Some(Instant::now());
            if line == dropped && tries < 3 {
                tries += 1;
                self.resent += 1;
                continue;
            }
            return Ok((line, messages, started.elapsed()));
        }
    }

    /// `ABOUT`'s `name="…", version="…"` as the name and `name version`, if the engine answers.
    fn about(&mut self) -> Option<(String, String)> {
        self.send("ABOUT").ok()?;
        let (line, _) = self.reply(Duration::from_secs(5)).ok()?;
        let field = |key: &str| {
            let start = line.find(&format!("{key}=\""))? + key.len() + 2;
            let end = line[start..].find('"')? + start;
            Some(line[start..end].to_owned())
        };
        let name = field("name")?;
        let full = match field("version") {
            Some(version) => format!("{name} {version}"),
            None => name.clone(),
        };
        Some((name, full))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("END");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Piskvork coordinates: x the column from the left, y the row from the top (Parlor's row 0 is
/// the bottom).
fn xy(p: Point, size: u8) -> (u8, u8) {
    (p.col, size - 1 - p.row)
}

/// An engine's answer `x,y` as a point; `Err` when it is not two numbers or lies off the board.
fn parse_answer(line: &str, size: u8) -> Result<Point, String> {
    let mut parts = line.split(',').map(|s| s.trim().parse::<u32>());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => {
            if x < u32::from(size) && y < u32::from(size) {
                Ok(Point::new(x as u8, size - 1 - y as u8))
            } else {
                Err(format!("answered {line:?}: off the {size}x{size} board"))
            }
        }
        _ => Err(format!("answered {line:?}, which is not a move")),
    }
}

// ---------------------------------------------------------------------------------------------
// Openings.

#[derive(Clone)]
struct Opening {
    moves: [Point; 3],
    /// The opponent's evaluation for white (to move), when balanced.
    eval: Option<i64>,
}

fn random_opening(rng: &mut ChaCha8Rng, size: u8) -> [Point; 3] {
    let centre = size / 2;
    let radius = 3.min(centre);
    let mut draw = || {
        Point::new(
            rng.gen_range(centre - radius..=centre + radius),
            rng.gen_range(centre - radius..=centre + radius),
        )
    };
    loop {
        let moves = [draw(), draw(), draw()];
        if moves[0] != moves[1] && moves[0] != moves[2] && moves[1] != moves[2] {
            return moves;
        }
    }
}

/// `options.openings` distinct openings; with `--balance`, only those the engine (`probe`)
/// finds close to even. Also returns how many were drawn.
fn make_openings(
    options: &Options,
    probe: &mut Option<Engine>,
) -> Result<(Vec<Opening>, usize), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    let mut drawn = 0;
    while openings.len() < options.openings {
        if drawn >= 200 * options.openings {
            return Err(format!(
                "only {} of {} openings passed the balance check in {drawn} tries: \
                 raise --balance-max",
                openings.len(),
                options.openings
            ));
        }
        let moves = random_opening(&mut rng, options.size);
        drawn += 1;
        if !seen.insert(moves) {
            continue;
        }
        let mut eval = None;
        if let Some(engine) = probe.as_mut() {
            let game = Gomoku::from_moves(options.size, options.rule, &moves)
                .expect("three distinct stones are a legal start");
            let wait = Duration::from_millis(options.balance_ms * 10) + Duration::from_secs(10);
            let (line, messages, _) = engine
                .board(&game, wait)
                .map_err(|e| format!("balance check: {e}"))?;
            // Anything but a move means the engine and the runner are out of step: stop rather
            // than credit one position with another's evaluation.
            parse_answer(&line, options.size)
                .map_err(|e| format!("balance check: the engine {e}"))?;
            match messages.eval.as_deref().and_then(|e| e.parse::<i64>().ok()) {
                Some(e) if e.abs() <= options.balance_max => eval = Some(e),
                _ => continue,
            }
        }
        openings.push(Opening { moves, eval });
    }
    Ok((openings, drawn))
}

// ---------------------------------------------------------------------------------------------
// One game.

struct GameResult {
    index: usize,
    opening: usize,
    parlor_black: bool,
    moves: usize,
    /// Parlor's result: 1 a win, 0.5 a draw, 0 a loss.
    score: f64,
    /// `five`, `full board`, `illegal move`, `no answer`, ...
    ending: &'static str,
    reason: String,
    clocks: [Clock; 2], // [Parlor, opponent]
    parlor_nodes: u64,
    parlor_ms: u64,
    engine_speeds: Vec<f64>,
    /// `TURN`s the engine dropped and got again.
    resent: u32,
    record: Value,
}

/// 0 for a loss, 1 for a draw, 2 for a win, from a score of 0, 0.5 or 1.
fn outcome(score: f64) -> usize {
    (score * 2.0).round() as usize
}

fn colour_name(stone: Stone) -> &'static str {
    match stone {
        Stone::Black => "black",
        Stone::White => "white",
    }
}

fn play_game(
    options: &Options,
    index: usize,
    opening_index: usize,
    opening: &Opening,
    engine_name: &str,
) -> Result<GameResult, String> {
    let parlor_black = index.is_multiple_of(2);
    let parlor = if parlor_black {
        Stone::Black
    } else {
        Stone::White
    };
    let size = options.size;
    let mut game = Gomoku::from_moves(size, options.rule, &opening.moves)
        .expect("three distinct stones are a legal start");
    let mut engine = Engine::start(options, options.time)?;
    let mut rng = ChaCha8Rng::seed_from_u64(
        options
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(index as u64),
    );
    let mut clocks = [Clock::default(), Clock::default()];
    let (mut parlor_nodes, mut parlor_ms) = (0, 0);
    let mut engine_speeds = Vec::new();
    let mut engine_has_board = false;
    let mut records = Vec::new();
    // Set when a side forfeits: (the loser, ending, reason).
    let mut forfeit: Option<(Stone, &'static str, String)> = None;
    let mut illegal: Option<String> = None;

    while !game.is_over() {
        let mover = game.next();
        let number = game.moves().len() + 1;
        if mover == parlor {
            let started = Instant::now();
            let decision = ai::choose_move(
                &game,
                options.level,
                options
                    .time
                    .saturating_sub(options.reserve)
                    .max(Duration::from_millis(1)),
                options.threads,
                &mut rng,
            )
            .expect("a game in progress has a move");
            let took = started.elapsed();
            clocks[0].add(took, options.max_move);
            parlor_nodes += decision.analysis.nodes;
            parlor_ms += decision.analysis.elapsed_ms;
            let (x, y) = xy(decision.point, size);
            records.push(json!({
                "n": number, "colour": colour_name(mover), "player": "parlor",
                "move": decision.point.to_string(), "xy": format!("{x},{y}"),
                "ms": (took.as_secs_f64() * 1e4).round() / 10.0,
                "over_max": took > options.max_move,
                "depth": decision.analysis.depth, "score": decision.analysis.score,
                "nodes": decision.analysis.nodes,
            }));
            if let Err(e) = game.play(decision.point) {
                illegal = Some(decision.point.to_string());
                forfeit = Some((mover, "illegal move", format!("Parlor played {e}")));
                break;
            }
            continue;
        }
        let asked = if engine_has_board {
            let last = game.last_move().expect("Parlor has just moved");
            engine.turn(last, size, options.no_answer)
        } else {
            engine_has_board = true;
            engine.board(&game, options.no_answer)
        };
        let (line, messages, took) = match asked {
            Ok(answer) => answer,
            Err(e) => {
                forfeit = Some((mover, "no answer", format!("{engine_name}: {e}")));
                break;
            }
        };
        clocks[1].add(took, options.max_move);
        engine_speeds.extend(messages.speed);
        let mut record = json!({
            "n": number, "colour": colour_name(mover), "player": "opponent", "xy": line,
            "ms": (took.as_secs_f64() * 1e4).round() / 10.0,
            "over_max": took > options.max_move,
            "eval": messages.eval, "speed": messages.speed,
        });
        if line.starts_with("ERROR") || line.starts_with("UNKNOWN") {
            forfeit = Some((mover, "engine error", format!("{engine_name}: {line}")));
            records.push(record);
            break;
        }
        let point = match parse_answer(&line, size) {
            Ok(point) => point,
            Err(e) => {
                illegal = Some(line.clone());
                forfeit = Some((mover, "illegal move", format!("{engine_name} {e}")));
                records.push(record);
                break;
            }
        };
        record["move"] = json!(point.to_string());
        records.push(record);
        if let Err(e) = game.play(point) {
            illegal = Some(point.to_string());
            forfeit = Some((
                mover,
                "illegal move",
                format!("{engine_name} played {line} ({point}): {e}"),
            ));
            break;
        }
    }
    let resent = engine.resent;
    drop(engine);

    let (winner, ending, reason, line) = match forfeit {
        Some((loser, ending, reason)) => (Some(loser.opponent()), ending, reason, Vec::new()),
        None => {
            let outcome = game.outcome().expect("the loop ends with the game");
            match outcome.winner {
                Some(stone) => (
                    Some(stone),
                    "five",
                    format!("{} made five", colour_name(stone)),
                    outcome.line.clone(),
                ),
                None => (
                    None,
                    "full board",
                    "the board is full".to_owned(),
                    Vec::new(),
                ),
            }
        }
    };
    let score = match winner {
        None => 0.5,
        Some(stone) if stone == parlor => 1.0,
        Some(_) => 0.0,
    };
    let opponent_colour = parlor.opponent();
    let record = json!({
        "game": index,
        "opening_index": opening_index,
        "parlor": {"colour": colour_name(parlor), "level": options.level.as_str(),
                   "time_ms": options.time.as_millis() as u64,
                   "reserve_ms": options.reserve.as_millis() as u64},
        "opponent": {"colour": colour_name(opponent_colour), "name": engine_name,
                     "command": options.engine, "threads": options.engine_threads,
                     "time_ms": options.time.as_millis() as u64},
        "size": size,
        "rule": rule_name(options.rule),
        "opening": {
            "moves": opening.moves.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "xy": opening.moves.iter().map(|&p| {
                let (x, y) = xy(p, size);
                format!("{x},{y}")
            }).collect::<Vec<_>>(),
            "eval_for_white": opening.eval,
        },
        "moves": records,
        "turns_resent": resent,
        "result": {
            "winner": winner.map(colour_name),
            "parlor": (["loss", "draw", "win"][outcome(score)]),
            "ending": ending,
            "reason": reason,
            "line": line.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "illegal_move": illegal,
            "moves": game.moves().len(),
        },
    });
    Ok(GameResult {
        index,
        opening: opening_index,
        parlor_black,
        moves: game.moves().len(),
        score,
        ending,
        reason,
        clocks,
        parlor_nodes,
        parlor_ms,
        engine_speeds,
        resent,
        record,
    })
}

// ---------------------------------------------------------------------------------------------
// The report.

/// The 95 % Wilson score interval of `score` successes out of `n` (a draw counts half).
fn wilson(score: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n) = (1.96_f64, n as f64);
    let p = score / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn tally_line(label: &str, results: &[&GameResult]) -> String {
    let n = results.len();
    let wins = results.iter().filter(|r| r.score == 1.0).count();
    let draws = results.iter().filter(|r| r.score == 0.5).count();
    let losses = n - wins - draws;
    let score: f64 = results.iter().map(|r| r.score).sum();
    let (low, high) = wilson(score, n);
    format!(
        "Parlor {label}: {n} games, {wins} won, {draws} drawn, {losses} lost: score {:.1} % \
         (95 % Wilson {:.1}-{:.1} %)",
        100.0 * score / n.max(1) as f64,
        100.0 * low,
        100.0 * high
    )
}

fn report(
    options: &Options,
    engine_name: &str,
    engine_version: &str,
    openings: &[Opening],
    drawn: usize,
    results: &[GameResult],
    wall: Duration,
) -> String {
    let mut out = String::new();
    let ms = options.time.as_millis();
    let _ = writeln!(
        out,
        "command: {}",
        env::args().collect::<Vec<_>>().join(" ")
    );
    let _ = writeln!(
        out,
        "Parlor {} (in-process, 1 thread) vs {engine_version} ({:?}, {} thread{}); {}x{} {}; \
         {ms} ms a move each; seed {}; {} job{}; wall {:.0} s",
        options.level.as_str(),
        options.engine,
        options.engine_threads,
        if options.engine_threads == 1 { "" } else { "s" },
        options.size,
        options.size,
        rule_name(options.rule),
        options.seed,
        options.jobs,
        if options.jobs == 1 { "" } else { "s" },
        wall.as_secs_f64()
    );
    if options.balance {
        let _ = writeln!(
            out,
            "openings: {} kept of {drawn} drawn, |{engine_name} eval| <= {} after {} ms",
            openings.len(),
            options.balance_max,
            options.balance_ms
        );
    } else {
        let _ = writeln!(
            out,
            "openings: {} random, not balanced (no --balance)",
            openings.len()
        );
    }
    for (i, opening) in openings.iter().enumerate() {
        let moves: Vec<String> = opening.moves.iter().map(|p| p.to_string()).collect();
        let eval = opening
            .eval
            .map(|e| format!(" (eval for white {e:+})"))
            .unwrap_or_default();
        let games: Vec<String> = results
            .iter()
            .filter(|r| r.opening == i)
            .map(|r| {
                format!(
                    "as {} {}",
                    if r.parlor_black { "black" } else { "white" },
                    ["lost", "drew", "won"][outcome(r.score)]
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "  opening {i:2}: {}{eval}: Parlor {}",
            moves.join(" "),
            games.join(", ")
        );
    }
    let black: Vec<&GameResult> = results.iter().filter(|r| r.parlor_black).collect();
    let white: Vec<&GameResult> = results.iter().filter(|r| !r.parlor_black).collect();
    let all: Vec<&GameResult> = results.iter().collect();
    let _ = writeln!(out, "{}", tally_line("as black", &black));
    let _ = writeln!(out, "{}", tally_line("as white", &white));
    let _ = writeln!(out, "{}", tally_line("overall ", &all));

    let mut endings: Vec<(&str, usize)> = Vec::new();
    for r in results {
        match endings.iter_mut().find(|(e, _)| *e == r.ending) {
            Some((_, count)) => *count += 1,
            None => endings.push((r.ending, 1)),
        }
    }
    let length: usize = results.iter().map(|r| r.moves).sum();
    let _ = writeln!(
        out,
        "endings: {}; average length {:.1} moves (3 of them the opening)",
        endings
            .iter()
            .map(|(e, c)| format!("{e} {c}"))
            .collect::<Vec<_>>()
            .join(", "),
        length as f64 / results.len().max(1) as f64
    );
    for r in results
        .iter()
        .filter(|r| r.ending != "five" && r.ending != "full board")
    {
        let _ = writeln!(out, "  game {}: {}", r.index, r.reason);
    }

    let mut clocks = [Clock::default(), Clock::default()];
    for r in results {
        clocks[0].merge(&r.clocks[0]);
        clocks[1].merge(&r.clocks[1]);
    }
    for (name, clock) in [("Parlor", &clocks[0]), (engine_name, &clocks[1])] {
        let _ = writeln!(
            out,
            "{name}: {} moves, think time average {:.0} ms, max {:.0} ms; {} over --max-move-ms {}",
            clock.moves,
            clock.average_ms(),
            clock.max.as_secs_f64() * 1000.0,
            clock.over,
            options.max_move.as_millis()
        );
    }
    let resent: u32 = results.iter().map(|r| r.resent).sum();
    if resent > 0 {
        let _ = writeln!(
            out,
            "{engine_name} dropped {resent} TURN{} while finishing its move; sent again",
            if resent == 1 { "" } else { "s" }
        );
    }
    let nodes: u64 = results.iter().map(|r| r.parlor_nodes).sum();
    let parlor_ms: u64 = results.iter().map(|r| r.parlor_ms).sum();
    let speeds: Vec<f64> = results
        .iter()
        .flat_map(|r| r.engine_speeds.iter().copied())
        .collect();
    let engine_speed = if speeds.is_empty() {
        "does not report a speed".to_owned()
    } else {
        format!(
            "reports {:.0}K nodes/s (mean of its Speed messages over {} moves)",
            speeds.iter().sum::<f64>() / speeds.len() as f64 / 1000.0,
            speeds.len()
        )
    };
    let _ = writeln!(
        out,
        "speed: Parlor {:.0}K nodes/s (its nodes / elapsed_ms over all its moves); {engine_name} \
         {engine_speed}. Each engine counts nodes its own way.",
        nodes as f64 / parlor_ms.max(1) as f64
    );
    out
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            if message != "help" {
                eprintln!("gomoku_versus: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(dir) = &options.records {
        if let Err(e) = fs::create_dir_all(dir) {
            eprintln!("gomoku_versus: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    }
    let started = Instant::now();

    // One engine to learn its name and, with --balance, to judge the openings.
    let probe_turn = Duration::from_millis(options.balance_ms);
    let mut probe = match Engine::start(&options, probe_turn) {
        Ok(engine) => Some(engine),
        Err(e) => {
            eprintln!("gomoku_versus: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (engine_name, engine_version) =
        probe.as_mut().and_then(Engine::about).unwrap_or_else(|| {
            let program = options.engine.split_whitespace().next().unwrap_or("engine");
            let name = program.rsplit('/').next().unwrap_or(program).to_owned();
            (name.clone(), name)
        });
    if !options.balance {
        probe = None;
    }
    let (openings, drawn) = match make_openings(&options, &mut probe) {
        Ok(openings) => openings,
        Err(e) => {
            eprintln!("gomoku_versus: {e}");
            return ExitCode::FAILURE;
        }
    };
    drop(probe);
    if options.balance {
        println!(
            "{} balanced openings of {drawn} drawn ({:.0} s)",
            openings.len(),
            started.elapsed().as_secs_f64()
        );
    }

    let games = openings.len() * 2;
    let next_game = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<GameResult>> = Mutex::new(Vec::with_capacity(games));
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..options.jobs.min(games) {
            scope.spawn(|| loop {
                let index = next_game.fetch_add(1, Ordering::Relaxed);
                if index >= games || failed.load(Ordering::Relaxed) {
                    break;
                }
                let opening = index / 2;
                match play_game(&options, index, opening, &openings[opening], &engine_name) {
                    Ok(result) => {
                        if let Some(dir) = &options.records {
                            let path = dir.join(format!("game-{index:03}.json"));
                            let text = serde_json::to_string_pretty(&result.record)
                                .expect("a JSON value serializes");
                            if let Err(e) = fs::write(&path, text + "\n") {
                                eprintln!("gomoku_versus: cannot write {}: {e}", path.display());
                            }
                        }
                        let mut results = results.lock().expect("no panics while holding");
                        results.push(result);
                        let r = results.last().expect("just pushed");
                        let score: f64 = results.iter().map(|r| r.score).sum();
                        println!(
                            "game {:3} (opening {:2}): Parlor {} {:4} {:12} {:3} moves  \
                             [{score}/{}]",
                            r.index,
                            r.opening,
                            if r.parlor_black { "B" } else { "W" },
                            ["lost", "drew", "won"][outcome(r.score)],
                            r.ending,
                            r.moves,
                            results.len()
                        );
                    }
                    Err(e) => {
                        failed.store(true, Ordering::Relaxed);
                        errors
                            .lock()
                            .expect("no panics while holding")
                            .push(format!("game {index}: {e}"));
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().expect("no panics while holding");
    if !errors.is_empty() {
        for e in errors {
            eprintln!("gomoku_versus: {e}");
        }
        return ExitCode::FAILURE;
    }
    let mut results = results.into_inner().expect("no panics while holding");
    results.sort_by_key(|r| r.index);
    let text = report(
        &options,
        &engine_name,
        &engine_version,
        &openings,
        drawn,
        &results,
        started.elapsed(),
    );
    println!();
    print!("{text}");
    if let Some(dir) = &options.records {
        let path = dir.join("summary.txt");
        if let Err(e) = fs::write(&path, &text) {
            eprintln!("gomoku_versus: cannot write {}: {e}", path.display());
        }
    }
    ExitCode::SUCCESS
}
