//! Fault tests against the real binary: two server processes racing on one database, `kill -9` under
//! load, the database restarted under load, and a flood of slow AI requests beside plain reads.
//!
//! Every test starts its own Parlor processes (`CARGO_BIN_EXE_parlor`) on free ports, drives them
//! with concurrent HTTP clients, and then checks the database through the API: every acknowledged
//! (200) change is in the move log at the `seq` its response named, the log is gapless (1..=version),
//! and the stored state is the replay of the log. Child processes (and the private PostgreSQL cluster)
//! are stopped by Drop guards, also when a test fails; a failing test prints the server logs
//! (`FAULTS_RUST_LOG` overrides their `RUST_LOG`, default `warn,actix_server=info`, which also shows
//! a stray signal that stopped a server).

mod common;

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{fresh_database, Db};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::Method;
use serde_json::{json, Value};

/// The load tests (one to three) may share the machine; the latency test takes it alone, so its
/// timing assertions measure Parlor and not a neighbour's load.
static MACHINE: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// Longest any one fault test may run before it counts as a hang.
const TEST_DEADLINE: Duration = Duration::from_secs(100);

/// Board size of the games under load.
const SIZE: u8 = 15;

// ------------------------------------------------------------------------------------------------
// Parlor processes
// ------------------------------------------------------------------------------------------------

/// Settings a developer's environment might hold; the children get only what the test sets.
const CONFIG_VARS: [&str; 10] = [
    "HOST",
    "PORT",
    "DATABASE_URL",
    "PARLOR_BODY_LIMIT",
    "PARLOR_AI_WORKERS",
    "PARLOR_AI_QUEUE",
    "PARLOR_AI_RATE_PER_MINUTE",
    "PARLOR_WORKERS",
    "PARLOR_LOG_FORMAT",
    "RUST_LOG",
];

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn tail(path: &Path, chars: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let start = text.len().saturating_sub(chars);
    let start = (start..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    text[start..].to_owned()
}

/// A Parlor server process; killed (SIGKILL) when dropped. Its output goes to a log file that is
/// printed when the test fails.
struct Parlor {
    name: String,
    child: Option<Child>,
    base: String,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Parlor {
    /// Starts the binary on a free port and waits until `/health` answers.
    async fn start(name: &str, database_url: &str, env: &[(&str, &str)]) -> Parlor {
        for _ in 0..5 {
            let dir = tempfile::tempdir().expect("temp dir");
            let port = free_port();
            let log = dir.path().join(format!("{name}.log"));
            let out = File::create(&log).expect("log file");
            let mut command = Command::new(env!("CARGO_BIN_EXE_parlor"));
            for var in CONFIG_VARS {
                command.env_remove(var);
            }
            command
                .env("HOST", "127.0.0.1")
                .env("PORT", port.to_string())
                .env("DATABASE_URL", database_url)
                .env("PARLOR_WORKERS", "2")
                .env(
                    "RUST_LOG",
                    std::env::var("FAULTS_RUST_LOG").unwrap_or("warn,actix_server=info".into()),
                )
                .env("NO_COLOR", "1")
                .envs(env.iter().copied())
                .stdin(Stdio::null())
                .stdout(out.try_clone().expect("log file"))
                .stderr(out);
            // In its guard at once: a test that fails (or times out) while it starts kills it too.
            let mut server = Parlor {
                name: format!("{name} (port {port})"),
                child: Some(command.spawn().expect("the parlor binary starts")),
                base: format!("http://127.0.0.1:{port}"),
                log,
                _dir: dir,
            };
            match server.wait_healthy(Duration::from_secs(30)).await {
                Ok(()) => return server,
                // Another process took the port between our probe and the bind: try another.
                Err(true) if tail(&server.log, 4000).contains("in use") => continue,
                Err(_) => panic!("{} did not become healthy", server.name),
            }
        }
        panic!("{name}: no free port after 5 attempts");
    }

    /// Polls `/health`; `Err(true)` when the process exited, `Err(false)` on timeout.
    async fn wait_healthy(&mut self, within: Duration) -> Result<(), bool> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(1))
            .build()
            .unwrap();
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(child) = self.child.as_mut() {
                if child.try_wait().ok().flatten().is_some() {
                    return Err(true);
                }
            }
            if let Ok(r) = http.get(format!("{}/health", self.base)).send().await {
                if r.status() == 200 {
                    return Ok(());
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Err(false)
    }

    /// `kill -9`: no shutdown hook, no flush, in-flight requests cut. Whether it was still running.
    fn kill9(&mut self) -> bool {
        let Some(mut child) = self.child.take() else {
            return false;
        };
        let running = matches!(child.try_wait(), Ok(None));
        let _ = child.kill();
        let _ = child.wait();
        running
    }
}

impl Drop for Parlor {
    fn drop(&mut self) {
        // Whether it was still running says a lot about a failure: report it.
        let exited = self
            .child
            .as_mut()
            .and_then(|c| c.try_wait().ok().flatten())
            .map_or("still running".to_string(), |s| format!("had EXITED: {s}"));
        self.kill9();
        if std::thread::panicking() {
            eprintln!(
                "----- {} {exited}; its log (last 6000 chars) -----\n{}\n----- end of log -----",
                self.name,
                tail(&self.log, 6000)
            );
        }
    }
}

// ------------------------------------------------------------------------------------------------
// A private PostgreSQL cluster (test three)
// ------------------------------------------------------------------------------------------------

/// A throw-away PostgreSQL cluster in a temp dir, run as the `postgres` user when we are root.
/// Dropping it stops it (`immediate`) and removes the directory.
struct PgCluster {
    dir: tempfile::TempDir,
    bindir: PathBuf,
    port: u16,
    as_postgres: bool,
}

fn pg_bindir() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        if out.status.success() {
            candidates.push(PathBuf::from(
                String::from_utf8_lossy(&out.stdout).trim().to_owned(),
            ));
        }
    }
    if let Ok(entries) = std::fs::read_dir("/usr/lib/postgresql") {
        let mut versions: Vec<PathBuf> = entries.flatten().map(|e| e.path().join("bin")).collect();
        versions.sort();
        candidates.extend(versions.into_iter().rev());
    }
    for dir in std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
    {
        candidates.push(dir);
    }
    candidates
        .into_iter()
        .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
}

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

