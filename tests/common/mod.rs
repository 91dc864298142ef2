//! Test support: start a real Parlor on a random port against a fresh database, and talk to it
//! over real HTTP. SQLite always; PostgreSQL when `TEST_DATABASE_URL` is set (each app gets a schema
//! of its own, so tests never see each other's rows or a stale migration).
//!
//! A test that lacks a part of the machine (PostgreSQL, `initdb`, `gnugo`, …) goes through
//! [`skip`]: in CI (`CI` set, or `PARLOR_REQUIRE_PG=1`) that is a failure naming the part and how
//! to get it; elsewhere the skip is written straight to the terminal (past libtest's capture) and
//! to `target/parlor-skips/`, which `tools/test_summary.sh` sums up at the end of the run.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use parlor::app::Application;
use parlor::config::Config;
use parlor::games::registry::{BuiltinGames, Games};
use parlor::store::{self, GameStore};
use reqwest::{Method, Response, StatusCode};
use serde_json::{json, Value};
use sqlx::Connection;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub database_url: String,
    handle: actix_web::dev::ServerHandle,
    _dir: Option<tempfile::TempDir>,
}

/// Whether a missing part fails the test instead of skipping it: in CI, or when asked.
pub fn strict() -> bool {
    let set = |var: &str, off: &[&str]| {
        std::env::var(var).is_ok_and(|v| !v.is_empty() && !off.contains(&v.as_str()))
    };
    set("CI", &["0", "false"]) || set("PARLOR_REQUIRE_PG", &["0"])
}

/// Where skips are recorded: `target/parlor-skips/` (the test binary lives in
/// `target/<profile>/deps/`), or `PARLOR_SKIPS_DIR`.
pub fn skips_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PARLOR_SKIPS_DIR") {
        return dir.into();
    }
    let exe = std::env::current_exe().unwrap_or_default();
    exe.ancestors()
        .nth(3)
        .map_or_else(std::env::temp_dir, PathBuf::from)
        .join("parlor-skips")
}

/// The running test lacks `missing`; `how` tells how to get it. In CI this panics. Elsewhere it
/// prints one `SKIPPED` line that `cargo test` shows (written to the terminal, not to libtest's
/// captured output) and records it for the end-of-run summary; the caller then returns.
pub fn skip(missing: &str, how: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("(unnamed test)")
        .to_owned();
    if strict() {
        panic!("{test} needs {missing}, which is missing (CI skips nothing): {how}");
    }
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|stem| {
            stem.rsplit_once('-')
                .map_or(stem.clone(), |(name, _)| name.to_owned())
        })
        .unwrap_or_default();
    let line = format!("{binary}::{test}: no {missing}; {how}");
    let _ = writeln!(std::io::stderr(), "SKIPPED {line}");
    let dir = skips_dir();
    let recorded = std::fs::create_dir_all(&dir).and_then(|()| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("skips.txt"))?
            .write_all(format!("{line}\n").as_bytes())
    });
    if let Err(e) = recorded {
        let _ = writeln!(
            std::io::stderr(),
            "(could not record the skip in {}: {e})",
            dir.display()
        );
    }
}

/// How to get PostgreSQL for the tests.
pub const HOW_TO_GET_POSTGRES: &str = "start PostgreSQL and set \
    TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test, as .ci/run does";

/// The path of `program` on `PATH` (or in /usr/games, where Debian puts gnugo), or a skip (a
/// failure in CI) naming it and `how` to get it.
pub fn require_program(program: &str, how: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&paths)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join(program))
        .find(|path| path.is_file());
    if found.is_none() {
        skip(&format!("`{program}` on PATH"), how);
    }
    found
}

