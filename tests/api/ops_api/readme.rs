//! The README's curl walkthroughs run as printed: the ```sh blocks of the Gomoku, Go, UNO, seek
//! and clock sections (found by their headings), each section in one `bash -euo pipefail`, one after the
//! other in one working directory against one fresh server, as a reader pasting them into a shell
//! would. The only change is the server's address: the README's `B=http://127.0.0.1:8080` line
//! points at the test's server. A `curl` function in front makes an HTTP error fail the run
//! (`--fail-with-body`) instead of printing a problem and going on, and bounds every request.
//!
//! Then the games the walkthroughs left behind (their ids and tokens are in the files they wrote)
//! are read back, and some of the answers they printed are checked against the README's comments.
//!
//! Needs `curl` and `jq` on PATH (CI installs both); without them the test fails, it never skips.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::TestApp;
use serde_json::{json, Value};

/// The line every walkthrough's first block starts from.
const README_BASE: &str = "B=http://127.0.0.1:8080";

const GOMOKU: &str = "## A whole Gomoku game with curl";
const GO: &str = "## A short Go game with curl";
const UNO: &str = "## An UNO room with curl";
const SEEKS: &str = "## Finding an opponent";
const CLOCKS: &str = "## Clocks, draws and rematches";

/// Put in front of every walkthrough: an HTTP error (4xx, 5xx) fails the run, and no request hangs.
const PRELUDE: &str = "curl() { command curl --fail-with-body --max-time 60 \"$@\"; }\n";

fn readme() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

/// The ```sh blocks of the section under `heading` (up to the next `## `), in order, joined.
fn section_script(readme: &str, heading: &str) -> String {
    let mut lines = readme.lines();
    lines
        .by_ref()
        .find(|line| line.trim_end() == heading)
        .unwrap_or_else(|| panic!("README.md has no heading {heading:?}"));
    let mut script = String::new();
    let mut blocks = 0;
    let mut in_block = false;
    for line in lines {
        if !in_block && line.starts_with("## ") {
            break;
        }
        if in_block {
            if line.trim_end() == "```" {
                in_block = false;
            } else {
                script.push_str(line);
                script.push('\n');
            }
        } else if line.trim_end() == "```sh" {
            in_block = true;
            blocks += 1;
        }
    }
    assert!(!in_block, "an unclosed ```sh block under {heading:?}");
    assert!(blocks > 0, "no ```sh block under {heading:?}");
    script
}

/// The section's script aimed at `base`: the README's `B=` line becomes the test server's.
fn aimed_at(script: &str, base: &str, heading: &str) -> String {
    let mut found = 0;
    let aimed: String = script
        .lines()
        .map(|line| {
            if line.trim() == README_BASE {
                found += 1;
                format!("B={base}\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert!(
        found > 0,
        "the walkthrough under {heading:?} does not set `{README_BASE}` on a line of its own"
    );
    aimed
}

/// `program` on PATH, or a failure naming it: these walkthroughs are the README's promise.
fn require(program: &str) -> PathBuf {
    let paths = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
        .unwrap_or_else(|| {
            panic!(
                "the README walkthroughs need `{program}` on PATH, and it is missing \
                 (this test fails rather than skips; install it: apt-get install curl jq, \
                 as .ci/run does)"
            )
        })
}

/// Runs one walkthrough in `dir` with `bash -euo pipefail`; its standard output.
async fn run(app: &TestApp, dir: &Path, heading: &'static str) -> String {
    let script = aimed_at(&section_script(&readme(), heading), &app.base, heading);
    let file = dir.join(format!(
        "{}.sh",
        heading.trim_start_matches("## ").replace(' ', "_")
    ));
    std::fs::write(&file, format!("{PRELUDE}{script}")).expect("write the script");
    let dir = dir.to_owned();
    // The server runs on this test's runtime: wait for bash on a blocking thread.
    let output = tokio::task::spawn_blocking(move || {
        Command::new("bash")
            .args(["-euo", "pipefail"])
            .arg(&file)
            .current_dir(&dir)
            .env_remove("B")
            .output()
            .expect("bash runs")
    })
    .await
    .expect("the blocking thread");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the walkthrough under {heading:?} failed ({}):\n--- script ---\n{script}\n--- stdout ---\n\
         {stdout}\n--- stderr ---\n{stderr}",
        output.status
    );
    stdout
}

/// A JSON file the walkthrough wrote.
fn file(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(name))
        .unwrap_or_else(|e| panic!("the walkthrough left no {name}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON ({e}): {text}"))
}

fn text<'a>(value: &'a Value, what: &str) -> &'a str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("{what} is not a string: {value}"))
}

/// Each of `lines` ends a line of the walkthrough's output (the answers the README shows; an
/// answer printed before without a final newline, as `curl -s` leaves one, may begin that line).
fn printed(stdout: &str, heading: &str, lines: &[&str]) {
    for line in lines {
        assert!(
            stdout.lines().any(|l| l.trim_end().ends_with(line)),
            "the walkthrough under {heading:?} did not print {line}:\n{stdout}"
        );
    }
}

