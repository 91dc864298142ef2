//! A client for server-sent events over real HTTP, as `EventSource` reads them: events split at
//! blank lines, `id:`, `event:` and `data:` fields, comments (keep-alives) skipped.

use std::time::Duration;

use serde_json::Value;

/// One event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub id: Option<i64>,
    pub name: String,
    pub data: Value,
}

/// An open stream.
pub struct EventStream {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    response: reqwest::Response,
    buffer: String,
    ended: bool,
}

impl EventStream {
    /// Opens `url`, with `Authorization: Bearer <token>` and `Last-Event-ID` when given.
    pub async fn open(
        client: &reqwest::Client,
        url: &str,
        token: Option<&str>,
        last_event_id: Option<i64>,
    ) -> Self {
        let mut request = client.get(url).header("accept", "text/event-stream");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id.to_string());
        }
        let response = request.send().await.expect("stream request sent");
        EventStream {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            response,
            buffer: String::new(),
            ended: false,
        }
    }

    /// The next event, or `None` once the server ended the stream. Panics after `wait` without
    /// one (a stream that should have spoken, or ended, hangs).
    pub async fn next(&mut self, wait: Duration) -> Option<Event> {
        tokio::time::timeout(wait, self.next_event())
            .await
            .unwrap_or_else(|_| panic!("no event and no end within {wait:?}"))
    }

    /// Whether nothing comes within `wait` (the stream stays open and quiet).
    pub async fn quiet_for(&mut self, wait: Duration) -> bool {
        tokio::time::timeout(wait, self.next_event()).await.is_err()
    }

    /// Every event until the server ends the stream, within `wait` in all.
    pub async fn until_end(&mut self, wait: Duration) -> Vec<Event> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut events = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match self.next(left).await {
                Some(event) => events.push(event),
                None => return events,
            }
        }
    }

    async fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(at) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..at + 2).collect();
                if let Some(event) = parse(&block) {
                    return Some(event);
                }
                continue;
            }
            if self.ended {
                return None;
            }
            match self.response.chunk().await {
                Ok(Some(bytes)) => self.buffer.push_str(&String::from_utf8_lossy(&bytes)),
                Ok(None) | Err(_) => self.ended = true,
            }
        }
    }
}

/// One block of lines; `None` for a comment-only block.
fn parse(block: &str) -> Option<Event> {
    let (mut id, mut name, mut data) = (None, String::from("message"), Vec::new());
    let mut any = false;
    for line in block.lines() {
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "" => continue,
            "id" => id = value.parse().ok(),
            "event" => name = value.to_owned(),
            "data" => data.push(value.to_owned()),
            _ => {}
        }
        any = true;
    }
    any.then(|| Event {
        id,
        name,
        data: serde_json::from_str(&data.join("\n")).unwrap_or(Value::Null),
    })
}
