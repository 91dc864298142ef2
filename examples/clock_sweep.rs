//! The clock sweeper's cost: how long a Parlor process takes to flag 1,000 overdue games among
//! 100,000 active ones.
//!
//! Starts a real app in-process on a fake time, creates one timed Gomoku game between two humans
//! over HTTP and plays its first two moves (so black's clock runs), then clones that game's row
//! and seats with SQL into `--games` games. `--overdue` of them (the template among them) are
//! copies as is; the rest have their turn started hours later, in their state and in
//! `sweep_at_ms`, so the sweeper's query passes over them. The fake time then moves past the
//! overdue games' deadline and grace, and the wall time runs until all of them are finished
//! (polled every 20 ms). The time includes the wait for the next sweep (up to
//! `--clock-sweep-ms`). At the end: every overdue game finished with exactly one `timeout` in its
//! move log, every other game still active.
//!
//! ```sh
//! cargo run --release --example clock_sweep                    # a fresh SQLite file
//! cargo run --release --example clock_sweep -- --database-url postgres://postgres@127.0.0.1:5432/test
//! ```
//!
//! On PostgreSQL the run creates a schema of its own and drops it at the end.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Parser;
use parlor::app::Application;
use parlor::config::Config;
use parlor::service::time::Time;
use serde_json::{json, Value};
use sqlx::{Connection, PgPool, SqlitePool};
use uuid::Uuid;

/// How much later than the overdue games' the other games' turns started: they expire hours
/// after the measurement.
const LATER_MS: i64 = 3 * 3600 * 1000;
/// How often the finished games are counted.
const POLL: Duration = Duration::from_millis(20);
/// How long the flags may take before the run gives up.
const GIVE_UP: Duration = Duration::from_secs(600);

/// The clock sweeper's cost (see the file's documentation).
#[derive(Parser, Debug)]
struct Args {
    /// `postgres://…` (the run gets a schema of its own); default: a fresh SQLite file.
    #[arg(long)]
    database_url: Option<String>,
    /// Active timed games in all.
    #[arg(long, default_value_t = 100_000)]
    games: i64,
    /// Of them, the games whose clock runs out at once.
    #[arg(long, default_value_t = 1_000)]
    overdue: i64,
    /// Milliseconds between two sweeps (the server's `--clock-sweep-ms`).
    #[arg(long, default_value_t = 1_000)]
    clock_sweep_ms: u64,
}

/// The benchmark's own connection to the app's database, with what differs between the two
/// dialects.
enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// SQL that differs by dialect.
struct Dialect {
    name: &'static str,
    /// `clones (n, id)`: `n` from 1 to `{last}` and a new game id each.
    clones: &'static str,
    /// A new seat token hash, unique (the column is).
    token: &'static str,
    /// When the running turn of the game's `state` started (ms).
    started_ms: &'static str,
    /// `state` with its running turn started at `{started}`.
    set_started_ms: &'static str,
    /// A template's id as an SQL literal, from its hex digits `{hex}`.
    id_literal: &'static str,
    /// A move (`action`) that is a flag.
    is_timeout: &'static str,
}

const SQLITE: Dialect = Dialect {
    name: "SQLite",
    clones: "CREATE TABLE clones AS WITH RECURSIVE s(n) AS \
             (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < {last}) \
             SELECT n, randomblob(16) AS id FROM s",
    token: "randomblob(32)",
    started_ms: "json_extract(state, '$.clock.turn.started_ms')",
    set_started_ms: "json_set(state, '$.clock.turn.started_ms', {started})",
    id_literal: "X'{hex}'",
    is_timeout: "json_extract(action, '$.timeout') IS NOT NULL",
};

const POSTGRES: Dialect = Dialect {
    name: "PostgreSQL",
    clones: "CREATE TABLE clones AS SELECT n, gen_random_uuid() AS id \
             FROM generate_series(1, {last}) AS n",
    token: "uuid_send(gen_random_uuid())",
    started_ms: "(state #>> '{clock,turn,started_ms}')::bigint",
    set_started_ms: "jsonb_set(state, '{clock,turn,started_ms}', to_jsonb({started}))",
    id_literal: "'{hex}'::uuid",
    is_timeout: "action -> 'timeout' IS NOT NULL",
};

impl Db {
    async fn open(url: &str) -> Self {
        if url.starts_with("postgres") {
            Db::Postgres(PgPool::connect(url).await.expect("PostgreSQL opens"))
        } else {
            Db::Sqlite(SqlitePool::connect(url).await.expect("SQLite opens"))
        }
    }