impl PgCluster {
    /// `initdb` into a fresh temp dir; `Err` (the reason) when this machine cannot.
    fn create() -> Result<PgCluster, String> {
        let bindir = pg_bindir().ok_or("initdb/pg_ctl not found")?;
        let root = command_output("id", &["-u"]).ok_or("`id -u` failed")? == "0";
        let dir = tempfile::Builder::new()
            .prefix("parlor-pg-")
            .tempdir()
            .map_err(|e| e.to_string())?;
        if root {
            // PostgreSQL refuses to run as root: the cluster belongs to `postgres`.
            let uid: u32 = command_output("id", &["-u", "postgres"])
                .and_then(|s| s.parse().ok())
                .ok_or("no `postgres` user")?;
            let gid: u32 = command_output("id", &["-g", "postgres"])
                .and_then(|s| s.parse().ok())
                .ok_or("no `postgres` group")?;
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .map_err(|e| format!("chown: {e}"))?;
            if command_output("runuser", &["-u", "postgres", "--", "true"]).is_none() {
                return Err("`runuser -u postgres` is unavailable".into());
            }
        }
        let cluster = PgCluster {
            dir,
            bindir,
            port: free_port(),
            as_postgres: root,
        };
        let data = cluster.data();
        cluster.run(
            "initdb",
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "--no-locale",
                "-E",
                "UTF8",
            ],
        )?;
        Ok(cluster)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Runs a PostgreSQL tool (as `postgres` when we are root); its output goes to `tools.log`.
    fn run(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let program = self.bindir.join(tool);
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        let log = self.dir.path().join("tools.log");
        let out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(|e| e.to_string())?;
        let status = command
            .args(args)
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .stdout(out.try_clone().map_err(|e| e.to_string())?)
            .stderr(out)
            .status()
            .map_err(|e| format!("{tool}: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!(
                "{tool} {args:?} failed ({status}):\n{}",
                tail(&log, 3000)
            ))
        }
    }

    fn start(&self) -> Result<(), String> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60",
            self.port,
            self.dir.path().display()
        );
        let data = self.data();
        let log = self.dir.path().join("postgres.log");
        self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-o",
                &options,
                "-l",
                log.to_str().unwrap(),
                "-w",
                "-t",
                "30",
                "start",
            ],
        )
    }

    fn stop(&self, mode: &str) -> Result<(), String> {
        let data = self.data();
        self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-m",
                mode,
                "-w",
                "-t",
                "30",
                "stop",
            ],
        )
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        // Stopped already, or never started: pg_ctl just says so.
        let _ = self.stop("immediate");
        if std::thread::panicking() {
            eprintln!(
                "----- private PostgreSQL log -----\n{}\n----- end -----",
                tail(&self.dir.path().join("postgres.log"), 4000)
            );
        }
        // The TempDir removes the (postgres-owned) files; we are root or their owner.
    }
}

// ------------------------------------------------------------------------------------------------
// Clients and what they saw
// ------------------------------------------------------------------------------------------------

fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .build()
        .expect("reqwest client")
}

/// A human-vs-human Gomoku game under load.
#[derive(Clone, Debug)]
struct GameRef {
    id: String,
    tokens: [String; 2],
}

async fn create_games(http: &reqwest::Client, base: &str, n: usize) -> Vec<GameRef> {
    let mut games = Vec::new();
    for _ in 0..n {
        let tag = rand::random::<u32>();
        let r = http
            .post(format!("{base}/v1/gomoku/games"))
            .json(&json!({"size": SIZE, "players": [{"name": format!("fa{tag:08x}")}, {"name": format!("fb{tag:08x}")}]}))
            .send()
            .await
            .expect("create game");
        assert_eq!(r.status(), 201);
        let body: Value = r.json().await.unwrap();
        let mut tokens = [String::new(), String::new()];
        for t in body["tokens"].as_array().unwrap() {
            tokens[t["seat"].as_u64().unwrap() as usize] = t["token"].as_str().unwrap().into();
        }
        games.push(GameRef {
            id: body["id"].as_str().unwrap().into(),
            tokens,
        });
    }
    games
}

/// One HTTP exchange as a client saw it.
#[derive(Clone, Debug)]
struct Record {
    game: usize,
    server: usize,
    /// `GET game`, `POST move h8`, `POST undo` …
    what: String,
    if_match: bool,
    /// `None`: no answer (connection refused or cut, timeout).
    status: Option<u16>,
    code: String,
    content_type: String,
    retry_after: Option<String>,
    body: String,
    /// For a 200 on a change: the version it produced, the action as the log should hold it, and
    /// the moves the response showed.
    ack: Option<Ack>,
    error: Option<String>,
    elapsed: Duration,
    at: Instant,
}

