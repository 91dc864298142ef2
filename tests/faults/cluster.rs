//! A throw-away PostgreSQL cluster of the test's own (`initdb` into a temp dir), so the restart
//! test can stop and start the database under a running Parlor without touching anyone else's.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use super::process::{free_port, tail};

/// How to get what [`PgCluster::create`] needs, for the skip (or the CI failure) that names it.
pub const HOW_TO_GET_INITDB: &str = "install the PostgreSQL server binaries \
    (`apt-get install postgresql`: initdb and pg_ctl in /usr/lib/postgresql/*/bin or on PATH); \
    as root a `postgres` user and `runuser` are needed too. .ci/run installs them";

/// A throw-away PostgreSQL cluster in a temp dir, run as the `postgres` user when we are root.
/// Dropping it stops it (`immediate`) and removes the directory.
pub struct PgCluster {
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
    pub fn create() -> Result<PgCluster, String> {
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

    pub fn url(&self) -> String {
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

    pub fn start(&self) -> Result<(), String> {
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

    pub fn stop(&self, mode: &str) -> Result<(), String> {
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

/// A new private cluster, or `None` after a skip (a failure in CI) saying why there is none.
pub async fn private_cluster() -> Option<PgCluster> {
    match tokio::task::spawn_blocking(PgCluster::create)
        .await
        .unwrap()
    {
        Ok(cluster) => Some(cluster),
        Err(why) => {
            crate::common::skip(
                &format!("private PostgreSQL cluster ({why})"),
                HOW_TO_GET_INITDB,
            );
            None
        }
    }
}
