//! A Parlor server process: started on a free port with only the settings a test gives it,
//! killed (`kill -9`) on demand or when dropped, its log printed when the test fails.

use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

pub fn tail(path: &Path, chars: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let start = text.len().saturating_sub(chars);
    let start = (start..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    text[start..].to_owned()
}

/// A Parlor server process; killed (SIGKILL) when dropped. Its output goes to a log file that is
/// printed when the test fails.
pub struct Parlor {
    name: String,
    child: Option<Child>,
    pub base: String,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Parlor {
    /// Starts the binary on a free port and waits until `/health` answers.
    pub async fn start(name: &str, database_url: &str, env: &[(&str, &str)]) -> Parlor {
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
            match server.wait_healthy(Duration::from_secs(60)).await {
                Ok(()) => return server,
                // Another process took the port between our probe and the bind: try another.
                Err(true) if tail(&server.log, 4000).contains("in use") => continue,
                Err(_) => panic!(
                    "{} did not become healthy; its log ends:\n{}",
                    server.name,
                    tail(&server.log, 4000)
                ),
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

    /// SIGTERM: the graceful stop a process manager asks for.
    pub fn terminate(&self) {
        let pid = self.child.as_ref().expect("running").id();
        let sent = Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -TERM {pid}");
    }

    /// Waits up to `within` for the process to exit; its exit status.
    pub fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let child = self.child.as_mut().expect("started");
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = child.try_wait().expect("try_wait") {
                self.child = None;
                return status;
            }
            assert!(Instant::now() < deadline, "{} did not exit", self.name);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `kill -9`: no shutdown hook, no flush, in-flight requests cut. Whether it was still running.
    pub fn kill9(&mut self) -> bool {
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
