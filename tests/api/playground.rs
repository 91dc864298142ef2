//! The playground at `/play/`: how the binary serves it (over plain HTTP), and the page itself in
//! a real headless Chromium driven over WebDriver: two browsers play Gomoku to a win, each seeing
//! the other's moves live, across a server restart that both pages reconnect from; a registered
//! player takes a seat back with the key in another browser; a Go game with a keyboard move, a
//! capture, an undo and the score view; an UNO turn with a wild card and its colour; a poker
//! deal. Each game is photographed at a desktop's and a phone's width
//! (`target/tmp/playground/`), and axe-core checks every view.
//!
//! The browser test needs `chromium` and `chromedriver` (Debian's `chromium` and
//! `chromium-driver`, which .ci/run installs): in CI it fails without them, elsewhere it skips and
//! says why. The hooks it uses (`data-test` attributes) are listed in docs/PLAYGROUND.md.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::common::webdriver::{Browser, Driver};
use crate::common::{self, Db, TestApp};

const HOW_TO_GET_CHROMIUM: &str =
    "apt-get install chromium chromium-driver (Debian's packages), as .ci/run does";

/// axe-core (npm, MPL-2.0), a test fixture: the accessibility check runs in the page.
const AXE: &str = include_str!("../fixtures/axe/axe.min.js");

