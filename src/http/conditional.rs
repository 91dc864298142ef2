//! Versions as HTTP validators: `ETag: "<version>"`, `If-Match` (412 when stale) and
//! `If-None-Match` (304 when unchanged).

use std::future::{ready, Ready};

use actix_web::http::header::{self, ContentType, HeaderMap};
use actix_web::{dev::Payload, FromRequest, HttpRequest, HttpResponse, HttpResponseBuilder};

use super::error::ApiError;

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
        ApiError::BadRequest(format!(
            "If-Match must be a version in quotes, like \"12\", not {text:?}"
        ))
    })
}

/// `"12"`, `W/"12"` or a bare `12`.
fn parse_version(text: &str) -> Option<i64> {
    let text = text.strip_prefix("W/").unwrap_or(text);
    let text = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    text.parse().ok().filter(|v: &i64| *v >= 0)
}

pub fn etag(version: i64) -> (header::HeaderName, String) {
    (header::ETAG, format!("\"{version}\""))
}

/// Whether the client's `If-None-Match` already names this version.
pub fn not_modified(req: &HttpRequest, version: i64) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|list| {
            list.split(',')
                .any(|tag| tag.trim() == "*" || parse_version(tag.trim()) == Some(version))
        })
}

/// 304 with the ETag, or 200 with the body.
pub fn respond<T: serde::Serialize>(req: &HttpRequest, version: i64, body: &T) -> HttpResponse {
    if not_modified(req, version) {
        unchanged(version)
    } else {
        ok_with_etag(HttpResponse::Ok(), version, body)
    }
}

/// 201 Created with `Location` and the new resource's ETag.
pub fn created<T: serde::Serialize>(location: &str, version: i64, body: &T) -> HttpResponse {
    let mut builder = HttpResponse::Created();
    builder.insert_header((header::LOCATION, location));
    ok_with_etag(builder, version, body)
}

/// 304 Not Modified with the current ETag.
pub fn unchanged(version: i64) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header(etag(version))
        .finish()
}

/// The room an answer is written into from the start. Grown from serde_json's small default by
/// doubling, a long Go game's answer (about 3.5 KiB at move 375, its move list included) was
/// copied once more than a new game's (1.2 KiB); this holds both.
const ANSWER_ROOM: usize = 8 * 1024;

pub fn ok_with_etag<T: serde::Serialize>(
    mut builder: HttpResponseBuilder,
    version: i64,
    body: &T,
) -> HttpResponse {
    let mut json = Vec::with_capacity(ANSWER_ROOM);
    if let Err(e) = serde_json::to_writer(&mut json, body) {
        return actix_web::ResponseError::error_response(&ApiError::Internal(format!(
            "answer to JSON: {e}"
        )));
    }
    builder
        .insert_header(etag(version))
        .content_type(ContentType::json())
        .body(json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_in_every_common_form() {
        assert_eq!(parse_version("\"12\""), Some(12));
        assert_eq!(parse_version("W/\"3\""), Some(3));
        assert_eq!(parse_version("7"), Some(7));
        assert_eq!(parse_version("\"x\""), None);
        assert_eq!(parse_version("\"-1\""), None);
    }
}
