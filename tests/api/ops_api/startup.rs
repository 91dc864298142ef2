//! The `parlor` binary as an operator meets it: start-up failures are one sentence on stderr and
//! exit status 1 (the port is bound before the database is touched), `parlor openapi` into a pipe
//! that closes early, `parlor healthcheck`, the log naming the database without its password, and
//! what can be checked of the Docker files without a Docker engine.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const PASSWORD: &str = "n0t-For-Your-eyes";

/// The binary, with none of the caller's settings leaking in.
fn parlor() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parlor"));
    for var in ["HOST", "PORT", "DATABASE_URL", "RUST_BACKTRACE"] {
        command.env_remove(var);
    }
    for (var, _) in std::env::vars() {
        if var.starts_with("PARLOR_") {
            command.env_remove(var);
        }
    }
    command
        .env("RUST_LOG", "info")
        .env("PARLOR_WORKERS", "1")
        .env("PARLOR_AI_WORKERS", "1")
        .stdin(Stdio::null());
    command
}

struct Finished {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

impl Finished {
    fn stderr_lines(&self) -> Vec<&str> {
        self.stderr.lines().collect()
    }

    /// Failed the way every start-up failure must: status 1, one line on stderr that starts
    /// `parlor: ` and shows no Rust debug output; returns that line.
    #[track_caller]
    fn one_sentence_failure(&self) -> &str {
        assert_eq!(self.status.code(), Some(1), "{}", self.describe());
        let lines = self.stderr_lines();
        assert_eq!(lines.len(), 1, "{}", self.describe());
        let line = lines[0];
        assert!(line.starts_with("parlor: "), "{}", self.describe());
        for debug in [
            "Custom {",
            "Os {",
            "kind:",
            "Error:",
            "panicked",
            "RUST_BACKTRACE",
        ] {
            assert!(!line.contains(debug), "{debug:?} in {line}");
        }
        line
    }

    fn describe(&self) -> String {
        format!(
            "status {:?}\n--- stderr\n{}\n--- stdout\n{}",
            self.status.code(),
            self.stderr,
            self.stdout
        )
    }
}

/// Runs to the end; a run that outlives `limit` is killed and fails the test.
fn run(mut command: Command, limit: Duration) -> Finished {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parlor starts");
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "still running after {limit:?}; stdout so far: {}",
                out.join().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Finished {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn drain(mut from: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = from.read_to_string(&mut text);
        text
    })
}

/// A port nothing listens on (bound for a moment, then let go).
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn sqlite_url(file: &Path) -> String {
    format!("sqlite://{}", file.display())
}

#[test]
fn a_busy_port_stops_the_start_before_any_migration() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("parlor.db");
    let mut command = parlor();
    command.args(["--host", "127.0.0.1", "--port", &port.to_string()]);
    command.args(["--database-url", &sqlite_url(&file)]);
    let done = run(command, Duration::from_secs(60));
    let line = done.one_sentence_failure();
    assert!(
        line.starts_with(&format!("parlor: cannot listen on 127.0.0.1:{port}: ")),
        "{line}"
    );
    assert!(line.ends_with("address already in use"), "{line}");
    assert!(
        !file.exists(),
        "the database was opened (and migrated) although the port was taken"
    );
    drop(taken);
}

#[test]
fn an_unsupported_database_url_is_one_sentence_without_its_password() {
    let mut command = parlor();
    command.args(["--port", "0", "--database-url"]);
    command.arg(format!("mysql://parlor:{PASSWORD}@127.0.0.1:1/parlor"));
    let done = run(command, Duration::from_secs(60));
    let line = done.one_sentence_failure();
    assert!(line.contains("mysql://"), "{line}");
    assert!(
        line.contains("sqlite://") && line.contains("postgres://"),
        "{line}"
    );
    assert!(!done.stderr.contains(PASSWORD) && !done.stdout.contains(PASSWORD));
}