#[actix_web::test]
async fn the_binary_serves_the_page_small_compressed_and_revalidated() {
    let app = common::spawn(Db::Sqlite).await.unwrap();
    let page = app.client.get(app.url("/play/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let header = |r: &reqwest::Response, name: &str| {
        r.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    assert_eq!(header(&page, "content-type").as_deref(), Some("text/html"));
    assert_eq!(header(&page, "cache-control").as_deref(), Some("no-cache"));
    let tag = header(&page, "etag").expect("an ETag");
    let again = app
        .client
        .get(app.url("/play/"))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    let module = app
        .client
        .get(app.url("/play/main.js"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(module.status(), 200);
    assert_eq!(header(&module, "content-encoding").as_deref(), Some("gzip"));
    assert!(header(&module, "content-type")
        .unwrap()
        .contains("javascript"));

    // A browser asking for the root is sent to the page; a script still gets JSON.
    let unfollowed = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let root = unfollowed
        .get(app.url("/"))
        .header("accept", "text/html,application/xhtml+xml")
        .send()
        .await
        .unwrap();
    assert_eq!(root.status(), 303);
    assert_eq!(header(&root, "location").as_deref(), Some("/play/"));
    assert_eq!(app.get("/").await.expect(200).body["playground"], "/play/");
    let bare = unfollowed.get(app.url("/play")).send().await.unwrap();
    assert_eq!(
        (bare.status().as_u16(), header(&bare, "location").as_deref()),
        (308, Some("/play/"))
    );
    app.get("/play/nothing.js")
        .await
        .assert_problem(404, "not_found");
    app.get("/play/TESTING.md")
        .await
        .assert_problem(404, "not_found");

    // Small: every file the page is made of, under 150 KB together.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/play");
    let total: u64 = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    assert!(total < 150 * 1024, "the page's files take {total} bytes");
}

/// Where the screenshots go: `target/tmp/playground/`.
fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playground");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Opens the lobby and waits until its stream is live (the page has set itself up).
async fn lobby(app: &TestApp, browser: &Browser) {
    browser.go(&app.url("/play/")).await;
    let live = "return document.querySelector('[data-test=lobby-state]')?.textContent === 'Live'";
    browser.wait("the lobby live", live, json!([])).await;
}

/// Waits until the status line's `data-status` is `status`.
async fn status_is(browser: &Browser, status: &str) {
    let script =
        "return document.querySelector('[data-test=status]')?.dataset.status === arguments[0]";
    browser
        .wait(&format!("status {status}"), script, json!([status]))
        .await;
}

/// The game's version as the page shows it.
async fn version(browser: &Browser) -> i64 {
    let shown = browser
        .attribute("[data-test=status]", "data-version")
        .await;
    shown.and_then(|v| v.parse().ok()).unwrap_or(-1)
}

/// Clicks `css`, then waits until the page shows a version after the one it showed.
async fn act(browser: &Browser, css: &str) {
    let before = version(browser).await;
    browser.click(css).await;
    let script =
        "return +document.querySelector('[data-test=status]')?.dataset.version > arguments[0]";
    browser
        .wait(&format!("a change after {css}"), script, json!([before]))
        .await;
}

async fn stone(browser: &Browser, point: &str) -> Option<String> {
    let css = format!("[data-test=point][data-point={point}]");
    browser.attribute(&css, "data-stone").await
}

/// Runs axe-core on the page as it is; panics listing the violations.
async fn accessible(browser: &Browser, view: &str) {
    browser.js(&format!("{AXE}\n;return true"), json!([])).await;
    let script = "const done = arguments[arguments.length - 1]; \
        axe.run(document).then(r => done(r.violations.map(v => \
          ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))), \
          e => done([{id: 'axe-failed', help: String(e)}]))";
    let violations = browser.js_async(script, json!([])).await;
    assert_eq!(
        violations,
        json!([]),
        "axe-core finds violations in the {view} view"
    );
}

/// The view at a desktop's width, then at a phone's (where it must not scroll sideways), then
/// back.
async fn photograph(browser: &Browser, name: &str) {
    let dir = artifacts();
    browser.screenshot(&dir, &format!("{name}-desktop")).await;
    browser.resize(360, 740).await;
    let width = "return window.innerWidth <= 360";
    browser.wait("the phone's width", width, json!([])).await;
    browser.screenshot(&dir, &format!("{name}-phone")).await;
    let widths = "return [document.documentElement.scrollWidth, window.innerWidth, \
        [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > \
        window.innerWidth + 1).slice(0, 6).map(e => e.tagName + '.' + e.className + '#' + \
        (e.dataset.test || '') + ':' + Math.round(e.getBoundingClientRect().right))]";
    let widths = browser.js(widths, json!([])).await;
    assert!(
        widths[0].as_i64() <= widths[1].as_i64(),
        "the {name} view scrolls sideways at a phone's width (page, window): {widths}"
    );
    browser.resize(1280, 900).await;
}

/// Chromium and chromedriver, or a skip (a failure in CI).
fn chromium() -> Option<(PathBuf, PathBuf)> {
    let browser = common::require_program("chromium", HOW_TO_GET_CHROMIUM)?;
    let driver = common::require_program("chromedriver", HOW_TO_GET_CHROMIUM)?;
    Some((browser, driver))
}

#[actix_web::test]
async fn the_playground_plays_every_game_in_a_real_browser() {
    let Some((chromium, chromedriver)) = chromium() else {
        return;
    };
    // Screenshots of an earlier run must not pass for this one's (.ci/run looks for them).
    let _ = std::fs::remove_dir_all(artifacts());
    let mut app = common::spawn(Db::Sqlite).await.unwrap();
    let driver = Driver::start(&chromedriver).await;
    let ann = driver.browser(&chromium, 1280, 900, false).await;
    let ben = driver.browser(&chromium, 1000, 900, false).await;
    gomoku_between_two_browsers(&mut app, &ann, &ben).await;
    a_seat_taken_back_with_the_key(&app, &ann, &ben).await;
    ben.quit().await;
    go_with_a_capture_an_undo_and_the_score(&app, &ann).await;
    uno_with_a_wild_card(&app, &ann).await;
    poker_deal(&app, &ann).await;
    ann.quit().await;
}

async fn gomoku_between_two_browsers(app: &mut TestApp, ann: &Browser, ben: &Browser) {
    lobby(app, ann).await;
    accessible(ann, "lobby").await;
    photograph(ann, "lobby").await;
    ann.fill("[data-test=player-name]", "ann").await;
    ann.choose("[data-test=create-opponent]", "friend").await;
    ann.fill("[data-test=create-size]", "9").await;
    ann.click("[data-test=create]").await;
    let link_script = "return document.querySelector('[data-test=share-link]')?.value";
    let link = ann.wait("the share link", link_script, json!([])).await;
    ben.go(link.as_str().unwrap()).await;
    status_is(ben, "active").await;
    status_is(ann, "active").await;
    assert_eq!(
        ann.attribute("[data-test=status]", "data-seat")
            .await
            .as_deref(),
        Some("0")
    );
    assert_eq!(
        ben.attribute("[data-test=status]", "data-seat")
            .await
            .as_deref(),
        Some("1")
    );
    // Each move arrives live in the other browser, which then answers; before ann's fourth move
    // the server restarts.
    let moves = ["c5", "a1", "d5", "a2", "e5", "a3", "f5", "a4", "g5"];
    for (n, point) in moves.iter().enumerate() {
        let (mover, watcher) = if n % 2 == 0 { (ann, ben) } else { (ben, ann) };
        if n == 6 {
            // The server goes down and comes back: both pages reconnect with fresh tickets, and
            // ben catches up on the move ann makes meanwhile.
            app.restart().await;
            mover
                .click(&format!("[data-test=point][data-point={point}]"))
                .await;
            let played =
                "return document.querySelector(`[data-test=point][data-point=${arguments[0]}]`)\
                          ?.dataset.stone === 'black'";
            watcher
                .wait(
                    &format!("{point} after the reconnect"),
                    played,
                    json!([point]),
                )
                .await;
            let live =
                "return document.querySelector('[data-test=stream-state]')?.textContent === 'Live'";
            for browser in [ann, ben] {
                browser.wait("the stream live again", live, json!([])).await;
            }
            continue;
        }
        mover
            .click(&format!("[data-test=point][data-point={point}]"))
            .await;
        let colour = if n % 2 == 0 { "black" } else { "white" };
        let script =
            "return document.querySelector(`[data-test=point][data-point=${arguments[0]}]`)\
                      ?.dataset.stone === arguments[1]";
        watcher
            .wait(
                &format!("{point} to arrive live"),
                script,
                json!([point, colour]),
            )
            .await;
    }
    status_is(ann, "finished").await;
    status_is(ben, "finished").await;
    for browser in [ann, ben] {
        browser
            .wait(
                "the winning line",
                "return !!document.querySelector('[data-test=winning-line]')",
                json!([]),
            )
            .await;
        assert_eq!(
            browser
                .attribute("[data-test=status]", "data-winners")
                .await
                .as_deref(),
            Some("0")
        );
    }
    assert!(ann
        .text("[data-test=status]")
        .await
        .unwrap()
        .contains("You win"));
    assert!(ben
        .text("[data-test=status]")
        .await
        .unwrap()
        .contains("You lose"));
    accessible(ann, "Gomoku").await;
    photograph(ann, "gomoku").await;
    ben.screenshot(&artifacts(), "gomoku-other-seat").await;
}

/// A registered player creates a game against the AI in one browser and takes the seat back in
/// another with the key; the first browser's token is then refused, and the page says why.
async fn a_seat_taken_back_with_the_key(app: &TestApp, first: &Browser, second: &Browser) {
    lobby(app, first).await;
    first.fill("[data-test=player-name]", "rhea").await;
    first.click("[data-test=register]").await;
    let shown = "return document.querySelector('[data-test=player-key-new]')?.textContent";
    let key = first.wait("the new key", shown, json!([])).await;
    first.choose("[data-test=create-opponent]", "ai").await;
    first.choose("[data-test=create-level]", "easy").await;
    first.click("[data-test=create]").await;
    status_is(first, "active").await;
    let link_script = "return document.querySelector('[data-test=share-link]')?.value";
    let link = first.wait("the game's link", link_script, json!([])).await;

    lobby(app, second).await;
    second
        .choose("[data-test=player-key]", key.as_str().unwrap())
        .await;
    second.go(link.as_str().unwrap()).await;
    status_is(second, "active").await;
    act(second, "[data-test=take-seat][data-seat='0']").await;
    let seat = "return document.querySelector('[data-test=status]')?.dataset.seat === '0'";
    second
        .wait("seat 0 in the second browser", seat, json!([]))
        .await;
    first.click("[data-test=point][data-point=h8]").await;
    let refused = "const e = document.querySelector('[data-test=error]'); \
                   return e && !e.hidden && e.textContent.length > 0";
    first
        .wait(
            "the old token refused, with the problem's detail",
            refused,
            json!([]),
        )
        .await;
    // The games that follow are a guest's.
    lobby(app, first).await;
    first.choose("[data-test=player-key]", "").await;
}

/// Plays Go point `target` (such as `C3`) with the keyboard alone, from the board's tab stop.
async fn by_keyboard(browser: &Browser, target: &str) {
    let stop = "[data-test=board] [tabindex='0']";
    browser
        .js(
            "document.querySelector(arguments[0]).focus()",
            json!([stop]),
        )
        .await;
    let focused = "return document.activeElement?.dataset.point";
    for _ in 0..10 {
        let at = browser.js(focused, json!([])).await;
        let at = at.as_str().expect("a point has the focus").to_owned();
        if at == target {
            let before = version(browser).await;
            browser.keys(stop, "\u{e007}").await;
            let script = "return +document.querySelector('[data-test=status]')?.dataset.version > arguments[0]";
            browser
                .wait("the keyboard's move", script, json!([before]))
                .await;
            assert_eq!(stone(browser, target).await.as_deref(), Some("black"));
            return;
        }
        let (column, row) = at.split_at(1);
        let (to_column, to_row) = target.split_at(1);
        let key = match (
            column.cmp(to_column),
            row.parse::<u32>().unwrap().cmp(&to_row.parse().unwrap()),
        ) {
            (std::cmp::Ordering::Less, _) => "\u{e014}",    // right
            (std::cmp::Ordering::Greater, _) => "\u{e012}", // left
            (_, std::cmp::Ordering::Less) => "\u{e013}",    // up: the rows count up the board
            _ => "\u{e015}",                                // down
        };
        browser.keys(stop, key).await;
    }
    panic!("the arrows never reached {target}");
}

async fn go_with_a_capture_an_undo_and_the_score(app: &TestApp, browser: &Browser) {
    lobby(app, browser).await;
    browser.fill("[data-test=player-name]", "gil").await;
    browser.choose("[data-test=create-game]", "go").await;
    browser
        .choose("[data-test=create-opponent]", "hotseat")
        .await;
    browser.choose("[data-test=create-takeback]", "any").await;
    browser.fill("[data-test=create-size]", "5").await;
    browser.click("[data-test=create]").await;
    status_is(browser, "active").await;
    // The first move by keyboard: the board is one tab stop, arrows move, Enter plays.
    by_keyboard(browser, "C3").await;
    for point in ["A1", "B1", "D4", "A2"] {
        act(browser, &format!("[data-test=point][data-point={point}]")).await;
    }
    assert_eq!(
        stone(browser, "A1").await.as_deref(),
        Some("empty"),
        "A2 took A1"
    );
    let captures = browser
        .text("[data-test=captures][data-color=black]")
        .await
        .unwrap();
    assert!(captures.contains('1'), "{captures}");
    act(browser, "[data-test=undo]").await;
    assert_eq!(
        stone(browser, "A1").await.as_deref(),
        Some("white"),
        "the undo gave A1 back"
    );
    assert_eq!(stone(browser, "A2").await.as_deref(), Some("empty"));
    act(browser, "[data-test=redo]").await;
    assert_eq!(
        stone(browser, "A1").await.as_deref(),
        Some("empty"),
        "the redo took A1 again"
    );
    browser.click("[data-test=score]").await;
    let result = "return document.querySelector('[data-test=score-result]')?.textContent";
    let alive = browser.wait("the score", result, json!([])).await;
    assert!(
        alive.as_str().unwrap().starts_with("W+"),
        "D4 alive: {alive}"
    );
    browser.click("[data-test=point][data-point=D4]").await;
    let dead =
        "return document.querySelector('[data-test=dead-stones]')?.textContent.includes('D4')";
    browser.wait("D4 marked dead", dead, json!([])).await;
    // With D4 dead black owns the board.
    let black_wins =
        "return document.querySelector('[data-test=score-result]')?.textContent.startsWith('B+')";
    browser
        .wait("black ahead with D4 dead", black_wins, json!([]))
        .await;
    accessible(browser, "Go").await;
    photograph(browser, "go").await;
}

async fn uno_with_a_wild_card(app: &TestApp, browser: &Browser) {
    lobby(app, browser).await;
    browser.fill("[data-test=player-name]", "una").await;
    browser.choose("[data-test=create-game]", "uno").await;
    browser.choose("[data-test=create-opponent]", "ai").await;
    browser.choose("[data-test=create-deck]", "test").await;
    browser.click("[data-test=create]").await;
    status_is(browser, "active").await;
    let playable = "return document.querySelector('[data-test=card][data-card=W]')?.dataset.playable === 'true'";
    browser
        .wait("a playable wild in the hand", playable, json!([]))
        .await;
    browser.click("[data-test=card][data-card=W]").await;
    browser
        .wait(
            "the colour picker",
            "return !!document.querySelector('[data-test=color-picker]')",
            json!([]),
        )
        .await;
    accessible(browser, "UNO colour picker").await;
    act(browser, "[data-test=color-choice][data-color=blue]").await;
    let top = "return document.querySelector('[data-test=top-card]')?.dataset.card === 'W' && \
               document.querySelector('[data-test=color]')?.dataset.color === 'blue'";
    browser
        .wait("the wild on top, blue in play", top, json!([]))
        .await;
    // The AI holds no blue card: its draw comes through the stream, and the turn comes back.
    let back = "return document.querySelector('[data-test=status]')?.dataset.turn === '0'";
    browser.wait("the AI's answer", back, json!([])).await;
    accessible(browser, "UNO").await;
    photograph(browser, "uno").await;
}

async fn poker_deal(app: &TestApp, browser: &Browser) {
    lobby(app, browser).await;
    browser.click("[data-test=nav-poker]").await;
    browser.fill("[data-test=poker-players]", "4").await;
    browser.fill("[data-test=poker-seed]", "42").await;
    browser.click("[data-test=poker-deal]").await;
    let dealt = "return document.querySelectorAll('[data-test=poker-hand]').length || null";
    assert_eq!(browser.wait("the hands", dealt, json!([])).await, json!(4));
    let hands = browser
        .js(
            "return [...document.querySelectorAll('[data-test=poker-hand]')].map(h => \
             ({category: h.dataset.category, winner: h.dataset.winner, \
               cards: h.querySelectorAll('[data-test=poker-card]').length}))",
            json!([]),
        )
        .await;
    let hands = hands.as_array().unwrap();
    assert!(
        hands
            .iter()
            .all(|h| h["category"].as_str().is_some_and(|c| !c.is_empty())),
        "{hands:?}"
    );
    assert!(hands.iter().any(|h| h["winner"] == "true"), "{hands:?}");
    assert!(
        hands.iter().all(|h| h["cards"].as_u64() >= Some(5)),
        "{hands:?}"
    );
    accessible(browser, "poker").await;
    photograph(browser, "poker").await;
}