/// A fresh, migrated database URL, or `None` (after [`skip`]) for PostgreSQL without
/// `TEST_DATABASE_URL`.
pub async fn fresh_database(db: Db) -> Option<(String, Option<tempfile::TempDir>)> {
    match db {
        Db::Sqlite => {
            let dir = tempfile::tempdir().expect("temp dir");
            let url = format!("sqlite://{}", dir.path().join("parlor.db").display());
            Some((url, Some(dir)))
        }
        Db::Postgres => {
            let Ok(base) = std::env::var("TEST_DATABASE_URL") else {
                skip(
                    "PostgreSQL (TEST_DATABASE_URL is not set)",
                    HOW_TO_GET_POSTGRES,
                );
                return None;
            };
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_secs();
            let schema = format!("parlor_test_{now}_{:08x}", rand::random::<u32>());
            let mut conn = sqlx::PgConnection::connect(&base)
                .await
                .expect("TEST_DATABASE_URL is set but PostgreSQL cannot be reached");
            drop_old_schemas(&mut conn, now).await;
            sqlx::query(&format!("CREATE SCHEMA {schema}"))
                .execute(&mut conn)
                .await
                .expect("create test schema");
            let sep = if base.contains('?') { '&' } else { '?' };
            Some((
                format!("{base}{sep}options=-c%20search_path%3D{schema}"),
                None,
            ))
        }
    }
}

/// Schemas of test runs older than an hour are dropped, so the test database does not grow.
async fn drop_old_schemas(conn: &mut sqlx::PgConnection, now: u64) {
    let names: Vec<(String,)> =
        sqlx::query_as("SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'parlor_test_%'")
            .fetch_all(&mut *conn)
            .await
            .unwrap_or_default();
    for (name,) in names {
        let born: u64 = name
            .split('_')
            .nth(2)
            .and_then(|s| s.parse().ok())
            .unwrap_or(now);
        if now.saturating_sub(born) > 3600 {
            let _ = sqlx::query(&format!("DROP SCHEMA IF EXISTS {name} CASCADE"))
                .execute(&mut *conn)
                .await;
        }
    }
}

pub async fn open_store(url: &str) -> Arc<dyn GameStore> {
    store::connect(url).await.expect("open store")
}

pub fn test_config(database_url: &str) -> Config {
    Config {
        port: 0,
        database_url: database_url.into(),
        workers: Some(2),
        // A test creates at machine speed, faster than the default quota's bursts allow; the
        // quota's own tests set theirs.
        create_rate_per_minute: 60_000,
        ..Config::default()
    }
}

/// A running app on a fresh database; `None` (after [`skip`]) when that database is not
/// configured.
pub async fn spawn(db: Db) -> Option<TestApp> {
    spawn_with::<BuiltinGames>(db).await
}

/// [`spawn`] for an app serving the turn-based games `R` lists.
pub async fn spawn_with<R: Games>(db: Db) -> Option<TestApp> {
    let (url, dir) = fresh_database(db).await?;
    Some(spawn_on_with::<R>(&url, dir, test_config(&url)).await)
}

pub async fn spawn_on(url: &str, dir: Option<tempfile::TempDir>, config: Config) -> TestApp {
    spawn_on_with::<BuiltinGames>(url, dir, config).await
}

/// [`spawn_on`] for an app serving the turn-based games `R` lists.
pub async fn spawn_on_with<R: Games>(
    url: &str,
    dir: Option<tempfile::TempDir>,
    config: Config,
) -> TestApp {
    let app = Application::build_with::<R>(config)
        .await
        .expect("app starts");
    let base = format!("http://{}", app.address());
    let handle = app.spawn();
    TestApp {
        base,
        client: reqwest::Client::new(),
        database_url: url.into(),
        handle,
        _dir: dir,
    }
}

impl TestApp {
    /// Stops the server at once, dropping every connection as a crash would, and starts another
    /// on the same address and database (the built-in games, the test configuration).
    pub async fn restart(&mut self) {
        self.handle.stop(false).await;
        let port = self.base.rsplit(':').next().and_then(|p| p.parse().ok());
        let config = Config {
            port: port.expect("the server's port"),
            ..test_config(&self.database_url)
        };
        let app = Application::build_with::<BuiltinGames>(config)
            .await
            .expect("the app starts again on its address");
        self.handle = app.spawn();
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        // Stop the server without waiting; the runtime ends with the test anyway.
        let handle = self.handle.clone();
        drop(handle.stop(false));
    }
}