async fn game(app: &TestApp, kind: &str, id: &str, token: Option<&str>) -> Value {
    let path = format!("/v1/{kind}/games/{id}");
    let reply = match token {
        Some(token) => app.get_as(&path, token).await,
        None => app.get(&path).await,
    };
    reply.expect(200).body
}

async fn gomoku(app: &TestApp, dir: &Path) {
    let stdout = run(app, dir, GOMOKU).await;
    printed(&stdout, GOMOKU, &["\"finished\"", "9"]);

    let id = text(&file(dir, "game.json")["id"], "game.json id").to_owned();
    let won = game(app, "gomoku", &id, None).await;
    assert_eq!(won["status"], "finished", "{won}");
    assert_eq!(won["result"]["winners"], json!([0]), "{won}");
    assert_eq!(won["result"]["reason"], "five_in_row", "{won}");
    assert_eq!(
        won["state"]["winning_line"],
        json!(["h8", "i8", "j8", "k8", "l8"])
    );
    let alice = app.get("/v1/players/alice").await.expect(200).body;
    // A hot-seat game (both tokens the creator's) moves no score.
    assert_eq!(alice["gomoku"]["score"], 1000, "{alice}");

    // Against the AI: the undo went back to alice's turn, and the hint was not played.
    let id = text(&file(dir, "g.json")["id"], "g.json id").to_owned();
    let against_ai = game(app, "gomoku", &id, None).await;
    assert_eq!(against_ai["status"], "active", "{against_ai}");
    assert_eq!(against_ai["state"]["moves"], json!([]), "{against_ai}");
    let carol = app.get("/v1/players/carol").await.expect(200).body;
    assert_eq!(carol["registered"], true, "{carol}");
}

async fn go(app: &TestApp, dir: &Path) {
    let stdout = run(app, dir, GO).await;
    printed(
        &stdout,
        GO,
        &[
            "[\"A1\"]",
            "{\"black\":1,\"white\":0}",
            "{\"type\":\"undo\",\"taken_back\":[\"A2\"]}",
            "\"W+4.5\"",
            "\"B+17.5\"",
        ],
    );

    let moves = json!(["C3", "A1", "B1", "D4", "A2", "pass", "pass"]);
    let id = text(&file(dir, "go.json")["id"], "go.json id").to_owned();
    let played = game(app, "go", &id, None).await;
    assert_eq!(played["status"], "finished", "{played}");
    assert_eq!(played["state"]["size"], 5);
    assert_eq!(
        played["state"]["moves"], moves,
        "undo and redo left the line"
    );
    assert_eq!(
        played["state"]["captures"],
        json!({"black": 1, "white": 0}),
        "one stone captured, A1, once (the redo did not count it twice)"
    );
    assert_eq!(played["result"]["summary"], "W+4.5", "{played}");
    let score = app
        .get(&format!("/v1/go/games/{id}/score?dead=D4"))
        .await
        .expect(200)
        .body;
    assert_eq!(score["result"], "B+17.5", "{score}");
    assert_eq!(score["black"]["captures"], 2, "A1 and the dead D4: {score}");

    let sgf =
        std::fs::read_to_string(dir.join("game.sgf")).expect("the walkthrough saved game.sgf");
    for property in ["SZ[5]", "PB[alice]", "PW[bob]", "RE[W+4.5]"] {
        assert!(sgf.contains(property), "{property} missing: {sgf}");
    }
    assert!(
        sgf.contains(";B[cc];W[ae];B[be];W[db];B[ad];W[];B[])"),
        "{sgf}"
    );
    let copy = file(dir, "copy.json");
    assert_eq!(copy["status"], "finished", "{copy}");
    assert_eq!(copy["state"]["moves"], moves, "{copy}");
    assert_eq!(copy["result"]["summary"], "W+4.5", "{copy}");
    assert_ne!(copy["id"], played["id"], "the record made a new game");
}

