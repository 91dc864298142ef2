//! Versions as HTTP validators, and what a cache may keep.
//!
//! A game has several views of one version: the public one and each seat's (its UNO hand). Each
//! view has its own entity tag, so no cached view can validate another: `"12"` is the public view
//! of version 12 and `"12-seat-1"` seat 1's. `If-Match` on a change takes either form (or a bare
//! version): it names the version the client last saw. An answer that depends on `Authorization`
//! says `Vary: Authorization`; a seat's view is `private, no-cache`, a public one `no-cache`, and
//! an answer that carries a secret (a token or key) `no-store`.

use std::future::{ready, Ready};

use actix_web::http::header::{self, ContentType, HeaderMap, HeaderValue};
use actix_web::{dev::Payload, FromRequest, HttpRequest, HttpResponse, HttpResponseBuilder};

use super::error::ApiError;
use crate::games::Seat;
use crate::service::ServiceError;

/// The version an `If-Match` header demands; `None` without the header or with `*`.
pub struct IfMatch(pub Option<i64>);

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(if_match(req.headers()).map(IfMatch))
    }
}

fn if_match(headers: &HeaderMap) -> Result<Option<i64>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text == "*" {
        return Ok(None);
    }
    parse_version(text).map(Some).ok_or_else(|| {
        ApiError::Service(ServiceError::BadInput(format!(
            "If-Match must be an ETag this server gave, like \"12\" or \"12-seat-0\", not {text:?}"
        )))
    })
}

/// The version in `"12"`, `"12-seat-0"`, `W/"12"` or a bare `12`.
fn parse_version(text: &str) -> Option<i64> {
    let text = unquoted(text);
    let version = text.split_once("-seat-").map_or(text, |(v, _)| v);
    version.parse().ok().filter(|v: &i64| *v >= 0)
}

/// An entity tag without its weak prefix and quotes.
fn unquoted(text: &str) -> &str {
    let text = text.strip_prefix("W/").unwrap_or(text);
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
}

/// One view of one version: what an answer shows, and so its validator and cache policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub version: i64,
    /// The seat whose private view it is; `None` for the public (spectator's) view.
    pub seat: Option<Seat>,
}

impl View {
    pub fn public(version: i64) -> Self {
        View {
            version,
            seat: None,
        }
    }

    /// The entity tag's opaque text, without quotes.
    fn tag(self) -> String {
        match self.seat {
            None => self.version.to_string(),
            Some(seat) => format!("{}-seat-{seat}", self.version),
        }
    }

    fn headers(self, builder: &mut HttpResponseBuilder) {
        builder.insert_header((header::ETAG, format!("\"{}\"", self.tag())));
        builder.insert_header((header::VARY, HeaderValue::from_static("Authorization")));
        let policy = match self.seat {
            Some(_) => "private, no-cache",
            None => "no-cache",
        };
        builder.insert_header((header::CACHE_CONTROL, HeaderValue::from_static(policy)));
    }

    /// Whether the client's `If-None-Match` already holds this very view (weak comparison).
    pub fn held_by(self, req: &HttpRequest) -> bool {
        let tag = self.tag();
        req.headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|list| {
                list.split(',')
                    .map(str::trim)
                    .any(|t| t == "*" || unquoted(t) == tag)
            })
    }
}

/// 304 when the client holds this view, else 200 with the body.
pub fn respond<T: serde::Serialize>(req: &HttpRequest, view: View, body: &T) -> HttpResponse {
    if view.held_by(req) {
        unchanged(view)
    } else {
        ok(HttpResponse::Ok(), view, body)
    }
}

/// 201 Created with `Location` and the new resource's view. Its body carries a secret (the
/// creator's tokens), so no cache keeps it.
pub fn created<T: serde::Serialize>(location: &str, view: View, body: &T) -> HttpResponse {
    let mut builder = HttpResponse::Created();
    builder.insert_header((header::LOCATION, location));
    secret(ok(builder, view, body))
}

/// 304 Not Modified, with the view's validator and cache policy.
pub fn unchanged(view: View) -> HttpResponse {
    let mut builder = HttpResponse::NotModified();
    view.headers(&mut builder);
    builder.finish()
}

/// Marks an answer that carries a token, key or other secret: no cache may keep it.
pub fn secret(mut response: HttpResponse) -> HttpResponse {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The room an answer is written into from the start: a long Go game's answer holds its move list.
const ANSWER_ROOM: usize = 8 * 1024;

/// The body as JSON with the view's validator and cache policy.
pub fn ok<T: serde::Serialize>(
    mut builder: HttpResponseBuilder,
    view: View,
    body: &T,
) -> HttpResponse {
    let mut json = Vec::with_capacity(ANSWER_ROOM);
    if let Err(e) = serde_json::to_writer(&mut json, body) {
        return actix_web::ResponseError::error_response(&ApiError::Service(
            ServiceError::Internal(format!("answer to JSON: {e}")),
        ));
    }
    view.headers(&mut builder);
    builder.content_type(ContentType::json()).body(json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn versions_parse_in_every_common_form() {
        assert_eq!(parse_version("\"12\""), Some(12));
        assert_eq!(parse_version("\"12-seat-3\""), Some(12));
        assert_eq!(parse_version("W/\"3\""), Some(3));
        assert_eq!(parse_version("7"), Some(7));
        assert_eq!(parse_version("\"x\""), None);
        assert_eq!(parse_version("\"-1\""), None);
    }

    #[test]
    fn no_view_validates_another_view_of_the_same_version() {
        let views = [
            View::public(4),
            View {
                version: 4,
                seat: Some(0),
            },
            View {
                version: 4,
                seat: Some(1),
            },
        ];
        for held in views {
            let req = TestRequest::default()
                .insert_header((header::IF_NONE_MATCH, format!("\"{}\"", held.tag())))
                .to_http_request();
            for asked in views {
                assert_eq!(asked.held_by(&req), asked == held, "{held:?} vs {asked:?}");
            }
        }
    }
}