/// A response read whole: status, headers and the body as JSON (Null when empty or not JSON).
pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
    pub text: String,
}

impl Reply {
    pub async fn from(response: Response) -> Self {
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            body,
            text,
        }
    }

    /// Asserts the status (showing the body when it differs) and hands the reply on.
    #[track_caller]
    pub fn expect(self, status: u16) -> Self {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.text);
        self
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts a problem+json error with this status and code.
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.text);
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "body: {}",
            self.text
        );
        assert_eq!(self.body["code"], code, "body: {}", self.text);
        assert_eq!(self.body["status"], status);
        assert!(self.body["detail"].as_str().is_some_and(|d| !d.is_empty()));
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut request = self.client.request(method, self.url(path));
        if let Some(body) = body {
            request = request.json(body);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        Reply::from(request.send().await.expect("request sent")).await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, None, None, &[]).await
    }

    pub async fn get_as(&self, path: &str, token: &str) -> Reply {
        self.send(Method::GET, path, None, Some(token), &[]).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.send(Method::POST, path, Some(&body), None, &[]).await
    }

    pub async fn post_as(&self, path: &str, body: Value, token: &str) -> Reply {
        self.send(Method::POST, path, Some(&body), Some(token), &[])
            .await
    }

    /// A raw body (for malformed JSON and size limits).
    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> Reply {
        let response = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("request sent");
        Reply::from(response).await
    }

    /// Creates a Gomoku game; returns (id, tokens by seat).
    /// A table of AIs alone (`body` seats only AIs): its id and owner token.
    pub async fn create_ai_table(&self, game: &str, body: Value) -> (String, String) {
        let reply = self
            .post(&format!("/v1/{game}/games"), body)
            .await
            .expect(201);
        let id = reply.body["id"].as_str().expect("id").to_owned();
        let owner = reply.body["owner_token"].as_str().expect("owner token");
        (id, owner.to_owned())
    }

    pub async fn create_gomoku(&self, body: Value) -> (String, Vec<Option<String>>) {
        let reply = self.post("/v1/gomoku/games", body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let id = reply.body["id"].as_str().expect("id").to_owned();
        let seats = reply.body["seats"].as_array().unwrap().len();
        let mut tokens = vec![None; seats];
        for t in reply.body["tokens"].as_array().unwrap() {
            tokens[t["seat"].as_u64().unwrap() as usize] =
                Some(t["token"].as_str().unwrap().into());
        }
        (id, tokens)
    }

    pub async fn gomoku_move(&self, id: &str, token: &str, point: &str) -> Reply {
        self.post_as(
            &format!("/v1/gomoku/games/{id}/moves"),
            json!({"move": point}),
            token,
        )
        .await
    }
}

/// Runs each named `async fn(TestApp)` once on SQLite and once on PostgreSQL, on an app serving
/// the built-in games, or (`games = R;` first) the games `R` lists.
#[macro_export]
macro_rules! on_both_stores {
    (games = $games:ty; $($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[actix_web::test]
                async fn $name() {
                    let app = $crate::common::spawn_with::<$games>($crate::common::Db::Sqlite)
                        .await
                        .unwrap();
                    super::$name(app).await;
                }
            )*
        }
        mod on_postgres {
            $(
                #[actix_web::test]
                async fn $name() {
                    if let Some(app) =
                        $crate::common::spawn_with::<$games>($crate::common::Db::Postgres).await
                    {
                        super::$name(app).await;
                    }
                }
            )*
        }
    };
    ($($name:ident),* $(,)?) => {
        $crate::on_both_stores!(games = parlor::games::registry::BuiltinGames; $($name),*);
    };
}
pub mod sse;
pub mod webdriver;