async fn uno(app: &TestApp, dir: &Path) {
    let stdout = run(app, dir, UNO).await;
    printed(
        &stdout,
        UNO,
        &[
            "\"waiting\"",
            "\"open\"",
            "\"fixed\"",
            "[{\"type\":\"dealt\",\"seats\":2,\"cards_each\":7},\
             {\"type\":\"start_card\",\"card\":\"R7\",\"color\":\"red\"}]",
            "[\"W\",\"R1\",\"R2\",\"R3\",\"R4\",\"R5\",\"R6\"]",
            "[{\"type\":\"played\",\"seat\":0,\"card\":\"W\",\"color\":\"blue\"}]",
            "\"blue\"",
            "[]",
            "[{\"type\":\"drew\",\"seat\":1,\"count\":1,\"penalty\":false}]",
        ],
    );

    let created = file(dir, "uno.json");
    let id = text(&created["id"], "uno.json id").to_owned();
    let alice = text(&created["tokens"][0]["token"], "alice's token").to_owned();
    let joined = file(dir, "join.json");
    assert_eq!(joined["seat"], 1, "{joined}");
    let bob = text(&joined["token"], "bob's token").to_owned();

    let seen = game(app, "uno", &id, Some(&alice)).await;
    assert_eq!(seen["status"], "active", "{seen}");
    assert_eq!(seen["seats"][1]["name"], "bob", "{seen}");
    let state = &seen["state"];
    assert_eq!(
        state["top"],
        json!({"code": "W", "color": "blue"}),
        "{seen}"
    );
    assert_eq!(
        state["color"], "blue",
        "the wild's colour is in play: {seen}"
    );
    assert_eq!(seen["turn"], 0, "bob drew; alice is to act: {seen}");
    let hand: Vec<&str> = state["hand"]
        .as_array()
        .expect("alice's hand")
        .iter()
        .map(|card| text(&card["code"], "a card"))
        .collect();
    assert_eq!(
        hand,
        ["R1", "R2", "R3", "R4", "R5", "R6"],
        "the Wild left alice's hand"
    );
    assert_eq!(
        state["hands"],
        json!([{"seat": 0, "count": 6}, {"seat": 1, "count": 8}]),
        "{seen}"
    );
    let bobs = game(app, "uno", &id, Some(&bob)).await;
    assert_eq!(bobs["state"]["hand"].as_array().map(Vec::len), Some(8));

    let log = app
        .get(&format!("/v1/uno/games/{id}/moves"))
        .await
        .expect(200)
        .body;
    let moves: Vec<&Value> = log
        .as_array()
        .expect("the move log")
        .iter()
        .map(|entry| &entry["move"])
        .collect();
    assert!(
        moves.contains(&&json!({"action": "play", "card": "W", "color": "blue"})),
        "{log}"
    );
}

/// The five walkthroughs, in the README's order, against one server and in one directory.
#[actix_web::test]
async fn the_walkthroughs_run_as_printed() {
    for program in ["bash", "curl", "jq"] {
        require(program);
    }
    let app = common::spawn(common::Db::Sqlite)
        .await
        .expect("SQLite is always there");
    let dir = tempfile::tempdir().expect("a working directory");
    gomoku(&app, dir.path()).await;
    go(&app, dir.path()).await;
    uno(&app, dir.path()).await;
    seeks(&app, dir.path()).await;
    clocks(&app, dir.path()).await;
}

async fn clocks(app: &TestApp, dir: &Path) {
    let stdout = run(app, dir, CLOCKS).await;
    printed(
        &stdout,
        CLOCKS,
        &[
            "[true,1,\"timeout\"]",
            "[{\"type\":\"draw_offered\",\"by\":1}]",
            "\"draw\"",
            "[1,\"waiting\"]",
            "[0,\"active\",[\"ben\",\"ann\"]]",
            "\"abort\"",
            "[\"finished\",\"timeout\",[1]]",
        ],
    );
    let blitz = file(dir, "blitz.json");
    let id = text(&blitz["id"], "blitz.json id");
    let drawn = game(app, "gomoku", id, None).await;
    assert_eq!(drawn["result"]["reason"], "draw", "{drawn}");
    let again = file(dir, "again.json");
    let next = text(&again["game"]["id"], "again.json game.id");
    let rematch = game(app, "gomoku", next, None).await;
    assert_eq!(
        rematch["clock"]["control"]["type"], "fischer",
        "the same options: {rematch}"
    );
    let timed = file(dir, "timed.json");
    assert_eq!(timed["clock"]["control"]["type"], "byoyomi", "{timed}");
}

async fn seeks(app: &TestApp, dir: &Path) {
    let stdout = run(app, dir, SEEKS).await;
    printed(
        &stdout,
        SEEKS,
        &[
            "[\"open\",null]",
            "[\"paired\",1]",
            "event: paired",
            "[\"dan\",\"erin\",1]",
        ],
    );
    let dan = file(dir, "dan.json");
    let erin = file(dir, "erin.json");
    let id = text(&erin["paired"]["id"], "erin.json paired.id").to_owned();
    let token = text(&erin["secret"], "erin.json secret");
    let played = game(app, "gomoku", &id, Some(token)).await;
    assert_eq!(played["state"]["moves"], json!(["h8"]), "{played}");
    let seek = format!("/v1/seeks/{}", text(&dan["seek"]["id"], "dan.json seek.id"));
    let read = app
        .get_as(&seek, text(&dan["secret"], "dan.json secret"))
        .await;
    assert_eq!(read.expect(200).body["paired"]["id"], id.as_str());
}

#[test]
fn sections_are_found_and_aimed() {
    let readme = readme();
    for heading in [GOMOKU, GO, UNO, SEEKS, CLOCKS] {
        let script = section_script(&readme, heading);
        assert!(
            script.lines().next().map(str::trim) == Some(README_BASE),
            "the walkthrough under {heading:?} should start with `{README_BASE}`, so that it \
             can be pasted on its own"
        );
        let aimed = aimed_at(&script, "http://127.0.0.1:1", heading);
        assert!(!aimed.contains("8080"), "{aimed}");
    }
}