#[derive(Clone, Debug)]
struct Ack {
    game: usize,
    version: i64,
    action: Value,
    moves: Vec<String>,
}

impl Record {
    fn describe(&self) -> String {
        format!(
            "game {} via server {}: {}{} -> {} {} ({} ms) {}",
            self.game,
            self.server,
            self.what,
            if self.if_match { " [If-Match]" } else { "" },
            self.status
                .map_or("no answer".to_string(), |s| s.to_string()),
            self.code,
            self.elapsed.as_millis(),
            self.error
                .as_deref()
                .unwrap_or(&self.body[..self.body.len().min(300)])
        )
    }
}

struct Exchange<'a> {
    http: &'a reqwest::Client,
    base: &'a str,
    game: usize,
    server: usize,
}

impl Exchange<'_> {
    async fn send(
        &self,
        method: Method,
        path: &str,
        what: String,
        body: Option<&Value>,
        token: Option<&str>,
        if_match: Option<i64>,
    ) -> (Record, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(body);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(v) = if_match {
            request = request.header("if-match", format!("\"{v}\""));
        }
        let at = Instant::now();
        let mut record = Record {
            game: self.game,
            server: self.server,
            what,
            if_match: if_match.is_some(),
            status: None,
            code: String::new(),
            content_type: String::new(),
            retry_after: None,
            body: String::new(),
            ack: None,
            error: None,
            elapsed: Duration::ZERO,
            at,
        };
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                record.error = Some(format!("{e:?}"));
                record.elapsed = at.elapsed();
                return (record, Value::Null);
            }
        };
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        record.content_type = header("content-type").unwrap_or_default();
        record.retry_after = header("retry-after");
        match response.text().await {
            Ok(text) => {
                record.status = Some(status);
                record.body = text;
            }
            Err(e) => record.error = Some(format!("status {status}, body cut: {e:?}")),
        }
        record.elapsed = at.elapsed();
        let value: Value = serde_json::from_str(&record.body).unwrap_or(Value::Null);
        record.code = value["code"].as_str().unwrap_or_default().to_owned();
        (record, value)
    }
}