#[test]
fn an_unreachable_postgres_is_named_in_the_log_and_the_failure_without_its_password() {
    // Nothing listens on port 1: the pool gives up after its 3 s acquire timeout.
    let mut command = parlor();
    command.args(["--port", "0", "--database-url"]);
    command.arg(format!(
        "postgres://parlor:{PASSWORD}@127.0.0.1:1/parlordb?password={PASSWORD}"
    ));
    let done = run(command, Duration::from_secs(60));
    let line = done.one_sentence_failure();
    let named = "PostgreSQL database parlordb at 127.0.0.1:1";
    assert!(
        line.starts_with(&format!("parlor: cannot open the database ({named}): ")),
        "{line}"
    );
    let log = done
        .stdout
        .lines()
        .find(|l| l.contains("opening the database"))
        .unwrap_or_else(|| panic!("no start-up log line: {}", done.describe()));
    assert!(log.contains(named), "{log}");
    for (what, text) in [("stdout", &done.stdout), ("stderr", &done.stderr)] {
        assert!(
            !text.contains(PASSWORD),
            "the password is in {what}: {text}"
        );
        assert!(
            !text.contains("parlor:n0t"),
            "the user is in {what}: {text}"
        );
    }
}

#[tokio::test]
async fn a_failed_migration_is_one_sentence() {
    use sqlx::Connection;
    // A database whose first migration is recorded with another checksum: sqlx refuses to go on.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("parlor.db");
    let url = format!("{}?mode=rwc", sqlite_url(&file));
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query(
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
         installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, \
         checksum BLOB NOT NULL, execution_time BIGINT NOT NULL)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (1, 'init', TRUE, X'00', 0)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();

    let mut command = parlor();
    command.args(["--port", "0", "--database-url", &sqlite_url(&file)]);
    let done = tokio::task::spawn_blocking(move || run(command, Duration::from_secs(60)))
        .await
        .unwrap();
    let line = done.one_sentence_failure();
    assert!(
        line.starts_with("parlor: cannot open the database (SQLite file "),
        "{line}"
    );
    assert!(line.contains("migration failed"), "{line}");
}

#[test]
fn openapi_into_a_pipe_that_closes_at_once_ends_quietly() {
    let mut child = parlor()
        .arg("openapi")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before the child writes a byte: its first write fails with EPIPE.
    drop(child.stdout.take());
    let err = drain(child.stderr.take().unwrap());
    let status = child.wait().unwrap();
    let stderr = err.join().unwrap();
    assert!(status.success(), "{status:?}: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn openapi_piped_into_head_ends_quietly() {
    // `parlor openapi | head -1`: the reader takes one line and goes. The document is larger
    // than a pipe's buffer, so the writer is still writing when it does.
    let mut child = parlor()
        .arg("openapi")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with('{'), "{first}");
    let err = drain(child.stderr.take().unwrap());
    let status = child.wait().unwrap();
    let stderr = err.join().unwrap();
    assert!(status.success(), "{status:?}: {stderr}");
    assert_eq!(stderr, "");
}

/// A server started by the test, killed when dropped (also when an assertion fails).
struct Server {
    child: Child,
    port: u16,
    serving_line: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `parlor` on a free port and waits for its "serving" log line.
fn start_server(database_url: &str) -> Server {
    let mut child = parlor()
        .args(["--host", "127.0.0.1", "--port", "0"])
        .args(["--database-url", database_url])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.contains("parlor is serving") {
                let _ = tx.send(line);
            }
        }
    });
    let mut server = Server {
        child,
        port: 0,
        serving_line: String::new(),
    };
    let line = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the server says it is serving");
    let address = line
        .split_whitespace()
        .find_map(|word| word.strip_prefix("address="))
        .unwrap_or_else(|| panic!("no address= in {line}"));
    server.port = address.rsplit_once(':').unwrap().1.parse().unwrap();
    server.serving_line = line;
    server
}

fn healthcheck(envs: &[(&str, String)], args: &[String]) -> Finished {
    let mut command = parlor();
    command.envs(envs.iter().map(|(k, v)| (*k, v.as_str())));
    command.args(args).arg("healthcheck");
    run(command, Duration::from_secs(30))
}