    fn dialect(&self) -> &'static Dialect {
        match self {
            Db::Sqlite(_) => &SQLITE,
            Db::Postgres(_) => &POSTGRES,
        }
    }

    async fn execute(&self, sql: &str) {
        let done = match self {
            Db::Sqlite(pool) => sqlx::query(sql).execute(pool).await.map(drop),
            Db::Postgres(pool) => sqlx::query(sql).execute(pool).await.map(drop),
        };
        done.unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    /// The one number `sql` answers.
    async fn number(&self, sql: &str) -> i64 {
        let found = match self {
            Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
            Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
        };
        found.unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    async fn count_status(&self, status: &str) -> i64 {
        self.number(&format!(
            "SELECT count(*) FROM games WHERE status = '{status}'"
        ))
        .await
    }

    /// Makes `games` games in all from the template `id`, in the template's status: clones
    /// 1 to `overdue` − 1 as they are, the others with their turn started `LATER_MS` later.
    async fn clone_games(&self, id: Uuid, games: i64, overdue: i64) {
        let d = self.dialect();
        let template = d.id_literal.replace("{hex}", &id.simple().to_string());
        self.execute(&d.clones.replace("{last}", &(games - 1).to_string()))
            .await;
        let later = |overdue_sql: &str, later_sql: &str| {
            format!("CASE WHEN c.n < {overdue} THEN {overdue_sql} ELSE {later_sql} END")
        };
        let started = format!("{} + {LATER_MS}", d.started_ms);
        let state = later("g.state", &d.set_started_ms.replace("{started}", &started));
        let sweep_at = later("g.sweep_at_ms", &format!("g.sweep_at_ms + {LATER_MS}"));
        self.execute(&format!(
            "INSERT INTO games (id, game, status, version, turn, state, result, created_at, \
             updated_at, listed, sweep_at_ms, options, rematch_of) \
             SELECT c.id, g.game, g.status, g.version, g.turn, {state}, g.result, g.created_at, \
             g.updated_at, g.listed, {sweep_at}, g.options, NULL \
             FROM clones c JOIN games g ON g.id = {template}"
        ))
        .await;
        self.execute(&format!(
            "INSERT INTO seats (game_id, seat, name, kind, level, token_hash, player, \
             invite_hash, reserved_for) \
             SELECT c.id, s.seat, s.name, s.kind, s.level, {}, s.player, s.invite_hash, \
             s.reserved_for FROM clones c JOIN seats s ON s.game_id = {template}",
            d.token
        ))
        .await;
        self.execute("DROP TABLE clones").await;
        // Fresh statistics, as a table of this size in service would have: the claim's plan
        // should not be one for an empty table.
        self.execute("ANALYZE games").await;
    }

    /// How long after its running turn's start the sweeper looks at each game: its clock's
    /// deadline and the grace, by `sweep_at_ms` less the start in its `state`.
    fn sweep_after(&self) -> String {
        format!("sweep_at_ms - {}", self.dialect().started_ms)
    }

    /// Finished games with exactly one flag in their move log.
    async fn flagged_once(&self) -> i64 {
        self.number(&format!(
            "SELECT count(*) FROM (SELECT game_id FROM moves WHERE {} \
             GROUP BY game_id HAVING count(*) = 1) AS f \
             JOIN games g ON g.id = f.game_id AND g.status = 'finished'",
            self.dialect().is_timeout
        ))
        .await
    }

    /// Flags in all the move logs.
    async fn flags(&self) -> i64 {
        self.number(&format!(
            "SELECT count(*) FROM moves WHERE {}",
            self.dialect().is_timeout
        ))
        .await
    }
}

/// A fresh database: a new SQLite file in `dir`, or a new schema on PostgreSQL `base` (its URL
/// then sets the search path, and the schema's name comes back to drop it at the end).
async fn fresh_database(base: Option<&str>, dir: &tempfile::TempDir) -> (String, Option<String>) {
    let Some(base) = base else {
        let url = format!("sqlite://{}", dir.path().join("parlor.db").display());
        return (url, None);
    };
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    let schema = format!("parlor_bench_{}", now.as_millis());
    let mut conn = sqlx::PgConnection::connect(base)
        .await
        .expect("PostgreSQL answers");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut conn)
        .await
        .expect("a schema of our own");
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options=-c%20search_path%3D{schema}");
    (url, Some(schema))
}

