//! Every failure a client can see, mapped to RFC 9457 problem details in one place.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::service::ServiceError;

/// Every failure a client can see: what the service answered, and the few failures only HTTP
/// has. `code` is the stable machine word of docs/API.md.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The path exists but not with this method; the value is the `Allow` header.
    #[error("this route answers only {0}")]
    MethodNotAllowed(&'static str),
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    /// The request's body did not arrive in time; the connection closes.
    #[error("the request body did not arrive within {0} s")]
    RequestTimeout(u64),
    /// A client asked for more (AI moves, creations) than its rate allows.
    #[error("too many {what} from this client; retry in {retry_after} s")]
    RateLimited {
        what: &'static str,
        retry_after: u32,
    },
}

/// RFC 9457 problem details, as every error response carries them.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"type": "https://parlor.dev/problems/illegal_move", "title": "Illegal move", "status": 422, "detail": "h8 is occupied", "code": "illegal_move"}))]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// Stable machine-readable error code.
    pub code: String,
}

impl ApiError {
    /// The stable machine word, the title and the status of this failure.
    fn kind(&self) -> (&'static str, &'static str, StatusCode) {
        use ServiceError as S;
        match self {
            ApiError::Service(err) => match err {
                S::BadInput(_) => (
                    "invalid_request",
                    "Invalid request",
                    StatusCode::BAD_REQUEST,
                ),
                S::Invalid(_) => (
                    "invalid_request",
                    "Invalid value",
                    StatusCode::UNPROCESSABLE_ENTITY,
                ),
                S::IllegalMove(_) => (
                    "illegal_move",
                    "Illegal move",
                    StatusCode::UNPROCESSABLE_ENTITY,
                ),
                S::Unauthenticated(_) => ("unauthorized", "Unauthorized", StatusCode::UNAUTHORIZED),
                S::Forbidden(_) => ("forbidden", "Forbidden", StatusCode::FORBIDDEN),
                S::NotFound(_) => ("not_found", "Not found", StatusCode::NOT_FOUND),
                S::NotYourTurn(_) => ("not_your_turn", "Not your turn", StatusCode::CONFLICT),
                S::GameOver => ("game_over", "Game over", StatusCode::CONFLICT),
                S::NotStarted => ("not_started", "Not started", StatusCode::CONFLICT),
                S::Conflict(_) => ("conflict", "Conflict", StatusCode::CONFLICT),
                S::PreconditionFailed(_) => (
                    "precondition_failed",
                    "Precondition failed",
                    StatusCode::PRECONDITION_FAILED,
                ),
                S::Unavailable { .. } => (
                    "unavailable",
                    "Service unavailable",
                    StatusCode::SERVICE_UNAVAILABLE,
                ),
                S::Internal(_) => (
                    "internal",
                    "Internal error",
                    StatusCode::INTERNAL_SERVER_ERROR,
                ),
            },
            ApiError::MethodNotAllowed(_) => (
                "method_not_allowed",
                "Method not allowed",
                StatusCode::METHOD_NOT_ALLOWED,
            ),
            ApiError::PayloadTooLarge(_) => (
                "payload_too_large",
                "Payload too large",
                StatusCode::PAYLOAD_TOO_LARGE,
            ),
            ApiError::RequestTimeout(_) => (
                "request_timeout",
                "Request timeout",
                StatusCode::REQUEST_TIMEOUT,
            ),
            ApiError::RateLimited { .. } => (
                "rate_limited",
                "Too many requests",
                StatusCode::TOO_MANY_REQUESTS,
            ),
        }
    }

    pub fn code(&self) -> &'static str {
        self.kind().0
    }

    pub fn problem(&self) -> Problem {
        let detail = match self {
            ApiError::Service(ServiceError::Internal(_)) => {
                "something went wrong on our side; it has been logged".into()
            }
            other => clip(other.to_string()),
        };
        Problem {
            kind: format!("https://parlor.dev/problems/{}", self.code()),
            title: self.kind().1.into(),
            status: self.status_code().as_u16(),
            detail,
            code: self.code().into(),
        }
    }
}

/// Details quote what the client sent (serde's messages, bad notation); a 60 KiB input must not
/// come back as a 60 KiB error.
const MAX_DETAIL_CHARS: usize = 400;

fn clip(detail: String) -> String {
    match detail.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((cut, _)) => format!("{}…", &detail[..cut]),
        None => detail,
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.kind().2
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Service(ServiceError::Internal(cause)) = self {
            tracing::error!(%cause, "internal error");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        // An error describes one request, never a resource: no cache may keep it.
        response.insert_header((header::CACHE_CONTROL, "no-store"));
        if let ApiError::RequestTimeout(_) = self {
            response.force_close();
        }
        if let ApiError::Service(ServiceError::Unavailable { retry_after, .. })
        | ApiError::RateLimited { retry_after, .. } = self
        {
            response.insert_header((header::RETRY_AFTER, retry_after.to_string()));
        }
        if let ApiError::MethodNotAllowed(allow) = self {
            response.insert_header((header::ALLOW, *allow));
        }
        if let ApiError::Service(ServiceError::Unauthenticated(_)) = self {
            response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        response.json(self.problem())
    }
}

/// serde's words, in a client's: no Rust type names (`u64`, `i64`, `usize` …), and never more
/// than a line of what the client sent.
pub fn client_words(serde_message: &str) -> String {
    let mut text = serde_message.to_owned();
    for (rust, plain) in [
        ("u8", "a small whole number"),
        ("u16", "a whole number"),
        ("u32", "a whole number"),
        ("u64", "a whole number"),
        ("usize", "a whole number"),
        ("i8", "a small whole number"),
        ("i32", "a whole number"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("a string", "text"),
        ("struct ", ""),
        ("enum ", ""),
    ] {
        text = replace_word(&text, rust, plain);
    }
    text
}

/// Replaces `word` where it stands alone (not inside another word).
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + word.len()..].chars().next();
        let alone = !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            || word.ends_with(' ');
        out.push_str(&rest[..at]);
        out.push_str(if alone { by } else { word });
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

/// Maps actix's JSON extractor failures: too large → 413, anything else → 400 with serde's words.
pub fn json_error(err: actix_web::error::JsonPayloadError, limit: usize) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    match err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::PayloadTooLarge(limit).into()
        }
        JsonPayloadError::Deserialize(e) => ApiError::Service(ServiceError::BadInput(format!(
            "invalid JSON body: {}",
            client_words(&e.to_string())
        )))
        .into(),
        JsonPayloadError::ContentType => ApiError::Service(ServiceError::BadInput(
            "the body must be JSON (`Content-Type: application/json`)".into(),
        ))
        .into(),
        _ => ApiError::Service(ServiceError::BadInput(
            "the request body could not be read as JSON".into(),
        ))
        .into(),
    }
}

/// Maps query-string failures to 400.
pub fn query_error(err: actix_web::error::QueryPayloadError) -> actix_web::Error {
    let detail = match err {
        actix_web::error::QueryPayloadError::Deserialize(e) => client_words(&e.to_string()),
        _ => "it could not be read".into(),
    };
    ApiError::Service(ServiceError::BadInput(format!(
        "invalid query string: {detail}"
    )))
    .into()
}

/// Maps path failures (a malformed id) to 404: the resource cannot exist.
pub fn path_error(_: actix_web::error::PathError) -> actix_web::Error {
    ApiError::Service(ServiceError::NotFound(
        "no such resource: the id in the path is not a valid UUID".into(),
    ))
    .into()
}