fn moves_of(game: &Value) -> Vec<String> {
    game["state"]["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| m.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn point(col: u8, row: u8) -> String {
    format!("{}{}", char::from(b'a' + col), row + 1)
}

/// How a client behaves.
#[derive(Clone, Copy, Debug)]
struct Style {
    /// Chance that a change carries `If-Match` with the version just read.
    if_match: f64,
    /// Chance of an undo instead of a stone.
    undo: f64,
    /// Chance of a stone for the seat *not* to act (a 409 `not_your_turn`).
    wrong_seat: f64,
}

/// Reads the game, then posts one change for it: a stone on a random empty point for the seat to
/// act (sometimes the other seat), or an undo. Appends what happened to `out`.
async fn step(
    ex: &Exchange<'_>,
    game: &GameRef,
    style: Style,
    rng: &mut StdRng,
    out: &mut Vec<Record>,
) {
    let path = format!("/v1/gomoku/games/{}", game.id);
    let (read, state) = ex
        .send(Method::GET, &path, "GET game".into(), None, None, None)
        .await;
    let ok = read.status == Some(200);
    out.push(read);
    if !ok || state["status"] != "active" {
        return;
    }
    let version = state["version"].as_i64().expect("version");
    let turn = state["turn"].as_u64().expect("turn") as usize;
    let moves = moves_of(&state);
    let if_match = rng.gen_bool(style.if_match).then_some(version);
    let (what, action, route, seat) = if !moves.is_empty() && rng.gen_bool(style.undo) {
        (
            "POST undo".to_string(),
            json!({"action": "undo"}),
            format!("{path}/undo"),
            rng.gen_range(0..2),
        )
    } else {
        let taken: HashSet<&str> = moves.iter().map(String::as_str).collect();
        let spot = loop {
            let p = point(rng.gen_range(0..SIZE), rng.gen_range(0..SIZE));
            if !taken.contains(p.as_str()) {
                break p;
            }
        };
        let seat = if rng.gen_bool(style.wrong_seat) {
            1 - turn
        } else {
            turn
        };
        (
            format!("POST move {spot} as seat {seat}"),
            json!({"move": spot}),
            format!("{path}/moves"),
            seat,
        )
    };
    let body = (route.ends_with("/moves")).then_some(&action);
    let (mut record, reply) = ex
        .send(
            Method::POST,
            &route,
            what,
            body,
            Some(&game.tokens[seat]),
            if_match,
        )
        .await;
    if record.status == Some(200) {
        record.ack = Some(Ack {
            game: ex.game,
            version: reply["version"].as_i64().expect("a 200 names its version"),
            action,
            moves: moves_of(&reply),
        });
    }
    out.push(record);
}

/// Clients posting to `games` through `bases` until stopped (or `steps` each are done).
struct Load {
    stop: Arc<AtomicBool>,
    acks: Arc<AtomicUsize>,
    tasks: Vec<tokio::task::JoinHandle<Vec<Record>>>,
}

impl Load {
    /// `clients` per game; client `c` talks to server `c % bases.len()`. A refused or unanswered
    /// request makes the client pause 50 ms, so an outage does not become a busy loop.
    fn start(
        bases: &[String],
        games: &[GameRef],
        clients: usize,
        steps: Option<usize>,
        style: Style,
    ) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let acks = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for (g, game) in games.iter().enumerate() {
            for c in 0..clients {
                let server = c % bases.len();
                let base = bases[server].clone();
                let game = game.clone();
                let (stop, acks) = (stop.clone(), acks.clone());
                let seed = rand::random::<u64>();
                tasks.push(tokio::spawn(async move {
                    let http = http_client();
                    let ex = Exchange {
                        http: &http,
                        base: &base,
                        game: g,
                        server,
                    };
                    let mut rng = StdRng::seed_from_u64(seed);
                    let mut out = Vec::new();
                    let mut done = 0;
                    while !stop.load(Ordering::Relaxed) && steps.is_none_or(|s| done < s) {
                        let before = out.len();
                        step(&ex, &game, style, &mut rng, &mut out).await;
                        done += 1;
                        let new = &out[before..];
                        acks.fetch_add(
                            new.iter().filter(|r| r.ack.is_some()).count(),
                            Ordering::Relaxed,
                        );
                        if new
                            .iter()
                            .any(|r| r.status.is_none() || r.status == Some(503))
                        {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        if new.first().is_some_and(|r| {
                            r.status == Some(200) && r.body.contains("\"status\":\"finished\"")
                        }) {
                            break;
                        }
                    }
                    out
                }));
            }
        }
        Load { stop, acks, tasks }
    }

    fn acks(&self) -> usize {
        self.acks.load(Ordering::Relaxed)
    }

    async fn wait_acks(&self, n: usize, within: Duration) {
        let deadline = Instant::now() + within;
        while self.acks() < n {
            assert!(
                Instant::now() < deadline,
                "only {} acknowledged changes within {within:?}",
                self.acks()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Stops the clients (after their current step) and collects what they saw.
    async fn finish(self) -> Vec<Record> {
        self.stop.store(true, Ordering::Relaxed);
        self.join().await
    }

    /// Waits for the clients to finish their steps.
    async fn join(self) -> Vec<Record> {
        let mut all = Vec::new();
        for task in self.tasks {
            all.extend(task.await.expect("client task"));
        }
        all
    }
}

/// What a test tolerates besides the answers every loser may get.
#[derive(Clone, Copy)]
struct Tolerate {
    /// 503 `unavailable` (with problem+json and Retry-After) is fine.
    unavailable: bool,
    /// No answer at all (the server was killed) is fine.
    no_answer: bool,
}

/// Every answer must be a success or a documented loser's answer: 409 `conflict` /
/// `not_your_turn` / `game_over`, 412 (only with If-Match), 422 `illegal_move` (the point was
/// taken, or nothing to undo, by the time the request was handled). Never a 5xx but a proper 503.
fn assert_answers(records: &[Record], tolerate: Tolerate) {
    let mut bad = Vec::new();
    for r in records {
        let fine = match (r.status, r.code.as_str()) {
            (None, _) => tolerate.no_answer,
            (Some(200), _) => r.what.starts_with("GET") || r.ack.is_some(),
            (Some(409), "conflict" | "not_your_turn" | "game_over") => true,
            (Some(412), "precondition_failed") => r.if_match,
            (Some(422), "illegal_move") => true,
            (Some(503), "unavailable") => {
                tolerate.unavailable
                    && r.content_type == "application/problem+json"
                    && r.retry_after.is_some()
            }
            _ => false,
        };
        if !fine {
            bad.push(r.describe());
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} answers are not allowed here, e.g.:\n{}",
        bad.len(),
        records.len(),
        bad.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn count(records: &[Record], status: u16, code: &str) -> usize {
    records
        .iter()
        .filter(|r| r.status == Some(status) && (code.is_empty() || r.code == code))
        .count()
}

fn summary(records: &[Record]) -> String {
    let mut by: HashMap<String, usize> = HashMap::new();
    for r in records {
        let key = match r.status {
            Some(s) => format!("{s} {}", r.code),
            None => "no answer".into(),
        };
        *by.entry(key).or_default() += 1;
    }
    let mut keys: Vec<_> = by.into_iter().collect();
    keys.sort();
    keys.iter()
        .map(|(k, n)| format!("{k}: {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

// ------------------------------------------------------------------------------------------------
// The invariants, checked through the API
// ------------------------------------------------------------------------------------------------

/// Replays a move log into the move list it must produce; checks seats and occupancy on the way.
fn replay(log: &[Value], game: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for entry in log {
        let action = &entry["move"];
        if let Some(p) = action["move"].as_str() {
            let p = p.to_ascii_lowercase();
            assert_eq!(
                entry["seat"].as_u64(),
                Some((moves.len() % 2) as u64),
                "game {game}: log entry {entry} was played by the seat not to move"
            );
            assert!(
                !moves.contains(&p),
                "game {game}: log entry {entry} places a stone on an occupied point"
            );
            moves.push(p);
        } else if action["action"] == "undo" {
            assert!(
                moves.pop().is_some(),
                "game {game}: log entry {entry} undoes an empty board"
            );
        } else {
            panic!("game {game}: unexpected log entry {entry}");
        }
    }
    moves
}

/// Through `base`: each game's log is gapless (seq 1..=version), its state is the replay of its log
/// (moves and board), every acknowledged change is the log entry at the version its 200 named (so
/// none was lost and none counted twice), and each 200's moves were the replay of the log up to it.
/// Returns the versions.
async fn verify_games(base: &str, games: &[GameRef], acks: &[Ack]) -> Vec<i64> {
    let http = http_client();
    let mut versions = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let state: Value = http
            .get(format!("{base}/v1/gomoku/games/{}", game.id))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let log_reply = http
            .get(format!("{base}/v1/gomoku/games/{}/moves", game.id))
            .send()
            .await
            .unwrap();
        assert_eq!(log_reply.status(), 200);
        let log: Vec<Value> = log_reply.json().await.unwrap();
        let version = state["version"].as_i64().expect("version");
        let seqs: Vec<i64> = log.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(
            seqs,
            (1..=log.len() as i64).collect::<Vec<_>>(),
            "game {g}: the move log is not gapless"
        );
        assert_eq!(version, log.len() as i64, "game {g}: version != log length");
        let moves = moves_of(&state);
        assert_eq!(
            replay(&log, g),
            moves,
            "game {g}: the state is not the replay of its log"
        );
        // The board shows exactly those stones, black first.
        let rows: Vec<&str> = state["state"]["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let stones = rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c != '.')
            .count();
        assert_eq!(
            stones,
            moves.len(),
            "game {g}: board and move list disagree"
        );
        for (k, m) in moves.iter().enumerate() {
            let col = m.as_bytes()[0] - b'a';
            let row: usize = m[1..].parse().unwrap();
            let symbol = rows[SIZE as usize - row].as_bytes()[col as usize];
            assert_eq!(
                symbol,
                if k % 2 == 0 { b'X' } else { b'O' },
                "game {g}: board and move list disagree at {m}"
            );
        }

        let mut seen = HashMap::new();
        for ack in acks.iter().filter(|a| a.game == g) {
            if let Some(other) = seen.insert(ack.version, ack.action.clone()) {
                panic!(
                    "game {g}: two changes were both acknowledged as version {}: {other} and {} (a lost update)",
                    ack.version, ack.action
                );
            }
            assert!(
                ack.version >= 1 && ack.version <= version,
                "game {g}: acknowledged version {} is beyond the stored version {version}: an acknowledged move was lost ({})",
                ack.version,
                ack.action
            );
            let logged = &log[ack.version as usize - 1]["move"];
            assert_eq!(
                logged, &ack.action,
                "game {g}: the change acknowledged as version {} is not the logged one (lost or replaced)",
                ack.version
            );
            assert_eq!(
                replay(&log[..ack.version as usize], g),
                ack.moves,
                "game {g}: the 200 for version {} showed a state that is not the replay of the log up to it",
                ack.version
            );
        }
        versions.push(version);
    }
    versions
}

fn acks_of(records: &[Record]) -> Vec<Ack> {
    records.iter().filter_map(|r| r.ack.clone()).collect()
}

async fn deadline<F: std::future::Future<Output = ()>>(test: F) {
    tokio::time::timeout(TEST_DEADLINE, test)
        .await
        .expect("the fault test hung (a server stopped answering?)");
}

// ------------------------------------------------------------------------------------------------
// 1. Two server processes on one database, racing clients
// ------------------------------------------------------------------------------------------------

const RACE: Style = Style {
    if_match: 0.5,
    undo: 0.08,
    wrong_seat: 0.05,
};

async fn two_servers_race(db: Db) {
    let _machine = MACHINE.read().await;
    let Some((url, _dir)) = fresh_database(db).await else {
        return;
    };
    // Both start at once on an empty database: their migrations race too, as two replicas' would
    // (PostgreSQL serialises them with an advisory lock; on SQLite the loser retries).
    let (a, b) = tokio::join!(
        Parlor::start("parlor-a", &url, &[]),
        Parlor::start("parlor-b", &url, &[])
    );
    let bases = [a.base.clone(), b.base.clone()];
    let http = http_client();
    let games = create_games(&http, &a.base, 6).await;

    let started = Instant::now();
    let load = Load::start(&bases, &games, 6, Some(30), RACE);
    let records = load.join().await;
    let elapsed = started.elapsed();

    eprintln!(
        "two servers on {db:?}: {} requests in {elapsed:?}: {}",
        records.len(),
        summary(&records)
    );
    assert_answers(
        &records,
        Tolerate {
            unavailable: false,
            no_answer: false,
        },
    );
    let acks = acks_of(&records);
    for server in 0..2 {
        assert!(
            records
                .iter()
                .any(|r| r.server == server && r.ack.is_some()),
            "server {server} acknowledged nothing"
        );
    }
    assert!(
        count(&records, 409, "conflict") + count(&records, 412, "") > 0,
        "no request lost a race: the test did not race"
    );

    let versions = verify_games(&a.base, &games, &acks).await;
    // Both servers see the same games, and every version comes from one acknowledged change.
    for (g, game) in games.iter().enumerate() {
        let via_b: Value = http
            .get(format!("{}/v1/gomoku/games/{}", b.base, game.id))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(
            via_b["version"], versions[g],
            "game {g} differs between servers"
        );
        let acked = acks.iter().filter(|x| x.game == g).count() as i64;
        assert_eq!(
            acked, versions[g],
            "game {g}: {acked} acknowledged changes but version {}: a change nobody was told about",
            versions[g]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_race_on_postgres() {
    deadline(two_servers_race(Db::Postgres)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_race_on_one_sqlite_file() {
    deadline(two_servers_race(Db::Sqlite)).await;
}

// ------------------------------------------------------------------------------------------------
// 2. SIGKILL mid-load loses no acknowledged move
// ------------------------------------------------------------------------------------------------

const STEADY: Style = Style {
    if_match: 0.3,
    undo: 0.08,
    wrong_seat: 0.0,
};

async fn sigkill_loses_nothing(db: Db) {
    let _machine = MACHINE.read().await;
    let Some((url, _dir)) = fresh_database(db).await else {
        return;
    };
    let mut server = Parlor::start("parlor", &url, &[]).await;
    let http = http_client();
    let games = create_games(&http, &server.base, 4).await;

    let load = Load::start(std::slice::from_ref(&server.base), &games, 3, None, STEADY);
    load.wait_acks(40, Duration::from_secs(30)).await;
    // Let requests be in flight, then pull the plug.
    let killed_at = Instant::now();
    assert!(server.kill9(), "the server had died before the kill");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let records = load.finish().await;
    let acks = acks_of(&records);
    eprintln!(
        "kill -9 on {db:?}: {} acknowledged, {} unanswered: {}",
        acks.len(),
        records.iter().filter(|r| r.status.is_none()).count(),
        summary(&records)
    );
    assert_answers(
        &records,
        Tolerate {
            unavailable: false,
            no_answer: true,
        },
    );
    assert!(
        records
            .iter()
            .all(|r| r.status.is_some() || r.at + r.elapsed >= killed_at),
        "a request went unanswered before the kill"
    );

    let again = Parlor::start("parlor-restarted", &url, &[]).await;
    let versions = verify_games(&again.base, &games, &acks).await;
    // The restarted server goes on where the log ends.
    for (g, game) in games.iter().enumerate() {
        let state: Value = http
            .get(format!("{}/v1/gomoku/games/{}", again.base, game.id))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if state["status"] != "active" {
            continue;
        }
        let turn = state["turn"].as_u64().unwrap() as usize;
        let taken: HashSet<String> = moves_of(&state).into_iter().collect();
        let spot = (0..SIZE)
            .flat_map(|c| (0..SIZE).map(move |r| point(c, r)))
            .find(|p| !taken.contains(p))
            .unwrap();
        let r = http
            .post(format!("{}/v1/gomoku/games/{}/moves", again.base, game.id))
            .bearer_auth(&game.tokens[turn])
            .header("if-match", format!("\"{}\"", versions[g]))
            .json(&json!({"move": spot}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "game {g}: {}", r.text().await.unwrap());
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["version"], versions[g] + 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_load_loses_no_acknowledged_move_on_postgres() {
    deadline(sigkill_loses_nothing(Db::Postgres)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_load_loses_no_acknowledged_move_on_sqlite() {
    deadline(sigkill_loses_nothing(Db::Sqlite)).await;
}

// ------------------------------------------------------------------------------------------------
// 3. The database restarted under load
// ------------------------------------------------------------------------------------------------

/// A probe while the database is down.
async fn probe(
    http: &reqwest::Client,
    base: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> Record {
    let ex = Exchange {
        http,
        base,
        game: 0,
        server: 0,
    };
    ex.send(
        method.clone(),
        path,
        format!("probe {method} {path}"),
        body.as_ref(),
        token,
        None,
    )
    .await
    .0
}

fn assert_unavailable(r: &Record) {
    assert_eq!(r.status, Some(503), "{}", r.describe());
    assert_eq!(r.code, "unavailable", "{}", r.describe());
    assert_eq!(
        r.content_type,
        "application/problem+json",
        "{}",
        r.describe()
    );
    assert!(
        r.retry_after
            .as_deref()
            .is_some_and(|s| s.parse::<u64>().is_ok()),
        "no Retry-After: {}",
        r.describe()
    );
    // The pool's acquire timeout is 3 s: an outage answers within that, not after a hang.
    assert!(
        r.elapsed < Duration::from_secs(5),
        "slow 503: {}",
        r.describe()
    );
}

/// One outage: stops the cluster (`mode`), checks that Parlor answers 503 (and /health 200) while it
/// is down, starts it again and waits until Parlor serves again by itself.
async fn outage(
    cluster: &Arc<PgCluster>,
    mode: &'static str,
    server: &Parlor,
    games: &[GameRef],
    load: &Load,
) {
    let http = http_client();
    let stopper = cluster.clone();
    tokio::task::spawn_blocking(move || stopper.stop(mode))
        .await
        .unwrap()
        .expect("pg_ctl stop");
    let acks_before = load.acks();

    // Every route that needs the database answers 503 (concurrently, so the probes cost one
    // acquire timeout, not five); meanwhile /health keeps answering, fast.
    let game = &games[0];
    let game_path = format!("/v1/gomoku/games/{}", game.id);
    let log_path = format!("{game_path}/moves");
    let probing = Arc::new(AtomicBool::new(true));
    let health_loop = {
        let (http, base, probing) = (http.clone(), server.base.clone(), probing.clone());
        tokio::spawn(async move {
            let mut seen = Vec::new();
            while probing.load(Ordering::Relaxed) || seen.is_empty() {
                seen.push(probe(&http, &base, Method::GET, "/health", None, None).await);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            seen
        })
    };
    let move_body = json!({"move": point(0, 0)});
    let create_body = json!({"players": [{"name": "x"}, {"name": "y"}]});
    let (ready, read, log, post, create) = tokio::join!(
        probe(&http, &server.base, Method::GET, "/ready", None, None),
        probe(&http, &server.base, Method::GET, &game_path, None, None),
        probe(&http, &server.base, Method::GET, &log_path, None, None),
        probe(
            &http,
            &server.base,
            Method::POST,
            &log_path,
            Some(move_body),
            Some(&game.tokens[0])
        ),
        probe(
            &http,
            &server.base,
            Method::POST,
            "/v1/gomoku/games",
            Some(create_body),
            None
        ),
    );
    probing.store(false, Ordering::Relaxed);
    for r in [&ready, &read, &log, &post, &create] {
        assert_unavailable(r);
    }
    // Readiness answers within a probe's timeout, not after the pool's acquire timeout.
    assert!(
        ready.elapsed < Duration::from_millis(1500),
        "/ready took {:?} to say 503",
        ready.elapsed
    );
    let healths = health_loop.await.unwrap();
    for h in &healths {
        assert_eq!(h.status, Some(200), "{}", h.describe());
        assert!(h.elapsed < Duration::from_millis(500), "{}", h.describe());
    }
    let slowest_probe = [&ready, &read, &log, &post, &create]
        .iter()
        .map(|r| r.elapsed)
        .max()
        .unwrap();

    // Up again, Parlor untouched.
    let starter = cluster.clone();
    tokio::task::spawn_blocking(move || starter.start())
        .await
        .unwrap()
        .expect("pg_ctl start again");
    let up_at = Instant::now();
    let mut ready_after = None;
    while up_at.elapsed() < Duration::from_secs(10) {
        let ready = probe(&http, &server.base, Method::GET, "/ready", None, None).await;
        match ready.status {
            Some(200) => {
                ready_after = Some(up_at.elapsed());
                break;
            }
            Some(503) => assert_unavailable(&ready),
            _ => panic!("/ready while the database starts: {}", ready.describe()),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ready_after = ready_after.expect("/ready is not 200 within 10 s of the database's return");
    let acks_at_return = load.acks();
    let deadline = Instant::now() + Duration::from_secs(10);
    while load.acks() < acks_at_return + 20 {
        assert!(
            Instant::now() < deadline,
            "moves are not accepted again within 10 s of the database's return ({} since)",
            load.acks() - acks_at_return
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!(
        "database stopped ({mode}) after {acks_before} acknowledged changes: 503s took up to {slowest_probe:?}, {} /health probes all 200; /ready 200 {ready_after:?} and 20 more changes {:?} after the restart",
        healths.len(),
        up_at.elapsed()
    );
}

async fn database_restarted(cluster: PgCluster) {
    cluster.start().expect("the private cluster starts");
    let cluster = Arc::new(cluster);
    let server = Parlor::start("parlor", &cluster.url(), &[]).await;
    let http = http_client();
    let games = create_games(&http, &server.base, 4).await;
    let load = Load::start(std::slice::from_ref(&server.base), &games, 3, None, STEADY);
    load.wait_acks(30, Duration::from_secs(30)).await;

    // A clean shutdown (sessions are told), then a crash-like one (backends killed, crash
    // recovery at the next start).
    outage(&cluster, "fast", &server, &games, &load).await;
    outage(&cluster, "immediate", &server, &games, &load).await;

    let records = load.finish().await;
    eprintln!(
        "database restarts: {} requests: {}",
        records.len(),
        summary(&records)
    );
    let slowest = records
        .iter()
        .filter(|r| r.status == Some(503))
        .map(|r| r.elapsed)
        .max()
        .unwrap_or_default();
    assert!(slowest < Duration::from_secs(5), "a 503 took {slowest:?}");
    assert_answers(
        &records,
        Tolerate {
            unavailable: true,
            no_answer: false,
        },
    );
    assert!(
        count(&records, 503, "unavailable") > 0,
        "the load never saw the outage"
    );
    verify_games(&server.base, &games, &acks_of(&records)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_restarted_under_load() {
    let _machine = MACHINE.read().await;
    if std::env::var("TEST_DATABASE_URL").is_err() {
        eprintln!("TEST_DATABASE_URL is not set: skipping the database restart test");
        return;
    }
    let cluster = match tokio::task::spawn_blocking(PgCluster::create)
        .await
        .unwrap()
    {
        Ok(cluster) => cluster,
        Err(why) => {
            eprintln!("cannot make a private PostgreSQL cluster ({why}): skipping");
            return;
        }
    };
    deadline(database_restarted(cluster)).await;
}

// ------------------------------------------------------------------------------------------------
// 4. Slow AI requests do not starve plain reads
// ------------------------------------------------------------------------------------------------

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

async fn create_ai_game(http: &reqwest::Client, base: &str) -> String {
    let r = http
        .post(format!("{base}/v1/gomoku/games"))
        .json(&json!({"players": [{"ai": "hard"}, {"ai": "hard"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let body: Value = r.json().await.unwrap();
    body["id"].as_str().unwrap().to_owned()
}

async fn ai_flood() {
    let _machine = MACHINE.write().await;
    let (url, _dir) = fresh_database(Db::Sqlite).await.unwrap();
    let server = Parlor::start(
        "parlor-ai",
        &url,
        &[("PARLOR_AI_WORKERS", "1"), ("PARLOR_AI_QUEUE", "2")],
    )
    .await;
    let base = server.base.clone();
    let http = http_client();
    // One AI-vs-AI game per flooder, so flooders never race each other for a game.
    const FLOODERS: usize = 8;
    let mut ai_games = Vec::new();
    for _ in 0..FLOODERS {
        ai_games.push(create_ai_game(&http, &base).await);
    }
    let read_game = create_games(&http, &base, 1).await.remove(0);

    let flood_for = Duration::from_secs(4);
    let started = Instant::now();
    let mut flooders = Vec::new();
    for (f, id) in ai_games.iter().enumerate() {
        let (base, mut id) = (base.clone(), id.clone());
        flooders.push(tokio::spawn(async move {
            let http = http_client();
            let ex = Exchange {
                http: &http,
                base: &base,
                game: f,
                server: 0,
            };
            let mut out = Vec::new();
            while started.elapsed() < flood_for {
                let (r, _) = ex
                    .send(
                        Method::POST,
                        &format!("/v1/gomoku/games/{id}/ai-move"),
                        "POST ai-move".into(),
                        Some(&json!({"time_ms": 1000})),
                        None,
                        None,
                    )
                    .await;
                let refused = r.status == Some(503);
                let over = r.status == Some(409) && r.code == "game_over";
                out.push(r);
                if refused {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                if over {
                    // The AIs finished the game: flood a new one.
                    id = create_ai_game(&http, &base).await;
                }
            }
            out
        }));
    }
    // Let the pool fill, then read while it is full.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let ex = Exchange {
        http: &http,
        base: &base,
        game: 0,
        server: 0,
    };
    let mut reads = Vec::new();
    while started.elapsed() < flood_for {
        for path in [
            format!("/v1/gomoku/games/{}", read_game.id),
            "/health".into(),
        ] {
            let (r, _) = ex
                .send(Method::GET, &path, format!("GET {path}"), None, None, None)
                .await;
            reads.push(r);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut ai = Vec::new();
    for f in flooders {
        ai.extend(f.await.unwrap());
    }

    for r in &reads {
        assert_eq!(
            r.status,
            Some(200),
            "a plain read during the flood: {}",
            r.describe()
        );
    }
    let mut times: Vec<Duration> = reads.iter().map(|r| r.elapsed).collect();
    times.sort();
    let (p50, p99, max) = (
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1],
    );

    let thought: Vec<Duration> = ai
        .iter()
        .filter(|r| r.status == Some(200))
        .map(|r| r.elapsed)
        .collect();
    let refused: Vec<&Record> = ai.iter().filter(|r| r.status == Some(503)).collect();
    let slowest_refusal = refused.iter().map(|r| r.elapsed).max().unwrap_or_default();
    let mut sorted_thought = thought.clone();
    sorted_thought.sort();
    let median_thought = sorted_thought
        .get(sorted_thought.len() / 2)
        .copied()
        .unwrap_or_default();
    eprintln!(
        "AI flood: {} reads p50 {p50:?} p99 {p99:?} max {max:?}; {} ai-moves answered (median {median_thought:?}), {} refused (slowest refusal {slowest_refusal:?}); {}",
        reads.len(),
        thought.len(),
        refused.len(),
        summary(&ai)
    );

    for r in &ai {
        match r.status {
            Some(200) => {}
            Some(409) if r.code == "game_over" => {}
            Some(503) => {
                assert_eq!(r.code, "unavailable", "{}", r.describe());
                assert_eq!(
                    r.content_type,
                    "application/problem+json",
                    "{}",
                    r.describe()
                );
                assert!(
                    r.retry_after
                        .as_deref()
                        .is_some_and(|s| s.parse::<u64>().is_ok()),
                    "503 without Retry-After: {}",
                    r.describe()
                );
                // Refused at once, not after waiting for a thread.
                assert!(
                    r.elapsed < Duration::from_millis(300),
                    "slow 503: {}",
                    r.describe()
                );
            }
            _ => panic!("an ai-move during the flood: {}", r.describe()),
        }
    }
    assert!(
        p99 < Duration::from_millis(200),
        "plain reads starve during the AI flood: p99 {p99:?} (p50 {p50:?}, max {max:?}, {} reads)",
        reads.len()
    );
    assert!(
        reads.len() >= 50,
        "only {} reads in {flood_for:?}",
        reads.len()
    );
    assert!(
        !thought.is_empty(),
        "no ai-move was answered during the flood"
    );
    // The pool fills only when the AI spends its budget. If any ai-move took 300 ms or more, the
    // other seven flooders (each sending again at once) met a full pool: some must be refused.
    let longest = sorted_thought.last().copied().unwrap_or_default();
    if longest >= Duration::from_millis(300) {
        assert!(
            !refused.is_empty(),
            "{FLOODERS} concurrent slow ai-moves on 1 thread + a queue of 2, and none was refused"
        );
        // At most 3 admitted at a time (1 thinking, 2 waiting): about 3 s at worst.
        assert!(
            longest < Duration::from_millis(5000),
            "an admitted ai-move took {longest:?}: the queue is longer than configured, or the AI overran its 1 s budget"
        );
    } else {
        eprintln!(
            "note: every ai-move took under {longest:?} (the AI did not spend its time budget), so the pool never filled; the 503 path is checked only when it does"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_ai_requests_do_not_starve_plain_reads() {
    deadline(ai_flood()).await;
}