#[test]
fn healthcheck_answers_for_a_running_server_and_names_its_database() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("parlor.db");
    let server = start_server(&sqlite_url(&file));
    assert!(
        server
            .serving_line
            .contains(&format!("SQLite file {}", file.display())),
        "{}",
        server.serving_line
    );
    let port = server.port.to_string();

    let by_flags = healthcheck(&[], &["--port".into(), port.clone()]);
    assert_eq!(by_flags.status.code(), Some(0), "{}", by_flags.describe());
    assert_eq!(by_flags.stderr, "");
    // As in the image: HOST=0.0.0.0 is reached through the loopback.
    let by_env = healthcheck(&[("HOST", "0.0.0.0".into()), ("PORT", port.clone())], &[]);
    assert_eq!(by_env.status.code(), Some(0), "{}", by_env.describe());

    drop(server);
    let stopped = healthcheck(&[("PORT", port.clone())], &[]);
    let line = stopped.one_sentence_failure();
    assert!(line.contains(&format!("127.0.0.1:{port}")), "{line}");
}

#[test]
fn healthcheck_fails_on_a_closed_port() {
    let port = closed_port();
    let done = healthcheck(&[], &["--port".into(), port.to_string()]);
    let line = done.one_sentence_failure();
    assert_eq!(
        line,
        format!("parlor: cannot connect to 127.0.0.1:{port}: connection refused")
    );
}

#[test]
fn healthcheck_fails_when_the_server_is_not_ready() {
    // A stand-in that answers what /ready answers while the database is down.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let stand_in = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 1024];
        while !request.ends_with(b"\r\n\r\n") {
            let n = stream.read(&mut buf).unwrap();
            assert!(n > 0, "the request ended early");
            request.extend_from_slice(&buf[..n]);
        }
        stream
            .write_all(
                b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
            )
            .unwrap();
        String::from_utf8(request).unwrap()
    });
    let done = healthcheck(&[], &["--port".into(), port.to_string()]);
    let request = stand_in.join().unwrap();
    assert!(request.starts_with("GET /ready HTTP/1.1\r\n"), "{request}");
    let line = done.one_sentence_failure();
    assert_eq!(
        line,
        format!("parlor: http://127.0.0.1:{port}/ready answered 503 Service Unavailable")
    );
}

// --- Documentation ---

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_readme_lists_every_flag_of_the_help() {
    let help = run(
        {
            let mut c = parlor();
            c.arg("--help");
            c
        },
        Duration::from_secs(30),
    );
    assert!(help.status.success(), "{}", help.describe());
    let readme = read("README.md");
    let flags: Vec<&str> = help
        .stdout
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| {
            w.strip_prefix("--").is_some_and(|name| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
            })
        })
        .filter(|w| !matches!(*w, "--help" | "--version"))
        .collect();
    assert!(flags.contains(&"--database-url"), "{flags:?}");
    for flag in flags {
        assert!(
            readme.contains(&format!("`{flag}`")),
            "README.md does not list {flag} (parlor --help does)"
        );
    }
    assert!(readme.contains("parlor healthcheck"));
}

// --- Docker: what can be checked without an engine ---

/// The Dockerfile's instructions, continuation lines joined, comments dropped.
fn dockerfile() -> Vec<String> {
    let mut instructions = Vec::new();
    let mut current = String::new();
    for line in read("Dockerfile").lines() {
        let trimmed = line.trim();
        if current.is_empty() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(trimmed);
                instructions.push(std::mem::take(&mut current));
            }
        }
    }
    instructions
}

fn with_keyword<'a>(instructions: &'a [String], keyword: &str) -> Vec<&'a str> {
    instructions
        .iter()
        .filter_map(|i| {
            let (word, rest) = i.split_once(char::is_whitespace)?;
            word.eq_ignore_ascii_case(keyword).then_some(rest.trim())
        })
        .collect()
}

/// Whether a `.dockerignore` pattern (as this repo writes them: a path, `dir/`, or `**/*.ext`)
/// leaves `path` out of the build context.
fn ignored(path: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        let p = p.trim_end_matches('/');
        if let Some(ext) = p.strip_prefix("**/*") {
            path.ends_with(ext)
        } else {
            path == p || path.starts_with(&format!("{p}/"))
        }
    })
}

