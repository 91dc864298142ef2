//! A small W3C WebDriver client over reqwest, for the playground's browser test: chromedriver
//! started as a child process, one headless Chromium session per `Browser`. It speaks the dozen
//! commands the test uses; docs/decisions/0008-browser-test-client.md says why it is not a crate.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

/// The key under which WebDriver names an element.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A running chromedriver, killed when dropped.
pub struct Driver {
    child: Child,
    base: String,
    client: reqwest::Client,
}

impl Driver {
    /// Starts `chromedriver` on a free port and waits until it answers.
    pub async fn start(chromedriver: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let status = driver
                .client
                .get(format!("{}/status", driver.base))
                .send()
                .await;
            if status.is_ok_and(|s| s.status().is_success()) {
                return driver;
            }
            assert!(Instant::now() < deadline, "chromedriver never answered");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// A new headless Chromium of `width` × `height` CSS pixels (a phone's, with touch, when
    /// `phone`).
    pub async fn browser(&self, chromium: &Path, width: u32, height: u32, phone: bool) -> Browser {
        let mut options = json!({
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     format!("--window-size={width},{height}")],
        });
        if phone {
            options["mobileEmulation"] =
                json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}});
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options,
        }}});
        let session = call(
            &self.client,
            reqwest::Method::POST,
            &format!("{}/session", self.base),
            Some(capabilities),
        )
        .await;
        let id = session["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        Browser {
            client: self.client.clone(),
            session: format!("{}/session/{id}", self.base),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn call(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    body: Option<Value>,
) -> Value {
    let mut request = client.request(method.clone(), url);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request
        .send()
        .await
        .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = response.status();
    let answer: Value = response.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{method} {url}: {status} {answer}");
    answer["value"].clone()
}

/// One browser session.
pub struct Browser {
    client: reqwest::Client,
    session: String,
}

impl Browser {
    async fn command(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        call(
            &self.client,
            method,
            &format!("{}{path}", self.session),
            body,
        )
        .await
    }

    pub async fn go(&self, url: &str) {
        self.command(reqwest::Method::POST, "/url", Some(json!({ "url": url })))
            .await;
    }

    /// Runs `script` (a function body: `arguments`, `return`) in the page.
    pub async fn js(&self, script: &str, args: Value) -> Value {
        self.command(
            reqwest::Method::POST,
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
        .await
    }

    /// Runs `script` whose last argument is the callback that ends it.
    pub async fn js_async(&self, script: &str, args: Value) -> Value {
        self.command(
            reqwest::Method::POST,
            "/execute/async",
            Some(json!({"script": script, "args": args})),
        )
        .await
    }

    /// Waits until `script` returns something truthy, and answers it.
    pub async fn wait(&self, what: &str, script: &str, args: Value) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let found = self.js(script, args.clone()).await;
            if !matches!(found, Value::Null | Value::Bool(false)) {
                return found;
            }
            if Instant::now() > deadline {
                let error = self.text("[data-test=error]").await;
                panic!("waited 20 s for {what}; the page's error box says {error:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The element `css` selects, once there is one.
    async fn element(&self, css: &str) -> String {
        let script = "return document.querySelector(arguments[0])";
        let found = self.wait(css, script, json!([css])).await;
        found[ELEMENT].as_str().expect("an element").to_owned()
    }

    /// Clicks the element `css` selects (as a user does: it must be visible and enabled).
    pub async fn click(&self, css: &str) {
        let element = self.element(css).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/click"),
            Some(json!({})),
        )
        .await;
    }

    /// Types `text` into the element `css` selects, after clearing it.
    pub async fn fill(&self, css: &str, text: &str) {
        let element = self.element(css).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/clear"),
            Some(json!({})),
        )
        .await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/value"),
            Some(json!({ "text": text })),
        )
        .await;
    }

    /// Sends keys to the element `css` selects (WebDriver's codes: `\u{e007}` is Enter).
    pub async fn keys(&self, css: &str, text: &str) {
        let element = self.element(css).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/value"),
            Some(json!({ "text": text })),
        )
        .await;
    }

    /// Chooses `value` in the select `css` names, by keyboard as a user would not need to: the
    /// value is set and `change` fired.
    pub async fn choose(&self, css: &str, value: &str) {
        self.element(css).await;
        let script = "const e = document.querySelector(arguments[0]); e.value = arguments[1]; \
                      e.dispatchEvent(new Event('change', {bubbles: true})); return e.value";
        let set = self.js(script, json!([css, value])).await;
        assert_eq!(set, value, "{css} has no option {value}");
    }

    pub async fn text(&self, css: &str) -> Option<String> {
        let script =
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null";
        self.js(script, json!([css]))
            .await
            .as_str()
            .map(str::to_owned)
    }

    pub async fn attribute(&self, css: &str, name: &str) -> Option<String> {
        let script = "const e = document.querySelector(arguments[0]); \
                      return e ? e.getAttribute(arguments[1]) : null";
        self.js(script, json!([css, name]))
            .await
            .as_str()
            .map(str::to_owned)
    }

    /// Saves a PNG of the viewport as `dir/name.png`.
    pub async fn screenshot(&self, dir: &Path, name: &str) -> PathBuf {
        let png = self
            .command(reqwest::Method::GET, "/screenshot", None)
            .await;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().expect("base64"))
            .expect("a PNG");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, bytes).expect("the screenshot is written");
        path
    }

    pub async fn resize(&self, width: u32, height: u32) {
        self.command(
            reqwest::Method::POST,
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        )
        .await;
    }

    pub async fn quit(self) {
        self.command(reqwest::Method::DELETE, "", None).await;
    }
}