/// Creates a timed Gomoku game between two humans and plays black's and white's first moves,
/// which start black's clock: the game's id.
async fn timed_game(http: &reqwest::Client, base: &str) -> Uuid {
    let created: Value = http
        .post(format!("{base}/v1/gomoku/games"))
        .json(&json!({
            "players": [{"name": "a"}, {"name": "b"}],
            "clock": {"type": "fischer", "initial_ms": 600_000, "increment_ms": 0},
        }))
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("the game is created")
        .json()
        .await
        .expect("its JSON");
    let id = created["id"].as_str().expect("an id");
    for (seat, point) in [(0, "h8"), (1, "a1")] {
        let token = created["tokens"]
            .as_array()
            .and_then(|t| t.iter().find(|t| t["seat"] == seat))
            .and_then(|t| t["token"].as_str())
            .expect("a token for each seat");
        http.post(format!("{base}/v1/gomoku/games/{id}/moves"))
            .bearer_auth(token)
            .json(&json!({"move": point}))
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("the move is played");
    }
    id.parse().expect("a UUID")
}

/// How long after `from` the overdue games were first seen finished, and all of them.
async fn wait_for_flags(db: &Db, overdue: i64, from: Instant) -> (Duration, Duration) {
    let mut first = None;
    loop {
        let finished = db.count_status("finished").await;
        let now = from.elapsed();
        if finished > 0 && first.is_none() {
            first = Some(now);
        }
        if finished >= overdue {
            return (first.unwrap_or(now), now);
        }
        assert!(
            now < GIVE_UP,
            "{finished} of {overdue} flagged after {now:?}"
        );
        tokio::time::sleep(POLL).await;
    }
}

#[actix_web::main]
async fn main() {
    // The app's warnings show (a failed flag among them); sqlx's slow statements do not: the
    // clone's are slow by design, and the sweeper's claims wait for it on SQLite.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "warn,sqlx::query=error".into());
    tracing_subscriber::fmt().with_env_filter(filter).init();
    let args = Args::parse();
    assert!(
        1 <= args.overdue && args.overdue <= args.games,
        "--overdue must be 1 to --games"
    );
    let dir = tempfile::tempdir().expect("a temp dir");
    let (url, schema) = fresh_database(args.database_url.as_deref(), &dir).await;
    let time = Time::fake();
    let config = Config {
        port: 0,
        database_url: url.clone(),
        time: time.clone(),
        clock_sweep_ms: args.clock_sweep_ms,
        ..Config::default()
    };
    let app = Application::build(config).await.expect("the app starts");
    let base = format!("http://{}", app.address());
    let server = app.spawn();
    let db = Db::open(&url).await;

    let template = timed_game(&reqwest::Client::new(), &base).await;
    // The only game yet: its deadline and grace are the overdue games'.
    let due = db.number("SELECT max(sweep_at_ms) FROM games").await;
    let sweep_after = db.sweep_after();
    let after = db
        .number(&format!("SELECT max({sweep_after}) FROM games"))
        .await;
    let setup = Instant::now();
    db.clone_games(template, args.games, args.overdue).await;
    let setup = setup.elapsed();
    assert_eq!(db.count_status("active").await, args.games);

    // Just past the overdue games' deadline and grace: `sweep_at_ms` is due and the clock
    // expired.
    time.advance(due + 1 - time.now_ms());
    let advanced = Instant::now();
    let (first, all) = wait_for_flags(&db, args.overdue, advanced).await;

    let checks = [
        ("finished", db.count_status("finished").await, args.overdue),
        (
            "finished, with one flag in their log",
            db.flagged_once().await,
            args.overdue,
        ),
        ("flags in the move logs", db.flags().await, args.overdue),
        (
            "still active",
            db.count_status("active").await,
            args.games - args.overdue,
        ),
        (
            "active, the clock in their state due at their sweep_at_ms",
            db.number(&format!(
                "SELECT count(*) FROM games WHERE status = 'active' AND {sweep_after} = {after}"
            ))
            .await,
            args.games - args.overdue,
        ),
    ];
    server.stop(false).await;
    if let Some(schema) = schema {
        db.execute(&format!("DROP SCHEMA {schema} CASCADE")).await;
    }

    let name = db.dialect().name;
    println!(
        "{name}: {} games cloned in {setup:.2?}\n",
        thousands(args.games)
    );
    println!("| database | games | overdue | first flag after | time to flag all | flags/s |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    println!(
        "| {name} | {} | {} | {:.2} s | {:.2} s | {:.0} |\n",
        thousands(args.games),
        thousands(args.overdue),
        first.as_secs_f64(),
        all.as_secs_f64(),
        args.overdue as f64 / all.as_secs_f64()
    );
    let mut ok = true;
    for (what, got, want) in checks {
        let mark = if got == want { "ok" } else { "WRONG" };
        println!("{mark}: {what}: {got} (expected {want})");
        ok &= got == want;
    }
    if !ok {
        std::process::exit(1);
    }
}

/// `n` with a comma between thousands, as docs/PERFORMANCE.md writes numbers.
fn thousands(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