#[test]
fn the_dockerfile_copies_what_exists_with_a_pinned_toolchain() {
    let instructions = dockerfile();
    let patterns: Vec<String> = read(".dockerignore")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    for must in ["target", ".git"] {
        assert!(ignored(must, &patterns), ".dockerignore lets {must} in");
    }
    assert!(ignored("parlor.db", &patterns) && ignored("x/parlor.db-wal", &patterns));

    let copies = with_keyword(&instructions, "COPY");
    assert!(!copies.is_empty());
    for copy in copies.iter().filter(|c| !c.starts_with("--from")) {
        let words: Vec<&str> = copy.split_whitespace().collect();
        assert!(words.len() >= 2, "COPY {copy}");
        for source in &words[..words.len() - 1] {
            assert!(
                repo(source).exists(),
                "COPY {source}: not in the repository"
            );
            assert!(
                !ignored(source.trim_end_matches('/'), &patterns),
                "COPY {source}: left out by .dockerignore"
            );
        }
    }

    let froms = with_keyword(&instructions, "FROM");
    let rust = froms
        .iter()
        .find_map(|f| f.strip_prefix("rust:"))
        .expect("a rust: build stage");
    let tag = rust.split_whitespace().next().unwrap();
    let (version, flavour) = tag.split_once('-').expect("rust:VERSION-DEBIAN");
    let parts: Vec<&str> = version.split('.').collect();
    assert!(
        parts.len() >= 2 && parts.iter().all(|p| p.parse::<u32>().is_ok()),
        "the toolchain is not pinned to a version: rust:{tag}"
    );
    // The binary links against the build image's glibc: the runtime must be the same Debian.
    let runtime = froms.last().unwrap();
    assert_eq!(
        *runtime,
        format!("debian:{flavour}-slim"),
        "the runtime image is not the Debian the binary was built on"
    );

    // The stand-in sources of the dependency layer must include every target Cargo.toml names
    // by path, or Cargo refuses the manifest.
    let manifest = read("Cargo.toml");
    let stand_ins = instructions
        .iter()
        .find(|i| i.contains("fn main() {}"))
        .expect("a dependency layer built on stand-in sources");
    for section in ["[[example]]", "[[test]]", "[[bin]]"] {
        assert!(
            !manifest.contains(section),
            "Cargo.toml now declares {section}: give the Dockerfile a stand-in for it"
        );
    }
    for block in manifest.split("[[bench]]").skip(1) {
        let name = block
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = "))
            .expect("a bench name")
            .trim_matches('"');
        assert!(
            stand_ins.contains(&format!("benches/{name}.rs")),
            "no stand-in for the bench {name}"
        );
    }

    let healthchecks = with_keyword(&instructions, "HEALTHCHECK");
    assert_eq!(healthchecks.len(), 1);
    assert!(
        healthchecks[0].ends_with(r#"CMD ["parlor", "healthcheck"]"#),
        "{}",
        healthchecks[0]
    );
    let volumes = with_keyword(&instructions, "VOLUME");
    assert_eq!(volumes, ["/var/lib/parlor"]);
    let env = with_keyword(&instructions, "ENV").join(" ");
    assert!(
        env.contains("DATABASE_URL=sqlite:///var/lib/parlor/"),
        "the SQLite default is not in the volume: {env}"
    );
    assert!(env.contains("HOST=0.0.0.0"), "{env}");
}

#[test]
fn docker_compose_restarts_and_checks_its_services() {
    let compose: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&read("docker-compose.yml")).expect("docker-compose.yml is YAML");
    let services = compose["services"]
        .as_mapping()
        .expect("services is a mapping");
    let names: Vec<&str> = services.keys().filter_map(|k| k.as_str()).collect();
    assert_eq!(names, ["db", "parlor"]);
    for name in names {
        let service = &compose["services"][name];
        assert_eq!(
            service["restart"].as_str(),
            Some("unless-stopped"),
            "{name}"
        );
        assert!(service["healthcheck"]["test"].is_sequence(), "{name}");
    }
    let parlor = &compose["services"]["parlor"];
    let test: Vec<&str> = parlor["healthcheck"]["test"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert_eq!(test, ["CMD", "parlor", "healthcheck"]);
    assert_eq!(
        parlor["depends_on"]["db"]["condition"].as_str(),
        Some("service_healthy")
    );
    let url = parlor["environment"]["DATABASE_URL"].as_str().unwrap();
    assert!(
        url.starts_with("postgres://") && url.contains("@db:"),
        "{url}"
    );
    assert_eq!(parlor["build"].as_str(), Some("."));
}
