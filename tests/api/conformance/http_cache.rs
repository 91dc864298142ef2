//! A tiny HTTP cache (RFC 9111) to put between the tests and the server, the way a browser's
//! cache or a proxy sits between a page and Parlor.
//!
//! It stores every answer that does not say `no-store`, keyed by URL, and always revalidates
//! (Parlor's views say `no-cache`): it sends the stored `ETag` as `If-None-Match` with the
//! request's own `Authorization`, and on 304 answers with the stored body. Honouring `Vary` it
//! keeps one entry per `Authorization`, as a browser does; ignoring it, one entry per URL, as a
//! broken shared cache might. Either way a 304 hands back whatever it stored, so only distinct
//! validators per view keep one viewer from getting another's view.

use std::collections::HashMap;

use serde_json::Value;

struct Entry {
    authorization: Option<String>,
    varies_on_authorization: bool,
    etag: String,
    body: Value,
}

pub struct Cache {
    honour_vary: bool,
    entries: HashMap<String, Vec<Entry>>,
}

impl Cache {
    pub fn new(honour_vary: bool) -> Self {
        Cache {
            honour_vary,
            entries: HashMap::new(),
        }
    }

    /// `GET url` as the holder of `token` (or nobody), through the cache.
    pub async fn get(&mut self, client: &reqwest::Client, url: &str, token: Option<&str>) -> Value {
        let authorization = token.map(|t| format!("Bearer {t}"));
        let honour_vary = self.honour_vary;
        let stored = self.entries.get(url).and_then(|entries| {
            entries.iter().rev().find(|e| {
                !(honour_vary && e.varies_on_authorization) || e.authorization == authorization
            })
        });
        let mut request = client.get(url);
        if let Some(auth) = &authorization {
            request = request.header("authorization", auth);
        }
        if let Some(entry) = stored {
            request = request.header("if-none-match", &entry.etag);
        }
        let response = request.send().await.expect("the server answers");
        if response.status() == reqwest::StatusCode::NOT_MODIFIED {
            return stored
                .expect("a 304 answers a conditional request")
                .body
                .clone();
        }
        assert_eq!(response.status(), reqwest::StatusCode::OK);
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let cache_control = header("cache-control").unwrap_or_default();
        let varies_on_authorization = header("vary").is_some_and(|v| {
            v.split(',')
                .any(|h| h.trim().eq_ignore_ascii_case("authorization"))
        });
        let etag = header("etag");
        let body: Value = response.json().await.expect("a JSON body");
        if let (Some(etag), false) = (etag, cache_control.contains("no-store")) {
            let entries = self.entries.entry(url.to_owned()).or_default();
            if honour_vary && varies_on_authorization {
                entries.retain(|e| e.authorization != authorization);
            } else {
                entries.clear();
            }
            entries.push(Entry {
                authorization,
                varies_on_authorization,
                etag,
                body: body.clone(),
            });
        }
        body
    }
}
